// Vehicle parts as the estimate prices them (docs/estimate.md#parts): each part's class decides its
// operations and hours; a damage without a part gets one suggested from the photo's view and where the
// damage lies in the vehicle's box. Pure data and lookups.

/** What kind of part it is: the rules and hours are per class. */
export const PART_CLASSES = [
  'bumper',
  'panel',
  'large_panel',
  'glass',
  'lamp',
  'mirror',
  'wheel',
  'trim',
] as const;
export type PartClass = (typeof PART_CLASSES)[number];

/** Words in a part's name that tell its class, most specific first (a reviewer types free text). */
const CLASS_WORDS: [RegExp, PartClass][] = [
  [/windscreen|windshield|window|glass/, 'glass'],
  [/lamp|light|indicator/, 'lamp'],
  [/mirror/, 'mirror'],
  [/wheel|tyre|tire|rim/, 'wheel'],
  [/bumper/, 'bumper'],
  [/bonnet|hood|roof|boot|trunk|tailgate/, 'large_panel'],
  [/grille|trim|plate|moulding|molding|handle/, 'trim'],
];

/** The class of a part named by a model, a reviewer or the suggestion: a body panel unless it says. */
export function partClassOf(part: string): PartClass {
  const name = part.toLowerCase();
  return CLASS_WORDS.find(([words]) => words.test(name))?.[1] ?? 'panel';
}

export type View =
  'front' | 'rear' | 'left' | 'right' | 'front_left' | 'front_right' | 'rear_left' | 'rear_right';
const VIEWS: readonly string[] = [
  'front',
  'rear',
  'left',
  'right',
  'front_left',
  'front_right',
  'rear_left',
  'rear_right',
];

/** A part's outline in one view: the rectangle it covers in the vehicle's box (fractions). */
interface Outline {
  part: string;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}
const at = (part: string, x0: number, x1: number, y0: number, y1: number): Outline => ({
  part,
  x0,
  x1,
  y0,
  y1,
});

/** Seen from the front or the rear: the car's right is on the left of the photo from the front. */
const FRONT: Outline[] = [
  at('windscreen', 0.15, 0.85, 0, 0.35),
  at('bonnet', 0.1, 0.9, 0.35, 0.55),
  at('right_headlamp', 0, 0.25, 0.5, 0.7),
  at('left_headlamp', 0.75, 1, 0.5, 0.7),
  at('grille', 0.25, 0.75, 0.5, 0.7),
  at('front_bumper', 0, 1, 0.7, 1),
];
const REAR: Outline[] = [
  at('rear_window', 0.15, 0.85, 0, 0.35),
  at('left_tail_lamp', 0, 0.25, 0.35, 0.65),
  at('right_tail_lamp', 0.75, 1, 0.35, 0.65),
  at('boot_lid', 0.25, 0.75, 0.35, 0.65),
  at('rear_bumper', 0, 1, 0.65, 1),
];
/** The left side, front of the car on the left of the photo; the right side is its mirror image. */
const LEFT_SIDE: Outline[] = [
  at('front_wheel', 0.1, 0.3, 0.6, 1),
  at('rear_wheel', 0.7, 0.9, 0.6, 1),
  at('front_bumper', 0, 0.1, 0.4, 1),
  at('rear_bumper', 0.9, 1, 0.4, 1),
  at('mirror', 0.25, 0.35, 0.25, 0.45),
  at('front_window', 0.3, 0.55, 0, 0.4),
  at('rear_window', 0.55, 0.8, 0, 0.4),
  at('sill', 0.3, 0.7, 0.85, 1),
  at('front_wing', 0, 0.3, 0.35, 0.6),
  at('front_door', 0.3, 0.55, 0.4, 0.85),
  at('rear_door', 0.55, 0.75, 0.4, 0.85),
  at('rear_quarter_panel', 0.75, 1, 0.35, 0.6),
];

const flip = (outlines: Outline[]) => outlines.map((o) => ({ ...o, x0: 1 - o.x1, x1: 1 - o.x0 }));
const sided = (outlines: Outline[], side: 'left' | 'right') =>
  outlines.map((o) => ({
    ...o,
    part: /bumper|windscreen/.test(o.part)
      ? o.part
      : o.part === 'rear_window'
        ? `${side}_rear_window`
        : `${side}_${o.part}`,
  }));

const OUTLINES: Record<View, Outline[]> = {
  front: FRONT,
  rear: REAR,
  left: sided(LEFT_SIDE, 'left'),
  right: sided(flip(LEFT_SIDE), 'right'),
  // A corner shows half of the front or rear and half of the side: the side's outlines, squeezed into
  // the half of the box it takes, and the front's or rear's in the other half. From the front left
  // corner the front is on the left of the photo and the side runs away to the right; from the rear
  // left corner the side is on the left (its front furthest) and the rear on the right.
  front_left: corner(FRONT, sided(LEFT_SIDE, 'left'), 'end-left'),
  front_right: corner(FRONT, sided(flip(LEFT_SIDE), 'right'), 'end-right'),
  rear_left: corner(REAR, sided(LEFT_SIDE, 'left'), 'end-right'),
  rear_right: corner(REAR, sided(flip(LEFT_SIDE), 'right'), 'end-left'),
};

/** `end` (the front or rear) in one half of the box, the side in the other. */
function corner(end: Outline[], side: Outline[], layout: 'end-left' | 'end-right'): Outline[] {
  const squeeze = (outlines: Outline[], from: number) =>
    outlines.map((o) => ({ ...o, x0: from + o.x0 * 0.5, x1: from + o.x1 * 0.5 }));
  return layout === 'end-left'
    ? [...squeeze(end, 0), ...squeeze(side, 0.5)]
    : [...squeeze(side, 0), ...squeeze(end, 0.5)];
}

/** The view a capture step stands for, if it is one of the walk-around's. */
export const viewOfStep = (step: string | null): View | null =>
  step !== null && VIEWS.includes(step) ? (step as View) : null;

export interface FractionBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The part under the middle of `damage` (a box in the photo), from the outlines of `view`, placed in the
 * `vehicle`'s box; null when the view is unknown or the damage lies outside every outline.
 */
export function suggestPart(
  view: View | null,
  damage: FractionBox,
  vehicle: FractionBox | null,
): string | null {
  if (view === null) return null;
  const frame = vehicle ?? { x: 0, y: 0, width: 1, height: 1 };
  const cx = (damage.x + damage.width / 2 - frame.x) / frame.width;
  const cy = (damage.y + damage.height / 2 - frame.y) / frame.height;
  if (cx < 0 || cx > 1 || cy < 0 || cy > 1) return null;
  // The first outline that holds the point: the lists put small parts before the panels around them.
  return OUTLINES[view].find((o) => cx >= o.x0 && cx <= o.x1 && cy >= o.y0 && cy <= o.y1)?.part ?? null;
}
