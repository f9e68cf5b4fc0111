// Resumable uploads behind a link, as the tus server hands them over: a new upload is checked before any
// byte is sent (its step, its size, its capture metadata, the link's unfinished uploads), and a finished
// one becomes the step's media, with its metadata. Upload ids start with the link's id, so a token
// reaches only its own uploads.
import { AppError } from '../../domain/errors.js';
import type { CaptureStaging } from '../../ports/capture-staging.js';
import type { Db } from '../../ports/database.js';
import type { OpenLink } from './capture.js';
import { checkCaptureMetadata, type UploadMetadata } from './capture-metadata.js';
import {
  checkCaptureStart,
  newCaptureUploadId,
  storeCapture,
  type CaptureStoreDeps,
} from './captured-media.js';

/** Unfinished uploads one link may hold at once for one step (a retake in flight beside the first try). */
const UNFINISHED_PER_STEP = 2;

export type CaptureUploadDeps = CaptureStoreDeps & { staging: CaptureStaging };

/**
 * The id of a new upload of the link: `<link>_<step>.<random>`, so that the unfinished uploads of one step
 * are counted by their prefix. A step the link does not have (refused right after) is named `-`, which
 * no step id can be, so nothing a client sends reaches the id, which is also a file name.
 */
export const captureUploadId = (open: OpenLink, stepId: string | null | undefined): string => {
  const step = open.steps.some((s) => s.id === stepId) ? stepId! : '-';
  return `${stepUploadPrefix(open, step)}${newCaptureUploadId()}`;
};

const stepUploadPrefix = (open: OpenLink, stepId: string) => `${open.link.id}_${stepId}.`;

/** Whether the upload is one of the link's. */
export const isLinkUpload = (open: OpenLink, uploadId: string): boolean =>
  uploadId.startsWith(`${open.link.id}_`);

/**
 * The size of an upload of the link that has finished and is the step's media, else undefined. A client
 * that lost the answer to its last PATCH asks HEAD before sending again: it must hear "complete", not
 * "unknown", or it would send the whole file once more.
 */
export async function finishedCaptureUpload(
  db: Db,
  open: OpenLink,
  uploadId: string,
): Promise<{ bytes: number } | undefined> {
  if (!isLinkUpload(open, uploadId)) return undefined;
  return db
    .selectFrom('link_media')
    .select('bytes')
    .where('id', '=', uploadId)
    .where('link_id', '=', open.link.id)
    .executeTakeFirst();
}

/** Checks a declared upload before any byte is sent; throws the AppError of the first broken rule. */
export async function startCaptureUpload(
  deps: CaptureUploadDeps,
  open: OpenLink,
  upload: { stepId: string | undefined; size: number | undefined; metadata: UploadMetadata | undefined },
): Promise<void> {
  checkCaptureStart(open, upload.stepId, upload.size);
  checkCaptureMetadata(open.persona, upload.metadata);
  // checkCaptureStart has made sure the step is one of the link's.
  const unfinished = await deps.staging.countUnfinished(stepUploadPrefix(open, upload.stepId!));
  if (unfinished >= UNFINISHED_PER_STEP) throw new AppError('CAPTURE_TOO_MANY_UPLOADS');
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
      source: await deps.staging.read(upload.id),
    });
  } catch (error) {
    if (error instanceof AppError) await deps.staging.remove(upload.id).catch(() => undefined);
    throw error;
  }
  await deps.staging.remove(upload.id);
}
