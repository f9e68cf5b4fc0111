// The capture app's quality pre-check of one photo (blur, exposure, resolution), run off the event loop
// that serves HTTP: decoding a photo (HEIC through wasm, synchronously) would stall it.
import type { QualityPart } from '../domain/result/image-parts.js';

export interface PhotoQuality {
  /** The photo's quality, or 'undecodable'; rejects with PhotoQualityBusyError when the queue is full. */
  check(path: string, mime: string): Promise<QualityPart | 'undecodable'>;
  close(): Promise<void>;
}

export class PhotoQualityBusyError extends Error {
  override name = 'PhotoQualityBusyError';
}
