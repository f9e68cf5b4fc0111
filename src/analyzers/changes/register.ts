// Registration of the earlier photo onto the later one: ORB features of both photos (the later one's
// inside the vehicle's box) matched by brute force with Lowe's ratio, and a homography fitted by RANSAC
// on the matches in the middle of the box (docs/adr/0016-change-detection-with-opencv.md).
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

/** What the typings leave as `any`: a match of two descriptors, and a feature's place. */
interface DMatch {
  queryIdx: number;
  trainIdx: number;
  distance: number;
}
interface KeyPoint {
  pt: { x: number; y: number };
}
interface Match {
  /** In the earlier photo. */
  from: Point;
  /** In the later photo. */
  to: Point;
}

/** The homography taking `before` onto `after` (grey), fitted on matches inside `roi` of `after`. */
export function register(cv: Cv, keep: Keep, before: Mat, after: Mat, roi: PixelBox): Registration {
  const matches = featureMatches(cv, keep, before, after, roi);
  const fit = fitted(cv, keep, inMiddle(matches, roi));
  if ('inliers' in fit) return fit;
  // Where the vehicle is: every feature of the box that the transform carries to its match.
  const carried = matches.filter((m) => distance(fit.matrix, m) <= RANSAC_PIXELS);
  return { matrix: fit.matrix, extent: convexHull(carried.map((m) => m.to)) };
}

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
  const points = (of: (m: Match) => Point) =>
    keep(cv.matFromArray(matches.length, 1, cv.CV_32FC2, matches.flatMap(of)));
  const inlierMask = keep(new cv.Mat());
  const matrix = keep(
    cv.findHomography(
      points((m) => m.from),
      points((m) => m.to),
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
function distance(matrix: Mat, { from: [x, y], to: [u, v] }: Match): number {
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
