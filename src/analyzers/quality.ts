// Is the photo usable for an inspection: sharp enough, exposed well enough, large enough? Pure pixel
// arithmetic on the preview, so the same function can pre-check a single photo before upload.
import { BLUR_MIN_VARIANCE, exposureOf, laplacianVariance } from '../domain/photo-quality.js';
import { QualityPart } from '../domain/result/image-parts.js';
import type { ImageAnalyzer, PreparedImage } from './analyzer.js';

export {
  BLUR_MIN_VARIANCE,
  EXPOSURE_BRIGHT_LEVEL,
  EXPOSURE_DARK_LEVEL,
  EXPOSURE_MAX_CLIPPED_SHARE,
  EXPOSURE_MAX_MEAN,
  EXPOSURE_MIN_MEAN,
} from '../domain/photo-quality.js';

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

const round = (value: number, digits: number): number => {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
};
