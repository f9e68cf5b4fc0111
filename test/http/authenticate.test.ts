// docs/api.md#authenticate and docs/api.md#refresh, on every database backend, through app.inject().
import { CLI_ACTOR } from '../../src/services/audit.js';
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeKeys, rotateKey } from '../../src/services/clients/manage.js';
import { verifyToken } from '../../src/services/session-tokens.js';
import { rotateSigningKey } from '../../src/services/signing-keys.js';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

const AUTH_FAILURE_LIMIT = 5;

describe.each(BACKENDS)('authentication on %s', (backend) => {
  let t: TestApp;
  let client: { id: string; apiKey: string };
  let address = 0;
  /** Each test calls from its own address, so failure counts of one test never block another. */
  const nextAddress = () => `198.51.100.${++address}`;

  const authenticate = (payload: unknown, opts: { address?: string; contentType?: string } = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/api/authenticate',
      remoteAddress: opts.address ?? nextAddress(),
      headers: { 'content-type': opts.contentType ?? 'application/json' },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });

  beforeAll(async () => {
    t = await startTestApp(backend, {
      AUTH_FAILURE_LIMIT: String(AUTH_FAILURE_LIMIT),
      AUTH_FAILURE_WINDOW: '10m',
    });
    client = await t.newClient();
  });
  afterAll(async () => t?.close());

  describe('200 Success', () => {
    it('returns session, access_token and refresh_token, with nothing else', async () => {
      const res = await authenticate({ key: client.apiKey });
      expect(res.statusCode).toBe(200);
      const body = res.json<Record<string, string>>();
      expect(Object.keys(body).sort()).toEqual(['access_token', 'refresh_token', 'session']);
      expect(body.session).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('accepts the matching client_id', async () => {
      const res = await authenticate({ key: client.apiKey, client_id: client.id });
      expect(res.statusCode).toBe(200);
    });

    it('gives a new session on every call', async () => {
      const sessions = new Set<string>();
      for (let i = 0; i < 5; i++)
        sessions.add((await authenticate({ key: client.apiKey })).json<{ session: string }>().session);
      expect(sessions.size).toBe(5);
    });

    it('signs both JWTs with a key from /.well-known/jwks.json; they carry the client and the session', async () => {
      const body = (await authenticate({ key: client.apiKey })).json<Record<string, string>>();
      const jwks = (await t.app.inject({ url: '/.well-known/jwks.json' })).json<{ keys: object[] }>();
      const keySet = createLocalJWKSet(jwks);
      for (const token of [body.access_token!, body.refresh_token!]) {
        const { payload } = await jwtVerify(token, keySet);
        expect(payload.sub).toBe(client.id);
        expect(payload.sid).toBe(body.session);
      }
    });

    it('gives the refresh_token (upload credential) 1 hour and the access_token 24 hours', async () => {
      const body = (await authenticate({ key: client.apiKey })).json<Record<string, string>>();
      const refresh = decodeJwt(body.refresh_token!);
      const access = decodeJwt(body.access_token!);
      expect(refresh.exp! - refresh.iat!).toBe(3600);
      expect(access.exp! - access.iat!).toBe(86400);
      expect(refresh.use).toBe('upload');
      expect(access.use).toBe('renew');
    });
  });

  describe('400 Invalid API key', () => {
    it.each([
      ['an empty object', {}],
      ['a key that is not a string', { key: 42 }],
      ['an empty key', { key: '' }],
      ['a client_id that is not a string', { key: 'wk_live_x', client_id: 7 }],
      ['an unknown field', { key: 'wk_live_x', admin: true }],
      ['an array', [{ key: 'wk_live_x' }]],
    ])('for %s', async (_what, payload) => {
      const res = await authenticate(payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ status: 'error', message: 'Invalid API key' });
    });

    it.each([
      ['malformed JSON', '{"key": ', 'application/json'],
      ['no body', '', 'application/json'],
      ['a body that is not JSON', 'key=wk_live_x', 'application/x-www-form-urlencoded'],
      ['a text body', 'wk_live_x', 'text/plain'],
    ])('for %s', async (_what, payload, contentType) => {
      const res = await authenticate(payload, { contentType });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ status: 'error', message: 'Invalid API key' });
    });
  });

  describe('401 API Key not valid', () => {
    it('for an unknown key', async () => {
      const res = await authenticate({ key: 'wk_live_' + 'A'.repeat(32) });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ status: 'error', message: 'API Key not valid' });
    });

    it('for text that is no key at all', async () => {
      expect((await authenticate({ key: 'hello' })).statusCode).toBe(401);
    });

    it("for a client_id that is not the key's client", async () => {
      const other = await t.newClient({ name: 'Other' });
      const res = await authenticate({ key: client.apiKey, client_id: other.id });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ status: 'error', message: 'API Key not valid' });
    });

    it('for a revoked key', async () => {
      const c = await t.newClient({ name: 'Revoked' });
      expect((await authenticate({ key: c.apiKey })).statusCode).toBe(200);
      await revokeKeys(t.deps, c.id, undefined, CLI_ACTOR);
      expect((await authenticate({ key: c.apiKey })).json()).toEqual({
        status: 'error',
        message: 'API Key not valid',
      });
    });

    it('for a key that expired after rotation; the new key works', async () => {
      const c = await t.newClient({ name: 'Rotated' });
      const newKey = await rotateKey(t.deps, c.id, 0, CLI_ACTOR);
      expect((await authenticate({ key: c.apiKey })).statusCode).toBe(401);
      expect((await authenticate({ key: newKey })).statusCode).toBe(200);
    });

    it('keeps the old key working during the rotation grace period', async () => {
      const c = await t.newClient({ name: 'Graceful' });
      const newKey = await rotateKey(t.deps, c.id, 3600, CLI_ACTOR);
      expect((await authenticate({ key: c.apiKey })).statusCode).toBe(200);
      expect((await authenticate({ key: newKey })).statusCode).toBe(200);
    });

    it('stops tokens issued with a key once the key is revoked', async () => {
      const c = await t.newClient({ name: 'Revoked later' });
      const body = (await authenticate({ key: c.apiKey })).json<Record<string, string>>();
      expect(await verifyToken(t.deps, body.refresh_token!, 'upload')).toBeDefined();
      await revokeKeys(t.deps, c.id, undefined, CLI_ACTOR);
      expect(await verifyToken(t.deps, body.refresh_token!, 'upload')).toBeUndefined();
    });
  });

  describe('405 Method not allowed', () => {
    it.each(['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const)('for %s', async (method) => {
      const res = await t.app.inject({ method, url: '/api/authenticate' });
      expect(res.statusCode).toBe(405);
      expect(res.headers.allow).toBe('POST');
      expect(res.json()).toEqual({ status: 'error', message: 'Method not allowed' });
    });

    it('for HEAD, with no body', async () => {
      const res = await t.app.inject({ method: 'HEAD', url: '/api/authenticate' });
      expect(res.statusCode).toBe(405);
    });
  });

  describe('429 on repeated failures from one address', () => {
    it('blocks the address after the limit, with Retry-After, even for the right key', async () => {
      const address = nextAddress();
      for (let i = 0; i < AUTH_FAILURE_LIMIT; i++) {
        expect((await authenticate({ key: 'wk_live_wrong' }, { address })).statusCode).toBe(401);
      }
      const blocked = await authenticate({ key: client.apiKey }, { address });
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json()).toEqual({ status: 'error', message: 'API call limit exceeded' });
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(600);
    });

    it('does not count successes, nor block other addresses', async () => {
      const address = nextAddress();
      for (let i = 0; i < AUTH_FAILURE_LIMIT * 2; i++) {
        expect((await authenticate({ key: client.apiKey }, { address })).statusCode).toBe(200);
      }
      for (let i = 0; i < AUTH_FAILURE_LIMIT; i++) await authenticate({ key: 'wk_live_wrong' }, { address });
      expect((await authenticate({ key: client.apiKey }, { address: nextAddress() })).statusCode).toBe(200);
    });
  });

  describe('POST /api/refresh (renewal with the access_token)', () => {
    const refresh = (token?: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/refresh',
        headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
      });

    it('renews once: a new session and tokens; the same access_token again gives 401 Token not valid', async () => {
      const first = (await authenticate({ key: client.apiKey })).json<Record<string, string>>();
      const renewed = await refresh(first.access_token);
      expect(renewed.statusCode).toBe(200);
      const body = renewed.json<Record<string, string>>();
      expect(Object.keys(body).sort()).toEqual(['access_token', 'refresh_token', 'session']);
      expect(body.session).not.toBe(first.session);
      expect(decodeJwt(body.refresh_token!).sub).toBe(client.id);

      const again = await refresh(first.access_token);
      expect(again.statusCode).toBe(401);
      expect(again.json()).toEqual({ status: 'error', message: 'Token not valid' });
    });

    it('renews exactly once under concurrency', async () => {
      const { access_token } = (await authenticate({ key: client.apiKey })).json<Record<string, string>>();
      const results = await Promise.all(Array.from({ length: 10 }, () => refresh(access_token)));
      expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
      expect(results.filter((r) => r.statusCode === 401)).toHaveLength(9);
    });

    it.each([
      ['no Authorization header', undefined],
      ['a malformed token', 'not-a-jwt'],
    ])('401 for %s', async (_what, token) => {
      const res = await refresh(token);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ status: 'error', message: 'Token not valid' });
    });

    it('401 for the refresh_token (it is the upload credential, not the renewal one)', async () => {
      const { refresh_token } = (await authenticate({ key: client.apiKey })).json<Record<string, string>>();
      expect((await refresh(refresh_token)).statusCode).toBe(401);
    });

    it('401 for a token whose signature was altered', async () => {
      const { access_token } = (await authenticate({ key: client.apiKey })).json<Record<string, string>>();
      const [h, p, s] = access_token!.split('.');
      const tampered = `${h}.${p}.${s!.slice(0, -4)}${s!.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;
      expect((await refresh(tampered)).statusCode).toBe(401);
    });

    it('405 for other methods', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/refresh' });
      expect(res.statusCode).toBe(405);
      expect(res.json()).toEqual({ status: 'error', message: 'Method not allowed' });
    });
  });

  describe('signing key rotation', () => {
    it('keeps tokens issued before the rotation valid and signs new ones with the new key, also across a change of algorithm', async () => {
      const before = (await authenticate({ key: client.apiKey })).json<Record<string, string>>();
      const kid = await rotateSigningKey(t.deps, { alg: 'EdDSA', verifyForSeconds: 86400 }, CLI_ACTOR);
      // This process caches the key ring; a fresh ring reads the rotation at once.
      const { createKeyRing } = await import('../../src/services/signing-keys.js');
      const keys = createKeyRing(t.deps, { cacheMs: 0 });
      const deps = { ...t.deps, keys };
      expect(await verifyToken(deps, before.refresh_token!, 'upload')).toMatchObject({ clientId: client.id });
      expect(await keys.signer()).toMatchObject({ kid, alg: 'EdDSA' });
      expect(decodeProtectedHeader(before.refresh_token!).alg).toBe('ES256');
      const jwks = await keys.jwks();
      expect(jwks.keys.map((k) => k.kid)).toEqual(
        expect.arrayContaining([kid, decodeProtectedHeader(before.refresh_token!).kid]),
      );
    });
  });

  describe('storage of keys', () => {
    it('keeps only a hash and a visible prefix of the API key', async () => {
      const rows = await t.deps.db
        .selectFrom('api_keys')
        .selectAll()
        .where('client_id', '=', client.id)
        .execute();
      expect(rows).toHaveLength(1);
      const text = JSON.stringify(rows);
      expect(text).not.toContain(client.apiKey);
      expect(client.apiKey.startsWith(rows[0]!.prefix)).toBe(true);
      expect(rows[0]!.prefix).toMatch(/^wk_live_.{6}$/);
    });

    it('keeps the webhook secret and signing keys encrypted', async () => {
      const c = await t.newClient({ name: 'Secret' });
      const row = await t.deps.db
        .selectFrom('clients')
        .selectAll()
        .where('id', '=', c.id)
        .executeTakeFirstOrThrow();
      expect(row.webhook_secret_enc).not.toContain(c.webhookSecret.slice(6));
      expect(t.deps.secrets.open(row.webhook_secret_enc)).toBe(c.webhookSecret);
      const keys = await t.deps.db.selectFrom('signing_keys').select('private_jwk_enc').execute();
      for (const k of keys) expect(k.private_jwk_enc).not.toMatch(/"d"/);
    });
  });

  describe('every response', () => {
    it('carries x-request-id, echoing a sane id the caller sent', async () => {
      const own = await t.app.inject({ url: '/healthz', headers: { 'x-request-id': 'abc-123' } });
      expect(own.headers['x-request-id']).toBe('abc-123');
      const junk = await t.app.inject({ url: '/healthz', headers: { 'x-request-id': 'bad id\u0001' } });
      expect(junk.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      for (const res of [await authenticate({}), await t.app.inject({ url: '/nowhere' })]) {
        expect(res.headers['x-request-id']).toBeTruthy();
      }
    });
  });
});
