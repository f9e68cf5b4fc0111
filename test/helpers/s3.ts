// A real S3-protocol server (s3rver) on loopback, with a fresh bucket, for the storage contract suite and
// the scale-mode tests. s3rver 3.7 lacks two multipart operations that tus's S3 store uses, ListParts and
// AbortMultipartUpload; `multipartExtras` adds them, reading s3rver's own files of the upload's parts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import type { S3Settings } from '../../src/config.js';

export async function startS3Server(): Promise<{ settings: S3Settings; close(): Promise<void> }> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'walkaround-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory });
  // Before the router (the last middleware), which would answer these MethodNotAllowed.
  const middleware = (server as unknown as { middleware: unknown[] }).middleware;
  middleware.splice(middleware.length - 1, 0, multipartExtras(directory));
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
  return { settings, close };
}

interface KoaContext {
  method: string;
  path: string;
  query: Record<string, string | undefined>;
  status: number;
  type: string;
  body: unknown;
}

/** ListParts (GET …?uploadId=) and AbortMultipartUpload (DELETE …?uploadId=) over s3rver's upload folders. */
function multipartExtras(directory: string) {
  return async (ctx: KoaContext, next: () => Promise<void>) => {
    const uploadId = ctx.query.uploadId;
    const [, bucket, ...keyParts] = ctx.path.split('/');
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
      `<Key>${keyParts.join('/')}</Key><UploadId>${uploadId}</UploadId><IsTruncated>false</IsTruncated>` +
      `${parts.join('')}</ListPartsResult>`;
  };
}
