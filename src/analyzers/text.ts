// Licence plate and VIN: OCR (ocr.ts) of the regions where text may be (text-regions.ts), each
// enlarged to the height Tesseract reads best and levelled, then candidates picked from the recognised
// lines and compared with the inspection's inputMetaData. Reading regions instead of the whole preview
// halved the time and read more (bench:reading, docs/adr/0010-text-regions-and-worker-lanes.md). A
// blurred plate yields nothing, never a guess.
import sharp from 'sharp';
import {
  TextPart,
  type PlateReading,
  type TextFlag,
  type VinReading,
} from '../domain/result/detection-parts.js';
import type { AnalysisContext, ImageAnalyzer, PreparedImage } from './analyzer.js';
import { pgm, recognise } from './ocr.js';
import { greyOf, skewOf, textRegions, type TextRegion } from './text-regions.js';
import { cutTile, type GreyImage } from './text-tiles.js';

// ---- Normalisation and comparison (pure) ----

/** Where a word or reading lies, as fractions (0..1) of the image, origin top left. */
export interface TextBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A recognised word; `confidence` is Tesseract's, 0..100; `box` where the page said it was. */
export interface OcrWord {
  text: string;
  confidence: number;
  box?: TextBox;
}
/** Words Tesseract put on one text line, left to right. */
export type OcrLine = OcrWord[];

export interface Candidate {
  /** Normalised: plates as uppercase alphanumeric groups joined by '-', VINs as 17 characters. */
  text: string;
  /** 0..1: the lowest confidence of the words it was read from. */
  confidence: number;
  /** Around the words it was read from, when they had boxes. */
  box?: TextBox;
}

/** Words read with less confidence are not taken as a plate (Tesseract's 0..100 scale). */
export const MIN_PLATE_CONFIDENCE = 50;
/**
 * The same for a VIN. Lower, because Tesseract rates long dictionary-less words low (a clean synthetic
 * VIN read right scored 30–87 by font and size) and the VIN's own structure already rules out noise.
 */
export const MIN_VIN_CONFIDENCE = 20;

/** Uppercase alphanumeric groups of a text; every other character separates groups. */
export function alnumGroups(text: string): string[] {
  return text.toUpperCase().match(/[A-Z0-9]+/g) ?? [];
}

/** The form readings are compared in: uppercase letters and digits only. */
export function compact(text: string): string {
  return alnumGroups(text).join('');
}

/** A plate as written in the result: uppercase alphanumeric groups joined by '-' (`ab 123 cd` → `AB-123-CD`). */
export function normalisePlate(text: string): string {
  return alnumGroups(text).join('-');
}

const hasDigit = (text: string) => /[0-9]/.test(text);
const hasLetter = (text: string) => /[A-Z]/.test(text);

/**
 * EU-style plate: 2–3 groups, each all letters or all digits of 1–4 characters, at least one of each,
 * 5–9 characters in all: AB-123-CD (FR, IT), M-AB-1234 (DE), 1234-BCD (ES), 12-ABC-3 (NL).
 */
export function isEuStylePlate(groups: readonly string[]): boolean {
  if (groups.length < 2 || groups.length > 3) return false;
  if (!groups.every((group) => /^(?:[A-Z]{1,4}|[0-9]{1,4})$/.test(group))) return false;
  const length = groups.join('').length;
  return length >= 5 && length <= 9 && groups.some(hasDigit) && groups.some(hasLetter);
}

/**
 * A plausible plate: 4–10 alphanumeric characters with at least one letter and one digit, as one group
 * or as several groups of at most 4 characters each (so `PARKING 2HR` is not taken for a plate).
 */
export function isPlausiblePlate(groups: readonly string[]): boolean {
  const joined = groups.join('');
  if (joined.length < 4 || joined.length > 10 || !hasDigit(joined) || !hasLetter(joined)) return false;
  return groups.length === 1 || groups.every((group) => group.length <= 4);
}

interface Group {
  text: string;
  confidence: number;
  box?: TextBox | undefined;
}

function lineGroups(line: OcrLine): Group[] {
  return line.flatMap((word) =>
    alnumGroups(word.text).map((text) => ({ text, confidence: word.confidence, box: word.box })),
  );
}

/** The box around every group's box; undefined when one of them has none. */
function boxAround(groups: Group[]): TextBox | undefined {
  if (groups.length === 0 || groups.some((group) => !group.box)) return undefined;
  const boxes = groups.map((group) => group.box!);
  const x = Math.min(...boxes.map((b) => b.x));
  const y = Math.min(...boxes.map((b) => b.y));
  const right = Math.max(...boxes.map((b) => b.x + b.width));
  const bottom = Math.max(...boxes.map((b) => b.y + b.height));
  return { x, y, width: right - x, height: bottom - y };
}

function windows(groups: Group[], maxGroups: number): Group[][] {
  const result: Group[][] = [];
  for (let start = 0; start < groups.length; start++) {
    for (let end = start + 1; end <= Math.min(groups.length, start + maxGroups); end++) {
      result.push(groups.slice(start, end));
    }
  }
  return result;
}

const minConfidence = (groups: Group[]) => Math.min(...groups.map((group) => group.confidence)) / 100;

/** Plate candidates of recognised lines, best first: EU-style before generic, then longer, then surer. */
export function plateCandidates(lines: readonly OcrLine[]): Candidate[] {
  const found: (Candidate & { euStyle: boolean; length: number })[] = [];
  for (const line of lines) {
    for (const window of windows(lineGroups(line), 4)) {
      const texts = window.map((group) => group.text);
      if (!isPlausiblePlate(texts)) continue;
      const confidence = minConfidence(window);
      if (confidence * 100 < MIN_PLATE_CONFIDENCE) continue;
      const text = texts.join('-');
      const box = boxAround(window);
      found.push({
        text,
        confidence,
        ...(box && { box }),
        euStyle: isEuStylePlate(texts),
        length: compact(text).length,
      });
    }
  }
  found.sort(
    (a, b) => Number(b.euStyle) - Number(a.euStyle) || b.length - a.length || b.confidence - a.confidence,
  );
  return found.map(({ euStyle, length, ...candidate }) => candidate);
}

// prettier-ignore
const VIN_TRANSLITERATION: Readonly<Record<string, number>> = {
  A: 1, B: 2, C: 3, D: 4, E: 5, F: 6, G: 7, H: 8,
  J: 1, K: 2, L: 3, M: 4, N: 5, P: 7, R: 9,
  S: 2, T: 3, U: 4, V: 5, W: 6, X: 7, Y: 8, Z: 9,
};
const VIN_WEIGHTS = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2];
const VIN_PATTERN = /^[A-HJ-NPR-Z0-9]{17}$/;
/**
 * Digits a VIN candidate must show as read, before I/O/Q become 1/0/0: a VIN's serial part is mostly
 * digits, while words such as PARKING PROHIBITED would otherwise pass once their I and O became digits.
 */
const VIN_MIN_DIGITS = 4;

/** A VIN as written in the result: uppercase, separators dropped, and I/O/Q (never in a VIN) read as 1/0/0. */
export function normaliseVin(text: string): string {
  return compact(text).replace(/I/g, '1').replace(/[OQ]/g, '0');
}

/**
 * The check digit a VIN should carry at position 9 (North American rule, ISO 3779 transliteration,
 * weights 8-7-6-5-4-3-2-10-0-9-8-7-6-5-4-3-2, sum mod 11, 10 written X); null when `vin` is not 17
 * valid characters. Vehicles outside North America often do not follow it.
 */
export function vinCheckDigit(vin: string): string | null {
  if (!VIN_PATTERN.test(vin)) return null;
  let sum = 0;
  for (let i = 0; i < 17; i++) {
    const char = vin.charAt(i);
    const value = /[0-9]/.test(char) ? Number(char) : (VIN_TRANSLITERATION[char] ?? 0);
    sum += value * (VIN_WEIGHTS[i] ?? 0);
  }
  const remainder = sum % 11;
  return remainder === 10 ? 'X' : String(remainder);
}

export function isVinCheckDigitValid(vin: string): boolean {
  const expected = vinCheckDigit(vin);
  return expected !== null && vin.charAt(8) === expected;
}

/**
 * VIN candidates of recognised lines, best first (valid check digit first, then surer). A VIN may be
 * printed in several groups, so consecutive groups that make exactly 17 characters are tried; a single
 * run of 18–20 characters (a stray character read into it) counts only where a 17-character part of
 * it has a valid check digit.
 */
export function vinCandidates(lines: readonly OcrLine[]): Candidate[] {
  const found: (Candidate & { valid: boolean })[] = [];
  const consider = (text: string, confidence: number, requireValid: boolean) => {
    const vin = normaliseVin(text);
    if (!VIN_PATTERN.test(vin) || !hasLetter(vin) || (text.match(/[0-9]/g) ?? []).length < VIN_MIN_DIGITS)
      return;
    if (confidence * 100 < MIN_VIN_CONFIDENCE) return;
    const valid = isVinCheckDigitValid(vin);
    if (requireValid && !valid) return;
    found.push({ text: vin, confidence, valid });
  };
  for (const line of lines) {
    const groups = lineGroups(line);
    for (const window of windows(groups, 6)) {
      const joined = window.map((group) => group.text).join('');
      if (joined.length === 17) consider(joined, minConfidence(window), false);
    }
    for (const group of groups) {
      const fixed = normaliseVin(group.text);
      if (fixed.length < 18 || fixed.length > 20) continue;
      for (let start = 0; start + 17 <= fixed.length; start++) {
        consider(fixed.slice(start, start + 17), group.confidence / 100, true);
      }
    }
  }
  found.sort((a, b) => Number(b.valid) - Number(a.valid) || b.confidence - a.confidence);
  return found.map(({ text, confidence }) => ({ text, confidence }));
}

/** Equal ignoring case and separators; null unless both sides exist. */
export function sameReading(read: string | null, expected: string | null): boolean | null {
  if (read === null || expected === null) return null;
  return compact(read) === compact(expected);
}

/** The expected value from inputMetaData (a string or number), normalised; null when absent or empty. */
function expectedValue(value: unknown, normalise: (text: string) => string): string | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const normalised = normalise(String(value));
  return normalised === '' ? null : normalised;
}

/**
 * The reading reported: the candidate equal to the expected value when there is one (the photo shows
 * the expected text, whatever else it shows), else the best candidate.
 */
function pick(candidates: Candidate[], expected: string | null): Candidate | null {
  const matching = candidates.find((candidate) => sameReading(candidate.text, expected) === true);
  return matching ?? candidates[0] ?? null;
}

function reading(candidate: Candidate | null, expected: string | null) {
  return {
    read: candidate?.text ?? null,
    expected,
    match: sameReading(candidate?.text ?? null, expected),
    confidence: candidate ? Math.round(candidate.confidence * 100) / 100 : null,
  };
}

const round4 = (value: number) => Math.round(value * 10_000) / 10_000;

/**
 * The part from OCR lines and inputMetaData (`licensePlate`, `vin`). A mismatch is flagged only when
 * both a reading and an expected value exist: a plate or VIN that was not found adds no flag, because
 * most photos do not show it (or not legibly) and absence is no evidence against the expected value.
 */
export function textPartFrom(lines: readonly OcrLine[], inputMetaData: Record<string, unknown>): TextPart {
  const expectedPlate = expectedValue(inputMetaData.licensePlate, normalisePlate);
  const expectedVin = expectedValue(inputMetaData.vin, normaliseVin);
  const platePick = pick(plateCandidates(lines), expectedPlate);
  const plateBox = platePick?.box;
  const plate: PlateReading = {
    ...reading(platePick, expectedPlate),
    ...(plateBox && {
      box: {
        x: round4(plateBox.x),
        y: round4(plateBox.y),
        width: round4(plateBox.width),
        height: round4(plateBox.height),
      },
    }),
  };
  const vinPick = pick(vinCandidates(lines), expectedVin);
  const vin: VinReading = {
    ...reading(vinPick, expectedVin),
    check_digit_valid: vinPick ? isVinCheckDigitValid(vinPick.text) : null,
  };
  const flags: TextFlag[] = [];
  if (plate.match === false) flags.push('plate_mismatch');
  if (vin.match === false) flags.push('vin_mismatch');
  return { plate, vin, flags };
}

// ---- Search ----

/** Past this, the contrast-stretched second pass is skipped (keeps an image under ~1.5 s). */
const SECOND_PASS_BEFORE_MS = 600;

/** The preview as a PGM, grey or contrast-stretched. */
async function greyImage(preview: PreparedImage['preview'], stretch: boolean): Promise<Buffer> {
  const { data, width, height } = preview;
  let pipeline = sharp(data, { raw: { width, height, channels: 3 } }).greyscale();
  if (stretch) pipeline = pipeline.normalise();
  return pgm(await pipeline.raw().toBuffer(), width, height);
}

/** The whole preview read once, and once more contrast-stretched when time allows and it found little. */
async function readWholeFrame(image: PreparedImage, context: AnalysisContext): Promise<OcrLine[]> {
  const started = performance.now();
  const size = { width: image.preview.width, height: image.preview.height };
  const [lines = []] = await recognise(
    [{ image: await greyImage(image.preview, false), size }],
    context.signal,
  );
  const part = textPartFrom(lines, context.inputMetaData);
  const complete = part.plate.read !== null && part.vin.read !== null;
  if (!complete && performance.now() - started < SECOND_PASS_BEFORE_MS) {
    const [stretched = []] = await recognise(
      [{ image: await greyImage(image.preview, true), size }],
      context.signal,
    );
    lines.push(...stretched);
  }
  return lines;
}

/** Characters read best at about this height in pixels; smaller text is enlarged up to 3×. */
const OCR_TEXT_HEIGHT = 36;
/** White space between two tiles of the mosaic, so Tesseract never joins their lines. */
const TILE_GAP = 16;

interface Tile extends GreyImage {
  region: TextRegion;
  scale: number;
  /** Top of the tile in the mosaic. */
  top: number;
  /** Where the region's corner lies in the tile (levelling grows the canvas), in tile pixels. */
  margin: { x: number; y: number };
}

/**
 * Each region cut from the grey preview at the scale OCR reads best, levelled when its text is skewed,
 * and contrast-stretched or not (synchronously: see text-tiles.ts), stacked on white into one page.
 */
function mosaicOf(grey: GreyImage, regions: TextRegion[], stretch: boolean) {
  const tiles: Tile[] = [];
  let top = TILE_GAP;
  for (const region of regions) {
    const scale = Math.min(3, Math.max(1, OCR_TEXT_HEIGHT / region.textHeight));
    const angle = skewOf(grey.data, grey.width, region);
    const tile = cutTile(grey, region, { scale, angle, stretch });
    tiles.push({ ...tile, region, scale, top });
    top += tile.height + TILE_GAP;
  }
  const width = Math.max(...tiles.map((tile) => tile.width)) + 2 * TILE_GAP;
  const height = top;
  const mosaic = Buffer.alloc(width * height, 255);
  for (const tile of tiles) {
    for (let y = 0; y < tile.height; y++) {
      mosaic.set(tile.data.subarray(y * tile.width, (y + 1) * tile.width), (tile.top + y) * width + TILE_GAP);
    }
  }
  return { tiles, page: { image: pgm(mosaic, width, height), size: { width, height } } };
}

/**
 * The regions read twice, as they are and contrast-stretched (which reads more even where the levels
 * span most of the range), each as one mosaic: one call's overhead, not one per region. The words are
 * put back where they are in the preview (near enough for a levelled tile).
 */
async function readRegions(grey: GreyImage, regions: TextRegion[], signal: AbortSignal): Promise<OcrLine[]> {
  const mosaics = [false, true].map((stretch) => mosaicOf(grey, regions, stretch));
  const read = await recognise(
    mosaics.map((m) => m.page),
    signal,
  );
  return mosaics.flatMap(({ tiles, page }, index) => {
    const { width, height } = page.size;
    // Boxes come back as fractions of the mosaic: to the tile's pixels, then to the preview's fractions.
    const toPreview = (box: TextBox): TextBox | undefined => {
      const y = box.y * height;
      const tile = tiles.find((t) => y >= t.top - TILE_GAP / 2 && y < t.top + t.height + TILE_GAP / 2);
      if (!tile) return undefined;
      const clamp = (value: number) => Math.min(1, Math.max(0, value));
      const x0 = clamp(
        (tile.region.x + (box.x * width - TILE_GAP - tile.margin.x) / tile.scale) / grey.width,
      );
      const y0 = clamp((tile.region.y + (y - tile.top - tile.margin.y) / tile.scale) / grey.height);
      return {
        x: x0,
        y: y0,
        width: Math.min(1 - x0, (box.width * width) / tile.scale / grey.width),
        height: Math.min(1 - y0, (box.height * height) / tile.scale / grey.height),
      };
    };
    return (read[index] ?? []).map((line) =>
      line.map((word) => {
        const box = word.box && toPreview(word.box);
        return { text: word.text, confidence: word.confidence, ...(box && { box }) };
      }),
    );
  });
}

/** How the text is searched: only where it may be (the default), or the whole frame as before. */
export type TextSearch = 'regions' | 'whole';

/**
 * Plate and VIN read from the image and compared with `context.inputMetaData`. Only text-like regions
 * are read (text-regions.ts), as they are and contrast-stretched.
 */
export async function readText(
  image: PreparedImage,
  context: AnalysisContext,
  search: TextSearch = 'regions',
): Promise<TextPart> {
  if (search === 'whole') return textPartFrom(await readWholeFrame(image, context), context.inputMetaData);
  const { data, width, height } = image.preview;
  const grey = greyOf(data, width, height);
  const regions = textRegions(grey, width, height);
  const lines =
    regions.length > 0 ? await readRegions({ data: grey, width, height }, regions, context.signal) : [];
  return textPartFrom(lines, context.inputMetaData);
}

export const textAnalyzer: ImageAnalyzer<typeof TextPart> = {
  name: 'text',
  version: 'tesseract-7.0.0-eng-best-int-regions-3',
  schema: TextPart,
  // The first call starts the worker and loads the model (about 0.5 s).
  timeoutMs: 15_000,
  // Tesseract recognises on its own worker thread, beside the vehicle detector on the analysis thread.
  ownThread: true,
  analyse: readText,
};

// The OCR worker's end (graceful shutdown, tests) is the text reader's.
export { closeTextReader } from './ocr.js';
