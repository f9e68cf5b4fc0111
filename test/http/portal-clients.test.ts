// The console's clients, API keys and webhooks through app.inject() (docs/portal.md#clients-api-keys-and-webhooks):
// every route per role and client, each change leaving exactly one audit entry; keys that work, rotate and
// stop; a signed test event and secret rotation; the client's delivery log and re-sends; and no secret the
// test made (API keys, webhook secrets) in any audit entry or log line.
import crypto from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_ACTOR } from '../../src/services/audit.js';
import { createKey } from '../../src/services/clients/manage.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { BACKENDS } from '../helpers/backends.js';
import { databaseText } from '../helpers/database-text.js';
import { captureLogs } from '../helpers/log-capture.js';
import { PASSWORD, portalUser, seedInspection, signInAs, type PortalSession } from '../helpers/portal.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

type Who = 'none' | 'operator' | 'adminA' | 'viewerA' | 'adminB' | 'viewerB';
const WHO: Who[] = ['none', 'operator', 'adminA', 'viewerA', 'adminB', 'viewerB'];
const DAY = 24 * 3600 * 1000;

type Answer = Awaited<ReturnType<TestApp['app']['inject']>>;

describe.each(BACKENDS)('console clients and webhooks on %s', (backend) => {
  const logs = captureLogs();
  let t: TestApp;
  let receiver: Receiver;
  let clientA: string;
  let clientB: string;
  let hookUrl: string;
  /** Client A's current webhook secret, which the receiver verifies with. */
  const secretA = { value: '' };
  /** Every key and webhook secret the test made or was shown. */
  const secrets: string[] = [];
  const sessions: Partial<Record<Who, PortalSession>> = {};

  beforeAll(async () => {
    t = await startTestApp(backend, { LOG_LEVEL: 'debug' }, { logDestination: logs.destination });
    receiver = await startReceiver(() => secretA.value);
    hookUrl = `http://media.test:${receiver.port}/hooks`;
    const a = await t.newClient({ name: 'Acme', webhookUrl: hookUrl });
    const b = await t.newClient({ name: 'Bolt' });
    [clientA, clientB, secretA.value] = [a.id, b.id, a.webhookSecret];
    secrets.push(a.apiKey, a.webhookSecret, b.apiKey, b.webhookSecret);
    const users = {
      operator: await portalUser(t.deps, 'operator'),
      adminA: await portalUser(t.deps, 'client_admin', clientA),
      viewerA: await portalUser(t.deps, 'client_viewer', clientA),
      adminB: await portalUser(t.deps, 'client_admin', clientB),
      viewerB: await portalUser(t.deps, 'client_viewer', clientB),
    };
    for (const [name, email] of Object.entries(users)) sessions[name as Who] = await signInAs(t, email);
  }, 120_000);
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
  });

  /** Remembers every secret an answer shows, so that the last test can look for them everywhere. */
  function remember(res: Answer): Answer {
    if (String(res.headers['content-type']).startsWith('application/json')) {
      const body = res.json<Record<string, unknown>>();
      for (const name of ['api_key', 'key', 'webhook_secret'])
        if (typeof body[name] === 'string') secrets.push(body[name]);
    }
    return res;
  }
  const call = async (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    who: Who,
    payload?: object,
  ): Promise<Answer> => {
    const session = who === 'none' ? undefined : sessions[who];
    const headers = method === 'GET' ? { cookie: session?.cookie ?? '' } : (session?.writeHeaders ?? {});
    return remember(await t.app.inject({ method, url, headers, ...(payload && { payload }) }));
  };
  const audit = () => t.deps.db.selectFrom('audit_log').selectAll().orderBy('at').orderBy('id').execute();
  /** Runs `change`, returning its answer and the audit entries it added. */
  async function audited<T>(change: () => Promise<T>) {
    const before = new Set((await audit()).map((e) => e.id));
    const answer = await change();
    return { answer, entries: (await audit()).filter((e) => !before.has(e.id)) };
  }
  const authenticate = (key: string) =>
    t.app.inject({ method: 'POST', url: '/api/authenticate', payload: { key } });

  /** A webhook message of the client with one attempt, as the worker leaves it. */
  async function seedMessage(
    clientId: string,
    options: { event: string; status: 'pending' | 'delivered' | 'failed'; at: number; inspectionId?: string },
  ) {
    const id = `msg_${crypto.randomUUID().replaceAll('-', '')}`;
    await t.deps.db
      .insertInto('webhook_messages')
      .values({
        id,
        client_id: clientId,
        inspection_id: options.inspectionId ?? null,
        event_type: options.event,
        url: 'https://hooks.example.com/a',
        payload: JSON.stringify({
          type: options.event,
          timestamp: new Date(options.at).toISOString(),
          data: {},
        }),
        status: options.status,
        attempts: 1,
        next_attempt_at: options.status === 'pending' ? options.at + 5000 : null,
        created_at: options.at,
        updated_at: options.at,
      })
      .execute();
    await t.deps.db
      .insertInto('webhook_attempts')
      .values({
        id: crypto.randomUUID(),
        message_id: id,
        attempt: 1,
        started_at: options.at,
        url: 'https://hooks.example.com/a',
        status_code: options.status === 'delivered' ? 200 : 500,
        latency_ms: 12,
        response_excerpt: options.status === 'delivered' ? 'ok' : 'boom',
        error: null,
        outcome: options.status === 'delivered' ? 'delivered' : 'retry',
      })
      .execute();
    return id;
  }

  describe('every route, per role and client', () => {
    const reading = { none: 401, operator: 200, adminA: 200, viewerA: 403, adminB: 404, viewerB: 403 };
    const changing = (ok: number) => ({ ...reading, operator: ok, adminA: ok });
    const routes: {
      name: string;
      status: Record<Who, number>;
      /** The audit action a successful call records; none for reads and the (unrecorded) test event. */
      action?: string;
      call: (who: Who) => Promise<Answer>;
    }[] = [
      {
        name: 'GET clients',
        status: { none: 401, operator: 200, adminA: 200, viewerA: 200, adminB: 200, viewerB: 200 },
        call: (who) => call('GET', '/portal/api/clients', who),
      },
      {
        name: 'POST clients',
        status: { none: 401, operator: 201, adminA: 403, viewerA: 403, adminB: 403, viewerB: 403 },
        action: 'client.create',
        call: (who) => call('POST', '/portal/api/clients', who, { name: `New ${who}` }),
      },
      {
        name: 'GET client',
        status: reading,
        call: (who) => call('GET', `/portal/api/clients/${clientA}`, who),
      },
      {
        name: 'PATCH client (link validity, webhook events)',
        status: changing(200),
        action: 'client.update',
        call: (who) =>
          call('PATCH', `/portal/api/clients/${clientA}`, who, {
            link_ttl_seconds: 48 * 3600,
            webhook_events: null,
          }),
      },
      {
        name: 'PATCH client quota (operators only)',
        status: { ...changing(200), adminA: 403 },
        action: 'client.update',
        call: (who) => call('PATCH', `/portal/api/clients/${clientA}`, who, { quota_per_hour: 500 }),
      },
      {
        name: 'POST key',
        status: changing(201),
        action: 'api_key.create',
        call: (who) => call('POST', `/portal/api/clients/${clientA}/keys`, who),
      },
      {
        name: 'POST key rotation',
        status: changing(201),
        action: 'api_key.rotate',
        call: (who) => call('POST', `/portal/api/clients/${clientA}/keys/rotate`, who, { grace_seconds: 0 }),
      },
      {
        name: 'DELETE key',
        status: changing(204),
        action: 'api_key.revoke',
        call: async (who) => {
          const { key, prefix } = await createKey(t.deps, clientA, CLI_ACTOR);
          secrets.push(key);
          return call('DELETE', `/portal/api/clients/${clientA}/keys/${prefix}`, who);
        },
      },
      {
        name: 'POST webhook secret rotation',
        status: changing(201),
        action: 'webhook_secret.rotate',
        call: async (who) => {
          const res = await call('POST', `/portal/api/clients/${clientA}/webhook/secret`, who, {
            grace_seconds: 0,
          });
          if (res.statusCode === 201) secretA.value = res.json<{ webhook_secret: string }>().webhook_secret;
          return res;
        },
      },
      {
        name: 'POST test event',
        status: changing(200),
        call: (who) => call('POST', `/portal/api/clients/${clientA}/webhook/test`, who),
      },
      {
        name: 'GET deliveries',
        status: reading,
        call: (who) => call('GET', `/portal/api/clients/${clientA}/deliveries`, who),
      },
      {
        name: 'POST re-send',
        status: changing(202),
        action: 'webhook.resend',
        call: async (who) => {
          const id = await seedMessage(clientA, {
            event: 'inspection.received',
            status: 'failed',
            at: Date.now(),
          });
          return call('POST', `/portal/api/clients/${clientA}/deliveries/${id}/resend`, who);
        },
      },
    ];

    it.each(routes.map((r) => [r.name, r] as const))('%s', async (_name, route) => {
      const got: Record<string, number> = {};
      const recorded: Record<string, string[]> = {};
      for (const who of WHO) {
        const { answer, entries } = await audited(() => route.call(who));
        got[who] = answer.statusCode;
        // The DELETE route's own key comes from the service, audited apart from the call.
        recorded[who] = entries
          .map((e) => e.action)
          .filter((a) => a !== 'api_key.create' || !route.name.startsWith('DELETE'));
      }
      expect(got).toEqual(route.status);
      for (const who of WHO) {
        const succeeded = route.status[who] < 300;
        expect(recorded[who], who).toEqual(succeeded && route.action ? [route.action] : []);
      }
    });
  });

  describe('clients', () => {
    it('creates a client whose key works at once; its key and secret are in that answer only', async () => {
      const { answer, entries } = await audited(() =>
        call('POST', '/portal/api/clients', 'operator', {
          name: 'Carta Leasing',
          webhook_url: 'https://hooks.example.com/carta',
          webhook_events: ['inspection.completed', 'inspection.failed'],
          quota_per_hour: 250,
          service_window: 'Mon-Fri 08:00-18:00',
          timezone: 'Europe/Paris',
          link_ttl_seconds: 24 * 3600,
        }),
      );
      expect(answer.statusCode).toBe(201);
      const created = answer.json<{
        client: { id: string; keys: { prefix: string }[] };
        api_key: string;
        webhook_secret: string;
      }>();
      expect(created.api_key).toMatch(/^wk_live_/);
      expect(created.webhook_secret).toMatch(/^whsec_/);
      expect(created.client).toMatchObject({
        name: 'Carta Leasing',
        webhook_events: ['inspection.completed', 'inspection.failed'],
        quota_per_hour: 250,
        service_window: 'mon-fri 08:00-18:00',
        timezone: 'Europe/Paris',
        link_ttl_seconds: 86400,
        keys: [{ prefix: created.api_key.slice(0, 14) }],
        webhook_secret: { prefix: created.webhook_secret.slice(0, 12), previous_prefix: null },
        may_change_limits: true,
      });
      expect(entries.map((e) => [e.action, e.actor_kind, e.client_id])).toEqual([
        ['client.create', 'user', created.client.id],
      ]);
      expect((await authenticate(created.api_key)).statusCode).toBe(200);

      const shown = await call('GET', `/portal/api/clients/${created.client.id}`, 'operator');
      expect(shown.body).not.toContain(created.api_key);
      expect(shown.body).not.toContain(created.webhook_secret);
      const listed = await call('GET', '/portal/api/clients', 'operator');
      expect(listed.json<{ clients: object[] }>().clients).toContainEqual(
        expect.objectContaining({ id: created.client.id, name: 'Carta Leasing', live_keys: 1 }),
      );
    });

    it('refuses settings that break a rule, naming it, and records nothing', async () => {
      for (const [payload, message] of [
        [{ timezone: 'Mars/Olympus' }, /unknown time zone/],
        [{ service_window: 'weekdays' }, /service window/],
        [{ webhook_url: 'ftp://example.com/x' }, /http\(s\) URL/],
        [{ webhook_url: 'http://169.254.169.254/latest' }, /private address/],
      ] as const) {
        const { answer, entries } = await audited(() =>
          call('PATCH', `/portal/api/clients/${clientA}`, 'operator', payload),
        );
        expect(answer.statusCode, JSON.stringify(payload)).toBe(400);
        expect(answer.json<{ message: string }>().message).toMatch(message);
        expect(entries).toEqual([]);
      }
      expect((await call('PATCH', `/portal/api/clients/${clientA}`, 'operator', {})).statusCode).toBe(400);
      const unknown = await call('PATCH', `/portal/api/clients/${clientA}`, 'operator', { colour: 'red' });
      expect(unknown.statusCode).toBe(400);
    });

    it('lets a client admin change their settings but not the quota, service window or time zone', async () => {
      for (const payload of [
        { service_window: null },
        { timezone: 'Europe/Berlin' },
        { quota_per_hour: 1 },
      ]) {
        const { answer, entries } = await audited(() =>
          call('PATCH', `/portal/api/clients/${clientA}`, 'adminA', payload),
        );
        expect(answer.statusCode, JSON.stringify(payload)).toBe(403);
        expect(entries).toEqual([]);
      }
      const { answer, entries } = await audited(() =>
        call('PATCH', `/portal/api/clients/${clientA}`, 'adminA', { name: 'Acme Insurance' }),
      );
      expect(answer.json()).toMatchObject({ name: 'Acme Insurance', may_change_limits: false });
      expect(entries).toHaveLength(1);
      expect(JSON.parse(entries[0]!.before!)).toMatchObject({ name: 'Acme' });
      expect(JSON.parse(entries[0]!.after!)).toMatchObject({ name: 'Acme Insurance' });
      // An admin of client B cannot see A among their clients, nor open it.
      const theirs = (await call('GET', '/portal/api/clients', 'adminB')).json<{
        clients: { id: string }[];
      }>();
      expect(theirs.clients.map((c) => c.id)).toEqual([clientB]);
    });
  });

  describe('API keys', () => {
    it('creates a key beside the others, rotates with a grace period, and revokes one at once', async () => {
      const fresh = (await call('POST', '/portal/api/clients', 'operator', { name: 'Keys Ltd' })).json<{
        client: { id: string };
        api_key: string;
      }>();
      const url = `/portal/api/clients/${fresh.client.id}`;
      const second = (await call('POST', `${url}/keys`, 'operator')).json<{ key: string; prefix: string }>();
      expect(second.prefix).toBe(second.key.slice(0, 14));
      expect((await authenticate(second.key)).statusCode).toBe(200);
      expect((await authenticate(fresh.api_key)).statusCode).toBe(200);

      const rotated = await call('POST', `${url}/keys/rotate`, 'operator', { grace_seconds: 3600 });
      expect(rotated.statusCode).toBe(201);
      const third = rotated.json<{ key: string; others_expire_at: string }>();
      expect(Date.parse(third.others_expire_at) - Date.now()).toBeGreaterThan(3500_000);
      for (const key of [fresh.api_key, second.key, third.key])
        expect((await authenticate(key)).statusCode).toBe(200);
      const view = (await call('GET', url, 'operator')).json<{
        keys: { prefix: string; expires_at: string | null }[];
      }>();
      expect(view.keys.map((k) => [k.prefix, k.expires_at === null])).toEqual([
        [fresh.api_key.slice(0, 14), false],
        [second.prefix, false],
        [third.key.slice(0, 14), true],
      ]);

      expect((await call('DELETE', `${url}/keys/${second.prefix}`, 'operator')).statusCode).toBe(204);
      expect((await authenticate(second.key)).statusCode).toBe(401);
      expect((await call('DELETE', `${url}/keys/${second.prefix}`, 'operator')).statusCode).toBe(404);
      // Another client's key prefix is no key of this client.
      const other = fresh.api_key.slice(0, 14);
      expect(
        (await call('DELETE', `/portal/api/clients/${clientB}/keys/${other}`, 'operator')).statusCode,
      ).toBe(404);
      expect((await authenticate(fresh.api_key)).statusCode).toBe(200);
    });

    it('stops at the most live keys a client may have', async () => {
      const fresh = (await call('POST', '/portal/api/clients', 'operator', { name: 'Many Keys' })).json<{
        client: { id: string };
      }>();
      const statuses = [];
      for (let i = 0; i < 10; i++)
        statuses.push(
          (await call('POST', `/portal/api/clients/${fresh.client.id}/keys`, 'operator')).statusCode,
        );
      expect(statuses).toEqual([...Array<number>(9).fill(201), 409]);
    });
  });

  describe('webhooks', () => {
    it('sends a signed test event and shows the answer; it is not a delivery, so nothing is recorded', async () => {
      await call('PATCH', `/portal/api/clients/${clientA}`, 'operator', { webhook_url: hookUrl });
      const messages = () => t.deps.db.selectFrom('webhook_messages').select('id').execute();
      const before = (await messages()).length;
      const got = receiver.received.length;
      const { answer, entries } = await audited(() =>
        call('POST', `/portal/api/clients/${clientA}/webhook/test`, 'adminA'),
      );
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toMatchObject({
        url: hookUrl,
        status_code: 200,
        response_excerpt: 'thanks',
        error: null,
        outcome: 'delivered',
        signatures: 1,
      });
      const [ping] = (await receiver.waitFor(got + 1)).slice(got);
      expect(ping).toMatchObject({
        type: 'ping',
        verified: true,
        id: answer.json<{ webhook_id: string }>().webhook_id,
      });
      expect(ping!.body.data).toMatchObject({ client_id: clientA, test: true });
      expect(entries).toEqual([]);
      expect((await messages()).length).toBe(before);
    });

    it("shows the receiver's failure as it came", async () => {
      receiver.script.push(503);
      const res = await call('POST', `/portal/api/clients/${clientA}/webhook/test`, 'operator');
      expect(res.json()).toMatchObject({ status_code: 503, response_excerpt: 'not now', outcome: 'failed' });
    });

    it('signs with both secrets while a rotated one is in its grace period; both verify', async () => {
      const old = secretA.value;
      const { answer, entries } = await audited(() =>
        call('POST', `/portal/api/clients/${clientA}/webhook/secret`, 'adminA', { grace_seconds: 3600 }),
      );
      expect(answer.statusCode).toBe(201);
      const rotated = answer.json<{ webhook_secret: string; previous_signs_until: string }>();
      secretA.value = rotated.webhook_secret;
      expect(entries.map((e) => e.action)).toEqual(['webhook_secret.rotate']);
      const view = (await call('GET', `/portal/api/clients/${clientA}`, 'adminA')).json<object>();
      expect(view).toMatchObject({
        webhook_secret: {
          prefix: rotated.webhook_secret.slice(0, 12),
          previous_prefix: old.slice(0, 12),
          previous_signs_until: rotated.previous_signs_until,
        },
      });
      const got = receiver.received.length;
      const res = await call('POST', `/portal/api/clients/${clientA}/webhook/test`, 'adminA');
      expect(res.json()).toMatchObject({ outcome: 'delivered', signatures: 2 });
      const [ping] = (await receiver.waitFor(got + 1)).slice(got);
      expect(ping!.verified).toBe(true); // with the new secret
      expect(ping!.raw.headers['webhook-signature']!.split(' ')).toHaveLength(2);
      expect(() => new Webhook(old).verify(ping!.raw.payload, ping!.raw.headers)).not.toThrow();
    });

    it('refuses to send to a private address, even one stored before URLs were judged when given', async () => {
      const fresh = (await call('POST', '/portal/api/clients', 'operator', { name: 'Old URL' })).json<{
        client: { id: string };
      }>();
      await t.deps.db
        .updateTable('clients')
        .set({ webhook_url: 'http://169.254.169.254/latest/meta-data' })
        .where('id', '=', fresh.client.id)
        .execute();
      const res = await call('POST', `/portal/api/clients/${fresh.client.id}/webhook/test`, 'operator');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ outcome: 'refused', status_code: null, response_excerpt: null });
      expect(res.json<{ error: string }>().error).toMatch(/169\.254\.169\.254/);
    });

    it('limits test events to 60 a minute per client, then answers 429 with Retry-After', async () => {
      const fresh = (
        await call('POST', '/portal/api/clients', 'operator', { name: 'Pinger', webhook_url: hookUrl })
      ).json<{ client: { id: string } }>();
      const statuses: number[] = [];
      let last: Answer | undefined;
      for (let i = 0; i < 61; i++) {
        last = await call('POST', `/portal/api/clients/${fresh.client.id}/webhook/test`, 'operator');
        statuses.push(last.statusCode);
      }
      expect(statuses.slice(0, 60).every((s) => s === 200)).toBe(true);
      expect(statuses[60]).toBe(429);
      expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
      // Its own count: the client's re-sends are not used up by testing.
      const message = await seedMessage(fresh.client.id, {
        event: 'inspection.received',
        status: 'failed',
        at: Date.now(),
      });
      const resend = await call(
        'POST',
        `/portal/api/clients/${fresh.client.id}/deliveries/${message}/resend`,
        'operator',
      );
      expect(resend.statusCode).toBe(202);
    });

    it('answers 409 for a client without a webhook URL', async () => {
      const res = await call('POST', `/portal/api/clients/${clientB}/webhook/test`, 'adminB');
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({
        status: 'error',
        message: 'The client has no webhook URL: set one, then send a test event',
      });
    });
  });

  describe('the delivery log', () => {
    it("lists the client's messages across inspections, newest first, by event, status and day, a page at a time", async () => {
      const fresh = (await call('POST', '/portal/api/clients', 'operator', { name: 'Logged' })).json<{
        client: { id: string };
      }>();
      const id = fresh.client.id;
      const base = Date.parse('2026-11-20T10:00:00Z');
      const one = await seedInspection(t.deps, id, { caseId: 'LOG-1', createdAt: base });
      const two = await seedInspection(t.deps, id, { caseId: 'LOG-2', createdAt: base + DAY });
      const seeded = [
        await seedMessage(id, {
          event: 'inspection.received',
          status: 'delivered',
          at: base,
          inspectionId: one.id,
        }),
        await seedMessage(id, {
          event: 'inspection.completed',
          status: 'failed',
          at: base + 1000,
          inspectionId: one.id,
        }),
        await seedMessage(id, {
          event: 'inspection.received',
          status: 'pending',
          at: base + DAY,
          inspectionId: two.id,
        }),
        await seedMessage(id, { event: 'link.opened', status: 'delivered', at: base + 2 * DAY }),
      ];
      await seedMessage(clientB, { event: 'inspection.received', status: 'delivered', at: base + DAY });
      type Page = {
        deliveries: {
          id: string;
          event_type: string;
          status: string;
          case_id: string | null;
          attempts: { status_code: number }[];
        }[];
        next_cursor: string | null;
      };
      const list = async (query = '') =>
        (await call('GET', `/portal/api/clients/${id}/deliveries${query}`, 'operator')).json<Page>();

      const all = await list();
      expect(all.deliveries.map((d) => d.id)).toEqual([...seeded].reverse());
      expect(all.deliveries[0]).toMatchObject({ event_type: 'link.opened', case_id: null });
      expect(all.deliveries[3]).toMatchObject({ case_id: 'LOG-1', attempts: [{ status_code: 200 }] });
      expect((await list('?event=inspection.received')).deliveries.map((d) => d.id)).toEqual([
        seeded[2],
        seeded[0],
      ]);
      expect((await list('?status=failed')).deliveries.map((d) => d.id)).toEqual([seeded[1]]);
      expect((await list('?from=2026-11-21&to=2026-11-21')).deliveries.map((d) => d.id)).toEqual([seeded[2]]);
      const first = await list('?limit=3');
      const second = await list(`?limit=3&cursor=${first.next_cursor}`);
      expect([...first.deliveries, ...second.deliveries]).toEqual(all.deliveries);
      expect(second.next_cursor).toBeNull();
      expect(
        (await call('GET', `/portal/api/clients/${id}/deliveries?status=lost`, 'operator')).statusCode,
      ).toBe(400);
    });

    it("re-sends the client's own messages only", async () => {
      const theirs = await seedMessage(clientB, {
        event: 'inspection.received',
        status: 'failed',
        at: Date.now(),
      });
      const { answer, entries } = await audited(() =>
        call('POST', `/portal/api/clients/${clientA}/deliveries/${theirs}/resend`, 'operator'),
      );
      expect(answer.statusCode).toBe(404);
      expect(entries).toEqual([]);
      const ok = await call('POST', `/portal/api/clients/${clientB}/deliveries/${theirs}/resend`, 'adminB');
      expect(ok.statusCode).toBe(202);
      expect(ok.json()).toEqual({ status: 'queued', id: theirs });
    });
  });

  it('holds no key or webhook secret the test made in the database, any audit entry or log line', async () => {
    expect(secrets.length).toBeGreaterThan(20);
    expect(logs.lines.length).toBeGreaterThan(50);
    const stored = await databaseText(t.deps.db);
    expect(stored).toContain(clientA); // the grep reads the rows
    for (const secret of [...new Set(secrets), PASSWORD]) expect(stored).not.toContain(secret);
    const entries = JSON.stringify(await audit());
    const lines = logs.lines.map((line) => JSON.stringify(line)).join('\n');
    for (const secret of [...new Set(secrets), PASSWORD]) {
      expect(entries).not.toContain(secret);
      expect(lines).not.toContain(secret);
    }
    // The part after the prefix too: a key cut anywhere is no key in the log.
    for (const secret of secrets) {
      const tail = secret.slice(-20);
      expect(entries).not.toContain(tail);
      expect(lines).not.toContain(tail);
    }
  });
});
