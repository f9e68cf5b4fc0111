// PaddleOCR's DB post-processing (DBPostProcess, ppocr/postprocess/db_postprocess.py) on the
// detector's probability map: binarise, take each 8-connected region, keep those large and confident
// enough, fit the minimum-area rectangle (as cv2.minAreaRect) and grow it by DB's unclip distance.
// Differences, for determinism and simplicity: regions are connected components rather than OpenCV
// contours (the same outer boundaries, so the same rectangles), and a region's score is its mean
// probability rather than the mean over its rectangle (DB's "fast" score).
import { minAreaRect, uprightRect, type OrientedRect } from './geometry.js';
import type { Point } from './types.js';

export interface DbOptions {
  /** Probability above which a map pixel is text. */
  threshold: number;
  /** Regions whose mean probability is below this are dropped. */
  boxThreshold: number;
  /** Regions whose rectangle's short side is below this (map pixels) are dropped. */
  minSize: number;
  /** DB's unclip ratio: the rectangle grows by area × ratio / perimeter on every side. */
  unclipRatio: number;
}

/** The detector's output: text probability per pixel of a `width` × `height` map, row-major. */
export interface ProbabilityMap {
  data: Float32Array;
  width: number;
  height: number;
}

export interface TextRegion {
  /** The unclipped rectangle in map coordinates (pixel i spans [i, i + 1)), width axis nearest +x. */
  rect: OrientedRect;
  score: number;
}

/** DB looks at most at this many regions (its max_candidates); here, those past the size test, in scan order. */
const MAX_CANDIDATES = 1000;

/**
 * The text regions of the map's top-left `area` (the rest is padding). Components are found by a
 * flood fill whose queue, shared by all of them, holds each pixel once: the work is linear in the map.
 */
export function textRegions(
  map: ProbabilityMap,
  area: { width: number; height: number },
  options: DbOptions,
): TextRegion[] {
  const { data, width: stride } = map;
  const width = Math.min(area.width, map.width);
  const height = Math.min(area.height, map.height);
  const text = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) text[y * width + x] = data[y * stride + x]! > options.threshold ? 1 : 0;
  }
  const queue = new Int32Array(width * height);
  // Leftmost and rightmost pixel of each row of the current component: their hull is the component's.
  const left = new Int32Array(height);
  const right = new Int32Array(height);
  const regions: TextRegion[] = [];
  let candidates = 0;
  let tail = 0;
  for (let start = 0; start < text.length && candidates < MAX_CANDIDATES; start++) {
    if (text[start] !== 1) continue;
    const head = tail;
    text[start] = 2; // 2 = taken
    queue[tail++] = start;
    // The scan meets a component first in its top row; the fill reaches each next row from the one above.
    const minY = (start - (start % width)) / width;
    let maxY = minY - 1;
    let minX = width;
    let maxX = -1;
    let sum = 0;
    for (let q = head; q < tail; q++) {
      const p = queue[q]!;
      const x = p % width;
      const y = (p - x) / width;
      sum += data[y * stride + x]!;
      if (y > maxY) {
        maxY = y;
        left[y] = x;
        right[y] = x;
      }
      if (x < left[y]!) left[y] = x;
      if (x > right[y]!) right[y] = x;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      for (let ny = Math.max(0, y - 1); ny <= Math.min(height - 1, y + 1); ny++) {
        for (let nx = Math.max(0, x - 1); nx <= Math.min(width - 1, x + 1); nx++) {
          const n = ny * width + nx;
          if (text[n] === 1) {
            text[n] = 2;
            queue[tail++] = n;
          }
        }
      }
    }
    // The rectangle's short side is at most the bounding box's: most specks stop here, before any hull.
    if (Math.min(maxX - minX, maxY - minY) < options.minSize) continue;
    candidates++;
    const score = sum / (tail - head);
    if (score < options.boxThreshold) continue;
    const points: Point[] = [];
    for (let y = minY; y <= maxY; y++) points.push([left[y]!, y], [right[y]!, y]);
    // Pixel centres, as OpenCV's contour points, which DB's unclip distance was tuned on.
    const rect = minAreaRect(points);
    if (Math.min(rect.width, rect.height) < options.minSize) continue;
    const grown = unclipped(rect, options.unclipRatio);
    if (Math.min(grown.width, grown.height) < options.minSize + 2) continue;
    regions.push({ rect: uprightRect({ ...grown, cx: grown.cx + 0.5, cy: grown.cy + 0.5 }), score });
  }
  return regions;
}

/**
 * DB's unclip: the polygon offset outwards by area × ratio / perimeter (pyclipper, round joins). For a
 * rectangle the offset shape's minimum-area rectangle is the rectangle grown by that distance per side.
 */
export function unclipped(rect: OrientedRect, ratio: number): OrientedRect {
  const perimeter = 2 * (rect.width + rect.height);
  if (perimeter === 0) return rect;
  const distance = (rect.width * rect.height * ratio) / perimeter;
  return { ...rect, width: rect.width + 2 * distance, height: rect.height + 2 * distance };
}
