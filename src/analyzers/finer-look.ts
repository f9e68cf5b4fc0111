// A VIN plate under a windshield, seen steeply from above, has characters a few preview pixels high: at
// the detector's 640 px they leave no trace in its map at all, at 800 px they make one line. Detecting at
// 800 px for every photo read drum counters worse (the detector splits them at the gaps between
// drums), so a finer look is taken only where the first found no text of a VIN's substance, and what
// it reads is taken for the VIN only, which its check digit guards
// (docs/adr/0015-pp-ocr-for-plates-vins-and-odometers.md).
import type { RgbImage } from './ocr/index.js';
import { readLines, type ReadLine } from './text-lines.js';

/** The detector's long side for the finer look (the first look's is 640 px). */
const FINER_SIDE = 800;
/** A line with this many letters and digits at least is text of substance, read already. */
const SUBSTANCE = 5;

/** Whether the first look's lines leave room for small text it missed: none of them holds much. */
export const mayHideSmallText = (lines: readonly ReadLine[]): boolean =>
  lines.every((line) => (line.text.match(/[A-Z0-9]/g) ?? []).length < SUBSTANCE);

/** The lines the detector finds at FINER_SIDE, for the VIN only. */
export async function finerLook(preview: RgbImage, signal?: AbortSignal): Promise<ReadLine[]> {
  const lines = await readLines(preview, signal, FINER_SIDE);
  return lines.map((line) => ({ ...line, vinOnly: true }));
}
