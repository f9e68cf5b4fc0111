// Analysis end to end (docs/result.md): real uploads over HTTP, a real worker with its analysis threads,
// results read back through the API and validated against the published schema.
import { CLI_ACTOR } from '../../src/services/audit.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InspectionResult } from '../../src/domain/result/index.js';
import { requestReanalysis } from '../../src/services/reanalysis.js';
import { startWorker, type RunningWorker } from '../../src/workers/run.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { startKserveServer } from '../helpers/kserve-server.js';
import { photo } from '../helpers/media.js';
import { uploadClient } from '../helpers/upload-client.js';
import { makeMp4 } from '../helpers/video.js';
import { writeTestModel } from '../helpers/onnx-model.js';

type Result = InspectionResult;

describe('analysis end to end', () => {
  let t: TestApp;
  let worker: RunningWorker;
  let api: ReturnType<typeof uploadClient>;
  let baseUrl: string;
  let client: { id: string; apiKey: string };
  let scratch: string;

  beforeAll(async () => {
    t = await startTestApp('sqlite', { JOB_LEASE: '5s' });
    worker = await startWorker(t.deps);
    baseUrl = await t.listen();
    api = uploadClient(baseUrl);
    client = await t.newClient({ webhookUrl: 'https://hooks.example.com/x' });
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'walkaround-analysis-'));
  }, 120_000);
  afterAll(async () => {
    await worker?.stop();
    await t?.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  async function upload(files: { name: string; content?: Buffer; file?: string }[], metadata?: object) {
    const c = await api.credentials(client.apiKey);
    const fields: Record<string, string> = { type: 'file', session: c.session, case_id: 'analysis' };
    if (metadata) fields.inputMetaData = JSON.stringify(metadata);
    const res = await api.files(c.refresh_token, fields, files);
    expect(res.status).toBe(200);
    return c.session;
  }

  async function resultOf(session: string, version = 1): Promise<Result> {
    const deadline = Date.now() + 120_000;
    for (;;) {
      const res = await fetch(`${baseUrl}/api/inspections/${session}`, {
        headers: { 'x-api-key': client.apiKey },
      });
      const body = (await res.json()) as { status: string; result: Result | null };
      if (body.status === 'completed' && body.result && body.result.version >= version) {
        const errors = [...Value.Errors(InspectionResult, body.result)].slice(0, 5);
        expect(errors.map((e) => `${e.path}: ${e.message}`)).toEqual([]);
        return body.result;
      }
      if (body.status === 'failed') throw new Error(`analysis failed: ${JSON.stringify(body.result)}`);
      if (Date.now() > deadline) throw new Error(`no result for ${session}: ${body.status}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  const byName = (result: Result, name: string) => result.media.find((m) => m.original_id === name)!;

  it('analyses the shared photos: blur, vehicles, EXIF, HEIC', async () => {
    const session = await upload([
      { name: 'licenseplate_motion.jpg', content: photo('licenseplate_motion.jpg') },
      { name: 'home.jpg', content: photo('home.jpg') },
      { name: 'exif.jpg', content: photo('exif.jpg') },
      { name: 'scene.heic', content: photo('scene.heic') },
    ]);
    const result = await resultOf(session);
    expect(result.status).toBe('completed');
    const plate = byName(result, 'licenseplate_motion.jpg');
    expect(plate.flags).toContain('blurry');
    expect(plate.analysis.vehicles?.present).toBe(true);
    const home = byName(result, 'home.jpg');
    expect(home.analysis.vehicles?.present).toBe(false);
    expect(home.flags).toContain('no_vehicle');
    const exif = byName(result, 'exif.jpg').analysis.exif!;
    expect(exif.capture_time).toBeTruthy();
    expect(exif.gps).toBeTruthy();
    expect(exif.software).toBeTruthy();
    const heic = byName(result, 'scene.heic');
    expect(heic.width).toBeGreaterThan(0);
    expect(heic.analysis.quality).toBeDefined();
    expect(result.media.every((m) => m.analysis.damage?.status === 'not_configured')).toBe(true);
    expect(result.analyzers.map((a) => a.name).sort()).toEqual(
      ['damage', 'exif', 'fingerprint', 'quality', 'text', 'vehicles'].sort(),
    );
  });

  it('flags the same photo in two inspections of one client as reused', async () => {
    await resultOf(await upload([{ name: 'first.jpg', content: photo('scenetext01.jpg') }]));
    const second = await resultOf(await upload([{ name: 'again.jpg', content: photo('scenetext01.jpg') }]));
    const again = byName(second, 'again.jpg');
    expect(again.flags).toContain('reused');
    expect(again.analysis.fingerprint?.matches[0]?.distance).toBe(0);
  });

  it('yields keyframes of an MP4, each analysed', async () => {
    const video = await makeMp4(scratch, 'walk.mp4', 4);
    const result = await resultOf(await upload([{ name: 'walk.mp4', file: video }]));
    const item = result.media[0]!;
    expect(item.kind).toBe('video');
    expect(item.duration_seconds).toBeGreaterThan(3);
    const keyframes = item.analysis.video!.keyframes;
    expect(keyframes.length).toBeGreaterThanOrEqual(3);
    expect(keyframes[0]!.analysis).toBeDefined();
  });

  it('re-analysis makes a new version of the result', async () => {
    const session = await upload([{ name: 'home.jpg', content: photo('home.jpg') }]);
    expect((await resultOf(session)).version).toBe(1);
    await requestReanalysis(t.deps, session, CLI_ACTOR);
    expect((await resultOf(session, 2)).version).toBe(2);
  });
});

describe('analysis with a damage model configured', () => {
  /** Uploads one photo and waits for its damage analysis. */
  async function damageOf(t: TestApp) {
    const api = uploadClient(await t.listen());
    const client = await t.newClient({ webhookUrl: 'https://hooks.example.com/x' });
    const c = await api.credentials(client.apiKey);
    const res = await api.files(c.refresh_token, { type: 'file', session: c.session, case_id: 'dmg' }, [
      { name: 'car.jpg', content: photo('scenetext01.jpg') },
    ]);
    expect(res.status).toBe(200);
    let result: InspectionResult | null = null;
    for (let i = 0; i < 600 && !result; i++) {
      const read = await t.app.inject({
        url: `/api/inspections/${c.session}`,
        headers: { 'x-api-key': client.apiKey },
      });
      const body = read.json<{ status: string; result: InspectionResult | null }>();
      if (body.status === 'completed') result = body.result;
      else await new Promise((r) => setTimeout(r, 100));
    }
    return result!.media[0]!;
  }

  it('reports the damages of the model (built by the test) through the local ONNX adapter', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'walkaround-model-'));
    const model = writeTestModel(dir);
    const t = await startTestApp('sqlite', {
      DAMAGE_MODEL_PATH: model.modelPath,
      DAMAGE_LABELS_PATH: model.labelsPath,
    });
    const worker = await startWorker(t.deps);
    try {
      const media = await damageOf(t);
      const damage = media.analysis.damage!;
      expect(damage.status).toBe('ok');
      expect([...new Set(damage.damages.map((d) => d.type))].sort()).toEqual(['crack', 'dent', 'scratch']);
      expect(media.flags).toContain('damage');
    } finally {
      await worker.stop();
      await t.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it("reaches the operator's KServe model server on loopback with ALLOW_PRIVATE_NETWORKS off", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'walkaround-model-'));
    const model = writeTestModel(dir);
    const server = await startKserveServer({ modelPath: model.modelPath, labels: model.labels });
    // The model server is configured by the operator, so it is trusted: no ALLOW_PRIVATE_NETWORKS.
    const t = await startTestApp('sqlite', { DAMAGE_KSERVE_URL: server.url });
    const worker = await startWorker(t.deps);
    try {
      expect(t.deps.config.outbound.allowPrivateNetworks).toBe(false);
      const damage = (await damageOf(t)).analysis.damage!;
      expect(damage).toMatchObject({ status: 'ok', model: { backend: 'kserve' } });
      expect([...new Set(damage.damages.map((d) => d.type))].sort()).toEqual(['crack', 'dent', 'scratch']);
      expect(server.requests.some((r) => r.path.endsWith('/infer'))).toBe(true);
    } finally {
      await worker.stop();
      await t.close();
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
