// Resampling in plain JavaScript, so that crops and resized images are bit-identical on every machine
// (IEEE arithmetic, no native library's SIMD paths): bilinear interpolation with the border replicated,
// averaged over a grid of samples per output pixel when shrinking, against aliasing.
import type { Homography } from './geometry.js';
import type { RgbImage } from './types.js';

/** At most this many samples per axis per output pixel: bounds the work of a large shrink. */
const MAX_SAMPLES_PER_AXIS = 8;

/** Samples per axis for a shrink by `factor` (source pixels per output pixel): 1 unless it is ≥ 1.5. */
export const samplesFor = (factor: number): number =>
  Math.min(MAX_SAMPLES_PER_AXIS, Math.max(1, Math.round(factor)));

/**
 * A `width` × `height` image whose point (x, y) (continuous pixel coordinates: pixel i spans [i, i + 1))
 * shows the source's point `map(x, y)`. Each output pixel is the mean of samples × samples bilinear
 * samples spread evenly over it, rounded to the nearest integer.
 */
export function warp(
  source: RgbImage,
  map: Homography,
  width: number,
  height: number,
  samples: number,
): RgbImage {
  const { data, width: sw, height: sh } = source;
  const out = new Uint8Array(width * height * 3);
  const [m0, m1, m2, m3, m4, m5, m6, m7, m8] = map;
  const count = samples * samples;
  const maxX = sw - 1;
  const maxY = sh - 1;
  let r = 0;
  let g = 0;
  let b = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      r = g = b = 0;
      for (let j = 0; j < samples; j++) {
        const py = y + (j + 0.5) / samples;
        for (let i = 0; i < samples; i++) {
          const px = x + (i + 0.5) / samples;
          const w = m6 * px + m7 * py + m8;
          // Source pixel centres sit at i + 0.5: shift to index space, then clamp (replicated border).
          const u = Math.min(maxX, Math.max(0, (m0 * px + m1 * py + m2) / w - 0.5));
          const v = Math.min(maxY, Math.max(0, (m3 * px + m4 * py + m5) / w - 0.5));
          const x0 = Math.floor(u);
          const y0 = Math.floor(v);
          const fx = u - x0;
          const fy = v - y0;
          const x1 = x0 < maxX ? x0 + 1 : x0;
          const y1 = y0 < maxY ? y0 + 1 : y0;
          const a = (y0 * sw + x0) * 3;
          const c = (y0 * sw + x1) * 3;
          const d = (y1 * sw + x0) * 3;
          const e = (y1 * sw + x1) * 3;
          const w00 = (1 - fx) * (1 - fy);
          const w10 = fx * (1 - fy);
          const w01 = (1 - fx) * fy;
          const w11 = fx * fy;
          r += data[a]! * w00 + data[c]! * w10 + data[d]! * w01 + data[e]! * w11;
          g += data[a + 1]! * w00 + data[c + 1]! * w10 + data[d + 1]! * w01 + data[e + 1]! * w11;
          b += data[a + 2]! * w00 + data[c + 2]! * w10 + data[d + 2]! * w01 + data[e + 2]! * w11;
        }
      }
      const o = (y * width + x) * 3;
      out[o] = Math.round(r / count);
      out[o + 1] = Math.round(g / count);
      out[o + 2] = Math.round(b / count);
    }
  }
  return { data: out, width, height };
}

/**
 * For each output position along one axis, the source positions and weights that make it: the mean of
 * `samples` evenly spread bilinear samples (clamped at the border), as `warp` takes them. Weights of
 * the same source position are merged.
 */
function axisTaps(outputSize: number, sourceSize: number, scale: number, samples: number) {
  const starts = new Int32Array(outputSize);
  const counts = new Int32Array(outputSize);
  const indices: number[] = [];
  const weights: number[] = [];
  const max = sourceSize - 1;
  for (let o = 0; o < outputSize; o++) {
    const taps = new Map<number, number>();
    for (let i = 0; i < samples; i++) {
      const u = Math.min(max, Math.max(0, (o + (i + 0.5) / samples) / scale - 0.5));
      const i0 = Math.floor(u);
      const f = u - i0;
      const i1 = i0 < max ? i0 + 1 : i0;
      taps.set(i0, (taps.get(i0) ?? 0) + (1 - f) / samples);
      taps.set(i1, (taps.get(i1) ?? 0) + f / samples);
    }
    starts[o] = indices.length;
    for (const [index, weight] of [...taps].sort((a, b) => a[0] - b[0])) {
      if (weight === 0) continue; // a sample right on a pixel centre
      indices.push(index);
      weights.push(weight);
    }
    counts[o] = indices.length - starts[o]!;
  }
  return { starts, counts, indices: Int32Array.from(indices), weights: Float64Array.from(weights) };
}

/**
 * The image scaled by `scale` on both axes to `width` × `height` (the last row or column may be partial),
 * handed over one output row at a time (`width` × 3 interleaved RGB values, unrounded, 0..255). The same
 * filter as `warp` with that scale (bilinear samples averaged over each output pixel), which is
 * separable: rows first, then columns, several times faster than sampling each pixel in two dimensions.
 */
export function resampleRows(
  source: RgbImage,
  scale: number,
  width: number,
  height: number,
  emit: (y: number, row: Float64Array) => void,
): void {
  const { data, width: sw, height: sh } = source;
  // At scale 1 every output pixel is its source pixel (one sample, on its centre): handed over as it is,
  // the same values without the two passes (the detector's look at the whole 1024 px preview).
  if (scale === 1 && width <= sw && height <= sh) {
    const row = new Float64Array(width * 3);
    for (let y = 0; y < height; y++) {
      const start = y * sw * 3;
      for (let x = 0; x < width * 3; x++) row[x] = data[start + x]!;
      emit(y, row);
    }
    return;
  }
  const samples = samplesFor(1 / scale);
  const across = axisTaps(width, sw, scale, samples);
  const down = axisTaps(height, sh, scale, samples);
  const stride = width * 3;
  // Rows first: every source row some output row uses, resampled to `width` columns.
  const used = new Uint8Array(sh);
  for (const index of down.indices) used[index] = 1;
  const rows = new Float32Array(sh * stride);
  for (let y = 0; y < sh; y++) {
    if (!used[y]) continue;
    const row = y * sw * 3;
    for (let x = 0; x < width; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      const end = across.starts[x]! + across.counts[x]!;
      for (let t = across.starts[x]!; t < end; t++) {
        const p = row + across.indices[t]! * 3;
        const w = across.weights[t]!;
        r += data[p]! * w;
        g += data[p + 1]! * w;
        b += data[p + 2]! * w;
      }
      const o = y * stride + x * 3;
      rows[o] = r;
      rows[o + 1] = g;
      rows[o + 2] = b;
    }
  }
  // Then columns: each output row the weighted sum of whole resampled rows (sequential reads).
  const sum = new Float64Array(stride);
  for (let y = 0; y < height; y++) {
    sum.fill(0);
    const end = down.starts[y]! + down.counts[y]!;
    for (let t = down.starts[y]!; t < end; t++) {
      const row = down.indices[t]! * stride;
      const w = down.weights[t]!;
      for (let x = 0; x < stride; x++) sum[x] = sum[x]! + rows[row + x]! * w;
    }
    emit(y, sum);
  }
}

/** The image scaled by `scale` on both axes to `width` × `height`, as `resampleRows` gives it, rounded. */
export function scaled(source: RgbImage, scale: number, width: number, height: number): RgbImage {
  const stride = width * 3;
  const out = new Uint8Array(stride * height);
  resampleRows(source, scale, width, height, (y, row) => {
    const o = y * stride;
    for (let x = 0; x < stride; x++) out[o + x] = Math.round(row[x]!);
  });
  return { data: out, width, height };
}

/** Throws unless the image holds width × height RGB pixels. */
export function assertRgb(image: RgbImage, what: string): void {
  const { width, height, data } = image;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new RangeError(`${what}: width and height must be positive integers, got ${width} × ${height}`);
  }
  if (data.length !== width * height * 3) {
    throw new RangeError(
      `${what}: ${data.length} bytes for ${width} × ${height} RGB (${width * height * 3})`,
    );
  }
}
