// The audit log (docs/audit.md): every change through the client API, the portal and the services the CLI
// calls leaves exactly one entry naming who made it; entries never hold a secret; the table refuses to be
// rewritten; the portal lists it per role.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_ACTOR } from '../../src/services/audit.js';
import {
  rotateKey,
  rotateWebhookSecret,
  revokeKeys,
  updateClient,
} from '../../src/services/clients/manage.js';
import { resetPassword, updatePortalUser } from '../../src/services/users/accounts.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { BACKENDS } from '../helpers/backends.js';
import { PASSWORD, portalUser, seedInspection, signInAs, type PortalSession } from '../helpers/portal.js';

describe.each(BACKENDS)('audit log on %s', (backend) => {
  let t: TestApp;
  let clientA: { id: string; apiKey: string; webhookSecret: string };
  let clientB: { id: string; apiKey: string };
  const sessions: Record<'operator' | 'adminA' | 'viewerA', PortalSession | undefined> = {
    operator: undefined,
    adminA: undefined,
    viewerA: undefined,
  };
  const secrets: string[] = [];
  let adminEmail = '';

  beforeAll(async () => {
    t = await startTestApp(backend);
    clientA = await t.newClient({ name: 'Audited A' });
    clientB = await t.newClient({ name: 'Audited B' });
    secrets.push(clientA.apiKey, clientA.webhookSecret, clientB.apiKey);
    sessions.operator = await signInAs(t, await portalUser(t.deps, 'operator'));
    adminEmail = await portalUser(t.deps, 'client_admin', clientA.id);
    sessions.adminA = await signInAs(t, adminEmail);
    sessions.viewerA = await signInAs(t, await portalUser(t.deps, 'client_viewer', clientA.id));
  }, 60_000);
  afterAll(async () => t?.close());

  const entries = () => t.deps.db.selectFrom('audit_log').selectAll().orderBy('at').orderBy('id').execute();

  /** Runs `change` and returns the entries it added. */
  async function added(change: () => Promise<unknown>) {
    const before = new Set((await entries()).map((e) => e.id));
    await change();
    return (await entries()).filter((e) => !before.has(e.id));
  }

  it('records a change through the client API with the API key and the request that made it', async () => {
    const requests: unknown[] = [];
    const created = await added(async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/personas',
        headers: { 'x-api-key': clientA.apiKey },
        payload: { kind: 'photo', name: 'Audited flow' },
      });
      expect(res.statusCode).toBe(201);
      requests.push(res.headers['x-request-id']);
      const id = res.json<{ id: number }>().id;
      const patched = await t.app.inject({
        method: 'PATCH',
        url: `/api/personas/${id}`,
        headers: { 'x-api-key': clientA.apiKey },
        payload: { language: 'fr' },
      });
      expect(patched.statusCode).toBe(200);
      requests.push(patched.headers['x-request-id']);
    });
    expect(created.map((e) => e.request_id)).toEqual(requests);
    expect(created.map((e) => [e.action, e.actor_kind, e.actor, e.client_id])).toEqual([
      ['persona.create', 'api_key', clientA.apiKey.slice(0, 14), clientA.id],
      ['persona.update', 'api_key', clientA.apiKey.slice(0, 14), clientA.id],
    ]);
    const update = created[1]!;
    expect(JSON.parse(update.before!)).toMatchObject({ language: 'en' });
    expect(JSON.parse(update.after!)).toMatchObject({ language: 'fr' });
  });

  it('records each operator change once, with settings before and after, and never a secret', async () => {
    const changes = await added(async () => {
      await updateClient(
        t.deps,
        clientA.id,
        { quotaPerHour: 77, webhookUrl: 'https://hooks.example.com/a' },
        CLI_ACTOR,
      );
      secrets.push(await rotateKey(t.deps, clientA.id, 3600, CLI_ACTOR));
      secrets.push(await rotateWebhookSecret(t.deps, clientA.id, 3600, CLI_ACTOR));
      await revokeKeys(t.deps, clientB.id, undefined, CLI_ACTOR);
    });
    // Entries made in the same millisecond have no order between them: compared as a set.
    const rows = changes.map((e) => [e.action, e.actor_kind, e.object_type, e.object_id].join(' '));
    expect(rows.sort()).toEqual(
      [
        `client.update cli client ${clientA.id}`,
        `api_key.rotate cli client ${clientA.id}`,
        `webhook_secret.rotate cli client ${clientA.id}`,
        `api_key.revoke cli client ${clientB.id}`,
      ].sort(),
    );
    // Made by no request: the CLI calls the services.
    expect(changes.map((e) => e.request_id)).toEqual([null, null, null, null]);
    const entry = (action: string) => changes.find((e) => e.action === action)!;
    expect(JSON.parse(entry('client.update').before!)).toMatchObject({
      quota_per_hour: 1000,
      webhook_url: null,
    });
    expect(JSON.parse(entry('client.update').after!)).toMatchObject({
      quota_per_hour: 77,
      webhook_url: 'https://hooks.example.com/a',
    });
    expect(JSON.parse(entry('api_key.rotate').after!)).toMatchObject({
      new_prefix: secrets.at(-2)!.slice(0, 14),
    });
  });

  it('records portal changes with the user and the request that made them', async () => {
    const requests: unknown[] = [];
    const seeded = await seedInspection(t.deps, clientA.id, { caseId: 'AUDIT-1' });
    const page = await t.app.inject({
      url: `/portal/api/inspections/${seeded.id}`,
      headers: { cookie: sessions.adminA!.cookie },
    });
    const version = page.json<{ version: number }>().version;
    const changes = await added(async () => {
      const reviewed = await t.app.inject({
        method: 'POST',
        url: `/portal/api/inspections/${seeded.id}/review`,
        headers: sessions.adminA!.writeHeaders,
        payload: { base_version: version, decision: 'accepted', note: 'fine' },
      });
      expect(reviewed.statusCode).toBe(201);
      requests.push(reviewed.headers['x-request-id']);
      const shared = await t.app.inject({
        method: 'POST',
        url: `/portal/api/inspections/${seeded.id}/shares`,
        headers: sessions.adminA!.writeHeaders,
        payload: {},
      });
      expect(shared.statusCode).toBe(201);
      requests.push(shared.headers['x-request-id']);
      const { id, url } = shared.json<{ id: string; url: string }>();
      secrets.push(url.split('#/share/')[1]!);
      const revoked = await t.app.inject({
        method: 'DELETE',
        url: `/portal/api/shares/${id}`,
        headers: sessions.adminA!.writeHeaders,
      });
      expect(revoked.statusCode).toBe(204);
      requests.push(revoked.headers['x-request-id']);
    });
    expect(requests.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    expect(changes.map((e) => e.request_id)).toEqual(requests);
    expect(changes.map((e) => [e.action, e.actor_kind, e.actor, e.client_id])).toEqual([
      ['inspection.review', 'user', adminEmail, clientA.id],
      ['share.create', 'user', adminEmail, clientA.id],
      ['share.revoke', 'user', adminEmail, clientA.id],
    ]);
  });

  it('records user changes, and a failed change records nothing', async () => {
    const email = await portalUser(t.deps, 'client_viewer', clientA.id);
    const changes = await added(async () => {
      await updatePortalUser(t.deps, { email, role: 'client_admin' }, CLI_ACTOR);
      await resetPassword(t.deps, { email, password: `${PASSWORD} again` }, CLI_ACTOR);
      await expect(updateClient(t.deps, 'no-such-client', { quotaPerHour: 5 }, CLI_ACTOR)).rejects.toThrow();
      await expect(updateClient(t.deps, clientA.id, { quotaPerHour: 0 }, CLI_ACTOR)).rejects.toThrow();
    });
    expect(changes.map((e) => e.action)).toEqual(['user.update', 'user.reset_password']);
    expect(JSON.parse(changes[0]!.before!)).toEqual({
      email,
      role: 'client_viewer',
      client_id: clientA.id,
      disabled: false,
    });
  });

  it('holds no secret, nor any hash of one, in any entry', async () => {
    const text = JSON.stringify(await entries());
    for (const secret of [...secrets, PASSWORD]) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/password_hash|key_hash|webhook_secret_enc|scrypt/);
  });

  it('refuses to change or delete an entry (append-only in the database)', async () => {
    const [first] = await entries();
    await expect(
      sql`update audit_log set actor = 'someone else' where id = ${first!.id}`.execute(t.deps.db),
    ).rejects.toThrow(/append-only/);
    await expect(sql`delete from audit_log where id = ${first!.id}`.execute(t.deps.db)).rejects.toThrow(
      /append-only/,
    );
    expect((await entries())[0]).toEqual(first);
  });

  describe('in the portal', () => {
    const list = (session: PortalSession, query = '') =>
      t.app.inject({ url: `/portal/api/audit${query}`, headers: { cookie: session.cookie } });
    type Page = { entries: { action: string; client_id: string | null }[]; next_cursor: string | null };

    it("shows an operator every client's entries, and one client's when asked", async () => {
      const all = (await list(sessions.operator!, '?limit=200')).json<Page>();
      const clients = new Set(all.entries.map((e) => e.client_id));
      expect(clients).toContain(clientA.id);
      expect(clients).toContain(clientB.id);
      const onlyB = (await list(sessions.operator!, `?client_id=${clientB.id}`)).json<Page>();
      expect(onlyB.entries.length).toBeGreaterThan(0);
      expect(onlyB.entries.every((e) => e.client_id === clientB.id)).toBe(true);
    });

    it("shows a client admin only their client's entries, whatever they ask; a viewer none", async () => {
      const asked = (await list(sessions.adminA!, `?client_id=${clientB.id}&limit=200`)).json<Page>();
      expect(asked.entries.length).toBeGreaterThan(0);
      expect(asked.entries.every((e) => e.client_id === clientA.id)).toBe(true);
      expect((await list(sessions.viewerA!)).statusCode).toBe(403);
    });

    it('filters by action and pages newest first without gap or overlap', async () => {
      const updates = (await list(sessions.operator!, '?action=persona.update')).json<Page>();
      expect(updates.entries.map((e) => e.action)).toEqual(['persona.update']);
      const first = (await list(sessions.operator!, '?limit=2')).json<Page>();
      const second = (await list(sessions.operator!, `?limit=2&cursor=${first.next_cursor}`)).json<Page>();
      const whole = (await list(sessions.operator!, '?limit=4')).json<Page>();
      expect([...first.entries, ...second.entries]).toEqual(whole.entries);
    });
  });
});
