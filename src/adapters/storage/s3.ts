// Media in an S3-compatible bucket (scale mode). Bytes are staged under `staging/<uuid>` (multipart
// upload for large objects), then copied server-side to their content address: a content key only ever
// names a whole object. The bucket must exist; the service never creates it.
import crypto from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  NoSuchKey,
  NotFound,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { S3Settings } from '../../config.js';
import { hashingStream, stagedObject } from './staging.js';
import {
  contentKey,
  ObjectNotFoundError,
  type MediaStorage,
  type StagedObject,
  type StoredObject,
} from '../../ports/media-storage.js';

const STAGING = 'staging/';
const PART_SIZE = 8 * 1024 * 1024;

export function createS3Storage(settings: S3Settings): MediaStorage {
  const client = new S3Client({
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    // Checksums only where S3 demands them: many S3-compatible stores reject the SDK's default ones.
    // Integrity of what we store is checked by the SHA-256 content address anyway.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...(settings.endpoint && { endpoint: settings.endpoint }),
    ...(settings.credentials && { credentials: settings.credentials }),
  });
  const Bucket = settings.bucket;
  const remove = async (Key: string) => {
    await client.send(new DeleteObjectCommand({ Bucket, Key }));
  };
  const exists = async (Key: string) => {
    if (!Key) return false;
    try {
      await client.send(new HeadObjectCommand({ Bucket, Key }));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  };

  /** Copies a staged object to its content key unless that content is stored already, then drops it. */
  const publish = async (temp: string, sha256: string, bytes: number): Promise<StoredObject> => {
    const key = contentKey(sha256);
    const created = !(await exists(key));
    if (created)
      await client.send(new CopyObjectCommand({ Bucket, Key: key, CopySource: `${Bucket}/${temp}` }));
    await remove(temp);
    return { key, sha256, bytes, created };
  };

  const storage: MediaStorage = {
    async stage(source: Readable): Promise<StagedObject> {
      const temp = `${STAGING}${crypto.randomUUID()}`;
      const hashing = hashingStream();
      const body = new PassThrough();
      // Which side failed first decides the error: the source's own (callers recognise their limit
      // errors), or the store's, which the pipeline would only see as the abort of the body.
      let firstFailure: 'source' | 'store' | undefined;
      source.once('error', () => (firstFailure ??= 'source'));
      body.once('error', () => (firstFailure ??= 'store'));
      const upload = new Upload({
        client,
        params: { Bucket, Key: temp, Body: body },
        partSize: PART_SIZE,
        queueSize: 2,
        // A failed upload aborts its multipart upload before `done()` rejects.
        leavePartsOnError: false,
      });
      const uploading = upload.done();
      // A store that gave up stops reading: end the pipeline instead of waiting on backpressure.
      void uploading.catch((error: unknown) => body.destroy(error as Error));
      const [piped, uploaded] = await Promise.allSettled([pipeline(source, hashing, body), uploading]);
      const failure =
        uploaded.status === 'rejected' && firstFailure !== 'source'
          ? uploaded
          : piped.status === 'rejected'
            ? piped
            : uploaded;
      if (failure.status === 'rejected') {
        // Nothing should be there, but a staging object must never outlive a failed write.
        await remove(temp).catch(() => undefined);
        throw failure.reason;
      }
      const { sha256, bytes } = hashing.result();
      return stagedObject(sha256, bytes, {
        publish: () => publish(temp, sha256, bytes),
        drop: () => remove(temp),
      });
    },

    async put(source) {
      return (await storage.stage(source)).commit();
    },

    async get(key, range) {
      // An empty key would address the bucket itself (its listing would come back as the object).
      if (!key) throw new ObjectNotFoundError(key);
      try {
        const object = await client.send(
          new GetObjectCommand({
            Bucket,
            Key: key,
            ...(range && { Range: `bytes=${range.start}-${range.end}` }),
          }),
        );
        // In Node the SDK's body is an http.IncomingMessage (a Readable) with helper methods mixed in.
        return object.Body as Readable;
      } catch (error) {
        if (isMissing(error)) throw new ObjectNotFoundError(key);
        throw error;
      }
    },

    exists,

    async delete(key) {
      if (key) await remove(key);
    },

    async sweep(olderThanMs) {
      const cutoff = Date.now() - olderThanMs;
      let removed = 0;
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket, Prefix: STAGING, ContinuationToken }),
        );
        for (const object of page.Contents ?? []) {
          if (object.Key && object.LastModified && object.LastModified.getTime() < cutoff) {
            await remove(object.Key);
            removed++;
          }
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return removed + (await abortStaleUploads(client, Bucket, cutoff));
    },
  };
  return storage;
}

/** Multipart uploads a killed process never finished; stores without the listing call are skipped. */
async function abortStaleUploads(client: S3Client, Bucket: string, cutoff: number): Promise<number> {
  let aborted = 0;
  let KeyMarker: string | undefined;
  let UploadIdMarker: string | undefined;
  do {
    let page;
    try {
      page = await client.send(
        new ListMultipartUploadsCommand({ Bucket, Prefix: STAGING, KeyMarker, UploadIdMarker }),
      );
    } catch (error) {
      if (error instanceof S3ServiceException && error.name === 'NotImplemented') return aborted;
      throw error;
    }
    for (const upload of page.Uploads ?? []) {
      if (upload.Key && upload.UploadId && (upload.Initiated?.getTime() ?? 0) < cutoff) {
        await client.send(
          new AbortMultipartUploadCommand({ Bucket, Key: upload.Key, UploadId: upload.UploadId }),
        );
        aborted++;
      }
    }
    [KeyMarker, UploadIdMarker] = page.IsTruncated
      ? [page.NextKeyMarker, page.NextUploadIdMarker]
      : [undefined, undefined];
  } while (KeyMarker);
  return aborted;
}

function isMissing(error: unknown): boolean {
  return (
    error instanceof NoSuchKey ||
    error instanceof NotFound ||
    (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404)
  );
}

// The two helpers below are the same as in disk.ts: the adapters share no module yet.
