import { describe, expect, it } from 'vitest';
import { dotsOf, isDotted, joinDots } from './dot-matrix.js';
import type { RgbImage } from './ocr/index.js';

/** The 5 × 7 dots of a zero: its outline and a slash. */
const ZERO = ['.###.', '#...#', '#..##', '#.#.#', '##..#', '#...#', '.###.'];

/**
 * A 48 px high line of `count` zeros on a dark display: each lit dot a `dot` × `dot` square at a pitch
 * of `pitch` (dot = pitch: the dots touch, as strokes), light orange on near black.
 */
function display(count: number, dot: number, pitch = 5): RgbImage {
  const [width, height] = [count * 6 * pitch + 8, 48];
  const data = new Uint8Array(width * height * 3);
  for (let i = 0; i < width * height; i++) data.set([20, 16, 14], i * 3);
  for (let n = 0; n < count; n++)
    for (const [row, pattern] of ZERO.entries())
      for (const [column, mark] of [...pattern].entries()) {
        if (mark !== '#') continue;
        const [left, top] = [4 + (n * 6 + column) * pitch, 6 + row * pitch];
        for (let y = top; y < top + dot; y++)
          for (let x = left; x < left + dot; x++) data.set([230, 120, 60], (y * width + x) * 3);
      }
  return { data, width, height };
}

describe('dot-matrix lines', () => {
  it('tells a line drawn in dots from one drawn in strokes', () => {
    expect(dotsOf(display(6, 3)).share).toBe(1);
    expect(isDotted(display(6, 3))).toBe(true);
    expect(dotsOf(display(6, 5)).share).toBe(0);
    expect(isDotted(display(6, 5))).toBe(false);
  });

  it('needs two characters of dots: a few specks are no display', () => {
    expect(dotsOf(display(2, 3)).dots).toBe(38);
    expect(isDotted(display(2, 3))).toBe(true);
    expect(dotsOf(display(1, 3)).dots).toBe(19);
    expect(isDotted(display(1, 3))).toBe(false);
  });

  it('joins the dots: the blurred line is read as strokes', () => {
    const joined = joinDots(display(6, 3));
    expect(joined.width).toBe(display(6, 3).width);
    expect(isDotted(joined)).toBe(false);
    // Between two dots of the zero's top row, the ground now shows ink.
    const gap = (image: RgbImage) => image.data[(7 * image.width + 4 + 5 + 4) * 3]!;
    expect(gap(display(6, 3))).toBe(20);
    expect(gap(joined)).toBeGreaterThan(80);
  });

  it('is the same on every call (plain arithmetic, no time or machine dependence)', () => {
    expect(Buffer.from(joinDots(display(3, 3)).data)).toEqual(Buffer.from(joinDots(display(3, 3)).data));
  });
});
