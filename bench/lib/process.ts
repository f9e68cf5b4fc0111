// What every bench needs to run the built service (or a baseline server) as a child process on a free
// loopback port: start it, wait until it is ready, keep its output in a log file, stop it.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { freePort } from '../../test/helpers/process.js';

export interface BenchProcess {
  url: string;
  pid: number;
  /** What the process printed until it was ready (the first-start banner, for example). */
  output: () => string;
  /** The last lines of everything it printed, for error reports. */
  logTail: (lines?: number) => string;
  stop(): Promise<void>;
}

/** Processes started and not stopped yet: a bench stops them all on its way out. */
export const runningProcesses = new Set<BenchProcess>();

export const stopAll = async (): Promise<void> => {
  await Promise.all([...runningProcesses].map((p) => p.stop()));
};

/**
 * Starts `node <args>` with PORT and HOST set. Ready when it prints `walkaround started` or, with
 * `ready: 'healthz'` (for a quiet LOG_LEVEL), when /healthz answers; everything it prints goes to
 * `logFile` (a pipe left unread would fill and stall it).
 */
export async function startBenchProcess(
  args: string[],
  env: NodeJS.ProcessEnv,
  logFile: string,
  opts: { ready?: 'banner' | 'healthz' } = {},
): Promise<BenchProcess> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, args, {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = fs.createWriteStream(logFile);
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  let output = '';
  const collect = (chunk: Buffer) => (output += chunk.toString());
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const started: BenchProcess = {
    url,
    pid: child.pid!,
    output: () => output,
    logTail: (lines = 30) => fs.readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n'),
    async stop() {
      runningProcesses.delete(started);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      await new Promise((resolve) => log.end(resolve));
    },
  };
  runningProcesses.add(started);

  const isReady = async () =>
    opts.ready === 'healthz'
      ? fetch(`${url}/healthz`).then(
          (r) => r.ok,
          () => false,
        )
      : output.includes('walkaround started');
  let ready = false;
  for (let i = 0; i < 300 && child.exitCode === null && !(ready = await isReady()); i++)
    await new Promise((resolve) => setTimeout(resolve, 100));
  child.stdout?.off('data', collect);
  child.stderr?.off('data', collect);
  if (!ready) {
    await started.stop();
    throw new Error(`${args.join(' ')} did not start:\n${output}`);
  }
  const text = output;
  started.output = () => text;
  return started;
}

/** CPU time (user + system, all threads) the process has used, in clock ticks (1/100 s on Linux). */
export function cpuTicks(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of stat)
}
