// One limit on guessing API keys, on every surface that takes one, atomic in every store: of 200
// concurrent bad keys from one address exactly AUTH_FAILURE_LIMIT (10) are answered as bad keys and
// the rest 429; once blocked, even the right key is refused (docs/security.md#credentials-and-tenants).
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPersona } from '../../src/services/personas/manage.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { freshAddress, limiterStores } from '../helpers/backends.js';

const REDIS_URL = inject('redisUrl');
const STORES = limiterStores(REDIS_URL);
const badKey = () => `wk_live_${crypto.randomBytes(24).toString('base64url')}`;

describe.each(STORES)('failed API keys counted in %s', (_name, backend, extra) => {
  let t: TestApp;
  let client: { id: string; apiKey: string };
  let personaId: number;

  beforeAll(async () => {
    t = await startTestApp(backend, { ...extra });
    client = await t.newClient();
    personaId = (await createPersona(t.deps, { clientId: client.id, kind: 'photo' })).id;
  });
  afterAll(async () => t?.close());

  const surfaces = {
    authenticate: (key: string, address: string) =>
      t.app.inject({ method: 'POST', url: '/api/authenticate', remoteAddress: address, payload: { key } }),
    superappToken: (key: string, address: string) =>
      t.app.inject({
        method: 'POST',
        url: '/superappToken',
        remoteAddress: address,
        payload: { apiKey: key, personaId },
      }),
    'x-api-key': (key: string, address: string) =>
      t.app.inject({
        method: 'GET',
        url: '/api/personas',
        remoteAddress: address,
        headers: { 'x-api-key': key },
      }),
  };

  it.each(Object.keys(surfaces) as Array<keyof typeof surfaces>)(
    '%s: 200 concurrent bad keys give exactly 10 bad-key answers, then 429 with Retry-After',
    async (surface) => {
      const address = freshAddress();
      const answers = await Promise.all(
        Array.from({ length: 200 }, () => surfaces[surface](badKey(), address)),
      );
      const statuses = answers.map((a) => a.statusCode);
      expect(statuses.filter((s) => s === 429)).toHaveLength(190);
      expect(statuses.filter((s) => s !== 429)).toEqual(Array.from({ length: 10 }, () => 401));
      const limited = answers.find((a) => a.statusCode === 429)!;
      expect(limited.json<{ message: string }>().message).toBe('API call limit exceeded');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      // Blocked means blocked: the right key from that address is refused too, so guessing gains nothing.
      expect((await surfaces[surface](client.apiKey, address)).statusCode).toBe(429);
      // Another address is not affected.
      expect((await surfaces[surface](client.apiKey, freshAddress())).statusCode).toBe(200);
    },
  );

  it('the surfaces share one count per address', async () => {
    const address = freshAddress();
    for (let i = 0; i < 4; i++) expect((await surfaces.authenticate(badKey(), address)).statusCode).toBe(401);
    for (let i = 0; i < 3; i++)
      expect((await surfaces.superappToken(badKey(), address)).statusCode).toBe(401);
    for (let i = 0; i < 3; i++) expect((await surfaces['x-api-key'](badKey(), address)).statusCode).toBe(401);
    expect((await surfaces.superappToken(badKey(), address)).statusCode).toBe(429);
  });
});
