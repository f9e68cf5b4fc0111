// A body that trickles in is cut: each BODY_TIMEOUT window must bring 16 KiB of it or its end; a slow but
// steady client is not (docs/security.md#request-bodies-and-uploads). Through a real listening server and raw sockets.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { captureLogs } from '../helpers/log-capture.js';
import { photo } from '../helpers/media.js';

const WINDOW_MS = 1000;

interface Exchange {
  /** Milliseconds from the end of the headers to the server closing the connection. */
  closedAfterMs: number;
  response: string;
}

/** Sends `head`, then the body in `chunks` one every `everyMs`, until the server closes the connection. */
function trickle(port: number, head: string, chunks: Buffer[], everyMs: number): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let response = '';
    let started = 0;
    let timer: NodeJS.Timeout | undefined;
    socket.on('data', (data) => (response += data.toString('latin1')));
    socket.on('error', () => undefined); // a reset after the 408 is the expected end
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ closedAfterMs: Date.now() - started, response });
    });
    socket.on('connect', () => {
      socket.write(head);
      started = Date.now();
      let next = 0;
      timer = setInterval(() => {
        if (next < chunks.length) socket.write(chunks[next++]!);
        else if (Date.now() - started > 20 * WINDOW_MS) socket.destroy(new Error('never closed'));
      }, everyMs);
    });
    socket.setTimeout(30_000, () => reject(new Error('no answer')));
  });
}

function bytesOf(buffer: Buffer, size: number): Buffer[] {
  const chunks: Buffer[] = [];
  for (let at = 0; at < buffer.length; at += size) chunks.push(buffer.subarray(at, at + size));
  return chunks;
}

describe('slow request bodies', () => {
  let t: TestApp;
  const logs = captureLogs();
  let port: number;
  let apiKey: string;

  beforeAll(async () => {
    t = await startTestApp(
      'sqlite',
      { LOG_LEVEL: 'info', BODY_TIMEOUT: `${WINDOW_MS}ms` },
      { logDestination: logs.destination },
    );
    port = Number(new URL(await t.listen()).port);
    ({ apiKey } = await t.newClient({ webhookUrl: 'https://hooks.example.com/walkaround' }));
  });
  afterAll(async () => t?.close());

  it('a body sent one byte at a time, without credentials, is answered 408 and closed within the window', async () => {
    const head =
      'POST /api/authenticate HTTP/1.1\r\nhost: walkaround.test\r\ncontent-type: application/json\r\n' +
      'content-length: 100000\r\n\r\n';
    const { closedAfterMs, response } = await trickle(
      port,
      head,
      bytesOf(Buffer.alloc(100_000, 0x20), 1),
      100,
    );
    expect(response).toMatch(/^HTTP\/1\.1 408 /);
    expect(response).toContain('"message":"Request body timeout"');
    expect(closedAfterMs).toBeGreaterThanOrEqual(WINDOW_MS - 50);
    expect(closedAfterMs).toBeLessThan(2 * WINDOW_MS + 500);
    expect(logs.errorsSince(0)).toEqual([]);
  });

  it('a slow multipart upload is cut the same way and keeps nothing of it', async () => {
    const auth = await t.app.inject({ method: 'POST', url: '/api/authenticate', payload: { key: apiKey } });
    const { session, refresh_token } = auth.json<{ session: string; refresh_token: string }>();
    const boundary = 'slow-boundary';
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="type"\r\n\r\nfile\r\n` +
          `--${boundary}\r\ncontent-disposition: form-data; name="session"\r\n\r\n${session}\r\n` +
          `--${boundary}\r\ncontent-disposition: form-data; name="case_id"\r\n\r\ncase-1\r\n` +
          `--${boundary}\r\ncontent-disposition: form-data; name="files"; filename="home.jpg"\r\n\r\n`,
      ),
      photo('home.jpg'),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const head =
      `POST /api/upload HTTP/1.1\r\nhost: walkaround.test\r\nauthorization: Bearer ${refresh_token}\r\n` +
      `content-type: multipart/form-data; boundary=${boundary}\r\ncontent-length: ${body.length}\r\n\r\n`;
    // The fields and a first bit of the photo at once, then a byte at a time.
    const chunks = [body.subarray(0, 4096), ...bytesOf(body.subarray(4096, 4196), 1)];
    const { response } = await trickle(port, head, chunks, 100);
    expect(response).toMatch(/^HTTP\/1\.1 408 /);
    const inspections = await t.deps.db
      .selectFrom('inspections')
      .select('id')
      .where('id', '=', session)
      .execute();
    expect(inspections).toEqual([]);
    expect(logs.errorsSince(0)).toEqual([]);
  });

  it('a slow but steady upload (32 KiB a second) is not cut', async () => {
    const auth = await t.app.inject({ method: 'POST', url: '/api/authenticate', payload: { key: apiKey } });
    const { session, refresh_token } = auth.json<{ session: string; refresh_token: string }>();
    const boundary = 'steady-boundary';
    const image = photo('scenetext01.jpg');
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="type"\r\n\r\nfile\r\n` +
          `--${boundary}\r\ncontent-disposition: form-data; name="session"\r\n\r\n${session}\r\n` +
          `--${boundary}\r\ncontent-disposition: form-data; name="case_id"\r\n\r\ncase-1\r\n` +
          `--${boundary}\r\ncontent-disposition: form-data; name="files"; filename="scenetext01.jpg"\r\n\r\n`,
      ),
      image,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const head =
      `POST /api/upload HTTP/1.1\r\nhost: walkaround.test\r\nauthorization: Bearer ${refresh_token}\r\n` +
      `content-type: multipart/form-data; boundary=${boundary}\r\ncontent-length: ${body.length}\r\n` +
      'connection: close\r\n\r\n';
    const slices = bytesOf(body, 8 * 1024);
    expect(slices.length * 250).toBeGreaterThan(2 * WINDOW_MS); // it takes several windows
    const { response } = await trickle(port, head, slices, 250);
    expect(response).toMatch(/^HTTP\/1\.1 200 /);
    expect(response).toContain('"status":"success"');
  });
});
