// Forged, altered and misused JWTs against the real app (docs/api.md#token-lifetimes): every one is
// answered with the route's documented 401 body, never a 5xx, and never lets the caller in. The routes
// that take the JWTs are POST /api/upload (the refresh_token) and POST /api/refresh (the access_token);
// the read APIs and the capture API must not take them in place of an API key or a link token either.
import crypto, { KeyObject } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPersona } from '../../src/services/personas/manage.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { BACKENDS } from '../helpers/backends.js';
import { SIGNING_ALGORITHMS } from '../../src/services/signing-keys.js';
import { photo } from '../helpers/media.js';

type Json = Record<string, unknown>;

interface Credentials {
  session: string;
  access_token: string;
  refresh_token: string;
}

const b64 = (value: unknown) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
const signingInput = (header: unknown, payload: unknown) => `${b64(header)}.${b64(payload)}`;
const hmac = (alg: 'HS256' | 'HS384' | 'HS512', header: Json, payload: Json, secret: string | Buffer) => {
  const input = signingInput({ ...header, alg }, payload);
  const digest = { HS256: 'sha256', HS384: 'sha384', HS512: 'sha512' }[alg];
  return `${input}.${crypto.createHmac(digest, secret).update(input).digest('base64url')}`;
};
/** Signs exactly the header and payload given (any header, any claims) with an Ed25519 or P-256 key. */
const sign = (header: Json, payload: unknown, key: KeyObject) => {
  const input = signingInput(header, payload);
  const signature =
    key.asymmetricKeyType === 'ed25519'
      ? crypto.sign(null, Buffer.from(input), key)
      : crypto.sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' });
  return `${input}.${signature.toString('base64url')}`;
};

/** A server that stands for an attacker's key host: it must never be asked for anything. */
async function keyHost() {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    res.setHeader('content-type', 'application/json');
    res.end('{"keys":[]}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, requests, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const CASES = BACKENDS.flatMap((backend) => SIGNING_ALGORITHMS.map((alg) => [backend, alg] as const));

describe.each(CASES)('forged and misused JWTs on %s, signing with %s', (backend, alg) => {
  let t: TestApp;
  let clientA: { id: string; apiKey: string };
  let clientB: { id: string; apiKey: string };
  let host: Awaited<ReturnType<typeof keyHost>>;
  let realKid: string;
  let realKey: KeyObject;
  let publicJwk: JWK;
  let attacker: { key: KeyObject; jwk: JWK };
  let linkToken: string;
  let address = 0;
  /** Each request from its own address, so no failure limit of any route turns a 401 into a 429. */
  const nextAddress = () => `203.0.113.${(++address % 250) + 1}`;

  const authenticate = async (key: string): Promise<Credentials> => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/authenticate',
      remoteAddress: nextAddress(),
      payload: { key },
    });
    expect(res.statusCode).toBe(200);
    return res.json<Credentials>();
  };

  beforeAll(async () => {
    t = await startTestApp(backend, { JWT_ALGORITHM: alg });
    host = await keyHost();
    clientA = await t.newClient({ name: 'Client A', webhookUrl: 'https://hooks.example.com/a' });
    clientB = await t.newClient({ name: 'Client B', webhookUrl: 'https://hooks.example.com/b' });
    const signer = await t.deps.keys.signer();
    realKid = signer.kid;
    realKey = KeyObject.from(signer.key);
    const jwks = (await t.app.inject({ url: '/.well-known/jwks.json' })).json<{ keys: JWK[] }>();
    publicJwk = jwks.keys.find((k) => k.kid === realKid)!;
    const pair = await generateKeyPair(alg, { extractable: true });
    attacker = { key: KeyObject.from(pair.privateKey), jwk: await exportJWK(pair.publicKey) };
    const personaId = (await createPersona(t.deps, { clientId: clientA.id, kind: 'photo' })).id;
    const link = await t.app.inject({
      method: 'POST',
      url: '/superappToken',
      payload: { apiKey: clientA.apiKey, personaId },
    });
    linkToken = link.json<{ token: string }>().token;
  });
  afterAll(async () => {
    await t?.close();
    await host?.close();
  });

  /** The forgeries of one genuine token: each name says what was done to it. */
  function forgeries(genuine: string): [string, string][] {
    const [h, p, s] = genuine.split('.') as [string, string, string];
    const header = decodeProtectedHeader(genuine) as Json;
    const claims = decodeJwt(genuine) as Json;
    const now = Math.floor(Date.now() / 1000);
    const spki = crypto.createPublicKey({ key: publicJwk as crypto.JsonWebKey, format: 'jwk' });
    const pem = spki.export({ type: 'spki', format: 'pem' }).toString();
    const der = spki.export({ type: 'spki', format: 'der' });
    const raw = Buffer.from(publicJwk.x!, 'base64url');
    const strangers = {
      kid: crypto.randomUUID(),
      jwk: { ...attacker.jwk, kid: 'attacker' },
    };
    const list: [string, string][] = [];
    const add = (name: string, token: string) => list.push([name, token]);

    // alg none, in several casings, with an empty, a missing and the original signature.
    for (const alg of ['none', 'None', 'NONE', 'nOnE']) {
      const input = signingInput({ alg, typ: 'JWT', kid: realKid }, claims);
      add(`alg ${alg}, empty signature`, `${input}.`);
      add(`alg ${alg}, no signature part`, input);
      add(`alg ${alg}, the original signature`, `${input}.${s}`);
      add(`alg ${alg}, no kid`, `${signingInput({ alg, typ: 'JWT' }, claims)}.`);
    }

    // HMAC with the public key as the secret, in every form an attacker can download.
    const secrets: [string, string | Buffer][] = [
      ['the raw public key bytes', raw],
      ['the base64url x of the JWK', publicJwk.x!],
      ['the PEM', pem],
      ['the PEM without its last newline', pem.trimEnd()],
      ['the DER', der],
      ['the JWK JSON as served', JSON.stringify(publicJwk)],
      ['the bare JWK JSON', JSON.stringify({ crv: publicJwk.crv, kty: publicJwk.kty, x: publicJwk.x })],
      ['an empty secret', ''],
    ];
    for (const [what, secret] of secrets) {
      add(`HS256 keyed with ${what}`, hmac('HS256', { typ: 'JWT', kid: realKid }, claims, secret));
    }
    add('HS384 keyed with the PEM', hmac('HS384', { typ: 'JWT', kid: realKid }, claims, pem));
    add('HS512 keyed with the PEM', hmac('HS512', { typ: 'JWT', kid: realKid }, claims, pem));

    // Keys the token brings along, or says where to fetch.
    add('an embedded jwk header, no kid', sign({ alg, jwk: strangers.jwk }, claims, attacker.key));
    add(
      'an embedded jwk header with the real kid',
      sign({ alg, kid: realKid, jwk: strangers.jwk }, claims, attacker.key),
    );
    add(
      'an embedded jwk header with its own kid',
      sign({ alg, kid: 'attacker', jwk: strangers.jwk }, claims, attacker.key),
    );
    for (const field of ['jku', 'x5u']) {
      add(
        `a ${field} header with a foreign kid`,
        sign({ alg, kid: strangers.kid, [field]: `${host.url}/jwks.json` }, claims, attacker.key),
      );
      add(
        `a ${field} header with the real kid`,
        sign({ alg, kid: realKid, [field]: `${host.url}/jwks.json` }, claims, attacker.key),
      );
    }
    add('an x5c header', sign({ alg, kid: realKid, x5c: [der.toString('base64')] }, claims, attacker.key));

    // Key ids that are not ours, or that try to be something else than an id.
    add('a foreign kid', sign({ alg, kid: strangers.kid }, claims, attacker.key));
    add('no kid, signed by another key', sign({ alg }, claims, attacker.key));
    const hostileKids: [string, unknown][] = [
      ['a path traversal', '../../../../../../dev/null'],
      ['a path traversal to a file', '../../../../etc/passwd'],
      ['an SQL tautology', "' OR '1'='1"],
      ['an SQL statement', "x'; DROP TABLE signing_keys; --"],
      ['a UNION', `' UNION SELECT '${realKid}' --`],
      ['a NUL byte', `${realKid}\u0000`],
      ['the real kid with a suffix', `${realKid} `],
      ['an empty string', ''],
      ['10,000 characters', 'k'.repeat(10_000)],
      ['a number', 1],
      ['an object', { $ne: null }],
      ['an array', [realKid]],
      ['null', null],
    ];
    for (const [what, kid] of hostileKids) {
      add(`a kid that is ${what}`, sign({ alg, kid }, claims, attacker.key));
      add(`a kid that is ${what}, HS256 with an empty secret`, hmac('HS256', { kid }, claims, ''));
    }

    // A valid signature, from a key pair that is not ours.
    add('another key pair, with the real kid', sign({ alg, kid: realKid, typ: 'JWT' }, claims, attacker.key));
    const es256 = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    const input = signingInput({ alg: 'ES256', kid: realKid }, claims);
    const es = crypto.sign('sha256', Buffer.from(input), { key: es256, dsaEncoding: 'ieee-p1363' });
    add('ES256 from another key pair, with the real kid', `${input}.${es.toString('base64url')}`);

    // Signed with the real key, so only the named claim is wrong.
    const real = (change: Json, drop: string[] = []) => {
      const payload: Json = { ...claims, ...change };
      for (const name of drop) delete payload[name];
      return sign({ ...header }, payload, realKey);
    };
    add('expired', real({ iat: now - 7200, exp: now - 3600 }));
    add('expired a second ago', real({ exp: now - 1 }));
    add('not yet valid (nbf in an hour)', real({ nbf: now + 3600 }));
    add('without exp', real({}, ['exp']));
    add('an exp that is a string', real({ exp: String(now + 3600) }));
    add('another audience', real({ aud: 'someone-else' }));
    add('an audience list without ours', real({ aud: ['someone-else'] }));
    add('no audience', real({}, ['aud']));
    add('another issuer', real({ iss: 'https://evil.example' }));
    add('no issuer', real({}, ['iss']));
    add('the other use', real({ use: claims.use === 'upload' ? 'renew' : 'upload' }));
    add('no use', real({}, ['use']));
    add('a use in another case', real({ use: String(claims.use).toUpperCase() }));
    add('a use that is a list', real({ use: [claims.use] }));
    add('no sub', real({}, ['sub']));
    add('no sid', real({}, ['sid']));
    add('a sid that is a number', real({ sid: 42 }));
    add('no akid', real({}, ['akid']));
    add('an unknown akid', real({ akid: crypto.randomUUID() }));
    add('no jti', real({}, ['jti']));
    add('a payload that is a list', sign({ ...header }, [claims], realKey));
    add('a payload that is null', sign({ ...header }, null, realKey));
    add('no kid, signed by the real key', sign({ alg, typ: 'JWT' }, claims, realKey));
    add('a critical header it does not know', sign({ ...header, crit: ['exp'] }, claims, realKey));

    // The genuine signature over a changed payload.
    const tampered = (change: Json) => `${h}.${b64({ ...claims, ...change })}.${s}`;
    add("the payload changed to another client's sub", tampered({ sub: clientB.id }));
    add('the payload with a later exp', tampered({ exp: now + 10 * 365 * 86400 }));
    add('the payload with the other use', tampered({ use: claims.use === 'upload' ? 'renew' : 'upload' }));
    add('the payload with an extra claim', tampered({ admin: true }));
    add('the header changed to another kid', `${b64({ ...header, kid: strangers.kid })}.${p}.${s}`);
    add('the signature cut short', `${h}.${p}.${s.slice(0, 20)}`);
    add('the signature of another token', `${h}.${p}.${s.split('').reverse().join('')}`);

    // Framing: dots and parts.
    add('a trailing dot', `${genuine}.`);
    add('a leading dot', `.${genuine}`);
    add('a doubled dot', `${h}..${p}.${s}`);
    add('four parts', `${genuine}.${s}`);
    add('five parts (a JWE shape)', `${h}..${p}..${s}`);
    add('only dots', '...');
    add('two dots', '..');
    add('one part', h);
    add('parts that are not base64url', '!!!.@@@.###');
    add('a header that is not JSON', `${b64('not json')}.${p}.${s}`);
    add('a payload that is not JSON', `${h}.${b64('{"sub":')}.${s}`);
    add('padded base64', `${h}==.${p}.${s}`);

    // Oversized.
    add('a 64 KB header', sign({ alg, kid: realKid, pad: 'x'.repeat(64 * 1024) }, claims, attacker.key));
    add('a 256 KB payload', sign({ ...header }, { ...claims, pad: 'y'.repeat(256 * 1024) }, attacker.key));
    add('a deeply nested header', `${b64('{"a":'.repeat(5000) + '1' + '}'.repeat(5000))}.${p}.${s}`);
    add('200,000 characters of nothing', 'a'.repeat(200_000));
    return list;
  }

  const UPLOAD_401 = { status: 'error', id: '', message: 'Unauthorized', case_id: '' };
  const REFRESH_401 = { status: 'error', message: 'Token not valid' };

  const upload = (token: string, session: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/upload',
      remoteAddress: nextAddress(),
      headers: { authorization: `Bearer ${token}` },
      payload: { type: 'urls', session, case_id: 'forged' },
    });
  const refresh = (token: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/refresh',
      remoteAddress: nextAddress(),
      headers: { authorization: `Bearer ${token}` },
    });

  describe('POST /api/upload (the refresh_token)', () => {
    let credentials: Credentials;
    let cases: [string, string][];
    beforeAll(async () => {
      credentials = await authenticate(clientA.apiKey);
      cases = forgeries(credentials.refresh_token);
    });

    it('the genuine token and a re-signed copy of it get past the check (the forgeries below are tested against a working route)', async () => {
      for (const token of [
        credentials.refresh_token,
        sign(decodeProtectedHeader(credentials.refresh_token), decodeJwt(credentials.refresh_token), realKey),
      ]) {
        const res = await upload(token, credentials.session);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ message: 'urls is required' });
      }
    });

    it('answers 401 "Unauthorized" to every forgery', async () => {
      const wrong: string[] = [];
      for (const [name, token] of cases) {
        const res = await upload(token, credentials.session);
        if (res.statusCode !== 401 || JSON.stringify(res.json()) !== JSON.stringify(UPLOAD_401))
          wrong.push(`${name}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
      expect(wrong).toEqual([]);
      expect(cases.length).toBeGreaterThan(100);
    });

    it('answers 401 to the other credentials: the access_token, a link token, an API key', async () => {
      for (const token of [credentials.access_token, linkToken, clientA.apiKey]) {
        const res = await upload(token, credentials.session);
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual(UPLOAD_401);
      }
    });

    it('never fetches a key from a jku or x5u address', () => {
      expect(host.requests).toEqual([]);
    });

    it("answers client A's token with B's session as a session that is not the token's; B's session stays usable", async () => {
      const b = await authenticate(clientB.apiKey);
      const files = (token: string, session: string) => {
        const boundary = 'forgery-boundary';
        const text = (name: string, value: string) =>
          `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
        const body = Buffer.concat([
          Buffer.from(text('type', 'file') + text('session', session) + text('case_id', 'cross')),
          Buffer.from(
            `--${boundary}\r\ncontent-disposition: form-data; name="files"; filename="front.jpg"\r\ncontent-type: image/jpeg\r\n\r\n`,
          ),
          photo('home.jpg'),
          Buffer.from(`\r\n--${boundary}--\r\n`),
        ]);
        return t.app.inject({
          method: 'POST',
          url: '/api/upload',
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': `multipart/form-data; boundary=${boundary}`,
          },
          payload: body,
        });
      };
      const crossed = await files(credentials.refresh_token, b.session);
      expect(crossed.statusCode).toBe(400);
      // The session is checked as soon as it is read, so case_id (sent after it) is not echoed.
      expect(crossed.json()).toMatchObject({
        status: 'error',
        id: b.session,
        message: 'please generate new token and session',
      });
      const rows = await t.deps.db
        .selectFrom('inspections')
        .select('id')
        .where('id', '=', b.session)
        .execute();
      expect(rows).toEqual([]);
      const own = await files(b.refresh_token, b.session);
      expect(own.statusCode).toBe(200);
      const inspection = await t.deps.db
        .selectFrom('inspections')
        .select('client_id')
        .where('id', '=', b.session)
        .executeTakeFirstOrThrow();
      expect(inspection.client_id).toBe(clientB.id);
    });
  });

  describe('POST /api/refresh (the access_token)', () => {
    let credentials: Credentials;
    let cases: [string, string][];
    beforeAll(async () => {
      credentials = await authenticate(clientA.apiKey);
      cases = forgeries(credentials.access_token);
    });

    it('answers 401 "Token not valid" to every forgery', async () => {
      const wrong: string[] = [];
      for (const [name, token] of cases) {
        const res = await refresh(token);
        if (res.statusCode !== 401 || JSON.stringify(res.json()) !== JSON.stringify(REFRESH_401))
          wrong.push(`${name}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
      expect(wrong).toEqual([]);
    });

    it('answers 401 to the other credentials: the refresh_token, a link token, an API key', async () => {
      for (const token of [credentials.refresh_token, linkToken, clientA.apiKey]) {
        const res = await refresh(token);
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual(REFRESH_401);
      }
    });

    it('renews with the genuine token, once, after all the forgeries (none of them spent it)', async () => {
      const res = await refresh(credentials.access_token);
      expect(res.statusCode).toBe(200);
      expect(decodeJwt(res.json<Credentials>().refresh_token).sub).toBe(clientA.id);
      expect((await refresh(credentials.access_token)).statusCode).toBe(401);
    });
  });

  describe('the read APIs and the capture API do not take a JWT', () => {
    it('answers 401 to the genuine tokens and to their forgeries, as bearer or as x-api-key', async () => {
      const credentials = await authenticate(clientA.apiKey);
      const tokens = [
        credentials.refresh_token,
        credentials.access_token,
        ...forgeries(credentials.refresh_token).map(([, token]) => token),
      ];
      const wrong: string[] = [];
      for (const token of tokens) {
        const attempts = [
          { url: `/api/inspections/${credentials.session}`, headers: { authorization: `Bearer ${token}` } },
          { url: `/api/inspections/${credentials.session}`, headers: { 'x-api-key': token } },
          { url: '/api/personas', headers: { authorization: `Bearer ${token}` } },
          { url: '/app/api/flow', headers: { authorization: `Bearer ${token}` } },
        ];
        for (const attempt of attempts) {
          const res = await t.app.inject({ ...attempt, remoteAddress: nextAddress() });
          const expected = attempt.url.startsWith('/app/') ? 'Link not valid' : 'API Key not valid';
          if (res.statusCode !== 401 || res.json<{ message: string }>().message !== expected)
            wrong.push(`${attempt.url}: ${res.statusCode} ${res.body.slice(0, 120)}`);
        }
      }
      expect(wrong).toEqual([]);
    });
  });
});
