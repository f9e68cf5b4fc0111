// The client an integrator generates from the OpenAPI document (docs/examples/client.ts, typed by
// docs/examples/api.d.ts) works against the real service: authenticate, upload by URLs and as files,
// and read the inspection back until its result is there. The types are checked by `tsc` (npm run
// check); here the calls run, and every answer is checked against the document (RESPONSE_CONTRACT).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { walkaround, type Walkaround } from '../../docs/examples/client.js';
import { startWorker, type RunningWorker } from '../../src/workers/run.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { photo } from '../helpers/media.js';
import { startMediaServer, type MediaServer } from '../helpers/media-server.js';

describe('the client generated from the OpenAPI document', () => {
  let t: TestApp;
  let worker: RunningWorker;
  let media: MediaServer;
  let client: Walkaround;

  beforeAll(async () => {
    t = await startTestApp('sqlite');
    worker = await startWorker(t.deps);
    media = await startMediaServer();
    const { apiKey } = await t.newClient();
    client = walkaround(await t.listen(), apiKey);
  }, 120_000);
  afterAll(async () => {
    await worker?.stop();
    await media?.close();
    await t?.close();
  });

  /** The inspection once analysed (the worker runs in this process). */
  async function analysed(session: string) {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const inspection = await client.inspection(session);
      if (inspection.status === 'completed' || inspection.status === 'failed') return inspection;
      if (Date.now() > deadline) throw new Error(`${session} still ${inspection.status}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  it('uploads by URLs and reads the result', async () => {
    const session = await client.uploadUrls(
      'generated-urls',
      [`${media.url}/photo/home.jpg`, `${media.url}/photo/exif.jpg`],
      'https://hooks.example.com/generated',
    );
    const inspection = await analysed(session);
    expect(inspection).toMatchObject({
      id: session,
      case_id: 'generated-urls',
      status: 'completed',
      source: 'urls',
    });
    expect(inspection.media.map((m) => m.mime)).toEqual(['image/jpeg', 'image/jpeg']);
    expect(inspection.result?.summary.media_count).toBe(2);
  }, 90_000);

  it('uploads files as multipart and reads the result', async () => {
    const session = await client.uploadFiles(
      'generated-files',
      [{ name: 'front.jpg', bytes: photo('scenetext01.jpg') }],
      'https://hooks.example.com/generated',
    );
    const inspection = await analysed(session);
    expect(inspection).toMatchObject({ case_id: 'generated-files', status: 'completed', source: 'file' });
    expect(inspection.media[0]?.original_id).toBe('front.jpg');
    expect(inspection.result?.media[0]?.analysis.vehicles?.present).toBe(true);
  }, 90_000);

  it('reports the error the service answers, with its message', async () => {
    await expect(client.inspection('no-such-session')).rejects.toThrow('inspection: 404 Not found');
  });
});
