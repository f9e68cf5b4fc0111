// Link messages (docs/messages.md) end to end on every database: written to the outbox in the link's
// transaction, sent by a real worker to a real SMTP server and a real SMS endpoint (both provider shapes),
// retried when they fail, held when no provider is configured; providers on private addresses are the
// operator's own and trusted.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction, type OutboxMessageRow } from '../../src/ports/database.js';
import { buildDeps, type Deps } from '../../src/deps.js';
import { buildApp } from '../../src/http/app.js';
import { createPersona } from '../../src/services/personas/manage.js';
import { queueLinkMessages, type LinkMessageInput } from '../../src/services/outbox/queue-messages.js';
import type { OutboxView } from '../../src/services/outbox/list.js';
import { sendMessage } from '../../src/services/outbox/send-message.js';
import { startWorker, type RunningWorker } from '../../src/workers/run.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { uploadClient } from '../helpers/upload-client.js';
import { BACKENDS } from '../helpers/backends.js';
import { runCli } from '../helpers/process.js';
import { startSmsReceiver, type SmsReceiver } from '../helpers/sms-receiver.js';
import { startSmtpServer, type SmtpTestServer } from '../helpers/smtp-server.js';

const SMTP_USER = { user: 'mailer', pass: 'smtp-secret' };
const TWILIO = { SMS_ACCOUNT_SID: 'AC0123', SMS_AUTH_TOKEN: 'twilio-secret', SMS_FROM: '+15005550006' };
/** Retries a tenth of a second apart, so a schedule plays out within a test. */
const FAST_RETRIES = { MESSAGE_RETRY_SCHEDULE: '100ms,100ms,100ms' };

/** Creates a link for `clientId` and queues its messages in one transaction, as the link service does. */
async function queueLink(
  deps: Deps,
  client: { id: string; name: string; personaId: number },
  contact: Pick<LinkMessageInput, 'email' | 'phone'> & {
    language?: string;
    linkStatus?: 'open' | 'submitted';
  },
): Promise<{ linkId: string; url: string }> {
  const linkId = crypto.randomUUID();
  const token = crypto.randomBytes(32).toString('base64url');
  const url = `${deps.config.superappUrl}/#${token}`;
  const now = deps.now();
  const expiresAt = now + 72 * 3600_000;
  await inTransaction(deps.db, async (trx) => {
    await trx
      .insertInto('links')
      .values({
        id: linkId,
        client_id: client.id,
        persona_id: client.personaId,
        token_hash: crypto.randomBytes(32).toString('hex'),
        status: contact.linkStatus ?? 'open',
        expires_at: expiresAt,
        created_at: now,
      })
      .execute();
    await queueLinkMessages(trx, deps, {
      clientId: client.id,
      clientName: client.name,
      linkId,
      language: contact.language ?? 'en',
      url,
      token,
      expiresAt,
      phone: contact.phone,
      email: contact.email,
    });
  });
  return { linkId, url };
}

const messagesOf = (deps: Deps, linkId: string) =>
  deps.db
    .selectFrom('outbox_messages')
    .selectAll()
    .where('link_id', '=', linkId)
    .orderBy('channel')
    .execute();

/** Polls the link's messages until `done` holds for them. */
async function settle(
  deps: Deps,
  linkId: string,
  done: (rows: OutboxMessageRow[]) => boolean,
): Promise<OutboxMessageRow[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const rows = await messagesOf(deps, linkId);
    if (rows.length > 0 && done(rows)) return rows;
    if (Date.now() > deadline) throw new Error(`messages never settled: ${JSON.stringify(rows)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
const allSettled = (rows: OutboxMessageRow[]) =>
  rows.every((r) => r.status === 'sent' || r.status === 'failed');

async function newClient(t: TestApp, name: string) {
  const { id } = await t.newClient({ name });
  const persona = await createPersona(t.deps, { clientId: id, kind: 'photo' });
  return { id, name, personaId: persona.id };
}

describe.each(BACKENDS)('link messages on %s', (backend) => {
  describe('over SMTP and a Twilio-compatible provider', () => {
    let t: TestApp;
    let worker: RunningWorker;
    let smtp: SmtpTestServer;
    let sms: SmsReceiver;
    let client: Awaited<ReturnType<typeof newClient>>;

    beforeAll(async () => {
      smtp = await startSmtpServer(SMTP_USER);
      sms = await startSmsReceiver();
      t = await startTestApp(backend, {
        // The mail server and the SMS endpoint listen on loopback.
        ALLOW_PRIVATE_NETWORKS: 'true',
        SMTP_URL: `smtp://${SMTP_USER.user}:${SMTP_USER.pass}@127.0.0.1:${smtp.port}`,
        // The test server speaks plain SMTP (no certificate to trust); the default requires STARTTLS.
        SMTP_REQUIRE_TLS: 'false',
        SMTP_FROM: 'Acme Inspections <inspections@acme.test>',
        SMS_PROVIDER: 'twilio',
        SMS_URL: `http://127.0.0.1:${sms.port}`,
        ...TWILIO,
        ...FAST_RETRIES,
      });
      worker = await startWorker(t.deps);
      client = await newClient(t, 'Acme Leasing');
    }, 60_000);
    afterAll(async () => {
      await worker?.stop();
      await t?.close();
      await smtp?.close();
      await sms?.close();
    });

    it('sends the e-mail and the SMS of a new link, each with the link, and records them as sent', async () => {
      const mailsBefore = smtp.received.length;
      const smsBefore = sms.delivered().length;
      const { linkId, url } = await queueLink(t.deps, client, {
        email: 'driver@example.com',
        phone: '+33612345678',
      });
      const [mail] = (await smtp.waitFor(mailsBefore + 1)).slice(mailsBefore);
      expect(mail!.to).toEqual(['driver@example.com']);
      expect(mail!.from).toBe('inspections@acme.test');
      expect(mail!.user).toBe(SMTP_USER.user);
      expect(mail!.subject).toBe('Acme Leasing: your vehicle inspection link');
      expect(mail!.text).toContain(url);
      expect(mail!.html).toContain(`<a href="${url}">`);

      const [text] = (await sms.waitFor(smsBefore + 1)).slice(smsBefore);
      expect(text).toMatchObject({ shape: 'twilio', path: '/2010-04-01/Accounts/AC0123/Messages.json' });
      expect(text!.to).toBe('+33612345678');
      expect(text!.from).toBe('+15005550006');
      expect(text!.body).toContain(url);
      expect(text!.authorization).toBe(`Basic ${Buffer.from('AC0123:twilio-secret').toString('base64')}`);

      const [email, phone] = await settle(t.deps, linkId, (rows) => rows.every((r) => r.status === 'sent'));
      expect(email).toMatchObject({ channel: 'email', attempts: 1, last_error: null, language: 'en' });
      expect(email!.provider_message_id).toBe(mail!.headers['message-id']);
      expect(email!.sent_at).toBeGreaterThan(0);
      expect(phone).toMatchObject({ channel: 'sms', attempts: 1, provider_message_id: text!.id });
      // Once sent, the outbox no longer holds a usable link.
      for (const row of [email!, phone!]) {
        expect(row.body).not.toContain(url);
        expect(row.body).toContain(`${t.deps.config.superappUrl}/#[redacted]`);
      }
    });

    it('drops a message whose link was submitted before it could be sent', async () => {
      const before = smtp.received.length;
      const { linkId, url } = await queueLink(t.deps, client, {
        email: 'late@example.com',
        linkStatus: 'submitted',
      });
      const [email] = await settle(t.deps, linkId, allSettled);
      expect(email).toMatchObject({
        status: 'failed',
        attempts: 0,
        last_error: 'the link was submitted before the message could be sent',
      });
      expect(email!.body).not.toContain(url);
      expect(smtp.received.slice(before).some((m) => m.to.includes('late@example.com'))).toBe(false);
    });

    it('sends the link of POST /superappToken, {SUPERAPP_URL}/#<token>, by e-mail and SMS', async () => {
      const mailsBefore = smtp.received.length;
      const smsBefore = sms.delivered().length;
      const { id, apiKey } = await t.newClient({ name: 'Over HTTP' });
      const persona = await createPersona(t.deps, { clientId: id, kind: 'video', language: 'fr' });
      const base = await t.listen();
      const response = await fetch(`${base}/superappToken`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
        body: JSON.stringify({
          personaId: persona.id,
          userDetails: { email: 'client@example.com', phone: '+33612345678' },
        }),
      });
      expect(response.status).toBe(200);
      const { token } = (await response.json()) as { token: string };
      const link = `${t.deps.config.superappUrl}/#${token}`;
      const [mail] = (await smtp.waitFor(mailsBefore + 1)).slice(mailsBefore);
      expect(mail!.to).toEqual(['client@example.com']);
      expect(mail!.text).toContain(link);
      const [text] = (await sms.waitFor(smsBefore + 1)).slice(smsBefore);
      expect(text!.to).toBe('+33612345678');
      expect(text!.body).toContain(link);
    });

    it('writes nothing when the link transaction rolls back', async () => {
      const linkId = crypto.randomUUID();
      const failing = inTransaction(t.deps.db, async (trx) => {
        await trx
          .insertInto('links')
          .values({
            id: linkId,
            client_id: client.id,
            persona_id: client.personaId,
            token_hash: crypto.randomBytes(32).toString('hex'),
            status: 'open',
            expires_at: Date.now() + 3600_000,
            created_at: Date.now(),
          })
          .execute();
        await queueLinkMessages(trx, t.deps, {
          clientId: client.id,
          clientName: client.name,
          linkId,
          language: 'en',
          url: 'https://capture.example.com/#x',
          token: 'x',
          expiresAt: Date.now() + 3600_000,
          email: 'rollback@example.com',
        });
        const [row] = await trx
          .selectFrom('outbox_messages')
          .select('id')
          .where('link_id', '=', linkId)
          .execute();
        throw Object.assign(new Error('the link could not be saved'), { messageId: row!.id });
      });
      const error = (await failing.catch((e: unknown) => e)) as { messageId: string };
      expect(await messagesOf(t.deps, linkId)).toEqual([]);
      expect(await t.deps.queue.state(`send-message:${error.messageId}:1`)).toBeUndefined();
    });

    it('retries a refused e-mail (451) and a failing SMS provider (500), recording attempts and the last error', async () => {
      smtp.failNext(1, 451);
      sms.failNext(2, 500);
      const mailsBefore = smtp.received.length;
      const smsBefore = sms.delivered().length;
      const { linkId, url } = await queueLink(t.deps, client, {
        email: 'retry@example.com',
        phone: '+4915112345678',
        language: 'de',
      });
      const [email, phone] = await settle(t.deps, linkId, (rows) => rows.every((r) => r.status === 'sent'));
      expect(email).toMatchObject({ attempts: 2, language: 'de' });
      expect(email!.last_error).toMatch(/451/);
      expect(phone).toMatchObject({ attempts: 3 });
      expect(phone!.last_error).toBe('SMS provider answered 500: The test receiver is failing on purpose');
      const [mail] = smtp.received.slice(mailsBefore);
      expect(mail!.subject).toBe('Acme Leasing: Ihr Link zur Fahrzeuginspektion');
      expect(mail!.text).toContain(url);
      expect(
        sms
          .delivered()
          .slice(smsBefore)
          .map((s) => s.to),
      ).toEqual(['+4915112345678']);
    });

    it('marks a message failed once the schedule is used up, and one the server rejects for good at once', async () => {
      sms.failNext(4, 503); // the first attempt and three retries
      smtp.failNext(1, 550);
      const requestsBefore = sms.requests.length;
      const refusedBefore = smtp.refused;
      const { linkId } = await queueLink(t.deps, client, {
        email: 'nobody@example.com',
        phone: '+447700900123',
      });
      const [email, phone] = await settle(t.deps, linkId, allSettled);
      expect(email).toMatchObject({ status: 'failed', attempts: 1, sent_at: null });
      expect(email!.last_error).toMatch(/550/);
      expect(phone).toMatchObject({ status: 'failed', attempts: 4, sent_at: null });
      expect(phone!.last_error).toMatch(/^SMS provider answered 503/);
      // Nothing more is tried once failed.
      await new Promise((r) => setTimeout(r, 1500));
      expect(sms.requests.length - requestsBefore).toBe(4);
      expect(smtp.refused - refusedBefore).toBe(1);
    });

    it('runs a send job twice without sending twice', async () => {
      const mailsBefore = smtp.received.length;
      const { linkId } = await queueLink(t.deps, client, { email: 'once@example.com' });
      const [email] = await settle(t.deps, linkId, (rows) => rows[0]!.status === 'sent');
      const deps = { ...t.deps, retrySchedule: [0.1] };
      const context = {
        jobId: 'again',
        attempt: 2,
        isLastAttempt: false,
        signal: new AbortController().signal,
      };
      await sendMessage(deps, { messageId: email!.id, attempt: 1 }, context);
      await sendMessage(deps, { messageId: email!.id }, context);
      expect(smtp.received.length - mailsBefore).toBe(1);
      expect((await messagesOf(t.deps, linkId))[0]!.attempts).toBe(1);
    });
  });

  describe('over a JSON provider, with no mail server', () => {
    let t: TestApp;
    let worker: RunningWorker;
    let sms: SmsReceiver;
    let client: Awaited<ReturnType<typeof newClient>>;

    beforeAll(async () => {
      sms = await startSmsReceiver();
      t = await startTestApp(backend, {
        ALLOW_PRIVATE_NETWORKS: 'true',
        SMS_PROVIDER: 'json',
        SMS_URL: `http://127.0.0.1:${sms.port}/send`,
        SMS_AUTH_TOKEN: 'json-secret',
        SMS_FROM: 'Acme',
        ...FAST_RETRIES,
      });
      worker = await startWorker(t.deps);
      client = await newClient(t, 'Acme Leasing');
    }, 60_000);
    afterAll(async () => {
      await worker?.stop();
      await t?.close();
      await sms?.close();
    });

    it('POSTs the SMS as JSON with the bearer token, retried after a 500', async () => {
      sms.failNext(1);
      const before = sms.delivered().length;
      const { linkId, url } = await queueLink(t.deps, client, { phone: '+34612345678', language: 'es' });
      const [text] = (await sms.waitFor(before + 1)).slice(before);
      expect(text).toMatchObject({ shape: 'json', path: '/send', to: '+34612345678', from: 'Acme' });
      expect(text!.authorization).toBe('Bearer json-secret');
      expect(text!.body).toContain(url);
      expect(text!.body).toContain('realice la inspección');
      const [phone] = await settle(t.deps, linkId, (rows) => rows[0]!.status === 'sent');
      expect(phone).toMatchObject({ attempts: 2, provider_message_id: text!.id });
      expect(phone!.last_error).toMatch(/500/);
    });

    it('holds the e-mail in the outbox, where `walkaround outbox list` shows it', async () => {
      const { linkId, url } = await queueLink(t.deps, client, { email: 'held@example.com' });
      const [held] = await messagesOf(t.deps, linkId);
      expect(held).toMatchObject({ status: 'held', attempts: 0, channel: 'email' });
      expect(await t.deps.queue.state(`send-message:${held!.id}:1`)).toBeUndefined(); // no job: nothing to send with

      const listed = await runCli(
        ['outbox', 'list', '--client', client.id, '--status', 'held', '--json'],
        t.environment.env,
      );
      expect(listed.stderr).toBe('');
      expect(listed.code).toBe(0);
      expect(listed.stdout.trim().split('\n')).toHaveLength(1);
      const { messages } = JSON.parse(listed.stdout) as { messages: OutboxView[] };
      const shown = messages.find((m) => m.id === held!.id);
      expect(shown).toMatchObject({
        client_id: client.id,
        link_id: linkId,
        channel: 'email',
        recipient: 'held@example.com',
        status: 'held',
        subject: 'Acme Leasing: your vehicle inspection link',
      });
      // The link token is never shown unless the operator asks for it, to pass a held message on by hand.
      expect(shown!.body).not.toContain(url);
      expect(shown!.body).toContain(`${t.deps.config.superappUrl}/#[redacted]`);
      expect(messages.every((m) => m.status === 'held')).toBe(true);

      const human = await runCli(['outbox', 'list', '--client', client.id, '--reveal'], t.environment.env);
      expect(human.code).toBe(0);
      expect(human.stdout).toContain(held!.id);
      expect(human.stdout).toContain(url);

      // Released only once its channel has a provider.
      const refused = await runCli(['outbox', 'send', held!.id], t.environment.env);
      expect(refused.code).toBe(1);
      expect(refused.stderr.trim()).toBe('walkaround: No mail server (SMTP_URL) is configured');
      const withMail = { ...t.environment.env, SMTP_URL: 'smtp://mail.example.com' };
      const released = await runCli(['outbox', 'send', held!.id, '--json'], withMail);
      expect(released.stderr).toBe('');
      expect(JSON.parse(released.stdout)).toEqual({ id: held!.id, status: 'pending' });
      // The worker took it up (this test app has no mail server, so its attempts fail: not our point).
      const [taken] = await messagesOf(t.deps, linkId);
      expect(taken!.status).not.toBe('held');
      const again = await runCli(['outbox', 'send', held!.id], withMail);
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/is (pending|failed|sent), not held/);
    });

    it('stops with a clear message on bad input', async () => {
      const [status, unknown, limit] = await Promise.all([
        runCli(['outbox', 'list', '--status', 'lost'], t.environment.env),
        runCli(['outbox', 'list', '--client', 'nope', '--json'], t.environment.env),
        runCli(['outbox', 'list', '--limit', '0'], t.environment.env),
      ]);
      expect(status.code).not.toBe(0);
      expect(status.stderr).toMatch(/expected one of pending, sent, failed, held/);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('No client with id nope');
      expect(limit.code).not.toBe(0);
      expect(limit.stderr).toMatch(/positive integer/);
    });
  });
});

describe('link e-mails by default', () => {
  it('are never sent over a connection the server does not upgrade to TLS', async () => {
    const smtp = await startSmtpServer(SMTP_USER);
    const t = await startTestApp('sqlite', {
      ALLOW_PRIVATE_NETWORKS: 'true',
      SMTP_URL: `smtp://${SMTP_USER.user}:${SMTP_USER.pass}@127.0.0.1:${smtp.port}`,
      ...FAST_RETRIES,
    });
    const worker = await startWorker(t.deps);
    try {
      const client = await newClient(t, 'Plain');
      const { linkId } = await queueLink(t.deps, client, { email: 'plain@example.com' });
      const [email] = await settle(t.deps, linkId, allSettled);
      expect(email).toMatchObject({ status: 'failed' });
      expect(email!.last_error).toMatch(/TLS/i);
      expect(smtp.received).toHaveLength(0);
    } finally {
      await worker.stop();
      await t.close();
      await smtp.close();
    }
  }, 60_000);
});

describe('link messages to providers on private addresses', () => {
  it("sends through the operator's mail server and SMS provider on loopback with ALLOW_PRIVATE_NETWORKS off; a client's media URL there is still refused", async () => {
    const smtp = await startSmtpServer();
    const sms = await startSmsReceiver();
    const t = await startTestApp('sqlite', {
      // ALLOW_PRIVATE_NETWORKS stays off: it guards what clients supply, not the operator's own endpoints.
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      SMTP_REQUIRE_TLS: 'false',
      SMS_PROVIDER: 'twilio',
      SMS_URL: `http://127.0.0.1:${sms.port}`,
      ...TWILIO,
      ...FAST_RETRIES,
    });
    // The production outbound fetch (the test app's lets loopback play a public host).
    const production = await buildDeps(t.environment.config);
    const app = await buildApp(production);
    const worker = await startWorker(production);
    try {
      const client = await newClient(t, 'Acme Leasing');
      const { linkId } = await queueLink(production, client, {
        email: 'a@example.com',
        phone: '+33612345678',
      });
      const [email, phone] = await settle(production, linkId, allSettled);
      expect(email).toMatchObject({ status: 'sent', attempts: 1 });
      expect(phone).toMatchObject({ status: 'sent', attempts: 1 });
      expect(smtp.received).toHaveLength(1);
      expect(sms.delivered()).toHaveLength(1);

      // The same configuration, a client's media URL on loopback (here the SMS receiver): refused.
      const api = uploadClient(await app.listen({ port: 0, host: '127.0.0.1' }));
      const before = sms.requests.length;
      const uploader = await t.newClient();
      const c = await api.credentials(uploader.apiKey);
      const mediaUrl = `http://127.0.0.1:${sms.port}/photo.jpg`;
      const res = await api.urls(c.refresh_token, {
        type: 'urls',
        session: c.session,
        case_id: 'loopback',
        callback_url: 'https://hooks.example.com/x',
        urls: [mediaUrl],
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ message: `Could not fetch ${mediaUrl}` });
      expect(sms.requests).toHaveLength(before);
    } finally {
      await worker.stop();
      await app.close();
      await production.close();
      await t.close();
      await smtp.close();
      await sms.close();
    }
  }, 60_000);
});
