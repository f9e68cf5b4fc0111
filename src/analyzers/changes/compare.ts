// What changed on a vehicle between two photos of the same view: the earlier photo registered onto the
// later one (ORB features in the middle of the vehicle's box, a homography fitted by RANSAC:
// ./register.ts), each of their colour planes divided by its own soft illumination, and a pixel counted
// as changed when, in two planes of the three at least, it lies outside the range the other photo shows
// within TOLERANCE pixels of it by more than a threshold that grows with the earlier photo's local
// contrast. Changed pixels form candidate regions inside the vehicle's box; flat paint that gained fine
// texture (a scuff's faint strokes, each too faint alone) makes candidates too (./texture.ts). Each is
// described by a few numbers (./candidates.ts): on the vehicle or not (within the hull of the features
// the transform carries and of the cells where both photos agree, or on its rows and solid:
// ./extent.ts), found in the earlier photo a few pixels away or not (what moves with the viewpoint),
// how strongly it differs; decision trees fitted on the change bench say which are damage
// (./judge.ts). The maps are made around the vehicle's box only. The work is bounded by sizes (both
// photos at COMPARE_SIDE) and counts (features, regions, trees), never by time: the same pair gives the
// same regions on any machine (docs/adr/0016-change-detection-with-opencv.md).
import type { PreviewSize } from '../prepare.js';
import type { FractionBox, Point, RgbImage } from '../ocr/types.js';
import { withMats, type Cv, type Keep, type Mat } from './opencv.js';
import { agreeingCells, grownHull, vehicleExtent, within } from './extent.js';
import { describeCandidate, type Candidate, type CandidateSource } from './candidates.js';
import { likelihood, type Trees } from './judge.js';
import judgeModel from './judge-model.json' with { type: 'json' };
import { register, type PixelBox } from './register.js';
import { newEdges } from './texture.js';

export interface ChangeRegion {
  /** In the later photo, as fractions of its width and height. */
  box: FractionBox;
  /** How strongly it differs, 0..1. */
  score: number;
}

export type Comparison =
  | { status: 'compared'; regions: ChangeRegion[] }
  /** Too few features agree on one transform: the photos show other views, or other vehicles. */
  | { status: 'not_aligned'; inliers: number };

/** Both photos are compared at this long side (pixels). */
const COMPARE_SIDE = 768;

/**
 * How the photos are decoded for the comparison (prepareImage): straight at COMPARE_SIDE, a JPEG
 * shrunk on load to a quarter, not through the analyzers' 1024 px preview, which takes twice as long
 * to decode. Mitchell, softer than sharp's lanczos3, because the comparison counts a pixel as changed
 * by its difference: tuning part, lanczos3 45/64 damages found, false regions 0.34 per pair with damage
 * and 0.44 without change; bilinear 47/64, 0.25, 0.31; mitchell 49/64, 0.19, 0.31 (the 1024 px preview
 * resized by area: 49/64, 0.25, 0.25).
 */
export const COMPARISON_PREVIEW: PreviewSize = { maxSide: COMPARE_SIDE, kernel: 'mitchell' };
/**
 * Sensor and JPEG noise is smoothed away first: blur sigma (pixels). A light scratch on light paint is
 * one or two pixels wide here, and a wider blur takes it under CHANGED_ABOVE. Tuning part (damages
 * found; false regions per pair with damage, without change), with a floor on the regions' score (stop
 * 35): 1.2 px, 50/64, 0.16, 0.19; 0.8 px, 52/64, 0.16, 0.31 (without the score: 1.2 px, 50/64, 0.19,
 * 0.31; 0.8 px, 52/64, 0.19, 0.44: the light's streaks and noise blotches on the body, which the score
 * dropped).
 */
const NOISE_SIGMA = 0.8;
/**
 * Added to the illumination before dividing by it, only so that black does not divide by zero: a larger
 * offset leaves a shadowed part with less contrast than the same part in the light (tried: 24 gave 15
 * times the false regions of 2 on the bench's tuning pairs).
 */
const DARK_OFFSET = 2;
/** The soft illumination each image is divided by: blur sigma (pixels at COMPARE_SIDE). */
const LIGHT_SIGMA = 16;
/**
 * A pixel this far outside its neighbourhood's range in the other photo (levels of 128), plus
 * TEXTURE_SHARE of the earlier photo's local range (within TEXTURE_RADIUS pixels), is changed: on flat
 * paint a faint scuff shows, near an edge a slight misregistration does not. Tuning part (damages
 * found; false regions per pair with damage, without change), with the cells below within CELL_REACH: a
 * fixed 20, 44/64, 0.19 and 0.19; 12 + 0.3 × range, 45/64, 0.16 and 0.19 (with cells anywhere: 49/64,
 * 0.53, 0.50 against 51/64, 0.44, 0.88). 10 or 14, a share of 0.2 or 0.4, a radius of 2 did no better.
 *
 * In colour (envelopeDifference), each of the R, G and B planes is measured so, and a pixel is changed
 * when two of them at least are over: a dark grey scratch on red paint is as bright in grey as the paint,
 * but not in red. One plane over (the most of the three) found more but its noise on dark paint, whose
 * planes are near black before the light is divided out, made regions: tuning part, grey 45/64, 0.16,
 * 0.13; one plane over 52/64, 0.38, 0.50 (at 16 levels: 49/64, 0.25, 0.44); two planes over 49/64, 0.25,
 * 0.25, kept. 10 or 11 levels with two planes: 50/64, 0.31 and 0.38 or 0.34 and 0.31.
 */
const CHANGED_ABOVE = 12;
const TEXTURE_SHARE = 0.3;
const TEXTURE_RADIUS = 3;
/**
 * Candidate regions are made from this share of the vehicle box up; which of them are damage, the trees
 * of ./judge.ts say (JUDGED_DAMAGE), at most MAX_REGIONS of them, the likeliest first. Until stop 47 a
 * chain of rules judged them (regions from 0.1 % of the box, those under 0.2 % only when they differ by
 * 0.45 of 128 levels on average, the others by 0.195; texture regions on paint flat before to 8 levels,
 * new edges 55 % of their pixels on average): docs/adr/0016-change-detection-with-opencv.md.
 */
const CANDIDATE_SHARE = 0.0005;
/**
 * The likelihood from which a candidate is damage. Tuning part of the 300 pairs (`npm run
 * train:changes`: the trees fitted on four fifths of its pairs and judging the fifth left out, in turn,
 * the mean of five ways of cutting it into fifths; found of 316; false regions per pair with damage,
 * without change), trees with Newton leaves (./judge.ts, stop 49): 0.4, 285.2, 0.17, 0.25; 0.45, 284.2,
 * 0.15, 0.21; 0.5, 284.0, 0.13, 0.20; 0.55, 283.0, 0.12, 0.18. The rules before: 243, 0.41, 0.31. 0.5
 * (chosen at stop 47 for the trees of then: 284, 0.19, 0.17 in one way of cutting) leaves a margin under
 * the targets (0.5 and 0.3) for as many found.
 */
const JUDGED_DAMAGE = 0.5;
const MAX_REGIONS = 8;
const MODEL = judgeModel as Trees;

/** `box` grown by `share` of its size on every side, within the image. */
export function grownBox(box: FractionBox, share: number): FractionBox {
  const x = Math.max(0, box.x - box.width * share);
  const y = Math.max(0, box.y - box.height * share);
  return {
    x,
    y,
    width: Math.min(1, box.x + box.width * (1 + share)) - x,
    height: Math.min(1, box.y + box.height * (1 + share)) - y,
  };
}

/**
 * The changes from `before` to `after` (raw RGB previews), looked for inside `vehicle` (a box in
 * `after`, fractions; the whole photo when absent).
 */
export async function comparePhotos(
  before: RgbImage,
  after: RgbImage,
  vehicle?: FractionBox,
): Promise<Comparison> {
  const found = await candidateRegions(before, after, vehicle);
  if (found.status === 'not_aligned') return found;
  return { status: 'compared', regions: judgedRegions(found.candidates) };
}

/**
 * The candidates the trees judge damage (a likelihood of `least` at least), the likeliest first, each
 * shown once (mostlyWithin), MAX_REGIONS at most.
 */
export function judgedRegions(
  candidates: readonly JudgedCandidate[],
  likelihoodOf = (features: number[]) => likelihood(MODEL, features),
  least = JUDGED_DAMAGE,
): ChangeRegion[] {
  const judged = candidates
    .map((candidate) => ({ ...candidate, likelihood: likelihoodOf(candidate.features) }))
    .filter((candidate) => candidate.likelihood >= least)
    .sort((p, q) => q.likelihood - p.likelihood);
  const regions: ChangeRegion[] = [];
  for (const { box, score } of judged)
    if (regions.length < MAX_REGIONS && !regions.some((kept) => mostlyWithin(box, kept.box)))
      regions.push({ box, score });
  return regions;
}

/**
 * Whether half of `box` at least lies within `other`: the same change found twice (by its range and by
 * its texture, or whole and again from the core of an edge region) is shown once.
 */
function mostlyWithin(box: FractionBox, other: FractionBox): boolean {
  const common = commonArea(box, other);
  return common > 0 && common >= 0.5 * box.width * box.height;
}

/** The area two boxes (fractions or pixels) have in common, 0 when they do not overlap. */
function commonArea(a: FractionBox | PixelBox, b: FractionBox | PixelBox): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

/** A candidate region in the later photo (fractions), with the numbers the trees judge it by. */
export type JudgedCandidate = ChangeRegion & { features: number[] };

/**
 * Every candidate region of the comparison, before the trees judge them: what comparePhotos() keeps
 * from, and what bench/train-changes.ts fits the trees on.
 */
export function candidateRegions(
  before: RgbImage,
  after: RgbImage,
  vehicle?: FractionBox,
): Promise<
  { status: 'compared'; candidates: JudgedCandidate[] } | { status: 'not_aligned'; inliers: number }
> {
  return withMats((cv, keep) => {
    const colourAfter = keep(colour(cv, keep, after));
    const colourBefore = keep(colour(cv, keep, before));
    const [a, b] = [keep(grey(cv, colourAfter)), keep(grey(cv, colourBefore))];
    const roi = pixelBox(vehicle ?? { x: 0, y: 0, width: 1, height: 1 }, a);
    const homography = register(cv, keep, b, a, roi);
    if ('inliers' in homography) return { status: 'not_aligned', inliers: homography.inliers };
    // The maps are made on the vehicle's ring only, with a margin for their blurs and searches.
    const work = grown(ringOf(roi, a.cols, a.rows), WORK_MARGIN, a.cols, a.rows);
    const matrix = keep(shifted(cv, homography.matrix, work));
    const size = new cv.Size(work.width, work.height);
    const warped = keep(new cv.Mat());
    cv.warpPerspective(
      colourBefore,
      warped,
      matrix,
      size,
      cv.INTER_LINEAR,
      cv.BORDER_CONSTANT,
      new cv.Scalar(0),
    );
    // Where the earlier photo reaches, shrunk so that its edge is not taken for a change.
    const valid = keep(new cv.Mat());
    const ones = keep(new cv.Mat(b.rows, b.cols, cv.CV_8UC1, new cv.Scalar(255)));
    cv.warpPerspective(ones, valid, matrix, size, cv.INTER_NEAREST, cv.BORDER_CONSTANT, new cv.Scalar(0));
    cv.erode(valid, valid, keep(cv.Mat.ones(9, 9, cv.CV_8U)));
    const workAfter = keep(colourAfter.roi(new cv.Rect(work.x, work.y, work.width, work.height)));
    const [evenBefore, evenAfter] = [evenLight(cv, keep, warped), evenLight(cv, keep, workAfter)];
    const { difference, excess } = envelopeDifference(cv, keep, evenBefore, evenAfter);
    const images = {
      after: keep(grey(cv, evenAfter)),
      before: keep(grey(cv, evenBefore)),
      difference,
      excess,
      valid,
    };
    const local = { ...roi, x: roi.x - work.x, y: roi.y - work.y };
    const features = homography.extent.map(([x, y]): Point => [x - work.x, y - work.y]);
    const extent = vehicleExtent(features, agreeingCells(images, local));
    const candidates = candidatesOf(cv, keep, images, local, extent).map(({ box, score, features }) => ({
      box: {
        x: (box.x + work.x) / a.cols,
        y: (box.y + work.y) / a.rows,
        width: box.width / a.cols,
        height: box.height / a.rows,
      },
      score,
      features,
    }));
    return { status: 'compared', candidates };
  });
}

/** The image at COMPARE_SIDE, RGB, 8 bits. */
function colour(cv: Cv, keep: Keep, image: RgbImage): Mat {
  const rgb = keep(cv.matFromArray(image.height, image.width, cv.CV_8UC3, image.data));
  const scale = COMPARE_SIDE / Math.max(image.width, image.height);
  const out = new cv.Mat();
  cv.resize(
    rgb,
    out,
    new cv.Size(Math.round(image.width * scale), Math.round(image.height * scale)),
    0,
    0,
    scale < 1 ? cv.INTER_AREA : cv.INTER_LINEAR,
  );
  return out;
}

/** An RGB image as grey, in its depth. */
function grey(cv: Cv, image: Mat): Mat {
  const out = new cv.Mat();
  cv.cvtColor(image, out, cv.COLOR_RGB2GRAY);
  return out;
}

function pixelBox(box: FractionBox, image: Mat): PixelBox {
  const x = Math.max(0, Math.floor(box.x * image.cols));
  const y = Math.max(0, Math.floor(box.y * image.rows));
  const right = Math.min(image.cols, Math.ceil((box.x + box.width) * image.cols));
  const bottom = Math.min(image.rows, Math.ceil((box.y + box.height) * image.rows));
  return { x, y, width: Math.max(1, right - x), height: Math.max(1, bottom - y) };
}

/**
 * The illumination is blurred at this share of the image's size, then brought back: it is soft, and
 * the blur of three planes costs a sixteenth there. Tuning part, in grey: 45/64 damages found, false
 * regions 0.16 per pair with damage and 0.13 without change, against 45/64, 0.16 and 0.19 blurred at
 * full size; the comparison about 40 ms faster. A quarter instead of a half (stop 40): the same figures
 * on the 144 tuning pairs (150/193, 0.29, 0.29, the same pairs missed), one false region fewer on the
 * held-out part, and about 10 ms faster.
 */
const LIGHT_SCALE = 0.25;

/**
 * Each plane of the image divided by its own soft illumination: shadows, exposure, vignetting and the
 * light's colour evened out.
 */
function evenLight(cv: Cv, keep: Keep, image: Mat): Mat {
  const f = keep(new cv.Mat());
  image.convertTo(f, cv.CV_32F);
  cv.GaussianBlur(f, f, new cv.Size(0, 0), NOISE_SIGMA);
  const light = keep(softLight(cv, f));
  const offset = keep(
    new cv.Mat(light.rows, light.cols, light.type(), new cv.Scalar(DARK_OFFSET, DARK_OFFSET, DARK_OFFSET)),
  );
  cv.add(light, offset, light);
  const out = keep(new cv.Mat());
  cv.divide(f, light, out, 128);
  return out;
}

/** `image` blurred by LIGHT_SIGMA, the blur made on it shrunk by LIGHT_SCALE. */
function softLight(cv: Cv, image: Mat): Mat {
  const small = new cv.Mat();
  try {
    const size = new cv.Size(Math.round(image.cols * LIGHT_SCALE), Math.round(image.rows * LIGHT_SCALE));
    cv.resize(image, small, size, 0, 0, cv.INTER_AREA);
    cv.GaussianBlur(small, small, new cv.Size(0, 0), LIGHT_SIGMA * LIGHT_SCALE);
    const out = new cv.Mat();
    cv.resize(small, out, new cv.Size(image.cols, image.rows), 0, 0, cv.INTER_LINEAR);
    return out;
  } finally {
    small.delete();
  }
}

/** Neighbourhood (pixels) within which a difference is put down to registration, not to change. */
const TOLERANCE = 2;

/**
 * How far each pixel of `x` lies outside the range of `y` around it, or `y` outside the range of `x`,
 * plane by plane: an edge displaced by up to TOLERANCE pixels (registration, resampling) lies inside; a
 * scratch, a dent or a panel of another colour does not. `difference` is the most of it over the
 * planes; `excess`, the second most over the planes of it less TEXTURE_SHARE of the earlier photo's
 * range within TEXTURE_RADIUS (see CHANGED_ABOVE).
 */
function envelopeDifference(cv: Cv, keep: Keep, x: Mat, y: Mat): { difference: Mat; excess: Mat } {
  const [xs, ys] = [fixedPlanes(cv, keep, x), fixedPlanes(cv, keep, y)];
  const outside = xs.map(() => keep(new cv.Mat()));
  const over = xs.map(() => keep(new cv.Mat()));
  const contrast = keep(new cv.Mat());
  xs.forEach((xk, k) => {
    const yk = ys[k]!;
    const [rx, ry] = [localRange(cv, keep, xk, TOLERANCE), localRange(cv, keep, yk, TOLERANCE)];
    cv.max(beyond(cv, keep, xk, ry), beyond(cv, keep, yk, rx), outside[k]!);
    const texture = widenedRange(cv, keep, rx, TEXTURE_RADIUS - TOLERANCE);
    cv.subtract(texture.hi, texture.lo, contrast);
    cv.addWeighted(outside[k]!, 1, contrast, -TEXTURE_SHARE, 0, over[k]!);
  });
  const [most, second] = [keep(new cv.Mat()), keep(new cv.Mat())];
  cv.max(outside[0]!, outside[1]!, most);
  cv.max(most, outside[2]!, most);
  // The second most of three: the larger of the least of the first two and the least of the others.
  const [lower, higher] = [keep(new cv.Mat()), keep(new cv.Mat())];
  cv.min(over[0]!, over[1]!, lower);
  cv.max(over[0]!, over[1]!, higher);
  cv.min(higher, over[2]!, higher);
  cv.max(lower, higher, second);
  const [difference, excess] = [keep(new cv.Mat()), keep(new cv.Mat())];
  most.convertTo(difference, cv.CV_32F, 1 / FIXED);
  second.convertTo(excess, cv.CV_32F, 1 / FIXED);
  return { difference, excess };
}

/** How far `image` lies outside `range` (of the other image), negative inside. */
function beyond(cv: Cv, keep: Keep, image: Mat, range: { lo: Mat; hi: Mat }): Mat {
  const [above, below] = [keep(new cv.Mat()), keep(new cv.Mat())];
  cv.subtract(image, range.hi, above);
  cv.subtract(range.lo, image, below);
  cv.max(above, below, above);
  return above;
}

/**
 * The envelope is worked out in 16-bit integers, FIXED to a level (of 128; up to 4 times the
 * illumination): this build's morphology is four times faster on them than on floats, and six times
 * slower on three float planes at once than one by one.
 */
const FIXED = 64;

/** The planes of `image` (floats) in 16-bit integers, FIXED to a level, each kept. */
function fixedPlanes(cv: Cv, keep: Keep, image: Mat): Mat[] {
  const fixed = keep(new cv.Mat());
  // The typings leave this code as `any`.
  image.convertTo(fixed, cv.CV_16S as number, FIXED);
  const vector = keep(new cv.MatVector());
  cv.split(fixed, vector);
  return Array.from({ length: vector.size() }, (_, k) => keep(vector.get(k)));
}

/**
 * The changed pixels of a region that reaches the box's edge are looked at again alone where they lie
 * this far (a share of its size) inside the vehicle's extent: away from its outline, where the
 * background joins it. Tuning part (with the photos decoded at COMPARE_SIDE): without, 49/64 damages
 * found, false regions 0.19 per pair with damage and 0.31 without change; 0.1: 50/64, 0.22, 0.31;
 * 0.2: 50/64, 0.19, 0.31. Most damages joined to the background have too few changed pixels of their
 * own to make a region (a scuff's strokes are under a pixel wide at 768 px).
 */
const CORE_INSET = 0.2;

/** Changed pixels are looked for this far (a share of the box) around the vehicle's box too. */
const RING = 0.08;

/** `roi` grown by RING, within a `width` × `height` image. */
function ringOf(roi: PixelBox, width: number, height: number): PixelBox {
  return grown(roi, { x: roi.width * RING, y: roi.height * RING }, width, height);
}

/** `box` grown by `margin` pixels on either side (whole pixels, outwards), within a `width` × `height` image. */
function grown(box: PixelBox, margin: { x: number; y: number }, width: number, height: number): PixelBox {
  const x = Math.max(0, Math.floor(box.x - margin.x));
  const y = Math.max(0, Math.floor(box.y - margin.y));
  const right = Math.min(width, Math.ceil(box.x + box.width + margin.x));
  const bottom = Math.min(height, Math.ceil(box.y + box.height + margin.y));
  return { x, y, width: right - x, height: bottom - y };
}

/** `matrix` (into the whole later photo) followed by the shift into `work`, a part of it. */
function shifted(cv: Cv, matrix: Mat, work: PixelBox): Mat {
  const h = matrix.data64F;
  const row = (k: number, by: number) => [h[k]! - by * h[6]!, h[k + 1]! - by * h[7]!, h[k + 2]! - by * h[8]!];
  return cv.matFromArray(3, 3, cv.CV_64F, [...row(0, work.x), ...row(3, work.y), h[6]!, h[7]!, h[8]!]);
}
/**
 * How far (pixels) a changed patch may have moved, seen from elsewhere (the ground, parallax), and how
 * many of its pixels (evenly taken) are looked for. Tuning part: 16 px instead of 10 took the false
 * regions from 0.25 to 0.16 per pair with damage and 0.25 to 0.19 per pair without, recall unchanged;
 * the sample keeps the search's cost bounded.
 */
const SEARCH = 16;
const SEARCH_SAMPLES = 400;
/** A patch is found when its mean absolute difference there is under this (levels of 128). */
const FOUND_BELOW = 10;

/**
 * The maps are made this far (pixels) around the ring: a changed pixel at its edge is looked for
 * SEARCH pixels away in the earlier photo.
 */
const WORK_MARGIN = { x: SEARCH, y: SEARCH };

interface Images {
  /** The later photo and the earlier one registered onto it, light evened out. */
  after: Mat;
  before: Mat;
  /** How far each pixel lies outside the other photo's range, the most over the planes (negative inside). */
  difference: Mat;
  /** What CHANGED_ABOVE is compared with (envelopeDifference). */
  excess: Mat;
  valid: Mat;
}

/**
 * The candidate regions: changed pixels joined, inside the vehicle's box. Regions reaching out of it are
 * left out (the background and the ground around the vehicle), but their pixels well inside the
 * vehicle's extent are joined again alone (CORE_INSET). Then the regions where flat paint gained
 * texture (texturedCandidates).
 */
function candidatesOf(cv: Cv, keep: Keep, images: Images, roi: PixelBox, extent: Point[]): Candidate[] {
  const { difference, valid } = images;
  const [width, height] = [difference.cols, difference.rows];
  const ring = ringOf(roi, width, height);
  const changed = keep(cv.Mat.zeros(height, width, cv.CV_8UC1));
  // OpenCV's memory may grow whenever a Mat is made, and a view of it taken before then reads nothing:
  // each view here is taken after the last Mat made before it is read.
  const v = valid.data;
  const c = changed.data;
  const excess = images.excess.data32F;
  for (let y = ring.y; y < ring.y + ring.height; y++)
    for (let x = ring.x; x < ring.x + ring.width; x++) {
      const i = y * width + x;
      if (v[i] && excess[i]! > CHANGED_ABOVE) c[i] = 255;
    }
  withoutSpecks(cv, keep, changed);
  const minArea = CANDIDATE_SHARE * roi.width * roi.height;
  const inside = insideOf(roi);
  const first = joinedRegions(cv, keep, changed, minArea);
  const regions: { source: CandidateSource; region: Joined }[] = first.regions
    .filter((r) => inside(r.box))
    .map((region) => ({ source: 'range', region }));
  {
    // A region reaching the box's edge may hold a damage joined to the background through the
    // vehicle's outline: its changed pixels well inside the vehicle's extent are joined again alone.
    const core = within(grownHull(extent, -CORE_INSET));
    const edge = new Set(first.all.filter((r) => !inside(r.box)).map((r) => r.label));
    const inner = keep(cv.Mat.zeros(height, width, cv.CV_8UC1));
    const [n, l, c] = [inner.data, first.labels.data32S, changed.data];
    for (let y = roi.y; y < roi.y + roi.height; y++)
      for (let x = roi.x; x < roi.x + roi.width; x++) {
        const i = y * width + x;
        if (c[i] && edge.has(l[i]!) && core([x, y])) n[i] = 255;
      }
    for (const region of joinedRegions(cv, keep, inner, minArea).regions)
      if (inside(region.box)) regions.push({ source: 'core', region });
  }
  const d = difference.data32F;
  const candidates: Candidate[] = [];
  for (const { source, region } of regions) {
    const { box, pixels, area } = region;
    if (pixels.length === 0) continue;
    const strengths = pixels.map((i) => Math.min(1, d[i]! / 128)).sort((p, q) => q - p);
    const half = Math.ceil(strengths.length / 2);
    const nearest = nearestMatch(images, pixels, width, height);
    const measures = {
      strength: mean(strengths),
      strongest: mean(strengths.slice(0, half)),
      flatBefore: 0,
      found: nearest.found,
      ...lightAndTexture(images, pixels, width),
      nearest,
    };
    candidates.push(
      describeCandidate(source, { box, area, changed: pixels.length }, measures, { roi, extent }),
    );
  }
  candidates.push(...texturedCandidates(cv, keep, images, roi, extent, candidates));
  return candidates;
}

const mean = (values: readonly number[]) => values.reduce((s, v) => s + v, 0) / Math.max(1, values.length);

/** New edges (./texture.ts) at least this share of the pixels around make a texture candidate. */
const TEXTURE_SHARE_AROUND = 0.45;

/** Whether a box lies inside `roi`, touching none of its edges. */
const insideOf = (roi: PixelBox) => (box: PixelBox) =>
  box.x > roi.x + 1 &&
  box.y > roi.y + 1 &&
  box.x + box.width < roi.x + roi.width - 1 &&
  box.y + box.height < roi.y + roi.height - 1;

/**
 * Candidates where the later photo gained texture (./texture.ts): inside the vehicle's box, with whether
 * they lie on a range candidate that is on the vehicle and not found nearby (`changes`).
 */
function texturedCandidates(
  cv: Cv,
  keep: Keep,
  images: Images,
  roi: PixelBox,
  extent: Point[],
  changes: readonly Candidate[],
): Candidate[] {
  const { density, earlier } = newEdges(cv, keep, images.after, images.before, TOLERANCE);
  const width = density.cols;
  const mask = keep(cv.Mat.zeros(density.rows, width, cv.CV_8UC1));
  let [d, e] = [density.data32F, earlier.data32F];
  const [m, v] = [mask.data, images.valid.data];
  for (let y = roi.y; y < roi.y + roi.height; y++)
    for (let x = roi.x; x < roi.x + roi.width; x++) {
      const i = y * width + x;
      if (v[i] && d[i]! >= TEXTURE_SHARE_AROUND) m[i] = 255;
    }
  const inside = insideOf(roi);
  const kept = changes.filter((other) => other.onVehicle && !other.foundNearby);
  const out: Candidate[] = [];
  const joined = joinedRegions(cv, keep, mask, CANDIDATE_SHARE * roi.width * roi.height).regions;
  // Views taken again after the last Mat is made (see candidatesOf).
  [d, e] = [density.data32F, earlier.data32F];
  for (const { box, pixels, area } of joined) {
    if (!inside(box) || pixels.length === 0) continue;
    const before = pixels.map((i) => e[i]!).sort((p, q) => p - q);
    const measures = {
      strength: mean(pixels.map((i) => d[i]!)),
      strongest: 0,
      flatBefore: before[Math.floor(before.length / 2)]!,
      found: kept.some((other) => commonArea(other.box, box) > 0),
      ...lightAndTexture(images, pixels, width),
      nearest: nearestMatch(images, pixels, width, images.after.rows),
    };
    out.push(describeCandidate('texture', { box, area, changed: pixels.length }, measures, { roi, extent }));
  }
  return out;
}

/**
 * Changed pixels joined (8 neighbours) in a run of this many at least are kept whole, though a 3 px
 * opening would erase them: a light scratch on light paint is one or two pixels wide at COMPARE_SIDE.
 * Tuning part (damages found; false regions per pair with damage, without change), the bench counting a
 * damage found only by a region it fills a twentieth of at least: the opening alone, 49/64, 0.19, 0.31;
 * runs of 20 pixels kept as well, 51/64, 0.16, 0.31; of 40 or 80, 51/64, 0.13, 0.31. Runs kept without the
 * opening: 53/64, 0.16, 0.38 with the smaller regions below; lines kept by openings with 5 to 13 px
 * lines in four directions: no more found (a scratch's slope seldom follows one of them).
 */
const THIN_CHANGE_PIXELS = 40;
/**
 * ...and thin: on average at most this wide (pixels), their area over their box's longer side. Ragged
 * runs through a textured backdrop (foliage seen past the vehicle's edge, through a window) are not
 * kept. Tuning part of the 120 pairs (found of 122; false regions per pair with damage, without
 * change): any width, 90, 0.22, 0.28; 3 px, 90, 0.23, 0.22; 3.5 px, 92, 0.25, 0.22; 4 px, 92, 0.25,
 * 0.25; 5 px, 91, 0.23, 0.25.
 */
const THIN_CHANGE_WIDTH = 3.5;

/**
 * Short changes (runs under THIN_CHANGE_PIXELS, which the opening erases) are kept where at least this
 * share of the DENSE_WINDOW around them is such changes: a scuff is many short strokes under a pixel
 * wide here, each a speck alone. Noise specks on the body lie far apart, and a textured backdrop's
 * changes join into larger runs (left out unless thin). Tuning part of the 120 pairs (found of 122;
 * false regions per pair with damage, without change): without, 92, 0.25, 0.22; a 15 px window and
 * 3 %, 4 % or 5 %: 96, 0.27, 0.22; 96, 0.27, 0.19; 96, 0.25, 0.22; 21 px and 4 %: 95, 0.25, 0.19; 11 px and
 * 3 %: 96, 0.25, 0.22. Counting every change, not only the short ones, in the share: 95 at best, and a
 * mesh of strokes (the unit test of a textured backdrop) is kept. Pixels over a lower threshold (8 or
 * 10 levels) counted in dense places: 84–88, the weak pixels lowering the regions' scores.
 */
const DENSE_SHARE = 0.05;
const DENSE_WINDOW = 15;

/**
 * `changed` without specks of noise: what a 3 px opening keeps (blobs), every thin run of
 * THIN_CHANGE_PIXELS joined pixels at least (scratches), and short runs close together (scuffs).
 */
function withoutSpecks(cv: Cv, keep: Keep, changed: Mat): void {
  const opened = keep(new cv.Mat());
  cv.morphologyEx(changed, opened, cv.MORPH_OPEN, keep(cv.Mat.ones(3, 3, cv.CV_8U)));
  const labels = keep(new cv.Mat());
  const stats = keep(new cv.Mat());
  const count = cv.connectedComponentsWithStats(changed, labels, stats, keep(new cv.Mat()), 8, cv.CV_32S);
  const s = stats.data32S;
  const [thin, short] = [new Uint8Array(count), new Uint8Array(count)];
  for (let k = 1; k < count; k++) {
    const [longerSide, area] = [Math.max(s[k * 5 + 2]!, s[k * 5 + 3]!), s[k * 5 + 4]!];
    if (area >= THIN_CHANGE_PIXELS && area <= THIN_CHANGE_WIDTH * longerSide) thin[k] = 1;
    if (area < THIN_CHANGE_PIXELS) short[k] = 1;
  }
  // Views taken after the last Mat is made (see candidatesOf), again after boxFilter's.
  const shortChanges = keep(cv.Mat.zeros(changed.rows, changed.cols, cv.CV_8UC1));
  const [l, m] = [labels.data32S, shortChanges.data];
  for (let i = 0; i < l.length; i++) if (short[l[i]!]) m[i] = 255;
  const density = keep(new cv.Mat());
  const window = new cv.Size(DENSE_WINDOW, DENSE_WINDOW);
  cv.boxFilter(shortChanges, density, cv.CV_32F, window, new cv.Point(-1, -1), true, cv.BORDER_CONSTANT);
  const [labelled, o, dense] = [labels.data32S, opened.data, density.data32F];
  for (let i = 0; i < labelled.length; i++) {
    const k = labelled[i]!;
    if (thin[k] || (short[k] && dense[i]! >= DENSE_SHARE * 255)) o[i] = 255;
  }
  opened.copyTo(changed);
}

interface Joined {
  box: PixelBox;
  label: number;
  area: number;
  pixels: number[];
}

/**
 * The regions of `changed` (pixels joined over 9 px): `all` of them, and `regions`, those of `minArea`
 * at least, with their changed pixels.
 */
function joinedRegions(
  cv: Cv,
  keep: Keep,
  changed: Mat,
  minArea: number,
): { all: Joined[]; regions: Joined[]; labels: Mat } {
  const labels = keep(new cv.Mat());
  const joined = keep(new cv.Mat());
  cv.dilate(changed, joined, keep(cv.Mat.ones(9, 9, cv.CV_8U)));
  const stats = keep(new cv.Mat());
  const centroids = keep(new cv.Mat());
  const count = cv.connectedComponentsWithStats(joined, labels, stats, centroids, 8, cv.CV_32S);
  const s = stats.data32S;
  const all: Joined[] = [];
  for (let k = 1; k < count; k++) {
    const box = { x: s[k * 5]!, y: s[k * 5 + 1]!, width: s[k * 5 + 2]!, height: s[k * 5 + 3]! };
    all.push({ box, label: k, area: s[k * 5 + 4]!, pixels: [] });
  }
  const regions = all.filter((r) => r.area >= minArea);
  for (const r of regions)
    r.pixels = changedPixels(labels.data32S, changed.data, { ...r.box, label: r.label }, changed.cols);
  return { all, regions, labels };
}

/**
 * `range` (the lowest and the highest within some radius) widened to `by` pixels more: the same as the
 * range within the sum of the two radii, in less time (a square eroded twice is eroded by their sum).
 */
function widenedRange(cv: Cv, keep: Keep, range: { lo: Mat; hi: Mat }, by: number): { lo: Mat; hi: Mat } {
  const kernel = keep(cv.Mat.ones(2 * by + 1, 2 * by + 1, cv.CV_8U));
  const [lo, hi] = [keep(new cv.Mat()), keep(new cv.Mat())];
  cv.erode(range.lo, lo, kernel);
  cv.dilate(range.hi, hi, kernel);
  return { lo, hi };
}

/** The lowest and the highest of `image` within `radius` pixels of each pixel, plane by plane. */
function localRange(cv: Cv, keep: Keep, image: Mat, radius: number): { lo: Mat; hi: Mat } {
  return widenedRange(cv, keep, { lo: image, hi: image }, radius);
}

/** The indices of the changed pixels of component `box.label` (before the joining dilation). */
function changedPixels(
  labels: Int32Array,
  changed: Uint8Array,
  box: PixelBox & { label: number },
  width: number,
): number[] {
  const pixels: number[] = [];
  for (let y = box.y; y < box.y + box.height; y++)
    for (let x = box.x; x < box.x + box.width; x++) {
      const i = y * width + x;
      if (labels[i] === box.label && changed[i]) pixels.push(i);
    }
  return pixels;
}

/**
 * The shift (within SEARCH pixels) at which the later photo's `changed` pixels (SEARCH_SAMPLES of them
 * at most, evenly taken) look most like the earlier photo: their mean absolute difference there, how
 * far it is, and that difference over the unshifted one's. `found` when it is under FOUND_BELOW: the
 * patch moved with the viewpoint (a part at another depth, a reflection).
 */
function nearestMatch(
  images: Images,
  changed: readonly number[],
  width: number,
  height: number,
): { found: boolean; difference: number; distance: number; ratio: number } {
  const a = images.after.data32F;
  const b = images.before.data32F;
  const v = images.valid.data;
  const step = Math.ceil(changed.length / SEARCH_SAMPLES);
  const pixels = changed.filter((_, k) => k % step === 0);
  // Their places and values in typed arrays: the loop below runs 1,089 shifts for every candidate.
  const count = pixels.length;
  const [xs, ys, values] = [new Int32Array(count), new Int32Array(count), new Float32Array(count)];
  pixels.forEach((i, k) => {
    xs[k] = i % width;
    ys[k] = (i - xs[k]) / width;
    values[k] = a[i]!;
  });
  let [best, distance] = [Infinity, 0];
  for (let dy = -SEARCH; dy <= SEARCH; dy++)
    for (let dx = -SEARCH; dx <= SEARCH; dx++) {
      let sum = 0;
      let n = 0;
      for (let k = 0; k < count; k++) {
        const x = xs[k]! + dx;
        const y = ys[k]! + dy;
        if (x < 0 || y < 0 || x >= width || y >= height) continue;
        const j = y * width + x;
        if (!v[j]) continue;
        sum += Math.abs(values[k]! - b[j]!);
        n++;
      }
      if (n > count / 2 && sum / n < best) [best, distance] = [sum / n, Math.hypot(dx, dy)];
    }
  const unshifted = mean(pixels.map((i) => Math.abs(a[i]! - b[i]!)));
  if (!Number.isFinite(best)) return { found: false, difference: NO_MATCH, distance: 0, ratio: 1 };
  return { found: best < FOUND_BELOW, difference: best, distance, ratio: best / (unshifted + 1) };
}

/** What nearestMatch() says where no shift keeps half the pixels in the earlier photo. */
const NO_MATCH = 99;

/**
 * The mean change of light over `pixels` (the later photo less the earlier, levels of 128), and the
 * earlier photo's fine texture there (its mean difference with the pixels right and below).
 */
function lightAndTexture(
  images: Images,
  pixels: readonly number[],
  width: number,
): { lighter: number; textureBefore: number } {
  const a = images.after.data32F;
  const b = images.before.data32F;
  let [lighter, texture] = [0, 0];
  for (const i of pixels) {
    lighter += a[i]! - b[i]!;
    texture += Math.abs(b[i]! - (b[i + 1] ?? b[i]!)) + Math.abs(b[i]! - (b[i + width] ?? b[i]!));
  }
  const n = Math.max(1, pixels.length);
  return { lighter: lighter / n, textureBefore: texture / n };
}
