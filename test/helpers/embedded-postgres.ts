// A throwaway PostgreSQL server for a test run on a machine that has none, on a free loopback port.
//
// The server belongs to a child process of its own (./embedded-postgres-server.ts), never to the
// test runner: nothing it loads can register exit hooks in the runner and change the run's exit code,
// and the server stops when the runner ends, however it ends (the child sees its stdin close). See
// docs/adr/0014-embedded-postgres-in-a-child-process.md.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import readline from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface EmbeddedPostgres {
  /** Superuser URL, for `TEST_POSTGRES_URL`. */
  url: string;
  port: number;
  /** Server version, as `show server_version` answers it. */
  version: string;
  /** Stops the server and removes its directory. */
  stop(): Promise<void>;
}

const SERVER_SCRIPT = fileURLToPath(new URL('./embedded-postgres-server.ts', import.meta.url));
/** tsx's loader, which lets Node run the TypeScript of the server script. */
const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

type Announcement = { url: string; port: number; version: string } | { error: string };

export async function startEmbeddedPostgres(): Promise<EmbeddedPostgres> {
  const child = spawn(process.execPath, ['--import', TSX_LOADER, SERVER_SCRIPT], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const firstLine = new Promise<string | undefined>((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout });
    lines.once('line', (line) => {
      lines.close();
      resolve(line);
    });
    child.once('error', reject);
    void exited.then(() => resolve(undefined));
  });

  const line = await firstLine;
  const announced = line === undefined ? undefined : (JSON.parse(line) as Announcement);
  if (!announced || 'error' in announced) {
    child.stdin.end();
    await exited;
    throw new Error(
      `Could not start the embedded PostgreSQL: ${announced?.error ?? 'its process exited without a word'}`,
    );
  }
  return {
    ...announced,
    async stop() {
      child.stdin.end();
      await exited;
    },
  };
}
