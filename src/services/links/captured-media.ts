// Media captured behind a link: the same type and size rules as the upload API (docs/api.md#limits), checked
// when the resumable upload is declared and again on the bytes as they move to storage. One media per
// step: a retake replaces the earlier capture.
import crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type Db, inTransaction, type LinkMediaRow } from '../../ports/database.js';
import type { CaptureMetadata } from '../../domain/capture-metadata.js';
import { AppError } from '../../domain/errors.js';
import { LIMITS, type MediaKind } from '../../domain/limits.js';
import type { MediaStorage } from '../../ports/media-storage.js';
import { deleteIfUnreferenced } from '../stored-objects.js';
import { enforceBelow, MediaGuard } from '../upload/media-guard.js';
import type { OpenLink } from './capture.js';

/** The kind of media a link's persona takes. */
export const kindOf = (open: OpenLink): MediaKind => (open.persona.kind === 'photo' ? 'image' : 'video');

/** Largest upload the capture API accepts at all (the largest video, exclusive). */
export const CAPTURE_MAX_BYTES = LIMITS.fileVideoMaxBytes - 1;

/** Checks a declared upload before any byte is sent: the step exists and the size is allowed. */
export function checkCaptureStart(
  open: OpenLink,
  stepId: string | undefined,
  length: number | undefined,
): void {
  if (!open.steps.some((step) => step.id === stepId))
    throw new AppError('CAPTURE_UNKNOWN_STEP', { params: { step: stepId ?? '(none)' } });
  if (length === undefined) return;
  if (kindOf(open) === 'image') return enforceBelow(length, LIMITS.imageMaxBytes, 'UPLOAD_IMAGE_TOO_LARGE');
  if (length <= LIMITS.videoMinBytes) throw new AppError('UPLOAD_VIDEO_TOO_SMALL');
  enforceBelow(length, LIMITS.fileVideoMaxBytes, 'UPLOAD_FILE_VIDEO_TOO_LARGE');
}

export interface CaptureStoreDeps {
  db: Db;
  storage: MediaStorage;
  now: () => number;
}

/**
 * Streams a finished upload into storage (sniffed and size-checked) and makes it the step's media, with
 * its checked capture metadata (null when the app sent none).
 */
export async function storeCapture(
  deps: CaptureStoreDeps,
  open: OpenLink,
  capture: { uploadId: string; stepId: string; metadata: CaptureMetadata | null; source: Readable },
): Promise<LinkMediaRow> {
  const expected = kindOf(open);
  const guard = new MediaGuard({
    expectedKind: undefined,
    onKind: ({ kind }) => {
      if (kind !== expected)
        throw new AppError('CAPTURE_WRONG_KIND', {
          params: { kind: expected === 'image' ? 'photo' : 'video' },
        });
    },
    onBytes: (kind, total) =>
      kind === 'video'
        ? enforceBelow(total, LIMITS.fileVideoMaxBytes, 'UPLOAD_FILE_VIDEO_TOO_LARGE')
        : enforceBelow(total, LIMITS.imageMaxBytes, 'UPLOAD_IMAGE_TOO_LARGE'),
  });
  // The pipeline's failure and the storage's rejection are the same error; report it once.
  const [piped, put] = await Promise.allSettled([pipeline(capture.source, guard), deps.storage.put(guard)]);
  if (put.status === 'rejected') throw put.reason;
  if (piped.status === 'rejected') throw piped.reason;
  const stored = put.value;
  if (expected === 'video' && stored.bytes <= LIMITS.videoMinBytes) {
    await deleteIfUnreferenced(deps, stored);
    throw new AppError('UPLOAD_VIDEO_TOO_SMALL');
  }

  const row: LinkMediaRow = {
    id: capture.uploadId,
    link_id: open.link.id,
    step_id: capture.stepId,
    kind: expected,
    storage_key: stored.key,
    sha256: stored.sha256,
    bytes: stored.bytes,
    mime: guard.sniffed!.mime,
    capture_metadata: capture.metadata === null ? null : JSON.stringify(capture.metadata),
    created_at: deps.now(),
  };
  let replaced: Pick<LinkMediaRow, 'storage_key' | 'sha256'> | undefined;
  try {
    replaced = await inTransaction(deps.db, async (trx) => {
      await lockOpenLink(trx, open.link.id, deps.now());
      const earlier = await trx
        .deleteFrom('link_media')
        .where('link_id', '=', row.link_id)
        .where('step_id', '=', row.step_id)
        .returning(['storage_key', 'sha256'])
        .executeTakeFirst();
      await trx.insertInto('link_media').values(row).execute();
      return earlier;
    });
  } catch (error) {
    await deleteIfUnreferenced(deps, stored).catch(() => undefined);
    throw error;
  }
  if (replaced && replaced.sha256 !== row.sha256)
    await deleteIfUnreferenced(deps, { key: replaced.storage_key, sha256: replaced.sha256 });
  return row;
}

/**
 * Checks, inside `trx`, that the link is still open, and holds its row until the transaction ends
 * (PostgreSQL row lock; SQLite serialises writers anyway): a submit and a capture of one link never
 * interleave, so a submit sees either the capture or none of it, and a capture after the submit or the
 * expiry is refused.
 */
export async function lockOpenLink(trx: Db, linkId: string, now: number): Promise<void> {
  const held = await trx
    .updateTable('links')
    .set({ status: 'open' })
    .where('id', '=', linkId)
    .where('status', '=', 'open')
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (Number(held.numUpdatedRows) === 1) return;
  const link = await trx.selectFrom('links').select('status').where('id', '=', linkId).executeTakeFirst();
  throw new AppError(link?.status === 'submitted' ? 'CAPTURE_LINK_SUBMITTED' : 'CAPTURE_LINK_EXPIRED');
}

/** A fresh id for a resumable upload: the link's uploads are told apart by it alone. */
export const newCaptureUploadId = (): string => crypto.randomBytes(16).toString('hex');
