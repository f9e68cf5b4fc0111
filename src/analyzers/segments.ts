// Seven-segment digits read segment by segment, to check what the recogniser read on a display.
//
// LCDs show their unlit segments faintly, and the recogniser, trained on print, reads those too: a 1 as
// an 8, a 7 as a 3 (docs/adr/0015-pp-ocr-for-plates-vins-and-odometers.md). Here each digit's cell is
// found in the line's crop, its seven segments' brightness measured, and the line's segments split into
// lit and unlit by the largest gap between their levels. A crop that does not look like a row of
// seven-segment cells (cells of one width, a clear gap between lit and unlit, dark holes inside each
// cell) gives no verdict.
import type { RecognisedLine, RgbImage } from './ocr/types.js';

/** The segments: a top, b upper right, c lower right, d bottom, e lower left, f upper left, g middle. */
type Segment = 'a' | 'b' | 'c' | 'd' | 'e' | 'f' | 'g';

/**
 * The digit each set of lit segments shows, with the variants displays draw (6 and 9 with or without
 * their tail, 7 with or without f).
 */
const DIGIT_OF: Readonly<Record<string, string>> = {
  abcdef: '0',
  bc: '1',
  abdeg: '2',
  abcdg: '3',
  bcfg: '4',
  acdfg: '5',
  acdefg: '6',
  cdefg: '6',
  abc: '7',
  abcf: '7',
  abcdefg: '8',
  abcdfg: '9',
  abcfg: '9',
};

/** Every segment a digit may light, over its variants. */
const MOST_LIT: Readonly<Record<string, string>> = {
  '0': 'abcdef',
  '1': 'bc',
  '2': 'abdeg',
  '3': 'abcdg',
  '4': 'bcfg',
  '5': 'acdfg',
  '6': 'acdefg',
  '7': 'abcf',
  '8': 'abcdefg',
  '9': 'abcdfg',
};

/**
 * Where each segment is sampled in its cell, as fractions of the cell's width (u) and height (v), away
 * from the corners where two segments meet.
 */
type Place = readonly [u0: number, u1: number, v0: number, v1: number];
const SAMPLED: Readonly<Record<Segment, Place>> = {
  a: [0.3, 0.7, 0, 0.16],
  b: [0.72, 1, 0.18, 0.4],
  c: [0.72, 1, 0.6, 0.82],
  d: [0.3, 0.7, 0.84, 1],
  e: [0, 0.28, 0.6, 0.82],
  f: [0, 0.28, 0.18, 0.4],
  g: [0.3, 0.7, 0.42, 0.58],
};
const SEGMENTS = Object.keys(SAMPLED) as Segment[];
/** The two holes of a cell (inside the upper and the lower loop of an 8): ground on any display. */
const HOLES = [
  [0.35, 0.65, 0.2, 0.38],
  [0.35, 0.65, 0.62, 0.8],
] as const;

/** Below this contrast (grey levels between ground and lit segments) nothing is judged. */
const MIN_CONTRAST = 40;
/** Digits lower than this (crop pixels of 48) are too small to judge segment by segment. */
const MIN_DIGIT_HEIGHT = 12;
/** Pixels this much of the lit level above the ground are ink: unlit segments' faint ink included. */
const INK_SHARE = 0.1;
/** A column of a cell has ink on this share of the digits' height at least; gaps between cells have less. */
const CELL_COLUMN = 0.12;
/** Pixels this much of the lit level above the ground are lit segments' for sure, not unlit ones'. */
const LIT_SHARE = 0.5;
/** Cells are this wide for their height (a seven-segment digit is about half as wide as high). */
const CELL_WIDTH: readonly [number, number] = [0.3, 0.8];
/** Pieces of ink this close (a share of the digits' height) are one cell's, a faint segment between them. */
const CELL_GAP = 0.12;
/** No cell wider than this ratio of the wide ones: one that is shows something else. */
const CELL_AGREEMENT = 1.3;
/** The cells' right sides this evenly spaced (a share of their step): no digit skipped or added. */
const STEP_AGREEMENT = 0.25;
/** The brightest unlit segment is at most this share of the dimmest lit one. */
const UNLIT_UNDER = 0.6;
/** The slants tried (horizontal shift per row, as a share of a row): displays lean right, up to ~15°. */
const SHEARS = Array.from({ length: 21 }, (_, i) => -0.1 + i * 0.02);

const quantile = (sorted: Float32Array | number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.floor(q * (sorted.length - 1))))]!;

/** A seven-segment cell as measured: the segments lit, and the digit they show (undefined: none). */
export interface SegmentCell {
  lit: string;
  digit: string | undefined;
}

/**
 * The cells around `centres` (fractions of the crop's width, left to right: where the recogniser read
 * the figure's digits, consecutive), or undefined for a crop with no clear seven-segment cells there.
 */
export function readSegments(crop: RgbImage, centres: readonly number[]): SegmentCell[] | undefined {
  if (centres.length < 2) return undefined;
  const xs = centres.map((c) => c * crop.width);
  const pitch = (xs.at(-1)! - xs[0]!) / (xs.length - 1);
  if (!(pitch > 2)) return undefined;
  const from = Math.max(0, Math.floor(xs[0]! - 0.75 * pitch));
  const to = Math.min(crop.width, Math.ceil(xs.at(-1)! + 0.75 * pitch));
  const map = inkMap(crop, from, to);
  const rows = map && digitRows(map);
  if (!map || !rows) return undefined;
  const view = { map, rows, shear: slantOf(map, rows) };
  const boxes = cellsAt(
    view,
    xs.map((x) => x - from),
    pitch,
  );
  if (!boxes) return undefined;
  const holes = boxes.map((box) => HOLES.map((place) => levelIn(view, box, place)));
  const levels = boxes.map((box) => SEGMENTS.map((segment) => levelIn(view, box, SAMPLED[segment])));
  return litSegments(levels, holes.flat());
}

/** The figure's part of the crop in grey: how far each pixel is from the ground, towards the figure's side. */
interface InkMap {
  ink: Float32Array;
  width: number;
  height: number;
  /** The lit segments' level (the 98th percentile of ink). */
  lit: number;
  /** Ink from this level up: the unlit segments' faint ink too, not the ground's noise. */
  floor: number;
}

/** The digits' rows, top and bottom included. */
interface Rows {
  top: number;
  bottom: number;
}

/** The map seen upright: `shear` is the horizontal shift per row up from the digits' middle. */
interface Upright {
  map: InkMap;
  rows: Rows;
  shear: number;
}

type Box = readonly [left: number, right: number];

/** The ink map of the crop's columns [from, to), or undefined when its contrast is too low to judge. */
function inkMap(crop: RgbImage, from: number, to: number): InkMap | undefined {
  const { height, data } = crop;
  const width = to - from;
  const grey = new Float32Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = from; x < to; x++) {
      const i = (y * crop.width + x) * 3;
      grey[y * width + x - from] = 0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!;
    }
  const sorted = grey.slice().sort();
  const ground = quantile(sorted, 0.5);
  const bright = quantile(sorted, 0.98) - ground >= ground - quantile(sorted, 0.02);
  const ink = grey.map((g) => Math.max(0, bright ? g - ground : ground - g));
  const lit = quantile(ink.slice().sort(), 0.98);
  if (lit < MIN_CONTRAST) return undefined;
  // The ground's own noise (its spread away from the figure's side) is no ink.
  const noise = bright ? ground - quantile(sorted, 0.1) : quantile(sorted, 0.9) - ground;
  return { ink, width, height, lit, floor: Math.max(INK_SHARE * lit, 2 * noise) };
}

const inkAt = ({ ink, width }: InkMap, x: number, y: number) =>
  x >= 0 && x < width ? ink[y * width + x]! : 0;

/** The digits' rows: the longest run of rows with ink on a tenth of the busiest row's columns. */
function digitRows(map: InkMap): Rows | undefined {
  const rowInk = Array.from({ length: map.height }, (_, y) => {
    let count = 0;
    for (let x = 0; x < map.width; x++) if (inkAt(map, x, y) >= map.floor) count++;
    return count;
  });
  const [top, bottom] = longestRun(rowInk, 0.1 * Math.max(...rowInk));
  return bottom - top + 1 >= MIN_DIGIT_HEIGHT ? { top, bottom } : undefined;
}

/** How many of the digits' rows have ink of `level` or more in each column, seen with `shear`. */
function columnProfile({ map, rows, shear }: Upright, level: number): number[] {
  const middle = (rows.top + rows.bottom) / 2;
  return Array.from({ length: map.width }, (_, x) => {
    let count = 0;
    for (let y = rows.top; y <= rows.bottom; y++)
      if (inkAt(map, Math.round(x + shear * (middle - y)), y) >= level) count++;
    return count;
  });
}

/**
 * The slant that makes the cells' sides most upright: the sharpest column profile (largest sum of
 * squares) of the lit segments alone, as the faint ones and the ground's noise blur the columns.
 */
function slantOf(map: InkMap, rows: Rows): number {
  let [best, sharpest] = [0, -1];
  for (const shear of SHEARS) {
    const sharpness = columnProfile({ map, rows, shear }, LIT_SHARE * map.lit).reduce(
      (sum, v) => sum + v * v,
      0,
    );
    if (sharpness > sharpest) [best, sharpest] = [shear, sharpness];
  }
  return best;
}

/**
 * The cells of the digits at `xs` (the map's columns): runs of columns with ink (pieces of one a few
 * columns apart joined), one for each digit, none skipped, evenly spaced, of one width; or undefined.
 */
function cellsAt(view: Upright, xs: readonly number[], pitch: number): Box[] | undefined {
  const digitHeight = view.rows.bottom - view.rows.top + 1;
  const cells = joined(
    runs(columnProfile(view, view.map.floor), CELL_COLUMN * digitHeight),
    CELL_GAP * digitHeight,
    CELL_WIDTH[1] * digitHeight,
  ).filter(([a, b]) => b - a + 1 >= 0.15 * digitHeight);
  const chosen = xs.map((x) => {
    const distance = ([a, b]: Box) => (x < a ? a - x : x > b ? x - b : 0);
    const best = cells.reduce((i, cell, k) => (distance(cell) < distance(cells[i]!) ? k : i), 0);
    return cells.length > 0 && distance(cells[best]!) <= 0.4 * pitch ? best : -1;
  });
  if (chosen.some((k, i) => k < 0 || (i > 0 && k !== chosen[i - 1]! + 1))) return undefined;
  // Every digit lights its cell's right side (b or c), but 1, 3 and 7 not its left one when the display
  // hides its unlit segments: each cell is as wide as the wide ones, from its right side.
  const rights = chosen.map((k) => cells[k]![1]);
  const widths = chosen.map((k) => cells[k]![1] - cells[k]![0] + 1).sort((a, b) => a - b);
  const cellWidth = quantile(widths, 0.75);
  if (cellWidth < CELL_WIDTH[0] * digitHeight) return undefined;
  // A cell wider than the others shows something else, unless what is left of its digit is unlit
  // segments only: the faint unlit digit before the figure, joined to its first cell.
  const wide = chosen.map((k) => cells[k]!).filter(([a, b]) => b - a + 1 > cellWidth * CELL_AGREEMENT);
  if (wide.length > 0) {
    const lit = columnProfile(view, LIT_SHARE * view.map.lit);
    const litLeftOf = ([left, right]: Box) =>
      lit.slice(left, right - cellWidth + 1).some((rows) => rows >= CELL_COLUMN * digitHeight);
    if (wide.some(litLeftOf)) return undefined;
  }
  const steps = rights.slice(1).map((right, i) => right - rights[i]!);
  const step = quantile(
    [...steps].sort((a, b) => a - b),
    0.5,
  );
  if (steps.some((s) => Math.abs(s - step) > STEP_AGREEMENT * step)) return undefined;
  return rights.map((right): Box => [right - cellWidth + 1, right]);
}

/**
 * The ink level of a place in a cell (fractions of its width and height): the mean of the brighter half
 * of its pixels, as a segment fills part of the place sampled.
 */
function levelIn({ map, rows, shear }: Upright, [left, right]: Box, place: Place): number {
  const [u0, u1, v0, v1] = place;
  const [cellWidth, digitHeight] = [right - left + 1, rows.bottom - rows.top + 1];
  const middle = (rows.top + rows.bottom) / 2;
  const values: number[] = [];
  for (let y = Math.round(rows.top + v0 * digitHeight); y < Math.round(rows.top + v1 * digitHeight); y++)
    for (let u = Math.round(u0 * cellWidth); u < Math.round(u1 * cellWidth); u++)
      if (y < map.height) values.push(inkAt(map, Math.round(left + u + shear * (middle - y)), y));
  values.sort((p, q) => q - p);
  const half = values.slice(0, Math.max(1, Math.ceil(values.length / 2)));
  return half.reduce((sum, v) => sum + v, 0) / half.length;
}

/**
 * Each cell's segments lit and unlit, split at the largest gap between the line's levels, if clear and
 * every hole falls with the unlit (a drum's face or a font's stroke fills them).
 */
function litSegments(levels: readonly number[][], holes: readonly number[]): SegmentCell[] | undefined {
  const all = levels.flat().sort((a, b) => a - b);
  let split = 0;
  for (let i = 1, gap = 0; i < all.length; i++)
    if (all[i]! - all[i - 1]! > gap) [split, gap] = [i, all[i]! - all[i - 1]!];
  const unlitUnder = UNLIT_UNDER * all[split]!;
  if (split === 0 || all[split - 1]! > unlitUnder || holes.some((hole) => hole > unlitUnder))
    return undefined;
  return levels.map((cell) => {
    const lit = SEGMENTS.filter((_, k) => cell[k]! >= all[split]!).join('');
    return { lit, digit: DIGIT_OF[lit] };
  });
}

/** A digit the segments show, clearly split into lit and unlit, is at least this sure. */
const CONFIRMED = 0.9;

export interface SegmentCheck {
  line: RecognisedLine;
  /** The segments showed every digit of the line (its figure is all its digits), as read or corrected. */
  shown: boolean;
}

/**
 * The line with its figure (the longest run of digits) checked segment by segment, when its crop shows
 * seven-segment cells there. A digit read with more segments than the display lights (its faint unlit
 * ones) becomes the digit the lit ones show, and one they show as read is sure; cells lighting nothing
 * before the figure's first lit one are left out. A line whose cells show no digit somewhere else, or
 * one that is not read as shown or with more segments, is left as read.
 */
export function checkSegments(crop: RgbImage, line: RecognisedLine): SegmentCheck {
  const asRead = { line, shown: false };
  const figure = [...line.text.matchAll(/[0-9]+/g)].reduce<RegExpMatchArray | undefined>(
    (a, b) => (a && a[0].length >= b[0].length ? a : b),
    undefined,
  );
  if (!figure || figure[0].length < 2) return asRead;
  const start = figure.index!;
  const digits = line.chars.slice(start, start + figure[0].length);
  const cells = readSegments(
    crop,
    digits.map((c) => c.x),
  );
  // Each digit as read, or read with segments the display does not light (and no segment it lights
  // missed): otherwise the cells are no display's, or the reading something else than they show.
  const explained = (cell: SegmentCell, read: string) =>
    cell.digit !== undefined && [...cell.lit].every((segment) => MOST_LIT[read]!.includes(segment));
  // Cells that light nothing before the first lit one are the display's unused places, their faint
  // unlit segments read as 8s (`888858 km` for 758 km): they are no digits of the figure.
  const firstLit = cells?.findIndex((cell) => cell.lit !== '') ?? -1;
  const unused = Math.max(0, firstLit);
  if (!cells?.every((cell, i) => i < unused || explained(cell, digits[i]!.char))) {
    // Another cell unexplained (a segment dimmed by glare or cut off by the crop), unused places read as
    // 8s are still none of the figure's: what is left stays as read (`888666 km` for 666 km).
    if (unused === 0 || !digits.slice(0, unused).every((c) => c.char === '8')) return asRead;
    const kept = line.chars.filter((_, k) => k < start || k >= start + unused);
    return { line: lineOf(kept), shown: false };
  }
  const chars = line.chars.flatMap((c, k) => {
    const cell = cells[k - start];
    if (!cell) return [c];
    if (k - start < unused) return [];
    const confidence = Math.max(c.confidence, CONFIRMED);
    return [cell.digit === c.char ? { ...c, confidence } : { char: cell.digit!, confidence, x: c.x }];
  });
  return {
    line: lineOf(chars),
    shown: figure[0].length === (line.text.match(/[0-9]/g) ?? []).length,
  };
}

const lineOf = (chars: RecognisedLine['chars']): RecognisedLine => ({
  text: chars.map((c) => c.char).join(''),
  confidence: chars.reduce((sum, c) => sum + c.confidence, 0) / chars.length,
  chars,
});

/** The longest run of indices whose values are at least `floor`: [first, last]. */
function longestRun(values: readonly number[], floor: number): [number, number] {
  return runs(values, floor).reduce((a, b) => (b[1] - b[0] > a[1] - a[0] ? b : a), [0, -1]);
}

/** Runs at most `gap` apart joined, when the run joined is at most `widest` long. */
function joined(pieces: readonly [number, number][], gap: number, widest: number): [number, number][] {
  const out: [number, number][] = [];
  for (const piece of pieces) {
    const last = out.at(-1);
    if (last && piece[0] - last[1] - 1 <= gap && piece[1] - last[0] + 1 <= widest) last[1] = piece[1];
    else out.push([...piece]);
  }
  return out;
}

/** Every run of indices whose values are at least `floor`, left to right: [first, last]. */
function runs(values: readonly number[], floor: number): [number, number][] {
  const out: [number, number][] = [];
  let start = -1;
  values.forEach((v, i) => {
    if (v >= floor && start < 0) start = i;
    if (v < floor && start >= 0) {
      out.push([start, i - 1]);
      start = -1;
    }
  });
  if (start >= 0) out.push([start, values.length - 1]);
  return out;
}
