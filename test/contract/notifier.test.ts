// The Notifier contract, run against every provider: e-mail over SMTP to a real SMTP server, SMS through
// the generic JSON provider and through the Twilio API to a real HTTP receiver, all on loopback. Each
// notifier is built the way deps.ts builds it from the configuration (the operator's guard and fetch),
// with only the provider under test: its channel is configured, the other one is not.
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SmtpSettings } from '../../src/config.js';
import {
  createOperatorFetch,
  operatorGuard,
  type OperatorFetch,
} from '../../src/adapters/fetch/operator-fetch.js';
import { createNotifier } from '../../src/adapters/notify/notifier.js';
import { createJsonSms } from '../../src/adapters/notify/sms-json.js';
import { createTwilioSms } from '../../src/adapters/notify/sms-twilio.js';
import { createSmtpSender } from '../../src/adapters/notify/smtp.js';
import { NotifyError, type Channel, type Notifier } from '../../src/ports/notifier.js';
import { startSmsReceiver } from '../helpers/sms-receiver.js';
import { startSmtpServer } from '../helpers/smtp-server.js';

/** The text of a link message, with what must arrive intact: non-ASCII letters, a link, a second line. */
const LINK_TOKEN = 'tok_7Hq2';
const TEXT =
  'Acme Leasing : merci de compléter l’inspection de votre véhicule ici : ' +
  `https://capture.example.com/#${LINK_TOKEN} (valide jusqu’au 26 novembre 2025 à 11:00 UTC)\nÀ bientôt ✓`;

/** What a provider's peer received, the same for every provider. */
interface Delivery {
  to: string;
  text: string;
  /** The sender it was sent as. */
  from: string | undefined;
  /** The credentials it was sent with, as the peer saw them. */
  credentials: string | undefined;
  /** The provider's id of the message (the one sendEmail / sendSms must resolve with). */
  id: string | undefined;
}

interface Peer {
  port: number;
  delivered(): Delivery[];
  /** Refuses the next message with `code` (an SMTP reply code or an HTTP status). */
  refuseNext(code: number): void;
  close(): Promise<void>;
}

interface Provider {
  channel: Channel;
  /** Two recipients of the channel's kind. */
  recipients: [string, string];
  startPeer(): Promise<Peer>;
  /** The notifier of the configuration, its provider at `port` on loopback; `wrongSecret` for bad credentials. */
  notifier(port: number, opts?: { wrongSecret?: boolean }): Notifier;
  send(notifier: Notifier, to: string, text: string): Promise<string | null>;
  /** How the peer sees the configured sender and credentials. */
  sender: string;
  credentials: string;
  /** Refusals that trying again may get past, and refusals for good (docs/messages.md#retries). */
  temporary: number[];
  permanent: number[];
  /** Whether the peer refuses bad credentials itself; otherwise the test makes it answer as it would. */
  checksCredentials: boolean;
  /** The provider's refusal of bad credentials (for the peers that do not check them). */
  credentialsRefused: number;
  /** What must never appear in a failure's message or detail. */
  secrets: string[];
}

/**
 * The text of a MIME part as written: its line breaks, CRLF on the wire, back to \n, and without the line
 * break before the next boundary (which belongs to the boundary).
 */
const bodyPart = (part: string) => part.replace(/\r\n/g, '\n').replace(/\n$/, '');

/** How long an SMS provider that never replies is waited for here. */
const SILENT_PROVIDER_MS = 1000;
const SMTP_PASSWORD = 'smtp-pa55word-never-shown';
const SMS_TOKEN = 'sms-token-never-shown';
const TWILIO_SID = 'AC0123456789abcdef0123456789abcdef';
const TWILIO_TOKEN = 'twilio-token-never-shown';

const smtp: Provider = {
  channel: 'email',
  recipients: ['driver@example.com', 'fleet.manager@example.org'],
  async startPeer() {
    const server = await startSmtpServer({ user: 'walkaround', pass: SMTP_PASSWORD });
    return {
      port: server.port,
      delivered: () =>
        server.received.map((mail) => ({
          to: mail.to.join(','),
          text: bodyPart(mail.text),
          from: mail.from,
          credentials: mail.user,
          id: mail.headers['message-id'],
        })),
      refuseNext: (code) => server.failNext(1, code),
      close: () => server.close(),
    };
  },
  notifier(port, opts = {}) {
    const settings: SmtpSettings = {
      host: '127.0.0.1',
      port,
      secure: false,
      // The test server offers no STARTTLS (no certificate to trust): a relay on a trusted network.
      requireTls: false,
      auth: { user: 'walkaround', pass: opts.wrongSecret ? 'not-the-password' : SMTP_PASSWORD },
      from: 'Acme Inspections <inspections@example.com>',
    };
    return createNotifier({
      email: createSmtpSender(settings, {
        guard: operatorGuard,
        connectTimeoutMs: 5000,
        socketTimeoutMs: 1000,
      }),
    });
  },
  send: (notifier, to, text) =>
    notifier.sendEmail({ to, subject: 'Acme Leasing: your vehicle inspection link', text }),
  sender: 'inspections@example.com',
  credentials: 'walkaround',
  temporary: [421, 451, 452, 503],
  permanent: [550, 552, 554],
  checksCredentials: true,
  credentialsRefused: 535,
  secrets: [SMTP_PASSWORD, 'not-the-password'],
};

/** An SMS provider spoken through the operator fetch, as deps.ts builds it. */
function smsProvider(
  shape: 'json' | 'twilio',
  details: Pick<Provider, 'sender' | 'credentials' | 'secrets'>,
): Provider {
  return {
    channel: 'sms',
    recipients: ['+33612345678', '+4915123456789'],
    async startPeer() {
      const receiver = await startSmsReceiver();
      return {
        port: receiver.port,
        delivered: () =>
          receiver.delivered().map((sms) => ({
            to: sms.to,
            text: sms.body,
            from: sms.from,
            credentials: sms.authorization,
            id: sms.id,
          })),
        refuseNext: (status) => receiver.failNext(1, status),
        close: () => receiver.close(),
      };
    },
    notifier(port, opts = {}) {
      const operator = createOperatorFetch({ connectTimeoutMs: 5000, timeoutMs: 15_000, maxRedirects: 0 });
      // A provider that never replies fails after a second here, not after the adapters' 15 s: the
      // timeout's effect is what is tested, not its length.
      const fetch: OperatorFetch = {
        request: (url, init) => operator.request(url, { ...init, timeoutMs: SILENT_PROVIDER_MS }),
        close: () => operator.close(),
      };
      const url = `http://127.0.0.1:${port}`;
      const sms =
        shape === 'json'
          ? createJsonSms(
              {
                provider: 'json',
                url: `${url}/sms/send`,
                authToken: opts.wrongSecret ? 'not-the-token' : SMS_TOKEN,
                from: 'Acme',
              },
              fetch,
            )
          : createTwilioSms(
              {
                provider: 'twilio',
                url,
                accountSid: TWILIO_SID,
                authToken: opts.wrongSecret ? 'not-the-token' : TWILIO_TOKEN,
                from: '+15005550006',
              },
              fetch,
            );
      return createNotifier({ sms, close: () => fetch.close() });
    },
    send: (notifier, to, text) => notifier.sendSms({ to, body: text }),
    temporary: [500, 502, 503, 408, 429],
    permanent: [400, 401, 403, 404, 422],
    checksCredentials: false,
    credentialsRefused: 401,
    ...details,
  };
}

const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;

const PROVIDERS: Record<string, Provider> = {
  'e-mail over SMTP': smtp,
  'SMS through the JSON provider': smsProvider('json', {
    sender: 'Acme',
    credentials: `Bearer ${SMS_TOKEN}`,
    secrets: [SMS_TOKEN, 'not-the-token'],
  }),
  'SMS through the Twilio API': smsProvider('twilio', {
    sender: '+15005550006',
    credentials: basic(TWILIO_SID, TWILIO_TOKEN),
    secrets: [
      TWILIO_TOKEN,
      'not-the-token',
      basic(TWILIO_SID, TWILIO_TOKEN),
      basic(TWILIO_SID, 'not-the-token'),
    ],
  }),
};

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A peer that accepts connections, reads what comes, and never says a word. */
async function silentPeer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('data', () => undefined);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** The NotifyError a send rejected with. */
async function failure(sending: Promise<unknown>): Promise<NotifyError> {
  const error = await sending.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(NotifyError);
  return error as NotifyError;
}

describe.each(Object.entries(PROVIDERS))('notifier: %s', (_name, provider) => {
  let peer: Peer;
  let notifier: Notifier;
  const opened: Notifier[] = [];
  /** A notifier of this provider at `port`, closed after the suite. */
  const notifierAt = (port: number, opts?: { wrongSecret?: boolean }) => {
    const made = provider.notifier(port, opts);
    opened.push(made);
    return made;
  };
  const [to, otherTo] = provider.recipients;

  beforeAll(async () => {
    peer = await provider.startPeer();
    notifier = notifierAt(peer.port);
  });
  afterAll(async () => {
    await Promise.all(opened.map((n) => n.close()));
    await peer?.close();
  });

  /** What a failure shows: no secret anywhere; the short message names no recipient and holds no link. */
  const expectSafe = (error: NotifyError) => {
    expect(error.message).not.toContain(LINK_TOKEN);
    for (const secret of provider.secrets) {
      expect(error.message).not.toContain(secret);
      expect(error.detail ?? '').not.toContain(secret);
    }
    for (const recipient of provider.recipients) expect(error.message).not.toContain(recipient);
  };

  it('has its own channel configured, and sending on the other one fails for good', async () => {
    const other: Channel = provider.channel === 'email' ? 'sms' : 'email';
    expect(notifier.configured(provider.channel)).toBe(true);
    expect(notifier.configured(other)).toBe(false);
    const before = peer.delivered().length;
    const error = await failure(
      other === 'email'
        ? notifier.sendEmail({ to: 'driver@example.com', subject: 'Link', text: TEXT })
        : notifier.sendSms({ to: '+33612345678', body: TEXT }),
    );
    expect(error.permanent).toBe(true);
    expect(peer.delivered()).toHaveLength(before);
  });

  it('delivers the text to the recipient, as the configured sender, and resolves with the provider’s id', async () => {
    const before = peer.delivered().length;
    const id = await provider.send(notifier, to, TEXT);
    const delivered = peer.delivered().slice(before);
    expect(id).toEqual(expect.any(String));
    expect(delivered).toEqual([
      { to, text: TEXT, from: provider.sender, credentials: provider.credentials, id },
    ]);
  });

  it('delivers concurrent messages once each, none mixed with another', async () => {
    const before = peer.delivered().length;
    const messages = Array.from({ length: 6 }, (_, i) => ({
      to: provider.recipients[i % 2]!,
      text: `${TEXT} #${i}`,
    }));
    const ids = await Promise.all(messages.map((m) => provider.send(notifier, m.to, m.text)));
    const delivered = peer.delivered().slice(before);
    const sortByText = <T extends { text: string }>(list: T[]) =>
      [...list].sort((x, y) => x.text.localeCompare(y.text));
    expect(sortByText(delivered).map(({ to, text }) => ({ to, text }))).toEqual(sortByText(messages));
    expect(new Set(ids).size).toBe(messages.length);
    expect(new Set(ids)).toEqual(new Set(delivered.map((d) => d.id)));
  });

  it('fails a send the provider refuses for now as temporary, and the next send goes through', async () => {
    for (const code of provider.temporary) {
      const before = peer.delivered().length;
      peer.refuseNext(code);
      const error = await failure(provider.send(notifier, to, TEXT));
      expect({ code, permanent: error.permanent }).toEqual({ code, permanent: false });
      expect(error.message).toContain(String(code));
      expectSafe(error);
      expect(peer.delivered()).toHaveLength(before);
      expect(await provider.send(notifier, to, TEXT)).toEqual(expect.any(String));
      expect(peer.delivered()).toHaveLength(before + 1);
    }
  });

  it('fails a send the provider refuses for good (a refused recipient) as permanent, with its words in detail', async () => {
    for (const code of provider.permanent) {
      const before = peer.delivered().length;
      peer.refuseNext(code);
      const error = await failure(provider.send(notifier, otherTo, TEXT));
      expect({ code, permanent: error.permanent }).toEqual({ code, permanent: true });
      expect(error.message).toContain(String(code));
      // The provider's own words are kept, apart from the message that is logged.
      expect(error.detail).toMatch(/test (server|receiver)/i);
      expect(error.message).not.toMatch(/test (server|receiver)/i);
      expectSafe(error);
      expect(peer.delivered()).toHaveLength(before);
    }
  });

  it('fails a send with bad credentials for good, and shows no secret', async () => {
    const before = peer.delivered().length;
    if (!provider.checksCredentials) peer.refuseNext(provider.credentialsRefused);
    const error = await failure(provider.send(notifierAt(peer.port, { wrongSecret: true }), to, TEXT));
    expect(error.permanent).toBe(true);
    expect(error.message).toContain(String(provider.credentialsRefused));
    expectSafe(error);
    expect(peer.delivered()).toHaveLength(before);
  });

  it('fails a send to a provider that does not answer as temporary', async () => {
    const error = await failure(provider.send(notifierAt(await closedPort()), to, TEXT));
    expect(error.permanent).toBe(false);
    expect(error.message).toContain('127.0.0.1');
    expectSafe(error);
  });

  it('fails a send to a provider that never replies as temporary (it times out)', async () => {
    const silent = await silentPeer();
    try {
      const error = await failure(provider.send(notifierAt(silent.port), to, TEXT));
      expect(error.permanent).toBe(false);
      expect(error.message).toContain('127.0.0.1');
      expectSafe(error);
    } finally {
      await silent.close();
    }
  });
});

describe('notifier: e-mail over SMTP', () => {
  let server: Awaited<ReturnType<typeof startSmtpServer>>;
  let notifier: Notifier;
  beforeAll(async () => {
    server = await startSmtpServer({ user: 'walkaround', pass: SMTP_PASSWORD });
    notifier = smtp.notifier(server.port);
  });
  afterAll(async () => {
    await notifier?.close();
    await server?.close();
  });

  it('sends the subject, the text and the HTML part, from the configured sender, logged in', async () => {
    const id = await notifier.sendEmail({
      to: 'driver@example.com',
      subject: 'Acme Leasing : le lien de votre inspection ✓',
      text: TEXT,
      html: '<p>Acme Leasing : <a href="https://capture.example.com/#tok_7Hq2">l’inspection</a></p>',
    });
    const [mail] = await server.waitFor(1);
    expect({ ...mail, text: bodyPart(mail!.text), html: bodyPart(mail!.html) }).toMatchObject({
      to: ['driver@example.com'],
      from: 'inspections@example.com',
      user: 'walkaround',
      subject: 'Acme Leasing : le lien de votre inspection ✓',
      text: TEXT,
      html: '<p>Acme Leasing : <a href="https://capture.example.com/#tok_7Hq2">l’inspection</a></p>',
    });
    expect(mail!.headers.from).toBe('Acme Inspections <inspections@example.com>');
    expect(mail!.headers.to).toBe('driver@example.com');
    expect(id).toBe(mail!.headers['message-id']);
  });
});
