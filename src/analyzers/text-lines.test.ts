import { describe, expect, it } from 'vitest';
import { polarityAt } from './text-lines.js';

/** A 48 px high line crop of `ground`, with a 6 px stroke of `stroke` down the middle of each 30 px cell. */
function crop(cells: readonly (readonly [ground: number, stroke: number])[]) {
  const [width, height] = [30 * cells.length, 48];
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const [ground, stroke] = cells[Math.floor(x / 30)]!;
      data.fill(
        x % 30 >= 12 && x % 30 < 18 && y >= 8 && y < 40 ? stroke : ground,
        (y * width + x) * 3,
        (y * width + x + 1) * 3,
      );
    }
  return { width, height, data };
}

describe('polarityAt', () => {
  it('tells a dark character on light ground from a light one on dark, whatever the ground level', () => {
    // White on black drums, then a black on white tenths drum; under glare, the drums' ground grey.
    const line = crop([
      [20, 230],
      [150, 250],
      [230, 15],
    ]);
    const at = (cell: number) => polarityAt(line, (cell * 30 + 15) / line.width);
    expect(at(0)).toBeLessThan(-0.15);
    expect(at(1)).toBeLessThan(-0.15);
    expect(at(2)).toBeGreaterThan(0.15);
  });
});
