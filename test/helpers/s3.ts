// A real S3-protocol server (s3rver) on loopback, with a fresh bucket, for the storage contract suite.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import type { S3Settings } from '../../src/config.js';

export async function startS3Server(): Promise<{ settings: S3Settings; close(): Promise<void> }> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'walkaround-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory });
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
