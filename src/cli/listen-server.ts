// The local receiver behind `walkaround webhooks listen`: an HTTP server on loopback (127.0.0.1, and ::1
// where the machine has it, so `localhost` reaches it whichever address it resolves to first) that reads
// each POST's raw body, has it judged, and answers: 204 for a verified delivery, 400 otherwise, as a
// receiver should (docs/webhooks.md#verifying-the-signature).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Inline events are at most 1 MB (docs/webhooks.md#large-results); anything larger is not ours. */
const MAX_BODY_BYTES = 2 * 1024 * 1024;

export interface Delivery {
  body: string;
  headers: Record<string, string>;
}

export interface LocalReceiver {
  port: number;
  close(): Promise<void>;
}

/** Starts the receiver; `judge` says whether a delivery is accepted (it does its own printing). */
export async function startLocalReceiver(
  port: number,
  judge: (delivery: Delivery) => Promise<boolean>,
): Promise<LocalReceiver> {
  const handler: http.RequestListener = (req, res) => {
    if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > MAX_BODY_BYTES) return void res.writeHead(413).end();
      const headers = Object.fromEntries(
        Object.entries(req.headers).map(([name, value]) => [name, String(value)]),
      );
      judge({ body: Buffer.concat(chunks).toString('utf8'), headers }).then(
        (ok) => res.writeHead(ok ? 204 : 400).end(),
        () => res.writeHead(500).end(),
      );
    });
  };
  const v4 = http.createServer(handler);
  await listen(v4, port, '127.0.0.1');
  const bound = (v4.address() as AddressInfo).port;
  const v6 = http.createServer(handler);
  // Best effort: a machine without IPv6 loopback still has 127.0.0.1, where `localhost` then points.
  const both = await listen(v6, bound, '::1').then(
    () => [v4, v6],
    () => [v4],
  );
  return {
    port: bound,
    close: async () => {
      await Promise.all(
        both.map(
          (server) =>
            new Promise<void>((resolve) => {
              server.close(() => resolve());
              server.closeAllConnections();
            }),
        ),
      );
    },
  };
}

function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
