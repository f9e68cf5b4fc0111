// Webhook delivery (docs/webhooks.md) of the built service over HTTP, to a receiver in this process that
// verifies every signature with the Standard Webhooks reference implementation (`standardwebhooks`).
// In one run:
//   a. deliveries/s of `inspection.received`: BENCH_UPLOADS uploads (default 200) of one small JPEG,
//      BENCH_CONCURRENCY at a time (default 4), fresh credentials each, no callback_url (the client's
//      webhook URL). Rate = messages received / time from the first to the last one received. The worker
//      also analyses every upload (same job queue, same slots); only `inspection.received` is counted.
//      The delivery log of a sample splits each delivery: event recorded -> attempt started -> done.
//   a'. 50 of the same messages re-sent by hand (POST …/resend; a client may ask 60 a minute) once the
//      analyses are done, so the queue holds deliveries only: the rate of the delivery path on its own
//      (a lower bound: the re-send requests pace it too).
//   b. result stored (the inspection's updated_at) -> `inspection.completed` received, p50/p99 over
//      BENCH_INSPECTIONS single-image inspections (default 20): one at a time (nothing else queued), then
//      all uploaded together (a burst). Each delivery is split at its first attempt's start (delivery
//      log): waiting in the queue, then the HTTP exchange and receiving.
// The service: `dist/src/main.js serve` (role all, SQLite, temp DATA_DIR, ALLOW_PRIVATE_NETWORKS=true so
// it may call 127.0.0.1). With BENCH_SCALE=1, scale mode instead: a throwaway PostgreSQL database of the
// local server, one `serve --role api` and two `serve --role worker` processes. Clients are made with
// `walkaround clients create … --json` before it starts. Other settings (WORKER_CONCURRENCY,
// MESSAGE_CONCURRENCY, …) pass through from the environment. Target for b.: p99 under 1 s, burst or not.
// The exit status is non-zero only on errors.
//
//   npm run bench:webhooks        (BENCH_SCALE=1 npm run bench:webhooks for scale mode)
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { photo } from '../test/helpers/media.js';
import { createPostgresDatabase } from '../test/helpers/postgres.js';
import { startBenchProcess, type BenchProcess } from './lib/process.js';
import { uploadFiles, type Uploaded } from './lib/upload-client.js';

const UPLOADS = Number(process.env.BENCH_UPLOADS ?? 200);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const INSPECTIONS = Number(process.env.BENCH_INSPECTIONS ?? 20);
const MAIN = path.resolve('dist/src/main.js');
const IMAGE = photo('home.jpg');
const SCALE = process.env.BENCH_SCALE === '1';
/** Re-sends asked for: under the 60 a minute a client may ask (RESENDS_PER_MINUTE in src/deps.ts). */
const RESENDS = 50;
const SCALE_WORKERS = 2;
/** Waiting longer than this for webhooks or results is an error, not a figure. */
const WAIT_TIMEOUT_MS = 600_000;
const POLL_MS = 100;

// ---------------------------------------------------------------------------------------------------
// Figures

function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
const ms = (value: number) => `${value.toFixed(0)} ms`;
const spread = (values: number[]) =>
  `p50 ${ms(percentile(values, 50))}, p99 ${ms(percentile(values, 99))}, max ${ms(Math.max(...values))}`;
const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

// ---------------------------------------------------------------------------------------------------
// The receiver: one path per client, each verified with that client's secret; answers 200 at once.

interface Received {
  id: string;
  type: string;
  inspectionId: string;
  /** Date.now() when the whole body had arrived. */
  at: number;
  verified: boolean;
  payload: string;
  headers: Record<string, string>;
}

interface Receiver {
  port: number;
  secrets: Map<string, string>;
  received: Received[];
  /** Every webhook to `pathName`, once `count` have arrived. */
  waitFor(pathName: string, count: number): Promise<Received[]>;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const secrets = new Map<string, string>();
  const byPath = new Map<string, Received[]>();
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      const payload = Buffer.concat(chunks).toString('utf8');
      const pathName = req.url ?? '';
      const headers = req.headers as Record<string, string>;
      let verified = false;
      try {
        new Webhook(secrets.get(pathName) ?? 'whsec_AA==').verify(payload, headers);
        verified = true;
      } catch {
        verified = false;
      }
      const body = JSON.parse(payload) as { type: string; data: { inspection_id?: string } };
      const entry: Received = {
        id: String(req.headers['webhook-id']),
        type: body.type,
        inspectionId: String(body.data.inspection_id),
        at,
        verified,
        payload,
        headers,
      };
      received.push(entry);
      byPath.set(pathName, [...(byPath.get(pathName) ?? []), entry]);
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('thanks');
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    secrets,
    received,
    async waitFor(pathName, count) {
      const deadline = Date.now() + WAIT_TIMEOUT_MS;
      for (;;) {
        const list = byPath.get(pathName) ?? [];
        if (list.length >= count) return list;
        if (Date.now() > deadline)
          throw new Error(`${pathName}: received ${list.length} of ${count} webhooks`);
        await sleep(10);
      }
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

// ---------------------------------------------------------------------------------------------------
// The service and its CLI

const cli = promisify(execFile);

interface CreatedClient {
  id: string;
  api_key: string;
  webhook_secret: string;
}

async function createClient(
  env: NodeJS.ProcessEnv,
  name: string,
  webhookUrl: string,
  events: string,
): Promise<CreatedClient> {
  const args = ['clients', 'create', '--name', name, '--webhook-url', webhookUrl];
  const { stdout } = await cli(process.execPath, [MAIN, ...args, '--webhook-events', events, '--json'], {
    env,
  });
  return JSON.parse(stdout) as CreatedClient;
}

/**
 * The built service: one process of role all, or in scale mode one api and SCALE_WORKERS workers (the
 * api process is the one returned; the workers are stopped with it). LOG_LEVEL=warn hides the
 * 'walkaround started' line, so /healthz says when a process is up.
 */
async function startService(env: NodeJS.ProcessEnv, logFile: string): Promise<BenchProcess> {
  const start = (role: string, suffix = '') =>
    startBenchProcess([MAIN, 'serve', '--role', role], env, `${logFile}${suffix}`, { ready: 'healthz' });
  if (!SCALE) return start('all');
  const api = await start('api');
  const workers = await Promise.all(
    Array.from({ length: SCALE_WORKERS }, (_, i) => start('worker', `.worker-${i + 1}`)),
  );
  return {
    ...api,
    async stop() {
      await Promise.all([api, ...workers].map((p) => p.stop()));
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// The API client

const upload = (baseUrl: string, key: string, caseId: string): Promise<Uploaded> =>
  uploadFiles(baseUrl, key, { case_id: caseId }, [
    { name: 'home.jpg', content: new Blob([IMAGE], { type: 'image/jpeg' }) },
  ]);

async function getJson<T>(baseUrl: string, key: string, route: string): Promise<T> {
  const res = await fetch(`${baseUrl}${route}`, { headers: { 'x-api-key': key } });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET ${route}: HTTP ${res.status} ${text.slice(0, 500)}`);
  return JSON.parse(text) as T;
}

interface InspectionView {
  status: string;
  updated_at: string;
  result: unknown;
}

/** Polls until the inspection is analysed; its updated_at is when the result was stored. */
async function waitAnalysed(baseUrl: string, key: string, session: string): Promise<InspectionView> {
  const deadline = Date.now() + WAIT_TIMEOUT_MS;
  for (;;) {
    const view = await getJson<InspectionView>(baseUrl, key, `/api/inspections/${session}`);
    if (view.status === 'completed') return view;
    if (view.status === 'failed')
      throw new Error(`analysis of ${session} failed: ${JSON.stringify(view.result).slice(0, 500)}`);
    if (Date.now() > deadline) throw new Error(`${session} not analysed within ${WAIT_TIMEOUT_MS} ms`);
    await sleep(POLL_MS);
  }
}

interface DeliveryView {
  id: string;
  event_type: string;
  status: string;
  attempts: { attempt: number; at: string; status_code: number | null; latency_ms: number }[];
  created_at: string;
}

/** The inspection's message of `eventType`, once delivered (the log is written after the 2xx arrives). */
async function deliveredMessage(
  baseUrl: string,
  key: string,
  session: string,
  eventType: string,
): Promise<DeliveryView> {
  const deadline = Date.now() + WAIT_TIMEOUT_MS;
  for (;;) {
    const { deliveries } = await getJson<{ deliveries: DeliveryView[] }>(
      baseUrl,
      key,
      `/api/inspections/${session}/deliveries`,
    );
    const message = deliveries.find((d) => d.event_type === eventType);
    if (message?.status === 'delivered') return message;
    if (message?.status === 'failed') throw new Error(`${eventType} of ${session} failed`);
    if (Date.now() > deadline) throw new Error(`${eventType} of ${session} not delivered`);
    await sleep(POLL_MS);
  }
}

/** Runs `fn` on every item, `limit` at a time. */
async function eachLimited<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      for (let i = next++; i < items.length; i = next++) await fn(items[i]!);
    }),
  );
}

// ---------------------------------------------------------------------------------------------------
// b. stored -> received, split at the first attempt

interface CompletedFigures {
  total: number[];
  queued: number[];
  sent: number[];
  attempts: number[];
}

async function completedFigures(
  baseUrl: string,
  key: string,
  uploads: Uploaded[],
  got: Received[],
): Promise<CompletedFigures> {
  const figures: CompletedFigures = { total: [], queued: [], sent: [], attempts: [] };
  for (const u of uploads) {
    const hook = got.find((r) => r.inspectionId === u.session);
    if (!hook) throw new Error(`no inspection.completed for ${u.session}`);
    if (!hook.verified) throw new Error(`inspection.completed of ${u.session}: signature not verified`);
    const view = await getJson<InspectionView>(baseUrl, key, `/api/inspections/${u.session}`);
    const stored = Date.parse(view.updated_at);
    const message = await deliveredMessage(baseUrl, key, u.session, 'inspection.completed');
    const firstAttempt = Date.parse(message.attempts[0]!.at);
    figures.total.push(hook.at - stored);
    figures.queued.push(firstAttempt - stored);
    figures.sent.push(hook.at - firstAttempt);
    figures.attempts.push(message.attempts.length);
  }
  return figures;
}

// ---------------------------------------------------------------------------------------------------
// The run

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'walkaround-bench-webhooks-'));
const lines: string[] = [];
const print = (line = '') => lines.push(line);
let service: BenchProcess | undefined;
let receiver: Receiver | undefined;
const postgres = SCALE ? await createPostgresDatabase() : undefined;

try {
  const dataDir = path.join(scratch, 'data');
  fs.mkdirSync(dataDir);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    ALLOW_PRIVATE_NETWORKS: 'true',
    LOG_LEVEL: 'warn',
  };
  if (postgres) env.DATABASE_URL = postgres.url;
  else delete env.DATABASE_URL; // SQLite in DATA_DIR

  receiver = await startReceiver();
  const hookUrl = (p: string) => `http://127.0.0.1:${receiver!.port}${p}`;
  log('creating the clients (walkaround clients create)');
  const receivedClient = await createClient(
    env,
    'bench-received',
    hookUrl('/received'),
    'inspection.received',
  );
  const completedClient = await createClient(
    env,
    'bench-completed',
    hookUrl('/completed'),
    'inspection.completed',
  );
  receiver.secrets.set('/received', receivedClient.webhook_secret);
  receiver.secrets.set('/completed', completedClient.webhook_secret);

  const mode = SCALE
    ? `scale mode: PostgreSQL, one api and ${SCALE_WORKERS} worker processes`
    : 'role all, SQLite';
  log(`starting walkaround serve (${mode})`);
  service = await startService(env, path.join(scratch, 'service.log'));
  const base = service.url;
  const workerConcurrency = process.env.WORKER_CONCURRENCY ?? '2 (default)';
  const messageConcurrency = process.env.MESSAGE_CONCURRENCY ?? '16 (default)';
  print(
    `Webhook delivery, walkaround serve (${mode}), WORKER_CONCURRENCY ${workerConcurrency}, ` +
      `MESSAGE_CONCURRENCY ${messageConcurrency}; receiver on 127.0.0.1 in the bench process answers 200 at once`,
  );
  print(
    `node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), ` +
      `image home.jpg (${(IMAGE.length / 1024).toFixed(0)} KB) per upload`,
  );
  print();

  // a. ------------------------------------------------------------------------------------------------
  log(`a. ${UPLOADS} uploads, ${CONCURRENCY} at a time`);
  const uploads: Uploaded[] = [];
  const uploadStarted = performance.now();
  await eachLimited(
    Array.from({ length: UPLOADS }, (_, i) => i),
    CONCURRENCY,
    async (i) => {
      uploads.push(await upload(base, receivedClient.api_key, `bench-a-${i}`));
    },
  );
  const uploadSeconds = (performance.now() - uploadStarted) / 1000;
  log(`uploads answered in ${uploadSeconds.toFixed(1)} s; waiting for ${UPLOADS} inspection.received`);
  const got = await receiver.waitFor('/received', UPLOADS);
  await sleep(1000); // anything more (a duplicate) would show up now
  const all = receiver.received.filter((r) => r.type === 'inspection.received');
  const unverified = all.filter((r) => !r.verified);
  if (unverified.length > 0) throw new Error(`${unverified.length} inspection.received failed verification`);
  const ids = new Set(all.map((r) => r.id));
  const sessions = new Set(all.map((r) => r.inspectionId));
  if (sessions.size !== UPLOADS || !uploads.every((u) => sessions.has(u.session)))
    throw new Error(`inspection.received for ${sessions.size} of ${UPLOADS} uploads`);
  const first = Math.min(...got.map((r) => r.at));
  const last = Math.max(...got.map((r) => r.at));
  const rate = (got.length - 1) / ((last - first) / 1000);
  const answerToReceived = uploads.map(
    (u) => got.find((r) => r.inspectionId === u.session)!.at - u.answeredAt,
  );
  const firstUpload = Math.min(...uploads.map((u) => u.answeredAt));
  const lastUpload = Math.max(...uploads.map((u) => u.answeredAt));
  fs.writeFileSync(path.join(scratch, 'received-example.json'), JSON.stringify(got[0], null, 2));

  // Where a delivery's time went, from the delivery log of a sample of the uploads.
  const sample = uploads.filter((_, i) => i % Math.max(1, Math.floor(UPLOADS / 20)) === 0);
  const queuedA: number[] = [];
  const httpA: number[] = [];
  for (const u of sample) {
    const message = await deliveredMessage(base, receivedClient.api_key, u.session, 'inspection.received');
    const attempt = message.attempts[0]!;
    queuedA.push(Date.parse(attempt.at) - Date.parse(message.created_at));
    httpA.push(attempt.latency_ms);
  }

  print(
    `a. inspection.received, ${UPLOADS} uploads of one image, ${CONCURRENCY} at a time, to the client's webhook URL`,
  );
  print(
    `   uploads: ${(UPLOADS / uploadSeconds).toFixed(1)}/s (all answered in ${uploadSeconds.toFixed(1)} s)`,
  );
  print(
    `   deliveries: ${rate.toFixed(1)}/s (${got.length} received in ${((last - first) / 1000).toFixed(1)} s, ` +
      `first to last), all ${all.length} verified, ${all.length - ids.size} duplicate webhook-ids`,
  );
  print(
    `   last delivery ${((last - lastUpload) / 1000).toFixed(1)} s after the last upload was answered ` +
      `(first delivery ${((first - firstUpload) / 1000).toFixed(1)} s after the first)`,
  );
  print(`   upload answered -> webhook received: ${spread(answerToReceived)}`);
  print(
    `   from the delivery log (${sample.length} sampled): event recorded -> attempt started ${spread(queuedA)}; ` +
      `attempt (HTTP) ${spread(httpA)}`,
  );
  print();

  // Let the analyses of a. finish (their inspection.completed is for nobody): b. starts on an idle queue.
  log(`waiting for the ${UPLOADS} analyses of a. to finish`);
  const drainStarted = performance.now();
  for (const u of uploads) await waitAnalysed(base, receivedClient.api_key, u.session);
  const analysesEnd = (performance.now() - uploadStarted) / 1000;
  log(
    `analyses done ${((performance.now() - drainStarted) / 1000).toFixed(1)} s after the last inspection.received`,
  );

  // a'. Some of the same messages re-sent by hand with nothing else queued: the delivery path on its
  // own, within the client's limit of re-sends a minute.
  const resends = uploads.slice(0, RESENDS);
  log(`a'. re-sending ${resends.length} inspection.received messages (API), queue otherwise idle`);
  const messageOf = new Map(got.map((r) => [r.inspectionId, r.id]));
  const resendFrom = receiver.received.length;
  const resendStarted = Date.now();
  await eachLimited(resends, CONCURRENCY, async (u) => {
    const route = `/api/inspections/${u.session}/deliveries/${messageOf.get(u.session)}/resend`;
    const res = await fetch(`${base}${route}`, {
      method: 'POST',
      headers: { 'x-api-key': receivedClient.api_key },
    });
    if (res.status !== 202) throw new Error(`POST ${route}: HTTP ${res.status} ${await res.text()}`);
  });
  const resendQueuedMs = Date.now() - resendStarted;
  const resent = (await receiver.waitFor('/received', UPLOADS + resends.length)).slice(UPLOADS);
  if (receiver.received.length - resendFrom !== resends.length || resent.some((r) => !r.verified))
    throw new Error('re-sent messages missing or not verified');
  if (new Set(resent.map((r) => r.id)).size !== resends.length || resent.some((r) => !ids.has(r.id)))
    throw new Error('re-sends did not keep their webhook-id');
  const resentLast = Math.max(...resent.map((r) => r.at));
  const resentFirst = Math.min(...resent.map((r) => r.at));
  print(
    `a'. ${resends.length} of the same messages re-sent (POST …/resend, ${CONCURRENCY} at a time), nothing else queued`,
  );
  print(
    `   ${((resends.length - 1) / ((resentLast - resentFirst) / 1000)).toFixed(1)} deliveries/s ` +
      `(${resends.length} received in ${((resentLast - resentFirst) / 1000).toFixed(1)} s, first to last); ` +
      `re-sends queued in ${(resendQueuedMs / 1000).toFixed(1)} s, last received ` +
      `${((resentLast - resendStarted - resendQueuedMs) / 1000).toFixed(1)} s after; same webhook-ids, all verified`,
  );
  print();

  // b. ------------------------------------------------------------------------------------------------
  log(`b. ${INSPECTIONS} inspections one at a time`);
  const sequential: Uploaded[] = [];
  for (let i = 0; i < INSPECTIONS; i++) {
    const u = await upload(base, completedClient.api_key, `bench-b-${i}`);
    sequential.push(u);
    await receiver.waitFor('/completed', i + 1);
  }
  fs.writeFileSync(
    path.join(scratch, 'completed-example.json'),
    JSON.stringify((await receiver.waitFor('/completed', 1))[0], null, 2),
  );
  const one = await completedFigures(
    base,
    completedClient.api_key,
    sequential,
    await receiver.waitFor('/completed', INSPECTIONS),
  );

  log(`b. ${INSPECTIONS} inspections uploaded together`);
  const burst: Uploaded[] = [];
  await eachLimited(
    Array.from({ length: INSPECTIONS }, (_, i) => i),
    CONCURRENCY,
    async (i) => {
      burst.push(await upload(base, completedClient.api_key, `bench-b-burst-${i}`));
    },
  );
  const burstGot = (await receiver.waitFor('/completed', 2 * INSPECTIONS)).slice(INSPECTIONS);
  const many = await completedFigures(base, completedClient.api_key, burst, burstGot);
  const completedAll = receiver.received.filter((r) => r.type === 'inspection.completed');
  if (completedAll.some((r) => !r.verified)) throw new Error('an inspection.completed failed verification');

  print(
    `b. result stored (updated_at) -> inspection.completed received, ${INSPECTIONS} single-image inspections`,
  );
  const rows: [string, CompletedFigures][] = [
    ['one at a time', one],
    [`burst of ${INSPECTIONS}`, many],
  ];
  for (const [name, f] of rows) {
    print(
      `   ${name.padEnd(14)} p50 ${ms(percentile(f.total, 50))}, p99 ${ms(percentile(f.total, 99))}, ` +
        `max ${ms(Math.max(...f.total))}   target p99 < 1000 ms`,
    );
    print(
      `   ${''.padEnd(14)} split: stored -> first attempt started (queue) ${spread(f.queued)}; ` +
        `attempt started -> received ${spread(f.sent)}; attempts ${Math.max(...f.attempts)} at most`,
    );
  }
  print(`   all ${completedAll.length} verified`);
  print();
  print(
    `(the ${UPLOADS} analyses of a. were done ${analysesEnd.toFixed(1)} s after a. started; ` +
      `load average (1 min) at end ${os.loadavg()[0]!.toFixed(2)})`,
  );
  if (process.env.BENCH_KEEP) print(`examples kept in ${scratch}`);
  process.stdout.write(`${lines.join('\n')}\n`);
} catch (error) {
  if (service) log(`service log tail:\n${service.logTail()}`);
  throw error;
} finally {
  await service?.stop();
  await receiver?.close();
  await postgres?.drop();
  if (!process.env.BENCH_KEEP) fs.rmSync(scratch, { recursive: true, force: true });
}
