// Dot-matrix displays (many odometers, trip computers): each character drawn in separate dots. The
// recogniser was trained on strokes and reads such a line badly ("866B1LES" for "866 miles", "K9" for
// "km"); blurred until its dots touch, the same line reads as strokes. So a line cut out of the photo is
// first told dotted or not, from the shapes of its ink, and a dotted one is blurred before it is read.
import { blobs } from './blobs.js';
import type { RgbImage } from './ocr/index.js';

/**
 * A pixel is the ink's core when it stands out from the ground by at least this share of the ink's
 * strongest contrast (its 95th percentile): the faint bridges a blur leaves between dots fall below.
 */
const CORE_SHARE = 0.7;
/** A dot's bounds: at most this share of the crop's height each way (a stroke of a digit is longer). */
const DOT_SIDE = 0.15;
/** A line is dotted when at least this share of its core ink lies in dots. */
const DOTTED_SHARE = 0.5;
/**
 * And when it has at least this many dots: two characters of a 5 × 7 matrix light a dozen or more each.
 * A short line's few dots are as likely specks, a worn print, or a display's dots that a blur has partly
 * joined already, and are read as they are.
 */
const MIN_DOTS = 24;
/** The blur that joins the dots, as a share of the crop's height (σ 2 px on the recogniser's 48 px). */
const JOIN_SIGMA = 2 / 48;

/** The share of the crop's core ink that lies in dots, and how many dots there are. */
export function dotsOf(crop: RgbImage): { share: number; dots: number } {
  const { width, height, data } = crop;
  const count = width * height;
  const grey = new Uint8Array(count);
  const histogram = new Uint32Array(256);
  for (let i = 0; i < count; i++) {
    const value = Math.round((data[i * 3]! + data[i * 3 + 1]! + data[i * 3 + 2]!) / 3);
    grey[i] = value;
    histogram[value]!++;
  }
  const ground = medianOf(histogram, count);
  const split = otsu(histogram, count);
  // The ink is the smaller of the two classes Otsu's threshold makes: light on a display, dark on a label.
  let above = 0;
  for (let value = split + 1; value < 256; value++) above += histogram[value]!;
  const inkIsLight = above <= count / 2;
  const isInk = (value: number) => value > split === inkIsLight;
  const contrasts: number[] = [];
  for (let i = 0; i < count; i++) if (isInk(grey[i]!)) contrasts.push(Math.abs(grey[i]! - ground));
  if (contrasts.length === 0) return { share: 0, dots: 0 };
  contrasts.sort((a, b) => a - b);
  const floor = CORE_SHARE * contrasts[Math.floor(contrasts.length * 0.95)]!;
  const core = new Uint8Array(count);
  for (let i = 0; i < count; i++) core[i] = isInk(grey[i]!) && Math.abs(grey[i]! - ground) >= floor ? 1 : 0;

  const maxSide = DOT_SIDE * height;
  let coreInk = 0;
  let dotInk = 0;
  let dots = 0;
  for (const blob of blobs(core, width, height, 8)) {
    const area = blob.members.length;
    coreInk += area;
    // A single pixel is noise, not a dot.
    if (area >= 2 && blob.right - blob.left <= maxSide && blob.bottom - blob.top <= maxSide) {
      dots++;
      dotInk += area;
    }
  }
  return { share: coreInk > 0 ? dotInk / coreInk : 0, dots };
}

/** Whether the crop's characters are drawn in dots. */
export function isDotted(crop: RgbImage): boolean {
  const { share, dots } = dotsOf(crop);
  return share >= DOTTED_SHARE && dots >= MIN_DOTS;
}

/** The crop blurred (Gaussian, border replicated) until a dot-matrix display's dots touch. */
export function joinDots(crop: RgbImage): RgbImage {
  const sigma = JOIN_SIGMA * crop.height;
  const radius = Math.ceil(3 * sigma);
  const kernel: number[] = [];
  for (let i = -radius; i <= radius; i++) kernel.push(Math.exp(-(i * i) / (2 * sigma * sigma)));
  const total = kernel.reduce((sum, k) => sum + k, 0);
  const weights = kernel.map((k) => k / total);
  const { width, height, data } = crop;
  const blurred = blurAlong('y', blurAlong('x', data, width, height, weights), width, height, weights);
  return { data: Uint8Array.from(blurred, Math.round), width, height };
}

/**
 * One pass of a separable blur of RGB values: each the weighted sum of its neighbours along `axis`
 * (`weights` centred on it), the border replicated.
 */
function blurAlong(
  axis: 'x' | 'y',
  values: ArrayLike<number>,
  width: number,
  height: number,
  weights: readonly number[],
): Float64Array {
  const radius = (weights.length - 1) / 2;
  const out = new Float64Array(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      for (let c = 0; c < 3; c++) {
        let sum = 0;
        for (let i = -radius; i <= radius; i++) {
          const neighbour =
            axis === 'x'
              ? y * width + Math.min(width - 1, Math.max(0, x + i))
              : Math.min(height - 1, Math.max(0, y + i)) * width + x;
          sum += values[neighbour * 3 + c]! * weights[i + radius]!;
        }
        out[(y * width + x) * 3 + c] = sum;
      }
  return out;
}

function medianOf(histogram: Uint32Array, count: number): number {
  let seen = 0;
  for (let value = 0; value < 256; value++) if ((seen += histogram[value]!) >= count / 2) return value;
  return 255;
}

/** Otsu's threshold: the grey level that best splits the histogram into two classes. */
function otsu(histogram: Uint32Array, count: number): number {
  let total = 0;
  for (let value = 0; value < 256; value++) total += value * histogram[value]!;
  let below = 0;
  let belowSum = 0;
  let best = -1;
  let split = 0;
  for (let value = 0; value < 256; value++) {
    below += histogram[value]!;
    if (below === 0) continue;
    const rest = count - below;
    if (rest === 0) break;
    belowSum += value * histogram[value]!;
    const between = below * rest * (belowSum / below - (total - belowSum) / rest) ** 2;
    if (between > best) {
      best = between;
      split = value;
    }
  }
  return split;
}
