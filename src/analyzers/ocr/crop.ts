// A detected text line cut out and straightened for the recogniser, as PaddleOCR's
// get_rotate_crop_image: the quad warped onto an upright rectangle (here a perspective warp sampled in
// plain JavaScript), turned a quarter left when it is much taller than wide (vertical text).
import { mapPoint, mapQuad, quadSize, scaledInput, squareToQuad } from './geometry.js';
import { assertRgb, samplesFor, warp } from './sampling.js';
import type { Quad, RgbImage } from './types.js';

export interface CropLineOptions {
  /** Height of the crop in pixels. Default 48, the recogniser's input height. */
  height?: number;
  /** The crop is at most this wide; a longer line is squeezed to fit. Default 640. */
  maxWidth?: number;
  /** Extra margin on every side, as a fraction of the line's height. Default 0 (DB's unclip leaves one). */
  padding?: number;
  /** The crop made this many times wider than the line's proportions give. Default 1. */
  stretch?: number;
}

/** A quad this much taller than wide holds vertical text (PaddleOCR's ratio). */
const VERTICAL_RATIO = 1.5;

/**
 * The text line inside `quad` (clockwise from the text's top-left, in the image's pixels), upright,
 * `height` pixels high and as wide as its proportions give (at most `maxWidth`). A quad at least 1.5 times
 * taller than wide is turned a quarter counter-clockwise, as PaddleOCR does (np.rot90), so that text
 * running top to bottom reads left to right.
 */
export function cropLine(image: RgbImage, quad: Quad, options: CropLineOptions = {}): RgbImage {
  assertRgb(image, 'cropLine');
  const height = options.height ?? 48;
  const maxWidth = options.maxWidth ?? 640;
  const padding = options.padding ?? 0;
  const stretch = options.stretch ?? 1;
  if (
    !Number.isInteger(height) ||
    height < 1 ||
    !Number.isInteger(maxWidth) ||
    maxWidth < 1 ||
    !(padding >= 0) ||
    !(stretch > 0)
  ) {
    throw new RangeError('cropLine: height and maxWidth must be positive integers, padding ≥ 0, stretch > 0');
  }
  let corners = quad;
  let size = quadSize(corners);
  if (size.height >= VERTICAL_RATIO * size.width) {
    // Turned a quarter left, the quad's right side becomes the top: its top-right corner the top-left.
    corners = [quad[1], quad[2], quad[3], quad[0]];
    size = quadSize(corners);
  }
  if (padding > 0 && size.width > 0 && size.height > 0) {
    // The same margin in pixels on every side: grow the unit square, then map it onto the image.
    const toImage = squareToQuad(corners);
    const [pu, pv] = [(padding * size.height) / size.width, padding];
    corners = mapQuad(
      [
        [-pu, -pv],
        [1 + pu, -pv],
        [1 + pu, 1 + pv],
        [-pu, 1 + pv],
      ],
      ([u, v]) => mapPoint(toImage, u, v),
    );
    size = quadSize(corners);
  }
  const lineHeight = Math.max(size.height, 1);
  const width = Math.max(1, Math.min(maxWidth, Math.round((stretch * height * size.width) / lineHeight)));
  // Source pixels per crop pixel, on the larger axis: how finely each crop pixel must be sampled.
  const shrink = Math.max(lineHeight / height, size.width / width);
  return warp(
    image,
    scaledInput(squareToQuad(corners), 1 / width, 1 / height),
    width,
    height,
    samplesFor(shrink),
  );
}
