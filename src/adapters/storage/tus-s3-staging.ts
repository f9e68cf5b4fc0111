// Unfinished capture uploads in the S3 bucket (tus's S3Store: an S3 multipart upload per upload, with a
// `<id>.info` object describing it), so that any api process can resume any upload: no sticky routing in
// scale mode. Keys sit at the bucket's root beside the media (`sha256/…`), named `<link>_<step>.<random>`.
// An hourly sweep (and one at start) aborts uploads left untouched past their time.
import { Readable } from 'node:stream';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { S3Store } from '@tus/s3-store';
import type { S3Settings } from '../../config.js';
import type { CaptureStaging } from '../../ports/capture-staging.js';

/** S3's smallest part but the last; phones send 5 MB photos, so most uploads are one part. */
const PART_SIZE = 5 * 1024 * 1024;

export function createTusS3Staging(opts: {
  s3: S3Settings;
  /** An unfinished upload untouched this long is dropped. */
  ttlMs: number;
  logger: { warn(obj: object, msg: string): void };
}): CaptureStaging {
  const clientConfig = {
    region: opts.s3.region,
    forcePathStyle: opts.s3.forcePathStyle,
    // As for media storage: checksums only where S3 demands them (S3-compatible stores differ).
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...(opts.s3.endpoint && { endpoint: opts.s3.endpoint }),
    ...(opts.s3.credentials && { credentials: opts.s3.credentials }),
  } as const;
  const datastore = new S3Store({
    partSize: PART_SIZE,
    expirationPeriodInMilliseconds: opts.ttlMs,
    s3ClientConfig: { ...clientConfig, bucket: opts.s3.bucket },
  });
  const client = new S3Client(clientConfig);
  const sweep = () =>
    datastore
      .deleteExpired()
      .catch((err: unknown) => opts.logger.warn({ err }, 'capture upload sweep failed'));
  const sweeper = setInterval(() => void sweep(), 3600_000).unref();
  void sweep();
  return {
    datastore,
    async countUnfinished(prefix) {
      // Each upload has one `.info` object from its creation until it is removed.
      let count = 0;
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: opts.s3.bucket, Prefix: prefix, ContinuationToken: token }),
        );
        count += (page.Contents ?? []).filter((o) => o.Key?.endsWith('.info')).length;
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return count;
    },
    async read(id) {
      try {
        return await datastore.read(id);
      } catch (error) {
        // An empty upload is finished at its creation, and no part is ever written: S3 has no object
        // for it, and its bytes are none.
        if ((error as { name?: string }).name === 'NoSuchKey' && (await datastore.getUpload(id)).size === 0)
          return Readable.from([]);
        throw error;
      }
    },
    remove: (id) => datastore.remove(id),
    async close() {
      clearInterval(sweeper);
      client.destroy();
    },
  };
}
