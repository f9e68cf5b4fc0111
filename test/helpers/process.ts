// Runs the built `walkaround` program as a real process (npm test builds it first).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';

export const MAIN = path.resolve('dist/src/main.js');
const run = promisify(execFile);
/** How long startServer waits for a server to answer /healthz (tests that start several allow for it). */
export const STARTUP_DEADLINE_MS = 60_000;

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCli(
  args: string[],
  env: Record<string, string>,
  input?: string,
): Promise<CliResult> {
  const child = run(process.execPath, [MAIN, ...args], { env: { PATH: process.env.PATH ?? '', ...env } });
  if (input !== undefined) {
    child.child.stdin?.end(input);
  }
  try {
    const { stdout, stderr } = await child;
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface RunningServer {
  url: string;
  pid: number;
  output(): string;
  stop(): Promise<void>;
  /** Kills the process at once (no graceful shutdown) and waits for it to be gone. */
  kill(): Promise<void>;
}

/** Starts `walkaround serve` and resolves once it answers /healthz. */
export async function startServer(env: Record<string, string>, args: string[] = []): Promise<RunningServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [MAIN, 'serve', ...args], {
    // The 'walkaround started' log line tells when the start-up output is complete.
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      RESPONSE_CONTRACT: 'enforce',
      // As in test/helpers/backends.ts: test files run side by side, one analysis thread each.
      ANALYSIS_THREADS: '1',
      ...env,
      LOG_LEVEL: 'info',
      PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const url = `http://127.0.0.1:${port}`;
  const server = {
    url,
    pid: child.pid!,
    output: () => output,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      failOnContractViolations(output);
    },
    async kill() {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
      failOnContractViolations(output);
    },
  };
  // Generous: three servers starting at once on a loaded 2-core machine took up to 20 s (migrations, models).
  const deadline = Date.now() + STARTUP_DEADLINE_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`walkaround serve exited with ${child.exitCode}:\n${output}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok && output.includes('walkaround started')) return server;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await server.stop();
  throw new Error(`walkaround serve did not become healthy:\n${output}`);
}

export interface RunningCli {
  pid: number;
  output(): string;
  /** Resolves with the output once `done` holds for it (checked as output arrives); rejects on exit. */
  waitFor(done: (output: string) => boolean, ms?: number): Promise<string>;
  /** Sends SIGINT (Ctrl-C) and resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** Starts a long-running `walkaround` command (such as `webhooks listen`); stdout and stderr together. */
export function startCli(args: string[], env: Record<string, string>): RunningCli {
  const child = spawn(process.execPath, [MAIN, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return {
    pid: child.pid!,
    output: () => output,
    async waitFor(done, ms = 60_000) {
      const deadline = Date.now() + ms;
      while (!done(output)) {
        if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}:\n${output}`);
        if (Date.now() > deadline) throw new Error(`waited ${ms} ms in vain:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return output;
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGINT');
      return exited;
    },
  };
}

/** The server logged an answer that its OpenAPI document does not declare (RESPONSE_CONTRACT). */
function failOnContractViolations(output: string): void {
  const lines = output.split('\n').filter((line) => line.includes('response contract violation'));
  if (lines.length > 0)
    throw new Error(`walkaround serve answered outside its contract:\n${lines.join('\n')}`);
}

/** The demo client's API key from the first-start banner, if this process printed it. */
export function demoKey(output: string): string | undefined {
  return /API key:\s+(wk_live_\S+)/.exec(output)?.[1];
}

export async function authenticateOver(url: string, key: string): Promise<Response> {
  return fetch(`${url}/api/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key }),
  });
}
