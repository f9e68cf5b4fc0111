// Requests/s and p99 latency of POST /api/authenticate at 50 concurrent connections, beside a bare
// Fastify route that only signs the same two JWTs, in one run. Target: authenticate reaches at least
// 60% of the baseline's requests/s on SQLite.
//
// Both servers run for the whole bench and are loaded in turns (ours, bare, ours, bare, …): this
// machine's speed drifts by a third from one minute to the next, and turns put both sides in the same
// minutes. The figures are medians over the rounds; the ratio is the median of the per-round ratios.
//
//   npm run bench:authenticate   (BENCH_ROUNDS=5 rounds of BENCH_SECONDS=5 s per side;
//                                 BENCH_DATABASE=postgres; JWT_ALGORITHM=EdDSA for the other algorithm,
//                                 on both sides)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { createPostgresDatabase } from '../test/helpers/postgres.js';
import { startBenchProcess, stopAll } from './lib/process.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONNECTIONS = 50;
const database = process.env.BENCH_DATABASE === 'postgres' ? 'postgres' : 'sqlite';

interface Load {
  rps: number;
  p50: number;
  p99: number;
  total: number;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** Per figure, the median over the rounds; the request count is the total. */
const medianLoad = (loads: Load[]): Load => ({
  rps: median(loads.map((l) => l.rps)),
  p50: median(loads.map((l) => l.p50)),
  p99: median(loads.map((l) => l.p99)),
  total: loads.reduce((sum, l) => sum + l.total, 0),
});

async function load(url: string, body: string, seconds: number): Promise<Load> {
  const result = await autocannon({
    url: `${url}/api/authenticate`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    connections: CONNECTIONS,
    duration: seconds,
  });
  const ok = result['2xx'];
  if (ok !== result.requests.total || result.errors > 0) {
    throw new Error(`${result.requests.total - ok} non-2xx answers and ${result.errors} errors`);
  }
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
  };
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'walkaround-bench-'));
const postgres = database === 'postgres' ? await createPostgresDatabase() : undefined;
const env = { DATA_DIR: dataDir, ...(postgres && { DATABASE_URL: postgres.url }) };

try {
  const service = await startBenchProcess(
    ['dist/src/main.js', 'serve'],
    env,
    path.join(dataDir, 'service.log'),
  );
  const key = /API key:\s+(wk_live_\S+)/.exec(service.output())?.[1];
  if (!key) throw new Error('no demo key printed');
  const body = JSON.stringify({ key });
  const bare = await startBenchProcess(
    ['--import', 'tsx', 'bench/bare-signer.ts'],
    {},
    path.join(dataDir, 'bare.log'),
  );
  await load(service.url, body, 2); // warm-up
  await load(bare.url, body, 2);
  const rounds: { ours: Load; baseline: Load }[] = [];
  for (let round = 0; round < ROUNDS; round++)
    rounds.push({
      ours: await load(service.url, body, SECONDS),
      baseline: await load(bare.url, body, SECONDS),
    });
  const ours = medianLoad(rounds.map((r) => r.ours));
  const baseline = medianLoad(rounds.map((r) => r.baseline));
  const ratios = rounds.map((r) => (r.ours.rps / r.baseline.rps) * 100);

  const row = (name: string, r: Load) =>
    `${name.padEnd(34)} ${r.rps.toFixed(0).padStart(8)} req/s   p50 ${String(r.p50).padStart(3)} ms   p99 ${String(r.p99).padStart(3)} ms   (${r.total} requests)`;
  process.stdout.write(
    [
      `POST /api/authenticate, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s per side, database ${database}, JWT ${process.env.JWT_ALGORITHM ?? 'ES256'}, node ${process.version}, ${os.cpus().length} cores`,
      row('walkaround /api/authenticate', ours),
      row('bare Fastify, two JWT signatures', baseline),
      `ratio: ${median(ratios).toFixed(1)}% of the baseline's requests/s, median of the rounds (${ratios.map((r) => r.toFixed(0)).join(', ')}%; target: at least 60%)`,
      '',
    ].join('\n'),
  );
} finally {
  await stopAll();
  await postgres?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
