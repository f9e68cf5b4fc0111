// The outbox in the portal (docs/portal.md#messages) through app.inject(), on one database seen by two
// services: one without a mail server (messages are held) and one with a real SMTP server on loopback and
// a worker, as after the operator configures SMTP_URL. Per role and client: who lists what, who sends a
// held message or re-sends a failed one; an invitation e-mail really goes out, and its link sets the
// password once. One audit entry per change; no token or password in an audit entry or a log line.
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { buildDeps, type Deps } from '../../src/deps.js';
import { buildApp } from '../../src/http/app.js';
import { inTransaction, type OutboxMessageRow } from '../../src/ports/database.js';
import { queueLinkMessages } from '../../src/services/outbox/queue-messages.js';
import { createPersona } from '../../src/services/personas/manage.js';
import { startWorker, type RunningWorker } from '../../src/workers/run.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { BACKENDS } from '../helpers/backends.js';
import { captureLogs } from '../helpers/log-capture.js';
import { PASSWORD, portalUser, signInAs, type PortalSession } from '../helpers/portal.js';
import { startSmtpServer, type ReceivedMail, type SmtpTestServer } from '../helpers/smtp-server.js';

const CHOSEN = 'my own long passphrase';
const SET_PASSWORD_LINK = /\/portal\/#\/set-password\/([A-Za-z0-9_-]{43})/;

interface Listed {
  id: string;
  client_id: string | null;
  kind: 'link' | 'invitation' | 'password_reset';
  recipient: string;
  body: string;
  status: 'pending' | 'sent' | 'failed' | 'held';
  attempts: number;
  last_error: string | null;
  may_send: boolean;
  may_resend: boolean;
}
interface Page {
  messages: Listed[];
  next_cursor: string | null;
  counts: Record<string, number>;
  providers: { email: boolean; sms: boolean };
}

describe.each(BACKENDS)('the outbox in the portal on %s', (backend) => {
  let t: TestApp;
  let smtp: SmtpTestServer;
  let mailDeps: Deps;
  let mailApp: FastifyInstance;
  let worker: RunningWorker;
  let clientA: { id: string; personaId: number };
  let clientB: { id: string; personaId: number };
  const logs = captureLogs();
  const sessions: Record<'operator' | 'adminA' | 'viewerA' | 'adminB', PortalSession> = {} as never;
  const emails: Record<string, string> = {};
  const secrets: string[] = [PASSWORD, CHOSEN];

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await startTestApp(backend, { LOG_LEVEL: 'debug' }, { logDestination: logs.destination });
    // The same database, as a service whose operator has configured a mail server since.
    const config = loadConfig({
      ...t.environment.env,
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      SMTP_REQUIRE_TLS: 'false', // the test server speaks plain SMTP on loopback
      SMTP_FROM: 'Walkaround <portal@ops.test>',
    });
    mailDeps = await buildDeps(config, { logDestination: logs.destination });
    mailApp = await buildApp(mailDeps);
    await mailApp.ready();
    worker = await startWorker(mailDeps);
    for (const [name, target] of [
      ['Acme', 'A'],
      ['Bolt', 'B'],
    ] as const) {
      const { id } = await t.newClient({ name });
      const persona = await createPersona(t.deps, { clientId: id, kind: 'photo' });
      if (target === 'A') clientA = { id, personaId: persona.id };
      else clientB = { id, personaId: persona.id };
    }
    emails.operator = await portalUser(t.deps, 'operator');
    emails.adminA = await portalUser(t.deps, 'client_admin', clientA.id);
    emails.viewerA = await portalUser(t.deps, 'client_viewer', clientA.id);
    emails.adminB = await portalUser(t.deps, 'client_admin', clientB.id);
    for (const who of ['operator', 'adminA', 'viewerA', 'adminB'] as const)
      sessions[who] = await signInAs(t, emails[who]!);
  }, 90_000);
  afterAll(async () => {
    await worker?.stop();
    await mailApp?.close();
    await mailDeps?.close();
    await t?.close();
    await smtp?.close();
  });

  /** A request to the service without a mail server, or (`mail`) to the one with. */
  const call = (
    method: 'GET' | 'POST',
    url: string,
    session: PortalSession | undefined,
    options: { mail?: boolean; payload?: object } = {},
  ) =>
    (options.mail ? mailApp : t.app).inject({
      method,
      url,
      headers: session ? (method === 'GET' ? { cookie: session.cookie } : session.writeHeaders) : {},
      ...(options.payload && { payload: options.payload }),
    });
  const list = async (session: PortalSession, query = '', mail = false) =>
    (await call('GET', `/portal/api/outbox${query}`, session, { mail })).json<Page>();
  const auditRows = () => t.deps.db.selectFrom('audit_log').selectAll().orderBy('at').orderBy('id').execute();
  async function audited(change: () => Promise<unknown>) {
    const before = new Set((await auditRows()).map((e) => e.id));
    await change();
    return (await auditRows()).filter((e) => !before.has(e.id));
  }
  const message = (id: string) =>
    t.deps.db.selectFrom('outbox_messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  async function settled(id: string, done: (row: OutboxMessageRow) => boolean): Promise<OutboxMessageRow> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const row = await message(id);
      if (done(row)) return row;
      if (Date.now() > deadline) throw new Error(`message never settled: ${JSON.stringify(row)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  async function mailTo(address: string): Promise<ReceivedMail> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const found = smtp.received.filter((m) => m.to.includes(address)).at(-1);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no e-mail to ${address}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  /** An inspection link of `client` whose e-mail is written to the outbox, as POST /superappToken does. */
  async function linkMessage(deps: Deps, client: { id: string; personaId: number }, email: string) {
    const linkId = crypto.randomUUID();
    const token = crypto.randomBytes(32).toString('base64url');
    secrets.push(token);
    const expiresAt = Date.now() + 72 * 3600_000;
    await inTransaction(deps.db, async (trx) => {
      await trx
        .insertInto('links')
        .values({
          id: linkId,
          client_id: client.id,
          persona_id: client.personaId,
          token_hash: crypto.createHash('sha256').update(token).digest('hex'),
          status: 'open',
          expires_at: expiresAt,
          created_at: Date.now(),
        })
        .execute();
      await queueLinkMessages(trx, deps, {
        clientId: client.id,
        clientName: 'Acme',
        linkId,
        language: 'en',
        url: `${deps.config.superappUrl}/#${token}`,
        token,
        expiresAt,
        email,
      });
    });
    const row = await t.deps.db
      .selectFrom('outbox_messages')
      .selectAll()
      .where('link_id', '=', linkId)
      .executeTakeFirstOrThrow();
    return { linkId, token, id: row.id };
  }

  let heldA: { id: string; token: string; linkId: string };
  let heldB: { id: string };
  let operatorInvite: string;
  let heldInvite: string;

  it("lists every message to an operator, a client admin their client's only, a viewer none; tokens never", async () => {
    heldA = await linkMessage(t.deps, clientA, 'driver.a@example.com');
    heldB = await linkMessage(t.deps, clientB, 'driver.b@example.com');
    const invited = await call('POST', '/portal/api/invitations', sessions.operator, {
      payload: { email: 'ops.friend@ops.test', role: 'operator' },
    });
    operatorInvite = invited.json<{ message: { id: string } }>().message.id;
    const byAdmin = await call('POST', '/portal/api/invitations', sessions.adminA, {
      payload: { email: 'held.invite@acme.test', role: 'client_viewer' },
    });
    heldInvite = byAdmin.json<{ message: { id: string } }>().message.id;

    const all = await list(sessions.operator);
    expect(all.providers).toEqual({ email: false, sms: false });
    const ids = all.messages.map((m) => m.id);
    expect(ids).toEqual(expect.arrayContaining([heldA.id, heldB.id, operatorInvite, heldInvite]));
    expect(ids.indexOf(heldInvite)).toBeLessThan(ids.indexOf(heldA.id)); // newest first
    expect(all.counts.held).toBe(4);
    const a = all.messages.find((m) => m.id === heldA.id)!;
    expect(a).toMatchObject({
      kind: 'link',
      status: 'held',
      attempts: 0,
      may_send: false,
      may_resend: false,
    });
    expect(a.body).toContain('/#[redacted]');
    expect(all.messages.find((m) => m.id === heldInvite)).toMatchObject({
      kind: 'invitation',
      client_id: clientA.id,
    });

    const mine = await list(sessions.adminA, `?client_id=${clientB.id}`);
    expect(mine.messages.map((m) => m.id).sort()).toEqual([heldA.id, heldInvite].sort());
    expect((await list(sessions.adminB)).messages.map((m) => m.id)).toEqual([heldB.id]);
    expect((await list(sessions.operator, `?client_id=${clientB.id}`)).messages.map((m) => m.id)).toEqual([
      heldB.id,
    ]);
    expect((await list(sessions.operator, '?kind=invitation')).messages.map((m) => m.id).sort()).toEqual(
      [operatorInvite, heldInvite].sort(),
    );
    const first = await list(sessions.operator, '?limit=2');
    const second = await list(sessions.operator, `?limit=2&cursor=${first.next_cursor}`);
    expect([...first.messages, ...second.messages].map((m) => m.id)).toEqual(ids.slice(0, 4));
    expect((await call('GET', '/portal/api/outbox', sessions.viewerA)).statusCode).toBe(403);
    expect((await call('GET', '/portal/api/outbox', undefined)).statusCode).toBe(401);
    const text = JSON.stringify(all);
    for (const secret of secrets) expect(text).not.toContain(secret);
  });

  it('sends a held invitation once a mail server is configured; its link sets the password once', async () => {
    const refused = await call('POST', `/portal/api/outbox/${heldInvite}/send`, sessions.adminA);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ status: 'error', message: 'No mail server (SMTP_URL) is configured' });
    expect((await list(sessions.adminA, '', true)).messages.find((m) => m.id === heldInvite)).toMatchObject({
      may_send: true,
    });
    const other = await call('POST', `/portal/api/outbox/${heldInvite}/send`, sessions.adminB, {
      mail: true,
    });
    expect(other.statusCode).toBe(404);
    const viewer = await call('POST', `/portal/api/outbox/${heldInvite}/send`, sessions.viewerA, {
      mail: true,
    });
    expect(viewer.statusCode).toBe(403);
    const entries = await audited(async () => {
      const sent = await call('POST', `/portal/api/outbox/${heldInvite}/send`, sessions.adminA, {
        mail: true,
      });
      expect(sent.statusCode).toBe(202);
      expect(sent.json()).toEqual({ id: heldInvite, status: 'pending' });
    });
    expect(entries.map((e) => [e.action, e.actor, e.client_id, e.object_id])).toEqual([
      ['outbox.send_held', emails.adminA, clientA.id, heldInvite],
    ]);

    const mail = await mailTo('held.invite@acme.test');
    expect(mail.from).toBe('portal@ops.test');
    expect(mail.subject).toBe('Your account on the Walkaround inspection portal of Acme');
    const token = SET_PASSWORD_LINK.exec(mail.text)?.[1];
    expect(token).toBeDefined();
    secrets.push(token!);
    expect(mail.text).toContain(`${t.deps.config.publicBaseUrl}/portal/#/set-password/${token}`);
    expect(mail.html).toContain(`<a href="${t.deps.config.publicBaseUrl}/portal/#/set-password/${token}">`);
    const row = await settled(heldInvite, (r) => r.status === 'sent');
    expect(row).toMatchObject({ attempts: 1, link_token_sealed: null });
    expect(row.body).not.toContain(token);

    const used = await audited(async () => {
      const set = await mailApp.inject({
        method: 'POST',
        url: '/portal/api/password-link',
        payload: { token, password: CHOSEN },
      });
      expect(set.statusCode).toBe(200);
    });
    expect(used.map((e) => [e.action, e.actor])).toEqual([['user.set_password', 'held.invite@acme.test']]);
    const again = await mailApp.inject({
      method: 'POST',
      url: '/portal/api/password-link',
      payload: { token, password: 'yet another password' },
    });
    expect(again.statusCode).toBe(410);
    await signInAs(t, 'held.invite@acme.test', CHOSEN);
    const twice = await call('POST', `/portal/api/outbox/${heldInvite}/send`, sessions.adminA, {
      mail: true,
    });
    expect(twice.statusCode).toBe(409);
  });

  it('sends an invitation at once when a mail server is configured, and a held link message by an operator', async () => {
    const invited = await call('POST', '/portal/api/invitations', sessions.operator, {
      mail: true,
      payload: { email: 'direct@bolt.test', role: 'client_admin', client_id: clientB.id },
    });
    expect(invited.statusCode).toBe(201);
    expect(invited.json()).toMatchObject({ message: { status: 'pending' } });
    const mail = await mailTo('direct@bolt.test');
    expect(mail.subject).toBe('Your account on the Walkaround inspection portal of Bolt');
    secrets.push(SET_PASSWORD_LINK.exec(mail.text)![1]!);

    const sent = await call('POST', `/portal/api/outbox/${heldA.id}/send`, sessions.operator, { mail: true });
    expect(sent.statusCode).toBe(202);
    const link = await mailTo('driver.a@example.com');
    expect(link.text).toContain(`/#${heldA.token}`);
    await settled(heldA.id, (r) => r.status === 'sent');
  });

  it('re-sends a failed invitation once the cause is fixed, audited once; per role and client', async () => {
    smtp.failNext(1, 550); // refused for good: failed at once
    const invited = await call('POST', '/portal/api/invitations', sessions.adminA, {
      mail: true,
      payload: { email: 'bounce@acme.test', role: 'client_viewer' },
    });
    const id = invited.json<{ message: { id: string } }>().message.id;
    const failed = await settled(id, (r) => r.status === 'failed');
    expect(failed.attempts).toBe(1);
    expect(failed.last_error).toMatch(/550/);
    expect(
      (await list(sessions.adminA, '?status=failed', true)).messages.find((m) => m.id === id),
    ).toMatchObject({ may_resend: true, may_send: false });
    expect(
      (await call('POST', `/portal/api/outbox/${id}/resend`, sessions.adminB, { mail: true })).statusCode,
    ).toBe(404);
    expect(
      (await call('POST', `/portal/api/outbox/${id}/resend`, sessions.viewerA, { mail: true })).statusCode,
    ).toBe(403);
    const refused = await call('POST', `/portal/api/outbox/${id}/resend`, sessions.adminA);
    expect(refused.json()).toEqual({ status: 'error', message: 'No mail server (SMTP_URL) is configured' });
    const entries = await audited(async () => {
      const again = await call('POST', `/portal/api/outbox/${id}/resend`, sessions.adminA, { mail: true });
      expect(again.statusCode).toBe(202);
    });
    expect(entries.map((e) => [e.action, e.actor, e.client_id, e.object_id])).toEqual([
      ['outbox.resend', emails.adminA, clientA.id, id],
    ]);
    expect(JSON.parse(entries[0]!.before!)).toEqual({ status: 'failed', attempts: 1 });
    const mail = await mailTo('bounce@acme.test');
    const token = SET_PASSWORD_LINK.exec(mail.text)![1]!;
    secrets.push(token);
    expect(await settled(id, (r) => r.status === 'sent')).toMatchObject({
      attempts: 2,
      link_token_sealed: null,
    });
    const sentAgain = await call('POST', `/portal/api/outbox/${id}/resend`, sessions.adminA, { mail: true });
    expect(sentAgain.statusCode).toBe(409);
    expect(sentAgain.json<{ message: string }>().message).toBe(`Message ${id} is sent, not failed`);
    const set = await mailApp.inject({
      method: 'POST',
      url: '/portal/api/password-link',
      payload: { token, password: CHOSEN },
    });
    expect(set.statusCode).toBe(200);
  });

  it('re-sends a failed link message with its link, but not once the link is submitted', async () => {
    smtp.failNext(2, 550);
    const open = await linkMessage(mailDeps, clientB, 'again@example.com');
    const closed = await linkMessage(mailDeps, clientB, 'closed@example.com');
    await settled(open.id, (r) => r.status === 'failed');
    await settled(closed.id, (r) => r.status === 'failed');
    await t.deps.db
      .updateTable('links')
      .set({ status: 'submitted' })
      .where('id', '=', closed.linkId)
      .execute();
    const listed = (await list(sessions.adminB, '?status=failed', true)).messages;
    expect(listed.find((m) => m.id === open.id)).toMatchObject({ may_resend: true });
    expect(listed.find((m) => m.id === closed.id)).toMatchObject({ may_resend: false });

    const refused = await call('POST', `/portal/api/outbox/${closed.id}/resend`, sessions.adminB, {
      mail: true,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ message: string }>().message).toBe(
      'It cannot be sent again: the link was submitted',
    );
    const again = await call('POST', `/portal/api/outbox/${open.id}/resend`, sessions.adminB, { mail: true });
    expect(again.statusCode).toBe(202);
    expect((await mailTo('again@example.com')).text).toContain(`/#${open.token}`);
    await settled(open.id, (r) => r.status === 'sent');
    expect(
      (await call('POST', `/portal/api/outbox/${open.id}/resend`, sessions.adminA, { mail: true }))
        .statusCode,
    ).toBe(404);
  });

  it('keeps every token and password out of the audit log and the logs', async () => {
    const audit = JSON.stringify(await auditRows());
    const logged = JSON.stringify(logs.lines);
    expect(logs.lines.some((l) => l.msg === 'link message sent' && l.kind === 'invitation')).toBe(true);
    for (const secret of secrets) {
      expect(audit).not.toContain(secret);
      expect(logged).not.toContain(secret);
    }
    expect(secrets.length).toBeGreaterThanOrEqual(8);
  });
});
