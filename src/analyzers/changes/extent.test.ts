import { describe, expect, it } from 'vitest';
import type { Point } from '../ocr/types.js';
import { onVehicle } from './extent.js';

// The features' hull on the right half of a car whose box is 0..400 × 0..300: its rows are 100..200.
const EXTENT: Point[] = [
  [250, 100],
  [350, 100],
  [350, 200],
  [250, 200],
];
const box = (x: number, y: number, width = 40, height = 20) => ({ x, y, width, height });

describe('onVehicle', () => {
  it('takes a region whose centre is within the extent, solid or not', () => {
    expect(onVehicle(EXTENT, box(280, 140), 10)).toBe(true);
  });

  it('takes a solid region past the side of the extent, on its rows: a panel on flat paint', () => {
    expect(onVehicle(EXTENT, box(40, 140), 0.5 * 40 * 20)).toBe(true);
  });

  it('leaves out a ragged region there, or a solid one above or below the rows', () => {
    // The backdrop past the vehicle's end or through a window changes in ragged patches.
    expect(onVehicle(EXTENT, box(40, 140), 0.3 * 40 * 20)).toBe(false);
    // Above the roof and on the ground, solid or not.
    expect(onVehicle(EXTENT, box(40, 40), 40 * 20)).toBe(false);
    expect(onVehicle(EXTENT, box(280, 250), 40 * 20)).toBe(false);
  });
});
