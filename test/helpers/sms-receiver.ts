// An SMS provider for tests: one loopback HTTP server speaking both shapes the service sends. Twilio's
// (`POST /2010-04-01/Accounts/{sid}/Messages.json`, form-encoded, basic auth; answers `{sid}`) and the
// generic JSON one (any other path, `{to, from, body}`; answers `{id}`). It records every request,
// including the ones it was told to fail with 500.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedSms {
  shape: 'twilio' | 'json';
  path: string;
  to: string;
  from: string | undefined;
  body: string;
  /** The Authorization header as sent. */
  authorization: string | undefined;
  /** The status it answered. */
  status: number;
  /** The id it answered with, for 2xx. */
  id: string | undefined;
}

export interface SmsReceiver {
  port: number;
  /** Every request, answered or failed. */
  requests: ReceivedSms[];
  /** The requests answered 2xx: the SMS "sent". */
  delivered(): ReceivedSms[];
  /** Answers the next `count` requests with `status` (500 unless told). */
  failNext(count: number, status?: number): void;
  /** Resolves once `count` SMS have been delivered. */
  waitFor(count: number, ms?: number): Promise<ReceivedSms[]>;
  close(): Promise<void>;
}

const TWILIO_PATH = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/;

export async function startSmsReceiver(): Promise<SmsReceiver> {
  const requests: ReceivedSms[] = [];
  const failures: number[] = [];
  let sent = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '/';
      const twilio = TWILIO_PATH.test(path);
      const message = twilio ? fromForm(text) : fromJson(text);
      const status = failures.shift() ?? (message ? (twilio ? 201 : 200) : 400);
      const id = status < 300 ? `${twilio ? 'SM' : 'sms-'}${++sent}` : undefined;
      requests.push({
        shape: twilio ? 'twilio' : 'json',
        path,
        to: message?.to ?? '',
        from: message?.from,
        body: message?.body ?? '',
        authorization: req.headers.authorization,
        status,
        id,
      });
      res.writeHead(status, { 'content-type': 'application/json' });
      if (status >= 300) res.end(JSON.stringify({ message: 'The test receiver is failing on purpose' }));
      else res.end(JSON.stringify(twilio ? { sid: id, status: 'queued' } : { id }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const delivered = () => requests.filter((r) => r.status < 300);
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    delivered,
    failNext(count, status = 500) {
      for (let i = 0; i < count; i++) failures.push(status);
    },
    async waitFor(count, ms = 30_000) {
      const deadline = Date.now() + ms;
      while (delivered().length < count) {
        if (Date.now() > deadline) throw new Error(`delivered ${delivered().length} of ${count} SMS`);
        await new Promise((r) => setTimeout(r, 25));
      }
      return delivered();
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

interface Sms {
  to: string;
  from: string | undefined;
  body: string;
}

function fromForm(text: string): Sms | undefined {
  const form = new URLSearchParams(text);
  const to = form.get('To');
  const body = form.get('Body');
  return to && body ? { to, from: form.get('From') ?? undefined, body } : undefined;
}

function fromJson(text: string): Sms | undefined {
  try {
    const json = JSON.parse(text) as Partial<Record<'to' | 'from' | 'body', unknown>>;
    if (typeof json.to !== 'string' || typeof json.body !== 'string') return undefined;
    return { to: json.to, from: typeof json.from === 'string' ? json.from : undefined, body: json.body };
  } catch {
    return undefined;
  }
}
