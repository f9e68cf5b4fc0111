// A licence plate from recognised text, judged against the table of plate formats
// (src/domain/plate-formats.ts). OCR confuses look-alike characters; where a format fixes a position to
// a letter or a digit, the look-alike of the other kind is read as the one the format needs (an `O`
// where a digit must be is a `0`), and every such change costs the reading some confidence. Text that
// fits no format is no plate.
import { formatGroups, PLATE_FORMATS, type PlateSlot } from '../domain/plate-formats.js';
import { AS_DIGIT, AS_LETTER, DOUBTFUL_BELOW } from './look-alikes.js';

/** At most this many look-alike changes in one plate: beyond, the text is too far from any format. */
export const MAX_PLATE_CORRECTIONS = 2;

export interface PlateMatch {
  /** The plate's groups as its format has them, joined by `-` (`AB-123-CD`). */
  plate: string;
  country: string;
  format: string;
  /** How many characters were read as their look-alike to fit the format. */
  corrections: number;
}

interface Slot {
  kind: PlateSlot['kind'];
  /** The group the slot belongs to, to put the separators back. */
  group: number;
  /** Whether the slot may be left out (the optional part of a `{m,n}` count). */
  optional: boolean;
}

/** Each format's slots, one per character, in order. */
const FORMATS = PLATE_FORMATS.map((entry) => ({
  ...entry,
  // A format of digits only (Abu Dhabi's) fits any number: it is tried only for its own country.
  digitsOnly: !/[LA]/.test(entry.format),
  slots: formatGroups(entry.format).flatMap((group, index) =>
    group.flatMap((slot) =>
      Array.from({ length: slot.max }, (_, i): Slot => ({
        kind: slot.kind,
        group: index,
        optional: i >= slot.min,
      })),
    ),
  ),
}));

/** The character a slot takes for `char`, and whether it had to change; undefined when it cannot. */
function fit(kind: Slot['kind'], char: string): { char: string; changed: boolean } | undefined {
  const isDigit = char >= '0' && char <= '9';
  if (kind === 'A' || (kind === 'D') === isDigit) return { char, changed: false };
  const other = kind === 'D' ? AS_DIGIT[char] : AS_LETTER[char];
  return other === undefined ? undefined : { char: other, changed: true };
}

/**
 * The fewest-changes alignment of `text` (uppercase letters and digits) to a format's slots, optional
 * slots left out where needed; undefined when it does not fit within MAX_PLATE_CORRECTIONS.
 */
function align(
  text: string,
  slots: readonly Slot[],
  changeable: (index: number) => boolean,
): { chars: string[]; groups: number[]; changes: number } | undefined {
  // best[i][j]: fewest changes to read text[0..i) with slots[0..j), and how (for reconstruction).
  const n = text.length;
  const m = slots.length;
  const INF = Number.POSITIVE_INFINITY;
  const best: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(INF));
  const step: ('take' | 'skip' | undefined)[][] = Array.from({ length: n + 1 }, () =>
    new Array<'take' | 'skip' | undefined>(m + 1).fill(undefined),
  );
  best[0]![0] = 0;
  for (let i = 0; i <= n; i++)
    for (let j = 0; j < m; j++) {
      const here = best[i]![j]!;
      if (here === INF) continue;
      const slot = slots[j]!;
      if (slot.optional && here < best[i]![j + 1]!) {
        best[i]![j + 1] = here;
        step[i]![j + 1] = 'skip';
      }
      if (i < n) {
        const fitted = fit(slot.kind, text[i]!);
        const cost =
          fitted === undefined || (fitted.changed && !changeable(i)) ? INF : here + Number(fitted.changed);
        if (cost < best[i + 1]![j + 1]!) {
          best[i + 1]![j + 1] = cost;
          step[i + 1]![j + 1] = 'take';
        }
      }
    }
  const changes = best[n]![m]!;
  if (changes > MAX_PLATE_CORRECTIONS) return undefined;
  const chars: string[] = [];
  const groups: number[] = [];
  for (let i = n, j = m; j > 0; j--) {
    if (step[i]![j] === 'take') {
      i--;
      chars.unshift(fit(slots[j - 1]!.kind, text[i]!)!.char);
      groups.unshift(slots[j - 1]!.group);
    }
  }
  return { chars, groups, changes };
}

/** Where the reading's own separators fell, as positions in its letters and digits. */
function separatorsOf(text: string): Set<number> {
  const positions = new Set<number>();
  let count = 0;
  for (const run of text.toUpperCase().match(/[A-Z0-9]+/g) ?? []) {
    if (count > 0) positions.add(count);
    count += run.length;
  }
  return positions;
}

/**
 * The plate `text` is, by the format it fits best, or undefined when it fits none. Best is fewest
 * look-alike changes, then groups that agree with the separators OCR read (`AB-12O-CD` is a French plate
 * with one change, not a British one without), then the table's order; a separator read inside one of
 * a format's groups rules that format out. A character is read as its look-alike only where
 * `confidences` (one per letter or digit of `text`; all doubtful when absent) says the recogniser was
 * unsure of it. A plate shows at least one digit
 * as read, and one letter where its format has any: OCR text of words (`DOUBLE`) or of numbers alone is
 * no plate, whatever changes would make it fit.
 */
export function matchPlate(
  text: string,
  country?: string,
  confidences?: readonly number[],
): PlateMatch | undefined {
  const compact = text.toUpperCase().replace(/[^A-Z0-9]/g, '');
  const changeable = (index: number) => (confidences?.[index] ?? 0) < DOUBTFUL_BELOW;
  if (compact.length < 4 || compact.length > 10 || !/[0-9]/.test(compact)) return undefined;
  const hasLetter = /[A-Z]/.test(compact);
  const read = separatorsOf(text);
  let found: (PlateMatch & { cost: number }) | undefined;
  for (const format of FORMATS) {
    if (country !== undefined ? format.country !== country : format.digitsOnly) continue;
    if (!format.digitsOnly && !hasLetter) continue;
    const aligned = align(compact, format.slots, changeable);
    if (!aligned) continue;
    const boundaries = new Set<number>();
    aligned.groups.forEach(
      (group, index) => index > 0 && group !== aligned.groups[index - 1] && boundaries.add(index),
    );
    // OCR may miss a gap between groups, but seldom reads one inside a group: a separator read
    // where the format has none rules the format out (`TRIP A 123.4` is no `TRI-PA-1234`).
    if ([...read].some((p) => !boundaries.has(p))) continue;
    const disagreements = read.size === 0 ? 0 : [...boundaries].filter((p) => !read.has(p)).length;
    const cost = aligned.changes + disagreements / 2;
    if (found && found.cost <= cost) continue;
    let plate = '';
    aligned.chars.forEach((char, index) => {
      if (boundaries.has(index)) plate += '-';
      plate += char;
    });
    found = { plate, country: format.country, format: format.format, corrections: aligned.changes, cost };
  }
  if (!found) return undefined;
  const { cost: _cost, ...match } = found;
  return match;
}
