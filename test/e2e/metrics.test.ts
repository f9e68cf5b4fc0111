// The metrics an operator alerts on (docs/ops/metrics.md), end to end: real uploads and link captures over
// HTTP, a real worker with its analysis threads, a real webhook receiver and mail server. Each stage reads
// /metrics and checks what moved; the last scrape, and a worker's own /metrics, must pass
// `promtool check metrics` with nothing to say.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildHealthApp } from '../../src/http/app.js';
import { createPersona } from '../../src/services/personas/manage.js';
import { hashLinkToken } from '../../src/services/links/tokens.js';
import { startWorker, type RunningWorker } from '../../src/workers/run.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { photo } from '../helpers/media.js';
import { parseScrape, promtool, type Scrape } from '../helpers/prometheus.js';
import { startSmtpServer, type SmtpTestServer } from '../helpers/smtp-server.js';
import { captureClient } from '../helpers/tus-client.js';
import { uploadClient } from '../helpers/upload-client.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

const PROMTOOL = inject('promtool');
const PHOTO = photo('home.jpg');

describe('metrics', () => {
  let t: TestApp;
  let worker: RunningWorker | undefined;
  let smtp: SmtpTestServer;
  let receiver: Receiver;
  let base: string;
  let api: ReturnType<typeof uploadClient>;
  let hooked: { id: string; apiKey: string; webhookSecret: string };
  /** A client without a webhook URL: its links make no deliveries that would blur the webhook counts. */
  let quiet: { id: string; apiKey: string };
  let persona: number;
  let session: string;
  let last: Scrape;

  const scrape = async () => {
    const res = await t.app.inject({ url: '/metrics' });
    expect(res.statusCode).toBe(200);
    return parseScrape(res.body);
  };
  /** Scrapes until `check` holds (work done by the worker is counted once it has recorded it). */
  const scrapeUntil = async (check: (s: Scrape) => boolean, ms = 120_000) => {
    const deadline = Date.now() + ms;
    for (;;) {
      const s = await scrape();
      if (check(s)) return s;
      if (Date.now() > deadline) throw new Error(`metrics never got there:\n${s.text}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  /** How much a series moved since the previous stage's scrape. */
  const moved = (now: Scrape, name: string, labels?: Record<string, string>) =>
    now.sum(name, labels) - last.sum(name, labels);

  beforeAll(async () => {
    smtp = await startSmtpServer();
    receiver = await startReceiver(() => hooked.webhookSecret);
    t = await startTestApp('sqlite', {
      // Every scrape reads the database, so each stage sees its own queue and outbox.
      METRICS_READ_INTERVAL: '1ms',
      WEBHOOK_RETRY_SCHEDULE: '1s',
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      SMTP_REQUIRE_TLS: 'false',
      JOB_LEASE: '5s',
    });
    base = await t.listen();
    api = uploadClient(base);
    hooked = await t.newClient({ webhookUrl: `http://media.test:${receiver.port}/hooks` });
    quiet = await t.newClient();
    const steps = [
      { id: 'front', label: 'Front', instructions: 'The front.', required: true, overlay: 'front' },
    ];
    persona = (await createPersona(t.deps, { clientId: quiet.id, kind: 'photo', steps })).id;
    last = await scrape();
  }, 60_000);
  afterAll(async () => {
    await worker?.stop();
    await t?.close();
    await receiver?.close();
    await smtp?.close();
  });

  it('counts an accepted upload, its bytes, and refusals by catalogue code; the queue shows its jobs waiting', async () => {
    const c = await api.credentials(hooked.apiKey);
    const fields = { type: 'file', session: c.session, case_id: 'metrics' };
    const files = [{ name: 'front.jpg', content: PHOTO }];
    expect((await api.files(c.refresh_token, fields, files)).status).toBe(200);
    session = c.session;
    expect((await api.files(c.refresh_token, fields, files)).status).toBe(400); // the session is spent
    expect((await api.files(undefined, fields, files)).status).toBe(401);
    // No worker runs yet: the analysis and the `inspection.received` delivery wait in the queue.
    await new Promise((r) => setTimeout(r, 1100));

    const now = await scrape();
    expect(moved(now, 'walkaround_uploads_accepted_total', { source: 'api' })).toBe(1);
    expect(moved(now, 'walkaround_media_ingested_bytes_total', { source: 'api' })).toBe(PHOTO.length);
    expect(
      now.value('walkaround_uploads_refused_total', { source: 'api', reason: 'UPLOAD_SESSION_USED' }),
    ).toBe(1);
    expect(
      now.value('walkaround_uploads_refused_total', { source: 'api', reason: 'UPLOAD_UNAUTHORIZED' }),
    ).toBe(1);
    expect(now.value('walkaround_queue_jobs', { task: 'analyse-inspection', state: 'ready' })).toBe(1);
    expect(now.value('walkaround_queue_jobs', { task: 'deliver-webhook', state: 'ready' })).toBe(1);
    expect(
      now.value('walkaround_queue_oldest_job_age_seconds', { task: 'analyse-inspection' }),
    ).toBeGreaterThan(1);
    expect(now.value('walkaround_queue_oldest_job_age_seconds', { task: 'send-message' })).toBe(0);
    last = now;
  });

  it('counts the analysis, each analyzer as the result lists it, and webhook attempts with their latency', async () => {
    receiver.script.push(503); // `inspection.received`: its first attempt fails, the second (1 s later) lands
    worker = await startWorker(t.deps);
    await receiver.waitFor(3, 120_000);
    // The result's delivery may be recorded before the analysis job's end: wait for both.
    const now = await scrapeUntil(
      (s) =>
        moved(s, 'walkaround_webhook_attempts_total', { outcome: 'delivered' }) === 2 &&
        moved(s, 'walkaround_analysis_jobs_total', { outcome: 'completed' }) === 1,
    );

    expect(moved(now, 'walkaround_analysis_jobs_total', { outcome: 'completed' })).toBe(1);
    expect(moved(now, 'walkaround_analysis_jobs_total', { outcome: 'failed' })).toBe(0);
    expect(moved(now, 'walkaround_analysis_duration_seconds_count')).toBe(1);
    const read = await fetch(`${base}/api/inspections/${session}`, {
      headers: { 'x-api-key': hooked.apiKey },
    });
    const { result } = (await read.json()) as {
      result: { analyzers: { name: string; ok: number; failed: number }[] };
    };
    expect(result.analyzers.length).toBeGreaterThan(2);
    for (const analyzer of result.analyzers) {
      const runs = { analyzer: analyzer.name };
      expect(moved(now, 'walkaround_analyzer_duration_seconds_count', runs), analyzer.name).toBe(
        analyzer.ok + analyzer.failed,
      );
      expect(moved(now, 'walkaround_analyzer_duration_seconds_count', { ...runs, status: 'ok' })).toBe(
        analyzer.ok,
      );
    }

    expect(moved(now, 'walkaround_webhook_attempts_total', { outcome: 'retry', attempt: '1' })).toBe(1);
    expect(moved(now, 'walkaround_webhook_attempts_total', { outcome: 'delivered', attempt: '1' })).toBe(1);
    expect(moved(now, 'walkaround_webhook_attempts_total', { outcome: 'delivered', attempt: '2' })).toBe(1);
    const latency = 'walkaround_webhook_delivery_latency_seconds';
    expect(moved(now, `${latency}_count`, { event: 'inspection.received' })).toBe(1);
    expect(moved(now, `${latency}_count`, { event: 'inspection.completed' })).toBe(1);
    // The received event waited for the worker (over a second) and for its retry (a second more).
    expect(moved(now, `${latency}_sum`, { event: 'inspection.received' })).toBeGreaterThan(2);
    expect(now.value('walkaround_queue_jobs', { task: 'analyse-inspection', state: 'ready' })).toBe(0);
    expect(now.value('walkaround_queue_oldest_job_age_seconds', { task: 'analyse-inspection' })).toBe(0);
    last = now;
  });

  it('counts links created, opened once, refused and accepted submits, the outbox by channel and status', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/superappToken',
      payload: {
        apiKey: quiet.apiKey,
        personaId: persona,
        userDetails: { email: 'driver@example.com', phone: '+33612345678' },
      },
    });
    expect(created.statusCode).toBe(200);
    const { token } = created.json<{ token: string }>();
    const flow = () => fetch(`${base}/app/api/flow`, { headers: { authorization: `Bearer ${token}` } });
    expect((await flow()).status).toBe(200);
    expect((await flow()).status).toBe(200);
    const submit = () =>
      fetch(`${base}/app/api/submit`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect((await submit()).status).toBe(400); // nothing captured yet
    const { response } = await captureClient(base, token).upload('front', PHOTO);
    expect(response.status).toBe(204);
    expect((await submit()).status).toBe(200);

    // The e-mail goes out through the mail server; no SMS provider is configured, so the SMS is held.
    const now = await scrapeUntil(
      (s) =>
        moved(s, 'walkaround_outbox_attempts_total', { channel: 'email', outcome: 'sent' }) === 1 &&
        moved(s, 'walkaround_analysis_jobs_total', { outcome: 'completed' }) === 1,
    );
    expect(moved(now, 'walkaround_link_events_total', { event: 'created' })).toBe(1);
    expect(moved(now, 'walkaround_link_events_total', { event: 'opened' })).toBe(1);
    expect(moved(now, 'walkaround_link_events_total', { event: 'submitted' })).toBe(1);
    expect(
      now.value('walkaround_uploads_refused_total', { source: 'link', reason: 'CAPTURE_NOTHING_CAPTURED' }),
    ).toBe(1);
    expect(moved(now, 'walkaround_uploads_accepted_total', { source: 'link' })).toBe(1);
    expect(moved(now, 'walkaround_media_ingested_bytes_total', { source: 'link' })).toBe(PHOTO.length);
    expect(moved(now, 'walkaround_outbox_attempts_total', { channel: 'email', outcome: 'sent' })).toBe(1);
    expect(moved(now, 'walkaround_outbox_attempts_total', { channel: 'sms' })).toBe(0);
    expect(now.value('walkaround_outbox_messages', { channel: 'sms', status: 'held' })).toBe(1);
    expect(now.value('walkaround_outbox_messages', { channel: 'email', status: 'pending' })).toBe(0);
    // The submitted link's expiry job stays scheduled (it finds the link submitted and does nothing).
    expect(now.value('walkaround_queue_jobs', { task: 'expire-link', state: 'scheduled' })).toBe(1);
    last = now;
  });

  it('counts a link expired by the worker', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/superappToken',
      payload: { apiKey: quiet.apiKey, personaId: persona },
    });
    const link = await t.deps.db
      .selectFrom('links')
      .select('id')
      .where('token_hash', '=', hashLinkToken(created.json<{ token: string }>().token))
      .executeTakeFirstOrThrow();
    // Its validity ends now: the link and its expiry job are made due.
    const past = Date.now() - 1000;
    await t.deps.db.updateTable('links').set({ expires_at: past }).where('id', '=', link.id).execute();
    await t.deps.db
      .updateTable('jobs')
      .set({ run_at: past })
      .where('key', '=', `expire-link:${link.id}`)
      .execute();
    const now = await scrapeUntil(
      (s) => moved(s, 'walkaround_link_events_total', { event: 'expired' }) === 1,
      30_000,
    );
    expect(moved(now, 'walkaround_link_events_total', { event: 'created' })).toBe(1);
    last = now;
  });

  it.skipIf(!PROMTOOL)('`promtool check metrics` finds nothing to say about the scrape', async () => {
    const checked = promtool(PROMTOOL!, ['check', 'metrics'], (await scrape()).text);
    expect(checked.output).toBe('');
    expect(checked.status).toBe(0);
  });

  it("a worker's health app serves the process's metrics (no route durations), promtool-clean", async () => {
    const health = await buildHealthApp(t.deps);
    try {
      const res = await health.inject({ url: '/metrics' });
      expect(res.statusCode).toBe(200);
      const s = parseScrape(res.body);
      expect(s.sum('walkaround_analysis_jobs_total', { outcome: 'completed' })).toBe(2);
      expect(s.families()).toContain('process_cpu_user_seconds_total');
      expect(s.families()).not.toContain('http_request_duration_seconds');
      if (PROMTOOL) expect(promtool(PROMTOOL, ['check', 'metrics'], res.body).output).toBe('');
    } finally {
      await health.close();
    }
  });
});
