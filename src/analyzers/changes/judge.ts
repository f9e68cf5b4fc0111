// Which candidate regions of a comparison are damage: gradient-boosted decision trees over a few numbers
// that describe each candidate (./candidates.ts), fitted on the change bench's tuning part
// (bench/train-changes.ts) and kept as data in ./judge-model.json. Each rule that used to drop a region
// looked at one number at a time (off the vehicle, found nearby, too weak, too small), and loosening any
// one of them let in as many false regions as damages; the trees weigh them together
// (docs/adr/0016-change-detection-with-opencv.md, stop 47). Fitting has no randomness, and a tree is a
// fixed walk: the same candidates give the same likelihoods on any machine.

/** A node: split on `feature` at `at` (left when the value is at most `at`), or a leaf's `value`. */
export type TreeNode = { feature: number; at: number; left: TreeNode; right: TreeNode } | { value: number };

export interface Trees {
  /** The log-odds every candidate starts from. */
  base: number;
  rate: number;
  trees: TreeNode[];
}

export interface FitOptions {
  rounds: number;
  depth: number;
  rate: number;
  /** A split leaves this many candidates on either side at least. */
  minLeaf: number;
}

/**
 * Tuning part of the 300 pairs, cross-validated by pair (found of 316; false regions per pair with
 * damage, without change, at the likelihood kept): 150 trees of depth 3, 259, 0.17, 0.10 at 0.5 (268,
 * 0.27, 0.21 at 0.4); 300 of depth 4, 279, 0.19, 0.17; 300 of depth 5, 277, 0.20, 0.15; 500 of depth 4,
 * 284, 0.19, 0.17.
 */
export const FIT_OPTIONS: FitOptions = { rounds: 500, depth: 4, rate: 0.1, minLeaf: 10 };

/** The likelihood (0..1) that a candidate described by `features` is damage. */
export function likelihood(model: Trees, features: readonly number[]): number {
  let sum = model.base;
  for (const tree of model.trees) sum += model.rate * leafOf(tree, features);
  return 1 / (1 + Math.exp(-sum));
}

function leafOf(node: TreeNode, features: readonly number[]): number {
  let at = node;
  while (!('value' in at)) at = features[at.feature]! <= at.at ? at.left : at.right;
  return at.value;
}

/**
 * Trees fitted to `labels` (1: damage) by gradient boosting of the log-likelihood, each tree's leaves
 * the mean residual of their candidates. Splits are tried at each feature's 5th, 10th, ... 95th
 * percentiles of the whole set.
 */
export function fitTrees(
  rows: readonly (readonly number[])[],
  labels: readonly number[],
  options = FIT_OPTIONS,
): Trees {
  const mean = labels.reduce((s, y) => s + y, 0) / labels.length;
  const base = Math.log(mean / (1 - mean));
  const cuts = (rows[0] ?? []).map((_, j) => percentileCuts(rows.map((row) => row[j]!)));
  const sums = rows.map(() => base);
  const trees: TreeNode[] = [];
  const all = rows.map((_, i) => i);
  for (let round = 0; round < options.rounds; round++) {
    const residual = labels.map((y, i) => y - 1 / (1 + Math.exp(-sums[i]!)));
    const tree = grow(rows, residual, all, cuts, options.depth, options.minLeaf);
    trees.push(tree);
    rows.forEach((row, i) => (sums[i]! += options.rate * leafOf(tree, row)));
  }
  return { base, rate: options.rate, trees };
}

/** The distinct values at the 5th to 95th percentiles (linear between neighbours), in steps of 5. */
function percentileCuts(values: number[]): number[] {
  const sorted = [...values].sort((p, q) => p - q);
  const cuts = new Set<number>();
  for (let k = 1; k <= 19; k++) {
    const at = (k / 20) * (sorted.length - 1);
    const low = Math.floor(at);
    const high = Math.min(sorted.length - 1, low + 1);
    cuts.add(sorted[low]! + (sorted[high]! - sorted[low]!) * (at - low));
  }
  return [...cuts].sort((p, q) => p - q);
}

function grow(
  rows: readonly (readonly number[])[],
  residual: readonly number[],
  members: number[],
  cuts: number[][],
  depth: number,
  minLeaf: number,
): TreeNode {
  const total = members.reduce((s, i) => s + residual[i]!, 0);
  const leaf = { value: members.length ? total / members.length : 0 };
  if (depth === 0 || members.length < 2 * minLeaf) return leaf;
  let best: { gain: number; feature: number; at: number } | undefined;
  const n = members.length;
  cuts.forEach((values, feature) => {
    for (const at of values) {
      let [left, count] = [0, 0];
      for (const i of members)
        if (rows[i]![feature]! <= at) {
          left += residual[i]!;
          count++;
        }
      if (count < minLeaf || n - count < minLeaf) continue;
      const right = total - left;
      const gain = (left * left) / count + (right * right) / (n - count) - (total * total) / n;
      if (gain > (best?.gain ?? 0)) best = { gain, feature, at };
    }
  });
  if (!best) return leaf;
  const { feature, at } = best;
  const [lower, upper] = [
    members.filter((i) => rows[i]![feature]! <= at),
    members.filter((i) => rows[i]![feature]! > at),
  ];
  return {
    feature,
    at,
    left: grow(rows, residual, lower, cuts, depth - 1, minLeaf),
    right: grow(rows, residual, upper, cuts, depth - 1, minLeaf),
  };
}
