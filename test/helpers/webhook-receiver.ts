// A webhook receiver for tests: records every request, verifies its Standard Webhooks signature with the
// reference implementation, and answers what the test scripts (status codes in order, or a hang).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  id: string;
  type: string;
  body: { type: string; timestamp: string; data: Record<string, unknown> };
  verified: boolean;
  status: number;
  /** The raw body and headers, for verifying again with another secret. */
  raw: { payload: string; headers: Record<string, string> };
}

export interface Receiver {
  port: number;
  received: Received[];
  /** Answers for the next requests, in order (then 200). 'hang' never answers. */
  script: (number | 'hang')[];
  /** Resolves once `count` requests have arrived. */
  waitFor(count: number, ms?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(secret: () => string): Promise<Receiver> {
  const received: Received[] = [];
  const script: (number | 'hang')[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const payload = Buffer.concat(chunks).toString('utf8');
      let verified = true;
      try {
        new Webhook(secret()).verify(payload, req.headers as Record<string, string>);
      } catch {
        verified = false;
      }
      const answer = script.shift() ?? 200;
      const body = JSON.parse(payload) as Received['body'];
      received.push({
        id: String(req.headers['webhook-id']),
        type: body.type,
        body,
        verified,
        status: answer === 'hang' ? 0 : answer,
        raw: { payload, headers: req.headers as Record<string, string> },
      });
      if (answer === 'hang') return;
      res.writeHead(answer, { 'content-type': 'text/plain' });
      res.end(answer === 200 ? 'thanks' : 'not now');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    received,
    script,
    async waitFor(count, ms = 60_000) {
      const deadline = Date.now() + ms;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`received ${received.length} of ${count} webhooks`);
        await new Promise((r) => setTimeout(r, 25));
      }
      return received;
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
