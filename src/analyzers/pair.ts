// Before/after pairs (docs/result.md): how similar two photos are and where they differ, by block SSIM.
//
// This assumes roughly aligned shots (same camera position and framing): blocks are compared at the same
// place in both photos, with no registration. A shifted, zoomed or rotated second shot reads as changed
// everywhere; real-world pairs would need feature matching and a homography first.
import sharp from 'sharp';
import type { PreparedImage } from './analyzer.js';
import type { ChangedRegion, PairPart } from '../domain/result/video-pair-parts.js';

export type { PairPart };

/** Both photos are compared as grey images of this size (aspect ratios are not kept). */
export const PAIR_WIDTH = 512;
export const PAIR_HEIGHT = 384;
/** Side of the square blocks SSIM is computed on: a 32 × 24 grid. */
export const BLOCK = 16;
/**
 * A block whose SSIM is below this counts as changed. Lowest block SSIM measured on the four test
 * photos against an altered copy: JPEG re-encoding at quality 30 0.62 (quality 50 0.81), brightness
 * ×0.9 or ×1.05 0.87; the blocks along the edges of a drawn rectangle fall to 0–0.4 (blocks inside it
 * over a flat patch may stay high). A stronger exposure change that clips highlights (×1.15: 0.46)
 * does show up as changed regions.
 */
export const CHANGED_BELOW = 0.5;

// The usual SSIM constants for 8-bit data: (0.01·255)², (0.03·255)².
const C1 = (0.01 * 255) ** 2;
const C2 = (0.03 * 255) ** 2;

const COLUMNS = PAIR_WIDTH / BLOCK;
const ROWS = PAIR_HEIGHT / BLOCK;

/** Similarity (mean block SSIM, 0..1) of two prepared images and boxes around the blocks that changed. */
export async function comparePair(a: PreparedImage, b: PreparedImage): Promise<PairPart> {
  const [greyA, greyB] = await Promise.all([grey(a), grey(b)]);
  const scores = blockSsim(greyA, greyB);
  const similarity = scores.reduce((sum, score) => sum + score, 0) / scores.length;
  return { similarity: round(similarity), changed_regions: changedRegions(scores) };
}

async function grey(image: PreparedImage): Promise<Buffer> {
  const { data, width, height } = image.preview;
  const { data: pixels, info } = await sharp(data, { raw: { width, height, channels: 3 } })
    .resize(PAIR_WIDTH, PAIR_HEIGHT, { fit: 'fill' })
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 1 || pixels.length !== PAIR_WIDTH * PAIR_HEIGHT)
    throw new Error(`unexpected grey image: ${info.width}x${info.height}x${info.channels}`);
  return pixels;
}

/** SSIM of each block, row by row, clamped to 0..1 (a negative SSIM says no more than 0 does here). */
export function blockSsim(a: Uint8Array, b: Uint8Array): Float64Array {
  const scores = new Float64Array(COLUMNS * ROWS);
  const n = BLOCK * BLOCK;
  for (let row = 0; row < ROWS; row++) {
    for (let column = 0; column < COLUMNS; column++) {
      let sumA = 0;
      let sumB = 0;
      let sumAA = 0;
      let sumBB = 0;
      let sumAB = 0;
      for (let y = row * BLOCK; y < (row + 1) * BLOCK; y++) {
        const start = y * PAIR_WIDTH + column * BLOCK;
        for (let i = start; i < start + BLOCK; i++) {
          const va = a[i] ?? 0;
          const vb = b[i] ?? 0;
          sumA += va;
          sumB += vb;
          sumAA += va * va;
          sumBB += vb * vb;
          sumAB += va * vb;
        }
      }
      const meanA = sumA / n;
      const meanB = sumB / n;
      const varA = sumAA / n - meanA * meanA;
      const varB = sumBB / n - meanB * meanB;
      const cov = sumAB / n - meanA * meanB;
      const ssim =
        ((2 * meanA * meanB + C1) * (2 * cov + C2)) /
        ((meanA * meanA + meanB * meanB + C1) * (varA + varB + C2));
      scores[row * COLUMNS + column] = Math.min(1, Math.max(0, ssim));
    }
  }
  return scores;
}

interface Box {
  left: number;
  top: number;
  right: number; // exclusive, in blocks
  bottom: number;
}

/**
 * Boxes (in fractions of the image) around groups of changed blocks, most changed first. Blocks that
 * touch, also diagonally, form one group; boxes that then overlap or are at most one block apart are
 * merged until none are (inside a flat patch SSIM can stay high, which splits one change in two).
 * A region's `ssim` is the mean over every block inside its box.
 */
export function changedRegions(scores: Float64Array, threshold = CHANGED_BELOW): ChangedRegion[] {
  const changed = Array.from(scores, (score) => score < threshold);
  const boxes: Box[] = [];
  for (let start = 0; start < changed.length; start++) {
    if (changed[start]) boxes.push(floodFill(changed, start));
  }
  return mergeNear(boxes)
    .map((box) => ({
      x: round(box.left / COLUMNS),
      y: round(box.top / ROWS),
      width: round((box.right - box.left) / COLUMNS),
      height: round((box.bottom - box.top) / ROWS),
      ssim: round(meanInside(scores, box)),
    }))
    .sort((p, q) => p.ssim - q.ssim);
}

/** The box of the 8-connected group of changed blocks holding `start`; clears the group's flags. */
function floodFill(changed: boolean[], start: number): Box {
  const box = { left: COLUMNS, top: ROWS, right: 0, bottom: 0 };
  const stack = [start];
  changed[start] = false;
  for (let cell = stack.pop(); cell !== undefined; cell = stack.pop()) {
    const row = Math.floor(cell / COLUMNS);
    const column = cell % COLUMNS;
    box.left = Math.min(box.left, column);
    box.top = Math.min(box.top, row);
    box.right = Math.max(box.right, column + 1);
    box.bottom = Math.max(box.bottom, row + 1);
    for (let r = Math.max(0, row - 1); r <= Math.min(ROWS - 1, row + 1); r++) {
      for (let c = Math.max(0, column - 1); c <= Math.min(COLUMNS - 1, column + 1); c++) {
        const next = r * COLUMNS + c;
        if (changed[next]) {
          changed[next] = false;
          stack.push(next);
        }
      }
    }
  }
  return box;
}

/** Boxes overlap, touch, or leave a gap of at most one block between them. */
const near = (p: Box, q: Box): boolean =>
  p.left <= q.right + 1 && q.left <= p.right + 1 && p.top <= q.bottom + 1 && q.top <= p.bottom + 1;

/** Merges boxes that are near each other until none are (a few boxes, so repeated scans are cheap). */
function mergeNear(boxes: Box[]): Box[] {
  const result = [...boxes];
  for (let merged = true; merged;) {
    merged = false;
    for (let i = 0; i < result.length && !merged; i++) {
      for (let j = i + 1; j < result.length; j++) {
        const p = result[i];
        const q = result[j];
        if (!p || !q || !near(p, q)) continue;
        result[i] = {
          left: Math.min(p.left, q.left),
          top: Math.min(p.top, q.top),
          right: Math.max(p.right, q.right),
          bottom: Math.max(p.bottom, q.bottom),
        };
        result.splice(j, 1);
        merged = true;
        break;
      }
    }
  }
  return result;
}

function meanInside(scores: Float64Array, box: Box): number {
  let sum = 0;
  for (let row = box.top; row < box.bottom; row++)
    for (let column = box.left; column < box.right; column++) sum += scores[row * COLUMNS + column] ?? 0;
  return sum / ((box.right - box.left) * (box.bottom - box.top));
}

const round = (value: number): number => Number(value.toFixed(4));
