// The quality pre-check on a preview (docs/api.md#quality-check): the capture app sends a copy of about
// 1 MP with the original photo's pixel size, so a 12 MP photo does not cross a weak mobile link twice.
// Blur and exposure are judged on the preview (the analyzer works on a ≤ 1024 px preview anyway); the
// resolution on the original's size.
import { resolutionCheck } from '../../analyzers/quality.js';
import { AppError } from '../../domain/errors.js';
import type { QualityPart } from '../../domain/result/image-parts.js';

export interface OriginalSize {
  width: number;
  height: number;
}

/** Largest side accepted: far above any camera, small enough to keep megapixels meaningful. */
const SIDE_MAX = 100_000;
const SIDE = /^[1-9][0-9]{0,5}$/;

const invalid = (reason: string) => new AppError('CAPTURE_ORIGINAL_SIZE_INVALID', { params: { reason } });

/** The original size the query declares, undefined when it declares none; both or neither are given. */
export function originalSizeOf(query: { width?: string; height?: string }): OriginalSize | undefined {
  const { width, height } = query;
  if (width === undefined && height === undefined) return undefined;
  if (width === undefined || height === undefined) throw invalid('width and height go together');
  return { width: side(width, 'width'), height: side(height, 'height') };
}

function side(value: string, name: string): number {
  if (!SIDE.test(value) || Number(value) > SIDE_MAX)
    throw invalid(`${name} must be a whole number from 1 to ${SIDE_MAX}`);
  return Number(value);
}

/**
 * The preview's quality with the resolution judged on the original. A preview is never larger than its
 * original (either way round: the app may hand over the size before or after EXIF orientation).
 */
export function judgedOnOriginal(quality: QualityPart, original: OriginalSize): QualityPart {
  const preview = [quality.resolution.width, quality.resolution.height].sort((a, b) => a - b);
  const declared = [original.width, original.height].sort((a, b) => a - b);
  if (preview[0]! > declared[0]! || preview[1]! > declared[1]!)
    throw invalid('the photo sent is larger than width × height');
  const resolution = resolutionCheck(original.width, original.height);
  return {
    ...quality,
    resolution,
    pass: quality.blur.pass && quality.exposure.pass && resolution.pass,
  };
}
