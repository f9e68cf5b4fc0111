// Webhook delivery (docs/webhooks.md) end to end: real uploads, a real worker, a real receiver that verifies
// every signature with the Standard Webhooks reference implementation.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeps } from '../../src/deps.js';
import { buildApp } from '../../src/http/app.js';
import { startWorker, type RunningWorker } from '../../src/workers/run.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { photo } from '../helpers/media.js';
import { uploadClient } from '../helpers/upload-client.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { runCli } from '../helpers/process.js';
import { Webhook } from 'standardwebhooks';

interface Delivery {
  id: string;
  event_type: string;
  status: string;
  attempts: { attempt: number; status_code: number | null; error: string | null; outcome: string }[];
}

describe('webhooks', () => {
  let t: TestApp;
  let worker: RunningWorker;
  let api: ReturnType<typeof uploadClient>;
  let baseUrl: string;
  let client: { id: string; apiKey: string; webhookSecret: string };
  let receiver: Receiver;

  beforeAll(async () => {
    // Retries a second apart, so the schedule plays out within the test (the default stays as documented).
    t = await startTestApp('sqlite', { WEBHOOK_RETRY_SCHEDULE: '1s,1s,1s' });
    worker = await startWorker(t.deps);
    baseUrl = await t.listen();
    api = uploadClient(baseUrl);
    receiver = await startReceiver(() => client.webhookSecret);
    client = await t.newClient({ webhookUrl: `http://media.test:${receiver.port}/hooks` });
  }, 60_000);
  afterAll(async () => {
    await worker?.stop();
    await t?.close();
    await receiver?.close();
  });

  const upload = async (extra: Record<string, string> = {}, key = client.apiKey) => {
    const c = await api.credentials(key);
    const res = await api.files(
      c.refresh_token,
      { type: 'file', session: c.session, case_id: 'hook', ...extra },
      [{ name: 'a.jpg', content: photo('home.jpg') }],
    );
    expect(res.status).toBe(200);
    return c.session;
  };
  const deliveries = async (session: string, key = client.apiKey) => {
    const res = await fetch(`${baseUrl}/api/inspections/${session}/deliveries`, {
      headers: { 'x-api-key': key },
    });
    return ((await res.json()) as { deliveries: Delivery[] }).deliveries;
  };
  const settle = async (session: string, check: (d: Delivery[]) => boolean) => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const list = await deliveries(session);
      if (check(list)) return list;
      if (Date.now() > deadline) throw new Error(`deliveries never settled: ${JSON.stringify(list)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  it('sends inspection.received and inspection.completed, signed, the result as data', async () => {
    const before = receiver.received.length;
    const session = await upload();
    const got = (await receiver.waitFor(before + 2)).slice(before);
    expect(got.map((r) => r.type)).toEqual(['inspection.received', 'inspection.completed']);
    expect(got.every((r) => r.verified)).toBe(true);
    const read = await fetch(`${baseUrl}/api/inspections/${session}`, {
      headers: { 'x-api-key': client.apiKey },
    });
    expect(got[1]!.body.data).toEqual(((await read.json()) as { result: unknown }).result);
    const list = await settle(session, (d) => d.length === 2 && d.every((m) => m.status === 'delivered'));
    expect(list.map((m) => m.attempts.map((a) => a.status_code))).toEqual([[200], [200]]);
  });

  it('retries while the receiver is down and delivers once it is up, attempts logged in order', async () => {
    const receivedEvents = await t.newClient({
      webhookUrl: `http://media.test:${receiver.port}/hooks`,
      webhookEvents: ['inspection.received'],
    });
    const saved = client;
    client = receivedEvents; // the receiver verifies with this client's secret
    try {
      receiver.script.push(503, 500);
      const before = receiver.received.length;
      const session = await upload({}, receivedEvents.apiKey);
      const got = (await receiver.waitFor(before + 3)).slice(before);
      expect(got.map((r) => r.status)).toEqual([503, 500, 200]);
      expect(new Set(got.map((r) => r.id)).size).toBe(1); // one message, one webhook-id
      expect(got.every((r) => r.verified && r.type === 'inspection.received')).toBe(true);
      const [message] = await settle(session, (d) => d[0]?.status === 'delivered');
      expect(message!.attempts.map((a) => [a.attempt, a.status_code, a.outcome])).toEqual([
        [1, 503, 'retry'],
        [2, 500, 'retry'],
        [3, 200, 'delivered'],
      ]);
    } finally {
      client = saved;
    }
  });

  it('stops retrying at 410 Gone', async () => {
    const gone = await t.newClient({
      webhookUrl: `http://media.test:${receiver.port}/gone`,
      webhookEvents: ['inspection.received'],
    });
    const saved = client;
    client = gone;
    try {
      receiver.script.push(410);
      const session = await upload({}, gone.apiKey);
      const [message] = await settle(session, (d) => d[0]?.status === 'failed');
      expect(message!.attempts.map((a) => [a.status_code, a.outcome])).toEqual([[410, 'gone']]);
    } finally {
      client = saved;
    }
  });

  it('does not follow a redirect: a 3xx is a failed attempt, logged with its status and retried', async () => {
    // Answers the first POST with 302 to /moved (on the same host), then 200.
    const hits: string[] = [];
    const moving = http.createServer((req, res) => {
      req.resume().on('end', () => {
        hits.push(`${req.method} ${req.url}`);
        if (hits.length === 1) res.writeHead(302, { location: '/moved' }).end();
        else res.end('thanks');
      });
    });
    await new Promise<void>((resolve) => moving.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = moving.address() as AddressInfo;
      const moved = await t.newClient({
        webhookUrl: `http://media.test:${port}/hooks`,
        webhookEvents: ['inspection.received'],
      });
      const saved = client;
      client = moved; // the delivery log is read with the owner's key
      let list: Delivery[];
      try {
        list = await settle(await upload({}, moved.apiKey), (d) => d[0]?.status === 'delivered');
      } finally {
        client = saved;
      }
      expect(list[0]!.attempts.map((a) => [a.attempt, a.status_code, a.outcome])).toEqual([
        [1, 302, 'retry'],
        [2, 200, 'delivered'],
      ]);
      expect(hits).toEqual(['POST /hooks', 'POST /hooks']);
    } finally {
      moving.closeAllConnections();
      moving.close();
    }
  });

  it('re-sends from the API with the same webhook-id, logged as a new attempt', async () => {
    const session = await upload({ callback_url: `http://media.test:${receiver.port}/callback` });
    const [received] = await settle(
      session,
      (d) => d.length === 2 && d.every((m) => m.status === 'delivered'),
    );
    const before = receiver.received.length;
    const res = await fetch(`${baseUrl}/api/inspections/${session}/deliveries/${received!.id}/resend`, {
      method: 'POST',
      headers: { 'x-api-key': client.apiKey },
    });
    expect(res.status).toBe(202);
    const [again] = (await receiver.waitFor(before + 1)).slice(before);
    expect(again!.id).toBe(received!.id);
    expect(again!.verified).toBe(true);
    await settle(session, (d) => d.find((m) => m.id === received!.id)!.attempts.length === 2);
    const other = await t.newClient();
    const foreign = await fetch(`${baseUrl}/api/inspections/${session}/deliveries/${received!.id}/resend`, {
      method: 'POST',
      headers: { 'x-api-key': other.apiKey },
    });
    expect(foreign.status).toBe(404);
  });

  it('coalesces re-sends asked for before the first has run, and limits a client to 60 a minute', async () => {
    const session = await upload({ callback_url: `http://media.test:${receiver.port}/callback` });
    const [received] = await settle(
      session,
      (d) => d.length === 2 && d.every((m) => m.status === 'delivered'),
    );
    const resend = () =>
      fetch(`${baseUrl}/api/inspections/${session}/deliveries/${received!.id}/resend`, {
        method: 'POST',
        headers: { 'x-api-key': client.apiKey },
      });
    // With no worker running, the 30 asks find the first still waiting.
    await worker.stop();
    const before = receiver.received.length;
    const answers = await Promise.all(Array.from({ length: 30 }, resend));
    expect(answers.map((r) => r.status)).toEqual(Array.from({ length: 30 }, () => 202));
    worker = await startWorker(t.deps);
    await settle(session, (d) => d.find((m) => m.id === received!.id)!.attempts.length === 2);
    await new Promise((r) => setTimeout(r, 1500)); // room for any duplicate to arrive
    expect(receiver.received.slice(before).map((m) => m.id)).toEqual([received!.id]);

    // The client asked 31 times this minute (one in the test before): 29 more pass, then 429.
    const more = await Promise.all(Array.from({ length: 30 }, resend));
    const statuses = more.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 202)).toHaveLength(29);
    const refused = more.find((r) => r.status === 429)!;
    expect(await refused.json()).toEqual({ status: 'error', message: 'Too many re-sends, try again later' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('webhook secret rotation and operator re-send', () => {
  it('signs with the old and the new secret during the grace period; the CLI re-sends', async () => {
    let secret = '';
    const receiver = await startReceiver(() => secret);
    const t = await startTestApp('sqlite');
    const worker = await startWorker(t.deps);
    try {
      const client = await t.newClient({
        webhookUrl: `http://media.test:${receiver.port}/hooks`,
        webhookEvents: ['inspection.received'],
      });
      const rotated = await runCli(
        ['clients', 'rotate-webhook-secret', client.id, '--grace', '1h', '--json'],
        t.environment.env,
      );
      expect(rotated.code).toBe(0);
      secret = (JSON.parse(rotated.stdout) as { webhook_secret: string }).webhook_secret;
      expect(secret).toMatch(/^whsec_/);
      expect(secret).not.toBe(client.webhookSecret);

      const api = uploadClient(await t.listen());
      const c = await api.credentials(client.apiKey);
      const res = await api.files(c.refresh_token, { type: 'file', session: c.session, case_id: 'rot' }, [
        { name: 'a.jpg', content: photo('home.jpg') },
      ]);
      expect(res.status).toBe(200);
      const [first] = await receiver.waitFor(1);
      expect(first!.verified).toBe(true); // with the new secret
      expect(() =>
        new Webhook(client.webhookSecret).verify(first!.raw.payload, first!.raw.headers),
      ).not.toThrow();

      const resent = await runCli(['deliveries', 'resend', first!.id, '--json'], t.environment.env);
      expect(resent.code).toBe(0);
      const [, again] = await receiver.waitFor(2);
      expect(again!.id).toBe(first!.id);
      expect(again!.verified).toBe(true);
    } finally {
      await worker.stop();
      await t.close();
      await receiver.close();
    }
  }, 120_000);
});

describe('webhooks to private addresses', () => {
  it('refuses a webhook URL resolving to loopback or the metadata address at delivery too; logged as failed attempts, never sent', async () => {
    const receiver = await startReceiver(() => '');
    // The production safe-fetch: private addresses are refused (ALLOW_PRIVATE_NETWORKS is off).
    const t = await startTestApp('sqlite', { WEBHOOK_RETRY_SCHEDULE: '1s' });
    const production = await buildDeps(t.environment.config);
    const app = await buildApp(production);
    const worker = await startWorker(production);
    try {
      const client = await t.newClient();
      const api = uploadClient(await app.listen({ port: 0, host: '127.0.0.1' }));
      for (const target of [
        `http://localhost:${receiver.port}/x`,
        'http://169.254.169.254/latest/meta-data/',
      ]) {
        // Given as callback_url, it is refused at once (test/http/upload-callback.test.ts has the variants).
        const refused = await api.credentials(client.apiKey);
        const answer = await api.files(
          refused.refresh_token,
          { type: 'file', session: refused.session, case_id: 'private', callback_url: target },
          [{ name: 'a.jpg', content: photo('home.jpg') }],
        );
        expect(answer.status).toBe(400);
        expect(answer.body.message).toContain('ALLOW_PRIVATE_NETWORKS=true');
        // A URL that got past that check (kept from before it existed, or a name that resolved elsewhere
        // then) meets the guard at every connect.
        await t.deps.db
          .updateTable('clients')
          .set({ webhook_url: target })
          .where('id', '=', client.id)
          .execute();
        const c = await api.credentials(client.apiKey);
        const res = await api.files(
          c.refresh_token,
          { type: 'file', session: c.session, case_id: 'private' },
          [{ name: 'a.jpg', content: photo('home.jpg') }],
        );
        expect(res.status).toBe(200);
        const deadline = Date.now() + 60_000;
        let list: Delivery[] = [];
        while (!(list.length === 2 && list.every((m) => m.status === 'failed'))) {
          if (Date.now() > deadline) throw new Error(JSON.stringify(list));
          await new Promise((r) => setTimeout(r, 100));
          const read = await app.inject({
            url: `/api/inspections/${c.session}/deliveries`,
            headers: { 'x-api-key': client.apiKey },
          });
          list = read.json<{ deliveries: Delivery[] }>().deliveries;
        }
        for (const message of list)
          for (const attempt of message.attempts) {
            expect(attempt.status_code).toBeNull();
            expect(attempt.error).toMatch(/not a public address/);
            expect(attempt.outcome).toBe('refused'); // not retried: it cannot succeed
          }
      }
      expect(receiver.received).toEqual([]);
    } finally {
      await worker.stop();
      await app.close();
      await production.close();
      await t.close();
      await receiver.close();
    }
  }, 120_000);
});
