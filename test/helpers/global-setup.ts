// Once per test run, before any worker starts: picks the PostgreSQL and the Redis the tests use.
//
// PostgreSQL: `TEST_POSTGRES_URL` when set; else the server on 127.0.0.1:5432 when one answers; else a
// throwaway embedded server, stopped and removed at the end of the run (`TEST_POSTGRES=embedded` asks
// for that one even when a server answers). The workers get the URL in `TEST_POSTGRES_URL` (they
// inherit this process's environment; see ./postgres.ts).
//
// Redis: `TEST_REDIS_URL` or `REDIS_URL` when set (it must answer), else redis://127.0.0.1:6379 when it
// answers. The tests read it with `inject('redisUrl')`; null means none answered: the Redis tests are
// skipped and the end of the run says so.
//
// Chromium, for the browser tests: `TEST_CHROMIUM` when set (it must exist), else Debian's
// /usr/bin/chromium when installed. Without one the browser tests are skipped and the end of the run
// says so.
//
// promtool (Debian's prometheus package), which checks the /metrics scrape and the example alert rules:
// `TEST_PROMTOOL` when set (it must exist), else /usr/bin/promtool when installed. Without it those
// checks are skipped and the end of the run says so.
import fs from 'node:fs';
import net from 'node:net';
import { Redis } from 'ioredis';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from './embedded-postgres.js';
import { POSTGRES_ADMIN_URL } from './postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The Redis the Redis tests use, or null when none answered (they are skipped). */
    redisUrl: string | null;
    /** The Chromium the browser tests drive, or null when none is installed (they are skipped). */
    chromium: string | null;
    /** The promtool that checks metrics and alert rules, or null when none is installed (skipped). */
    promtool: string | null;
  }
}

const DEFAULT_POSTGRES = { host: '127.0.0.1', port: 5432 };
const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';
const DEFAULT_CHROMIUM = '/usr/bin/chromium';
const DEFAULT_PROMTOOL = '/usr/bin/promtool';

/** A URL without its password, for printing. */
function shown(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
}

/** Whether something accepts TCP connections there. */
function answers(host: string, port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

async function checkPostgres(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query('select 1');
  } catch (error) {
    throw new Error(
      `The tests need PostgreSQL at ${shown(url)} (set TEST_POSTGRES_URL): ${(error as Error).message}`,
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The PostgreSQL of this run; `stop` is set when this run started it. */
async function choosePostgres(): Promise<{ stop?: () => Promise<void> }> {
  if (process.env.TEST_POSTGRES_URL) {
    await checkPostgres(POSTGRES_ADMIN_URL);
    console.log(`PostgreSQL: TEST_POSTGRES_URL, ${shown(POSTGRES_ADMIN_URL)}`);
    return {};
  }
  const wanted = process.env.TEST_POSTGRES;
  if (wanted !== undefined && wanted !== '' && wanted !== 'embedded')
    throw new Error(
      `TEST_POSTGRES may only be "embedded" (a throwaway server for this run); it is "${wanted}".`,
    );
  const forced = wanted === 'embedded';
  if (!forced && (await answers(DEFAULT_POSTGRES.host, DEFAULT_POSTGRES.port))) {
    await checkPostgres(POSTGRES_ADMIN_URL);
    console.log(`PostgreSQL: existing server at ${DEFAULT_POSTGRES.host}:${DEFAULT_POSTGRES.port}`);
    return {};
  }
  const embedded = await startEmbeddedPostgres();
  process.env.TEST_POSTGRES_URL = embedded.url;
  const why = forced
    ? 'TEST_POSTGRES=embedded'
    : `nothing answered at ${DEFAULT_POSTGRES.host}:${DEFAULT_POSTGRES.port}`;
  console.log(
    `PostgreSQL: embedded at port ${embedded.port} (PostgreSQL ${embedded.version}, ${why}; removed at the end of the run)`,
  );
  return {
    async stop() {
      delete process.env.TEST_POSTGRES_URL;
      await embedded.stop();
    },
  };
}

async function redisAnswers(url: string): Promise<boolean> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 2000,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

/** The Redis of this run, or null when the default one does not answer. */
async function chooseRedis(): Promise<string | null> {
  const given = process.env.TEST_REDIS_URL || process.env.REDIS_URL;
  const url = given ?? DEFAULT_REDIS_URL;
  if (await redisAnswers(url)) {
    console.log(`Redis: ${shown(url)}`);
    return url;
  }
  if (given) throw new Error(`The Redis tests were asked to use ${shown(url)}, which does not answer.`);
  return null;
}

/** The Chromium of this run, or null when the default one is not installed. */
function chooseChromium(): string | null {
  const given = process.env.TEST_CHROMIUM;
  const file = given || DEFAULT_CHROMIUM;
  if (fs.existsSync(file)) {
    console.log(`Chromium: ${file}`);
    return file;
  }
  if (given) throw new Error(`The browser tests were asked to use ${file}, which does not exist.`);
  return null;
}

/** The promtool of this run, or null when the default one is not installed. */
function choosePromtool(): string | null {
  const given = process.env.TEST_PROMTOOL;
  const file = given || DEFAULT_PROMTOOL;
  if (fs.existsSync(file)) {
    console.log(`promtool: ${file}`);
    return file;
  }
  if (given) throw new Error(`The metrics checks were asked to use ${file}, which does not exist.`);
  return null;
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const redisUrl = await chooseRedis();
  project.provide('redisUrl', redisUrl);
  const chromium = chooseChromium();
  project.provide('chromium', chromium);
  const promtool = choosePromtool();
  project.provide('promtool', promtool);
  const postgres = await choosePostgres();
  return async () => {
    await postgres.stop?.();
    // After the summary: a run that did not test the Redis adapter or the web apps must say so.
    if (!redisUrl)
      process.stderr.write(
        `\nRedis adapter NOT tested: no Redis server answered at ${DEFAULT_REDIS_URL} (set REDIS_URL)\n`,
      );
    if (!chromium)
      process.stderr.write(
        `\nWeb apps NOT tested in a browser: no Chromium at ${DEFAULT_CHROMIUM} (install Debian's chromium or set TEST_CHROMIUM)\n`,
      );
    if (!promtool)
      process.stderr.write(
        `\nMetrics and alert rules NOT checked by promtool: none at ${DEFAULT_PROMTOOL} (install Debian's prometheus or set TEST_PROMTOOL)\n`,
      );
  };
}
