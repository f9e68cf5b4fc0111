import { describe, expect, it } from 'vitest';
import { laplacianVariance } from '../../../src/domain/photo-quality.js';
import {
  centreCrop,
  CENTRE_HEIGHT,
  CENTRE_WIDTH,
  greyFramesOf,
  sample,
  WHOLE_WIDTH,
  type LumaPlane,
} from './grey-frames.js';

/** A `width` × `height` luma plane with rows padded to `stride`, its pixels from `at(x, y)`. */
function plane(
  width: number,
  height: number,
  at: (x: number, y: number) => number,
  options: { stride?: number; offset?: number; fullRange?: boolean } = {},
): LumaPlane {
  const stride = options.stride ?? width;
  const offset = options.offset ?? 0;
  const data = new Uint8Array(offset + stride * height).fill(99);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data[offset + y * stride + x] = at(x, y);
  return { data, offset, stride, width, height, fullRange: options.fullRange ?? true };
}

describe('grey pictures from a luma plane', () => {
  it('keeps the frame’s shape in the whole picture and reads only the plane’s own pixels', () => {
    // Padding bytes (99) past each row's end and before the plane must never be read.
    const frame = greyFramesOf(plane(1280, 960, () => 200, { stride: 1344, offset: 64 }));
    expect(frame.wholeHeight).toBe(60);
    expect(frame.whole).toHaveLength(WHOLE_WIDTH * 60);
    expect(frame.centre).toHaveLength(CENTRE_WIDTH * CENTRE_HEIGHT);
    expect(new Set(frame.whole)).toEqual(new Set([200]));
    expect(new Set(frame.centre)).toEqual(new Set([200]));
  });

  it('stretches video-range luma (black 16, white 235) to 0–255, as a canvas draws it', () => {
    const dark = sample(
      plane(64, 64, () => 16, { fullRange: false }),
      [0, 0, 64, 64],
      8,
      8,
    );
    const white = sample(
      plane(64, 64, () => 235, { fullRange: false }),
      [0, 0, 64, 64],
      8,
      8,
    );
    const mid = sample(
      plane(64, 64, () => 126, { fullRange: false }),
      [0, 0, 64, 64],
      8,
      8,
    );
    expect([dark[0], white[0], mid[0]]).toEqual([0, 255, 128]);
  });

  it('samples across the crop in order: a left-to-right ramp stays a ramp', () => {
    const ramp = sample(
      plane(1000, 10, (x) => Math.floor(x / 4)),
      [0, 0, 1000, 10],
      10,
      1,
    );
    for (let x = 1; x < ramp.length; x++) expect(ramp[x]!).toBeGreaterThan(ramp[x - 1]!);
    expect(ramp[0]).toBeLessThan(20);
    expect(ramp[9]).toBeGreaterThan(230);
  });

  it('shows the centre at the scale of a 1024 px preview, so the server’s sharpness threshold holds', () => {
    // A 4096 × 3072 frame: the centre is 640 × 480 of it, each grey pixel one 4 × 4 cell.
    expect(centreCrop(4096, 3072)).toEqual([1728, 1296, 640, 480]);
    // Stripes two frame pixels wide stay visible in the centre of a small frame (1 : 1 below 1024 px)
    // and blur away in a large one, where the preview would not show them either.
    const stripes = (x: number) => (Math.floor(x / 2) % 2 ? 220 : 30);
    const small = greyFramesOf(plane(800, 600, stripes));
    const large = greyFramesOf(plane(4096, 3072, stripes));
    expect(laplacianVariance(small.centre, CENTRE_WIDTH, CENTRE_HEIGHT)).toBeGreaterThan(1000);
    expect(laplacianVariance(large.centre, CENTRE_WIDTH, CENTRE_HEIGHT)).toBeLessThan(40);
  });
});
