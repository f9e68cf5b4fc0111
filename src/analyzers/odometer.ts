// The odometer from recognised text on a photo of the dashboard: the total distance, never a trip meter.
// A figure alone on its line but for its label and unit, thousands separated or not, a drum counter's
// digits apart or together, its tenths drum left out; the unit when one is written on the line or in a
// box of its own just beside or under it. Trip meters give
// themselves away by their label (TRIP, A, B) or their tenths (`123.4`); clocks, speeds, temperatures
// and fuel figures by their marks; plates, VINs and part numbers by the letters around their digits.
import { AS_DIGIT } from './look-alikes.js';
import { leansRed, lightness, onRed } from './red.js';
import type { Ink, ReadLine } from './text-lines.js';

export interface OdometerMatch {
  value: number;
  unit: 'km' | 'mi' | null;
  confidence: number;
  box: ReadLine['box'];
}

/** Lines of something else than the total distance. */
const NOT_ODOMETER =
  /TRIP|TRP|RANGE|AVG|AVERAGE|KM\/H|MPH|L\/100|MPG|°|\d:\d\d(?!\d)|\bTEMP|FUEL|RPM|\bECO\b/;
/** What an instrument cluster shows around its figures: speed and engine units, a clock, trips, temperatures. */
const CLUSTER_MARK = /KM\/H|MPH|R\/MIN|RPM|X1000|TRIP|RANGE|MPG|L\/100|°|\d:\d\d(?!\d)/;

/** A speedometer's number: a multiple of 10 from 10 to 300, alone on its line. */
const DIAL_NUMBER = /^\s*[1-9][0-9]?0\s*$/;
/** This many such numbers make a speedometer's dial, which counts as two marks. */
const DIAL_NUMBERS = 3;

/**
 * Whether the lines are an instrument cluster's: two of its marks on different lines, or one beside an
 * odometer read, or a speedometer's dial. A plate is never read there (a trip meter `A 899.9` read
 * without its point looks like one).
 */
export function showsInstrumentCluster(lines: readonly ReadLine[], odometerRead: boolean): boolean {
  const marks = lines.filter((line) => CLUSTER_MARK.test(line.text.toUpperCase())).length;
  const dial = lines.filter((line) => DIAL_NUMBER.test(line.text) && Number(line.text) <= 300).length;
  return marks + (odometerRead ? 1 : 0) + (dial >= DIAL_NUMBERS ? 2 : 0) >= 2;
}

/** A trip meter's own label: A or B alone before the number. */
const TRIP_LABEL = /(^|\s)[AB]\s*\d/;
/**
 * The words that may stand beside the odometer's figure: its label (ODO, read 0D0, OBO, OPO or OOO at
 * times) or TOTAL, apart from the figure or run into it (`ODO12345`, but never `000` of a counter's own
 * zeros; an OOO that is a counter's zeros read as letters is worth as much, blanked out or not).
 */
const LABEL = /(?<![A-Z0-9])((?=[0-9]{0,2}[ODB])[O0][DBP0O][O0]|TOTAL)(?![A-Z])/;
/**
 * The units, and how OCR misreads them on displays (KN or KB for KM, a dot display's m read as N or B;
 * MILS, MILE, or MI1ES and M11ES with its I or L read as a 1, for MILES); never run into a figure after
 * them (`KM220`: a speedometer's number read with what is left of its KM/H).
 */
const UNITS = 'KM|KN|KB|M[I1][L1I]ES|M[I1][L1I]S|M[I1][L1I]E|MI';
const UNIT = new RegExp(`(?<![A-Z])(${UNITS})(?![A-Z0-9])`);
/** A line that is only a unit (the display's unit in a box of its own). */
const UNIT_ONLY = new RegExp(`^\\s*(${UNITS})\\s*$`);
/**
 * A drum differing this much in colour (RGB distance of the cells' grounds) from the others, which agree
 * within TENTHS_AGREEMENT, and lighter than they are, is the tenths drum (black on white): left out of
 * the value. A darker last drum is one of the counter's in less light (a counter seen from below).
 */
const TENTHS_CONTRAST = 45;
const TENTHS_AGREEMENT = 45;

/**
 * A digit is clearly dark on light, or light on dark, past this polarity (ReadLine's): a white tenths
 * drum under glare measured 0.26, its white-on-black neighbours -0.36 to -0.74; the digits of a dot
 * display, their dots run together, -0.39 to 0.05 (its last digit taken for a tenths drum at 0).
 */
const CLEAR_POLARITY = 0.15;

const MIN_DIGIT_CONFIDENCE = 0.7;
/**
 * A figure without leading zeros this much taller than the likeliest counter with them is the total
 * beside a trip counter (drum counters for the total are drawn larger than the trip's).
 */
const TOTAL_OVER_TRIP = 1.2;

const unitOf = (word: string): 'km' | 'mi' => (word.startsWith('K') ? 'km' : 'mi');
/** `pattern`'s first match blanked out, the length kept (positions still point at the same characters). */
const blank = (text: string, pattern: RegExp) => text.replace(pattern, (match) => ' '.repeat(match.length));

/** The line's text with look-alike letters inside number-like tokens read as digits. */
function asDigits(text: string): string {
  return text.replace(/[A-Z0-9]+/g, (token) => {
    const digits = (token.match(/[0-9]/g) ?? []).length;
    if (digits * 2 < token.length) return token; // a word, not a number read badly
    return [...token].map((char) => AS_DIGIT[char] ?? char).join('');
  });
}

interface Figure {
  /** The digits as shown, leading zeros included. */
  digits: string;
  /** Where each digit is in the line's text. */
  positions: number[];
}

/**
 * The number a line holds alone, or undefined: digits in one group (thousands separated or not), or a
 * drum's digits one by one; any groups of digits when `spaced` (a unit or label vouches for the line:
 * a narrow 1 on a display reads as a gap, and a gap at times as a dash). None when anything else is
 * left, or the number has tenths.
 */
function loneNumber(text: string, spaced: boolean): Figure | undefined {
  // A gap read as a dash is a gap too where a unit or label vouches for the line (`000-5778-KM`).
  if (spaced) text = text.replaceAll('-', ' ');
  if (!/^[\d\s,.'’]*\d[\d\s,.'’]*$/.test(text)) return undefined;
  const groups = text.trim().split(/\s+/);
  const plain = (group: string) => /^\d+$/.test(group) || /^\d{1,3}(?:[,.'’]\d{3})+$/.test(group);
  if (!groups.every(plain)) return undefined;
  const drum = groups.length >= 3 && groups.every((group) => group.length === 1);
  if (groups.length > 1 && !drum && !spaced && !zerosApart(groups) && !spacedThousands(groups))
    return undefined;
  const positions = [...text].flatMap((char, i) => (char >= '0' && char <= '9' ? [i] : []));
  return { digits: positions.map((i) => text.charAt(i)).join(''), positions };
}

/**
 * Zeros set apart before a number (`000 459494`): a display's unused places, or its ODO label read as
 * zeros. Whichever they are, the number's value is the same.
 */
const zerosApart = (groups: readonly string[]) => groups.length === 2 && /^0+$/.test(groups[0]!);

/**
 * Groups of digits that are one number with its thousands set apart by a space (`25 625`, `00072 795`
 * with a counter's zeros), not a speedometer's numbers read as one line (`20 140`: each a multiple of 10).
 */
const spacedThousands = (groups: readonly string[]) =>
  /^0*\d{1,3}$/.test(groups[0]!) &&
  groups.slice(1).every((group) => /^\d{3}$/.test(group)) &&
  !groups.every((group) => Number(group) % 10 === 0);

const distance = (a: Ink, b: Ink) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
/** The median colour of `inks`, channel by channel. */
const medianInk = (inks: readonly Ink[]): Ink => [
  median(inks.map((ink) => ink[0])),
  median(inks.map((ink) => ink[1])),
  median(inks.map((ink) => ink[2])),
];

/**
 * Whether the figure's last digit is a tenths drum: lighter than the others, which are alike, and than
 * the drum beside it; or red (its cell or its face), the others not; or dark on light, the others light
 * on dark (most of them clearly, none clearly otherwise: glare greys a drum's white 6 to 0.09), or only
 * faintly dark on light, the others all clearly light on dark, with a face far lighter than theirs. Light
 * falling across the counter (glare, a shadow's edge) makes the dark drums differ among themselves, but
 * none of them red, and turns none of their digits dark: under glare a white tenths drum's ground is no
 * lighter than theirs. Light growing along the counter lightens its last two drums alike (a warm cast
 * from 37° aside: both about 30 levels over the rest), where a tenths drum differs from its neighbour.
 */
function endsInTenths(figure: Figure, line: Pick<ReadLine, 'inks' | 'faces' | 'polarity'>): boolean {
  const { polarity } = line;
  const cells = atDigits(figure, line.inks);
  if (!cells || figure.digits.length < 5) return false;
  const others = cells.slice(0, -1);
  if (onRed(cells.at(-1)!) && !others.some(onRed)) return true;
  // A red drum's face, which its white digit does not cover, stays red under a cast that turns its cell
  // pink (140/76/94 in the cell, 103/17/24 on the face). Not on a red display, where every face is of a
  // red hue and the last one may catch a lit digit's dots.
  const faces = atDigits(figure, line.faces);
  if (faces && onRed(faces.at(-1)!) && !faces.slice(0, -1).some(leansRed)) return true;
  const polarities = polarity && figure.positions.map((i) => polarity[i] ?? 0);
  if (
    polarities &&
    polarities.at(-1)! >= CLEAR_POLARITY &&
    median(polarities.slice(0, -1)) <= -CLEAR_POLARITY &&
    polarities.slice(0, -1).every((p) => p < CLEAR_POLARITY)
  )
    return true;
  // A white drum under glare or a cast, its digit only faintly dark on light (0.11, 0.13), and then its
  // face, which the digit does not cover, far lighter than every other drum's (62 against 7 at most).
  if (
    polarities &&
    faces &&
    polarities.at(-1)! > 0 &&
    polarities.slice(0, -1).every((p) => p <= -CLEAR_POLARITY) &&
    farLighterFace(faces)
  )
    return true;
  const typical = medianInk(others);
  const last = cells.at(-1)!;
  return (
    distance(last, typical) > TENTHS_CONTRAST &&
    distance(last, others.at(-1)!) > TENTHS_CONTRAST &&
    lightness(last) > lightness(typical) &&
    others.every((ink) => distance(ink, typical) < TENTHS_AGREEMENT) &&
    (!faces || lighterFace(faces))
  );
}

/** The colour at each of the figure's digits, or undefined where any is not measured. */
function atDigits(figure: Figure, colours: readonly Ink[] | undefined): Ink[] | undefined {
  const found = figure.positions.map((i) => colours?.[i]);
  return found.every((ink): ink is Ink => ink !== undefined) ? found : undefined;
}

/**
 * Whether the last digit's drum face (ReadLine's `faces`, above or below the digit) is lighter than the
 * others' as well: a heavy last 8, white on black, lightens its cell's median as a white drum does
 * (`226238` read `22623`), but not its face.
 */
function lighterFace(faces: readonly Ink[]): boolean {
  const typical = medianInk(faces.slice(0, -1));
  const last = faces.at(-1)!;
  return distance(last, typical) > TENTHS_CONTRAST && lightness(last) > lightness(typical);
}

/**
 * Whether the last drum's face is FACE_RATIO times as light as every other's, and FACE_MARGIN lighter
 * (red.ts's lightness, the sum of the channels: 40 levels each): a white drum's face. A black drum's
 * face may be as light where its digit's strokes reach into it (148 against 11 under a `2`), which is
 * why the digit's polarity must turn as well.
 */
function farLighterFace(faces: readonly Ink[]): boolean {
  const last = lightness(faces.at(-1)!);
  const lightest = Math.max(...faces.slice(0, -1).map(lightness));
  return last >= FACE_RATIO * lightest && last - lightest >= FACE_MARGIN;
}
const FACE_RATIO = 3;
const FACE_MARGIN = 120;

const overlap = (a0: number, a1: number, b0: number, b1: number) => Math.min(a1, b1) - Math.max(a0, b0);

/**
 * A line's row followed along its slope (ReadLine's `slope`, in the image's fractions): `height` is its
 * characters' height, its bounds' less what the slope adds to them, and `holds` whether a box's centre
 * lies on the row, within half the taller of the two of the line's centre there. A counter seen from
 * 37° aside slopes 23°: its unit, beside its lower end, stands as low as the trip counter under it.
 */
function rowOf(line: ReadLine): { height: number; holds: (box: ReadLine['box']) => boolean } {
  const { box } = line;
  const slope = line.slope ?? 0;
  const height = Math.max(box.height - Math.abs(slope) * box.width, MIN_TEXT_SHARE * box.height);
  const centreAt = (x: number) => box.y + box.height / 2 + slope * (x - (box.x + box.width / 2));
  return {
    height,
    holds: (o) =>
      Math.abs(o.y + o.height / 2 - centreAt(o.x + o.width / 2)) < 0.5 * Math.max(height, o.height),
  };
}
/** A line's characters are at least this share of its bounds' height, however steep its slope. */
const MIN_TEXT_SHARE = 0.2;

/** A digit alone in a box of its own, which a drum of a counter may be. */
const LONE_DIGIT = /^\s*\d\s*$/;

/** A drum in a box of its own, just after a line's end on its row (drumApart). */
interface DrumApart {
  digit: string;
  box: ReadLine['box'];
  /**
   * Its tenths, which another cut of the line, wider, reads with the rest: red, or clearly dark on light
   * (LONE_TENTHS_POLARITY). Otherwise it may be the counter's last drum, boxed apart by blur, or a tenths
   * drum that glare greyed: the figure is in doubt.
   */
  tenths: boolean;
}

/**
 * A digit alone in its box is clearly dark on light, its tight box mostly a white tenths drum's face,
 * from this polarity: 0.54 and 0.89 measured. The detector boxes a lone digit tightly, so that a heavy
 * digit's strokes fill most of it (a white-on-black 0 measured 0.17, an 8 on a white drum under glare
 * -0.32): neither its colour nor a weaker polarity tells a tenths drum from the counter's last.
 */
const LONE_TENTHS_POLARITY = 0.5;

/** The drum in a box of its own that ends the line on its row; undefined when there is none. */
function drumApart(line: ReadLine, lines: readonly ReadLine[]): DrumApart | undefined {
  const row = rowOf(line);
  const end = line.box.x + line.box.width;
  const drum = lines.find((other) => {
    const o = other.box;
    return (
      other !== line &&
      LONE_DIGIT.test(other.text) &&
      row.holds(o) &&
      o.x + o.width > end &&
      o.x - end < 0.5 * row.height
    );
  });
  if (!drum) return undefined;
  const at = drum.text.search(/\d/);
  const ink = drum.inks?.[at];
  const polarity = drum.polarity?.[at] ?? 0;
  return {
    digit: drum.text.trim(),
    box: drum.box,
    tenths: (ink !== undefined && onRed(ink)) || polarity >= LONE_TENTHS_POLARITY,
  };
}

/**
 * `apart`, unless it is the figure's own last drum boxed a second time: the same digit, its box reaching
 * over the line's end to its middle, or both taken for the tenths (a red 2 read at the end of `001822`
 * and boxed alone over it).
 */
function sameDrum(
  figure: Figure,
  line: ReadLine,
  ownTenths: boolean,
  apart: DrumApart | undefined,
): DrumApart | undefined {
  if (!apart || apart.digit !== figure.digits.at(-1)) return apart;
  const inside = apart.box.x + apart.box.width / 2 <= line.box.x + line.box.width;
  return inside || (ownTenths && apart.tenths) ? undefined : apart;
}

/** A line that is only a trip meter's label: TRIP, with its A or B. */
const TRIP_ONLY = /^\s*(TRIP|TRP)\s*[AB12]?\s*$/;

/** Whether a box of its own just left of the line on its row holds a trip label: the line is a trip. */
function tripBeside(line: ReadLine, lines: readonly ReadLine[]): boolean {
  const { box } = line;
  const row = rowOf(line);
  return lines.some((other) => {
    const o = other.box;
    return (
      other !== line &&
      TRIP_ONLY.test(other.text.toUpperCase()) &&
      row.holds(o) &&
      o.x + o.width <= box.x + 0.5 * row.height &&
      box.x - (o.x + o.width) < 2 * row.height
    );
  });
}

/** Whether `o` stands just after `line`'s end on its row, as its unit would. */
function endsRow(line: ReadLine, o: ReadLine['box']): boolean {
  const { box } = line;
  const row = rowOf(line);
  return (
    row.holds(o) && o.x >= box.x + box.width - 0.5 * row.height && o.x - (box.x + box.width) < 2 * row.height
  );
}

/**
 * The unit of a box of its own right of the line on its row, or just under it, unless it ends the row
 * of another line that may hold a figure: a counter's `MILES` beside it, which a speedometer's numbers
 * read together (`200120`) stand over.
 */
function unitBeside(line: ReadLine, lines: readonly ReadLine[]): 'km' | 'mi' | null {
  const { box } = line;
  for (const other of lines) {
    const word = UNIT_ONLY.exec(other.text.toUpperCase());
    if (other === line || !word) continue;
    const o = other.box;
    const under =
      overlap(box.x, box.x + box.width, o.x, o.x + o.width) > 0 &&
      o.y >= box.y + 0.5 * box.height &&
      o.y - (box.y + box.height) < box.height &&
      !lines.some((third) => third !== line && mayHoldOdometer(third.text) && endsRow(third, o));
    if (endsRow(line, o) || under) return unitOf(word[1]!);
  }
  return null;
}

/**
 * The odometer among the lines, or undefined. A figure with a unit or a label has 2 to 7 digits; one
 * without either must look like a counter: 5 or more digits (a tenths drum included), leading zeros
 * among them (a plate's, a phone's or a price's number seldom starts with 0) unless the lines show an
 * instrument cluster (showsInstrumentCluster), and not a speedometer's scale; or, on a cluster, 4 digits
 * standing out as its tallest (tallestOnCluster). The likeliest such figure is the reading, unless it
 * was read unsurely or a taller figure without leading zeros may be the total.
 */
export function matchOdometer(lines: readonly ReadLine[]): OdometerMatch | undefined {
  const cluster = showsInstrumentCluster(lines, false);
  // On an instrument cluster a long figure is the total even without leading zeros (all drums turned,
  // or a display that shows none): a plate's or a phone's number is not there. Four digits that do not
  // stand out are no counter, but still a rival where far taller than the counter: the total whose last
  // drum the detector missed (`1033` of 10337) beside the trip counter read whole (`04871`). Only far
  // taller: a dial's `100` read with a tick (`1001`) stands a little taller than a counter.
  const figures = lines
    .flatMap((line) => figureOf(line, lines) ?? [])
    .filter((figure) => !figure.short || cluster)
    .map((figure) => {
      const standsOut = !figure.short || tallestOnCluster(figure.line, lines);
      return { ...figure, standsOut, counter: standsOut && (figure.counter || (cluster && figure.rival)) };
    });
  const counters = figures.filter((figure) => figure.counter);
  const best = counters.reduce<Candidate | undefined>((a, b) => (a && a.score >= b.score ? a : b), undefined);
  // The likeliest counter read unsurely gives no reading rather than a lesser figure (a trip counter);
  // so does a taller figure that may be the total, only without the leading zeros that tell a counter.
  if (!best || best.doubtful) return undefined;
  const taller = figures.filter(
    (figure) =>
      figure.rival &&
      figure.match.box.height > (figure.standsOut ? 1 : TOTAL_OVER_TRIP) * best.match.box.height,
  );
  if (taller.length === 0) return best.match;
  // A drum counter without leading zeros (all its drums turned) far taller than the one that has them,
  // nothing vouching for that one: the total beside the trip counter. Alone and sure, it is read.
  const total = taller.length === 1 ? taller[0]! : undefined;
  const farTaller = total && total.match.box.height >= TOTAL_OVER_TRIP * best.match.box.height;
  return farTaller && !best.vouched && !total.doubtful ? total.match : undefined;
}

interface Candidate {
  match: OdometerMatch;
  /** Likelier: a unit or a label, more digits, a taller line, then the reader's confidence. */
  score: number;
  /** Vouched for by a unit or a label, or showing leading zeros. */
  counter: boolean;
  /** Vouched for by a unit or a label. */
  vouched: boolean;
  /** A digit read under MIN_DIGIT_CONFIDENCE, or other digits read from another cut of the line. */
  doubtful: boolean;
  /** Not a counter, but maybe the total all the same (not a speedometer's numbers read together). */
  rival: boolean;
  /** Only four digits, nothing vouching for them: a rival where they stand out on a cluster only. */
  short: boolean;
  line: ReadLine;
}

/**
 * A short figure's characters are this much taller than those of every other line holding digits, but
 * a speedometer's numbers read as one: the display's main figure, its total (a clock, a trip, a range
 * are smaller). A dial's own numbers count: `100` read with a tick beside it (`1001`) is as tall as the
 * others around the dial. Several of them read as one line are left out, as their box grows with the
 * dial's curve.
 */
const SHORT_TALLER = 1.15;

/** Whether the line's characters stand out on the display as its main figure's (SHORT_TALLER). */
function tallestOnCluster(line: ReadLine, lines: readonly ReadLine[]): boolean {
  const height = rowOf(line).height;
  return lines.every((other) => {
    const digits = other.text.replace(/\D/g, '');
    if (other === line || digits.length < 2 || isScale(digits)) return true;
    return height >= SHORT_TALLER * rowOf(other).height;
  });
}

/** A speedometer's numbers read as one (`120140`, `100120140`): rising tens of 2 or 3 digits each. */
function isScale(digits: string): boolean {
  return [2, 3].some((size) => {
    if (digits.length % size !== 0 || digits.length === size) return false;
    const numbers = digits.match(new RegExp(`\\d{${size}}`, 'g'))!.map(Number);
    return numbers.every((n, i) => n % 10 === 0 && (i === 0 || n > numbers[i - 1]!));
  });
}

/** The figure a line's text holds, label and unit aside, as figureOf reads it (`vouched` as there). */
function figureIn(text: string, vouched: boolean): Figure | undefined {
  return loneNumber(asDigits(blank(blank(text.toUpperCase(), LABEL), UNIT)), vouched);
}

/** The digits of a line's text, label and unit aside, leading zeros left out. */
const numberIn = (text: string) =>
  (asDigits(blank(blank(text.toUpperCase(), LABEL), UNIT)).match(/[0-9]/g) ?? []).join('').replace(/^0+/, '');

/**
 * Whether a line's text may hold an odometer's figure (a unit or label vouching for it or not): the
 * lines the reader reads again from another cut (ReadLine.again) to confirm their digits.
 */
export function mayHoldOdometer(text: string): boolean {
  const raw = text.toUpperCase();
  if (NOT_ODOMETER.test(raw) || TRIP_LABEL.test(asDigits(raw))) return false;
  return (figureIn(raw, true)?.digits.length ?? 0) >= 3;
}

/** The line's figure when it may be the odometer: with a unit or a label, or 5 digits or more. */
function figureOf(line: ReadLine, lines: readonly ReadLine[]): Candidate | undefined {
  const raw = line.text.toUpperCase();
  if (NOT_ODOMETER.test(raw) || TRIP_LABEL.test(asDigits(raw)) || tripBeside(line, lines)) return undefined;
  const label = LABEL.test(raw);
  const unitWord = UNIT.exec(blank(raw, LABEL));
  const unit = unitWord ? unitOf(unitWord[1]!) : unitBeside(line, lines);
  const vouched = unit !== null || label;
  const figure = figureIn(raw, vouched);
  if (!figure) return undefined;
  // A drum boxed apart at the line's end: its tenths, left out as the figure's own last digit would be
  // (then that one is not), or in doubt.
  const ownTenths = endsInTenths(figure, line);
  const apart = sameDrum(figure, line, ownTenths, drumApart(line, lines));
  // Read again from another cut, the line must show the same number: a seven-segment 1 read as 8, or a
  // drum missed, changes with the cut far more often than a digit read right. Only the digits are
  // compared (a label or unit misread, a stray mark at the end, changes nothing).
  // A wider cut may also take in the drum the detector boxed apart, or the first stroke of the unit boxed
  // apart just after the line (`177892` read again as `1778921`, its M's stroke a 1): the same number then.
  const unitAfter =
    !unitWord &&
    lines.some((o) => o !== line && UNIT_ONLY.test(o.text.toUpperCase()) && endsRow(line, o.box));
  const confirmed = (line.again ?? []).every(
    (text) =>
      numberIn(text) === numberIn(raw) ||
      (apart && numberIn(text) === numberIn(raw) + apart.digit) ||
      (unitAfter && numberIn(text) === `${numberIn(raw)}1`),
  );
  const tenths = !apart && ownTenths;
  const shown = tenths ? figure.digits.slice(0, -1) : figure.digits;
  // Four digits alone, nothing vouching for them: the total only where they stand out (tallestOnCluster).
  const short = !vouched && figure.digits.length === 4 && !figure.digits.startsWith('0');
  if (vouched ? shown.length < 2 : figure.digits.length < 5 && !short) return undefined;
  const digits = shown.replace(/^0+(?=\d)/, '');
  if (digits.length > 7) return undefined;
  // A digit read this unsurely (a segment display's 8 and 0, 1 and 7) makes the figure a guess; the
  // tenths drum's does not, as it is left out.
  // Nor does a leading zero's, unless the doubt is with another digit: whether it is there or not, or
  // is an O (a label's, read into the figure), the value is the same.
  const leadingZeros = figure.digits.length - figure.digits.replace(/^0+/, '').length;
  const mayBeOtherDigit = (position: number) => {
    const rival = line.rivals?.[position]?.char ?? '';
    return /[1-9]/.test(AS_DIGIT[rival] ?? rival);
  };
  const counted = (tenths ? figure.positions.slice(0, -1) : figure.positions).filter(
    (position, i) => i >= leadingZeros || mayBeOtherDigit(position),
  );
  // A counter shows its leading zeros; a long figure without them (a plate's, a phone's) may not be one.
  const counter = vouched || shown.startsWith('0');
  return {
    match: { value: Number(digits), unit, confidence: line.confidence, box: line.box },
    score: (unit ? 2 : 0) + (label ? 2 : 0) + shown.length * 0.3 + line.box.height * 10 + line.confidence,
    counter,
    vouched,
    doubtful:
      !confirmed ||
      counted.some((i) => (line.chars?.[i] ?? line.confidence) < MIN_DIGIT_CONFIDENCE) ||
      (apart !== undefined && !apart.tenths),
    rival: !counter && !isScale(figure.digits),
    short,
    line,
  };
}

/** A reading within the tolerance of the expected value: 500, or 2 % of it when that is more. */
export function odometerMatches(read: number, expected: number): boolean {
  return Math.abs(read - expected) <= Math.max(500, expected * 0.02);
}
