// Once per test run, before any worker starts: picks the PostgreSQL the tests use.
//
// `TEST_POSTGRES_URL` when set; else the server on 127.0.0.1:5432 when one answers; else a
// throwaway embedded server, stopped and removed at the end of the run. The workers get the URL in
// `TEST_POSTGRES_URL` (they inherit this process's environment; see ./postgres.ts).
import net from 'node:net';
import pg from 'pg';
import { startEmbeddedPostgres } from './embedded-postgres.js';
import { POSTGRES_ADMIN_URL } from './postgres.js';

const DEFAULT_POSTGRES = { host: '127.0.0.1', port: 5432 };

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
  if (await answers(DEFAULT_POSTGRES.host, DEFAULT_POSTGRES.port)) {
    await checkPostgres(POSTGRES_ADMIN_URL);
    console.log(`PostgreSQL: existing server at ${DEFAULT_POSTGRES.host}:${DEFAULT_POSTGRES.port}`);
    return {};
  }
  const embedded = await startEmbeddedPostgres();
  process.env.TEST_POSTGRES_URL = embedded.url;
  console.log(
    `PostgreSQL: embedded at port ${embedded.port} (PostgreSQL ${embedded.version}, ` +
      `nothing answered at ${DEFAULT_POSTGRES.host}:${DEFAULT_POSTGRES.port}; removed at the end of the run)`,
  );
  return {
    async stop() {
      delete process.env.TEST_POSTGRES_URL;
      await embedded.stop();
    },
  };
}

export default async function setup(): Promise<() => Promise<void>> {
  const postgres = await choosePostgres();
  return async () => {
    await postgres.stop?.();
  };
}
