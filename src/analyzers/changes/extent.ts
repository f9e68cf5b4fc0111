// Where the vehicle is in the later photo, beyond its box: the hull of the features the registration
// carries to their matches, widened by the cells where both photos agree once registered (the vehicle
// follows the transform; the background and the ground do not), and the rows that hull spans. Changes
// elsewhere in the box are the background's (docs/adr/0016-change-detection-with-opencv.md).
import { convexHull } from '../ocr/geometry.js';
import type { Point } from '../ocr/types.js';
import type { Mat } from './opencv.js';
import type { PixelBox } from './register.js';

/** The vehicle's extent (the hull of the features the transform carries) is grown by this share. */
const EXTENT_MARGIN = 0.05;

/** The convex `hull` grown by `share` of its size about its centroid. */
export function grownHull(hull: readonly Point[], share: number): Point[] {
  const cx = hull.reduce((sum, [x]) => sum + x, 0) / hull.length;
  const cy = hull.reduce((sum, [, y]) => sum + y, 0) / hull.length;
  return hull.map(([x, y]) => [cx + (x - cx) * (1 + share), cy + (y - cy) * (1 + share)] as const);
}

/** The side (pixels) of the cells where the two photos are checked to agree. */
const CELL = 16;
/** A cell agrees when both photos vary in it by this standard deviation (levels of 128) at least... */
const CELL_MIN_DEVIATION = 10;
/** ...and correlate this well (zero-mean normalised cross-correlation). */
const CELL_MIN_CORRELATION = 0.8;
/**
 * Agreeing cells widen the features' hull only this far (a share of its size): the features gather on
 * the plate, the grille and the lights, and leave out the flat body where damage goes (a dent beside a
 * headlight fell outside), but the ground just under the vehicle agrees too. Tuning part (a fixed
 * threshold of 20; damages found, false regions per pair with damage, without change): no cells, 42/64,
 * 0.06, 0.19; cells anywhere, 49/64, 0.53, 0.50; within 0.5, 46/64, 0.28, 0.38; within 0.3, 44/64,
 * 0.19, 0.19. Cells anywhere joined their shadow edges and lane markings to the vehicle.
 */
const CELL_REACH = 0.3;

/**
 * The centres of the cells of `roi` where both photos show structure (not flat paint, not noise) and it
 * agrees once registered: there the vehicle follows the transform.
 */
export function agreeingCells(images: { after: Mat; before: Mat; valid: Mat }, roi: PixelBox): Point[] {
  const a = images.after.data32F;
  const b = images.before.data32F;
  const v = images.valid.data;
  const width = images.after.cols;
  const minVariance = CELL_MIN_DEVIATION * CELL_MIN_DEVIATION;
  const cells: Point[] = [];
  for (let y0 = roi.y; y0 + CELL <= roi.y + roi.height; y0 += CELL)
    for (let x0 = roi.x; x0 + CELL <= roi.x + roi.width; x0 += CELL) {
      const sums = { a: 0, b: 0, aa: 0, bb: 0, ab: 0 };
      let complete = true;
      for (let y = y0; y < y0 + CELL && complete; y++)
        for (let x = x0; x < x0 + CELL; x++) {
          const i = y * width + x;
          if (!v[i]) {
            complete = false;
            break;
          }
          const [p, q] = [a[i]!, b[i]!];
          sums.a += p;
          sums.b += q;
          sums.aa += p * p;
          sums.bb += q * q;
          sums.ab += p * q;
        }
      if (!complete) continue;
      const n = CELL * CELL;
      const [meanA, meanB] = [sums.a / n, sums.b / n];
      const varianceA = sums.aa / n - meanA * meanA;
      const varianceB = sums.bb / n - meanB * meanB;
      if (varianceA < minVariance || varianceB < minVariance) continue;
      const correlation = (sums.ab / n - meanA * meanB) / Math.sqrt(varianceA * varianceB);
      if (correlation >= CELL_MIN_CORRELATION) cells.push([x0 + CELL / 2, y0 + CELL / 2]);
    }
  return cells;
}

/** The hull of the carried features, widened by the agreeing cells within CELL_REACH of it. */
export function vehicleExtent(features: Point[], cells: Point[]): Point[] {
  const near = within(grownHull(features, CELL_REACH));
  return convexHull([...features, ...cells.filter(near)]);
}

/** Whether a point lies inside the convex polygon `hull` (in order, either way round). */
export const within =
  (hull: readonly Point[]) =>
  ([x, y]: Point): boolean => {
    if (hull.length < 3) return false;
    let sign = 0;
    for (let i = 0; i < hull.length; i++) {
      const [ax, ay] = hull[i]!;
      const [bx, by] = hull[(i + 1) % hull.length]!;
      const cross = Math.sign((bx - ax) * (y - ay) - (by - ay) * (x - ax));
      if (cross === 0) continue;
      if (sign === 0) sign = cross;
      else if (cross !== sign) return false;
    }
    return true;
  };

/**
 * A region outside the extent, on the rows it spans, is the vehicle's when solid: its changed pixels
 * fill this share of its box at least. A panel on flat paint has neither features nor textured cells
 * around it and may lie past the extent's side; a change of the backdrop there (past the vehicle's
 * ends, through a window) is ragged. Tuning part of the 120 pairs (found of 122; false regions per pair
 * with damage, without change): the extent alone, 96, 0.25, 0.22; its rows at any fill, 101, 0.61,
 * 0.72; solid from 0.3, 101, 0.33, 0.22; from 0.4, 101, 0.27, 0.22; from 0.45, 99, 0.25, 0.22. The
 * panels and the dent found so filled 0.46–0.55 of their boxes, the backdrop's changes 0.06–0.36.
 */
const SOLID_FILL = 0.4;

/**
 * Whether a region (its box, and how many of its pixels changed) is on the vehicle: its centre within
 * the extent grown by EXTENT_MARGIN, or on the extent's rows and solid (SOLID_FILL).
 */
export function onVehicle(extent: readonly Point[], box: PixelBox, changed: number): boolean {
  const centre: Point = [box.x + box.width / 2, box.y + box.height / 2];
  if (within(grownHull(extent, EXTENT_MARGIN))(centre)) return true;
  const rows = extent.map(([, y]) => y);
  const onRows = centre[1] >= Math.min(...rows) && centre[1] <= Math.max(...rows);
  return onRows && changed >= SOLID_FILL * box.width * box.height;
}
