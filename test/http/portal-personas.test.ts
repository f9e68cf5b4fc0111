// The persona editor's API (docs/portal.md#the-persona-editor) through app.inject(), on both backends: every
// route per role and client (a client admin never reaches another client's persona: 404; a viewer changes
// nothing: 403); each change leaves exactly one audit entry and each refusal none; uploaded logos are
// served without a session, and only they; the test link opens the capture flow, its QR code reads back
// as its URL, and its token appears in no audit entry and no log line.
import sharp from 'sharp';
import decodeQR from 'qr/decode.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPersona } from '../../src/services/personas/manage.js';
import { SUPPORTED_LANGUAGES, templateFor } from '../../src/domain/personas.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { BACKENDS } from '../helpers/backends.js';
import { captureLogs, type LogCapture } from '../helpers/log-capture.js';
import { portalUser, seedInspection, signInAs, type PortalSession } from '../helpers/portal.js';

type Role = 'operator' | 'adminA' | 'viewerA' | 'adminB';

const png = (width = 300, height = 100) =>
  sharp({ create: { width, height, channels: 4, background: { r: 10, g: 92, b: 214, alpha: 1 } } })
    .png()
    .toBuffer();

describe.each(BACKENDS)('persona editor API on %s', (backend) => {
  let t: TestApp;
  let logs: LogCapture;
  let clientA: string;
  let clientB: string;
  let personaA: number;
  let personaB: number;
  const sessions = {} as Record<Role, PortalSession>;

  beforeAll(async () => {
    logs = captureLogs();
    t = await startTestApp(backend, { LOG_LEVEL: 'debug' }, { logDestination: logs.destination });
    clientA = (await t.newClient({ name: 'Acme' })).id;
    clientB = (await t.newClient({ name: 'Bolt' })).id;
    personaA = (await createPersona(t.deps, { clientId: clientA, kind: 'photo' })).id;
    personaB = (await createPersona(t.deps, { clientId: clientB, kind: 'video' })).id;
    const users: Record<Role, string> = {
      operator: await portalUser(t.deps, 'operator'),
      adminA: await portalUser(t.deps, 'client_admin', clientA),
      viewerA: await portalUser(t.deps, 'client_viewer', clientA),
      adminB: await portalUser(t.deps, 'client_admin', clientB),
    };
    for (const [role, email] of Object.entries(users)) sessions[role as Role] = await signInAs(t, email);
  }, 120_000);
  afterAll(() => t?.close());

  const call = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    role: Role | undefined,
    body?: { json: object } | { bytes: Buffer; type: string },
  ) =>
    t.app.inject({
      method,
      url,
      headers: {
        ...(role && (method === 'GET' ? { cookie: sessions[role].cookie } : sessions[role].writeHeaders)),
        ...(body && 'bytes' in body && { 'content-type': body.type }),
      },
      ...(body && { payload: 'json' in body ? body.json : body.bytes }),
    });

  const auditRows = () => t.deps.db.selectFrom('audit_log').selectAll().orderBy('at').orderBy('id').execute();

  /** Runs the call; returns its answer and the audit entries it added. */
  async function audited(request: () => ReturnType<typeof call>) {
    const before = new Set((await auditRows()).map((row) => row.id));
    const res = await request();
    const added = (await auditRows()).filter((row) => !before.has(row.id));
    return { res, added };
  }

  /** A state change that must be refused with `status` and leave no audit entry. */
  async function refused(status: number, request: () => ReturnType<typeof call>) {
    const { res, added } = await audited(request);
    expect(res.statusCode, res.body).toBe(status);
    expect(added).toEqual([]);
    return res;
  }

  describe('reading', () => {
    it("lists the caller's client's personas; operators every client's, or one", async () => {
      const ids = async (role: Role, query = '') =>
        (await call('GET', `/portal/api/personas${query}`, role))
          .json<{ personas: { id: number; client_name: string }[] }>()
          .personas.map((p) => p.id);
      expect(await ids('adminA')).toContain(personaA);
      expect(await ids('adminA')).not.toContain(personaB);
      expect(await ids('adminA', `?client_id=${clientB}`)).not.toContain(personaB);
      expect(await ids('viewerA')).toContain(personaA);
      expect(await ids('adminB')).toEqual([personaB]);
      expect(await ids('operator')).toEqual(expect.arrayContaining([personaA, personaB]));
      expect(await ids('operator', `?client_id=${clientB}`)).toEqual([personaB]);
      expect((await call('GET', '/portal/api/personas', undefined)).statusCode).toBe(401);
    });

    it("opens a persona with its client's name and its template steps' words in every language", async () => {
      const res = await call('GET', `/portal/api/personas/${personaA}`, 'adminA');
      expect(res.statusCode).toBe(200);
      const persona = res.json<{ client_name: string; steps: { translations: Record<string, object> }[] }>();
      expect(persona.client_name).toBe('Acme');
      const { translations } = persona.steps[0]!;
      expect(Object.keys(translations).sort()).toEqual(SUPPORTED_LANGUAGES.filter((l) => l !== 'en').sort());
      const french = templateFor('photo', 'fr').steps[0]!;
      expect(translations.fr).toEqual({ label: french.label, instructions: french.instructions });
      expect((await call('GET', `/portal/api/personas/${personaA}`, 'viewerA')).statusCode).toBe(200);
      expect((await call('GET', `/portal/api/personas/${personaB}`, 'operator')).statusCode).toBe(200);
      // Another client's persona and one that does not exist are answered alike.
      for (const url of [`/portal/api/personas/${personaB}`, '/portal/api/personas/999999']) {
        const res = await call('GET', url, 'adminA');
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ status: 'error', message: 'Not found' });
      }
    });
  });

  describe('changing', () => {
    it('creates a persona in the caller’s client, or the operator’s chosen one, with one audit entry', async () => {
      const { res, added } = await audited(() =>
        call('POST', '/portal/api/personas', 'adminA', { json: { kind: 'photo', name: 'Claims flow' } }),
      );
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({ client_id: clientA, name: 'Claims flow', client_name: 'Acme' });
      expect(added).toMatchObject([{ action: 'persona.create', actor_kind: 'user', client_id: clientA }]);

      const byOperator = await audited(() =>
        call('POST', '/portal/api/personas', 'operator', { json: { kind: 'video', client_id: clientB } }),
      );
      expect(byOperator.res.statusCode).toBe(201);
      expect(byOperator.res.json()).toMatchObject({ client_id: clientB, kind: 'video' });
      expect(byOperator.added).toHaveLength(1);

      await refused(403, () => call('POST', '/portal/api/personas', 'viewerA', { json: { kind: 'photo' } }));
      await refused(404, () =>
        call('POST', '/portal/api/personas', 'adminA', { json: { kind: 'photo', client_id: clientB } }),
      );
      const noClient = await refused(400, () =>
        call('POST', '/portal/api/personas', 'operator', { json: { kind: 'photo' } }),
      );
      expect(noClient.json()).toEqual({ status: 'error', message: 'client_id is required' });
    });

    it('changes steps (reordered, with words per language), language and branding, with one audit entry', async () => {
      const current = (await call('GET', `/portal/api/personas/${personaA}`, 'adminA')).json<{
        steps: { id: string }[];
      }>();
      const steps = [...current.steps].reverse();
      const { res, added } = await audited(() =>
        call('PATCH', `/portal/api/personas/${personaA}`, 'adminA', {
          json: { steps, branding: { name: 'Acme', colour: '#112233' }, video_min_seconds: null },
        }),
      );
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<{ steps: { id: string }[] }>().steps[0]!.id).toBe('plate');
      expect(added).toMatchObject([{ action: 'persona.update', object_id: String(personaA) }]);

      // A reordered template still changes language step by step, from the words kept per language.
      const french = await audited(() =>
        call('PATCH', `/portal/api/personas/${personaA}`, 'adminA', { json: { language: 'fr' } }),
      );
      expect(french.added).toHaveLength(1);
      const steps2 = french.res.json<{ language: string; steps: { id: string; label: string }[] }>();
      expect(steps2.language).toBe('fr');
      expect(steps2.steps[0]).toMatchObject({ id: 'plate', label: 'Plaque d’immatriculation' });

      // Words of the client's own, per language: swapped in when the language changes.
      const own = [
        {
          id: 'damage',
          label: 'Dégât',
          instructions: 'De près.',
          required: true,
          overlay: 'none',
          translations: { en: { label: 'Damage', instructions: 'Close up.' } },
        },
      ];
      await call('PATCH', `/portal/api/personas/${personaA}`, 'adminA', { json: { steps: own } });
      const english = await call('PATCH', `/portal/api/personas/${personaA}`, 'adminA', {
        json: { language: 'en' },
      });
      expect(english.json<{ steps: object[] }>().steps).toEqual([
        {
          id: 'damage',
          label: 'Damage',
          instructions: 'Close up.',
          required: true,
          overlay: 'none',
          accept_poor_quality: true,
          translations: { fr: { label: 'Dégât', instructions: 'De près.' } },
        },
      ]);

      const changed = await audited(() =>
        call('PATCH', `/portal/api/personas/${personaB}`, 'operator', { json: { video_max_seconds: 90 } }),
      );
      expect(changed.res.statusCode).toBe(200);
      expect(changed.added).toHaveLength(1);
    });

    it("refuses a viewer (403), another client's admin (404), no CSRF token (403) and bad settings (400)", async () => {
      const patch = { json: { name: 'Taken over' } };
      await refused(403, () => call('PATCH', `/portal/api/personas/${personaA}`, 'viewerA', patch));
      await refused(404, () => call('PATCH', `/portal/api/personas/${personaB}`, 'adminA', patch));
      await refused(404, () => call('PATCH', `/portal/api/personas/${personaA}`, 'adminB', patch));
      await refused(403, () =>
        t.app.inject({
          method: 'PATCH',
          url: `/portal/api/personas/${personaA}`,
          headers: { cookie: sessions.adminA.cookie },
          payload: patch.json,
        }),
      );
      const bad = await refused(400, () =>
        call('PATCH', `/portal/api/personas/${personaA}`, 'adminA', {
          json: { branding: { colour: 'red' } },
        }),
      );
      expect(bad.json()).toEqual({ status: 'error', message: 'branding colour must look like #1a2b3c' });
    });
  });

  describe('logos', () => {
    it('uploads a logo as a PNG served without a session, and takes it off again, each with one audit entry', async () => {
      const jpeg = await sharp(await png(2000, 400))
        .jpeg()
        .toBuffer();
      const { res, added } = await audited(() =>
        call('POST', `/portal/api/personas/${personaA}/logo`, 'adminA', { bytes: jpeg, type: 'image/jpeg' }),
      );
      expect(res.statusCode, res.body).toBe(200);
      const logoUrl = res.json<{ branding: { logoUrl: string } }>().branding.logoUrl;
      expect(logoUrl).toMatch(/^\/app\/api\/logos\/[0-9a-f]{64}\.png$/);
      expect(added).toMatchObject([
        { action: 'persona.logo', object_type: 'persona', object_id: String(personaA), client_id: clientA },
      ]);
      expect(JSON.parse(added[0]!.after!)).toEqual({
        branding: { name: 'Acme', colour: '#112233', logoUrl },
      });

      // The capture app's phone has no portal session: the logo is public, cached for good.
      const logo = await t.app.inject({ method: 'GET', url: logoUrl });
      expect(logo.statusCode).toBe(200);
      expect(logo.headers['content-type']).toBe('image/png');
      expect(logo.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const meta = await sharp(logo.rawPayload).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['png', 1024, 205]);

      const removed = await audited(() => call('DELETE', `/portal/api/personas/${personaA}/logo`, 'adminA'));
      expect(removed.res.statusCode).toBe(200);
      expect(removed.res.json<{ branding: object }>().branding).toEqual({ name: 'Acme', colour: '#112233' });
      expect(removed.added).toMatchObject([{ action: 'persona.logo' }]);
    });

    it('refuses what is not a PNG, JPEG or WebP (415), a file over 2 MB (413), a viewer and another client', async () => {
      const logo = { bytes: await png(), type: 'image/png' };
      await refused(403, () => call('POST', `/portal/api/personas/${personaA}/logo`, 'viewerA', logo));
      await refused(404, () => call('POST', `/portal/api/personas/${personaB}/logo`, 'adminA', logo));
      await refused(403, () => call('DELETE', `/portal/api/personas/${personaA}/logo`, 'viewerA'));
      await refused(404, () => call('DELETE', `/portal/api/personas/${personaB}/logo`, 'adminA'));
      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
      const message = { status: 'error', message: 'A logo must be a PNG, JPEG or WebP image' };
      for (const sent of [
        { bytes: svg, type: 'image/svg+xml' },
        { bytes: svg, type: 'image/png' },
        { bytes: Buffer.from('%PDF-1.4'), type: 'application/pdf' },
      ])
        expect(
          (
            await refused(415, () => call('POST', `/portal/api/personas/${personaA}/logo`, 'adminA', sent))
          ).json(),
        ).toEqual(message);
      const empty = await refused(415, () => call('POST', `/portal/api/personas/${personaA}/logo`, 'adminA'));
      expect(empty.json()).toEqual(message);
      const noise = await sharp(
        Buffer.alloc(900 * 900 * 3).map(() => Math.floor(Math.random() * 256)),
        {
          raw: { width: 900, height: 900, channels: 3 },
        },
      )
        .png({ compressionLevel: 0 })
        .toBuffer();
      expect(noise.length).toBeGreaterThan(2 * 1024 * 1024);
      const large = await refused(413, () =>
        call('POST', `/portal/api/personas/${personaA}/logo`, 'adminA', { bytes: noise, type: 'image/png' }),
      );
      expect(large.json()).toEqual({ status: 'error', message: 'A logo must be at most 2 MB' });
    });

    it("serves only uploaded logos: never another stored object, such as an inspection's photo", async () => {
      const seeded = await seedInspection(t.deps, clientB, { caseId: 'LOGO-PROBE' });
      const media = await t.deps.db
        .selectFrom('media')
        .select('sha256')
        .where('id', '=', seeded.mediaIds[0]!)
        .executeTakeFirstOrThrow();
      for (const url of [`/app/api/logos/${media.sha256}.png`, `/app/api/logos/${'0'.repeat(64)}.png`])
        expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'GET', url: '/app/api/logos/..%2Fsecret.png' })).statusCode).toBe(
        400,
      );
    });
  });

  describe('test links', () => {
    it('makes a link that opens the capture flow, with a QR code of its URL; the token is in no audit entry or log line', async () => {
      const linesBefore = logs.lines.length;
      const { res, added } = await audited(() =>
        call('POST', `/portal/api/personas/${personaA}/test-link`, 'adminA'),
      );
      expect(res.statusCode, res.body).toBe(201);
      const link = res.json<{ link_id: string; url: string; case_id: string; qr_svg: string }>();
      const token = /#([A-Za-z0-9_-]{43})$/.exec(link.url)?.[1];
      expect(token).toBeDefined();
      expect(link.url).toBe(`${t.deps.config.superappUrl}/#${token}`);
      expect(link.case_id).toBe(`test-persona-${personaA}`);
      expect(added).toMatchObject([
        { action: 'link.create_test', object_type: 'link', object_id: link.link_id, client_id: clientA },
      ]);

      const flow = await t.app.inject({
        method: 'GET',
        url: '/app/api/flow',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(flow.statusCode).toBe(200);
      expect(flow.json()).toMatchObject({ case_id: `test-persona-${personaA}`, persona: { id: personaA } });

      // The QR code, drawn as a phone camera would see it, reads back as the link.
      const { data, info } = await sharp(Buffer.from(link.qr_svg), { density: 600 })
        .flatten({ background: '#ffffff' })
        .ensureAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      expect(decodeQR({ width: info.width, height: info.height, data })).toBe(link.url);

      // The token is the link's secret: nowhere in the audit log, nowhere in the logs.
      const everyEntry = JSON.stringify(await auditRows());
      expect(everyEntry).not.toContain(token);
      expect(everyEntry).not.toContain(link.url);
      const lines = logs.lines.slice(linesBefore);
      expect(lines.length).toBeGreaterThan(0);
      expect(JSON.stringify(lines)).not.toContain(token);
      expect(JSON.stringify(logs.lines)).not.toContain(token);
    });

    it("refuses a viewer (403) and another client's persona (404); operators make links for any client", async () => {
      await refused(403, () => call('POST', `/portal/api/personas/${personaA}/test-link`, 'viewerA'));
      await refused(404, () => call('POST', `/portal/api/personas/${personaB}/test-link`, 'adminA'));
      const { res, added } = await audited(() =>
        call('POST', `/portal/api/personas/${personaB}/test-link`, 'operator'),
      );
      expect(res.statusCode).toBe(201);
      expect(added).toMatchObject([{ action: 'link.create_test', client_id: clientB }]);
    });
  });
});
