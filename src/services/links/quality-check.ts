// The capture app's quality pre-check of one photo, so it can ask for a retake before uploading: the
// body streams through the upload rules (an image, under the image size limit) to a scratch file that is
// removed afterwards; nothing is kept. The body may be a preview of the photo, with the original's size
// in the query (see original-size.ts).
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../../domain/errors.js';
import { LIMITS } from '../../domain/limits.js';
import type { QualityPart } from '../../domain/result/image-parts.js';
import { PhotoQualityBusyError, type PhotoQuality } from '../../ports/photo-quality.js';
import { enforceBelow, MediaGuard } from '../upload/media-guard.js';
import { newCaptureUploadId } from './captured-media.js';
import { judgedOnOriginal, originalSizeOf } from './original-size.js';

/** Seconds the app is told to wait when every quality-check slot is taken. */
const QUALITY_RETRY_SECONDS = 5;

export async function checkPhotoQuality(
  deps: { photoQuality: PhotoQuality; scratchDir: string },
  body: Readable,
  query: { width?: string; height?: string } = {},
): Promise<{ quality: QualityPart }> {
  // Checked before the body is read: a bad query is refused without receiving the photo.
  const original = originalSizeOf(query);
  await fs.promises.mkdir(deps.scratchDir, { recursive: true });
  const file = path.join(deps.scratchDir, `quality-${newCaptureUploadId()}`);
  const guard = new MediaGuard({
    expectedKind: 'image',
    onBytes: (_kind, total) => enforceBelow(total, LIMITS.imageMaxBytes, 'UPLOAD_IMAGE_TOO_LARGE'),
  });
  try {
    await pipeline(body, guard, fs.createWriteStream(file));
    if (!guard.sniffed) throw new AppError('CAPTURE_IMAGE_REQUIRED');
    const checked = await deps.photoQuality.check(file, guard.sniffed.mime);
    // Content that looked like an image but does not decode (truncated, corrupt) is the app's.
    if (checked === 'undecodable') throw new AppError('CAPTURE_IMAGE_REQUIRED');
    return { quality: original ? judgedOnOriginal(checked, original) : checked };
  } catch (error) {
    if (error instanceof AppError && error.code === 'UPLOAD_UNSUPPORTED_MEDIA')
      throw new AppError('CAPTURE_IMAGE_REQUIRED');
    if (error instanceof PhotoQualityBusyError)
      throw new AppError('CAPTURE_BUSY', { retryAfterSeconds: QUALITY_RETRY_SECONDS });
    throw error;
  } finally {
    await fs.promises.rm(file, { force: true });
  }
}
