// The cheap pixel checks of a photo's quality (sharpness, exposure), shared by the server's quality
// analyzer (src/analyzers/quality.ts, on a ≤ 1024 px preview) and the capture app's live hints (on small
// frames of the viewfinder, several times a second): plain loops over grey levels, no I/O.
import type { QualityPart } from './result/image-parts.js';

/**
 * Minimum variance of the Laplacian (4-neighbour kernel, grey 0–255, preview long side ≤ 1024 px).
 * Measured here: the motion-blurred licenseplate_motion.jpg 11.2; the flat synthetic exif.jpg (the
 * lowest sharp image) 127; real sharp photos home.jpg 2071, scenetext01.jpg 2428. A Gaussian blur of
 * σ 2 brings them to 3.5–21, σ 1 to 20–229. 40 sits near the geometric middle of 11 and 127.
 */
export const BLUR_MIN_VARIANCE = 40;

/**
 * Exposure bounds on mean luma and on the share of crushed (≤ 16) or blown (≥ 240) pixels. Measured:
 * normal fixtures have means 99–129 and at most 7 % dark / 3.3 % bright pixels; the same photos
 * darkened to 15 % have means 14–19 and 34–65 % dark pixels, brightened (×2.5 + 60) means 222–241 and
 * 54–85 % blown pixels. The bounds leave room for a dark car or a bright sky inside the frame.
 */
export const EXPOSURE_DARK_LEVEL = 16;
export const EXPOSURE_BRIGHT_LEVEL = 240;
export const EXPOSURE_MIN_MEAN = 50;
export const EXPOSURE_MAX_MEAN = 210;
export const EXPOSURE_MAX_CLIPPED_SHARE = 0.25;

export function laplacianVariance(grey: ArrayLike<number>, width: number, height: number): number {
  let sum = 0;
  let sumOfSquares = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1, i = y * width + 1; x < width - 1; x++, i++) {
      const value = grey[i - 1]! + grey[i + 1]! + grey[i - width]! + grey[i + width]! - 4 * grey[i]!;
      sum += value;
      sumOfSquares += value * value;
    }
  }
  return varianceOf(sum, sumOfSquares, Math.max(0, width - 2) * Math.max(0, height - 2));
}

/** The variance of `count` values from their sum and their sum of squares (0 for no values). */
export function varianceOf(sum: number, sumOfSquares: number, count: number): number {
  if (count <= 0) return 0;
  const mean = sum / count;
  return Math.max(0, sumOfSquares / count - mean * mean);
}

export function exposureOf(grey: ArrayLike<number>): QualityPart['exposure'] {
  let sum = 0;
  let dark = 0;
  let bright = 0;
  for (let i = 0; i < grey.length; i++) {
    const value = grey[i]!;
    sum += value;
    if (value <= EXPOSURE_DARK_LEVEL) dark++;
    else if (value >= EXPOSURE_BRIGHT_LEVEL) bright++;
  }
  return exposureFromCounts({ sum, dark, bright, pixels: grey.length });
}

/**
 * The exposure of `pixels` grey levels from their sum and the counts of dark (≤ EXPOSURE_DARK_LEVEL)
 * and bright (≥ EXPOSURE_BRIGHT_LEVEL) ones.
 */
export function exposureFromCounts(counts: {
  sum: number;
  dark: number;
  bright: number;
  pixels: number;
}): QualityPart['exposure'] {
  const pixels = Math.max(1, counts.pixels);
  const mean = counts.sum / pixels;
  const darkShare = counts.dark / pixels;
  const brightShare = counts.bright / pixels;
  const state =
    mean < EXPOSURE_MIN_MEAN || darkShare > EXPOSURE_MAX_CLIPPED_SHARE
      ? 'dark'
      : mean > EXPOSURE_MAX_MEAN || brightShare > EXPOSURE_MAX_CLIPPED_SHARE
        ? 'overexposed'
        : 'ok';
  return {
    score: round(mean, 1),
    dark_share: round(darkShare, 4),
    bright_share: round(brightShare, 4),
    state,
    pass: state === 'ok',
  };
}

const round = (value: number, digits: number): number => {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
};
