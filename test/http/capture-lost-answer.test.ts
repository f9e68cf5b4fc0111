// tus-js-client, the uploader the capture app uses, against a network that loses the answer to the last
// PATCH (the bytes arrive; the 204 never does): on its retry it asks HEAD, hears that the upload is
// complete, and succeeds without sending a byte twice (docs/api.md#resumable-uploads).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as tus from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPersona } from '../../src/services/personas/manage.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { photo } from '../helpers/media.js';

/** A proxy to `target` that forwards everything, but drops the answer to the PATCH that ends an upload. */
async function losingProxy(target: string) {
  const sent = { patchBytes: 0, dropped: 0 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (req.method === 'PATCH') sent.patchBytes += body.length;
      const upstream = http.request(
        `${target}${req.url}`,
        { method: req.method, headers: req.headers },
        (answer) => {
          const last =
            req.method === 'PATCH' &&
            answer.statusCode === 204 &&
            answer.headers['upload-offset'] !== undefined;
          const ends =
            last && Number(answer.headers['upload-offset']) === Number(req.headers['x-test-length']);
          answer.resume();
          if (ends && sent.dropped === 0) {
            sent.dropped++;
            req.socket.destroy(); // the bytes arrived; the answer is lost on the way back
            return;
          }
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, sent, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('a capture upload whose last answer is lost', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp('sqlite');
    await t.listen();
    const client = await t.newClient();
    const steps = [
      { id: 'front', label: 'Front', instructions: 'The front.', required: true, overlay: 'front' },
    ];
    const persona = await createPersona(t.deps, { clientId: client.id, kind: 'photo', steps });
    const res = await t.app.inject({
      method: 'POST',
      url: '/superappToken',
      payload: { apiKey: client.apiKey, personaId: persona.id },
    });
    token = res.json<{ token: string }>().token;
  });
  afterAll(async () => t?.close());

  it('resumes with tus-js-client: HEAD says complete, and no byte is sent twice', async () => {
    const address = t.app.server.address() as AddressInfo;
    const proxy = await losingProxy(`http://127.0.0.1:${address.port}`);
    const image = photo('scenetext01.jpg');
    try {
      await new Promise<void>((resolve, reject) => {
        const upload = new tus.Upload(image, {
          endpoint: `${proxy.url}/app/api/uploads`,
          headers: { authorization: `Bearer ${token}`, 'x-test-length': String(image.length) },
          metadata: { step: 'front' },
          uploadSize: image.length,
          retryDelays: [0, 200, 500],
          onError: reject,
          onSuccess: () => resolve(),
        });
        upload.start();
      });
      expect(proxy.sent.dropped).toBe(1);
      expect(proxy.sent.patchBytes).toBe(image.length);
      const media = await t.deps.db.selectFrom('link_media').select(['step_id', 'bytes']).execute();
      expect(media).toEqual([{ step_id: 'front', bytes: image.length }]);
    } finally {
      await proxy.close();
    }
  });
});
