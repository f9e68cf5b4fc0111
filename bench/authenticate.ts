// Requests/s and p99 latency of POST /api/authenticate at 50 concurrent connections, beside a bare
// Fastify route that only signs the same two JWTs, in one run. Target: authenticate reaches at least
// 60% of the baseline's requests/s on SQLite.
//
//   npm run bench:authenticate   (BENCH_SECONDS=20 for longer runs; BENCH_DATABASE=postgres;
//                                 JWT_ALGORITHM=EdDSA for the other algorithm, on both sides)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { createPostgresDatabase } from '../test/helpers/postgres.js';
import { startBenchProcess, stopAll } from './lib/process.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;
const database = process.env.BENCH_DATABASE === 'postgres' ? 'postgres' : 'sqlite';

async function load(url: string, body: string, seconds: number) {
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
  await load(service.url, body, 2); // warm-up
  const ours = await load(service.url, body, SECONDS);
  await service.stop();

  const bare = await startBenchProcess(
    ['--import', 'tsx', 'bench/bare-signer.ts'],
    {},
    path.join(dataDir, 'bare.log'),
  );
  await load(bare.url, body, 2);
  const baseline = await load(bare.url, body, SECONDS);
  await bare.stop();

  const row = (name: string, r: typeof ours) =>
    `${name.padEnd(34)} ${r.rps.toFixed(0).padStart(8)} req/s   p50 ${String(r.p50).padStart(3)} ms   p99 ${String(r.p99).padStart(3)} ms   (${r.total} requests)`;
  process.stdout.write(
    [
      `POST /api/authenticate, ${CONNECTIONS} connections, ${SECONDS} s each, database ${database}, JWT ${process.env.JWT_ALGORITHM ?? 'ES256'}, node ${process.version}, ${os.cpus().length} cores`,
      row('walkaround /api/authenticate', ours),
      row('bare Fastify, two JWT signatures', baseline),
      `ratio: ${((ours.rps / baseline.rps) * 100).toFixed(1)}% of the baseline's requests/s (target: at least 60%)`,
      '',
    ].join('\n'),
  );
} finally {
  await stopAll();
  await postgres?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
