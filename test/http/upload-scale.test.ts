// Scale mode for uploads: media in an S3-compatible bucket, quota counters in Redis shared by two api
// processes (two apps on one PostgreSQL database here).
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildDeps } from '../../src/deps.js';
import { buildApp } from '../../src/http/app.js';
import { startHeartbeat } from '../../src/services/worker-heartbeat.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { photo } from '../helpers/media.js';
import { startS3Server } from '../helpers/s3.js';
import { uploadClient } from '../helpers/upload-client.js';

// The Redis the global setup found answering; without one the Redis test is skipped (the run says so).
const REDIS_URL = inject('redisUrl');

describe('upload in scale mode (PostgreSQL, S3, Redis)', () => {
  let s3: Awaited<ReturnType<typeof startS3Server>>;
  let t: TestApp;
  let baseUrl: string;

  beforeAll(async () => {
    s3 = await startS3Server();
    const { settings } = s3;
    t = await startTestApp('postgres', {
      S3_BUCKET: settings.bucket,
      S3_ENDPOINT: settings.endpoint!,
      S3_ACCESS_KEY_ID: settings.credentials!.accessKeyId,
      S3_SECRET_ACCESS_KEY: settings.credentials!.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
      ...(REDIS_URL ? { REDIS_URL } : {}),
    });
    baseUrl = await t.listen();
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
    // Quota counters expire in Redis by themselves, keyed by the random client ids of this run.
  });

  it('stores the files in the bucket under their content address', async () => {
    const client = await t.newClient({ webhookUrl: 'https://hooks.example.com/x' });
    const api = uploadClient(baseUrl);
    const c = await api.credentials(client.apiKey);
    const res = await api.files(c.refresh_token, { type: 'file', session: c.session, case_id: 'k' }, [
      { name: 'a.jpg', content: photo('home.jpg') },
    ]);
    expect(res.status).toBe(200);
    const s3client = new S3Client({ ...s3.settings, endpoint: s3.settings.endpoint! });
    const listing = await s3client.send(new ListObjectsV2Command({ Bucket: s3.settings.bucket }));
    s3client.destroy();
    expect((listing.Contents ?? []).map((o) => o.Key)).toEqual([
      expect.stringMatching(/^sha256\/[0-9a-f]{2}\/[0-9a-f]{64}$/),
    ]);
  });

  it.skipIf(!REDIS_URL)('shares the quota between two api processes through Redis', async () => {
    const client = await t.newClient({ webhookUrl: 'https://hooks.example.com/x', quotaPerHour: 2 });
    const second = await buildDeps(t.environment.config);
    const secondApp = await buildApp(second);
    const stop = await startHeartbeat(second, 'second-worker');
    try {
      const apis = [
        uploadClient(baseUrl),
        uploadClient(await secondApp.listen({ port: 0, host: '127.0.0.1' })),
      ];
      const statuses: number[] = [];
      for (const api of [apis[0]!, apis[1]!, apis[0]!]) {
        const c = await api.credentials(client.apiKey);
        const res = await api.files(c.refresh_token, { type: 'file', session: c.session, case_id: 'q' }, [
          { name: 'a.jpg', content: photo('exif.jpg') },
        ]);
        statuses.push(res.status);
      }
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      await stop();
      await secondApp.close();
      await second.close();
    }
  });
});
