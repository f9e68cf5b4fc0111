// Runs inside a quality-check thread (see quality-pool.ts): decoding a photo (HEIC through wasm,
// synchronously) would stall the event loop that serves the capture app.
import { prepareImage } from '../analyzers/prepare.js';
import { assessQuality } from '../analyzers/quality.js';
import type { QualityPart } from '../domain/result/image-parts.js';

export default async function checkQuality(input: { path: string; mime: string }): Promise<QualityPart> {
  return assessQuality(await prepareImage(input.path, input.mime));
}
