// The standing SSRF suite: the ways of writing an internal address in a URL a tenant supplies (media URLs,
// callback and webhook URLs), each judged (a) by the address policy alone and (b) by the real tenant
// fetch aimed at a TCP listener on loopback that must never accept a connection, also (c) when a public
// server redirects there, and (d) when the URL is given (SafeFetch.admit: a `callback_url` or webhook URL
// is refused at once, ADR 12). Public controls prove the policy is not simply refusing everything.
//
// Host names go through the guard's resolver hook: the names below resolve as the table says, `localhost`
// through the real resolver. The policy itself is the production one (ALLOW_PRIVATE_NETWORKS=false).
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  checkTarget,
  createGuardedFetch,
  settingsGuard,
  type AddressGuard,
} from '../../src/adapters/fetch/safe-fetch.js';
import { OutboundError } from '../../src/ports/outbound-fetch.js';

const NAMES: Record<string, string[]> = {
  'loopback.test': ['127.0.0.1'],
  'v6-loopback.test': ['::1'],
  'mapped.test': ['::ffff:127.0.0.1'],
  'nat64-loopback.test': ['64:ff9b::7f00:1'],
  // One public and one private address: a guard that checked only the first would connect.
  'mixed.test': ['8.8.8.8', '127.0.0.1'],
  'metadata.test': ['169.254.169.254'],
  'internal.test': ['10.0.0.5'],
  'public.test': ['8.8.8.8'],
  'public-v6.test': ['2606:4700::1111'],
};

/** The table's names, trailing dot or not (as DNS treats them); `localhost` really resolved. */
async function resolve(hostname: string): Promise<LookupAddress[]> {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  if (name === 'localhost') return dnsLookup(name, { all: true });
  const addresses = NAMES[name];
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address, family: net.isIP(address) }));
}

/** The production policy with the table's resolver. */
const tenantGuard: AddressGuard = { ...settingsGuard({ allowPrivateNetworks: false }), resolve };

/** `{port}` is the loopback listener's port. */
interface Variant {
  url: string;
  /** Dialled as written, it would reach the listener on 127.0.0.1 or ::1. */
  loopback?: true;
}

const REFUSED: Variant[] = [
  // IPv4 loopback in every spelling WHATWG URL accepts
  { url: 'http://127.0.0.1:{port}/', loopback: true },
  { url: 'https://127.0.0.1:{port}/', loopback: true },
  { url: 'http://127.1:{port}/', loopback: true },
  { url: 'http://127.0.1:{port}/', loopback: true },
  { url: 'http://2130706433:{port}/', loopback: true },
  { url: 'http://0x7f000001:{port}/', loopback: true },
  { url: 'http://0x7f.1:{port}/', loopback: true },
  { url: 'http://0x7f.0x0.0x0.0x1:{port}/', loopback: true },
  { url: 'http://0177.0.0.1:{port}/', loopback: true },
  { url: 'http://0177.1:{port}/', loopback: true },
  { url: 'http://017700000001:{port}/', loopback: true },
  { url: 'http://127.000.000.001:{port}/', loopback: true },
  { url: 'http://127.0.0.1.:{port}/', loopback: true },
  { url: 'http://127。0。0。1:{port}/', loopback: true },
  { url: 'http://①②⑦.⓪.⓪.①:{port}/', loopback: true },
  { url: 'http://127.255.255.254:{port}/' },
  { url: 'http://0.0.0.0:{port}/', loopback: true },
  { url: 'http://0:{port}/', loopback: true },
  // IPv6 loopback, unspecified, and IPv6 forms carrying 127.0.0.1
  { url: 'http://[::1]:{port}/', loopback: true },
  { url: 'http://[0:0:0:0:0:0:0:1]:{port}/', loopback: true },
  { url: 'http://[::]:{port}/', loopback: true },
  { url: 'http://[::ffff:127.0.0.1]:{port}/', loopback: true },
  { url: 'http://[::ffff:7f00:1]:{port}/', loopback: true },
  { url: 'http://[0:0:0:0:0:ffff:127.0.0.1]:{port}/', loopback: true },
  { url: 'http://[::127.0.0.1]:{port}/', loopback: true },
  { url: 'http://[::7f00:1]:{port}/', loopback: true },
  { url: 'http://[::ffff:0:127.0.0.1]:{port}/', loopback: true },
  { url: 'http://[64:ff9b::127.0.0.1]:{port}/', loopback: true },
  { url: 'http://[64:ff9b::7f00:1]:{port}/', loopback: true },
  { url: 'http://[64:ff9b:1::7f00:1]:{port}/', loopback: true },
  { url: 'http://[2002:7f00:1::]:{port}/', loopback: true },
  { url: 'http://[2002:7f00:1::1]:{port}/', loopback: true },
  // Teredo: server 65.54.227.120, client 127.0.0.1 (inverted in the last 32 bits)
  { url: 'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]:{port}/', loopback: true },
  // Host names resolving to loopback
  { url: 'http://localhost:{port}/', loopback: true },
  { url: 'http://LOCALHOST:{port}/', loopback: true },
  { url: 'http://localhost.:{port}/', loopback: true },
  { url: 'http://loopback.test:{port}/', loopback: true },
  { url: 'http://loopback.test.:{port}/', loopback: true },
  { url: 'http://v6-loopback.test:{port}/', loopback: true },
  { url: 'http://mapped.test:{port}/', loopback: true },
  { url: 'http://nat64-loopback.test:{port}/', loopback: true },
  { url: 'http://mixed.test:{port}/', loopback: true },
  // Userinfo and delimiter tricks, zone ids
  { url: 'http://public.test@127.0.0.1:{port}/', loopback: true },
  { url: 'http://public.test:80@127.0.0.1:{port}/', loopback: true },
  { url: 'http://127.0.0.1:{port}#@public.test/', loopback: true },
  { url: 'http://127.0.0.1:{port}?@public.test/', loopback: true },
  { url: 'http://user:pass@public.test/' },
  { url: 'http://[::1%25lo]:{port}/', loopback: true },
  { url: 'http://[fe80::1%25eth0]/' },
  // Schemes
  { url: 'ftp://127.0.0.1:{port}/', loopback: true },
  { url: 'file:///etc/passwd' },
  { url: 'gopher://127.0.0.1:{port}/_', loopback: true },
  // Private IPv4 ranges
  { url: 'http://10.0.0.1/' },
  { url: 'http://10.255.255.255/' },
  { url: 'http://172.16.0.1/' },
  { url: 'http://172.31.255.255/' },
  { url: 'http://192.168.0.1/' },
  { url: 'http://192.168.255.255/' },
  { url: 'http://100.64.0.1/' },
  { url: 'http://100.127.255.255/' },
  { url: 'http://169.254.169.254/latest/meta-data/' },
  { url: 'http://169.254.0.1/' },
  { url: 'http://2852039166/' },
  { url: 'http://0xa9fea9fe/' },
  { url: 'http://0251.0376.0251.0376/' },
  { url: 'http://198.18.0.1/' },
  { url: 'http://198.19.255.255/' },
  { url: 'http://224.0.0.1/' },
  { url: 'http://239.255.255.250/' },
  { url: 'http://240.0.0.1/' },
  { url: 'http://255.255.255.255/' },
  { url: 'http://metadata.test/' },
  { url: 'http://internal.test/' },
  // Private IPv6 ranges, and IPv6 forms carrying private IPv4 addresses
  { url: 'http://[fc00::1]/' },
  { url: 'http://[fd12:3456::1]/' },
  { url: 'http://[fe80::1]/' },
  { url: 'http://[febf::1]/' },
  { url: 'http://[fec0::1]/' },
  { url: 'http://[ff02::1]/' },
  { url: 'http://[2001:db8::1]/' },
  { url: 'http://[::ffff:10.0.0.1]/' },
  { url: 'http://[::ffff:169.254.169.254]/' },
  { url: 'http://[::ffff:a9fe:a9fe]/' },
  { url: 'http://[::a9fe:a9fe]/' },
  { url: 'http://[::10.0.0.1]/' },
  { url: 'http://[64:ff9b::a9fe:a9fe]/' },
  { url: 'http://[64:ff9b::192.168.0.1]/' },
  { url: 'http://[2002:a9fe:a9fe::]/' },
  { url: 'http://[2002:c0a8:1::1]/' },
  // Teredo with client 10.0.0.1, and with a private server address
  { url: 'http://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/' },
  { url: 'http://[2001:0:a00:1:8000:63bf:f7f7:f7f7]/' },
];

const ALLOWED = [
  'http://8.8.8.8/',
  'https://1.1.1.1/x.jpg',
  'http://134744072/',
  'http://[2606:4700::1111]/',
  'http://[2001:4860:4860::8888]/',
  'http://[::ffff:8.8.8.8]/',
  'http://[64:ff9b::808:808]/',
  'http://[64:ff9b::8.8.8.8]/',
  'http://[2002:808:808::1]/',
  // Teredo: server 65.54.227.120, client 8.8.8.8
  'http://[2001:0:4136:e378:8000:63bf:f7f7:f7f7]/',
  'http://public.test/',
  'http://public.test./',
  'http://public-v6.test/',
];

/** The policy's verdict without any connection: the per-hop check, then every resolved address. */
async function verdict(url: string): Promise<'refused' | 'allowed'> {
  let target: URL;
  try {
    target = checkTarget(url, (address) => tenantGuard.isAllowed(address));
  } catch (error) {
    expect(error).toBeInstanceOf(OutboundError);
    return 'refused';
  }
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
  if (net.isIP(host)) return 'allowed'; // the literal passed checkTarget
  const addresses = await resolve(host).catch(() => []);
  return addresses.length > 0 && addresses.every((a) => tenantGuard.isAllowed(a.address))
    ? 'allowed'
    : 'refused';
}

/** A TCP listener on 127.0.0.1 and ::1 (one port) counting every connection it accepts. */
let sink: { port: number; accepted: number; close(): Promise<void> };
/** A "public" server (127.0.0.2 counts as public for the redirect test) that redirects to `?to=`. */
let redirector: { port: number; close(): Promise<void> };
const settings = { connectTimeoutMs: 1000, timeoutMs: 3000, maxRedirects: 5 };
const tenantFetch = createGuardedFetch(settings, tenantGuard);
const withPort = (url: string) => url.replaceAll('{port}', String(sink.port));

beforeAll(async () => {
  const servers: net.Server[] = [];
  const state = { port: 0, accepted: 0 };
  for (const host of ['127.0.0.1', '::1']) {
    const server = net.createServer((socket) => {
      state.accepted++;
      socket.destroy();
    });
    await new Promise<void>((ok, fail) => {
      server.once('error', fail);
      server.listen(state.port, host, ok);
    });
    state.port = (server.address() as AddressInfo).port;
    servers.push(server);
  }
  sink = Object.assign(state, {
    close: async () => {
      for (const server of servers) await new Promise((ok) => server.close(ok));
    },
  });
  const server = http.createServer((req, res) => {
    const to = new URL(req.url ?? '/', 'http://x').searchParams.get('to') ?? '/';
    // Header values are bytes: a Unicode host travels percent-encoded (URL parsing decodes it), and
    // only it: `[`, `]`, `%` and the rest stay as written.
    const location = to.replace(/[^\x20-\x7e]/gu, (c) => encodeURIComponent(c));
    res.writeHead(302, { location }).end();
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.2', ok));
  redirector = {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise((ok) => (server.closeAllConnections(), server.close(() => ok()))),
  };
});
afterAll(async () => {
  await tenantFetch.close();
  await sink?.close();
  await redirector?.close();
});
beforeEach(() => {
  sink.accepted = 0;
});

describe('SSRF: the address policy', () => {
  it('covers at least 60 variants', () => {
    expect(REFUSED.length + ALLOWED.length).toBeGreaterThanOrEqual(60);
  });

  it.each(REFUSED.map((v) => v.url))('refuses %s', async (url) => {
    expect(await verdict(url.replaceAll('{port}', '8080'))).toBe('refused');
  });

  it.each(ALLOWED)('allows the public %s', async (url) => {
    expect(await verdict(url)).toBe('allowed');
  });
});

describe('SSRF: the tenant fetch never connects to loopback', () => {
  it('the listener does count connections (an unguarded fetch reaches it)', async () => {
    const open = createGuardedFetch(settings, { isAllowed: () => true, resolve });
    try {
      for (const url of ['http://127.0.0.1:{port}/', 'http://2130706433:{port}/', 'http://[::1]:{port}/'])
        await open(withPort(url)).catch(() => undefined);
      expect(sink.accepted).toBe(3);
    } finally {
      await open.close();
    }
  });

  const loopback = REFUSED.filter((v) => v.loopback).map((v) => v.url);

  it.each(loopback)('%s is refused before any connection', async (url) => {
    const error = await tenantFetch(withPort(url)).then(
      () => expect.unreachable('expected a refusal'),
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(OutboundError);
    expect(['private_address', 'scheme']).toContain((error as OutboundError).reason);
    expect(sink.accepted).toBe(0);
  });

  it.each(loopback)('a redirect to %s is refused at that hop', async (url) => {
    // 127.0.0.2 plays a public host; every other address is judged by the production policy.
    const viaPublic = createGuardedFetch(settings, {
      isAllowed: (address) => address === '127.0.0.2' || tenantGuard.isAllowed(address),
      resolve,
    });
    try {
      const start = `http://127.0.0.2:${redirector.port}/?to=${encodeURIComponent(withPort(url))}`;
      const error = await viaPublic(start).then(
        () => expect.unreachable('expected a refusal'),
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(OutboundError);
      // A Location that is not a URL at all (a zone id) fails as an HTTP exchange gone wrong.
      const reasons = URL.canParse(withPort(url)) ? ['private_address', 'scheme'] : ['http'];
      expect(reasons).toContain((error as OutboundError).reason);
      expect(sink.accepted).toBe(0);
    } finally {
      await viaPublic.close();
    }
  });
});

describe('SSRF: a URL judged when it is given (SafeFetch.admit), as the connect would judge it', () => {
  it.each(REFUSED.map((v) => v.url))('refuses %s', async (url) => {
    const error = await tenantFetch.admit(withPort(url)).then(
      () => expect.unreachable('expected a refusal'),
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(OutboundError);
    expect(['private_address', 'scheme']).toContain((error as OutboundError).reason);
    expect(sink.accepted).toBe(0);
  });

  it.each(ALLOWED)('admits the public %s', async (url) => {
    await expect(tenantFetch.admit(url)).resolves.toBeUndefined();
  });

  it('admits a name that does not resolve: no verdict of the guard, and the connect judges it again', async () => {
    await expect(tenantFetch.admit('http://nowhere.test/hook')).resolves.toBeUndefined();
  });
});
