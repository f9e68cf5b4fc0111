// The repair rules (docs/estimate.md#rules), as data: which operation a damage calls for, from its type,
// severity, size against its part and the part's class; and the hours each operation takes on each
// class of part. A client's rate card may put its own rules before these and change any hours.
import type { PartClass } from './parts.js';

/** Least to most work: several damages on one part make one line with the heaviest operation. */
export const OPERATIONS = [
  'polish',
  'paintless_repair',
  'smart_repair',
  'glass_repair',
  'wheel_refurbish',
  'repair_and_paint',
  'replace',
  'replace_and_paint',
] as const;
export type Operation = (typeof OPERATIONS)[number];

export const SIZES = ['small', 'medium', 'large'] as const;
export type Size = (typeof SIZES)[number];

export interface OperationRule {
  /** Absent: any. */
  classes?: PartClass[];
  types?: string[];
  severities?: ('minor' | 'moderate' | 'severe')[];
  sizes?: Size[];
  operation: Operation;
}

export interface Hours {
  labour: number;
  paint: number;
}

const BODY: PartClass[] = ['bumper', 'panel', 'large_panel', 'trim'];
const BROKEN = ['crack', 'broken', 'missing', 'shattered', 'hole'];

/** Tried in order; the first that matches gives the operation. */
export const DEFAULT_OPERATION_RULES: OperationRule[] = [
  // Glass: a small chip or crack is filled; anything else replaced.
  { classes: ['glass'], severities: ['minor'], sizes: ['small'], operation: 'glass_repair' },
  { classes: ['glass'], operation: 'replace' },
  // Lamps are sealed units: replaced.
  { classes: ['lamp'], operation: 'replace' },
  // Mirrors: a scratch on the cover is painted; a broken one replaced.
  { classes: ['mirror'], types: BROKEN, operation: 'replace' },
  { classes: ['mirror'], severities: ['severe'], operation: 'replace' },
  { classes: ['mirror'], operation: 'repair_and_paint' },
  // Wheels: a kerbed rim is refurbished; a cracked or bent one replaced.
  { classes: ['wheel'], types: BROKEN, operation: 'replace' },
  { classes: ['wheel'], severities: ['severe'], operation: 'replace' },
  { classes: ['wheel'], operation: 'wheel_refurbish' },
  // Body: what is broken or missing is replaced and painted.
  { classes: BODY, types: BROKEN, operation: 'replace_and_paint' },
  { classes: BODY, severities: ['severe'], sizes: ['large'], operation: 'replace_and_paint' },
  // Dents: a small shallow dent is pushed out without paint.
  {
    classes: BODY,
    types: ['dent'],
    severities: ['minor'],
    sizes: ['small', 'medium'],
    operation: 'paintless_repair',
  },
  { classes: BODY, types: ['dent'], operation: 'repair_and_paint' },
  // Scratches and scuffs: polished out when light and small, spot-repaired when small, else painted.
  {
    classes: BODY,
    types: ['scratch', 'scuff', 'paint'],
    severities: ['minor'],
    sizes: ['small'],
    operation: 'polish',
  },
  {
    classes: BODY,
    types: ['scratch', 'scuff', 'paint'],
    severities: ['minor', 'moderate'],
    sizes: ['small', 'medium'],
    operation: 'smart_repair',
  },
  { classes: BODY, operation: 'repair_and_paint' },
];

const h = (labour: number, paint: number): Hours => ({ labour, paint });

/** Hours per operation and class of part; an operation a class never gets has no entry. */
export const DEFAULT_HOURS: Record<Operation, Partial<Record<PartClass, Hours>>> = {
  polish: { bumper: h(0.5, 0), panel: h(0.5, 0), large_panel: h(0.7, 0), trim: h(0.3, 0) },
  paintless_repair: { bumper: h(1, 0), panel: h(1.5, 0), large_panel: h(2, 0), trim: h(0.5, 0) },
  smart_repair: { bumper: h(1, 0.5), panel: h(1, 0.5), large_panel: h(1.2, 0.6), trim: h(0.5, 0.3) },
  glass_repair: { glass: h(0.8, 0) },
  wheel_refurbish: { wheel: h(1.5, 0) },
  repair_and_paint: {
    bumper: h(2, 2.5),
    panel: h(3, 2.5),
    large_panel: h(3.5, 3.5),
    trim: h(1, 1),
    mirror: h(0.8, 1),
  },
  replace: { glass: h(2, 0), lamp: h(0.8, 0), mirror: h(0.7, 0), wheel: h(0.5, 0), trim: h(0.5, 0) },
  replace_and_paint: { bumper: h(1.5, 3), panel: h(3.5, 3), large_panel: h(2.5, 4), trim: h(0.5, 1) },
};

/** Operations that buy the part. */
export const REPLACES: readonly Operation[] = ['replace', 'replace_and_paint'];

/**
 * A part of each class covers about this share of the vehicle's box in a photo of it: a damage's size is
 * its box against that (small under 15 %, medium under 50 %, else large).
 */
export const CLASS_SHARE: Record<PartClass, number> = {
  bumper: 0.15,
  panel: 0.12,
  large_panel: 0.2,
  glass: 0.15,
  lamp: 0.03,
  mirror: 0.02,
  wheel: 0.06,
  trim: 0.05,
};

export function sizeOf(relative: number): Size {
  return relative < 0.15 ? 'small' : relative < 0.5 ? 'medium' : 'large';
}
