// Is the photo usable for an inspection: sharp enough, exposed well enough, large enough? Pure pixel
// arithmetic on the preview, so the same function can pre-check a single photo before upload.
import { QualityPart } from '../domain/result/image-parts.js';
import type { ImageAnalyzer, PreparedImage } from './analyzer.js';

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

/**
 * Minimum short side of the original, in pixels. A phone camera's own photo has ≥ 1944 (5 MP) and a
 * messenger's downscaled copy about 1200; 720 (the short side of HD video) still shows a scratch
 * across a panel. Of the fixtures, exif.jpg (1600×1200) passes; the 512×384–800×600 ones fail.
 */
export const RESOLUTION_MIN_SHORT_SIDE = 720;

/** What the quality check needs: the oriented original size and the RGB preview. */
export type QualityInput = Pick<PreparedImage, 'width' | 'height' | 'preview'>;

/** Assesses one photo; synchronous and free of I/O (a few ms at 1024 px). */
export function assessQuality(image: QualityInput): QualityPart {
  const grey = toGrey(image.preview);
  const blur = laplacianVariance(grey, image.preview.width, image.preview.height);
  const exposure = exposureOf(grey);
  const result: QualityPart = {
    blur: { score: round(blur, 2), threshold: BLUR_MIN_VARIANCE, pass: blur >= BLUR_MIN_VARIANCE },
    exposure,
    resolution: resolutionCheck(image.width, image.height),
    pass: false,
  };
  result.pass = result.blur.pass && result.exposure.pass && result.resolution.pass;
  return result;
}

/** The resolution verdict on an original of `width` × `height` pixels (after EXIF orientation). */
export function resolutionCheck(width: number, height: number): QualityPart['resolution'] {
  const shortSide = Math.min(width, height);
  return {
    score: shortSide,
    threshold: RESOLUTION_MIN_SHORT_SIDE,
    width,
    height,
    megapixels: round((width * height) / 1e6, 2),
    pass: shortSide >= RESOLUTION_MIN_SHORT_SIDE,
  };
}

export const qualityAnalyzer: ImageAnalyzer<typeof QualityPart> = {
  name: 'quality',
  version: '1.0.0',
  schema: QualityPart,
  timeoutMs: 10_000,
  async analyse(image, context) {
    context.signal.throwIfAborted();
    return assessQuality(image);
  },
};

/** Rec. 601 luma of each pixel of raw RGB. */
function toGrey({ data, width, height }: PreparedImage['preview']): Float32Array {
  const grey = new Float32Array(width * height);
  for (let i = 0, j = 0; i < grey.length; i++, j += 3) {
    grey[i] = 0.299 * data[j]! + 0.587 * data[j + 1]! + 0.114 * data[j + 2]!;
  }
  return grey;
}

function laplacianVariance(grey: Float32Array, width: number, height: number): number {
  let sum = 0;
  let sumOfSquares = 0;
  let count = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1, i = y * width + 1; x < width - 1; x++, i++) {
      const value = grey[i - 1]! + grey[i + 1]! + grey[i - width]! + grey[i + width]! - 4 * grey[i]!;
      sum += value;
      sumOfSquares += value * value;
      count++;
    }
  }
  if (count === 0) return 0;
  const mean = sum / count;
  return Math.max(0, sumOfSquares / count - mean * mean);
}

function exposureOf(grey: Float32Array): QualityPart['exposure'] {
  let sum = 0;
  let dark = 0;
  let bright = 0;
  for (const value of grey) {
    sum += value;
    if (value <= EXPOSURE_DARK_LEVEL) dark++;
    else if (value >= EXPOSURE_BRIGHT_LEVEL) bright++;
  }
  const pixels = Math.max(1, grey.length);
  const mean = sum / pixels;
  const darkShare = dark / pixels;
  const brightShare = bright / pixels;
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
