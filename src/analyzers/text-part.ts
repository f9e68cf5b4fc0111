// The text part of a photo's result from its lines of text: the plate (./plates.ts), the VIN (./vin.ts)
// and the odometer (./odometer.ts) among them, each compared with what the inspection's inputMetaData
// says the vehicle's are. Pure: the same lines give the same part.
import type {
  OdometerReading,
  PlateReading,
  TextFlag,
  TextPart,
  VinReading,
} from '../domain/result/detection-parts.js';
import { matchOdometer, odometerMatches, showsInstrumentCluster } from './odometer.js';
import { onBlue, onRed } from './red.js';
import { matchPlate } from './plates.js';
import type { Rival } from './ocr/types.js';
import { centreInside, type Ink, type ReadLine } from './text-lines.js';
import { isVinCheckDigitValid, matchVin, normaliseVin, type VinMatch } from './vin.js';
import { AS_DIGIT, AS_LETTER, DOUBTFUL_BELOW } from './look-alikes.js';

/** Readings less sure than this are not reported (the recogniser's mean character confidence). */
const MIN_PLATE_CONFIDENCE = 0.6;
const MIN_VIN_CONFIDENCE = 0.6;
const MIN_ODOMETER_CONFIDENCE = 0.6;
/**
 * A plate's or VIN's character read less surely than this is a guess: the reading is dropped unless a
 * look-alike change accounts for it.
 */
const MIN_CHAR_CONFIDENCE = 0.7;
/** Each look-alike changed to fit a format or a check digit costs a reading this share of its confidence. */
const CORRECTION_COST = 0.15;

/** The form readings are compared in: uppercase letters and digits only. */
export const compact = (text: string): string => text.toUpperCase().replace(/[^A-Z0-9]/g, '');

/** A plate as written in the result when no format groups it: alphanumeric groups joined by `-`. */
export const normalisePlate = (text: string): string =>
  (text.toUpperCase().match(/[A-Z0-9]+/g) ?? []).join('-');

interface Candidate {
  text: string;
  confidence: number;
  box: ReadLine['box'];
  /** One confidence per character of `text`. */
  chars: readonly number[];
  /** One rival per character of `text` (ReadLine's `rivals`). */
  rivals: readonly (Rival | undefined)[];
  /** One cell colour per character of `text` (ReadLine's `inks`), where measured. */
  inks: readonly (Ink | undefined)[];
}

const charsOf = (line: ReadLine): readonly number[] =>
  line.chars ?? Array<number>(line.text.length).fill(line.confidence);
const rivalsOf = (line: ReadLine): readonly (Rival | undefined)[] =>
  line.rivals ?? Array<undefined>(line.text.length).fill(undefined);
const inksOf = (line: ReadLine): readonly (Ink | undefined)[] =>
  line.inks ?? Array<undefined>(line.text.length).fill(undefined);
/** The confidences of the letters and digits of a candidate, in order (as normaliseVin keeps them). */
const alphanumericChars = (candidate: Candidate): number[] =>
  candidate.chars.filter((_, i) => /[A-Za-z0-9]/.test(candidate.text.charAt(i)));
/** The rivals of the letters and digits of a candidate, in order (as alphanumericChars). */
const alphanumericRivals = (candidate: Candidate): (Rival | undefined)[] =>
  candidate.rivals.filter((_, i) => /[A-Za-z0-9]/.test(candidate.text.charAt(i)));

/** The box around several lines' boxes. */
function around(boxes: readonly ReadLine['box'][]): ReadLine['box'] {
  const x = Math.min(...boxes.map((b) => b.x));
  const y = Math.min(...boxes.map((b) => b.y));
  const right = Math.max(...boxes.map((b) => b.x + b.width));
  const bottom = Math.max(...boxes.map((b) => b.y + b.height));
  return { x, y, width: right - x, height: bottom - y };
}

/**
 * The lines, and runs of up to `count` lines side by side on one row (a plate or a VIN the detector
 * found in pieces: a seal or a wide gap between groups), each as one candidate text.
 */
function rows(lines: readonly ReadLine[], count: number): Candidate[] {
  const sorted = [...lines].sort((a, b) => a.box.x - b.box.x);
  const out: Candidate[] = [];
  sorted.forEach((first, start) => {
    const run = [first];
    out.push({
      text: first.text,
      confidence: first.confidence,
      box: first.box,
      chars: charsOf(first),
      rivals: rivalsOf(first),
      inks: inksOf(first),
    });
    for (const next of sorted.slice(start + 1)) {
      if (run.length >= count) break;
      const last = run.at(-1)!;
      const overlap =
        Math.min(last.box.y + last.box.height, next.box.y + next.box.height) -
        Math.max(last.box.y, next.box.y);
      const gap = next.box.x - (last.box.x + last.box.width);
      if (
        overlap < 0.5 * Math.min(last.box.height, next.box.height) ||
        gap < -0.5 * last.box.height ||
        gap > 1.5 * last.box.height
      )
        continue;
      run.push(next);
      out.push({
        text: run.map((line) => line.text).join(' '),
        confidence: Math.min(...run.map((line) => line.confidence)),
        box: around(run.map((line) => line.box)),
        chars: run.flatMap((line, i) => (i === 0 ? charsOf(line) : [1, ...charsOf(line)])),
        rivals: run.flatMap((line, i) => (i === 0 ? rivalsOf(line) : [undefined, ...rivalsOf(line)])),
        inks: run.flatMap((line, i) => (i === 0 ? inksOf(line) : [undefined, ...inksOf(line)])),
      });
    }
  });
  return out;
}

/**
 * Words printed near plates, VINs and odometers (labels, units, months of a date) that are never part
 * of a plate, though with a number beside them they may fit a format (`VIN 5` as `V-IN-5`).
 */
const LABEL_WORDS = new Set([
  ...['VIN', 'ODO', 'TRIP', 'RANGE', 'TOTAL', 'AVG', 'DATE', 'MADE', 'MFD', 'MODEL', 'TYPE', 'ENGINE'],
  ...['FRONT', 'FRT', 'REAR', 'RR', 'SPARE', 'TIRE', 'TYRE', 'SIZE', 'COLD', 'LOAD', 'SEATS', 'PAINT'],
  ...['GVWR', 'GAWR', 'KPA', 'PSI', 'BAR', 'KG', 'LB', 'LBS', 'KM', 'MI', 'MILES', 'MPH', 'KMH', 'RPM'],
  ...['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC', 'TEL'],
]);
/** A plate's own extras at either end of its line: the EU band's country letters, IND, USA. */
const BAND = /^[A-Z]{1,3}$/;

interface Window {
  text: string;
  /** One confidence per letter or digit of `text`. */
  chars: number[];
  /** One rival per letter or digit of `text`. */
  rivals: (Rival | undefined)[];
  /** One cell colour per letter or digit of `text`, where measured. */
  inks: (Ink | undefined)[];
  /**
   * Characters or band codes left out before it, each a guess (an EU band's country letter read as
   * part of the plate, doubtfully, or a group that may be a band code).
   */
  trimmed: number;
  /** The first character was left out as standing on the EU band's blue: no guess. */
  band?: boolean;
  /**
   * The first character was left out as read too unsurely to be one (NOISE_BELOW): the window's
   * confidence is its own characters', not the line's, which that character pulled down.
   */
  noise?: boolean;
}

/**
 * A first character read under this is no character of the plate's, though a format would take it: the
 * edge of something printed beside the plate (a Dubai plate's emirate name, read `O` at 0.24 before
 * its code `X`). A doubtful letter of the plate's own reads higher (the `I` of an Emirati `ID 7457` at
 * 0.67).
 */
const NOISE_BELOW = 0.4;

/**
 * `window` without its first character when it stands on blue, or the recogniser doubted it: an EU
 * band's country letter read as part of the plate (`B` as `9` before `5-GHB-778`), or a mark beside
 * the plate read as a character.
 */
function withoutBandLetter(window: Window): Window[] {
  const { text, chars, rivals, inks, trimmed } = window;
  if (!/^[A-Z0-9][A-Z0-9]/.test(text)) return [];
  // On the band's blue it is the band's letter, whatever a format makes of it. Otherwise a first
  // character a format takes as the plate's own is the plate's, doubtful or not: left out, it would
  // turn a doubt into a shorter plate of the same format (`ID 7457` read as `D 7457`); unless it was
  // read too unsurely to be a character at all (NOISE_BELOW).
  const onBand = inks[0] !== undefined && onBlue(inks[0]);
  const first = chars[0] ?? 1;
  const noise = first < NOISE_BELOW;
  if (!onBand && !noise && (first >= DOUBTFUL_BELOW || matchPlate(text))) return [];
  const rest = { chars: chars.slice(1), rivals: rivals.slice(1), inks: inks.slice(1) };
  const kind = onBand ? { trimmed, band: true } : { trimmed: trimmed + 1, ...(noise && { noise: true }) };
  return [{ text: text.slice(1), ...rest, ...kind }];
}

/** A digit before a slash and a digit or the line's end: a tyre's size (`235/65R17`, `EAR235/`), a date. */
const RATIO = /\d\/(\d|\s*$)/;

/**
 * The text a plate may be of a candidate: all its groups, or all but a band code before them (a plate
 * fills its line), each also without a doubtful first character. None when a group is a label word, or
 * a measure (`123.4`, `1106KG`, a RATIO).
 */
function plateWindows(candidate: Candidate): Window[] {
  if (RATIO.test(candidate.text)) return [];
  const groups = [...candidate.text.toUpperCase().matchAll(/[A-Z0-9]+(?:[.,][0-9]+)*/g)].map((m) => ({
    text: m[0],
    chars: candidate.chars.slice(m.index, m.index + m[0].length),
    rivals: candidate.rivals.slice(m.index, m.index + m[0].length),
    inks: candidate.inks.slice(m.index, m.index + m[0].length),
  }));
  const measure = (text: string) => /[.,]/.test(text) || /^\d+(KG|KPA|PSI|LBS?|KM|MI)$/.test(text);
  if (groups.length === 0 || groups.some((g) => LABEL_WORDS.has(g.text) || measure(g.text))) return [];
  const starts = groups.length > 1 && BAND.test(groups[0]!.text) ? [0, 1] : [0];
  return starts.flatMap((start) => {
    const taken = groups.slice(start);
    // A band code left out counts as a change, as a plate's own first group may look like one.
    const window = {
      text: taken.map((g) => g.text).join(' '),
      chars: taken.flatMap((g) => g.chars),
      rivals: taken.flatMap((g) => g.rivals),
      inks: taken.flatMap((g) => g.inks),
      trimmed: start,
    };
    return [window, ...withoutBandLetter(window)];
  });
}

interface Scored {
  text: string;
  confidence: number;
  box: ReadLine['box'];
  score: number;
  country?: string;
  checkDigitValid?: boolean;
}

/**
 * A doubt is between a character and its rival when the two hold this much of the recogniser's
 * probability at its step together.
 */
const DOUBT_BETWEEN_TWO = 0.9;

/**
 * Whether the plate's format settles the recogniser's doubt about a character read `read` at
 * `confidence`: the doubt was between it and its `rival` alone, it was kept as read in a slot of one
 * kind (`kind`: L letters, C consonants, D or N digits), and the rival is its look-alike of the other kind
 * (an O where a digit must be, a 0 where a letter must).
 */
function settledByFormat(
  read: string,
  confidence: number,
  rival: Rival | undefined,
  fitted: string,
  kind: string,
): boolean {
  if (!rival || confidence + rival.confidence < DOUBT_BETWEEN_TWO) return false;
  if (fitted !== read || !'LCDN'.includes(kind)) return false;
  return AS_DIGIT[read] === rival.char || AS_LETTER[read] === rival.char;
}

/**
 * Whether the candidate begins with a code of one or two digits on red, then a number: an Abu Dhabi
 * plate, whose code box is red. Only then is the AE format of digits alone tried: elsewhere two
 * numbers side by side are any numbers (docs/adr/0015-pp-ocr-for-plates-vins-and-odometers.md).
 */
function abuDhabiCode(candidate: Candidate): boolean {
  const code = /^(\d{1,2})\s+\d+\s*$/.exec(candidate.text);
  if (!code) return false;
  const inks = candidate.inks.slice(0, code[1]!.length);
  return inks.every((ink) => ink !== undefined && onRed(ink));
}

function plateCandidates(candidates: readonly Candidate[]): Scored[] {
  const found: Scored[] = [];
  for (const candidate of candidates)
    for (const window of plateWindows(candidate)) {
      const country = window.trimmed === 0 && !window.band && abuDhabiCode(candidate) ? 'AE' : undefined;
      const match = matchPlate(window.text, country, window.chars);
      if (!match) continue;
      const changes = match.corrections + window.trimmed;
      // A character read this unsurely is a guess unless a change put it right, or the format settles
      // the doubt: the recogniser hesitated between it and its look-alike of the kind its slot refuses.
      const plate = compact(match.plate);
      const read = compact(window.text);
      const guesses = window.chars.filter(
        (c, i) =>
          c < MIN_CHAR_CONFIDENCE &&
          !settledByFormat(read[i]!, c, window.rivals[i], plate[i]!, match.kinds[i]!),
      ).length;
      if (guesses > match.corrections) continue;
      const surely = window.noise
        ? window.chars.reduce((sum, c) => sum + c, 0) / window.chars.length
        : candidate.confidence;
      const confidence = surely * (1 - CORRECTION_COST * changes);
      if (confidence < MIN_PLATE_CONFIDENCE) continue;
      // Longer plates first: a window of a plate may itself fit a shorter format.
      const score = confidence + compact(match.plate).length * 0.02;
      found.push({ text: match.plate, confidence, box: candidate.box, score, country: match.country });
    }
  return found.sort((a, b) => b.score - a.score);
}

/**
 * The plates of the lines as read; when there is none, those of the lines read again widened, where they
 * were (a plate seen at an angle, its characters narrowed: ReadLine's `widened`).
 */
function platesRead(lines: readonly ReadLine[], candidates: readonly Candidate[]): Scored[] {
  const found = plateCandidates(candidates);
  if (found.length > 0 || !lines.some((line) => line.widened)) return found;
  return plateCandidates(
    rows(
      lines.map((line) => ({ ...line, ...line.widened })),
      3,
    ),
  );
}

/** A candidate's groups of letters and digits, each with where it starts and ends among them all. */
function groupsOf(candidate: Candidate): { text: string; start: number; end: number }[] {
  let count = 0;
  return (candidate.text.toUpperCase().match(/[A-Z0-9]+/g) ?? []).map((text) => {
    const group = { text, start: count, end: count + text.length };
    count = group.end;
    return group;
  });
}

/**
 * Where a VIN may start or end in a candidate's letters and digits: at the ends of its groups (a VIN
 * is printed whole, or in groups), and right after a `VIN` label run into it. Never inside a longer
 * run of characters: 17 characters cut out of a line of words can pass a check digit by chance.
 */
function vinEdges(groups: ReturnType<typeof groupsOf>): Set<number> {
  const edges = new Set<number>();
  for (const { text, start, end } of groups) {
    edges.add(start);
    if (text.startsWith('VIN') && text.length > 3) edges.add(start + 3);
    edges.add(end);
  }
  return edges;
}

/** OCR reads a VIN's 0 and 1 as O, Q and I now and then; more of them mean words, not a VIN. */
const MAX_IOQ = 2;

/**
 * Whether the check digit tells a VIN read as it is, its check digit valid, from the same with its
 * `position`th character read as `rival` (the recogniser's next likeliest): the rival is a letter or
 * digit that fails it, or is the same character to a VIN (O for 0). A character read unsurely between
 * two such is no doubt: a 0 at 0.61 beside an O is a VIN's 0. Without a rival the recogniser's doubt
 * was with the blank, whether a character stands there, not which: the 17 that pass settle it (a
 * third 2 of `Z222` at 0.67).
 */
function checkDigitTells(match: VinMatch, position: number, rival: Rival | undefined): boolean {
  if (!match.checkDigitValid || match.corrections > 0) return false;
  if (!rival) return true;
  if (!/^[A-Za-z0-9]$/.test(rival.char)) return false;
  const other = match.vin.slice(0, position) + normaliseVin(rival.char) + match.vin.slice(position + 1);
  return other === match.vin || !isVinCheckDigitValid(other);
}

function vinCandidates(candidates: readonly Candidate[]): Scored[] {
  const found: Scored[] = [];
  for (const candidate of candidates) {
    const read = candidate.text.toUpperCase().replace(/[^A-Z0-9]/g, '');
    const chars = normaliseVin(candidate.text);
    const confidences = alphanumericChars(candidate);
    const rivals = alphanumericRivals(candidate);
    const groups = groupsOf(candidate);
    const edges = vinEdges(groups);
    // A window holding a label's word (`GAWR`, `FRT`, `KG`) is no VIN, though its 17 characters may
    // pass a check digit (`GAWR FRT: 1100 KG (2425` does).
    const labels = groups.filter((group) => LABEL_WORDS.has(group.text));
    for (let start = 0; start + 17 <= chars.length; start++) {
      if (!edges.has(start) || !edges.has(start + 17)) continue;
      if (labels.some((label) => label.start >= start && label.end <= start + 17)) continue;
      if ((read.slice(start, start + 17).match(/[IOQ]/g) ?? []).length > MAX_IOQ) continue;
      const match = matchVin(chars.slice(start, start + 17), confidences.slice(start, start + 17));
      if (!match) continue;
      const unsure = confidences
        .slice(start, start + 17)
        .filter((c, k) => c < MIN_CHAR_CONFIDENCE && !checkDigitTells(match, k, rivals[start + k])).length;
      if (unsure > match.corrections) continue;
      const confidence = candidate.confidence * (1 - CORRECTION_COST * match.corrections);
      if (confidence < MIN_VIN_CONFIDENCE) continue;
      found.push({
        text: match.vin,
        confidence,
        box: candidate.box,
        score: confidence + (match.checkDigitValid ? 0.1 : 0),
        checkDigitValid: match.checkDigitValid,
      });
    }
  }
  return found.sort((a, b) => b.score - a.score);
}

/** The expected value from inputMetaData (a string or number), normalised; null when absent or empty. */
function expectedText(value: unknown, normalise: (text: string) => string): string | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const normalised = normalise(String(value));
  return normalised === '' ? null : normalised;
}

/** Equal ignoring case and separators; null unless both sides exist. */
export function sameReading(read: string | null, expected: string | null): boolean | null {
  if (read === null || expected === null) return null;
  return compact(read) === compact(expected);
}

/**
 * The reading reported: the candidate equal to the expected value when there is one (the photo shows
 * the expected text, whatever else it shows), else the best one.
 */
function pick(candidates: Scored[], expected: string | null): Scored | undefined {
  return candidates.find((c) => sameReading(c.text, expected) === true) ?? candidates[0];
}

const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;
const roundedBox = (box: ReadLine['box']) => ({
  x: round(box.x, 4),
  y: round(box.y, 4),
  width: round(box.width, 4),
  height: round(box.height, 4),
});

function reading(chosen: Scored | undefined, expected: string | null) {
  return {
    read: chosen?.text ?? null,
    expected,
    match: sameReading(chosen?.text ?? null, expected),
    confidence: chosen ? round(chosen.confidence, 2) : null,
  };
}

function odometerReading(lines: readonly ReadLine[], expectedValue: unknown): OdometerReading {
  const found = matchOdometer(lines);
  const chosen = found && found.confidence >= MIN_ODOMETER_CONFIDENCE ? found : undefined;
  const expected =
    typeof expectedValue === 'number' && Number.isInteger(expectedValue) && expectedValue >= 0
      ? expectedValue
      : typeof expectedValue === 'string' && /^\s*\d[\d\s,.']*\s*$/.test(expectedValue)
        ? Number(expectedValue.replace(/[^0-9]/g, ''))
        : null;
  return {
    read: chosen?.value ?? null,
    unit: chosen?.unit ?? null,
    expected,
    match: chosen && expected !== null ? odometerMatches(chosen.value, expected) : null,
    confidence: chosen ? round(chosen.confidence, 2) : null,
    ...(chosen && { box: roundedBox(chosen.box) }),
  };
}

/**
 * The part from a photo's lines and inputMetaData (`licensePlate`, `vin`, `odometer`). A mismatch is
 * flagged only when both a reading and an expected value exist: most photos do not show the plate, the
 * VIN or the odometer, and absence is no evidence against the expected value.
 */
export function textPartFrom(lines: readonly ReadLine[], inputMetaData: Record<string, unknown>): TextPart {
  const expectedPlate = expectedText(inputMetaData.licensePlate, normalisePlate);
  const expectedVin = expectedText(inputMetaData.vin, normaliseVin);
  // The lines of a closer look count for the VIN only (ReadLine's vinOnly).
  const seen = lines.filter((line) => !line.vinOnly);
  const candidates = rows(seen, 3);
  const found = odometerReading(seen, inputMetaData.odometer);
  const cluster = showsInstrumentCluster(seen, found.read !== null);
  const platePick = cluster ? undefined : pick(platesRead(seen, candidates), expectedPlate);
  // A plate and an odometer are never read in one place: a plate's digits (`DJ47204`, its letters read
  // as digits) are no counter.
  const odometer = platePick
    ? odometerReading(
        seen.filter((line) => !centreInside(line.box, platePick.box)),
        inputMetaData.odometer,
      )
    : found;
  const plate: PlateReading = {
    ...reading(platePick, expectedPlate),
    ...(platePick && { country: platePick.country ?? null, box: roundedBox(platePick.box) }),
  };
  // Nor is a VIN read on an instrument cluster: its lines on a row, joined, pass a check digit now and
  // then (`120 140 160`, `ODO`, `304 KM` read as 12D1401600D0304KM with one look-alike changed).
  const vinPick = cluster
    ? undefined
    : pick(vinCandidates(seen.length < lines.length ? rows(lines, 3) : candidates), expectedVin);
  const vin: VinReading = {
    ...reading(vinPick, expectedVin),
    check_digit_valid: vinPick ? (vinPick.checkDigitValid ?? null) : null,
    ...(vinPick && { box: roundedBox(vinPick.box) }),
  };
  const flags: TextFlag[] = [];
  if (plate.match === false) flags.push('plate_mismatch');
  if (vin.match === false) flags.push('vin_mismatch');
  if (odometer.match === false) flags.push('odometer_mismatch');
  return { plate, vin, odometer, flags };
}
