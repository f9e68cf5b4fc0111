// The capture API behind a link (docs/api.md#capture-api) over real HTTP: the token and nothing else opens
// it; tus uploads per step with the upload API's rules; the quality pre-check; submit makes the inspection.
import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QualityPart } from '../../src/domain/result/image-parts.js';
import { linkOfToken, type FlowView } from '../../src/services/links/capture.js';
import { storeCapture } from '../../src/services/links/captured-media.js';
import { hashLinkToken } from '../../src/services/links/tokens.js';
import { expireLink } from '../../src/services/links/expire-link.js';
import { createPersona } from '../../src/services/personas/manage.js';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { MB, photo } from '../helpers/media.js';
import { captureClient } from '../helpers/tus-client.js';

const FRONT = photo('home.jpg');
const PLATE = photo('licenseplate_motion.jpg');

describe.each(BACKENDS)('capture API on %s', (backend) => {
  let t: TestApp;
  let base: string;
  let client: { id: string; apiKey: string };
  let shortPersona: number;
  let fullPersona: number;
  let videoPersona: number;

  beforeAll(async () => {
    t = await startTestApp(backend);
    base = await t.listen();
    client = await t.newClient({ webhookUrl: 'https://hooks.example.com/walkaround' });
    const steps = [
      { id: 'front', label: 'Front', instructions: 'The whole front.', required: true, overlay: 'front' },
      { id: 'plate', label: 'Plate', instructions: 'The rear plate.', required: false, overlay: 'plate' },
    ];
    shortPersona = (await createPersona(t.deps, { clientId: client.id, kind: 'photo', steps })).id;
    fullPersona = (await createPersona(t.deps, { clientId: client.id, kind: 'photo', language: 'de' })).id;
    videoPersona = (await createPersona(t.deps, { clientId: client.id, kind: 'video' })).id;
  });
  afterAll(() => t.close());

  async function newLink(personaId = shortPersona, extra: object = {}) {
    const response = await t.app.inject({
      method: 'POST',
      url: '/superappToken',
      payload: { apiKey: client.apiKey, personaId, caseId: 'CASE-7', ...extra },
    });
    const { token } = response.json<{ token: string }>();
    const link = await t.deps.db
      .selectFrom('links')
      .selectAll()
      .where('token_hash', '=', hashLinkToken(token))
      .executeTakeFirstOrThrow();
    return { token, link, capture: captureClient(base, token) };
  }
  const call = (path: string, token: string | undefined, init: RequestInit = {}) =>
    fetch(`${base}/app/api/${path}`, {
      ...init,
      headers: { ...(token && { authorization: `Bearer ${token}` }), ...init.headers },
    });
  const events = (linkId: string) =>
    t.deps.db
      .selectFrom('webhook_messages')
      .select(['event_type', 'payload'])
      .where((eb) => eb.or([eb('inspection_id', '=', linkId), eb('payload', 'like', `%${linkId}%`)]))
      .orderBy('created_at')
      .execute();

  it('reads the flow: steps, branding, language, time left; the first read records link.opened once', async () => {
    const { token, link } = await newLink(fullPersona);
    const [first, second] = await Promise.all([call('flow', token), call('flow', token)]);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    const flow = (await first.json()) as FlowView;
    expect(flow).toMatchObject({ link_id: link.id, case_id: 'CASE-7', uploaded: [] });
    expect(flow.persona).toMatchObject({ kind: 'photo', language: 'de', branding: { name: 'Test client' } });
    expect(flow.persona.steps.map((s) => s.id)).toEqual([
      'front',
      'front_right',
      'right',
      'rear_right',
      'rear',
      'rear_left',
      'left',
      'front_left',
      'odometer',
      'vin',
      'plate',
    ]);
    expect(flow.missing_steps).toHaveLength(11);
    expect(flow.seconds_left).toBeGreaterThan(71 * 3600);
    const opened = (await events(link.id)).filter((e) => e.event_type === 'link.opened');
    expect(opened).toHaveLength(1);
    expect((JSON.parse(opened[0]!.payload) as { data: unknown }).data).toMatchObject({
      link_id: link.id,
      case_id: 'CASE-7',
    });
  });

  it('accepts the link token and nothing else', async () => {
    const { token } = await newLink();
    for (const path of ['flow', 'submit', 'quality', 'uploads']) {
      const method = path === 'flow' ? 'GET' : 'POST';
      for (const bad of [
        undefined,
        'x',
        token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A'),
        client.apiKey,
      ]) {
        const response = await call(path, bad, { method, headers: { 'tus-resumable': '1.0.0' } });
        expect(response.status, `${method} ${path} with ${bad}`).toBe(401);
        expect(await response.json()).toEqual({ status: 'error', message: 'Link not valid' });
      }
    }
  });

  it('refuses an expired link with 410; the expiry job records link.expired and drops the captures', async () => {
    const { token, link, capture } = await newLink();
    const unique = Buffer.concat([FRONT, Buffer.from(link.id)]); // bytes stored nowhere else
    await capture.upload('front', unique);
    const [captured] = await t.deps.db
      .selectFrom('link_media')
      .selectAll()
      .where('link_id', '=', link.id)
      .execute();
    expect(await t.deps.storage.exists(captured!.storage_key)).toBe(true);
    await t.deps.db
      .updateTable('links')
      .set({ expires_at: Date.now() - 1 })
      .where('id', '=', link.id)
      .execute();
    const response = await call('flow', token);
    expect(response.status).toBe(410);
    expect(await response.json()).toEqual({ status: 'error', message: 'This link has expired' });
    await expireLink({ ...t.deps, publicBaseUrl: t.deps.config.publicBaseUrl }, link.id);
    await expireLink({ ...t.deps, publicBaseUrl: t.deps.config.publicBaseUrl }, link.id); // idempotent
    const row = await t.deps.db
      .selectFrom('links')
      .select('status')
      .where('id', '=', link.id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('expired');
    expect((await events(link.id)).filter((e) => e.event_type === 'link.expired')).toHaveLength(1);
    expect(
      await t.deps.db.selectFrom('link_media').select('id').where('link_id', '=', link.id).execute(),
    ).toEqual([]);
    expect(await t.deps.storage.exists(captured!.storage_key)).toBe(false);
  });

  it('enqueues the expiry with the link, at its end of validity', async () => {
    const { link } = await newLink();
    const job = await t.deps.queue.state(`expire-link:${link.id}`);
    expect(job).toMatchObject({ status: 'pending' });
    expect(Math.abs(job!.runAt - link.expires_at)).toBeLessThan(1000);
  });

  it('stores a step upload through the storage port; a retake replaces it', async () => {
    const { token, link, capture } = await newLink();
    const first = await capture.upload('front', FRONT);
    expect(first.response.status).toBe(204);
    const retake = await capture.upload('front', PLATE);
    expect(retake.response.status).toBe(204);
    const rows = await t.deps.db
      .selectFrom('link_media')
      .selectAll()
      .where('link_id', '=', link.id)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      step_id: 'front',
      kind: 'image',
      mime: 'image/jpeg',
      bytes: PLATE.length,
    });
    expect(await t.deps.storage.exists(rows[0]!.storage_key)).toBe(true);
    const flow = (await (await call('flow', token)).json()) as FlowView;
    expect(flow.uploaded).toEqual([expect.objectContaining({ step_id: 'front', bytes: PLATE.length })]);
    expect(flow.missing_steps).toEqual([]);
  });

  it('applies the upload rules: known step, size, content, kind', async () => {
    const { capture } = await newLink();
    const unknown = await capture.create('rear_window', FRONT.length);
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toEqual({ status: 'error', message: 'Unknown step rear_window' });

    const huge = await capture.create('front', 70 * MB);
    expect(huge.status).toBe(400);
    expect(await huge.json()).toEqual({ status: 'error', message: 'Please upload image less than 70 MB.' });

    const text = Buffer.from('not a photo at all, just text\n'.repeat(200));
    const notImage = await capture.upload('front', text);
    expect(notImage.response.status).toBe(415);
    expect(await notImage.response.json()).toEqual({
      status: 'error',
      message: 'unsupported file type only images or videos',
    });

    const video = await newLink(videoPersona);
    const small = await video.capture.create('walkaround', 512 * 1024);
    expect(small.status).toBe(400);
    expect(await small.json()).toEqual({
      status: 'error',
      message: 'Please upload video greater than 1 MB.',
    });
    const tooBig = await video.capture.create('walkaround', 100 * MB);
    expect(tooBig.status).toBe(413);
    const photoForVideo = await video.capture.create('walkaround', 2 * MB);
    expect(photoForVideo.status).toBe(201);
    const bytes = Buffer.concat([FRONT, Buffer.alloc(2 * MB - FRONT.length)]);
    const wrongKind = await video.capture.patch(photoForVideo.headers.get('location')!, 0, bytes);
    expect(wrongKind.status).toBe(400);
    expect(await wrongKind.json()).toEqual({ status: 'error', message: 'This step takes a video' });
  });

  it("never reaches another link's upload", async () => {
    const mine = await newLink();
    const theirs = await newLink();
    const created = await theirs.capture.create('front', FRONT.length);
    const location = created.headers.get('location')!;
    const response = await mine.capture.patch(location, 0, FRONT);
    expect(response.status).toBe(404);
    expect(await theirs.capture.offset(location)).toBe(0);
  });

  it("never reaches another link's upload through a crafted URL", async () => {
    const mine = await newLink();
    const theirs = await newLink();
    const created = await theirs.capture.create('front', FRONT.length);
    const victim = created.headers.get('location')!.split('/').pop()!;
    const crafted = `${base}/app/api/uploads/${mine.link.id}_x?a=/${victim}`;
    for (const method of ['HEAD', 'DELETE', 'PATCH'] as const) {
      const response = await fetch(crafted, {
        method,
        headers: {
          authorization: `Bearer ${mine.token}`,
          'tus-resumable': '1.0.0',
          'upload-offset': '0',
          'content-type': 'application/offset+octet-stream',
        },
        ...(method === 'PATCH' && { body: FRONT }),
      });
      expect(response.status, method).toBe(404);
    }
    expect(await theirs.capture.offset(created.headers.get('location')!)).toBe(0);
  });

  it('refuses an upload that finishes after the submit, keeping nothing of it', async () => {
    const { token, link, capture } = await newLink();
    await capture.upload('front', FRONT);
    const late = await capture.create('plate', PLATE.length);
    const location = late.headers.get('location')!;
    expect((await call('submit', token, { method: 'POST' })).status).toBe(200);
    // The token is spent: the app cannot even reach the upload any more.
    expect((await capture.patch(location, 0, PLATE)).status).toBe(409);
    const rows = await t.deps.db
      .selectFrom('link_media')
      .select('step_id')
      .where('link_id', '=', link.id)
      .execute();
    expect(rows).toEqual([{ step_id: 'front' }]);
  });

  it('refuses a capture already under way when the link is submitted meanwhile', async () => {
    const { token, link, capture } = await newLink();
    const seenBefore = await linkOfToken(t.deps, token); // the upload was authorised before the submit
    await capture.upload('front', FRONT);
    expect((await call('submit', token, { method: 'POST' })).status).toBe(200);
    const unique = Buffer.concat([PLATE, Buffer.from(link.id)]); // bytes stored nowhere else
    const late = storeCapture(t.deps, seenBefore, {
      uploadId: 'late',
      stepId: 'plate',
      metadata: null,
      source: Readable.from([unique]),
    });
    await expect(late).rejects.toMatchObject({ code: 'CAPTURE_LINK_SUBMITTED' });
    const sha = crypto.createHash('sha256').update(unique).digest('hex');
    expect(await t.deps.storage.exists(`sha256/${sha.slice(0, 2)}/${sha}`)).toBe(false);
    const media = await t.deps.db
      .selectFrom('media')
      .select('original_id')
      .where('inspection_id', '=', link.id)
      .execute();
    expect(media).toEqual([{ original_id: 'front' }]);
  });

  it('answers HEAD on a finished upload with its whole length, so a client that lost the last answer does not send it again', async () => {
    const { capture } = await newLink();
    const { location, response } = await capture.upload('front', FRONT);
    expect(response.status).toBe(204);
    expect(await capture.offset(location)).toBe(FRONT.length);
  });

  it('caps the unfinished uploads of each step at two; other steps and finished uploads are not held back', async () => {
    const { capture } = await newLink();
    const tooMany = {
      status: 'error',
      message: 'Too many unfinished uploads for this link',
    };
    const first = await capture.create('front', FRONT.length);
    expect((await capture.create('front', FRONT.length)).status).toBe(201);
    for (let i = 0; i < 20; i++) {
      const more = await capture.create('front', FRONT.length);
      expect({ status: more.status, body: await more.json() }).toEqual({ status: 429, body: tooMany });
    }
    // Another step has its own two.
    for (let i = 0; i < 2; i++) expect((await capture.create('plate', PLATE.length)).status).toBe(201);
    expect((await capture.create('plate', PLATE.length)).status).toBe(429);
    // Finishing one of the step's uploads frees its place.
    expect((await capture.patch(first.headers.get('location')!, 0, FRONT)).status).toBe(204);
    expect((await capture.create('front', FRONT.length)).status).toBe(201);
  });

  it('checks the quality of one photo without keeping it', async () => {
    const { token } = await newLink();
    const response = await call('quality', token, {
      method: 'POST',
      headers: { 'content-type': 'image/jpeg' },
      body: FRONT,
    });
    expect(response.status).toBe(200);
    const { quality } = (await response.json()) as { quality: QualityPart };
    for (const check of [quality.blur, quality.exposure, quality.resolution])
      expect(typeof check.pass).toBe('boolean');
    expect(quality.pass).toBe(quality.blur.pass && quality.exposure.pass && quality.resolution.pass);
    expect(quality.resolution).toMatchObject({ width: 512, height: 384, pass: false });
    const text = await call('quality', token, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: 'hello',
    });
    expect(text.status).toBe(400);
    expect(await text.json()).toEqual({ status: 'error', message: 'A JPEG, PNG or HEIC image is required' });
    const truncated = await call('quality', token, {
      method: 'POST',
      headers: { 'content-type': 'image/jpeg' },
      body: FRONT.subarray(0, 6000),
    });
    expect(truncated.status).toBe(400);
    expect(await truncated.json()).toEqual({
      status: 'error',
      message: 'A JPEG, PNG or HEIC image is required',
    });
  });

  it("judges a preview's resolution on the original size given as width and height", async () => {
    const { token } = await newLink();
    const check = (query: string) =>
      call(`quality${query}`, token, {
        method: 'POST',
        headers: { 'content-type': 'image/jpeg' },
        body: FRONT,
      });
    const alone = ((await (await check('')).json()) as { quality: QualityPart }).quality;
    expect(alone.resolution.pass).toBe(false); // 512 × 384

    for (const query of ['?width=4032&height=3024', '?height=4032&width=3024']) {
      const response = await check(query);
      expect(response.status).toBe(200);
      const { quality } = (await response.json()) as { quality: QualityPart };
      expect(quality.blur).toEqual(alone.blur);
      expect(quality.exposure).toEqual(alone.exposure);
      expect(quality.resolution).toMatchObject({ score: 3024, megapixels: 12.19, pass: true });
      expect(quality.pass).toBe(quality.blur.pass && quality.exposure.pass);
    }
    const small = ((await (await check('?width=1000&height=700')).json()) as { quality: QualityPart })
      .quality;
    expect(small.resolution).toMatchObject({ width: 1000, height: 700, score: 700, pass: false });
    expect(small.pass).toBe(false);

    for (const [query, reason] of [
      ['?width=4032', 'width and height go together'],
      ['?height=3024', 'width and height go together'],
      ['?width=0&height=3024', 'width must be a whole number from 1 to 100000'],
      ['?width=4032&height=100001', 'height must be a whole number from 1 to 100000'],
      ['?width=4032.5&height=3024', 'width must be a whole number from 1 to 100000'],
      ['?width=500&height=384', 'the photo sent is larger than width × height'],
    ]) {
      const response = await check(query!);
      expect(response.status, query).toBe(400);
      expect(await response.json()).toEqual({ status: 'error', message: `Invalid original size: ${reason}` });
    }
  });

  it('submits: the same inspection, job and events as an upload; the token is then spent', async () => {
    const { token, link, capture } = await newLink(shortPersona, {
      inputMetaData: { licensePlate: 'AB-123-CD' },
    });
    const early = await call('submit', token, { method: 'POST' });
    expect(early.status).toBe(400);
    expect(await early.json()).toEqual({ status: 'error', message: 'Nothing was captured' });
    await capture.upload('plate', PLATE);
    const missing = await call('submit', token, { method: 'POST' });
    expect(await missing.json()).toEqual({ status: 'error', message: 'Missing required steps: front' });
    await capture.upload('front', FRONT);

    const submitted = await call('submit', token, { method: 'POST' });
    expect(submitted.status).toBe(200);
    expect(await submitted.json()).toEqual({ status: 'success', id: link.id, case_id: 'CASE-7' });
    const inspection = await t.deps.db
      .selectFrom('inspections')
      .selectAll()
      .where('id', '=', link.id)
      .executeTakeFirstOrThrow();
    expect(inspection).toMatchObject({
      client_id: client.id,
      source: 'link',
      status: 'queued',
      case_id: 'CASE-7',
    });
    expect(JSON.parse(inspection.input_metadata!)).toEqual({ licensePlate: 'AB-123-CD' });
    const media = await t.deps.db
      .selectFrom('media')
      .select(['position', 'original_id', 'bytes'])
      .where('inspection_id', '=', link.id)
      .orderBy('position')
      .execute();
    expect(media).toEqual([
      { position: 0, original_id: 'front', bytes: FRONT.length },
      { position: 1, original_id: 'plate', bytes: PLATE.length },
    ]);
    expect(await t.deps.queue.state(`analyse-inspection:${link.id}`)).toMatchObject({ status: 'pending' });
    expect((await events(link.id)).map((e) => e.event_type)).toEqual(
      expect.arrayContaining(['inspection.received', 'link.submitted']),
    );

    for (const path of ['flow', 'submit']) {
      const again = await call(path, token, { method: path === 'flow' ? 'GET' : 'POST' });
      expect(again.status).toBe(409);
      expect(await again.json()).toEqual({
        status: 'error',
        message: 'This inspection was already submitted',
      });
    }
    expect((await capture.create('front', FRONT.length)).status).toBe(409);
  });

  it('lets only one of two concurrent submits through', async () => {
    const { token, capture } = await newLink();
    await capture.upload('front', FRONT);
    const answers = await Promise.all([1, 2, 3].map(() => call('submit', token, { method: 'POST' })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
  });
});
