// Enqueue→start latency of the two PostgreSQL job-queue libraries the queue port could use (ADR 4):
// graphile-worker (LISTEN/NOTIFY) and pg-boss (polling), on a throwaway database of the local server.
//
//   node --import tsx bench/queue-latency.ts        (BENCH_JOBS=100 for more samples)
import { run, makeWorkerUtils } from 'graphile-worker';
import PgBoss from 'pg-boss';
import pg from 'pg';
import { createPostgresDatabase } from '../test/helpers/postgres.js';

const JOBS = Number(process.env.BENCH_JOBS ?? 40);

function summary(name: string, samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(1);
  return `${name.padEnd(16)} p50 ${at(0.5).padStart(7)} ms   p90 ${at(0.9).padStart(7)} ms   max ${at(1).padStart(7)} ms   (${samples.length} jobs, one at a time)`;
}

/** Sends jobs one at a time; each sample is the time from the committed enqueue to the handler's start. */
async function measure(send: (id: number) => Promise<void>, started: Map<number, (t: number) => void>) {
  const samples: number[] = [];
  for (let id = 0; id < JOBS; id++) {
    const begun = new Promise<number>((resolve) => started.set(id, resolve));
    const t0 = performance.now();
    await send(id);
    samples.push((await begun) - t0);
  }
  return samples;
}

async function graphile(url: string): Promise<number[]> {
  const started = new Map<number, (t: number) => void>();
  const pool = new pg.Pool({ connectionString: url });
  const runner = await run({
    pgPool: pool,
    concurrency: 2,
    noHandleSignals: true,
    logger: undefined,
    taskList: { probe: async (payload) => started.get((payload as { id: number }).id)?.(performance.now()) },
  });
  const utils = await makeWorkerUtils({ pgPool: pool });
  await measure(async (id) => void (await utils.addJob('probe', { id })), started); // warm-up
  const samples = await measure(async (id) => {
    // Through SQL in a transaction of our own, as the service enqueues.
    const client = await pool.connect();
    await client.query('begin');
    await client.query('select graphile_worker.add_job($1, $2::json)', ['probe', JSON.stringify({ id })]);
    await client.query('commit');
    client.release();
  }, started);
  await utils.release();
  await runner.stop();
  await pool.end();
  return samples;
}

async function pgBoss(url: string): Promise<number[]> {
  const started = new Map<number, (t: number) => void>();
  const boss = new PgBoss({
    connectionString: url,
    pollingIntervalSeconds: 0.5,
    supervise: false,
    schedule: false,
  });
  boss.on('error', () => undefined);
  await boss.start();
  await boss.createQueue('probe');
  await boss.work<{ id: number }>('probe', { pollingIntervalSeconds: 0.5 }, async ([job]) => {
    started.get(job!.data.id)?.(performance.now());
  });
  await measure(async (id) => void (await boss.send('probe', { id })), started); // warm-up
  const samples = await measure(async (id) => void (await boss.send('probe', { id })), started);
  await boss.stop({ graceful: false, wait: true });
  return samples;
}

const database = await createPostgresDatabase();
try {
  const g = await graphile(database.url);
  const b = await pgBoss(database.url);
  process.stdout.write(
    [
      `Enqueue→start latency on PostgreSQL, node ${process.version}`,
      summary('graphile-worker', g),
      summary('pg-boss (0.5 s)', b),
      '',
    ].join('\n'),
  );
} finally {
  await database.drop();
}
