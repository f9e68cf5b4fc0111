import { describe, expect, it } from 'vitest';
import { resampleRows, warp } from './sampling.js';

/** A `width` × `height` RGB image of varied values. */
const image = (width: number, height: number) => ({
  data: Uint8Array.from({ length: width * height * 3 }, (_, i) => (i * 7919 + (i >> 5)) % 256),
  width,
  height,
});

/** The rows `resampleRows` hands over, as one array. */
function rows(source: ReturnType<typeof image>, scale: number, width: number, height: number): number[] {
  const out: number[] = [];
  resampleRows(source, scale, width, height, (_, row) => out.push(...row));
  return out;
}

describe('resampling', () => {
  it('hands over the image as it is at scale 1, as the sampled filter gives it', () => {
    const source = image(37, 23);
    const identity = [1, 0, 0, 0, 1, 0, 0, 0, 1] as const;
    expect(rows(source, 1, 37, 23)).toEqual([...warp(source, identity, 37, 23, 1).data]);
    expect(rows(source, 1, 37, 23)).toEqual([...source.data]);
    // A part of it (the last rows or columns of a padded size left out) too.
    expect(rows(source, 1, 30, 20)).toEqual([...warp(source, identity, 30, 20, 1).data]);
  });
});
