// Pre- and post-processing shared by every YOLO-style detection model, whatever runs it: letterbox the
// image into the model's input (as ultralytics does: scale to fit, pad with grey 114, centred), then
// decode the raw output (ultralytics v8 and later: `[1, 4 + classes, candidates]` with cx, cy, w, h
// in input pixels followed by one score per class, or the same transposed), keep the best class of
// each candidate, drop those under the threshold, run per-class NMS and map the boxes back to
// fractions of the original image.
import sharp from 'sharp';
import type { NormalisedBox, RawDetection, RgbImage } from '../../ports/damage-model.js';

export const DEFAULT_INPUT_SIZE = 640;
export const IOU_THRESHOLD = 0.45;
export const MAX_DETECTIONS = 300;
const PAD_VALUE = 114;

export interface InputSize {
  width: number;
  height: number;
}

/** Where the image sits in the model input: its top-left corner and its scaled size, in input pixels. */
export interface LetterboxTransform {
  padX: number;
  padY: number;
  contentWidth: number;
  contentHeight: number;
}

export interface LetterboxedImage {
  /** 8-bit RGB, planar (CHW): the three channel planes one after the other, each row-major. */
  pixels: Uint8Array;
  /** `[1, 3, height, width]`. */
  dims: [1, 3, number, number];
  transform: LetterboxTransform;
}

/** Scales `image` to fit `size` without distortion and pads the rest with grey (114, 114, 114). */
export async function letterbox(image: RgbImage, size: InputSize): Promise<LetterboxedImage> {
  const { width, height } = image;
  if (width < 1 || height < 1 || image.data.length !== width * height * 3)
    throw new Error(`Not an RGB image of ${width}x${height}: ${image.data.length} bytes`);
  const scale = Math.min(size.width / width, size.height / height);
  const contentWidth = Math.max(1, Math.min(size.width, Math.round(width * scale)));
  const contentHeight = Math.max(1, Math.min(size.height, Math.round(height * scale)));
  const padX = Math.floor((size.width - contentWidth) / 2);
  const padY = Math.floor((size.height - contentHeight) / 2);

  const resized =
    contentWidth === width && contentHeight === height
      ? image.data
      : await sharp(image.data, { raw: { width, height, channels: 3 } })
          .resize(contentWidth, contentHeight, { fit: 'fill' })
          .raw()
          .toBuffer();

  const plane = size.width * size.height;
  const pixels = new Uint8Array(plane * 3).fill(PAD_VALUE);
  for (let y = 0; y < contentHeight; y++) {
    const row = (y + padY) * size.width + padX;
    for (let x = 0; x < contentWidth; x++) {
      const from = (y * contentWidth + x) * 3;
      pixels[row + x] = resized[from]!;
      pixels[plane + row + x] = resized[from + 1]!;
      pixels[2 * plane + row + x] = resized[from + 2]!;
    }
  }
  return {
    pixels,
    dims: [1, 3, size.height, size.width],
    transform: { padX, padY, contentWidth, contentHeight },
  };
}

/** The letterboxed pixels as the float input YOLO models take: 0..1. */
export function toFloat32(pixels: Uint8Array): Float32Array {
  const out = new Float32Array(pixels.length);
  for (let i = 0; i < pixels.length; i++) out[i] = pixels[i]! / 255;
  return out;
}

export interface DecodeOptions {
  labels: readonly string[];
  transform: LetterboxTransform;
  minConfidence: number;
  iouThreshold?: number;
  maxDetections?: number;
}

interface Candidate {
  classIndex: number;
  confidence: number;
  /** Corners in input pixels. */
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/**
 * Decodes a YOLO detection output. The layout is told apart by which axis has `4 + labels.length`
 * entries (the channel-first ultralytics layout wins when both do). Throws when neither does: the
 * labels do not belong to this model, or it is not a YOLO-style detector.
 */
export function decodeYolo(
  output: { data: ArrayLike<number>; dims: readonly number[] },
  options: DecodeOptions,
): RawDetection[] {
  const { labels, transform, minConfidence } = options;
  const features = 4 + labels.length;
  const dims = output.dims;
  const leading = dims.slice(0, -2);
  const [a, b] = dims.slice(-2);
  if (a === undefined || b === undefined || leading.some((d) => d !== 1))
    throw new Error(`Unexpected output shape [${dims.join(', ')}]: expected [1, ${features}, N]`);
  if (output.data.length !== a * b)
    throw new Error(`Output of shape [${dims.join(', ')}] has ${output.data.length} values`);
  const channelsFirst = a === features;
  if (!channelsFirst && b !== features)
    throw new Error(
      `Output shape [${dims.join(', ')}] does not fit 4 box values + ${labels.length} classes (one per label): ` +
        `expected [1, ${features}, N] or [1, N, ${features}]`,
    );
  const count = channelsFirst ? b : a;
  const data = output.data;
  const at = channelsFirst
    ? (i: number, f: number) => data[f * count + i]!
    : (i: number, f: number) => data[i * features + f]!;

  const candidates: Candidate[] = [];
  for (let i = 0; i < count; i++) {
    let classIndex = 0;
    let confidence = -Infinity;
    for (let c = 0; c < labels.length; c++) {
      const score = at(i, 4 + c);
      if (score > confidence) {
        confidence = score;
        classIndex = c;
      }
    }
    if (!(confidence >= minConfidence)) continue; // NaN fails too
    const cx = at(i, 0);
    const cy = at(i, 1);
    const w = at(i, 2);
    const h = at(i, 3);
    if (!(w > 0 && h > 0 && Number.isFinite(cx) && Number.isFinite(cy))) continue;
    candidates.push({
      classIndex,
      confidence: Math.min(1, confidence),
      x1: cx - w / 2,
      y1: cy - h / 2,
      x2: cx + w / 2,
      y2: cy + h / 2,
    });
  }

  const kept = nonMaximumSuppression(
    candidates,
    options.iouThreshold ?? IOU_THRESHOLD,
    options.maxDetections ?? MAX_DETECTIONS,
  );
  const detections: RawDetection[] = [];
  for (const c of kept) {
    const box = toImageBox(c, transform);
    if (box)
      detections.push({
        classIndex: c.classIndex,
        label: labels[c.classIndex]!,
        confidence: c.confidence,
        box,
      });
  }
  return detections;
}

/** Greedy NMS within each class; returns the kept candidates, most confident first. */
export function nonMaximumSuppression<T extends Candidate>(
  candidates: T[],
  iouThreshold: number,
  max: number,
): T[] {
  const sorted = [...candidates].sort((p, q) => q.confidence - p.confidence);
  const keptByClass = new Map<number, T[]>();
  const kept: T[] = [];
  for (const candidate of sorted) {
    if (kept.length >= max) break;
    const same = keptByClass.get(candidate.classIndex) ?? [];
    if (same.some((k) => iou(k, candidate) > iouThreshold)) continue;
    same.push(candidate);
    keptByClass.set(candidate.classIndex, same);
    kept.push(candidate);
  }
  return kept;
}

export function iou(p: Candidate, q: Candidate): number {
  const w = Math.min(p.x2, q.x2) - Math.max(p.x1, q.x1);
  const h = Math.min(p.y2, q.y2) - Math.max(p.y1, q.y1);
  if (w <= 0 || h <= 0) return 0;
  const inter = w * h;
  return inter / ((p.x2 - p.x1) * (p.y2 - p.y1) + (q.x2 - q.x1) * (q.y2 - q.y1) - inter);
}

/** Input pixels → fractions of the original image, clipped to it; undefined when nothing is left inside. */
function toImageBox(c: Candidate, t: LetterboxTransform): NormalisedBox | undefined {
  const clip = (v: number) => Math.min(1, Math.max(0, v));
  const x1 = clip((c.x1 - t.padX) / t.contentWidth);
  const y1 = clip((c.y1 - t.padY) / t.contentHeight);
  const x2 = clip((c.x2 - t.padX) / t.contentWidth);
  const y2 = clip((c.y2 - t.padY) / t.contentHeight);
  if (x2 <= x1 || y2 <= y1) return undefined;
  return { x: x1, y: y1, width: x2 - x1, height: y2 - y1 };
}

/**
 * The labels as a model publishes them: blank entries at the end are ignored, a blank one in between
 * is an error (it would shift every class after it).
 */
export function cleanLabels(raw: readonly string[], source: string): string[] {
  const labels = raw.map((l) => l.trim());
  while (labels.length > 0 && labels[labels.length - 1] === '') labels.pop();
  if (labels.length === 0) throw new Error(`${source} lists no labels`);
  const blank = labels.indexOf('');
  if (blank >= 0) throw new Error(`${source}: label ${blank + 1} is blank`);
  return labels;
}
