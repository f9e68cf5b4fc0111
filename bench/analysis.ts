// Analysis throughput and its effect on the API, on 12-megapixel JPEGs (4000x3000, quality 90), in one run:
//   a. images/s of the default analyzers (damage model off) on the analysis pool, imported directly from
//      dist/, with 1 thread and with os.availableParallelism() threads; images/s per thread and per
//      CPU-second, and each analyzer's median time from the returned runs.
//   b. against the built service (`serve`, role all, SQLite): the time from the 200 of a 10-image upload
//      to the result being stored (the inspection's updated_at) and to a 50 ms poll seeing it completed.
//      Median of BENCH_RUNS runs (default 3), each with fresh credentials, after a warm-up inspection of
//      the same 10 images (every analysis thread loads its models).
//   c. GET /healthz latency (p50/p99/max) while the same process analyses two inspections of 10 images,
//      beside the same probe with the service idle. Target: p99 under 50 ms while busy.
// Missed targets are reported, not failed; the exit status is non-zero only on errors.
//
//   npm run bench:analysis     (BENCH_IMAGES=48 for longer pool runs; BENCH_CPU_PROF=<dir> profiles the service)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { Client } from 'undici';
import type { MediaAnalysis } from '../src/ports/analysis-pool.js';
import type * as PoolModule from '../src/threads/analysis-pool.js';
import { photo } from '../test/helpers/media.js';
import { median, percentile } from './lib/stats.js';
import { cpuTicks, startBenchProcess, stopAll, type BenchProcess } from './lib/process.js';
import { uploadFiles, type Uploaded } from './lib/upload-client.js';

const POOL_IMAGES = Number(process.env.BENCH_IMAGES ?? 24);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const CPU_PROF = process.env.BENCH_CPU_PROF;
const WIDTH = 4000;
const HEIGHT = 3000;
const DISTINCT_IMAGES = 10;
const INSPECTION_IMAGES = 10;
const BUSY_INSPECTIONS = 2;
const POLL_MS = 50;
/** Pause between two sequential /healthz requests of the probe (about 100 requests/s). */
const PROBE_GAP_MS = 10;
const IDLE_PROBE_MS = 10_000;
const HEALTHZ_P99_TARGET_MS = 50;
const CALLBACK_URL = 'https://hooks.example.com/x';
const SOURCES = ['exif.jpg', 'home.jpg', 'licenseplate_motion.jpg', 'scenetext01.jpg'];
const ANALYSIS_TIMEOUT_MS = 600_000;
const MB = 1024 * 1024;

const THREAD_SETTINGS = {
  damageModel: { kind: 'none', minConfidence: 0.35 },
  outbound: {
    allowPrivateNetworks: false,
    connectTimeoutMs: 5000,
    timeoutMs: 60000,
    concurrency: 8,
    maxRedirects: 5,
  },
} as const;

// ---------------------------------------------------------------------------------------------------
// Figures

const ms = (value: number, digits = 0) => `${value.toFixed(digits)} ms`;
const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

// ---------------------------------------------------------------------------------------------------
// Test images: the fixture photos scaled up to 4000x3000, each with its own noise (so no two files, nor
// their fingerprints' inputs, are the same), encoded as JPEG quality 90.

async function makeImages(dir: string): Promise<string[]> {
  const files: string[] = [];
  for (let i = 0; i < DISTINCT_IMAGES; i++) {
    const source = SOURCES[i % SOURCES.length]!;
    const variant = Math.floor(i / SOURCES.length);
    const { data } = await sharp(photo(source))
      .rotate()
      .flop(variant % 2 === 1)
      .resize(WIDTH, HEIGHT, { fit: 'cover', kernel: 'lanczos3' })
      .modulate({ brightness: 1 + 0.06 * variant })
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    let state = (0x9e3779b9 * (i + 1)) >>> 0 || 1;
    for (let p = 0; p < data.length; p++) {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      state >>>= 0;
      data[p] = Math.max(0, Math.min(255, data[p]! + (state % 25) - 12));
    }
    const file = path.join(dir, `photo-${String(i).padStart(2, '0')}.jpg`);
    await sharp(data, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } })
      .jpeg({ quality: 90 })
      .toFile(file);
    files.push(file);
  }
  return files;
}

// ---------------------------------------------------------------------------------------------------
// a. The analysis pool on its own

interface PoolFigures {
  threads: number;
  images: number;
  wallMs: number;
  cpuMs: number;
  warmupMs: number;
  taskMs: number[];
  /** Analyzer name -> each run's ms. */
  analyzerMs: Map<string, number[]>;
  /** Per task: its time minus its analyzers' (decode to preview, thumbnail, thread hand-off). */
  restMs: number[];
}

async function measurePool(
  createAnalysisPool: typeof PoolModule.createAnalysisPool,
  images: string[],
  workDir: string,
  threads: number,
): Promise<PoolFigures> {
  const pool = createAnalysisPool(THREAD_SETTINGS, { threads });
  const analyse = async (file: string): Promise<{ analysis: MediaAnalysis; ms: number }> => {
    const started = performance.now();
    const analysis = await pool.analyseMedia({
      path: file,
      mime: 'image/jpeg',
      kind: 'image',
      inputMetaData: {},
      workDir,
    });
    const failed = analysis.runs.filter((r) => r.status !== 'ok');
    if (failed.length > 0)
      throw new Error(`analyzers failed: ${failed.map((r) => `${r.name}: ${r.error}`).join('; ')}`);
    return { analysis, ms: performance.now() - started };
  };
  try {
    // Warm-up: every thread loads its analyzers and models on its first task.
    const warmupStarted = performance.now();
    await Promise.all(Array.from({ length: threads * 2 }, (_, i) => analyse(images[i % images.length]!)));
    const warmupMs = performance.now() - warmupStarted;

    const figures: PoolFigures = {
      threads,
      images: POOL_IMAGES,
      wallMs: 0,
      cpuMs: 0,
      warmupMs,
      taskMs: [],
      analyzerMs: new Map(),
      restMs: [],
    };
    let next = 0;
    const cpu = process.cpuUsage();
    const started = performance.now();
    // `threads` tasks in flight: each one starts on an idle thread, so its time is its own.
    await Promise.all(
      Array.from({ length: threads }, async () => {
        for (let i = next++; i < POOL_IMAGES; i = next++) {
          const { analysis, ms: taskMs } = await analyse(images[i % images.length]!);
          figures.taskMs.push(taskMs);
          let analyzersMs = 0;
          for (const run of analysis.runs) {
            const list = figures.analyzerMs.get(run.name) ?? [];
            list.push(run.ms);
            figures.analyzerMs.set(run.name, list);
            analyzersMs += run.ms;
          }
          figures.restMs.push(taskMs - analyzersMs);
        }
      }),
    );
    figures.wallMs = performance.now() - started;
    const used = process.cpuUsage(cpu);
    figures.cpuMs = (used.user + used.system) / 1000;
    return figures;
  } finally {
    await pool.close();
  }
}

// ---------------------------------------------------------------------------------------------------
// The service as a child process

/** The built service, with the CPU profiler when asked for. */
const startService = (env: Record<string, string>, logFile: string) =>
  startBenchProcess(
    [
      ...(CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(CPU_PROF)] : []),
      'dist/src/main.js',
      'serve',
    ],
    env,
    logFile,
  );

/**
 * The scheduler's account of a process's main thread (/proc/<pid>/task/<pid>/schedstat): time on a CPU
 * and time spent runnable on a run queue, waiting for a CPU. Undefined where the kernel does not say.
 */
function schedstat(pid: number): { cpuMs: number; waitMs: number } | undefined {
  try {
    const [cpu, wait] = fs.readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').trim().split(' ');
    return { cpuMs: Number(cpu) / 1e6, waitMs: Number(wait) / 1e6 };
  } catch {
    return undefined;
  }
}

/**
 * Most CPU ticks an idle service uses in half a second. Under --cpu-prof every isolate's sampler costs a
 * few per cent of a core, and the analysis threads are never retired: a stricter bound would never be
 * met.
 */
const QUIET_MAX_TICKS = CPU_PROF ? 15 : 2;

/** Waits until the service has used (almost) no CPU for half a second: the previous analysis is over. */
async function settle(pid: number): Promise<void> {
  const started = performance.now();
  for (;;) {
    const before = cpuTicks(pid);
    await sleep(500);
    if (cpuTicks(pid) - before <= QUIET_MAX_TICKS) {
      const waited = performance.now() - started;
      if (waited > 5000) log(`waited ${(waited / 1000).toFixed(1)} s for the service to become idle`);
      return;
    }
    if (performance.now() - started > 300_000)
      throw new Error('the service did not become idle within 300 s');
  }
}

// ---------------------------------------------------------------------------------------------------
// The client: credentials, one multipart upload of several images, polling for the result

async function uploadInspection(baseUrl: string, key: string, files: string[]): Promise<Uploaded> {
  const parts = await Promise.all(
    files.map(async (file) => ({
      name: path.basename(file),
      content: await fs.openAsBlob(file, { type: 'image/jpeg' }),
    })),
  );
  return uploadFiles(baseUrl, key, { case_id: 'bench-analysis', callback_url: CALLBACK_URL }, parts);
}

interface Completion {
  /** Date.now() when a poll first saw the inspection completed. */
  seenAt: number;
  /** The inspection's updated_at: when the worker stored the result. */
  storedAt: number;
}

async function waitCompleted(baseUrl: string, key: string, session: string): Promise<Completion> {
  const deadline = Date.now() + ANALYSIS_TIMEOUT_MS;
  for (;;) {
    const res = await fetch(`${baseUrl}/api/inspections/${session}`, { headers: { 'x-api-key': key } });
    const seenAt = Date.now();
    const text = await res.text();
    if (res.status !== 200) throw new Error(`GET /api/inspections/${session}: HTTP ${res.status} ${text}`);
    const body = JSON.parse(text) as { status: string; updated_at: string; result: unknown };
    if (body.status === 'completed') return { seenAt, storedAt: Date.parse(body.updated_at) };
    if (body.status === 'failed')
      throw new Error(`analysis of ${session} failed: ${JSON.stringify(body.result).slice(0, 500)}`);
    if (seenAt > deadline) throw new Error(`no result for ${session} within ${ANALYSIS_TIMEOUT_MS} ms`);
    await sleep(POLL_MS);
  }
}

// ---------------------------------------------------------------------------------------------------
// c. The /healthz probe: sequential requests on one keep-alive connection, each one timed.

interface Probe {
  stop(): Promise<number[]>;
}

function probeHealthz(baseUrl: string): Probe {
  const client = new Client(baseUrl, { pipelining: 1 });
  const latencies: number[] = [];
  let stopping = false;
  const loop = (async () => {
    while (!stopping) {
      const started = performance.now();
      const res = await client.request({ path: '/healthz', method: 'GET' });
      const body = await res.body.text();
      const elapsed = performance.now() - started;
      if (res.statusCode !== 200) throw new Error(`/healthz: HTTP ${res.statusCode} ${body}`);
      latencies.push(elapsed);
      await sleep(PROBE_GAP_MS);
    }
  })();
  return {
    async stop() {
      stopping = true;
      try {
        await loop;
      } finally {
        await client.close();
      }
      return latencies;
    },
  };
}

/** The service's event-loop delay since the previous scrape (prom-client resets its histogram on each). */
async function eventLoopLag(baseUrl: string): Promise<{ p99: number; max: number }> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN) * 1000;
  return { p99: value('nodejs_eventloop_lag_p99_seconds'), max: value('nodejs_eventloop_lag_max_seconds') };
}

interface ProbeFigures {
  windowMs: number;
  latencies: number[];
  serviceLag: { p99: number; max: number };
  /** The bench process's own event-loop delay: the client side of the measured latencies. */
  benchLagMaxMs: number;
  /** CPU the whole service process used in the window, in cores. */
  serviceCores: number;
  /** The service's main thread (event loop) in the window: ms on a CPU, ms runnable but waiting for one. */
  mainThread: { cpuMs: number; waitMs: number } | undefined;
}

async function probeWhile(service: BenchProcess, work: () => Promise<unknown>): Promise<ProbeFigures> {
  const baseUrl = service.url;
  await eventLoopLag(baseUrl); // resets the service's histogram
  const ticks = cpuTicks(service.pid);
  const sched = schedstat(service.pid);
  const benchLag = monitorEventLoopDelay({ resolution: 10 });
  benchLag.enable();
  const started = performance.now();
  const probe = probeHealthz(baseUrl);
  let latencies: number[];
  try {
    await work();
  } finally {
    latencies = await probe.stop();
  }
  const windowMs = performance.now() - started;
  const serviceCores = (cpuTicks(service.pid) - ticks) / 100 / (windowMs / 1000);
  const schedEnd = schedstat(service.pid);
  const mainThread =
    sched && schedEnd
      ? { cpuMs: schedEnd.cpuMs - sched.cpuMs, waitMs: schedEnd.waitMs - sched.waitMs }
      : undefined;
  benchLag.disable();
  return {
    windowMs,
    latencies,
    serviceLag: await eventLoopLag(baseUrl),
    benchLagMaxMs: benchLag.max / 1e6,
    serviceCores,
    mainThread,
  };
}

// ---------------------------------------------------------------------------------------------------
// The run

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'walkaround-bench-analysis-'));
const lines: string[] = [];
const print = (line = '') => lines.push(line);
const loadAtStart = os.loadavg()[0]!;

try {
  const imageDir = path.join(scratch, 'images');
  fs.mkdirSync(imageDir);
  log(`making ${DISTINCT_IMAGES} JPEGs of ${WIDTH}x${HEIGHT}`);
  const images = await makeImages(imageDir);
  const imageBytes = images.map((f) => fs.statSync(f).size);
  const parallelism = os.availableParallelism();
  print(
    `Analysis on ${WIDTH}x${HEIGHT} JPEGs (${(WIDTH * HEIGHT) / 1e6} MP, quality 90, ${DISTINCT_IMAGES} distinct, ` +
      `${(median(imageBytes) / MB).toFixed(1)} MB median), default analyzers, damage model off`,
  );
  print(
    `node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), availableParallelism ${parallelism}`,
  );
  print();

  // a. ------------------------------------------------------------------------------------------------
  const { createAnalysisPool } = (await import(
    pathToFileURL(path.resolve('dist/src/threads/analysis-pool.js')).href
  )) as typeof PoolModule;
  const workDir = path.join(scratch, 'work');
  fs.mkdirSync(workDir);
  const poolRuns: PoolFigures[] = [];
  for (const threads of [...new Set([1, parallelism])]) {
    log(`pool: ${threads} thread(s), ${POOL_IMAGES} images after a warm-up of ${threads * 2}`);
    poolRuns.push(await measurePool(createAnalysisPool, images, workDir, threads));
  }
  print(
    `a. Analysis pool (dist/src/threads/analysis-pool.js), ${POOL_IMAGES} images per run after a warm-up`,
  );
  for (const r of poolRuns) {
    const perSecond = r.images / (r.wallMs / 1000);
    print(
      `   ${String(r.threads).padStart(2)} thread(s): ${perSecond.toFixed(2)} images/s, ` +
        `${(perSecond / r.threads).toFixed(2)} images/s per thread (core), ` +
        `${(r.images / (r.cpuMs / 1000)).toFixed(2)} images per CPU-second ` +
        `(process CPU ${(r.cpuMs / r.wallMs).toFixed(2)} cores busy); task median ${ms(median(r.taskMs))}; ` +
        `warm-up ${ms(r.warmupMs)}`,
    );
  }
  const names = [...(poolRuns[0]?.analyzerMs.keys() ?? [])];
  print(`   median ms per image     ${poolRuns.map((r) => `${r.threads} thread(s)`.padStart(12)).join('')}`);
  for (const name of names) {
    print(
      `     ${name.padEnd(22)}${poolRuns.map((r) => ms(median(r.analyzerMs.get(name) ?? [])).padStart(12)).join('')}`,
    );
  }
  print(
    `     ${'rest (decode, thumb)'.padEnd(22)}${poolRuns.map((r) => ms(median(r.restMs)).padStart(12)).join('')}`,
  );
  print(`     ${'whole task'.padEnd(22)}${poolRuns.map((r) => ms(median(r.taskMs)).padStart(12)).join('')}`);
  print();

  // b. and c. -----------------------------------------------------------------------------------------
  const dataDir = path.join(scratch, 'data');
  fs.mkdirSync(dataDir);
  log('starting walkaround serve (role all, SQLite)');
  const service = await startService({ DATA_DIR: dataDir }, path.join(scratch, 'service.log'));
  try {
    const key = /API key:\s+(wk_live_\S+)/.exec(service.output())?.[1];
    if (!key) throw new Error('no demo key printed');
    const inspection = images.slice(0, INSPECTION_IMAGES);
    const analyseOne = async (files: string[]) => {
      const uploaded = await uploadInspection(service.url, key, files);
      return { uploaded, done: await waitCompleted(service.url, key, uploaded.session) };
    };

    // As many images as the measured runs: every analysis thread gets one and loads its models.
    log('warm-up inspection (the analysis threads load their models)');
    const warmStarted = Date.now();
    await analyseOne(inspection);
    const warmupMs = Date.now() - warmStarted;

    const stored: number[] = [];
    const seen: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      await settle(service.pid);
      log(`upload to result, run ${run + 1} of ${RUNS}`);
      const { uploaded, done } = await analyseOne(inspection);
      stored.push(done.storedAt - uploaded.answeredAt);
      seen.push(done.seenAt - uploaded.answeredAt);
    }
    print(
      `b. Upload answered -> result stored, ${INSPECTION_IMAGES}-image inspection, walkaround serve (role all, SQLite), ` +
        `median of ${RUNS} runs`,
    );
    print(
      `   result stored (updated_at): ${ms(median(stored))} (${(median(stored) / INSPECTION_IMAGES).toFixed(0)} ms/image; ` +
        `runs ${stored.map((v) => v.toFixed(0)).join(', ')} ms)`,
    );
    print(
      `   seen by a ${POLL_MS} ms poll:    ${ms(median(seen))} (runs ${seen.map((v) => v.toFixed(0)).join(', ')} ms)`,
    );
    print(
      `   (after a warm-up inspection of the same ${INSPECTION_IMAGES} images: ${ms(warmupMs)}, model loading included)`,
    );
    print();

    await settle(service.pid);
    log(`/healthz probe, service idle, ${IDLE_PROBE_MS / 1000} s`);
    const idle = await probeWhile(service, () => sleep(IDLE_PROBE_MS));

    await settle(service.pid);
    log(`/healthz probe while ${BUSY_INSPECTIONS} inspections of ${INSPECTION_IMAGES} are analysed`);
    const uploads = await Promise.all(
      Array.from({ length: BUSY_INSPECTIONS }, () => uploadInspection(service.url, key, inspection)),
    );
    const busy = await probeWhile(service, () =>
      Promise.all(uploads.map((u) => waitCompleted(service.url, key, u.session))),
    );

    const row = (name: string, f: ProbeFigures) => [
      `   ${name.padEnd(5)} p50 ${ms(percentile(f.latencies, 50), 1).padStart(8)}   ` +
        `p99 ${ms(percentile(f.latencies, 99), 1).padStart(8)}   max ${ms(Math.max(...f.latencies), 1).padStart(8)}   ` +
        `(${f.latencies.length} requests in ${(f.windowMs / 1000).toFixed(1)} s; service CPU ${f.serviceCores.toFixed(2)} cores)`,
      `         service event-loop delay p99 ${ms(f.serviceLag.p99, 1)}, max ${ms(f.serviceLag.max, 1)} ` +
        `(10 ms sampling period included); the bench's own loop delay max ${ms(f.benchLagMaxMs, 1)}`,
      ...(f.mainThread
        ? [
            `         service main thread: on a CPU ${ms(f.mainThread.cpuMs)} ` +
              `(${((f.mainThread.cpuMs / f.windowMs) * 100).toFixed(1)}% of the window), ` +
              `runnable but waiting for a CPU ${ms(f.mainThread.waitMs)}`,
          ]
        : []),
    ];
    const busyP99 = percentile(busy.latencies, 99);
    print(
      `c. GET /healthz latency, sequential requests on one keep-alive connection every ~${PROBE_GAP_MS} ms ` +
        `(busy: from both uploads answered until ${BUSY_INSPECTIONS * INSPECTION_IMAGES} images analysed)`,
    );
    row('idle', idle).forEach((line) => print(line));
    row('busy', busy).forEach((line) => print(line));
    print(
      `   target: p99 under ${HEALTHZ_P99_TARGET_MS} ms while busy: ${busyP99 < HEALTHZ_P99_TARGET_MS ? 'met' : 'MISSED'} ` +
        `(${ms(busyP99, 1)})`,
    );
  } catch (error) {
    log(`service log tail:\n${service.logTail()}`);
    throw error;
  } finally {
    await service.stop();
  }
  print();
  print(`load average (1 min) at start ${loadAtStart.toFixed(2)}, at end ${os.loadavg()[0]!.toFixed(2)}`);
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  await stopAll();
  fs.rmSync(scratch, { recursive: true, force: true });
}
