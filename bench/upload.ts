// Upload ingest of the built service over HTTP, in one run:
//   1. multipart ingest in MB/s (ten 5 MB images in one request; one 90 MB video), beside a bare Node
//      `http` server that pipes the same request bodies to a file and fsyncs it (bench/bare-ingest.ts),
//      with the same client and the same bytes. Target: at least 75% of the baseline's MB/s.
//   2. URL ingest: 99 images of 700 KB from a local media server, from request sent to 200 received.
//   3. Peak RSS growth of the service process during the 90 MB video upload. Target: under 40 MB.
// Every figure is the median of BENCH_RUNS runs (default 5) after one warm-up. Missed targets are
// reported, not failed; the exit status is non-zero only on errors.
//
//   npm run bench:upload            (BENCH_RUNS=9 for more runs; BENCH_CPU_PROF=<dir> profiles both servers)
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pipeline } from 'node:stream/promises';
import { MB, photo, syntheticStream, type SyntheticKind } from '../test/helpers/media.js';
import { cpuTicks, runningProcesses, startBenchProcess, type BenchProcess } from './lib/process.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const CPU_PROF = process.env.BENCH_CPU_PROF;
const KB = 1024;
const IMAGE_COUNT = 10;
const IMAGE_BYTES = 5 * MB;
const VIDEO_BYTES = 90 * MB;
const URL_IMAGE_COUNT = 99;
const URL_IMAGE_BYTES = 700 * KB;
const CALLBACK_URL = 'https://hooks.example.com/walkaround-bench';
/** Where each run writes its tag into a media body: past the sniffed head, inside the filler. */
const TAG_OFFSET = 8192;
const SAMPLE_EVERY_MS = 20;
/** An upload that has not been answered by then is an error, not a figure. */
const UPLOAD_TIMEOUT_MS = 120_000;

// ---------------------------------------------------------------------------------------------------
// Child processes

const QUIET_WINDOW_MS = 500;
const QUIET_MAX_TICKS = 2;
let quietWaitMs = 0;

/**
 * Waits until the service has been idle for a moment: `serve` runs the analysis worker in-process, and
 * it analyses each accepted upload right after it is answered. A timed upload must not share the CPU
 * with the analysis of the previous one, so every timed upload (and its baseline) starts from quiet,
 * and with no dirty pages of earlier writes (bodies, media, database) waiting to be flushed by its fsyncs.
 */
async function settle(pid: number): Promise<void> {
  const started = performance.now();
  for (;;) {
    const before = cpuTicks(pid);
    await new Promise((resolve) => setTimeout(resolve, QUIET_WINDOW_MS));
    if (cpuTicks(pid) - before <= QUIET_MAX_TICKS) break;
    if (performance.now() - started > 300_000)
      throw new Error('the service did not become idle within 300 s');
  }
  quietWaitMs += performance.now() - started - QUIET_WINDOW_MS;
  const sync = spawnSync('sync');
  if (sync.status !== 0) throw new Error(`sync failed: ${sync.stderr?.toString() ?? sync.error?.message}`);
}

// ---------------------------------------------------------------------------------------------------
// Request bodies: a multipart body is a small prefix built per request (the text fields, which carry
// the single-use session) followed by the file parts, written to disk once and streamed from there.

interface MultipartCase {
  name: string;
  boundary: string;
  /** The file parts and the closing boundary. */
  file: string;
  fileBytes: number;
  /** Offsets in `file` of each part's content, where the run tag is written. */
  contentOffsets: number[];
}

const CRLF = '\r\n';

function fieldsPrefix(boundary: string, fields: Record<string, string>): Buffer {
  return Buffer.from(
    Object.entries(fields)
      .map(
        ([name, value]) =>
          `--${boundary}${CRLF}content-disposition: form-data; name="${name}"${CRLF}${CRLF}${value}${CRLF}`,
      )
      .join(''),
  );
}

async function buildMultipart(
  dir: string,
  name: string,
  parts: { filename: string; type: string; kind: SyntheticKind; bytes: number }[],
): Promise<MultipartCase> {
  const boundary = `----walkaround-bench-${crypto.randomBytes(12).toString('hex')}`;
  const file = path.join(dir, `${name}.multipart`);
  const out = fs.createWriteStream(file);
  const contentOffsets: number[] = [];
  let offset = 0;
  const write = async (data: string | Buffer) => {
    offset += Buffer.byteLength(data);
    if (!out.write(data)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  };
  for (const part of parts) {
    await write(
      `--${boundary}${CRLF}content-disposition: form-data; name="files"; filename="${part.filename}"${CRLF}` +
        `content-type: ${part.type}${CRLF}${CRLF}`,
    );
    contentOffsets.push(offset);
    for await (const chunk of syntheticStream(part.kind, part.bytes)) await write(chunk as Buffer);
    await write(CRLF);
  }
  await write(`--${boundary}--${CRLF}`);
  await new Promise<void>((resolve, reject) =>
    out.end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
  return { name, boundary, file, fileBytes: offset, contentOffsets };
}

/** Makes every part of the body distinct from every other part and from every earlier run's. */
async function tagRun(body: MultipartCase, run: string): Promise<void> {
  const handle = await fs.promises.open(body.file, 'r+');
  try {
    for (const [i, offset] of body.contentOffsets.entries()) {
      await handle.write(
        Buffer.from(`walkaround-bench ${run} part ${i} ${crypto.randomUUID()}`),
        0,
        undefined,
        offset + TAG_OFFSET,
      );
    }
  } finally {
    await handle.close();
  }
}

// ---------------------------------------------------------------------------------------------------
// The client: one fresh connection per upload, the body streamed from disk.

interface Answer {
  status: number;
  body: string;
  ms: number;
  /** From the last byte handed to the socket to the answer: the server's work after the body. */
  tailMs: number;
}

function postMultipart(
  url: string,
  token: string | undefined,
  prefix: Buffer,
  body: MultipartCase,
): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    const started = performance.now();
    let sent = NaN;
    const req = http.request(url, {
      method: 'POST',
      agent: false,
      headers: {
        'content-type': `multipart/form-data; boundary=${body.boundary}`,
        'content-length': prefix.length + body.fileBytes,
        ...(token && { authorization: `Bearer ${token}` }),
      },
    });
    req.setTimeout(UPLOAD_TIMEOUT_MS, () =>
      req.destroy(new Error(`no answer from ${url} within ${UPLOAD_TIMEOUT_MS / 1000} s`)),
    );
    req.once('error', reject);
    req.once('finish', () => (sent = performance.now()));
    req.once('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.once('error', reject);
      res.once('end', () => {
        const now = performance.now();
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString(),
          ms: now - started,
          tailMs: now - sent,
        });
      });
    });
    req.write(prefix);
    // An early answer (an error) may close the connection before the whole body is sent; the answer,
    // not the broken pipe, is what counts, so a failed send only rejects when no answer comes.
    pipeline(fs.createReadStream(body.file), req).catch((error: unknown) =>
      setTimeout(() => reject(error instanceof Error ? error : new Error(String(error))), 1000),
    );
  });
}

interface Credentials {
  session: string;
  refresh_token: string;
}

async function credentials(baseUrl: string, key: string): Promise<Credentials> {
  const res = await fetch(`${baseUrl}/api/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key }),
  });
  if (!res.ok) throw new Error(`authenticate: ${res.status} ${await res.text()}`);
  return (await res.json()) as Credentials;
}

function expectSuccess(what: string, answer: Answer): Answer {
  let status: unknown;
  try {
    status = (JSON.parse(answer.body) as { status?: unknown }).status;
  } catch {
    status = undefined;
  }
  if (answer.status !== 200 || status !== 'success')
    throw new Error(`${what}: HTTP ${answer.status} ${answer.body.slice(0, 500)}`);
  return answer;
}

// ---------------------------------------------------------------------------------------------------
// RSS of a process, from /proc/<pid>/status.

function memoryOf(pid: number): { rss: number; hwm: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * KB;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

/** Resets the kernel's peak-RSS mark (VmHWM) to the current RSS; false where that is not allowed. */
function resetPeak(pid: number): boolean {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

interface RssGrowth {
  baseline: number;
  peak: number;
  /** Peak from the kernel's own high-water mark, when it could be reset before the upload. */
  kernelPeak: number | undefined;
  samples: number;
  maxGapMs: number;
}

/** Runs `work` while sampling the RSS of `pid`; the baseline is the RSS just before `work` starts. */
async function withRssSampling<T>(
  pid: number,
  work: () => Promise<T>,
): Promise<{ result: T; rss: RssGrowth }> {
  const baseline = memoryOf(pid).rss;
  const peakReset = resetPeak(pid);
  let peak = baseline;
  let samples = 0;
  let last = performance.now();
  let maxGapMs = 0;
  const sample = () => {
    const now = performance.now();
    maxGapMs = Math.max(maxGapMs, now - last);
    last = now;
    peak = Math.max(peak, memoryOf(pid).rss);
    samples++;
  };
  const timer = setInterval(sample, SAMPLE_EVERY_MS);
  try {
    const result = await work();
    sample();
    const kernelPeak = peakReset ? memoryOf(pid).hwm : undefined;
    return { result, rss: { baseline, peak, kernelPeak, samples, maxGapMs } };
  } finally {
    clearInterval(timer);
  }
}

// ---------------------------------------------------------------------------------------------------
// The media server of the URL uploads: distinct 700 KB synthetic JPEGs, /img/<run>/<index>.jpg.

async function startMediaServer(): Promise<{ url: string; requests: () => number; close(): Promise<void> }> {
  const template = Buffer.alloc(URL_IMAGE_BYTES);
  photo('home.jpg').copy(template, 0, 0, 4096);
  let requests = 0;
  const server = http.createServer((req, res) => {
    requests++;
    const match = /^\/img\/([\w-]+)\/(\d+)\.jpg$/.exec(req.url ?? '');
    if (!match) {
      res.writeHead(404).end();
      return;
    }
    const body = Buffer.from(template);
    body.write(`walkaround-bench ${match[1]} image ${match[2]}`, TAG_OFFSET);
    res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': body.length });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => requests,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

// ---------------------------------------------------------------------------------------------------
// Figures

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const mbps = (bytes: number, ms: number) => bytes / MB / (ms / 1000);
const mb = (bytes: number) => (bytes / MB).toFixed(1);

interface MultipartResult {
  body: MultipartCase;
  bytes: number;
  ours: Answer[];
  bare: Answer[];
  rss: RssGrowth[];
  bareRss: RssGrowth[];
  /** The service's RSS growth during the warm-up upload: the first upload of this case in the process. */
  firstRss: RssGrowth | undefined;
  bareFirstRss: RssGrowth | undefined;
}

async function measureMultipart(
  service: BenchProcess,
  bare: BenchProcess,
  key: string,
  body: MultipartCase,
  sampleRss: boolean,
): Promise<MultipartResult> {
  const result: MultipartResult = {
    body,
    bytes: 0,
    ours: [],
    bare: [],
    rss: [],
    bareRss: [],
    firstRss: undefined,
    bareFirstRss: undefined,
  };
  for (let run = 0; run <= RUNS; run++) {
    const warmUp = run === 0;
    await tagRun(body, `${body.name}-${run}`);
    const { session, refresh_token } = await credentials(service.url, key);
    const prefix = fieldsPrefix(body.boundary, {
      type: 'file',
      session,
      case_id: `bench-${body.name}-${run}`,
      callback_url: CALLBACK_URL,
    });
    result.bytes = prefix.length + body.fileBytes;
    const upload = (server: BenchProcess, token?: string) =>
      postMultipart(`${server.url}/api/upload`, token, prefix, body).then((answer) =>
        expectSuccess(`${body.name} upload to ${server === service ? 'walkaround' : 'bare server'}`, answer),
      );
    // Both servers start from an idle service (see settle) and get the same bytes.
    const ours = async () => {
      await settle(service.pid);
      if (!sampleRss) return upload(service, refresh_token);
      const sampled = await withRssSampling(service.pid, () => upload(service, refresh_token));
      if (warmUp) result.firstRss = sampled.rss;
      else result.rss.push(sampled.rss);
      return sampled.result;
    };
    const baseline = async () => {
      await settle(service.pid);
      if (!sampleRss) return upload(bare);
      const sampled = await withRssSampling(bare.pid, () => upload(bare));
      if (warmUp) result.bareFirstRss = sampled.rss;
      else result.bareRss.push(sampled.rss);
      return sampled.result;
    };
    // Which server goes first alternates from run to run.
    let oursMs: Answer;
    let bareMs: Answer;
    if (run % 2 === 0) {
      oursMs = await ours();
      bareMs = await baseline();
    } else {
      bareMs = await baseline();
      oursMs = await ours();
    }
    if (warmUp) continue;
    result.ours.push(oursMs);
    result.bare.push(bareMs);
  }
  return result;
}

async function measureUrls(service: BenchProcess, key: string, media: { url: string }) {
  const times: number[] = [];
  for (let run = 0; run <= RUNS; run++) {
    const { session, refresh_token } = await credentials(service.url, key);
    const tag = `urls-${run}-${crypto.randomBytes(4).toString('hex')}`;
    const payload = JSON.stringify({
      type: 'urls',
      session,
      case_id: `bench-${tag}`,
      callback_url: CALLBACK_URL,
      urls: Array.from({ length: URL_IMAGE_COUNT }, (_, i) => `${media.url}/img/${tag}/${i}.jpg`),
    });
    await settle(service.pid);
    const started = performance.now();
    const res = await fetch(`${service.url}/api/upload`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${refresh_token}` },
      body: payload,
      signal: AbortSignal.timeout(UPLOAD_TIMEOUT_MS),
    });
    const text = await res.text();
    const ms = performance.now() - started;
    expectSuccess('URL upload', { status: res.status, body: text, ms, tailMs: NaN });
    if (run > 0) times.push(ms);
  }
  return times;
}

// ---------------------------------------------------------------------------------------------------

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'walkaround-bench-upload-'));
const dataDir = path.join(work, 'data');
const bodiesDir = path.join(work, 'bodies');
fs.mkdirSync(bodiesDir, { recursive: true });
let media: Awaited<ReturnType<typeof startMediaServer>> | undefined;
// Interrupted: stop the servers and remove the bodies before leaving.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void Promise.all([...runningProcesses].map((server) => server.stop())).finally(() => {
      fs.rmSync(work, { recursive: true, force: true });
      process.exit(130);
    });
  });
}

let service: BenchProcess | undefined;
const loadAtStart = os.loadavg()[0]!;
try {
  const images = await buildMultipart(
    bodiesDir,
    'images',
    Array.from({ length: IMAGE_COUNT }, (_, i) => ({
      filename: `photo-${i}.jpg`,
      type: 'image/jpeg',
      kind: 'jpeg' as const,
      bytes: IMAGE_BYTES,
    })),
  );
  const video = await buildMultipart(bodiesDir, 'video', [
    { filename: 'walkaround.mp4', type: 'video/mp4', kind: 'mp4', bytes: VIDEO_BYTES },
  ]);

  // Profiles are written when a server exits: <dir>/service (one file per thread) and <dir>/bare.
  const profile = (name: string) =>
    CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(CPU_PROF, name)] : [];
  const serviceArgs = [...profile('service'), 'dist/src/main.js', 'serve'];
  service = await startBenchProcess(
    serviceArgs,
    { DATA_DIR: dataDir, ALLOW_PRIVATE_NETWORKS: 'true' },
    path.join(work, 'service.log'),
  );
  const key = /API key:\s+(wk_live_\S+)/.exec(service.output())?.[1];
  if (!key) throw new Error('no demo key printed');
  const bare = await startBenchProcess(
    [...profile('bare'), '--import', 'tsx', 'bench/bare-ingest.ts'],
    {},
    path.join(work, 'bare.log'),
  );
  media = await startMediaServer();

  // The video first: its warm-up is the first upload of the process, before any analysis has run, so
  // its RSS growth is not hidden by memory the process already holds.
  const videoResult = await measureMultipart(service, bare, key, video, true);
  const imageResult = await measureMultipart(service, bare, key, images, false);
  const urlTimes = await measureUrls(service, key, media);

  await bare.stop();
  await service.stop();

  // ---- report
  const lines: string[] = [];
  const out = (line = '') => lines.push(line);
  out(
    `POST /api/upload ingest, node ${process.version}, ${os.cpus().length} cores ` +
      `(load average ${loadAtStart.toFixed(1)} at the start, ${os.loadavg()[0]!.toFixed(1)} at the end), ` +
      `median of ${RUNS} runs after 1 warm-up, 1 MB = 1,048,576 bytes`,
  );
  out(
    `(each timed upload starts once the service is idle: its in-process analysis worker took ` +
      `${(quietWaitMs / 1000).toFixed(0)} s in all between uploads)`,
  );
  out();
  const ratios: [string, number][] = [];
  for (const [label, r] of [
    [`multipart, ${IMAGE_COUNT} images x ${IMAGE_BYTES / MB} MB`, imageResult],
    [`multipart, 1 video x ${VIDEO_BYTES / MB} MB`, videoResult],
  ] as const) {
    const ours = median(r.ours.map((a) => a.ms));
    const bareMs = median(r.bare.map((a) => a.ms));
    const ratio = bareMs / ours; // of MB/s: the same bytes
    ratios.push([label, ratio]);
    // Each run's two uploads were made back to back: the median of their ratios shrugs off slow spells.
    const paired = median(r.ours.map((a, i) => r.bare[i]!.ms / a.ms));
    const runs = (values: Answer[]) => values.map((a) => a.ms.toFixed(0)).join(', ');
    const tail = (values: Answer[]) => median(values.map((a) => a.tailMs)).toFixed(0);
    out(`${label} (request body ${mb(r.bytes)} MB)`);
    out(
      `  walkaround   ${mbps(r.bytes, ours).toFixed(0).padStart(5)} MB/s  ${ours.toFixed(0).padStart(6)} ms` +
        `   runs: ${runs(r.ours)} ms   answered ${tail(r.ours)} ms after the last byte was sent`,
    );
    out(
      `  bare ingest  ${mbps(r.bytes, bareMs).toFixed(0).padStart(5)} MB/s  ${bareMs.toFixed(0).padStart(6)} ms` +
        `   runs: ${runs(r.bare)} ms   answered ${tail(r.bare)} ms after the last byte was sent`,
    );
    out(
      `  ratio        ${(ratio * 100).toFixed(1)}% of the baseline's MB/s ` +
        `(median of the per-run ratios: ${(paired * 100).toFixed(1)}%)`,
    );
  }
  out();
  const urlMs = median(urlTimes);
  const urlBytes = URL_IMAGE_COUNT * URL_IMAGE_BYTES;
  out(
    `URL ingest, ${URL_IMAGE_COUNT} images x ${URL_IMAGE_BYTES / KB} KB (${mb(urlBytes)} MB) ` +
      `from a local media server`,
  );
  out(
    `  request sent to 200 received: ${urlMs.toFixed(0)} ms (${mbps(urlBytes, urlMs).toFixed(0)} MB/s)` +
      `   runs: ${urlTimes.map((ms) => ms.toFixed(0)).join(', ')} ms`,
  );
  out();
  const growthOf = (s: RssGrowth) => Math.max(s.peak, s.kernelPeak ?? 0) - s.baseline;
  const first = videoResult.firstRss!;
  const growth = videoResult.rss.map(growthOf);
  const bareGrowth = videoResult.bareRss.map(growthOf);
  const worst = Math.max(growthOf(first), ...growth);
  const all = [first, ...videoResult.rss];
  out(
    `RSS growth of the service during the ${VIDEO_BYTES / MB} MB video upload ` +
      `(peak minus the RSS just before the upload)`,
  );
  out(
    `  first video upload of the process: ${mb(growthOf(first))} MB; ` +
      `timed runs: median ${mb(median(growth))} MB, max ${mb(Math.max(...growth))} MB ` +
      `(${growth.map(mb).join(', ')} MB)`,
  );
  out(
    `  baselines ${all.map((s) => mb(s.baseline)).join(', ')} MB; sampled every ${SAMPLE_EVERY_MS} ms ` +
      `(largest gap ${Math.max(...all.map((s) => s.maxGapMs)).toFixed(0)} ms)` +
      (first.kernelPeak === undefined
        ? ''
        : ', and the kernel peak VmHWM, reset before each upload (the larger counts)'),
  );
  out(
    `  bare ingest, for comparison: first upload ${mb(growthOf(videoResult.bareFirstRss!))} MB; ` +
      `timed runs: median ${mb(median(bareGrowth))} MB, max ${mb(Math.max(...bareGrowth))} MB`,
  );
  out();
  out('Summary against the targets');
  for (const [label, ratio] of ratios) {
    out(
      `  ${label}: ${(ratio * 100).toFixed(1)}% of the bare baseline's MB/s (target: at least 75%)` +
        ` ${ratio >= 0.75 ? 'met' : 'MISSED'}`,
    );
  }
  out(
    `  RSS growth during the ${VIDEO_BYTES / MB} MB video upload: at most ${mb(worst)} MB ` +
      `(target: under 40 MB) ${worst < 40 * MB ? 'met' : 'MISSED'}`,
  );
  out(
    `  URL ingest of ${URL_IMAGE_COUNT} x ${URL_IMAGE_BYTES / KB} KB: ${(urlMs / 1000).toFixed(2)} s ` +
      `from request to answer (no target)`,
  );
  if (CPU_PROF) out(`  CPU profiles of both servers written to ${path.resolve(CPU_PROF)}`);
  process.stdout.write(lines.join('\n') + '\n');
} catch (error) {
  if (service) process.stderr.write(`last lines of the service's log:\n${service.logTail()}\n`);
  throw error;
} finally {
  await media?.close();
  await Promise.all([...runningProcesses].map((server) => server.stop()));
  fs.rmSync(work, { recursive: true, force: true });
}
