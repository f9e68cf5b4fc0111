// The portal's API (docs/portal.md) through app.inject(): sign-in, sessions and CSRF; every route per role
// and client (client A's users and client B's, an operator, no session); search; reviews as new versions
// with their webhook; share links; label export.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionOf } from '../../src/services/portal/sessions.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { BACKENDS } from '../helpers/backends.js';
import { runCli } from '../helpers/process.js';
import {
  PASSWORD,
  portalUser,
  seedInspection,
  signInAs,
  type PortalSession,
  type Seeded,
} from '../helpers/portal.js';

const DAY = 24 * 3600 * 1000;

describe.each(BACKENDS)('portal on %s', (backend) => {
  let t: TestApp;
  let clientA: string;
  let clientB: string;
  let a: Seeded;
  let b: Seeded;
  const sessions: Record<string, PortalSession> = {};

  beforeAll(async () => {
    t = await startTestApp(backend);
    clientA = (await t.newClient({ name: 'Acme', webhookUrl: 'https://hooks.example.com/acme' })).id;
    clientB = (await t.newClient({ name: 'Bolt' })).id;
    const base = Date.parse('2026-11-20T10:00:00Z');
    a = await seedInspection(t.deps, clientA, {
      caseId: 'CLM-A-1',
      plate: 'AB-123-CD',
      flags: ['blurry'],
      people: [{ x: 0.05, y: 0.1, width: 0.2, height: 0.5 }],
      damages: [{ part: 'bumper', type: 'scratch', box: { x: 0.3, y: 0.5, width: 0.2, height: 0.1 } }],
      photos: ['home.jpg', 'exif.jpg'],
      createdAt: base,
    });
    await seedInspection(t.deps, clientA, { caseId: 'CLM-A-2', source: 'link', createdAt: base + DAY });
    await seedInspection(t.deps, clientA, {
      caseId: 'OTHER-3',
      flags: ['edited'],
      createdAt: base + 2 * DAY,
    });
    await seedInspection(t.deps, clientA, { caseId: 'CLM-A-4', pending: true, createdAt: base + 3 * DAY });
    b = await seedInspection(t.deps, clientB, { caseId: 'CLM-B-1', plate: 'XY-999-ZZ', createdAt: base });
    const users = {
      operator: await portalUser(t.deps, 'operator'),
      adminA: await portalUser(t.deps, 'client_admin', clientA),
      viewerA: await portalUser(t.deps, 'client_viewer', clientA),
      adminB: await portalUser(t.deps, 'client_admin', clientB),
      viewerB: await portalUser(t.deps, 'client_viewer', clientB),
    };
    for (const [name, email] of Object.entries(users)) sessions[name] = await signInAs(t, email);
  }, 120_000);
  afterAll(() => t?.close());

  const get = (url: string, session?: PortalSession, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers: { ...(session && { cookie: session.cookie }), ...headers } });
  const send = (
    method: 'POST' | 'DELETE',
    url: string,
    session: PortalSession | undefined,
    payload?: object,
  ) => t.app.inject({ method, url, headers: session?.writeHeaders ?? {}, ...(payload && { payload }) });

  describe('signing in', () => {
    it('sets an httpOnly, SameSite=Lax session cookie scoped to /portal, and answers who is signed in', async () => {
      const email = await portalUser(t.deps, 'client_viewer', clientA);
      const res = await t.app.inject({
        method: 'POST',
        url: '/portal/api/session',
        payload: { email: email.toUpperCase(), password: PASSWORD },
      });
      expect(res.statusCode).toBe(200);
      const cookie = res.cookies.find((c) => c.name === 'walkaround_portal')!;
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/portal' });
      expect(cookie.secure).toBeFalsy(); // http here; see the https test below
      expect(res.json()).toMatchObject({ user: { email, role: 'client_viewer', client_id: clientA } });
      const me = await get('/portal/api/session', {
        cookie: `walkaround_portal=${cookie.value}`,
        csrf: '',
        writeHeaders: {},
      });
      expect(me.json()).toMatchObject({
        user: { email },
        csrf_token: res.json<{ csrf_token: string }>().csrf_token,
      });
    });

    it('answers an unknown e-mail and a wrong password alike, in about the same time', async () => {
      const email = await portalUser(t.deps, 'client_viewer', clientA);
      const timed = async (payload: object) => {
        const started = performance.now();
        const res = await t.app.inject({
          method: 'POST',
          url: '/portal/api/session',
          payload,
          remoteAddress: '10.1.1.1',
        });
        return { ms: performance.now() - started, status: res.statusCode, body: res.json<object>() };
      };
      const wrong = [];
      const unknown = [];
      for (let i = 0; i < 3; i++) {
        wrong.push(await timed({ email, password: 'not the password' }));
        unknown.push(await timed({ email: `nobody${i}@portal.test`, password: 'not the password' }));
      }
      for (const answer of [...wrong, ...unknown])
        expect(answer).toMatchObject({
          status: 401,
          body: { status: 'error', message: 'E-mail or password is wrong' },
        });
      // Both run the password hash (scrypt, tens of ms): an unknown e-mail is not answered at once.
      const median = (xs: { ms: number }[]) => xs.map((x) => x.ms).sort((p, q) => p - q)[1]!;
      expect(median(unknown)).toBeGreaterThan(median(wrong) / 3);
    });

    it('limits failures per account, then refuses even the right password with 429 and Retry-After', async () => {
      const email = await portalUser(t.deps, 'client_viewer', clientA);
      for (let i = 0; i < 5; i++) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/portal/api/session',
          payload: { email, password: 'wrong password' },
          remoteAddress: `10.2.0.${i}`,
        });
        expect(res.statusCode, `attempt ${i + 1}`).toBe(401);
      }
      const right = await t.app.inject({
        method: 'POST',
        url: '/portal/api/session',
        payload: { email, password: PASSWORD },
        remoteAddress: '10.2.1.1',
      });
      expect(right.statusCode).toBe(429);
      expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
    });

    it('limits failures per address across accounts', async () => {
      const statuses = [];
      for (let i = 0; i < 21; i++) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/portal/api/session',
          payload: { email: `guess${i}@portal.test`, password: 'wrong password' },
          remoteAddress: '10.3.3.3',
        });
        statuses.push(res.statusCode);
      }
      expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
      expect(statuses.slice(20)).toEqual([429]);
    });

    it('gives a new session id at sign-in (the one held before ends), and signing out ends the session', async () => {
      const email = await portalUser(t.deps, 'client_viewer', clientA);
      const first = await signInAs(t, email);
      const again = await t.app.inject({
        method: 'POST',
        url: '/portal/api/session',
        payload: { email, password: PASSWORD },
        headers: { cookie: first.cookie },
      });
      const second = `walkaround_portal=${again.cookies.find((c) => c.name === 'walkaround_portal')!.value}`;
      expect(second).not.toBe(first.cookie);
      expect((await get('/portal/api/session', first)).statusCode).toBe(401);
      const session = {
        cookie: second,
        csrf: again.json<{ csrf_token: string }>().csrf_token,
        writeHeaders: {},
      };
      expect((await get('/portal/api/session', session)).statusCode).toBe(200);

      const out = await send('DELETE', '/portal/api/session', {
        ...session,
        writeHeaders: { cookie: second, 'x-csrf-token': session.csrf },
      });
      expect(out.statusCode).toBe(204);
      expect(out.cookies.find((c) => c.name === 'walkaround_portal')?.value).toBe('');
      expect((await get('/portal/api/session', session)).statusCode).toBe(401);
    });

    it('ends a session after its idle time and at its absolute end', async () => {
      const email = await portalUser(t.deps, 'client_viewer', clientA);
      const session = await signInAs(t, email);
      const token = session.cookie.split('=')[1];
      const at = (offset: number) => ({ ...t.deps.portalSessions, now: () => Date.now() + offset });
      expect(await sessionOf(at(29 * 60_000), token)).toBeDefined(); // idle 30 min by default
      expect(await sessionOf(at(13 * 3600_000), token)).toBeUndefined(); // past the 12 h end
      const other = await signInAs(t, email);
      const otherToken = other.cookie.split('=')[1];
      expect(await sessionOf(at(31 * 60_000), otherToken)).toBeUndefined();
      expect((await get('/portal/api/session', other)).statusCode).toBe(401); // removed with it
    });

    it('refuses a state-changing call without the CSRF token, or with another session’s', async () => {
      const payload = { days: 1 };
      const url = `/portal/api/inspections/${a.id}/shares`;
      const admin = sessions.adminA!;
      const missing = await t.app.inject({ method: 'POST', url, headers: { cookie: admin.cookie }, payload });
      expect(missing.statusCode).toBe(403);
      expect(missing.json()).toEqual({ status: 'error', message: 'Missing or wrong CSRF token' });
      const foreign = await t.app.inject({
        method: 'POST',
        url,
        headers: { cookie: admin.cookie, 'x-csrf-token': sessions.operator!.csrf },
        payload,
      });
      expect(foreign.statusCode).toBe(403);
      expect((await send('POST', url, admin, payload)).statusCode).toBe(201);
    });
  });

  describe('every route, per role and client', () => {
    // Who asks: expected status for client A's data.
    type Who = 'none' | 'operator' | 'adminA' | 'viewerA' | 'adminB' | 'viewerB';
    const WHO: Who[] = ['none', 'operator', 'adminA', 'viewerA', 'adminB', 'viewerB'];
    const reading = { none: 401, operator: 200, adminA: 200, viewerA: 200, adminB: 404, viewerB: 404 };
    const changing = (ok: number) => ({
      none: 401,
      operator: ok,
      adminA: ok,
      viewerA: 403,
      adminB: 404,
      viewerB: 403,
    });

    const routes: {
      name: string;
      status: Record<Who, number>;
      call: (s: PortalSession | undefined) => Promise<{ statusCode: number }>;
    }[] = [
      { name: 'GET inspection', status: reading, call: (s) => get(`/portal/api/inspections/${a.id}`, s) },
      {
        name: 'GET version 1',
        status: reading,
        call: (s) => get(`/portal/api/inspections/${a.id}?version=1`, s),
      },
      {
        name: 'GET cover thumbnail',
        status: reading,
        call: (s) => get(`/portal/api/inspections/${a.id}/thumbnail`, s),
      },
      {
        name: 'GET media',
        status: reading,
        call: (s) => get(`/portal/api/inspections/${a.id}/media/${a.mediaIds[0]}`, s),
      },
      {
        name: 'GET media thumbnail',
        status: reading,
        call: (s) => get(`/portal/api/inspections/${a.id}/media/${a.mediaIds[0]}/thumbnail`, s),
      },
      {
        name: 'GET report',
        status: reading,
        call: (s) => get(`/portal/api/inspections/${a.id}/report.pdf`, s),
      },
      { name: 'GET shares', status: reading, call: (s) => get(`/portal/api/inspections/${a.id}/shares`, s) },
      {
        name: 'POST share',
        status: changing(201),
        call: (s) => send('POST', `/portal/api/inspections/${a.id}/shares`, s, { days: 2 }),
      },
      {
        name: 'POST resend',
        status: { ...changing(404) },
        call: (s) => send('POST', `/portal/api/inspections/${a.id}/deliveries/msg_unknown/resend`, s),
      },
      {
        name: 'GET labels',
        status: { none: 401, operator: 200, adminA: 200, viewerA: 403, adminB: 200, viewerB: 403 },
        call: (s) => get('/portal/api/labels', s),
      },
      {
        name: 'GET list',
        status: { none: 401, operator: 200, adminA: 200, viewerA: 200, adminB: 200, viewerB: 200 },
        call: (s) => get('/portal/api/inspections', s),
      },
      {
        name: 'GET clients',
        status: { none: 401, operator: 200, adminA: 200, viewerA: 200, adminB: 200, viewerB: 200 },
        call: (s) => get('/portal/api/clients', s),
      },
    ];

    it.each(routes.map((r) => [r.name, r] as const))('%s', async (_name, route) => {
      const got: Record<string, number> = {};
      for (const who of WHO)
        got[who] = (await route.call(who === 'none' ? undefined : sessions[who])).statusCode;
      expect(got).toEqual(route.status);
    });

    it("never lists or counts another client's inspections; operators see every client", async () => {
      const ids = async (s: PortalSession) =>
        (await get('/portal/api/inspections', s)).json<{ items: { id: string }[] }>().items.map((i) => i.id);
      expect(await ids(sessions.viewerB!)).toEqual([b.id]);
      expect(await ids(sessions.viewerA!)).not.toContain(b.id);
      expect(await ids(sessions.operator!)).toEqual(expect.arrayContaining([a.id, b.id]));
      const clients = await get('/portal/api/clients', sessions.viewerB);
      expect(clients.json()).toEqual({ clients: [{ id: clientB, name: 'Bolt' }] });
      // A client user's own client_id filter cannot widen the scope.
      const widened = await get(`/portal/api/inspections?client_id=${clientA}`, sessions.viewerB);
      expect(widened.json<{ items: { id: string }[] }>().items.map((i) => i.id)).toEqual([b.id]);
    });

    it("answers B's revoke of A's share link 404, A's viewer 403, and A's admin 204", async () => {
      const share = await send('POST', `/portal/api/inspections/${a.id}/shares`, sessions.adminA, {});
      const url = `/portal/api/shares/${share.json<{ id: string }>().id}`;
      expect((await send('DELETE', url, sessions.adminB)).statusCode).toBe(404);
      expect((await send('DELETE', url, sessions.viewerA)).statusCode).toBe(403);
      expect((await send('DELETE', url, sessions.adminA)).statusCode).toBe(204);
    });
  });

  describe('media', () => {
    it('answers byte ranges of an original (a video player seeking), and 416 past its end', async () => {
      const url = `/portal/api/inspections/${a.id}/media/${a.mediaIds[0]}`;
      const whole = await get(url, sessions.viewerA);
      expect(whole.statusCode).toBe(200);
      expect(whole.headers).toMatchObject({
        'accept-ranges': 'bytes',
        'content-length': String(whole.rawPayload.length),
      });
      const size = whole.rawPayload.length;
      const part = await get(url, sessions.viewerA, { range: 'bytes=100-199' });
      expect(part.statusCode).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes 100-199/${size}`);
      expect(part.rawPayload).toEqual(whole.rawPayload.subarray(100, 200));
      const tail = await get(url, sessions.viewerA, { range: 'bytes=-10' });
      expect(tail.rawPayload).toEqual(whole.rawPayload.subarray(size - 10));
      const open = await get(url, sessions.viewerA, { range: `bytes=${size - 5}-` });
      expect(open.headers['content-range']).toBe(`bytes ${size - 5}-${size - 1}/${size}`);
      const beyond = await get(url, sessions.viewerA, { range: `bytes=${size}-` });
      expect(beyond.statusCode).toBe(416);
      // Another client's user gets no range either.
      expect((await get(url, sessions.viewerB, { range: 'bytes=0-9' })).statusCode).toBe(404);
    });
  });

  describe('search', () => {
    const search = async (query: string, session = sessions.adminA!) =>
      (await get(`/portal/api/inspections?${query}`, session)).json<{
        items: { case_id: string; plate: string | null; flags: string[]; has_thumbnail: boolean }[];
        next_cursor: string | null;
        counts: Record<string, number>;
      }>();
    const cases = async (query: string) => (await search(query)).items.map((i) => i.case_id);

    it('lists newest first with counts per status', async () => {
      const page = await search('');
      expect(page.items.map((i) => i.case_id)).toEqual(['CLM-A-4', 'OTHER-3', 'CLM-A-2', 'CLM-A-1']);
      expect(page.counts).toEqual({ queued: 1, processing: 0, completed: 3, failed: 0 });
      expect(page.items.find((i) => i.case_id === 'CLM-A-1')).toMatchObject({
        plate: 'AB-123-CD',
        flags: ['blurry', 'damage'],
        has_thumbnail: true,
      });
    });

    it('finds by case id prefix, plate (any separators), flags, status, source and date range', async () => {
      expect(await cases('case_id=CLM-A')).toEqual(['CLM-A-4', 'CLM-A-2', 'CLM-A-1']);
      expect(await cases('case_id=clm')).toEqual([]); // case ids are matched as typed
      expect(await cases('plate=ab 123')).toEqual(['CLM-A-1']);
      expect(await cases('plate=AB123CD')).toEqual(['CLM-A-1']);
      expect(await cases('flags=blurry,damage')).toEqual(['CLM-A-1']);
      expect(await cases('flags=damage,blurry')).toEqual(['CLM-A-1']);
      expect(await cases('flags=damage,edited')).toEqual([]);
      expect(await cases('plate=AB12&flags=damage')).toEqual(['CLM-A-1']);
      expect(await cases('plate=AB12&flags=edited')).toEqual([]);
      expect(await cases('flags=edited')).toEqual(['OTHER-3']);
      expect(await cases('status=queued')).toEqual(['CLM-A-4']);
      expect(await cases('source=link')).toEqual(['CLM-A-2']);
      expect(await cases('source=api&status=completed')).toEqual(['OTHER-3', 'CLM-A-1']);
      expect(await cases('from=2026-11-21&to=2026-11-22')).toEqual(['OTHER-3', 'CLM-A-2']);
      const counted = await search('case_id=CLM-A&status=queued');
      expect(counted.counts).toEqual({ queued: 1, processing: 0, completed: 2, failed: 0 });
    });

    it('pages with a cursor, without overlap or gap', async () => {
      const first = await search('limit=3');
      expect(first.items).toHaveLength(3);
      const second = await search(`limit=3&cursor=${first.next_cursor}`);
      expect([...first.items, ...second.items].map((i) => i.case_id)).toEqual([
        'CLM-A-4',
        'OTHER-3',
        'CLM-A-2',
        'CLM-A-1',
      ]);
      expect(second.next_cursor).toBeNull();
    });

    it('refuses a malformed filter with 400', async () => {
      expect((await get('/portal/api/inspections?status=lost', sessions.adminA)).statusCode).toBe(400);
      expect((await get('/portal/api/inspections?from=yesterday', sessions.adminA)).statusCode).toBe(400);
      expect((await get('/portal/api/inspections?cursor=bm9wZQ', sessions.adminA)).statusCode).toBe(400);
    });
  });

  describe('review', () => {
    it('saves a new version with the reviewer, keeps version 1 readable, and sends inspection.reviewed', async () => {
      const seeded = await seedInspection(t.deps, clientA, {
        caseId: 'REVIEW-1',
        damages: [{ part: 'door', type: 'dent', box: { x: 0.1, y: 0.1, width: 0.2, height: 0.2 } }],
      });
      const page = (await get(`/portal/api/inspections/${seeded.id}`, sessions.adminA)).json<{
        version: number;
        result: { media: { id: string; analysis: { damage: { damages: object[] } } }[] };
      }>();
      expect(page.version).toBe(1);
      const [kept] = page.result.media[0]!.analysis.damage.damages;
      const saved = await send('POST', `/portal/api/inspections/${seeded.id}/review`, sessions.adminA, {
        base_version: 1,
        decision: 'accepted',
        note: 'Checked on site.',
        damages: {
          [seeded.mediaIds[0]!]: [
            kept,
            {
              part: 'wing',
              type: 'scratch',
              severity: 'minor',
              box: { x: 0.5, y: 0.5, width: 0.1, height: 0.1 },
            },
          ],
        },
      });
      expect(saved.statusCode).toBe(201);
      expect(saved.json()).toEqual({ version: 2 });

      const after = (await get(`/portal/api/inspections/${seeded.id}`, sessions.viewerA)).json<{
        version: number;
        inspection: { review_decision: string };
        versions: { version: number; origin: string; author: string | null }[];
        result: {
          review: { decision: string; note: string; based_on_version: number; reviewer: { email: string } };
          summary: { damages: number };
          media: {
            analysis: { damage: { status: string; damages: { source?: string; confidence: number }[] } };
          }[];
        };
      }>();
      expect(after.version).toBe(2);
      expect(after.inspection.review_decision).toBe('accepted');
      expect(after.versions.map((v) => [v.version, v.origin])).toEqual([
        [2, 'review'],
        [1, 'analysis'],
      ]);
      expect(after.result.review).toMatchObject({
        decision: 'accepted',
        note: 'Checked on site.',
        based_on_version: 1,
      });
      expect(after.result.summary.damages).toBe(2);
      const damage = after.result.media[0]!.analysis.damage;
      expect(damage.status).toBe('reviewed');
      expect(damage.damages.map((d) => [d.source ?? 'model', d.confidence])).toEqual([
        ['model', 0.7],
        ['reviewer', 1],
      ]);
      const v1 = (await get(`/portal/api/inspections/${seeded.id}?version=1`, sessions.viewerA)).json<{
        result: { version: number; review?: unknown };
      }>();
      expect(v1.result.version).toBe(1);
      expect(v1.result.review).toBeUndefined();

      const events = await t.deps.db
        .selectFrom('webhook_messages')
        .select(['event_type', 'payload'])
        .where('inspection_id', '=', seeded.id)
        .execute();
      expect(events.map((e) => e.event_type)).toEqual(['inspection.reviewed']);
      expect(JSON.parse(events[0]!.payload)).toMatchObject({
        type: 'inspection.reviewed',
        data: { version: 2 },
      });

      // Saved against version 1 again: someone else's review came in between.
      const stale = await send('POST', `/portal/api/inspections/${seeded.id}/review`, sessions.operator, {
        base_version: 1,
        decision: 'rejected',
      });
      expect(stale.statusCode).toBe(409);
    });

    it('refuses a review of an inspection not analysed yet, and a box outside the photo', async () => {
      const pending = await seedInspection(t.deps, clientA, { caseId: 'PENDING', pending: true });
      const res = await send('POST', `/portal/api/inspections/${pending.id}/review`, sessions.adminA, {
        base_version: 1,
        decision: 'accepted',
      });
      expect(res.statusCode).toBe(409);
      const seeded = await seedInspection(t.deps, clientA, { caseId: 'BAD-BOX' });
      const bad = await send('POST', `/portal/api/inspections/${seeded.id}/review`, sessions.adminA, {
        base_version: 1,
        decision: null,
        damages: {
          [seeded.mediaIds[0]!]: [
            { part: null, type: 'dent', severity: 'minor', box: { x: 0.9, y: 0.9, width: 0.5, height: 0.5 } },
          ],
        },
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({
        status: 'error',
        message: 'Review is invalid: a damage box lies outside the photo',
      });
    });

    it('exports the reviewed boxes in COCO format, to the client admin only their own client', async () => {
      const coco = (await get('/portal/api/labels', sessions.adminA)).json<{
        images: { width: number; height: number; inspection_id: string }[];
        annotations: { bbox: number[]; category_id: number; attributes: { source: string } }[];
        categories: { id: number; name: string }[];
      }>();
      expect(coco.images.length).toBeGreaterThan(0);
      const image = coco.images[0]!;
      const wing = coco.annotations.find((x) => x.attributes.source === 'reviewer')!;
      expect(coco.categories.find((c) => c.id === wing.category_id)?.name).toBe('wing:scratch');
      expect(wing.bbox[0]).toBeCloseTo(0.5 * image.width, 0);
      expect(wing.bbox[2]).toBeCloseTo(0.1 * image.width, 0);
      const forB = (await get('/portal/api/labels', sessions.adminB)).json<{ images: unknown[] }>();
      expect(forB.images).toEqual([]);

      // The operator's command gives the same export, and writes the photos named as in it.
      const photos = fs.mkdtempSync(path.join(os.tmpdir(), 'walkaround-labels-'));
      try {
        const cli = await runCli(
          ['labels', 'export', '--client', clientA, '--format', 'coco', '--images', photos],
          t.environment.env,
        );
        expect(cli.code, cli.stderr).toBe(0);
        const exported = JSON.parse(cli.stdout) as typeof coco & { images: { file_name: string }[] };
        expect(exported.annotations).toEqual(coco.annotations);
        for (const image of exported.images)
          expect(fs.statSync(path.join(photos, image.file_name)).size).toBeGreaterThan(0);
      } finally {
        fs.rmSync(photos, { recursive: true, force: true });
      }
    });
  });

  describe('share links', () => {
    it('opens the report signed out, blurs people and plates when asked, and stops at revocation', async () => {
      const created = await send('POST', `/portal/api/inspections/${a.id}/shares`, sessions.adminA, {
        blur: true,
      });
      expect(created.statusCode).toBe(201);
      const { url, id, expires_at } = created.json<{ url: string; id: string; expires_at: string }>();
      expect(Date.parse(expires_at) - Date.now()).toBeGreaterThan(6.9 * DAY); // 7 days by default
      const token = url.split('#/share/')[1]!;
      const headers = { 'x-share-token': token };
      const shared = await get('/portal/api/shared', undefined, headers);
      expect(shared.statusCode).toBe(200);
      expect(shared.json()).toMatchObject({ case_id: 'CLM-A-1', blur: true });
      expect(shared.json<{ photos: { id: string }[] }>().photos.map((p) => p.id)).toContain(a.mediaIds[0]);

      // The person's region of the shared photo is smooth; the same region of the original is not.
      const region = async (body: Buffer) => {
        const image = sharp(body).rotate();
        const { width = 0, height = 0 } = await image.metadata();
        const crop = await image
          .extract({
            left: Math.floor(0.08 * width),
            top: Math.floor(0.15 * height),
            width: Math.floor(0.14 * width),
            height: Math.floor(0.4 * height),
          })
          .greyscale()
          .raw()
          .toBuffer();
        const diffs = [];
        for (let i = 1; i < crop.length; i++) diffs.push(Math.abs(crop[i]! - crop[i - 1]!));
        return diffs.reduce((s, d) => s + d, 0) / diffs.length;
      };
      const blurred = await get(`/portal/api/shared/media/${a.mediaIds[0]}`, undefined, headers);
      expect(blurred.statusCode).toBe(200);
      const original = await get(`/portal/api/inspections/${a.id}/media/${a.mediaIds[0]}`, sessions.adminA);
      expect(await region(blurred.rawPayload)).toBeLessThan((await region(original.rawPayload)) / 2);

      const pdf = await get('/portal/api/shared/report.pdf', undefined, headers);
      expect(pdf.statusCode).toBe(200);
      expect(pdf.headers['content-type']).toBe('application/pdf');
      expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

      // Another inspection's media cannot be reached through this token.
      expect((await get(`/portal/api/shared/media/${b.mediaIds[0]}`, undefined, headers)).statusCode).toBe(
        404,
      );
      expect((await send('DELETE', `/portal/api/shares/${id}`, sessions.adminA)).statusCode).toBe(204);
      const gone = await get('/portal/api/shared', undefined, headers);
      expect(gone.statusCode).toBe(410);
      expect(gone.json()).toEqual({ status: 'error', message: 'This link has expired or was revoked' });
    });

    it('answers an unknown token 404 and an expired one 410', async () => {
      const unknown = await get('/portal/api/shared', undefined, { 'x-share-token': 'x'.repeat(43) });
      expect(unknown.statusCode).toBe(404);
      const created = await send('POST', `/portal/api/inspections/${a.id}/shares`, sessions.operator, {
        days: 1,
      });
      const token = created.json<{ url: string }>().url.split('#/share/')[1]!;
      await t.deps.db
        .updateTable('share_links')
        .set({ expires_at: Date.now() - 1 })
        .execute();
      expect((await get('/portal/api/shared', undefined, { 'x-share-token': token })).statusCode).toBe(410);
    });
  });
});

describe('portal over https', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite', { PUBLIC_BASE_URL: 'https://inspections.example.com' });
  });
  afterAll(() => t?.close());

  it('marks the session cookie Secure', async () => {
    const email = await portalUser(t.deps, 'operator');
    const res = await t.app.inject({
      method: 'POST',
      url: '/portal/api/session',
      payload: { email, password: PASSWORD },
    });
    expect(res.cookies.find((c) => c.name === 'walkaround_portal')?.secure).toBe(true);
  });
});
