// A mail server for tests: a real SMTP server on loopback that keeps every message it accepts, decoded
// just enough to read (headers, the text and HTML parts), and can refuse the next messages with a
// temporary (4xx) or permanent (5xx) reply.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** Envelope sender and recipients. */
  from: string;
  to: string[];
  /** The credentials the client logged in with, if any. */
  user: string | undefined;
  headers: Record<string, string>;
  subject: string;
  text: string;
  html: string;
  raw: string;
}

export interface SmtpTestServer {
  port: number;
  received: ReceivedMail[];
  /** Messages refused so far (each refused DATA). */
  refused: number;
  /** Refuses the next `count` messages with `code` (451: try again later; 550: never). */
  failNext(count: number, code?: number): void;
  /** Resolves once `count` messages have been accepted. */
  waitFor(count: number, ms?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

export async function startSmtpServer(
  credentials: { user: string; pass: string } | undefined = undefined,
): Promise<SmtpTestServer> {
  const received: ReceivedMail[] = [];
  const failures: number[] = [];
  const state = { refused: 0 };
  const server = new SMTPServer({
    // Plain SMTP on loopback: no STARTTLS (no certificate to trust), login allowed without TLS.
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: credentials === undefined,
    logger: false,
    onAuth(auth, _session, callback) {
      if (credentials && (auth.username !== credentials.user || auth.password !== credentials.pass))
        return callback(Object.assign(new Error('Invalid credentials'), { responseCode: 535 }));
      callback(null, { user: auth.username });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const code = failures.shift();
        if (code !== undefined) {
          state.refused++;
          return callback(Object.assign(new Error(`Refused by the test server`), { responseCode: code }));
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        const mail = parseMessage(raw);
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          user: typeof session.user === 'string' ? session.user : undefined,
          headers: mail.headers,
          subject: decodeWords(mail.headers.subject ?? ''),
          text: mail.text,
          html: mail.html,
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.server.address() as AddressInfo).port,
    received,
    get refused() {
      return state.refused;
    },
    failNext(count, code = 451) {
      for (let i = 0; i < count; i++) failures.push(code);
    },
    async waitFor(count, ms = 30_000) {
      const deadline = Date.now() + ms;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`received ${received.length} of ${count} e-mails`);
        await new Promise((r) => setTimeout(r, 25));
      }
      return received;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

interface Part {
  headers: Record<string, string>;
  text: string;
  html: string;
}

/** A minimal MIME reader: headers, nested multiparts, base64 and quoted-printable bodies. */
function parseMessage(raw: string): Part {
  const split = raw.search(/\r?\n\r?\n/);
  const head = split < 0 ? raw : raw.slice(0, split);
  const body = split < 0 ? '' : raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const type = headers['content-type'] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (type.toLowerCase().startsWith('multipart/') && boundary) {
    const parts = body
      .split(`--${boundary}`)
      .slice(1)
      .filter((p) => !p.startsWith('--'))
      .map((p) => parseMessage(p.replace(/^\r?\n/, '')));
    return {
      headers,
      text: parts.map((p) => p.text).join(''),
      html: parts.map((p) => p.html).join(''),
    };
  }
  const decoded = decodeBody(body, headers['content-transfer-encoding'] ?? '7bit');
  const isHtml = type.toLowerCase().startsWith('text/html');
  return { headers, text: isHtml ? '' : decoded, html: isHtml ? decoded : '' };
}

function decodeBody(body: string, encoding: string): string {
  switch (encoding.toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    case 'quoted-printable':
      return decodeQuotedPrintable(body);
    default:
      return body;
  }
}

function decodeQuotedPrintable(text: string): string {
  const bytes: number[] = [];
  const soft = text.replace(/=\r?\n/g, '');
  for (let i = 0; i < soft.length; i++) {
    const hex = soft.slice(i + 1, i + 3);
    if (soft[i] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(soft[i]!, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`), as non-ASCII subjects are sent. */
function decodeWords(header: string): string {
  return header
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QB])\?([^?]*)\?=/gi, (_all, _charset: string, kind: string, data: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : decodeQuotedPrintable(data.replace(/_/g, ' ')),
    );
}
