import { describe, expect, it } from 'vitest';
import { FEATURE_NAMES } from './candidates.js';
import { FIT_OPTIONS, fitTrees, likelihood, type TreeNode, type Trees } from './judge.js';
import model from './judge-model.json' with { type: 'json' };

/** Evenly spread points of the unit square, and whether each lies in a corner of it. */
function plantedRule() {
  const rows: number[][] = [];
  for (let i = 0; i < 30; i++)
    for (let j = 0; j < 30; j++) rows.push([(i + 0.5) / 30, (j + 0.5) / 30, (i * j) % 7]);
  const labels = rows.map(([x, y]) => +(x! > 0.5 && y! < 0.3));
  return { rows, labels };
}

const features = (node: TreeNode): number[] =>
  'value' in node ? [] : [node.feature, ...features(node.left), ...features(node.right)];

describe('the trees that judge candidate regions', () => {
  it('learn a rule over two numbers, leaving the third aside, the same every time', () => {
    const { rows, labels } = plantedRule();
    const trees = fitTrees(rows, labels);
    const right = rows.filter((row, k) => +(likelihood(trees, row) >= 0.5) === labels[k]).length;
    expect(right / rows.length).toBeGreaterThan(0.97);
    expect(likelihood(trees, [0.9, 0.1, 3])).toBeGreaterThan(0.9);
    expect(likelihood(trees, [0.1, 0.9, 3])).toBeLessThan(0.1);
    expect(fitTrees(rows, labels)).toEqual(trees);
  });

  it('start from the share of damage when there are no trees', () => {
    const trees: Trees = { base: Math.log(1 / 3), rate: 0.1, trees: [] };
    expect(likelihood(trees, [1, 2, 3])).toBeCloseTo(0.25);
  });

  it('as shipped, split only on the numbers a candidate has', () => {
    const shipped = model as Trees;
    expect(shipped.trees.length).toBe(FIT_OPTIONS.rounds);
    const used = new Set(shipped.trees.flatMap(features));
    expect(Math.max(...used)).toBeLessThan(FEATURE_NAMES.length);
  });
});
