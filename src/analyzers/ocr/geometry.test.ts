import { describe, expect, it } from 'vitest';
import { decodeCtc, foldClasses } from './ctc.js';
import { convexHull, mapPoint, minAreaRect, rectCorners, squareToQuad, topEdgeAngle } from './geometry.js';
import { dictionaryCharacters } from './models.js';
import type { Point, Quad } from './types.js';

describe('decodeCtc', () => {
  const characters = ['', 'A', 'B', ' '];
  /** One row of probabilities per step, the given class at 0.9. */
  const steps = (classes: number[]) =>
    Float32Array.from(classes.flatMap((k) => characters.map((_, j) => (j === k ? 0.9 : 0.1 / 3))));

  it('collapses repeats, drops blanks and keeps a repeat split by a blank', () => {
    const line = decodeCtc(steps([1, 1, 0, 1, 2, 2]), 6, 4, characters);
    expect(line.text).toBe('AAB');
    expect(line.chars.map((c) => c.confidence)).toEqual([0.9, 0.9, 0.9].map(Math.fround));
    expect(line.chars.map((c) => c.x)).toEqual([0.5 / 6, 3.5 / 6, 4.5 / 6]);
  });

  it('pools the classes a folding joins and leaves out those it drops', () => {
    const dictionary = ['', 'A', 'a', '字', ' '];
    // Step 1: 'a' 0.4 + 'A' 0.3 beat the blank's 0.2; step 2: '字' 0.6 is left out, the blank's 0.3 wins.
    const probabilities = Float32Array.from([0.1, 0.3, 0.4, 0.1, 0.1, 0.3, 0.05, 0.05, 0.6, 0]);
    const folding = foldClasses(dictionary, (char) => (char === '字' ? undefined : char.toUpperCase()));
    const line = decodeCtc(probabilities, 2, 5, dictionary, { folding });
    expect(line.text).toBe('A');
    expect(line.chars[0]!.confidence).toBeCloseTo(0.7, 6);
    expect(decodeCtc(probabilities, 2, 5, dictionary).text).toBe('a字');
  });

  it("gives each character its rival, the step's next likeliest character, none when that is the blank", () => {
    // Step 1: A 0.5, B 0.4 (B is the rival); step 2: B 0.6, the blank 0.3 (no rival).
    const probabilities = Float32Array.from([0.05, 0.5, 0.4, 0.05, 0.3, 0.05, 0.6, 0.05]);
    const line = decodeCtc(probabilities, 2, 4, characters);
    expect(line.chars.map((c) => [c.char, c.rival?.char, c.rival?.confidence])).toEqual([
      ['A', 'B', Math.fround(0.4)],
      ['B', undefined, undefined],
    ]);
  });

  it('drops spaces at either end, keeps those inside, and reads nothing as confidence 0', () => {
    expect(decodeCtc(steps([3, 1, 3, 2, 3]), 5, 4, characters).text).toBe('A B');
    expect(decodeCtc(steps([0, 0]), 2, 4, characters)).toEqual({ text: '', confidence: 0, chars: [] });
  });
});

describe('geometry', () => {
  it('finds the hull and the minimum-area rectangle of a turned rectangle', () => {
    const corners: Quad = rectCorners({
      cx: 50,
      cy: 20,
      ux: Math.cos(0.2),
      uy: Math.sin(0.2),
      width: 40,
      height: 10,
    });
    const inside: Point[] = [
      [50, 20],
      [45, 21],
      [55, 19],
    ];
    expect(convexHull([...corners, ...inside])).toHaveLength(4);
    const rect = minAreaRect([...corners, ...inside]);
    expect(rect.width * rect.height).toBeCloseTo(400, 6);
    expect(Math.abs(topEdgeAngle(rectCorners(rect)))).toBeCloseTo((0.2 * 180) / Math.PI, 6);
  });

  it('maps the unit square onto any quad, corner to corner', () => {
    const quad: Quad = [
      [10, 10],
      [90, 20],
      [80, 60],
      [5, 40],
    ];
    const m = squareToQuad(quad);
    const unit: Point[] = [
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 1],
    ];
    unit.forEach(([x, y], i) => {
      const [px, py] = mapPoint(m, x, y);
      expect(px).toBeCloseTo(quad[i]![0], 9);
      expect(py).toBeCloseTo(quad[i]![1], 9);
    });
  });
});

describe('dictionaryCharacters', () => {
  it('takes one character per line, a final newline adding none', () => {
    expect(dictionaryCharacters('a\nb\r\n \n')).toEqual(['a', 'b', ' ']);
  });
});
