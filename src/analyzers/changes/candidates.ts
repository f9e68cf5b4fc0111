// The numbers that describe a candidate region of a comparison (./compare.ts) to the trees that judge it
// (./judge.ts). Their order is the model's: a change here needs the trees fitted again
// (bench/train-changes.ts).
import type { Point } from '../ocr/types.js';
import { grownHull, onVehicle, within } from './extent.js';
import type { PixelBox } from './register.js';

/** Where a candidate came from. */
export type CandidateSource = 'range' | 'core' | 'texture';

export interface Candidate {
  /** In the comparison's work area (pixels). */
  box: PixelBox;
  /** How strongly it differs, 0..1: what the result reports. */
  score: number;
  /** On the vehicle by the extent's rules (./extent.ts). */
  onVehicle: boolean;
  /** Its pixels were found in the earlier photo a few pixels away (a range candidate). */
  foundNearby: boolean;
  features: number[];
}

/** How a candidate's changed pixels compare with the earlier photo (pixels of the work area). */
export interface Measures {
  /** The changed pixels' mean distance outside the other photo's range (0..1), or new edges' share. */
  strength: number;
  /** The mean of the strongest half (range candidates), 0 for texture. */
  strongest: number;
  /** The earlier photo's gradient over it, the median (texture candidates), 0 for range. */
  flatBefore: number;
  /** Found nearby (range) or lying on a range change (texture). */
  found: boolean;
  /** Mean change of light (later less earlier, levels of 128), and the earlier photo's fine texture. */
  lighter: number;
  textureBefore: number;
  /** The best shift within the search: its mean absolute difference, how far, and over the unshifted's. */
  nearest: { difference: number; distance: number; ratio: number };
}

export const FEATURE_NAMES = [
  'from core',
  'from texture',
  'log joined share',
  'log changed share',
  'fill',
  'strength',
  'strongest half',
  'flat before',
  'on vehicle',
  'in hull',
  'found',
  'log elongation',
  'height in box',
  'off middle',
  'texture strength',
  'lighter',
  'change of light',
  'texture before',
  'nearest difference',
  'nearest distance',
  'nearest ratio',
] as const;

/** A candidate and its numbers, in FEATURE_NAMES' order. */
export function describeCandidate(
  source: CandidateSource,
  region: { box: PixelBox; area: number; changed: number },
  measures: Measures,
  context: { roi: PixelBox; extent: Point[] },
): Candidate {
  const { box, area, changed } = region;
  const { roi, extent } = context;
  const boxArea = roi.width * roi.height;
  const centre: Point = [box.x + box.width / 2, box.y + box.height / 2];
  const on = onVehicle(extent, box, changed);
  const texture = source === 'texture';
  const features = [
    +(source === 'core'),
    +texture,
    Math.log(area / boxArea + 1e-6),
    Math.log(changed / boxArea + 1e-6),
    changed / (box.width * box.height),
    measures.strength,
    measures.strongest,
    measures.flatBefore,
    +on,
    +within(grownHull(extent, HULL_MARGIN))(centre),
    +measures.found,
    Math.log(Math.max(box.width, box.height) / Math.max(1, Math.min(box.width, box.height))),
    (centre[1] - roi.y) / roi.height,
    Math.abs((centre[0] - roi.x) / roi.width - 0.5),
    texture ? measures.strength : 0,
    measures.lighter,
    Math.abs(measures.lighter),
    measures.textureBefore,
    measures.nearest.difference,
    measures.nearest.distance,
    measures.nearest.ratio,
  ];
  return { box, score: measures.strength, onVehicle: on, foundNearby: !texture && measures.found, features };
}

/** How far past the features' hull a centre still counts as within it (a share of its size). */
const HULL_MARGIN = 0.05;
