// A local HTTP server that media URLs point at. Routes:
//   /photo/<name>               a fixture photo
//   /synthetic/<kind>/<bytes>/<file name>   a synthetic body (see media.ts)
//   /auth/<token>/photo/<name>  the photo, only with `Authorization: <token>`
//   /redirect?to=<url>          302 to `to`
//   /missing                    404
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { photo, syntheticStream, type SyntheticKind } from './media.js';

export interface MediaServer {
  /** Base URL, with the host name `media.test` (resolved to 127.0.0.1 by the test guard). */
  url: string;
  requests: string[];
  close(): Promise<void>;
}

export async function startMediaServer(): Promise<MediaServer> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    requests.push(url.pathname);
    const parts = url.pathname.split('/').filter(Boolean);
    const send = (status: number, body: Buffer | string, type = 'application/octet-stream') => {
      res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
      res.end(body);
    };
    if (parts[0] === 'photo' && parts[1]) return send(200, photo(parts[1]), 'image/jpeg');
    if (parts[0] === 'auth') {
      if (req.headers.authorization !== decodeURIComponent(parts[1] ?? '')) return send(401, 'no');
      return send(200, photo(parts[3] ?? ''), 'image/jpeg');
    }
    if (parts[0] === 'synthetic') {
      const bytes = Number(parts[2]);
      res.writeHead(200, { 'content-length': bytes });
      syntheticStream(parts[1] as SyntheticKind, bytes).pipe(res);
      return;
    }
    if (parts[0] === 'redirect') {
      res.writeHead(302, { location: url.searchParams.get('to') ?? '/' });
      return res.end();
    }
    send(404, 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://media.test:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
