// A minimal tus 1.0 client for the capture API tests: each request is spelled out, so a test can cut an
// upload off half-way and show what the resume sends.
import http from 'node:http';

const TUS = { 'tus-resumable': '1.0.0' };

export interface CaptureClient {
  /** Declares an upload for a step; returns the response (Location on success). */
  create(step: string, length: number, extra?: Record<string, string>): Promise<Response>;
  /** The server's offset of an upload. */
  offset(location: string): Promise<number>;
  /** Sends bytes from `offset`. */
  patch(location: string, offset: number, bytes: Buffer): Promise<Response>;
  /** Creates and sends a whole file in one PATCH; returns the final PATCH response and the location. */
  upload(
    step: string,
    bytes: Buffer,
    extra?: Record<string, string>,
  ): Promise<{ location: string; response: Response }>;
  /**
   * Sends `bytes` (declared as the rest of the upload: `total - offset`) and then drops the
   * connection, as a phone losing its network does; `arrived` tells when the server has them all.
   */
  cutOff(
    location: string,
    offset: number,
    total: number,
    bytes: Buffer,
    arrived: () => boolean,
  ): Promise<void>;
}

const encode = (metadata: Record<string, string>) =>
  Object.entries(metadata)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
    .join(',');

export function captureClient(baseUrl: string, token: string): CaptureClient {
  const auth = { authorization: `Bearer ${token}` };
  const uploads = `${baseUrl}/app/api/uploads`;
  const absolute = (location: string) => new URL(location, uploads).toString();
  const client: CaptureClient = {
    create: (step, length, extra = {}) =>
      fetch(uploads, {
        method: 'POST',
        headers: {
          ...TUS,
          ...auth,
          'upload-length': String(length),
          'upload-metadata': encode({ step, filename: `${step}.jpg`, ...extra }),
        },
      }),
    async offset(location) {
      const response = await fetch(absolute(location), { method: 'HEAD', headers: { ...TUS, ...auth } });
      if (response.status !== 200) throw new Error(`HEAD answered ${response.status}`);
      return Number(response.headers.get('upload-offset'));
    },
    patch: (location, offset, bytes) =>
      fetch(absolute(location), {
        method: 'PATCH',
        headers: {
          ...TUS,
          ...auth,
          'upload-offset': String(offset),
          'content-type': 'application/offset+octet-stream',
        },
        body: bytes,
      }),
    async upload(step, bytes, extra = {}) {
      const created = await client.create(step, bytes.length, extra);
      if (created.status !== 201)
        throw new Error(`create answered ${created.status}: ${await created.text()}`);
      const location = created.headers.get('location')!;
      return { location, response: await client.patch(location, 0, bytes) };
    },
    cutOff: (location, offset, total, bytes, arrived) =>
      new Promise((resolve, reject) => {
        const request = http.request(absolute(location), {
          method: 'PATCH',
          headers: {
            ...TUS,
            ...auth,
            'upload-offset': String(offset),
            'content-type': 'application/offset+octet-stream',
            'content-length': String(total - offset),
          },
        });
        request.on('error', () => undefined); // the cut is ours
        request.on('response', () => reject(new Error('the server answered before the cut')));
        request.write(bytes);
        // The connection drops once the bytes are on the server's disk, not merely sent.
        const deadline = Date.now() + 15_000;
        const poll = setInterval(() => {
          if (!arrived() && Date.now() < deadline) return;
          clearInterval(poll);
          request.destroy();
          resolve();
        }, 20);
      }),
  };
  return client;
}
