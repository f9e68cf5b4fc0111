// A `callback_url` the outbound guard would refuse is refused when it is given (ADR 12): 400 in the
// upload's body shape, naming ALLOW_PRIVATE_NETWORKS, on both upload variants, and nothing kept. The
// service here runs the production guard (the test app's own lets loopback play the internet).
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { buildDeps, type Deps } from '../../src/deps.js';
import { buildApp } from '../../src/http/app.js';
import { registerListener } from '../../src/services/webhooks/listeners.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { photo } from '../helpers/media.js';
import { startMediaServer, type MediaServer } from '../helpers/media-server.js';
import { uploadClient } from '../helpers/upload-client.js';

const REFUSAL =
  'points to a private address (<host>): refused unless the operator sets ALLOW_PRIVATE_NETWORKS=true; to receive webhooks on this machine, run walkaround webhooks listen';
const refusal = (host: string) => `callback_url ${REFUSAL.replace('<host>', host)}`;

describe('a private callback_url', () => {
  let t: TestApp;
  let media: MediaServer;
  let client: { id: string; apiKey: string };
  /** One service per setting of ALLOW_PRIVATE_NETWORKS, on the test app's database. */
  const services: { deps: Deps; app: FastifyInstance; api: ReturnType<typeof uploadClient> }[] = [];
  let strict: (typeof services)[number];
  let relaxed: (typeof services)[number];

  beforeAll(async () => {
    // The test app stands in for a live worker, so that uploads are taken.
    t = await startTestApp('sqlite');
    media = await startMediaServer();
    client = await t.newClient();
    for (const allow of ['false', 'true']) {
      const deps = await buildDeps(loadConfig({ ...t.environment.env, ALLOW_PRIVATE_NETWORKS: allow }));
      const app = await buildApp(deps);
      const api = uploadClient(await app.listen({ port: 0, host: '127.0.0.1' }));
      services.push({ deps, app, api });
    }
    [strict, relaxed] = services as [typeof strict, typeof relaxed];
  });
  afterAll(async () => {
    for (const { app, deps } of services) {
      await app.close();
      await deps.close();
    }
    await media?.close();
    await t?.close();
  });

  /** Media on loopback by address: the relaxed service fetches them (media.test is the test app's name). */
  const mediaUrl = () => `${media.url.replace('media.test', '127.0.0.1')}/photo/home.jpg`;
  const byUrls = async (service: typeof strict, callback: string, key = client.apiKey) => {
    const c = await service.api.credentials(key);
    const body = {
      type: 'urls',
      session: c.session,
      case_id: 'cb-1',
      urls: [mediaUrl()],
      callback_url: callback,
    };
    return { session: c.session, res: await service.api.urls(c.refresh_token, body) };
  };
  const asFiles = async (service: typeof strict, callback: string, key = client.apiKey) => {
    const c = await service.api.credentials(key);
    const fields = { type: 'file', session: c.session, case_id: 'cb-2', callback_url: callback };
    const files = [{ name: 'a.jpg', content: photo('home.jpg') }];
    return { session: c.session, res: await service.api.files(c.refresh_token, fields, files) };
  };
  const inspections = async (session: string) =>
    (await t.deps.db.selectFrom('inspections').select('id').where('id', '=', session).execute()).length;

  it.each([
    ['http://localhost:9000/hook', 'localhost'],
    ['http://127.0.0.1:9000/hook', '127.0.0.1'],
    ['http://2130706433/hook', '127.0.0.1'],
    ['http://[::1]:9000/hook', '[::1]'],
    ['http://10.0.0.1/hook', '10.0.0.1'],
    ['http://169.254.169.254/latest/meta-data/', '169.254.169.254'],
    ['http://[::ffff:192.168.0.1]/hook', '[::ffff:c0a8:1]'],
  ])('%s: 400 on both variants, in the upload body shape, nothing kept', async (callback, host) => {
    for (const [upload, caseId] of [
      [byUrls, 'cb-1'],
      [asFiles, 'cb-2'],
    ] as const) {
      const { session, res } = await upload(strict, callback);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ status: 'error', id: session, message: refusal(host), case_id: caseId });
      expect(await inspections(session)).toBe(0);
    }
  });

  it('is taken, on both variants, when the operator sets ALLOW_PRIVATE_NETWORKS=true', async () => {
    for (const upload of [byUrls, asFiles]) {
      const { session, res } = await upload(relaxed, 'http://localhost:9000/hook');
      expect(res.status).toBe(200);
      expect(await inspections(session)).toBe(1);
    }
  });

  it('is taken when it names a live local listener of the client (walkaround webhooks listen)', async () => {
    await registerListener(t.deps, client.id, 9123);
    const { res } = await asFiles(strict, 'http://localhost:9123/hook');
    expect(res.status).toBe(200);
    expect((await asFiles(strict, 'http://127.0.0.1:9123/other/path')).res.status).toBe(200);
    // Another port, another client, or another private address: the listener changes nothing for them.
    expect((await asFiles(strict, 'http://localhost:9124/hook')).res.body.message).toBe(refusal('localhost'));
    expect((await asFiles(strict, 'http://10.0.0.1:9123/hook')).res.body.message).toBe(refusal('10.0.0.1'));
    const other = await t.newClient();
    const foreign = await asFiles(strict, 'http://localhost:9123/hook', other.apiKey);
    expect(foreign.res.body.message).toBe(refusal('localhost'));
    // Once it has expired (the listener stopped renewing it), it is refused again.
    await t.deps.db
      .updateTable('webhook_listeners')
      .set({ expires_at: Date.now() - 1 })
      .execute();
    expect((await asFiles(strict, 'http://localhost:9123/hook')).res.body.message).toBe(refusal('localhost'));
  });

  it('a public address, or a name that does not resolve (yet), is taken as before', async () => {
    for (const callback of ['http://8.8.8.8/hook', 'https://hooks.invalid/x']) {
      const { res } = await asFiles(strict, callback);
      expect(res.status, callback).toBe(200);
    }
  });
});
