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

/** A line of recognised text: what was read, how surely, and where (fractions of the image). */
export interface ReadLine {
  text: string;
  /** The mean of its characters' confidences, 0..1. */
  confidence: number;
  box: FractionBox;
  /** Each character's confidence, one per character of `text`; absent: all as `confidence`. */
  chars?: readonly number[];
}

/** The long side the detector sees: plates 8 % of a photo's width are still ~50 px wide there. */
export const DETECT_MAX_SIDE = 640;
/** At most this many boxes are read, the likeliest first: enough for a plate, a VIN label and a dashboard. */
export const MAX_LINES = 16;
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

/**
 * The photo's lines of text, read from its preview (raw RGB). `signal` stops the work between the
 * models' runs (a timeout or a worker stopping): it fails the reading, never shortens it.
 */
export async function readLines(preview: RgbImage, signal?: AbortSignal): Promise<ReadLine[]> {
  const found = await detectText(preview, { maxSide: DETECT_MAX_SIDE });
  signal?.throwIfAborted();
  const chosen = linesToRead(found, preview);
  const read = await recogniseLines(
    chosen.map((line) => cropLine(preview, line.quad)),
    signal,
  );
  return chosen
    .map((line, i) => ({
      text: read[i]!.text,
      confidence: read[i]!.confidence,
      box: line.box,
      chars: read[i]!.chars.map((c) => c.confidence),
    }))
    .filter((line) => line.text.trim() !== '');
}
