// The whole inspection-link flow over HTTP (docs/api.md#superapptoken, docs/api.md#capture-api): token → flow
// → resumable uploads of each step, one cut off half-way and resumed → submit → the analysed result reaches
// the client's webhook, signed.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InspectionResult } from '../../src/domain/result/index.js';
import { createPersona } from '../../src/services/personas/manage.js';
import { startWorker, type RunningWorker } from '../../src/workers/run.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { MB, photo, syntheticStream } from '../helpers/media.js';
import { captureClient } from '../helpers/tus-client.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

const sha256 = (bytes: Buffer) => crypto.createHash('sha256').update(bytes).digest('hex');

async function synthetic(kind: 'mp4', bytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of syntheticStream(kind, bytes)) chunks.push(chunk as Buffer);
  // Random filler after the header: identical content would be stored once and prove nothing.
  const whole = Buffer.concat(chunks);
  crypto.randomFillSync(whole, 4096);
  return whole;
}

describe('inspection link flow', () => {
  let t: TestApp;
  let worker: RunningWorker;
  let base: string;
  let receiver: Receiver;
  let client: { id: string; apiKey: string; webhookSecret: string };

  beforeAll(async () => {
    t = await startTestApp('sqlite');
    worker = await startWorker(t.deps);
    base = await t.listen();
    receiver = await startReceiver(() => client.webhookSecret);
    client = await t.newClient({ webhookUrl: `http://media.test:${receiver.port}/hooks` });
  }, 60_000);
  afterAll(async () => {
    await worker?.stop();
    await t?.close();
    await receiver?.close();
  });

  /** Whether the server holds `bytes` bytes of the unfinished upload (tus keeps them on local disk). */
  const holds = (location: string, bytes: number) => () => {
    const file = path.join(t.environment.dataDir, 'capture-uploads', location.split('/').pop()!);
    return fs.existsSync(file) && fs.statSync(file).size >= bytes;
  };

  const newToken = async (personaId: number) => {
    const response = await fetch(`${base}/superappToken`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        apiKey: client.apiKey,
        personaId,
        clientId: client.id,
        caseId: 'FLOW-1',
        inputMetaData: { licensePlate: 'AB-123-CD' },
      }),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { token: string }).token;
  };

  it('runs from token to signed result, with one upload resumed after a cut', async () => {
    const steps = ['front', 'plate', 'rear'].map((id) => ({
      id,
      label: id,
      instructions: `Photograph the ${id}.`,
      required: true,
      overlay: id,
    }));
    const persona = await createPersona(t.deps, { clientId: client.id, kind: 'photo', steps });
    const token = await newToken(persona.id);
    const auth = { authorization: `Bearer ${token}` };

    const flow = (await (await fetch(`${base}/app/api/flow`, { headers: auth })).json()) as {
      link_id: string;
      persona: { steps: { id: string }[] };
      missing_steps: string[];
    };
    expect(flow.missing_steps).toEqual(['front', 'plate', 'rear']);

    const capture = captureClient(base, token);
    const files: Record<string, Buffer> = {
      front: photo('home.jpg'),
      plate: photo('licenseplate_motion.jpg'),
      rear: photo('scenetext01.jpg'),
    };
    for (const step of ['front', 'plate']) {
      const { response } = await capture.upload(step, files[step]!);
      expect(response.status).toBe(204);
    }
    // The rear photo: half sent, the connection dropped, then resumed from the server's offset.
    const rear = files.rear!;
    const created = await capture.create('rear', rear.length);
    const location = created.headers.get('location')!;
    const half = Math.floor(rear.length / 2);
    await capture.cutOff(location, 0, rear.length, rear.subarray(0, half), holds(location, half));
    const offset = await capture.offset(location);
    expect(offset).toBe(half);
    expect((await capture.patch(location, offset, rear.subarray(offset))).status).toBe(204);

    const submitted = await fetch(`${base}/app/api/submit`, { method: 'POST', headers: auth });
    expect(submitted.status).toBe(200);
    const inspectionId = flow.link_id;

    const deadline = Date.now() + 90_000;
    while (!receiver.received.some((r) => r.type === 'inspection.completed')) {
      if (Date.now() > deadline) throw new Error('no inspection.completed delivered');
      await new Promise((r) => setTimeout(r, 100));
    }
    const types = receiver.received.map((r) => r.type);
    expect(types).toEqual(
      expect.arrayContaining([
        'link.opened',
        'inspection.received',
        'link.submitted',
        'inspection.completed',
      ]),
    );
    expect(receiver.received.every((r) => r.verified)).toBe(true);
    const completed = receiver.received.find((r) => r.type === 'inspection.completed')!;
    const read = await fetch(`${base}/api/inspections/${inspectionId}`, {
      headers: { 'x-api-key': client.apiKey },
    });
    const inspection = (await read.json()) as {
      status: string;
      case_id: string;
      result: unknown;
      media: { sha256: string }[];
    };
    expect(inspection).toMatchObject({ status: 'completed', case_id: 'FLOW-1' });
    expect(completed.body.data).toEqual(inspection.result);
    // The resumed photo arrived whole: the stored bytes are the original's.
    expect(inspection.media.map((m) => m.sha256)).toEqual([
      sha256(files.front!),
      sha256(files.plate!),
      sha256(rear),
    ]);
  }, 120_000);

  it("shows each item's capture facts in the result and flags the gallery and the far-away photo", async () => {
    const steps = ['front', 'plate', 'rear', 'left'].map((id) => ({
      id,
      label: id,
      instructions: `Photograph the ${id}.`,
      required: true,
      overlay: id,
    }));
    const persona = await createPersona(t.deps, {
      clientId: client.id,
      kind: 'photo',
      steps,
      allowGallery: true,
      askLocation: true,
    });
    const token = await newToken(persona.id);
    const capture = captureClient(base, token);
    const metadata = (source: string, latitude: number) => ({
      source,
      captured_at: '2026-11-23T10:05:12+01:00',
      orientation: 'portrait-primary',
      latitude: String(latitude),
      longitude: '2.3522',
      accuracy: '8',
    });
    // Three photos within a few metres; the left one 0.02° (about 2.2 km) further north.
    const uploads: [string, string, Record<string, string>][] = [
      ['front', 'home.jpg', metadata('camera', 48.8566)],
      ['plate', 'licenseplate_motion.jpg', metadata('gallery', 48.85665)],
      ['rear', 'scenetext01.jpg', metadata('camera', 48.85655)],
      ['left', 'exif.jpg', metadata('camera', 48.8766)],
    ];
    for (const [step, file, facts] of uploads)
      expect((await capture.upload(step, photo(file), facts)).response.status).toBe(204);
    const submitted = await fetch(`${base}/app/api/submit`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    const { id } = (await submitted.json()) as { id: string };

    const deadline = Date.now() + 90_000;
    let result: InspectionResult | null = null;
    while (!result) {
      if (Date.now() > deadline) throw new Error('the inspection was not analysed in time');
      const read = await fetch(`${base}/api/inspections/${id}`, { headers: { 'x-api-key': client.apiKey } });
      const body = (await read.json()) as { status: string; result: InspectionResult | null };
      if (body.status === 'completed') result = body.result;
      else await new Promise((r) => setTimeout(r, 200));
    }
    expect([...Value.Errors(InspectionResult, result)].map((e) => `${e.path}: ${e.message}`)).toEqual([]);
    expect(result.media.map((m) => m.original_id)).toEqual(['front', 'plate', 'rear', 'left']);
    expect(result.media[0]!.capture).toEqual({
      source: 'camera',
      captured_at: '2026-11-23T10:05:12+01:00',
      orientation: 'portrait-primary',
      location: { latitude: 48.8566, longitude: 2.3522, accuracy_m: 8 },
      distance_from_others_m: expect.any(Number) as number,
    });
    const distances = result.media.map((m) => m.capture!.distance_from_others_m!);
    expect(distances.slice(0, 3).every((d) => d < 20)).toBe(true);
    expect(distances[3]).toBeGreaterThan(2000);
    const captureFlags = result.media.map((m) =>
      m.flags.filter((f) => f === 'picked_from_gallery' || f === 'captured_far_from_others'),
    );
    expect(captureFlags).toEqual([[], ['picked_from_gallery'], [], ['captured_far_from_others']]);
    expect(result.summary.flag_counts).toMatchObject({ picked_from_gallery: 1, captured_far_from_others: 1 });
  }, 120_000);

  it('closes a link when its validity ends: the worker records link.expired and the token is refused', async () => {
    const persona = await createPersona(t.deps, { clientId: client.id, kind: 'photo' });
    const token = await newToken(persona.id);
    const link = await t.deps.db
      .selectFrom('links')
      .selectAll()
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    // Bring the end of validity (and the job waiting for it) to now instead of waiting 72 hours.
    const now = Date.now();
    await t.deps.db.updateTable('links').set({ expires_at: now }).where('id', '=', link.id).execute();
    await t.deps.db
      .updateTable('jobs')
      .set({ run_at: now })
      .where('key', '=', `expire-link:${link.id}`)
      .execute();

    const deadline = Date.now() + 30_000;
    const expired = () =>
      receiver.received.find((r) => r.type === 'link.expired' && r.body.data.link_id === link.id);
    while (!expired()) {
      if (Date.now() > deadline) throw new Error('no link.expired delivered');
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(expired()!.body.data).toMatchObject({ status: 'expired', case_id: 'FLOW-1' });
    const flow = await fetch(`${base}/app/api/flow`, { headers: { authorization: `Bearer ${token}` } });
    expect(flow.status).toBe(410);
  }, 60_000);

  it('resumes a 20 MB upload cut at 10 MB by sending only the remaining 10 MB', async () => {
    const persona = await createPersona(t.deps, { clientId: client.id, kind: 'video' });
    const token = await newToken(persona.id);
    const capture = captureClient(base, token);
    const video = await synthetic('mp4', 20 * MB);
    const created = await capture.create('walkaround', video.length);
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;

    await capture.cutOff(location, 0, video.length, video.subarray(0, 10 * MB), holds(location, 10 * MB));
    const offset = await capture.offset(location);
    expect(offset).toBe(10 * MB);
    const rest = video.subarray(offset);
    expect(rest.length).toBe(10 * MB);
    const finished = await capture.patch(location, offset, rest);
    expect(finished.status).toBe(204);
    expect(Number(finished.headers.get('upload-offset'))).toBe(20 * MB);

    const stored = await t.deps.db
      .selectFrom('link_media')
      .selectAll()
      .where('step_id', '=', 'walkaround')
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ kind: 'video', bytes: 20 * MB, sha256: sha256(video) });
  }, 60_000);
});
