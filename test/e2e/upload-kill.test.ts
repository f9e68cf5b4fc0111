// An upload cut off by a killed server leaves nothing behind once the server is started again
// (docs/api.md#accepted-uploads).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MB, photo, syntheticStream } from '../helpers/media.js';
import { demoKey, startServer, type RunningServer } from '../helpers/process.js';
import { uploadClient } from '../helpers/upload-client.js';

const filesUnder = (dir: string): string[] =>
  fs.existsSync(dir)
    ? (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) =>
        fs.statSync(path.join(dir, f)).isFile(),
      )
    : [];

describe('an upload cut off by killing the server', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'walkaround-kill-'));
  const env = { DATA_DIR: dataDir };
  let server: RunningServer | undefined;
  /** The demo client's key, printed by the first start only. */
  let key: string;
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('leaves no partial file and no row after a restart', async () => {
    server = await startServer(env);
    key = demoKey(server.output())!;
    const api = uploadClient(server.url);
    const c = await api.credentials(key);

    const staging = path.join(dataDir, 'media', '.staging');
    const request = await uploadHalfway(server.url, c, staging);
    expect(filesUnder(staging).length).toBe(1); // the partial file exists while the upload runs
    await server.kill();
    request.destroy();

    server = await startServer(env);
    expect(filesUnder(path.join(dataDir, 'media'))).toEqual([]);
    const read = await fetch(`${server.url}/api/inspections/${c.session}`, { headers: { 'x-api-key': key } });
    expect(read.status).toBe(404);
  });

  it('cleans up at once when the client goes away half-way; the session stays usable', async () => {
    if (!server) throw new Error('runs after the test above');
    const api = uploadClient(server.url);
    const c = await api.credentials(key);
    const staging = path.join(dataDir, 'media', '.staging');
    const request = await uploadHalfway(server.url, c, staging);
    request.destroy();
    for (let i = 0; i < 50 && filesUnder(staging).length > 0; i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(filesUnder(staging)).toEqual([]);
    const retry = await api.files(
      c.refresh_token,
      { type: 'file', session: c.session, case_id: 'again', callback_url: 'https://hooks.example.com/x' },
      [{ name: 'a.jpg', content: photo('home.jpg') }],
    );
    expect(retry.status).toBe(200);
  });
});

/** Starts a 60 MB video upload and returns once the server has staged part of it (about 20 MB). */
async function uploadHalfway(url: string, c: { session: string; refresh_token: string }, staging: string) {
  const boundary = 'walkaroundkilltest';
  const head =
    [
      ['type', 'file'],
      ['session', c.session],
      ['case_id', 'kill-1'],
      ['callback_url', 'https://hooks.example.com/x'],
    ]
      .map(
        ([name, value]) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      )
      .join('') +
    `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="big.mp4"\r\n` +
    'Content-Type: video/mp4\r\n\r\n';
  const request = http.request(`${url}/api/upload`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${c.refresh_token}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
  });
  request.on('error', () => undefined); // the connection dies under it
  request.write(head);
  let sent = 0;
  for await (const chunk of syntheticStream('mp4', 60 * MB)) {
    if (!request.write(chunk)) await new Promise((resolve) => request.once('drain', resolve));
    sent += (chunk as Buffer).length;
    if (sent >= 20 * MB && filesUnder(staging).length > 0) break;
  }
  return request;
}
