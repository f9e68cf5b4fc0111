// Registration of the earlier photo onto the later one: ORB features of both photos (the later one's
// inside the vehicle's box) matched by brute force with Lowe's ratio, and a homography fitted by RANSAC
// on the matches in the middle of the box, fitted again when it carries one part of the vehicle only
// (docs/adr/0016-change-detection-with-opencv.md).
//
// Tried and not kept, on the bench's tuning pairs: ORB on both photos at half size, the transform then
// refined by Lucas–Kanade tracking of corners at the full size. It took the comparison from 280–300 to
// 230–260 ms, but on pairs whose ground or backdrop has more texture than the vehicle, RANSAC fitted the
// ground's plane at half size (a drawn car has few small details): 45–47 of 64 damages found instead
// of 50, and more false regions.
import { convexHull } from '../ocr/geometry.js';
import type { Point } from '../ocr/types.js';
import type { Cv, Keep, Mat } from './opencv.js';

export interface PixelBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export type Registration =
  /** `matrix` takes the earlier photo onto the later; `extent`, where the vehicle follows it (in the later). */
  | { matrix: Mat; extent: Point[] }
  /** Too few features agree on one transform. */
  | { inliers: number };

/** ORB features of each photo. */
const FEATURES = 3000;
/** The features fitted on are taken this far (a share of the box) inside the vehicle's box. */
const FEATURE_MARGIN = 0.15;
/** Lowe's ratio: a match is kept when clearly better than the second best. */
const MATCH_RATIO = 0.8;
/** How far (pixels) a match may lie from where the transform carries it. */
const RANSAC_PIXELS = 3;
/** Fewer inliers than this, or less than this share of the matches, and the pair is not aligned. */
const MIN_INLIERS = 25;
const MIN_INLIER_SHARE = 0.2;
/**
 * When the features the transform carries cover less than this share of the box, it was fitted to one
 * part of the vehicle (`spread`). Tuning part of the 144 pairs (found of 193; false regions per pair
 * with damage, without change): never, 156, 0.29, 0.31; under 5 %, 159, 0.29, 0.31 (one pair, its hull
 * 2 % of the box); under 8 %, 11 % or 14 %, 161, 0.31 and 0.33; 161, 0.31, 0.35; 162, 0.31, 0.40;
 * always, 161, 0.36, 0.52 (and the extent alone widened so, 163, 0.41, 0.56: what it adds is as often
 * the wheels, the ground and the glass's reflections as damage).
 */
const ONE_PART_SHARE = 0.05;

/** What the typings leave as `any`: a match of two descriptors, and a feature's place. */
interface DMatch {
  queryIdx: number;
  trainIdx: number;
  distance: number;
}
interface KeyPoint {
  pt: { x: number; y: number };
}
export interface Match {
  /** In the earlier photo. */
  from: Point;
  /** In the later photo. */
  to: Point;
}

/** The homography taking `before` onto `after` (grey), fitted on matches inside `roi` of `after`. */
export function register(cv: Cv, keep: Keep, before: Mat, after: Mat, roi: PixelBox): Registration {
  const matches = featureMatches(cv, keep, before, after, roi);
  const middle = inMiddle(matches, roi);
  const fit = fitted(cv, keep, middle);
  if ('inliers' in fit) return fit;
  // Where the vehicle is: every feature of the box that the transform carries to its match.
  const extentOf = (matrix: Mat) =>
    convexHull(matches.filter((m) => distance(matrix, m) <= RANSAC_PIXELS).map((m) => m.to));
  const extent = extentOf(fit.matrix);
  if (area(extent) >= ONE_PART_SHARE * roi.width * roi.height) return { matrix: fit.matrix, extent };
  const matrix = spread(cv, keep, fit.matrix, middle);
  return { matrix, extent: extentOf(matrix) };
}

/**
 * The transform fitted again by least squares on the matches within each of these distances (pixels)
 * of the last, in turn (see `spread`).
 */
const SPREAD_REACH = [12, 6, 3];

/**
 * `matrix` made to carry the whole vehicle when RANSAC fitted it to one part. When most features lie on
 * the plate, RANSAC's transform fits the plate alone and carries the rest of the vehicle 5–9 px off:
 * the extent shrinks to the plate, and damage beside it is taken for the background's. Fitted again on
 * the matches near it, then nearer, it is kept when it carries as many matches as before at least.
 */
export function spread(cv: Cv, keep: Keep, matrix: Mat, matches: Match[]): Mat {
  const carried = (m: Mat) => matches.filter((match) => distance(m, match) <= RANSAC_PIXELS).length;
  let best = matrix;
  for (const reach of SPREAD_REACH) {
    const near = matches.filter((m) => distance(best, m) <= reach);
    if (near.length < MIN_INLIERS) break;
    const refitted = keep(
      cv.findHomography(pointsOf(cv, keep, near, 'from'), pointsOf(cv, keep, near, 'to'), 0),
    );
    if (!refitted.empty() && plausible(refitted) && carried(refitted) >= carried(best)) best = refitted;
  }
  return best;
}

/** The area of a polygon (its corners in order). */
function area(polygon: readonly Point[]): number {
  let twice = 0;
  for (let i = 0; i < polygon.length; i++) {
    const [[x, y], [u, v]] = [polygon[i]!, polygon[(i + 1) % polygon.length]!];
    twice += x * v - u * y;
  }
  return Math.abs(twice) / 2;
}

/** The matches' earlier (`from`) or later (`to`) points, as OpenCV takes them. */
const pointsOf = (cv: Cv, keep: Keep, matches: Match[], end: 'from' | 'to'): Mat =>
  keep(
    cv.matFromArray(
      matches.length,
      1,
      cv.CV_32FC2,
      matches.flatMap((m) => m[end]),
    ),
  );

/** The ORB matches of the two photos, the later photo's features inside `roi`. */
function featureMatches(cv: Cv, keep: Keep, before: Mat, after: Mat, roi: PixelBox): Match[] {
  const mask = keep(cv.Mat.zeros(after.rows, after.cols, cv.CV_8UC1));
  const corner = (x: number, y: number) => new cv.Point(Math.round(x), Math.round(y));
  cv.rectangle(
    mask,
    corner(roi.x, roi.y),
    corner(roi.x + roi.width, roi.y + roi.height),
    new cv.Scalar(255),
    -1,
  );
  const orb = keep(new cv.ORB(FEATURES));
  const [kb, ka] = [keep(new cv.KeyPointVector()), keep(new cv.KeyPointVector())];
  const [db, da] = [keep(new cv.Mat()), keep(new cv.Mat())];
  orb.detectAndCompute(before, keep(new cv.Mat()), kb, db);
  orb.detectAndCompute(after, mask, ka, da);
  if (kb.size() < MIN_INLIERS || ka.size() < MIN_INLIERS) return [];
  const matcher = keep(new cv.BFMatcher(cv.NORM_HAMMING, false));
  const knn = keep(new cv.DMatchVectorVector());
  matcher.knnMatch(da, db, knn, 2);
  const place = ({ pt }: KeyPoint): Point => [pt.x, pt.y];
  const matches: Match[] = [];
  for (let i = 0; i < knn.size(); i++) {
    const pair = knn.get(i);
    if (pair.size() < 2) continue;
    const [best, second] = [pair.get(0) as DMatch, pair.get(1) as DMatch];
    if (best.distance >= MATCH_RATIO * second.distance) continue;
    matches.push({
      from: place(kb.get(best.trainIdx) as KeyPoint),
      to: place(ka.get(best.queryIdx) as KeyPoint),
    });
  }
  return matches;
}

/**
 * The matches whose later point lies in the middle of `roi`: the transform is fitted there only,
 * because around the vehicle the background and the ground move otherwise.
 */
function inMiddle(matches: Match[], roi: PixelBox): Match[] {
  const [mx, my] = [roi.width * FEATURE_MARGIN, roi.height * FEATURE_MARGIN];
  return matches.filter(
    ({ to: [x, y] }) =>
      x >= roi.x + mx && x <= roi.x + roi.width - mx && y >= roi.y + my && y <= roi.y + roi.height - my,
  );
}

/** A homography fitted on `matches` by RANSAC, when enough of them agree on a plausible one. */
function fitted(cv: Cv, keep: Keep, matches: Match[]): { matrix: Mat } | { inliers: number } {
  if (matches.length < MIN_INLIERS) return { inliers: 0 };
  const inlierMask = keep(new cv.Mat());
  const matrix = keep(
    cv.findHomography(
      pointsOf(cv, keep, matches, 'from'),
      pointsOf(cv, keep, matches, 'to'),
      cv.RANSAC,
      RANSAC_PIXELS,
      inlierMask,
    ),
  );
  const inliers = matrix.empty() ? 0 : cv.countNonZero(inlierMask);
  if (inliers < MIN_INLIERS || inliers < MIN_INLIER_SHARE * matches.length || !plausible(matrix))
    return { inliers };
  return { matrix };
}

/** How far (pixels) `matrix` carries the match's earlier point from its later one. */
export function distance(matrix: Mat, { from: [x, y], to: [u, v] }: Match): number {
  const h = matrix.data64F;
  const w = h[6]! * x + h[7]! * y + h[8]!;
  return Math.hypot((h[0]! * x + h[1]! * y + h[2]!) / w - u, (h[3]! * x + h[4]! * y + h[5]!) / w - v);
}

/** A homography a small change of viewpoint gives: scale within 1/2..2, little perspective. */
function plausible(m: Mat): boolean {
  const h = m.data64F;
  const determinant = h[0]! * h[4]! - h[1]! * h[3]!;
  return determinant > 0.25 && determinant < 4 && Math.abs(h[6]!) < 0.002 && Math.abs(h[7]!) < 0.002;
}
