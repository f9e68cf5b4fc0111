// Plane geometry for the text boxes: convex hulls, minimum-area rectangles (as OpenCV's minAreaRect,
// which PaddleOCR's DB post-processing uses), quads in reading order, and the homography of a warp.
import type { Point, Quad } from './types.js';

/** A rectangle of any orientation: its centre, the unit vector of its width axis, its two sides. */
export interface OrientedRect {
  cx: number;
  cy: number;
  /** Unit vector along `width`; the height axis is this turned 90° (x, y) → (−y, x). */
  ux: number;
  uy: number;
  width: number;
  height: number;
}

const cross = (o: Point, a: Point, b: Point) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);

/** The convex hull (Andrew's monotone chain), counter-clockwise in y-up terms, without repeated points. */
export function convexHull(points: readonly Point[]): Point[] {
  const sorted = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (sorted.length < 3) return sorted;
  const lower: Point[] = [];
  for (const p of sorted) {
    while (lower.length >= 2 && cross(lower[lower.length - 2]!, lower[lower.length - 1]!, p) <= 0)
      lower.pop();
    lower.push(p);
  }
  const upper: Point[] = [];
  for (let i = sorted.length - 1; i >= 0; i--) {
    const p = sorted[i]!;
    while (upper.length >= 2 && cross(upper[upper.length - 2]!, upper[upper.length - 1]!, p) <= 0)
      upper.pop();
    upper.push(p);
  }
  lower.pop();
  upper.pop();
  return lower.concat(upper);
}

/**
 * The smallest-area rectangle holding the points. One side of it lies along an edge of their convex
 * hull, so each edge's direction is tried (the hulls here have tens of points, so the quadratic scan
 * costs less than rotating calipers' bookkeeping). Degenerate sets give a zero-width or zero-height box.
 */
export function minAreaRect(points: readonly Point[]): OrientedRect {
  const hull = convexHull(points);
  if (hull.length === 0) return { cx: 0, cy: 0, ux: 1, uy: 0, width: 0, height: 0 };
  let best: OrientedRect | undefined;
  let bestArea = Infinity;
  const directions: Point[] = [[1, 0]];
  for (let i = 0; i < hull.length; i++) {
    const a = hull[i]!;
    const b = hull[(i + 1) % hull.length]!;
    const length = Math.hypot(b[0] - a[0], b[1] - a[1]);
    if (length > 0) directions.push([(b[0] - a[0]) / length, (b[1] - a[1]) / length]);
  }
  for (const [ux, uy] of directions) {
    let minU = Infinity;
    let maxU = -Infinity;
    let minV = Infinity;
    let maxV = -Infinity;
    for (const [x, y] of hull) {
      const u = x * ux + y * uy;
      const v = -x * uy + y * ux;
      if (u < minU) minU = u;
      if (u > maxU) maxU = u;
      if (v < minV) minV = v;
      if (v > maxV) maxV = v;
    }
    const area = (maxU - minU) * (maxV - minV);
    if (area < bestArea) {
      bestArea = area;
      const cu = (minU + maxU) / 2;
      const cv = (minV + maxV) / 2;
      best = {
        cx: cu * ux - cv * uy,
        cy: cu * uy + cv * ux,
        ux,
        uy,
        width: maxU - minU,
        height: maxV - minV,
      };
    }
  }
  return best!;
}

/**
 * The same rectangle described so that its width axis is the one nearest the image's +x direction:
 * its top edge then slopes by at most 45°, and a tall result means vertical text.
 */
export function uprightRect(rect: OrientedRect): OrientedRect {
  const { ux, uy } = rect;
  // The four axis directions the rectangle has; the one pointing most to the right becomes the width
  // axis (at exactly 45° the one rising to the right, so that the choice is always the same).
  const candidates: [number, number, boolean][] = [
    [ux, uy, false],
    [-ux, -uy, false],
    [-uy, ux, true],
    [uy, -ux, true],
  ];
  let [bx, by, swapped] = candidates[0]!;
  for (const [x, y, swaps] of candidates.slice(1)) {
    if (x > bx || (x === bx && y < by)) [bx, by, swapped] = [x, y, swaps];
  }
  return swapped
    ? { ...rect, ux: bx, uy: by, width: rect.height, height: rect.width }
    : { ...rect, ux: bx, uy: by };
}

/** The rectangle's corners: top-left, top-right, bottom-right, bottom-left along its own axes. */
export function rectCorners({ cx, cy, ux, uy, width, height }: OrientedRect): Quad {
  const [wx, wy] = [(ux * width) / 2, (uy * width) / 2];
  const [hx, hy] = [(-uy * height) / 2, (ux * height) / 2];
  return [
    [cx - wx - hx, cy - wy - hy],
    [cx + wx - hx, cy + wy - hy],
    [cx + wx + hx, cy + wy + hy],
    [cx - wx + hx, cy - wy + hy],
  ];
}

/** The angle of a quad's top edge in degrees (y down: positive descends to the right). */
export const topEdgeAngle = ([tl, tr]: Quad): number =>
  (Math.atan2(tr[1] - tl[1], tr[0] - tl[0]) * 180) / Math.PI;

const distance = (a: Point, b: Point) => Math.hypot(b[0] - a[0], b[1] - a[1]);

/** Width and height of a quad as PaddleOCR's crop takes them: the longer of each pair of sides. */
export function quadSize([tl, tr, br, bl]: Quad): { width: number; height: number } {
  return {
    width: Math.max(distance(tl, tr), distance(bl, br)),
    height: Math.max(distance(tl, bl), distance(tr, br)),
  };
}

/** Where the map `m` sends the point (x, y). */
export function mapPoint(m: Homography, x: number, y: number): Point {
  const w = m[6] * x + m[7] * y + m[8];
  return [(m[0] * x + m[1] * y + m[2]) / w, (m[3] * x + m[4] * y + m[5]) / w];
}

/**
 * A 3 × 3 projective map, row-major: (x, y) → ((m0 x + m1 y + m2) / w, (m3 x + m4 y + m5) / w) with
 * w = m6 x + m7 y + m8.
 */
export type Homography = readonly [number, number, number, number, number, number, number, number, number];

/**
 * The map from the unit square to a quad: (0, 0) → its first corner, (1, 0) → the second, (1, 1) → the
 * third, (0, 1) → the fourth (Heckbert's closed form; affine when the quad is a parallelogram).
 */
export function squareToQuad([[x0, y0], [x1, y1], [x2, y2], [x3, y3]]: Quad): Homography {
  const sx = x0 - x1 + x2 - x3;
  const sy = y0 - y1 + y2 - y3;
  if (Math.abs(sx) < 1e-9 && Math.abs(sy) < 1e-9) {
    return [x1 - x0, x2 - x1, x0, y1 - y0, y2 - y1, y0, 0, 0, 1];
  }
  const dx1 = x1 - x2;
  const dx2 = x3 - x2;
  const dy1 = y1 - y2;
  const dy2 = y3 - y2;
  const denominator = dx1 * dy2 - dx2 * dy1;
  const g = (sx * dy2 - dx2 * sy) / denominator;
  const h = (dx1 * sy - sx * dy1) / denominator;
  return [x1 - x0 + g * x1, x3 - x0 + h * x3, x0, y1 - y0 + g * y1, y3 - y0 + h * y3, y0, g, h, 1];
}

/** The map (x, y) → m(sx · x, sy · y): with sx = 1 / W and sy = 1 / H, a W × H rectangle onto m's quad. */
export const scaledInput = (m: Homography, sx: number, sy: number): Homography => [
  m[0] * sx,
  m[1] * sy,
  m[2],
  m[3] * sx,
  m[4] * sy,
  m[5],
  m[6] * sx,
  m[7] * sy,
  m[8],
];

/** The quad with `f` applied to each corner. */
export const mapQuad = (quad: Quad, f: (point: Point) => Point): Quad => [
  f(quad[0]),
  f(quad[1]),
  f(quad[2]),
  f(quad[3]),
];
