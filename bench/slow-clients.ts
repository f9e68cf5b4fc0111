// A normal upload's latency while 1,500 clients hold connections open by sending their bodies one byte
// a second (without credentials, to POST /api/authenticate), beside the same uploads with no such
// clients; and when the service cuts the slow ones (BODY_TIMEOUT, default 30 s).
//
//   npm run bench:slow-clients        (BENCH_SLOW_CLIENTS=1500, BENCH_UPLOADS=20)
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startBenchProcess, stopAll } from './lib/process.js';
import { uploadFiles, type UploadFile } from './lib/upload-client.js';

const SLOW_CLIENTS = Number(process.env.BENCH_SLOW_CLIENTS ?? 1500);
const UPLOADS = Number(process.env.BENCH_UPLOADS ?? 20);
const PHOTOS = ['home.jpg', 'exif.jpg', 'scenetext01.jpg'].map((name): UploadFile => ({
  name,
  content: new Blob([fs.readFileSync(path.join('test/fixtures/photos', name))], { type: 'image/jpeg' }),
}));

interface SlowClient {
  openedAt: number;
  closedAt?: number;
  answer: string;
}

/** Opens a connection that sends the headers of a 100,000-byte body, then one byte a second. */
function slowClient(port: number): Promise<SlowClient> {
  return new Promise((resolve, reject) => {
    const client: SlowClient = { openedAt: 0, answer: '' };
    let drip: NodeJS.Timeout | undefined;
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(
        'POST /api/authenticate HTTP/1.1\r\nhost: bench\r\ncontent-type: application/json\r\n' +
          'content-length: 100000\r\n\r\n{',
      );
      client.openedAt = Date.now();
      drip = setInterval(() => socket.write(' '), 1000);
      resolve(client);
    });
    socket.on('data', (data) => (client.answer += data.toString('latin1')));
    socket.on('error', (error) => (client.openedAt === 0 ? reject(error) : undefined));
    socket.on('close', () => {
      clearInterval(drip);
      client.closedAt = Date.now();
    });
  });
}

async function timedUploads(url: string, key: string): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < UPLOADS; i++) {
    const started = Date.now();
    const fields = { case_id: `bench-${i}`, callback_url: 'https://hooks.example.com/bench' };
    const { answeredAt } = await uploadFiles(url, key, fields, PHOTOS);
    times.push(answeredAt - started);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return times;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
const summary = (values: number[]) =>
  `p50 ${percentile(values, 50)} ms, p95 ${percentile(values, 95)} ms, max ${Math.max(...values)} ms`;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'walkaround-bench-'));
try {
  const service = await startBenchProcess(
    ['dist/src/main.js', 'serve'],
    { DATA_DIR: dataDir },
    path.join(dataDir, 'service.log'),
  );
  const key = /API key:\s+(wk_live_\S+)/.exec(service.output())?.[1];
  if (!key) throw new Error('no demo key printed');
  const port = Number(new URL(service.url).port);

  const quiet = await timedUploads(service.url, key);
  console.log(`upload of 3 photos, no slow clients:         ${summary(quiet)}`);

  // Opened a hundred at a time: a thousand connects at once overflow the listen backlog.
  const clients: SlowClient[] = [];
  while (clients.length < SLOW_CLIENTS) {
    const batch = Math.min(100, SLOW_CLIENTS - clients.length);
    clients.push(...(await Promise.all(Array.from({ length: batch }, () => slowClient(port)))));
  }
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const stillOpen = () => clients.filter((c) => c.closedAt === undefined).length;
  console.log(`slow clients holding a connection:          ${stillOpen()} of ${SLOW_CLIENTS}`);
  const held = await timedUploads(service.url, key);
  console.log(
    `upload of 3 photos, ${SLOW_CLIENTS} slow clients held: ${summary(held)} (${stillOpen()} still open after)`,
  );

  const deadline = Date.now() + 120_000;
  while (stillOpen() > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 500));
  const cutAfter = clients.filter((c) => c.closedAt !== undefined).map((c) => c.closedAt! - c.openedAt);
  const answered408 = clients.filter((c) => c.answer.startsWith('HTTP/1.1 408')).length;
  console.log(
    `slow clients cut: ${cutAfter.length} of ${SLOW_CLIENTS} (${answered408} answered 408), after ` +
      `min ${Math.min(...cutAfter)} ms, ${summary(cutAfter)}`,
  );
} finally {
  await stopAll();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
