import { describe, expect, it } from 'vitest';
import { exposureOf, laplacianVariance } from '../../../src/domain/photo-quality.js';
import { centreCrop, CENTRE_HEIGHT, CENTRE_WIDTH, GreyPictures, WHOLE_WIDTH } from './grey-frames.js';

/**
 * Copies a `width` × `height` luma plane, rows padded to `stride`, its pixels from `at(x, y)`, into the
 * pictures' frame buffer (as a camera frame's `copyTo` does), and samples it.
 */
async function sampled(
  width: number,
  height: number,
  at: (x: number, y: number) => number,
  options: { stride?: number; offset?: number; fullRange?: boolean; into?: GreyPictures } = {},
): Promise<GreyPictures> {
  const pictures = options.into ?? (await GreyPictures.create());
  const stride = options.stride ?? width;
  const offset = options.offset ?? 0;
  const bytes = pictures.frameBuffer(width, height, offset + stride * height + 64);
  bytes.fill(99);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) bytes[offset + y * stride + x] = at(x, y);
  pictures.sampleLuma({ offset, stride, width, height, fullRange: options.fullRange ?? true });
  return pictures;
}

/** Grey levels from a fixed seed: the same pictures on every run. */
function noise(length: number, seed: number): Uint8Array {
  let state = seed;
  return Uint8Array.from({ length }, () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state >> 23;
  });
}

describe('grey pictures from a luma plane', () => {
  it('keeps the frame’s shape in the whole picture and reads only the plane’s own pixels', async () => {
    // Padding bytes (99) past each row's end and before the plane must never be read.
    const pictures = await sampled(1280, 960, () => 200, { stride: 1344, offset: 64 });
    const { whole, centre } = pictures.pictures();
    expect(pictures.wholeHeight).toBe(60);
    expect(whole).toHaveLength(WHOLE_WIDTH * 60);
    expect(centre).toHaveLength(CENTRE_WIDTH * CENTRE_HEIGHT);
    expect(new Set(whole)).toEqual(new Set([200]));
    expect(new Set(centre)).toEqual(new Set([200]));
  });

  it('stretches video-range luma (black 16, white 235) to 0–255, as a canvas draws it', async () => {
    const level = async (y: number) =>
      (await sampled(64, 64, () => y, { fullRange: false })).pictures().whole[0];
    expect([await level(16), await level(235), await level(126)]).toEqual([0, 255, 128]);
  });

  it('samples across the frame in order: a left-to-right ramp stays a ramp', async () => {
    const { whole } = (await sampled(1000, 750, (x) => Math.floor(x / 4))).pictures();
    const firstRow = whole.subarray(0, WHOLE_WIDTH);
    for (let x = 1; x < firstRow.length; x++) expect(firstRow[x]!).toBeGreaterThan(firstRow[x - 1]!);
    expect(firstRow[0]).toBeLessThan(5);
    expect(firstRow.at(-1)).toBeGreaterThan(240);
  });

  it('shows the centre at the scale of a 1024 px preview, so the server’s sharpness threshold holds', async () => {
    // A 4096 × 3072 frame: the centre is 640 × 480 of it, each grey pixel one 4 × 4 cell.
    expect(centreCrop(4096, 3072)).toEqual([1728, 1296, 640, 480]);
    // Stripes two frame pixels wide stay visible in the centre of a small frame (1 : 1 below 1024 px)
    // and blur away in a large one, where the preview would not show them either.
    const stripes = (x: number) => (Math.floor(x / 2) % 2 ? 220 : 30);
    const pictures = await sampled(800, 600, stripes);
    expect(pictures.measure().sharpness).toBeGreaterThan(1000);
    // The same pictures take the larger frame: its memory grows for it.
    await sampled(4096, 3072, stripes, { into: pictures });
    expect(pictures.measure().sharpness).toBeLessThan(40);
  });
});

describe('the measures of the pictures', () => {
  it('are the server’s own checks, computed in WebAssembly', async () => {
    const pictures = await GreyPictures.create();
    for (const seed of [1, 2, 3]) {
      const whole = noise(WHOLE_WIDTH * 60, seed);
      // A smooth centre with a little noise: a Laplacian of both signs and a real spread.
      const grain = noise(CENTRE_WIDTH * CENTRE_HEIGHT, seed + 10);
      const centre = grain.map((g, i) => ((i % CENTRE_WIDTH) + g / 8) & 255);
      pictures.setPictures(1280, 960, whole, centre);
      const measures = pictures.measure();
      expect(measures.exposure).toEqual(exposureOf(whole));
      expect(measures.sharpness).toBeCloseTo(laplacianVariance(centre, CENTRE_WIDTH, CENTRE_HEIGHT), 9);
      const mean = centre.reduce((sum, v) => sum + v, 0) / centre.length;
      const deviation = Math.sqrt(centre.reduce((sum, v) => sum + (v - mean) ** 2, 0) / centre.length);
      expect(measures.centreDeviation).toBeCloseTo(deviation, 6);
    }
  });

  it('tell movement as the mean change since the last frame, and none after a change of shape', async () => {
    const pictures = await GreyPictures.create();
    const centre = new Uint8Array(CENTRE_WIDTH * CENTRE_HEIGHT);
    const size = WHOLE_WIDTH * 60;
    pictures.setPictures(1280, 960, new Uint8Array(size).fill(100), centre);
    expect(pictures.measure().moved).toBe(0);
    // Half the pixels 40 brighter, half 20 darker: a mean change of 30.
    pictures.setPictures(
      1280,
      960,
      new Uint8Array(size).map((_, i) => (i % 2 ? 140 : 80)),
      centre,
    );
    expect(pictures.measure().moved).toBe(30);
    pictures.setPictures(
      1280,
      960,
      new Uint8Array(size).map((_, i) => (i % 2 ? 140 : 80)),
      centre,
    );
    expect(pictures.measure().moved).toBe(0);
    // Another camera (another shape): nothing to compare with.
    pictures.setPictures(960, 1280, new Uint8Array(WHOLE_WIDTH * 107).fill(0), centre);
    expect(pictures.measure().moved).toBe(0);
  });
});
