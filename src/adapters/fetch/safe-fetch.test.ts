import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  checkTarget,
  createGuardedFetch,
  createSafeFetch,
  isPrivateAddress,
  type AddressGuard,
} from './safe-fetch.js';
import { OutboundError, readLimitedText } from '../../ports/outbound-fetch.js';

interface Hit {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}
interface TestServer {
  port: number;
  origin: string;
  hits: Hit[];
}

const servers: http.Server[] = [];
const clients: { close(): Promise<void> }[] = [];

/** A real HTTP server on loopback that records every request it receives. */
async function serve(
  handler: (req: IncomingMessage, res: ServerResponse, hit: Hit) => void,
  host = '127.0.0.1',
): Promise<TestServer> {
  const hits: Hit[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const hit = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      };
      hits.push(hit);
      handler(req, res, hit);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  servers.push(server);
  const { port } = server.address() as AddressInfo;
  return { port, origin: `http://${host.includes(':') ? `[${host}]` : host}:${port}`, hits };
}

const settings = { connectTimeoutMs: 2000, timeoutMs: 5000, concurrency: 4, maxRedirects: 5 };

function safeFetch(overrides: Partial<typeof settings> & { allowPrivateNetworks: boolean }) {
  const client = createSafeFetch({ ...settings, ...overrides });
  clients.push(client);
  return client;
}

async function failure(promise: Promise<unknown>): Promise<OutboundError> {
  const error = await promise.then(
    () => expect.unreachable('expected an OutboundError'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OutboundError);
  return error as OutboundError;
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

describe('isPrivateAddress', () => {
  it.each([
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '127.0.0.1',
    '127.8.8.8',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    'fe80::1',
    'fc00::1',
    '::ffff:10.0.0.1',
    '::ffff:127.0.0.1',
    '::7f00:1',
    '::a9fe:a9fe',
    '64:ff9b::7f00:1',
    '64:ff9b:1::808:808',
    '2002:7f00:1::',
    '2001:0:4136:e378:8000:63bf:80ff:fffe',
    'not an address',
  ])('%s is private', (ip) => expect(isPrivateAddress(ip)).toBe(true));

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '2606:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
    '2001:0:4136:e378:8000:63bf:f7f7:f7f7',
  ])('%s is public', (ip) => expect(isPrivateAddress(ip)).toBe(false));
});

describe('checkTarget (the per-hop check)', () => {
  const strict = (address: string) => !isPrivateAddress(address);

  it.each([
    'file:///etc/passwd',
    'ftp://example.com/a.jpg',
    'data:text/plain,hi',
    'javascript:alert(1)',
    'gopher://example.com/',
    'http://user:pass@example.com/a.jpg',
    'not a url',
  ])('%s is refused as scheme', (url) => {
    expect(() => checkTarget(url, strict)).toThrow(expect.objectContaining({ reason: 'scheme' }));
  });

  it('keeps credentials out of the error', () => {
    expect(() => checkTarget('https://user:secret@example.com/x', strict)).toThrow(
      expect.objectContaining({ url: 'https://example.com/x' }),
    );
  });

  it.each([
    ['http://127.0.0.1/', '127.0.0.1'],
    ['http://2130706433/', '127.0.0.1'],
    ['http://0x7f.1/', '127.0.0.1'],
    ['http://017700000001/', '127.0.0.1'],
    ['http://[::1]/', '[::1]'],
    ['http://[::ffff:127.0.0.1]/', '[::ffff:7f00:1]'],
    ['http://169.254.169.254/latest/meta-data/', '169.254.169.254'],
    ['https://10.0.0.1:8443/', '10.0.0.1'],
  ])('%s is refused as a private address', (url, host) => {
    expect(() => checkTarget(url, strict)).toThrow(
      expect.objectContaining({
        reason: 'private_address',
        message: expect.stringContaining(host) as string,
      }),
    );
  });

  it('lets public literals and host names through (host names are checked when connecting)', () => {
    expect(checkTarget('https://8.8.8.8/a', strict).href).toBe('https://8.8.8.8/a');
    expect(checkTarget('https://localhost/a', strict).hostname).toBe('localhost');
  });
});

describe('createSafeFetch with private networks refused', () => {
  it.each(['127.0.0.1', '2130706433', '0x7f.1', '[::1]'])(
    'refuses http://%s/ before connecting',
    async (host) => {
      const answer = (_req: IncomingMessage, res: ServerResponse) => res.end('secret');
      // Without IPv6 on the host, [::1] is still refused; the server is then only a bystander.
      const server =
        host === '[::1]' ? await serve(answer, '::1').catch(() => serve(answer)) : await serve(answer);
      const fetch = safeFetch({ allowPrivateNetworks: false });
      const error = await failure(fetch(`http://${host}:${server.port}/`));
      expect(error.reason).toBe('private_address');
      expect(server.hits).toHaveLength(0);
    },
  );

  it('refuses a host name that resolves to loopback when connecting, naming the host', async () => {
    const server = await serve((_req, res) => res.end('secret'));
    const fetch = safeFetch({ allowPrivateNetworks: false });
    const error = await failure(fetch(`http://localhost:${server.port}/admin`));
    expect(error).toMatchObject({ reason: 'private_address', url: `http://localhost:${server.port}/admin` });
    expect(error.message).toMatch(/^Refused localhost: not a public address$/);
    expect(server.hits).toHaveLength(0);
  });

  it('refuses non-http schemes', async () => {
    const fetch = safeFetch({ allowPrivateNetworks: false });
    expect((await failure(fetch('file:///etc/passwd'))).reason).toBe('scheme');
  });
});

describe('createSafeFetch with private networks allowed', () => {
  const open = (overrides: Partial<typeof settings> = {}) =>
    safeFetch({ allowPrivateNetworks: true, ...overrides });

  it('streams the body: the first bytes arrive before the server has finished', async () => {
    let finish = () => {};
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'image/jpeg' });
      res.write('first;');
      finish = () => res.end('last');
    });
    const res = await open()(`${server.origin}/photo.jpg`);
    expect(res).toMatchObject({ status: 200, url: `${server.origin}/photo.jpg` });
    expect(res.headers['content-type']).toBe('image/jpeg');
    const first = await new Promise<Buffer>((resolve) => res.body.once('data', resolve));
    expect(first.toString()).toBe('first;');
    finish();
    expect(await readLimitedText(res.body, 100)).toBe('last');
  });

  it('sends method, headers (Authorization included) and body', async () => {
    const server = await serve((_req, res) => res.end('ok'));
    const res = await open()(`${server.origin}/hook`, {
      method: 'POST',
      headers: { authorization: 'Bearer t0k', 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    await readLimitedText(res.body, 10);
    expect(server.hits[0]).toMatchObject({ method: 'POST', body: '{"a":1}' });
    expect(server.hits[0]?.headers.authorization).toBe('Bearer t0k');
  });

  it('follows redirects up to the cap, then fails with too_many_redirects', async () => {
    const server = await serve((req, res) => {
      const n = Number(req.url?.slice(1));
      if (n < 10) res.writeHead(302, { location: `/${n + 1}` }).end();
      else res.end('done');
    });
    const ok = await open({ maxRedirects: 3 })(`${server.origin}/7`);
    expect(ok.url).toBe(`${server.origin}/10`);
    const error = await failure(open({ maxRedirects: 3 })(`${server.origin}/0`));
    expect(error.reason).toBe('too_many_redirects');
    expect(server.hits.map((h) => h.path).slice(-4)).toEqual(['/0', '/1', '/2', '/3']);
  });

  it('keeps Authorization on a same-origin redirect and drops it on a cross-origin one', async () => {
    const other = await serve((_req, res) => res.end('other'));
    const server = await serve((req, res) => {
      if (req.url === '/same') res.writeHead(301, { location: '/final' }).end();
      else if (req.url === '/cross') res.writeHead(301, { location: `${other.origin}/final` }).end();
      else res.end('final');
    });
    const fetch = open();
    const headers = { Authorization: 'Bearer t0k', 'X-Trace': '1' };
    await readLimitedText((await fetch(`${server.origin}/same`, { headers })).body, 10);
    expect(server.hits.at(-1)).toMatchObject({ path: '/final', headers: { authorization: 'Bearer t0k' } });
    const res = await fetch(`${server.origin}/cross`, { headers });
    expect(res.url).toBe(`${other.origin}/final`);
    await readLimitedText(res.body, 10);
    expect(other.hits[0]?.headers.authorization).toBeUndefined();
    expect(other.hits[0]?.headers['x-trace']).toBe('1');
  });

  it.each([
    [301, 'GET', ''],
    [302, 'GET', ''],
    [303, 'GET', ''],
    [307, 'POST', 'payload'],
    [308, 'POST', 'payload'],
  ])('a POST answered with %d continues as %s', async (status, method, body) => {
    const server = await serve((req, res) => {
      if (req.url === '/start') res.writeHead(status, { location: '/next' }).end();
      else res.end('ok');
    });
    const res = await open()(`${server.origin}/start`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'payload',
    });
    await readLimitedText(res.body, 10);
    expect(server.hits[1]).toMatchObject({ path: '/next', method, body });
    if (method === 'GET') expect(server.hits[1]?.headers['content-type']).toBeUndefined();
  });

  it("with redirect 'manual', returns a 3xx as it is and sends nothing to its Location", async () => {
    const server = await serve((req, res) => {
      if (req.url === '/hook') res.writeHead(302, { location: '/moved' }).end();
      else res.end('moved');
    });
    const res = await open()(`${server.origin}/hook`, { method: 'POST', body: 'x', redirect: 'manual' });
    res.body.resume();
    expect(res).toMatchObject({ status: 302, url: `${server.origin}/hook` });
    expect(res.headers.location).toBe('/moved');
    expect(server.hits.map((h) => `${h.method} ${h.path}`)).toEqual(['POST /hook']);
  });

  it('reports a refused connection as connect', async () => {
    const server = await serve(() => {});
    servers.pop()?.close(); // the port is now free: nothing listens there
    const error = await failure(open()(`${server.origin}/`));
    expect(error.reason).toBe('connect');
  });

  it('errors the body with timeout when the server stalls mid-body', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200);
      res.write('some bytes, then nothing');
    });
    const started = Date.now();
    const res = await open({ timeoutMs: 300 })(`${server.origin}/slow`);
    const error = await failure(readLimitedText(res.body, 1_000_000));
    expect(error).toMatchObject({ reason: 'timeout', url: `${server.origin}/slow` });
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('fails with timeout when headers never come, with init.timeoutMs overriding the setting', async () => {
    const server = await serve(() => {});
    const started = Date.now();
    const error = await failure(open({ timeoutMs: 60_000 })(`${server.origin}/`, { timeoutMs: 200 }));
    expect(error.reason).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("passes the caller's abort reason through", async () => {
    const server = await serve(() => {});
    const controller = new AbortController();
    const reason = new Error('upload cancelled');
    setTimeout(() => controller.abort(reason), 50);
    await expect(open()(`${server.origin}/`, { signal: controller.signal })).rejects.toBe(reason);
  });

  it('readLimitedText stops at maxBytes', async () => {
    const server = await serve((_req, res) => res.end('x'.repeat(100_000)));
    const res = await open()(`${server.origin}/`);
    expect(await readLimitedText(res.body, 10)).toBe('x'.repeat(10));
  });
});

// Every test server is on loopback, which the production policy refuses, so these tests pass their own
// guard: 127.0.0.1 plays the public internet (and `public.test` resolves to it), while every other
// address is judged by the production rule. What they prove is that each redirect hop goes through
// the same checks as the first URL, both the literal check and the connect-time resolution.
describe('redirects are checked again at every hop', () => {
  const names: Record<string, string[]> = {
    'public.test': ['127.0.0.1'],
    // The first address is the test server itself: a guard that checked only one would connect.
    'internal.test': ['127.0.0.1', '10.0.0.5'],
  };
  const guard: AddressGuard = {
    isAllowed: (address) => address === '127.0.0.1' || !isPrivateAddress(address),
    resolve: (hostname) => {
      const addresses = names[hostname];
      if (addresses) return Promise.resolve(addresses.map((address) => ({ address, family: 4 })));
      return Promise.reject(
        Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }),
      );
    },
  };
  const open = () => {
    const client = createGuardedFetch(settings, guard);
    clients.push(client);
    return client;
  };

  it('follows a redirect between allowed hosts (the injected resolver really connects)', async () => {
    const server = await serve((req, res) => {
      if (req.url === '/start') res.writeHead(302, { location: '/final' }).end();
      else res.end('final');
    });
    const res = await open()(`http://public.test:${server.port}/start`);
    expect(res.url).toBe(`http://public.test:${server.port}/final`);
    expect(await readLimitedText(res.body, 10)).toBe('final');
  });

  it('refuses a redirect to the cloud metadata address', async () => {
    const server = await serve((_req, res) =>
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end(),
    );
    const error = await failure(open()(`http://public.test:${server.port}/photo.jpg`));
    expect(error).toMatchObject({
      reason: 'private_address',
      url: 'http://169.254.169.254/latest/meta-data/',
    });
  });

  it('refuses, when connecting, a redirect to a host name with a private address', async () => {
    const internal = await serve((_req, res) => res.end('secret'));
    const server = await serve((_req, res) =>
      res.writeHead(307, { location: `http://internal.test:${internal.port}/admin` }).end(),
    );
    const error = await failure(open()(`http://public.test:${server.port}/photo.jpg`));
    expect(error).toMatchObject({
      reason: 'private_address',
      url: `http://internal.test:${internal.port}/admin`,
    });
    expect(error.message).toContain('internal.test');
    expect(internal.hits).toHaveLength(0);
  });

  it('reports a name that does not resolve as dns', async () => {
    const error = await failure(open()('http://nowhere.test/'));
    expect(error.reason).toBe('dns');
  });
});
