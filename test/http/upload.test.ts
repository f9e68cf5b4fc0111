// POST /api/upload through real HTTP (docs/api.md#upload, docs/api.md#limits) on every database backend.
import { CLI_ACTOR } from '../../src/services/audit.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateClient } from '../../src/services/clients/manage.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { BACKENDS } from '../helpers/backends.js';
import { MB, photo, syntheticFile } from '../helpers/media.js';
import { startMediaServer, type MediaServer } from '../helpers/media-server.js';
import { uploadClient } from '../helpers/upload-client.js';

describe.each(BACKENDS)('upload on %s', (backend) => {
  let t: TestApp;
  let media: MediaServer;
  let api: ReturnType<typeof uploadClient>;
  let client: { id: string; apiKey: string };
  let scratch: string;

  beforeAll(async () => {
    t = await startTestApp(backend);
    media = await startMediaServer();
    api = uploadClient(await t.listen());
    client = await t.newClient({ webhookUrl: 'https://hooks.example.com/walkaround' });
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'walkaround-upload-'));
  });
  afterAll(async () => {
    await t?.close();
    await media?.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  const fresh = () => api.credentials(client.apiKey);
  const urlBody = (session: string, extra: Record<string, unknown> = {}) => ({
    type: 'urls',
    session,
    case_id: 'case-1',
    urls: [`${media.url}/photo/home.jpg`, `${media.url}/photo/exif.jpg`],
    ...extra,
  });
  /** Rows of the inspection, of its media, and its analysis job (in whichever queue the backend uses). */
  const rowCount = async (table: 'inspections' | 'media' | 'jobs', session: string) => {
    if (table === 'jobs') return (await t.deps.queue.state(`analyse-inspection:${session}`)) ? 1 : 0;
    const column = table === 'inspections' ? 'id' : 'inspection_id';
    const rows = await t.deps.db.selectFrom(table).select('id').where(column, '=', session).execute();
    return rows.length;
  };
  /** Every file under the media root (content objects and staging leftovers). */
  const storedFiles = () =>
    (fs.readdirSync(path.join(t.environment.dataDir, 'media'), { recursive: true }) as string[]).filter((f) =>
      fs.statSync(path.join(t.environment.dataDir, 'media', f)).isFile(),
    );

  /** Expects an upload error body, and that the request left no inspection, media or job behind. */
  const expectRejected = async (
    res: { status: number; body: Record<string, string> },
    status: number,
    message: string,
    session?: string,
  ) => {
    expect({ status: res.status, message: res.body.message }).toEqual({ status, message });
    expect(res.body.status).toBe('error');
    if (session) {
      expect(res.body.id).toBe(session);
      for (const table of ['inspections', 'media', 'jobs'] as const)
        expect(await rowCount(table, session)).toBe(0);
    }
  };

  describe('by URLs', () => {
    it('accepts, stores every file and queues the analysis in one go', async () => {
      const c = await fresh();
      const res = await api.urls(
        c.refresh_token,
        urlBody(c.session, {
          url_pairs: [[`${media.url}/photo/home.jpg`, `${media.url}/photo/scenetext01.jpg`]],
          original_Id: ['front.jpg', 'rear.jpg'],
          original_pair_Id: ['door_before.jpg,door_after.jpg'],
          inputMetaData: { licensePlate: 'AB-123-CD', customerName: 'Ada' },
          agent_id: 'a-7',
          agent_name: 'Agent Seven',
          email_id: 'claims@example.com',
        }),
      );
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'success', id: c.session, message: '', case_id: 'case-1' });
      expect(res.headers.get('x-request-id')).toBeTruthy();

      const read = await fetchInspection(c.session, client.apiKey);
      expect(read.status).toBe(200);
      const inspection = read.body as {
        status: string;
        input_metadata: object;
        agent_name: string;
        original_pair_ids: string[];
        media: {
          kind: string;
          original_id: string;
          pair_index: number | null;
          sha256: string;
          bytes: number;
        }[];
      };
      expect(inspection.status).toBe('queued');
      expect(inspection.input_metadata).toEqual({ licensePlate: 'AB-123-CD', customerName: 'Ada' });
      expect(inspection.agent_name).toBe('Agent Seven');
      expect(inspection.original_pair_ids).toEqual(['door_before.jpg,door_after.jpg']);
      expect(inspection.media.map((m) => [m.original_id, m.pair_index])).toEqual([
        ['front.jpg', null],
        ['rear.jpg', null],
        [null, 0],
        [null, 0],
      ]);
      expect(inspection.media[0]!.bytes).toBe(photo('home.jpg').length);
      expect(await rowCount('jobs', c.session)).toBe(1);
    });

    it('sends the auth value as the Authorization header', async () => {
      const c = await fresh();
      const url = `${media.url}/auth/${encodeURIComponent('Bearer s3cret')}/photo/home.jpg`;
      const without = await api.urls(c.refresh_token, urlBody(c.session, { urls: [url] }));
      await expectRejected(without, 400, `Could not fetch ${url}`, c.session);
      const withAuth = await api.urls(
        c.refresh_token,
        urlBody(c.session, { urls: [url], auth: 'Bearer s3cret' }),
      );
      expect(withAuth.status).toBe(200);
    });

    it.each([
      ['the metadata address', 'http://169.254.169.254/latest/meta-data/'],
      ['a private address', 'http://10.0.0.1/photo.jpg'],
      ['loopback', 'http://127.0.0.1:9/photo.jpg'],
    ])('refuses a redirect to %s; nothing is kept', async (_name, target) => {
      const c = await fresh();
      const url = `${media.url}/redirect?to=${encodeURIComponent(target)}`;
      const before = storedFiles().length;
      const res = await api.urls(
        c.refresh_token,
        urlBody(c.session, { urls: [`${media.url}/photo/home.jpg`, url] }),
      );
      await expectRejected(res, 400, `Could not fetch ${url}`, c.session);
      expect(storedFiles().length).toBe(before);
    });

    it('refuses a URL that answers 404', async () => {
      const c = await fresh();
      const res = await api.urls(c.refresh_token, urlBody(c.session, { urls: [`${media.url}/missing`] }));
      await expectRejected(res, 400, `Could not fetch ${media.url}/missing`, c.session);
    });

    it('400 Maximum 99 images upload possible: counting urls and pair members', async () => {
      const c = await fresh();
      const urls = Array.from({ length: 98 }, (_, i) => `${media.url}/photo/home.jpg?${i}`);
      const pair = [`${media.url}/photo/home.jpg`, `${media.url}/photo/exif.jpg`];
      const res = await api.urls(c.refresh_token, urlBody(c.session, { urls, url_pairs: [pair] }));
      await expectRejected(res, 400, 'Maximum 99 images upload possible', c.session);
    });

    it('accepts 99 images', async () => {
      const c = await fresh();
      const urls = Array.from({ length: 99 }, (_, i) => `${media.url}/photo/home.jpg?${i}`);
      const res = await api.urls(c.refresh_token, urlBody(c.session, { urls }));
      expect(res.status).toBe(200);
    });

    it('400 Invalid file type for an extension outside the list (from original_Id or the path)', async () => {
      const c = await fresh();
      const byPath = await api.urls(
        c.refresh_token,
        urlBody(c.session, { urls: [`${media.url}/photo/home.gif`] }),
      );
      await expectRejected(byPath, 400, 'Invalid file type, only image or video allowed', c.session);
      const byName = await api.urls(
        c.refresh_token,
        urlBody(c.session, { urls: [`${media.url}/photo/home.jpg`], original_Id: ['scan.pdf'] }),
      );
      await expectRejected(byName, 400, 'Invalid file type, only image or video allowed', c.session);
    });

    it('415 when the content is not what the extension says, or no media at all', async () => {
      const c = await fresh();
      const text = `${media.url}/synthetic/text/5000/photo.jpg`;
      await expectRejected(
        await api.urls(c.refresh_token, urlBody(c.session, { urls: [text] })),
        415,
        'unsupported file type only images or videos',
        c.session,
      );
      const videoAsImage = `${media.url}/synthetic/mp4/5000/photo.jpg`;
      await expectRejected(
        await api.urls(c.refresh_token, urlBody(c.session, { urls: [videoAsImage] })),
        415,
        'unsupported file type only images or videos',
        c.session,
      );
    });

    it('judges a URL without extension by its content', async () => {
      const c = await fresh();
      const res = await api.urls(
        c.refresh_token,
        urlBody(c.session, { urls: [`${media.url}/synthetic/jpeg/9000/x`] }),
      );
      expect(res.status).toBe(200);
    });

    it('400 for a video of 1 MB or less, and one of 70 MB or more', async () => {
      const c = await fresh();
      const small = `${media.url}/synthetic/mp4/${MB}/clip.mp4`;
      await expectRejected(
        await api.urls(c.refresh_token, urlBody(c.session, { urls: [small] })),
        400,
        'Please upload video greater than 1 MB.',
        c.session,
      );
      const large = `${media.url}/synthetic/mp4/${70 * MB}/clip.mp4`;
      await expectRejected(
        await api.urls(c.refresh_token, urlBody(c.session, { urls: [large] })),
        400,
        'Please upload video less than 70 MB.',
        c.session,
      );
      // Without an extension the size is only known while streaming: cut off at the limit.
      const unnamed = `${media.url}/synthetic/mp4/${70 * MB}/clip`;
      await expectRejected(
        await api.urls(c.refresh_token, urlBody(c.session, { urls: [unnamed] })),
        400,
        'Please upload video less than 70 MB.',
        c.session,
      );
      const fine = `${media.url}/synthetic/mp4/${2 * MB}/clip.mp4`;
      expect((await api.urls(c.refresh_token, urlBody(c.session, { urls: [fine] }))).status).toBe(200);
    });

    it('400 when the images add up to more than 70 MB', async () => {
      const c = await fresh();
      const urls = [1, 2, 3].map((i) => `${media.url}/synthetic/jpeg/${24 * MB}/p${i}.jpg`);
      await expectRejected(
        await api.urls(c.refresh_token, urlBody(c.session, { urls })),
        400,
        'Total image size must be 70 MB or less',
        c.session,
      );
    });

    it('400 when images and videos are mixed', async () => {
      const c = await fresh();
      const urls = [`${media.url}/photo/home.jpg`, `${media.url}/synthetic/mp4/${2 * MB}/clip.mp4`];
      await expectRejected(
        await api.urls(c.refresh_token, urlBody(c.session, { urls })),
        400,
        'Images and videos cannot be mixed in one request',
        c.session,
      );
    });

    it('400 when a url_pairs entry does not hold exactly 2 images', async () => {
      const c = await fresh();
      const p = `${media.url}/photo/home.jpg`;
      for (const pair of [[p], [p, p, p]]) {
        await expectRejected(
          await api.urls(c.refresh_token, urlBody(c.session, { urls: undefined, url_pairs: [pair] })),
          400,
          'Each url_pairs entry must contain exactly 2 images',
          c.session,
        );
      }
      const ok = await api.urls(
        c.refresh_token,
        urlBody(c.session, { urls: undefined, url_pairs: [[p, p]] }),
      );
      expect(ok.status).toBe(200);
    });

    it.each([
      [{ session: undefined }, 'session is required'],
      [{ case_id: undefined }, 'case_id is required'],
      [{ urls: undefined }, 'urls is required'],
      [{ urls: 'not-a-list' }, 'urls is required'],
      [{ type: undefined }, 'type is required'],
      [{ type: 'file' }, 'type must be urls'],
      [{ callback_url: 'ftp://example.com/x' }, 'callback_url is invalid'],
      // Deliveries never send credentials: refused now rather than failing every attempt later.
      [{ callback_url: 'https://user:pass@example.com/x' }, 'callback_url is invalid'],
      [{ callback_url: 'https://token@example.com/x' }, 'callback_url is invalid'],
    ])('400 for missing or wrong fields: %j', async (change, message) => {
      const c = await fresh();
      const res = await api.urls(c.refresh_token, { ...urlBody(c.session), ...change });
      await expectRejected(res, 400, message);
    });
  });

  describe('as files', () => {
    const fields = (session: string, extra: Record<string, string> = {}) => ({
      type: 'file',
      session,
      case_id: 'case-2',
      ...extra,
    });

    it('accepts images and keeps every field', async () => {
      const c = await fresh();
      const res = await api.files(
        c.refresh_token,
        fields(c.session, { agent_id: 'a-1', agent_name: 'Agent One', email_id: 'x@example.com' }),
        [
          { name: 'front.jpg', content: photo('home.jpg') },
          { name: 'side.JPEG', content: photo('exif.jpg') },
          { name: 'rear.heic', content: photo('scene.heic') },
        ],
      );
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'success', id: c.session, message: '', case_id: 'case-2' });
      const read = (await fetchInspection(c.session, client.apiKey)).body as {
        agent_id: string;
        media: { original_id: string; mime: string; sha256: string }[];
      };
      expect(read.agent_id).toBe('a-1');
      expect(read.media.map((m) => [m.original_id, m.mime])).toEqual([
        ['front.jpg', 'image/jpeg'],
        ['side.JPEG', 'image/jpeg'],
        ['rear.heic', 'image/heic'],
      ]);
    });

    it('400 Invalid file type for an extension outside the list', async () => {
      const c = await fresh();
      const res = await api.files(c.refresh_token, fields(c.session), [
        { name: 'x.gif', content: photo('home.jpg') },
      ]);
      await expectRejected(res, 400, 'Invalid file type, only image or video allowed', c.session);
    });

    it('415 for content that is not of its extension kind', async () => {
      const c = await fresh();
      const res = await api.files(c.refresh_token, fields(c.session), [
        { name: 'x.jpg', content: Buffer.from('%PDF-1.4 not a photo at all') },
      ]);
      await expectRejected(res, 415, 'unsupported file type only images or videos', c.session);
    });

    it('400 Maximum 99 images upload possible', async () => {
      const c = await fresh();
      const files = Array.from({ length: 100 }, (_, i) => ({
        name: `p${i}.jpg`,
        content: photo('home.jpg'),
      }));
      const res = await api.files(c.refresh_token, fields(c.session), files);
      await expectRejected(res, 400, 'Maximum 99 images upload possible', c.session);
    });

    it('400 for mixing, and for a video of 1 MB or less', async () => {
      const c = await fresh();
      const video = await syntheticFile(scratch, 'clip.mp4', 'mp4', 2 * MB);
      const tiny = await syntheticFile(scratch, 'tiny.mp4', 'mp4', MB);
      await expectRejected(
        await api.files(c.refresh_token, fields(c.session), [
          { name: 'a.jpg', content: photo('home.jpg') },
          { name: 'clip.mp4', file: video },
        ]),
        400,
        'Images and videos cannot be mixed in one request',
        c.session,
      );
      await expectRejected(
        await api.files(c.refresh_token, fields(c.session), [{ name: 'tiny.mp4', file: tiny }]),
        400,
        'Please upload video greater than 1 MB.',
        c.session,
      );
      const ok = await api.files(c.refresh_token, fields(c.session), [{ name: 'clip.mp4', file: video }]);
      expect(ok.status).toBe(200);
    });

    it('400 for a video of 100 MB or more, cut off while streaming; no file is left', async () => {
      const c = await fresh();
      const big = await syntheticFile(scratch, 'big.mov', 'mp4', 100 * MB);
      const before = storedFiles().length;
      const res = await api.files(c.refresh_token, fields(c.session), [{ name: 'big.mov', file: big }]);
      await expectRejected(res, 400, 'Please upload video less than 100 MB.', c.session);
      expect(storedFiles().length).toBe(before);
      fs.rmSync(big);
    });

    it.each([
      [{ type: 'urls' }, 'type must be file'],
      [{ case_id: '' }, 'case_id is required'],
    ])('400 for wrong fields %j', async (change, message) => {
      const c = await fresh();
      const res = await api.files(c.refresh_token, { ...fields(c.session), ...change }, [
        { name: 'a.jpg', content: photo('home.jpg') },
      ]);
      await expectRejected(res, 400, message);
    });

    it('400 files is required without files', async () => {
      const c = await fresh();
      await expectRejected(await api.files(c.refresh_token, fields(c.session), []), 400, 'files is required');
    });
  });

  describe('sessions and tokens', () => {
    it('400 please generate new token and session: a used session, or another token’s', async () => {
      const c = await fresh();
      expect((await api.urls(c.refresh_token, urlBody(c.session))).status).toBe(200);
      await expectRejected(
        await api.urls(c.refresh_token, urlBody(c.session)),
        400,
        'please generate new token and session',
      );
      const other = await fresh();
      await expectRejected(
        await api.urls(c.refresh_token, urlBody(other.session)),
        400,
        'please generate new token and session',
      );
    });

    it('20 concurrent uploads with one session: exactly one 200', async () => {
      const c = await fresh();
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          i % 2
            ? api.urls(c.refresh_token, urlBody(c.session))
            : api.files(c.refresh_token, { type: 'file', session: c.session, case_id: 'c' }, [
                { name: 'a.jpg', content: photo('home.jpg') },
              ]),
        ),
      );
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      for (const r of results.filter((r) => r.status !== 200))
        expect(r.body.message).toBe('please generate new token and session');
      expect(await rowCount('inspections', c.session)).toBe(1);
    });

    it('a rejected upload leaves the session usable', async () => {
      const c = await fresh();
      const bad = await api.urls(c.refresh_token, urlBody(c.session, { urls: [`${media.url}/missing`] }));
      expect(bad.status).toBe(400);
      expect((await api.urls(c.refresh_token, urlBody(c.session))).status).toBe(200);
    });

    it.each([
      ['no token', undefined],
      ['a malformed token', 'not-a-jwt'],
    ])('401 Unauthorized with %s', async (_name, token) => {
      const c = await fresh();
      await expectRejected(await api.urls(token, urlBody(c.session)), 401, 'Unauthorized');
    });

    it('401 for the access_token (it renews; it does not upload)', async () => {
      const c = await fresh();
      await expectRejected(await api.urls(c.access_token, urlBody(c.session)), 401, 'Unauthorized');
    });
  });

  describe('client rules', () => {
    it('400 please provide callback_url when the client has no webhook URL', async () => {
      const bare = await t.newClient();
      const c = await api.credentials(bare.apiKey);
      await expectRejected(
        await api.urls(c.refresh_token, urlBody(c.session)),
        400,
        'please provide callback_url',
        c.session,
      );
      const ok = await api.urls(
        c.refresh_token,
        urlBody(c.session, { callback_url: 'https://hooks.example.com/x' }),
      );
      expect(ok.status).toBe(200);
    });

    it('429 API call limit exceeded past the quota, with Retry-After; rejected uploads do not count', async () => {
      const limited = await t.newClient({ webhookUrl: 'https://hooks.example.com/x', quotaPerHour: 2 });
      const send = async (extra: Record<string, unknown> = {}) => {
        const c = await api.credentials(limited.apiKey);
        return api.urls(c.refresh_token, urlBody(c.session, extra));
      };
      expect((await send({ urls: [`${media.url}/missing`] })).status).toBe(400);
      expect((await send()).status).toBe(200);
      expect((await send()).status).toBe(200);
      const over = await send();
      await expectRejected(over, 429, 'API call limit exceeded');
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    });

    it('503 ML servers are not available currently. outside the service window, with Retry-After', async () => {
      const closed = await t.newClient({ webhookUrl: 'https://hooks.example.com/x' });
      const hour = new Date().getUTCHours();
      const window = `mon-sun ${String((hour + 2) % 24).padStart(2, '0')}:00-${String((hour + 3) % 24).padStart(2, '0')}:00`;
      await updateClient(t.deps, closed.id, { serviceWindow: window, timezone: 'UTC' }, CLI_ACTOR);
      const c = await api.credentials(closed.apiKey);
      const res = await api.urls(c.refresh_token, urlBody(c.session));
      await expectRejected(res, 503, 'ML servers are not available currently.', c.session);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(3600);
    });

    it('415 for a body that is neither JSON nor multipart', async () => {
      const c = await fresh();
      const res = await fetch(`${t.app.server.address() ? baseUrl() : ''}/api/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${c.refresh_token}`, 'content-type': 'text/plain' },
        body: 'hello',
      });
      expect(res.status).toBe(415);
      expect(await res.json()).toEqual({
        status: 'error',
        id: '',
        message: 'unsupported file type only images or videos',
        case_id: '',
      });
    });

    it('404 Something Went Worng for the unexpected, logged, with nothing kept', async () => {
      const c = await fresh();
      const stage = t.deps.storage.stage.bind(t.deps.storage);
      t.deps.storage.stage = () => Promise.reject(new Error('disk on fire'));
      try {
        await expectRejected(
          await api.urls(c.refresh_token, urlBody(c.session)),
          404,
          'Something Went Worng',
          c.session,
        );
      } finally {
        t.deps.storage.stage = stage;
      }
    });
  });

  describe('reading back', () => {
    it("another client's key gets 404; no key gets 401", async () => {
      const c = await fresh();
      expect((await api.urls(c.refresh_token, urlBody(c.session))).status).toBe(200);
      const other = await t.newClient();
      expect((await fetchInspection(c.session, other.apiKey)).status).toBe(404);
      expect((await fetchInspection(c.session, undefined)).status).toBe(401);
      expect((await fetchInspection(c.session, client.apiKey)).status).toBe(200);
    });
  });

  function baseUrl() {
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('not listening');
    return `http://127.0.0.1:${address.port}`;
  }

  async function fetchInspection(session: string, key: string | undefined) {
    const res = await fetch(`${baseUrl()}/api/inspections/${session}`, {
      headers: key ? { 'x-api-key': key } : {},
    });
    return { status: res.status, body: await res.json() };
  }
});
