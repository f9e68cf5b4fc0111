// Runs inside a quality-check thread (see quality-pool.ts): decoding a photo (HEIC through wasm,
// synchronously) would stall the event loop that serves the capture app.
import { ImageDecodeError, prepareImage } from '../analyzers/prepare.js';
import { assessQuality } from '../analyzers/quality.js';
import type { QualityPart } from '../domain/result/image-parts.js';

/** The assessment, or 'undecodable' for bytes that are not a whole image (errors do not keep their
 * class across threads, so the answer says it). */
export default async function checkQuality(input: {
  path: string;
  mime: string;
}): Promise<QualityPart | 'undecodable'> {
  try {
    return assessQuality(await prepareImage(input.path, input.mime));
  } catch (error) {
    if (error instanceof ImageDecodeError) return 'undecodable';
    throw error;
  }
}
