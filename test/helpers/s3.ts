// A real S3-protocol server (s3rver) on loopback, with a fresh bucket, for the storage and capture staging
// contract suites and the scale-mode tests. s3rver 3.7 lacks three multipart operations that tus's S3
// store uses: ListParts, AbortMultipartUpload and ListMultipartUploads (its sweep finds the uploads
// started too long ago with it); `multipartUploads` adds them over s3rver's own upload folders. S3 has no
// way to date an upload back, so `backdateUpload` sets the start of an upload in progress (s3rver keeps
// none: it is the time its folder's `key` file was written).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import type { S3Settings } from '../../src/config.js';

export interface S3Server {
  settings: S3Settings;
  /** Makes the multipart upload in progress of `key` look started at `when`. */
  backdateUpload(key: string, when: Date): void;
  close(): Promise<void>;
}

export async function startS3Server(): Promise<S3Server> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'walkaround-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory });
  // Before the router (the last middleware), which would answer these NotImplemented or MethodNotAllowed.
  const middleware = (server as unknown as { middleware: unknown[] }).middleware;
  middleware.splice(middleware.length - 1, 0, multipartUploads(directory));
  const close = async () => {
    await server.close();
    fs.rmSync(directory, { recursive: true, force: true });
  };
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const settings: S3Settings = {
    // s3rver wants names of 3 characters or more; it accepts only its own fixed credentials.
    bucket: 'walkaround-test',
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    forcePathStyle: true,
  };
  // The service assumes its bucket exists; the tests make it the way an operator would, through the API.
  const client = new S3Client({ ...settings, endpoint });
  try {
    await client.send(new CreateBucketCommand({ Bucket: settings.bucket }));
  } catch (error) {
    await close();
    throw error;
  } finally {
    client.destroy();
  }
  return {
    settings,
    backdateUpload(key, when) {
      const upload = uploadsOf(directory, settings.bucket).find((u) => u.key === key);
      if (!upload) throw new Error(`no multipart upload in progress for ${key}`);
      fs.utimesSync(path.join(upload.dir, 'key'), when, when);
    },
    close,
  };
}

interface KoaContext {
  method: string;
  path: string;
  query: Record<string, string | undefined>;
  status: number;
  type: string;
  body: unknown;
}

/** The multipart uploads in progress in `bucket`, from s3rver's folders (one per upload, its key inside). */
function uploadsOf(directory: string, bucket: string) {
  const root = path.join(directory, bucket, '._S3rver_uploads');
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root)
    .map((uploadId) => ({ uploadId, dir: path.join(root, uploadId) }))
    .filter(({ dir }) => fs.existsSync(path.join(dir, 'key')))
    .map(({ uploadId, dir }) => ({
      uploadId,
      dir,
      key: fs.readFileSync(path.join(dir, 'key'), 'utf8'),
      initiated: fs.statSync(path.join(dir, 'key')).mtime,
    }));
}

const xml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * ListMultipartUploads (GET /bucket?uploads, one page), ListParts (GET …?uploadId=) and
 * AbortMultipartUpload (DELETE …?uploadId=) over s3rver's upload folders.
 */
function multipartUploads(directory: string) {
  return async (ctx: KoaContext, next: () => Promise<void>) => {
    const [, bucket, ...keyParts] = ctx.path.split('/');
    if (ctx.method === 'GET' && bucket && keyParts.join('') === '' && ctx.query.uploads !== undefined) {
      const uploads = uploadsOf(directory, bucket)
        .sort((x, y) => x.key.localeCompare(y.key))
        .map(
          (u) =>
            `<Upload><Key>${xml(u.key)}</Key><UploadId>${u.uploadId}</UploadId>` +
            `<Initiated>${u.initiated.toISOString()}</Initiated></Upload>`,
        );
      ctx.type = 'application/xml';
      ctx.body =
        `<?xml version="1.0" encoding="UTF-8"?><ListMultipartUploadsResult><Bucket>${bucket}</Bucket>` +
        `<IsTruncated>false</IsTruncated>${uploads.join('')}</ListMultipartUploadsResult>`;
      return;
    }
    const uploadId = ctx.query.uploadId;
    if (uploadId === undefined || !bucket || keyParts.length === 0 || !/^[0-9a-f]+$/.test(uploadId))
      return next();
    const uploadDir = path.join(directory, bucket, '._S3rver_uploads', uploadId);
    if (ctx.method === 'DELETE') {
      fs.rmSync(uploadDir, { recursive: true, force: true });
      ctx.status = 204;
      return;
    }
    if (ctx.method !== 'GET') return next();
    if (!fs.existsSync(uploadDir)) {
      ctx.status = 404;
      ctx.type = 'application/xml';
      ctx.body =
        '<Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message></Error>';
      return;
    }
    const parts = fs
      .readdirSync(uploadDir)
      .filter((name) => /^\d+$/.test(name))
      .map(Number)
      .sort((x, y) => x - y)
      .map((number) => {
        const file = path.join(uploadDir, String(number));
        const md5 = fs.readFileSync(`${file}.md5`, 'utf8');
        const { size, mtime } = fs.statSync(file);
        return `<Part><PartNumber>${number}</PartNumber><LastModified>${mtime.toISOString()}</LastModified><ETag>"${md5}"</ETag><Size>${size}</Size></Part>`;
      });
    ctx.type = 'application/xml';
    ctx.body =
      `<?xml version="1.0" encoding="UTF-8"?><ListPartsResult><Bucket>${bucket}</Bucket>` +
      `<Key>${xml(keyParts.join('/'))}</Key><UploadId>${uploadId}</UploadId><IsTruncated>false</IsTruncated>` +
      `${parts.join('')}</ListPartsResult>`;
  };
}
