// Scale mode without sticky routing: with media in S3, an unfinished capture upload lives in the bucket,
// so an upload created on one api process is resumed and finished on another, each with its own
// DATA_DIR (nothing shared but PostgreSQL and S3), and the link is submitted (docs/links.md).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { S3Settings } from '../../src/config.js';
import { photo } from '../helpers/media.js';
import { createPostgresDatabase } from '../helpers/postgres.js';
import { demoKey, startServer, type RunningServer } from '../helpers/process.js';
import { startS3Server } from '../helpers/s3.js';
import { captureClient } from '../helpers/tus-client.js';

describe('capture uploads across two api processes, on PostgreSQL and S3', () => {
  const servers: RunningServer[] = [];
  const dataDirs: string[] = [];
  let cleanups: Array<() => Promise<void>> = [];
  let a: RunningServer;
  let b: RunningServer;
  let key: string;
  let s3Settings: S3Settings;

  beforeAll(async () => {
    const s3 = await startS3Server();
    s3Settings = s3.settings;
    const database = await createPostgresDatabase();
    cleanups = [() => s3.close(), () => database.drop()];
    const shared = {
      DATABASE_URL: database.url,
      SECRET_KEY: crypto.randomBytes(32).toString('hex'),
      S3_BUCKET: s3.settings.bucket,
      S3_ENDPOINT: s3.settings.endpoint!,
      S3_ACCESS_KEY_ID: s3.settings.credentials!.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.settings.credentials!.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
    };
    const start = async (role: string) => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `walkaround-scale-${role}-`));
      dataDirs.push(dataDir);
      const server = await startServer({ ...shared, DATA_DIR: dataDir }, ['--role', role]);
      servers.push(server);
      return server;
    };
    a = await start('api');
    key = demoKey(a.output())!;
    b = await start('api');
    await start('worker');
  }, 120_000);
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    for (const cleanup of cleanups) await cleanup();
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('creates an upload on one process, resumes and finishes it on the other, and submits', async () => {
    const persona = await fetch(`${a.url}/api/personas`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({
        kind: 'photo',
        steps: [
          { id: 'front', label: 'Front', instructions: 'The front.', required: true, overlay: 'front' },
        ],
      }),
    });
    expect(persona.status).toBe(201);
    const { id: personaId } = (await persona.json()) as { id: number };
    const link = await fetch(`${a.url}/superappToken`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiKey: key, personaId }),
    });
    const { token } = (await link.json()) as { token: string };

    const image = photo('scenetext01.jpg');
    const half = Math.floor(image.length / 2);
    const onA = captureClient(a.url, token);
    const onB = captureClient(b.url, token);
    const created = await onA.create('front', image.length);
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    expect((await onA.patch(location, 0, image.subarray(0, half))).status).toBe(204);

    // The other process knows the upload and its offset, and takes the rest.
    expect(await onB.offset(location)).toBe(half);
    expect((await onB.patch(location, half, image.subarray(half))).status).toBe(204);

    const flow = await fetch(`${a.url}/app/api/flow`, { headers: { authorization: `Bearer ${token}` } });
    expect(JSON.stringify(await flow.json())).toContain('front');
    const submitted = await fetch(`${b.url}/app/api/submit`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(submitted.status).toBe(200);
    // Nothing of the upload stays on either process's disk, nor in the bucket beside the media.
    for (const dir of dataDirs) expect(fs.existsSync(path.join(dir, 'capture-uploads'))).toBe(false);
    const client = new S3Client({ ...s3Settings, endpoint: s3Settings.endpoint! });
    try {
      const listed = await client.send(new ListObjectsV2Command({ Bucket: s3Settings.bucket }));
      const keys = (listed.Contents ?? []).map((o) => o.Key!);
      expect(keys.filter((k) => k.startsWith(location.split('/').pop()!))).toEqual([]);
    } finally {
      client.destroy();
    }
  });
});
