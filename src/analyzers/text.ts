// Licence plate, VIN and odometer: the photo's lines of text read by PP-OCRv4 (./text-lines.ts), then
// the plate, the VIN and the odometer picked among them and compared with the inspection's
// inputMetaData (./text-part.ts). The work is bounded by sizes and counts, never by time: the same
// photo gives the same part on any machine at any load (docs/adr/0015-pp-ocr-for-plates-vins-and-odometers.md).
import { TextPart } from '../domain/result/detection-parts.js';
import type { AnalysisContext, ImageAnalyzer, PreparedImage } from './analyzer.js';
import {
  alongBand,
  closerLook,
  endsTrimmed,
  fromBand,
  fromCloserLook,
  slantedVinBand,
  vinPiecesRegion,
} from './closer-look.js';
import type { RgbImage } from './ocr/index.js';
import { readCrop, readLines, readLinesAtFullSize, type ReadLine } from './text-lines.js';
import { textPartFrom } from './text-part.js';

/** Plate, VIN and odometer read from the image and compared with `context.inputMetaData`. */
export async function readText(image: PreparedImage, context: AnalysisContext): Promise<TextPart> {
  const { preview } = image;
  const lines = await readLines(preview, context.signal);
  const { part, seen } = await lookingForVin(preview, lines, context);
  if (part.vin.read !== null || !onlyPieces(lines)) return part;
  // The first look found only a few short pieces (`KNAA`, `S` and `A` of a VIN whose characters are
  // spaced wide): the whole preview looked at again at its full size, where the line shows whole.
  const full = await readLinesAtFullSize(preview, context.signal);
  const again = await lookingForVin(preview, full, context);
  if (again.part.vin.read === null) return part;
  return textPartFrom([...seen, ...again.seen.map(forVinOnly)], context.inputMetaData);
}

/**
 * The part read from `lines`, and where no VIN is read but what may be its pieces, from a closer look at
 * them or along their line (./closer-look.ts); `seen` is every line the part was read from.
 */
async function lookingForVin(
  preview: RgbImage,
  lines: readonly ReadLine[],
  context: AnalysisContext,
): Promise<{ part: TextPart; seen: readonly ReadLine[] }> {
  const first = textPartFrom(lines, context.inputMetaData);
  if (first.vin.read !== null) return { part: first, seen: lines };
  const region = vinPiecesRegion(lines, preview.width / preview.height);
  let seen = lines;
  let part = first;
  if (region) {
    const closer = await readLines(closerLook(preview, region), context.signal);
    seen = [...lines, ...closer.map((line) => fromCloserLook(line, region))];
    part = textPartFrom(seen, context.inputMetaData);
    if (part.vin.read !== null) return { part, seen };
  }
  // Pieces of a VIN down a slant, too few for a closer look or not read on it: read along their line.
  const band = slantedVinBand(lines, preview.width, preview.height);
  if (!band) return { part, seen };
  // The band is one line already, level: read as it is (the detector cuts its spaced characters apart).
  const along = await readCrop(alongBand(preview, band), context.signal);
  if (!along || along.text.trim() === '') return { part, seen };
  const whole = { x: 0, y: 0, width: 1, height: 1 };
  seen = [...seen, fromBand({ ...endsTrimmed(along), box: whole }, band, preview.width, preview.height)];
  return { part: textPartFrom(seen, context.inputMetaData), seen };
}

/** The first look found this many lines at most, for the second look. */
const FEW_PIECES = 3;
/** A run of a VIN's characters: no I, O or Q (ISO 3779). */
const PIECE = /^[A-HJ-NPR-Z0-9]+$/;
const VIN_LENGTH = 17;

/**
 * Whether the first look found only what may be pieces of a VIN: FEW_PIECES lines at most, each a run
 * of a VIN's characters, 2 of them at least together and fewer than a VIN's. A photo's stray short
 * words (`OTO`, `INSPECTION42`) and lone digits (`1`) do not pay for the second look; a windshield's `S`
 * and `A` do.
 */
export function onlyPieces(lines: readonly ReadLine[]): boolean {
  const texts = lines.map((line) => line.text.trim());
  const count = texts.join('').length;
  return (
    lines.length <= FEW_PIECES && texts.every((text) => PIECE.test(text)) && count >= 2 && count < VIN_LENGTH
  );
}

/** A line of the second look stands for the VIN only, as a closer look's do (./closer-look.ts). */
const forVinOnly = (line: ReadLine): ReadLine => ({ ...line, vinOnly: true });

export const textAnalyzer: ImageAnalyzer<typeof TextPart> = {
  name: 'text',
  version: 'pp-ocrv4-11',
  schema: TextPart,
  // A generous limit that only a stuck model reaches: a photo's lines take about 0.3 s, the first call
  // loads the models (about 0.3 s more). The limit never decides what is read, only whether it fails.
  timeoutMs: 30_000,
  // The models run off the JavaScript thread (onnxruntime's own), beside the vehicle detector.
  ownThread: true,
  analyse: readText,
};

// The form the reading bench compares readings in.
export { compact } from './text-part.js';
// The models' release (graceful shutdown, tests) is the text reader's.
export { closeOcr as closeTextReader } from './ocr/index.js';
