// Resumable uploads behind a link, as the tus server hands them over: a new upload is checked before any
// byte is sent (its step, its size, its capture metadata, the link's unfinished uploads), and a finished
// one becomes the step's media, with its metadata. Upload ids start with the link's id, so a token
// reaches only its own uploads.
import { AppError } from '../../domain/errors.js';
import type { CaptureStaging } from '../../ports/capture-staging.js';
import type { OpenLink } from './capture.js';
import { checkCaptureMetadata, type UploadMetadata } from './capture-metadata.js';
import {
  checkCaptureStart,
  newCaptureUploadId,
  storeCapture,
  type CaptureStoreDeps,
} from './captured-media.js';

/** Unfinished uploads one link may hold at once, per step of its persona (retakes in flight). */
const UNFINISHED_PER_STEP = 2;

export type CaptureUploadDeps = CaptureStoreDeps & { staging: CaptureStaging };

/** The id of a new upload of the link. */
export const captureUploadId = (open: OpenLink): string => `${open.link.id}_${newCaptureUploadId()}`;

/** Whether the upload is one of the link's. */
export const isLinkUpload = (open: OpenLink, uploadId: string): boolean =>
  uploadId.startsWith(`${open.link.id}_`);

/** Checks a declared upload before any byte is sent; throws the AppError of the first broken rule. */
export async function startCaptureUpload(
  deps: CaptureUploadDeps,
  open: OpenLink,
  upload: { stepId: string | undefined; size: number | undefined; metadata: UploadMetadata | undefined },
): Promise<void> {
  checkCaptureStart(open, upload.stepId, upload.size);
  checkCaptureMetadata(open.persona, upload.metadata);
  const unfinished = await deps.staging.countUnfinished(`${open.link.id}_`);
  if (unfinished >= UNFINISHED_PER_STEP * open.steps.length) throw new AppError('CAPTURE_TOO_MANY_UPLOADS');
}

/**
 * Streams a finished upload into media storage as the step's media, then drops it from staging.
 * Refused bytes are dropped too (a retry starts a new upload); after a failure of ours they stay, so
 * the app's retry of the last PATCH finishes the upload without sending it again. The metadata is the
 * one tus kept from the creation, checked again against the persona as it is now (it may have changed
 * while the bytes were on their way).
 */
export async function finishCaptureUpload(
  deps: CaptureUploadDeps,
  open: OpenLink,
  upload: { id: string; stepId: string; metadata: UploadMetadata | undefined },
): Promise<void> {
  try {
    const metadata = checkCaptureMetadata(open.persona, upload.metadata);
    await storeCapture(deps, open, {
      uploadId: upload.id,
      stepId: upload.stepId,
      metadata,
      source: deps.staging.read(upload.id),
    });
  } catch (error) {
    if (error instanceof AppError) await deps.staging.remove(upload.id).catch(() => undefined);
    throw error;
  }
  await deps.staging.remove(upload.id);
}
