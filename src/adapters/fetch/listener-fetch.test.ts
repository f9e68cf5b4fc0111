import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboundError, readLimitedText } from '../../ports/outbound-fetch.js';
import { createListenerFetch, isLoopbackAddress } from './listener-fetch.js';

describe('the way to a local listener (ADR 12)', () => {
  const fetch = createListenerFetch({ connectTimeoutMs: 2000, timeoutMs: 5000, maxRedirects: 0 });
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    server = http.createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await fetch.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('knows loopback, and only loopback', () => {
    for (const ip of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1'])
      expect(isLoopbackAddress(ip), ip).toBe(true);
    for (const ip of ['10.0.0.1', '169.254.169.254', '8.8.8.8', '::', '0.0.0.0', 'fe80::1', 'nonsense'])
      expect(isLoopbackAddress(ip), ip).toBe(false);
  });

  it('reaches loopback, by address and by localhost', async () => {
    for (const url of [`http://127.0.0.1:${port}/hook`, `http://localhost:${port}/hook`]) {
      const res = await fetch.request(url, { method: 'POST', body: '{}' });
      expect(res.status, url).toBe(200);
      expect(await readLimitedText(res.body, 100)).toBe('ok');
    }
  });

  it('refuses every other address, public or private, before connecting', async () => {
    for (const url of [
      'http://8.8.8.8/',
      'http://10.0.0.1/',
      'http://169.254.169.254/',
      'http://[fe80::1]/',
    ]) {
      const error = await fetch.request(url).then(
        () => expect.unreachable(url),
        (e: unknown) => e,
      );
      expect(error, url).toBeInstanceOf(OutboundError);
      expect((error as OutboundError).reason).toBe('private_address');
    }
  });
});
