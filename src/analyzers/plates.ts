// A licence plate from recognised text, judged against the table of plate formats
// (src/domain/plate-formats.ts). OCR confuses look-alike characters; where a format fixes a position to
// a letter or a digit, the look-alike of the other kind is read as the one the format needs (an `O`
// where a digit must be is a `0`), and every such change costs the reading some confidence. Text that
// fits no format is no plate.
import { formatGroups, PLATE_FORMATS, type PlateSlot } from '../domain/plate-formats.js';
import { AS_DIGIT, AS_LETTER, DOUBTFUL_BELOW } from './look-alikes.js';

/** At most this many look-alike changes in one plate: beyond, the text is too far from any format. */
export const MAX_PLATE_CORRECTIONS = 2;

/** The longest plate of the table (India's `MH 12 ABC 1234`). */
const MAX_PLATE_LENGTH = 11;

export interface PlateMatch {
  /** The plate's groups as its format has them, joined by `-` (`AB-123-CD`). */
  plate: string;
  country: string;
  format: string;
  /** How many characters were read as their look-alike to fit the format. */
  corrections: number;
  /** The kind of the format's slot each character of the plate took (L, C, D, N or A), in order. */
  kinds: string;
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
  // A format of digits only (Abu Dhabi's) fits any number: it is tried only for its own country, which
  // the text part names when the code stands on red (./text-part.ts).
  digitsOnly: !/[LCA]/.test(entry.format),
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

const isDigit = (char: string) => char >= '0' && char <= '9';
const isLetter = (char: string) => !isDigit(char);
const isConsonant = (char: string) => isLetter(char) && !'AEIOUQ'.includes(char);
/** What each kind of slot takes (the text holds uppercase letters and digits only). */
const TAKES: Record<Slot['kind'], (char: string) => boolean> = {
  L: isLetter,
  C: isConsonant,
  D: isDigit,
  N: (char) => isDigit(char) && char !== '0',
  A: () => true,
};

/** The character a slot takes for `char`, and whether it had to change; undefined when it cannot. */
function fit(kind: Slot['kind'], char: string): { char: string; changed: boolean } | undefined {
  const takes = TAKES[kind];
  if (takes(char)) return { char, changed: false };
  // A letter's look-alike for a digit, a digit's for a letter: a vowel read for a consonant has none.
  const other = isDigit(char) ? AS_LETTER[char] : AS_DIGIT[char];
  return other !== undefined && takes(other) ? { char: other, changed: true } : undefined;
}

/**
 * The fewest-changes alignment of `text` (uppercase letters and digits) to a format's slots, optional
 * slots left out where needed, with the format's groups where OCR's separators allow them (`read`): a
 * separator read falls between groups, and a gap between groups that OCR missed falls only where
 * letters meet digits (OCR may miss a gap, but seldom reads one inside a group, and a word or a number
 * read whole is not split into groups: `RANGE 72` is no `RAN-GE-72`). Undefined when it does not fit
 * within MAX_PLATE_CORRECTIONS.
 */
function align(
  text: string,
  slots: readonly Slot[],
  read: ReadonlySet<number>,
  changeable: (index: number) => boolean,
): { chars: string[]; groups: number[]; kinds: string; changes: number } | undefined {
  const n = text.length;
  const m = slots.length;
  // best[i][j]: fewest changes to read text[0..i) with slots[0..j) whose last slot took text[i - 1]
  // (j = 0: nothing taken); from[i][j] the slot before it that took text[i - 2].
  const best = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(Infinity));
  const from = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(-1));
  best[0]![0] = 0;
  const optionalBetween = (j: number, k: number) => slots.slice(j, k).every((slot) => slot.optional);
  for (let i = 0; i < n; i++)
    for (let j = 0; j <= m; j++) {
      const here = best[i]![j]!;
      if (here === Infinity) continue;
      for (let k = j; k < m && optionalBetween(j, k); k++) {
        const fitted = fit(slots[k]!.kind, text[i]!);
        if (!fitted || (fitted.changed && !changeable(i))) continue;
        if (i > 0) {
          const boundary = slots[j - 1]!.group !== slots[k]!.group;
          const sameKind = isDigit(text[i - 1]!) === isDigit(text[i]!);
          if (boundary ? !read.has(i) && sameKind : read.has(i)) continue;
        }
        const cost = here + Number(fitted.changed);
        if (cost < best[i + 1]![k + 1]!) {
          best[i + 1]![k + 1] = cost;
          from[i + 1]![k + 1] = j;
        }
      }
    }
  let end = -1;
  for (let j = 0; j <= m; j++)
    if (optionalBetween(j, m) && best[n]![j]! < (end < 0 ? Infinity : best[n]![end]!)) end = j;
  if (end <= 0 || best[n]![end]! > MAX_PLATE_CORRECTIONS) return undefined;
  const chars: string[] = [];
  const groups: number[] = [];
  let kinds = '';
  for (let i = n, j = end; i > 0; j = from[i]![j]!, i--) {
    chars.unshift(fit(slots[j - 1]!.kind, text[i - 1]!)!.char);
    groups.unshift(slots[j - 1]!.group);
    kinds = slots[j - 1]!.kind + kinds;
  }
  return { chars, groups, kinds, changes: best[n]![end]! };
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
 * Characters many plate fonts draw alike (the British and Dutch O is a 0 but for its width): the
 * recogniser reads them surely either way, so their look-alike is tried however sure it was.
 */
const SAME_GLYPH = new Set(['0', 'O']);

/**
 * The plate `text` is, by the format it fits best, or undefined when it fits none. Best is fewest
 * look-alike changes, then groups that agree with the separators OCR read (`AB-12O-CD` is a French plate
 * with one change, not a British one without), then the table's order; a separator read inside one of
 * a format's groups rules that format out. A character is read as its look-alike only where
 * `confidences` (one per letter or digit of `text`; all doubtful when absent) says the recogniser was
 * unsure of it, or it is a 0 or an O (SAME_GLYPH). A plate shows at least one digit
 * as read, and one letter where its format has any: OCR text of words (`DOUBLE`) or of numbers alone is
 * no plate, whatever changes would make it fit.
 */
export function matchPlate(
  text: string,
  country?: string,
  confidences?: readonly number[],
): PlateMatch | undefined {
  const compact = text.toUpperCase().replace(/[^A-Z0-9]/g, '');
  const changeable = (index: number) =>
    (confidences?.[index] ?? 0) < DOUBTFUL_BELOW || SAME_GLYPH.has(compact[index]!);
  if (compact.length < 4 || compact.length > MAX_PLATE_LENGTH || !/[0-9]/.test(compact)) return undefined;
  const hasLetter = /[A-Z]/.test(compact);
  const read = separatorsOf(text);
  let found: (PlateMatch & { cost: number }) | undefined;
  for (const format of FORMATS) {
    if (country !== undefined ? format.country !== country : format.digitsOnly) continue;
    if (!format.digitsOnly && !hasLetter) continue;
    const aligned = align(compact, format.slots, read, changeable);
    if (!aligned) continue;
    const boundaries = new Set<number>();
    aligned.groups.forEach(
      (group, index) => index > 0 && group !== aligned.groups[index - 1] && boundaries.add(index),
    );
    const disagreements = read.size === 0 ? 0 : [...boundaries].filter((p) => !read.has(p)).length;
    const cost = aligned.changes + disagreements / 2;
    if (found && found.cost <= cost) continue;
    let plate = '';
    aligned.chars.forEach((char, index) => {
      if (boundaries.has(index)) plate += '-';
      plate += char;
    });
    found = {
      plate,
      country: format.country,
      format: format.format,
      corrections: aligned.changes,
      kinds: aligned.kinds,
      cost,
    };
  }
  if (!found) return undefined;
  const { cost: _cost, ...match } = found;
  return match;
}
