// The lines of text on a photo, read by PP-OCRv4 (./ocr/): text boxes found on the preview, the likeliest
// ones cut out upright and read. The work is bounded by sizes and counts, never by time, so the same
// photo gives the same lines on any machine at any load.
import {
  cropLine,
  detectText,
  recogniseLines,
  type FractionBox,
  type RgbImage,
  type TextBoxFound,
} from './ocr/index.js';
import type { RecognisedLine, Rival } from './ocr/types.js';
import { isDotted, joinDots } from './dot-matrix.js';
import { mayHoldOdometer } from './odometer.js';
import { findCodeBox } from './plate-code-box.js';
import { lightness } from './red.js';
import { checkSegments } from './segments.js';

/** A line of recognised text: what was read, how surely, and where (fractions of the image). */
export interface ReadLine {
  text: string;
  /** The mean of its characters' confidences, 0..1. */
  confidence: number;
  box: FractionBox;
  /** Each character's confidence, one per character of `text`; absent: all as `confidence`. */
  chars?: readonly number[];
  /**
   * Each character's rival, one per character of `text`: the character the recogniser found next
   * likeliest in its place, if any (what a doubt about it is between).
   */
  rivals?: readonly (Rival | undefined)[];
  /**
   * The colour (RGB) of each character's cell, one per character of `text`: its ground, so that a drum
   * of another colour (an odometer's tenths) stands out.
   */
  inks?: readonly Ink[];
  /**
   * The colour (RGB) of each character's cell above or below it, one per character of `text`: the
   * face of a drum, which its digit's strokes do not cover (a heavy 8 makes its cell's median lighter).
   */
  faces?: readonly Ink[];
  /**
   * How much darker than its cell's ground each character is, one per character of `text`, from -1
   * (light on dark) to 1 (dark on light): a drum counter's tenths drum is black on white beside
   * white-on-black drums, and glare may make their grounds as light as its own (./odometer.ts).
   */
  polarity?: readonly number[];
  /**
   * The line read again from other cuts of the photo (AGAIN_PADDINGS), for lines that may hold an
   * odometer's figure, but for those whose digits a display's segments showed (./segments.ts): its
   * digits must be the same in each.
   */
  again?: readonly string[];
  /**
   * The line read again from a cut WIDEN times wider, for lines with a character read unsurely: a plate
   * seen at an angle is narrowed, and the recogniser reads narrowed characters worse (a J as an I).
   */
  widened?: Reading;
  /** The slope of the detector's box (degrees, positive descending to the right). */
  angle?: number;
  /**
   * The same slope in the image's fractions: how far down the line runs (a share of the image's height)
   * over a share of its width. Boxes are in fractions, and a line's row is followed along it in them.
   */
  slope?: number;
  /** Read on a closer look at what seemed pieces of a VIN (closer-look.ts): taken for the VIN only. */
  vinOnly?: boolean;
}

/** What was read on a line, and how surely: ReadLine's own fields. */
export type Reading = Pick<
  ReadLine,
  'text' | 'confidence' | 'chars' | 'rivals' | 'inks' | 'faces' | 'polarity'
>;

export type Ink = readonly [r: number, g: number, b: number];

/** Half the width of a character's cell, as a share of the line's height (digits are about 0.55 wide). */
const CELL_HALF_WIDTH = 0.25;

/**
 * The crop's columns (`from` up to `to`) of the character's cell around `x` (a fraction of its width);
 * the whole crop when `x` is undefined.
 */
function cellColumns(crop: RgbImage, x: number | undefined): { from: number; to: number } {
  if (x === undefined) return { from: 0, to: crop.width };
  const centre = x * crop.width;
  const half = Math.max(1, CELL_HALF_WIDTH * crop.height);
  return { from: Math.max(0, Math.floor(centre - half)), to: Math.min(crop.width, Math.ceil(centre + half)) };
}

/**
 * The median colour of the crop's columns around `x` (a fraction of its width; the whole crop when
 * undefined), channel by channel, over its rows `rows` (all of them when undefined): the cell's ground,
 * as characters cover less of it than it shows.
 */
function inkAt(
  crop: RgbImage,
  x: number | undefined,
  rows: readonly (readonly [number, number])[] = [[0, crop.height]],
): Ink {
  const { from, to } = cellColumns(crop, x);
  const histograms = [new Uint32Array(256), new Uint32Array(256), new Uint32Array(256)];
  let count = 0;
  for (const [top, bottom] of rows)
    for (let y = top; y < bottom; y++)
      for (let column = from; column < to; column++, count++)
        for (let c = 0; c < 3; c++) histograms[c]![crop.data[(y * crop.width + column) * 3 + c]!]!++;
  const middle = count / 2;
  const median = (histogram: Uint32Array) => {
    let seen = 0;
    for (let value = 0; value < 256; value++) if ((seen += histogram[value]!) >= middle) return value;
    return 255;
  };
  return [median(histograms[0]!), median(histograms[1]!), median(histograms[2]!)];
}

/** The share of a line's cut, at its top and at its bottom, that lies above and below its characters. */
const FACE_SHARE = 0.18;

/**
 * The colour of the cell's face around `x`: the lighter of its rows above and below the characters
 * (FACE_SHARE of the cut each), which no stroke covers. A heavy digit (an 8) fills its cell's middle
 * with its strokes, and the cell's median is then lighter than its neighbours' on the same drums.
 */
function faceAt(crop: RgbImage, x: number): Ink {
  const band = Math.max(1, Math.round(FACE_SHARE * crop.height));
  const above = inkAt(crop, x, [[0, band]]);
  const below = inkAt(crop, x, [[crop.height - band, crop.height]]);
  return lightness(above) >= lightness(below) ? above : below;
}

/** The grey levels of the crop's columns around `x` (a fraction of its width): a character's cell. */
function cellLevels(crop: RgbImage, x: number): Uint8Array {
  const { from, to } = cellColumns(crop, x);
  const levels = new Uint8Array((to - from) * crop.height);
  let k = 0;
  for (let y = 0; y < crop.height; y++)
    for (let column = from; column < to; column++) {
      const i = (y * crop.width + column) * 3;
      levels[k++] = Math.round((crop.data[i]! + crop.data[i + 1]! + crop.data[i + 2]!) / 3);
    }
  return levels.sort();
}

/**
 * How much darker than its cell's ground the character at `x` is, from -1 to 1: how much further the
 * cell's darkest tenth lies below its median (the ground, as characters cover less of a cell than it
 * shows) than its lightest tenth above it, over the range between the two tenths.
 */
export function polarityAt(crop: RgbImage, x: number): number {
  const levels = cellLevels(crop, x);
  if (levels.length === 0) return 0;
  const at = (share: number) => levels[Math.min(levels.length - 1, Math.floor(share * levels.length))]!;
  const [dark, median, light] = [at(0.1), at(0.5), at(0.9)];
  return light === dark ? 0 : (median - dark - (light - median)) / (light - dark);
}

/** The marks read between letters and digits: separators, a unit's slash, a clock's colon, degrees. */
const MARKS = new Set([' ', '-', '.', ',', ':', '/', "'", '’', '°', '(', ')']);

/**
 * What a character of the recogniser's dictionary is read as: capitals (a small letter's probability
 * joins its capital's, as plates, VINs and units are compared regardless of case), digits and MARKS;
 * the rest (other scripts, symbols) is left out, so that it never stands for a character of a plate.
 */
function readAs(char: string): string | undefined {
  const upper = char.toUpperCase();
  if (/^[A-Z0-9]$/.test(upper)) return upper;
  return MARKS.has(char) ? char : undefined;
}

/** The long side the detector sees: plates 8 % of a photo's width are still ~50 px wide there. */
const DETECT_MAX_SIDE = 640;
/**
 * The long side the detector sees a second time when it found nothing at DETECT_MAX_SIDE, or only a few
 * short pieces and no VIN (./text.ts): the preview's own (1024 px), where a windshield's VIN plate seen
 * steeply shows whole. It costs a photo without any text about 2.5 times the first look (134 ms against
 * 54 ms); 896 px cost 105 ms and read one VIN fewer of 160
 * (docs/adr/0015-pp-ocr-for-plates-vins-and-odometers.md).
 */
const FULL_SIDE = 1024;
/** At most this many boxes are read, the likeliest first: enough for a plate, a VIN label and a dashboard. */
const MAX_LINES = 16;
/** Boxes lower than this (preview pixels) hold characters too small to read. */
const MIN_LINE_HEIGHT = 6;
/** Text lines are wider than high; a box taller than this ratio is a blob, not a line. */
const MAX_HEIGHT_TO_WIDTH = 1.5;

/**
 * Which boxes are read: those high enough and line-shaped, in the order of how surely they hold text
 * (the detector's score), ties by position; at most MAX_LINES.
 */
function linesToRead(found: readonly TextBoxFound[], image: RgbImage): TextBoxFound[] {
  return found
    .filter((line) => {
      const height = line.box.height * image.height;
      const width = line.box.width * image.width;
      return height >= MIN_LINE_HEIGHT && height <= width * MAX_HEIGHT_TO_WIDTH;
    })
    .map((line, index) => ({ line, index }))
    .sort((a, b) => b.line.score - a.line.score || a.index - b.index)
    .slice(0, MAX_LINES)
    .sort((a, b) => a.index - b.index)
    .map(({ line }) => line);
}

/** Only lines that may be a plate, a VIN or an odometer: four letters or digits, a digit among them. */
const mayMatter = (text: string) => (text.match(/[A-Z0-9]/g) ?? []).length >= 4 && /[0-9]/.test(text);

/** A character read under this is confirmed by reading its line again, cut out otherwise. */
const CONFIRM_BELOW = 0.7;
/** The other cuts a doubtful line is read from: margins around it, as shares of its height. */
const CONFIRM_PADDINGS = [0.12, 0.25];

/**
 * Lines with a character read unsurely are read again from other cuts of the photo (wider margins);
 * when every cut reads the same text, each character keeps its surest reading. A doubt that other
 * cuts agree on is no doubt of the recogniser's; one they do not stays.
 */
async function confirmDoubts(
  preview: RgbImage,
  lines: readonly TextBoxFound[],
  dotted: readonly boolean[],
  read: RecognisedLine[],
  signal: AbortSignal | undefined,
): Promise<void> {
  const doubtful = read.flatMap((line, i) =>
    mayMatter(line.text) && line.chars.some((c) => c.confidence < CONFIRM_BELOW) ? [i] : [],
  );
  for (const i of doubtful) {
    const crops = CONFIRM_PADDINGS.map((padding) => cut(preview, lines[i]!, dotted[i]!, padding));
    const again = await recogniseLines(crops, { signal, fold: readAs });
    if (!again.every((other) => other.text === read[i]!.text)) continue;
    const chars = read[i]!.chars.map((c, k) => ({
      ...c,
      confidence: Math.max(c.confidence, ...again.map((other) => other.chars[k]!.confidence)),
    }));
    read[i] = {
      ...read[i]!,
      chars,
      confidence: chars.reduce((sum, c) => sum + c.confidence, 0) / chars.length,
    };
  }
}

/** The other cuts a line that may hold an odometer's figure is read from: margins, as shares of its height. */
const AGAIN_PADDINGS = [0.12];

/** Each line that may hold an odometer's figure read again from the AGAIN_PADDINGS cuts; others undefined. */
async function readAgain(
  preview: RgbImage,
  lines: readonly TextBoxFound[],
  dotted: readonly boolean[],
  read: readonly RecognisedLine[],
  shownBySegments: readonly boolean[],
  signal: AbortSignal | undefined,
): Promise<(string[] | undefined)[]> {
  const out: (string[] | undefined)[] = [];
  for (const [i, line] of read.entries()) {
    // Digits a display's segments showed are read from the pixels already: no other cut is needed.
    if (!mayHoldOdometer(line.text) || shownBySegments[i]) {
      out.push(undefined);
      continue;
    }
    const crops = AGAIN_PADDINGS.map((padding) => cut(preview, lines[i]!, dotted[i]!, padding));
    const again = await recogniseLines(crops, { signal, fold: readAs });
    out.push(again.map((other, k) => checkSegments(crops[k]!, other).line.text));
  }
  return out;
}

/**
 * How much wider the widened cut is than the line's proportions: a plate seen 40–50° from the side
 * shows 0.77–0.64 of its width, and 1.5 gives about its own proportions back.
 */
const WIDEN = 1.5;

/** Each line that may matter and still holds a character read unsurely, read from a widened cut. */
async function readWidened(
  preview: RgbImage,
  lines: readonly TextBoxFound[],
  dotted: readonly boolean[],
  read: readonly RecognisedLine[],
  signal: AbortSignal | undefined,
): Promise<(Reading | undefined)[]> {
  const out: (Reading | undefined)[] = [];
  for (const [i, line] of read.entries()) {
    if (!mayMatter(line.text) || line.chars.every((c) => c.confidence >= CONFIRM_BELOW)) {
      out.push(undefined);
      continue;
    }
    const crop = cut(preview, lines[i]!, dotted[i]!, 0, WIDEN);
    const [wide] = await recogniseLines([crop], { signal, fold: readAs });
    out.push(wide && readingOf(wide, crop));
  }
  return out;
}

/**
 * A recognised line as a Reading, its characters' cell colours measured on `crop`. A character alone
 * in its box is measured over the whole cut: the detector boxes it tightly, and a cell around its
 * centre is more stroke than ground (a tenths drum's dark 2 on white measured as dark as its strokes).
 */
const readingOf = (line: RecognisedLine, crop: RgbImage): Reading => ({
  text: line.text,
  confidence: line.confidence,
  chars: line.chars.map((c) => c.confidence),
  rivals: line.chars.map((c) => c.rival),
  inks: line.chars.map((c) => inkAt(crop, line.chars.length === 1 ? undefined : c.x)),
  faces: line.chars.map((c) => faceAt(crop, c.x)),
  polarity: line.chars.map((c) => polarityAt(crop, c.x)),
});

/** `crop`, already cut out as one line of text, read as it is (no detection). */
export async function readCrop(crop: RgbImage, signal?: AbortSignal): Promise<Reading | undefined> {
  const [line] = await recogniseLines([crop], { signal, fold: readAs });
  return line && readingOf(line, crop);
}

/** A number that may be an Abu Dhabi plate's, beside its code box: up to five digits. */
const PLATE_NUMBER = /^\s*\d{1,5}\s*$/;
/** A code box's code: one or two digits. */
const PLATE_CODE = /^\d{1,2}$/;

/** Whether `box`'s centre lies inside `outer`. */
export const centreInside = (box: FractionBox, outer: FractionBox) =>
  box.x + box.width / 2 >= outer.x &&
  box.x + box.width / 2 <= outer.x + outer.width &&
  box.y + box.height / 2 >= outer.y &&
  box.y + box.height / 2 <= outer.y + outer.height;

/**
 * Whether a red box is the last cell of another line of characters reaching well left of it: an analogue
 * odometer's tenths drum (white on red) beside its trip counter, not a plate's code box.
 */
const endsAnotherLine = (redBox: FractionBox, lines: readonly ReadLine[]) =>
  lines.some((other) => centreInside(redBox, other.box) && other.box.x < redBox.x - redBox.width);

/**
 * The lines with the codes of the red code boxes beside numbers read (plate-code-box.ts) added, each in
 * place of what the detector made of its box (the emirate's name, the code cut in pieces).
 */
async function withPlateCodes(
  preview: RgbImage,
  lines: readonly ReadLine[],
  signal: AbortSignal | undefined,
): Promise<ReadLine[]> {
  const codes: { line: ReadLine; redBox: FractionBox }[] = [];
  for (const line of lines) {
    if (!PLATE_NUMBER.test(line.text)) continue;
    const found = findCodeBox(preview, line.box, line.angle);
    if (!found || endsAnotherLine(found.redBox, lines)) continue;
    const crop = cropLine(found.crop, found.quad);
    const [both] = await recogniseLines([crop], { signal, fold: readAs });
    const digits = line.text.trim();
    const codeLength = both ? both.text.replace(/\s/g, '').length - digits.length : 0;
    if (!both || !both.text.replace(/\s/g, '').endsWith(digits) || codeLength < 1 || codeLength > 2) continue;
    const code = { ...both, text: both.text.slice(0, codeLength), chars: both.chars.slice(0, codeLength) };
    code.confidence = code.chars.reduce((sum, c) => sum + c.confidence, 0) / codeLength;
    if (!PLATE_CODE.test(code.text)) continue;
    const reading = { ...readingOf(code, crop), inks: code.chars.map(() => found.ink) };
    codes.push({ line: { ...reading, box: found.box }, redBox: found.redBox });
  }
  const inCodeBox = (line: ReadLine) => codes.some(({ redBox }) => centreInside(line.box, redBox));
  return [...lines.filter((line) => !inCodeBox(line)), ...codes.map(({ line }) => line)];
}

/** The line cut out upright with a margin of `padding` (a share of its height), its dots joined if dotted. */
function cut(preview: RgbImage, line: TextBoxFound, dotted: boolean, padding: number, stretch = 1): RgbImage {
  const crop = cropLine(preview, line.quad, { padding, stretch });
  return dotted ? joinDots(crop) : crop;
}

/**
 * The photo's lines of text, read from its preview (raw RGB). `signal` stops the work between the
 * models' runs (a timeout or a worker stopping): it fails the reading, never shortens it.
 */
export async function readLines(preview: RgbImage, signal?: AbortSignal): Promise<ReadLine[]> {
  let chosen = linesToRead(await detectText(preview, { maxSide: DETECT_MAX_SIDE }), preview);
  signal?.throwIfAborted();
  // Nothing found at all: looked at again on the whole preview, where text too small for the first
  // look shows (a windshield's VIN seen steeply from above). Photos with any text pay nothing for it.
  if (chosen.length === 0) chosen = linesToRead(await detectText(preview, { maxSide: FULL_SIDE }), preview);
  signal?.throwIfAborted();
  return readChosen(preview, chosen, signal);
}

/**
 * The photo's lines of text as the detector finds them on the whole preview (its long side up to
 * FULL_SIDE): a second look where the first found only pieces of a VIN (./text.ts).
 */
export async function readLinesAtFullSize(preview: RgbImage, signal?: AbortSignal): Promise<ReadLine[]> {
  const chosen = linesToRead(await detectText(preview, { maxSide: FULL_SIDE }), preview);
  signal?.throwIfAborted();
  return readChosen(preview, chosen, signal);
}

/** The chosen boxes read, checked and read again where in doubt. */
async function readChosen(
  preview: RgbImage,
  chosen: readonly TextBoxFound[],
  signal: AbortSignal | undefined,
): Promise<ReadLine[]> {
  const cuts = chosen.map((line) => cropLine(preview, line.quad));
  // Told from the line's first cut, and then the same for every cut of it.
  const dotted = cuts.map(isDotted);
  const crops = cuts.map((crop, i) => (dotted[i] ? joinDots(crop) : crop));
  const read = await recogniseLines(crops, { signal, fold: readAs });
  await confirmDoubts(preview, chosen, dotted, read, signal);
  // A display's faint unlit segments read as lit (a 1 as an 8) are told by the segments themselves.
  const shownBySegments = read.map((line, i) => {
    if (!mayHoldOdometer(line.text)) return false;
    const checked = checkSegments(crops[i]!, line);
    read[i] = checked.line;
    return checked.shown;
  });
  const again = await readAgain(preview, chosen, dotted, read, shownBySegments, signal);
  const widened = await readWidened(preview, chosen, dotted, read, signal);
  const lines = chosen
    .map((line, i) => ({
      ...(again[i] && { again: again[i] }),
      ...(widened[i] && { widened: widened[i] }),
      ...readingOf(read[i]!, crops[i]!),
      box: line.box,
      angle: line.angle,
      slope: (Math.tan((line.angle * Math.PI) / 180) * preview.width) / preview.height,
    }))
    .filter((line) => line.text.trim() !== '');
  return withPlateCodes(preview, lines, signal);
}
