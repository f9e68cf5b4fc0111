// The session JWTs verify with the libraries integrators use, against the published key set: `jose`
// under both algorithms, and `jsonwebtoken` + `jwks-rsa` (the most common pair in Node, which has no
// EdDSA) under the default, ES256 (docs/adr/0008-jwt-algorithm.md).
import { createRemoteJWKSet, jwtVerify } from 'jose';
import jwt, { type JwtHeader, type SigningKeyCallback } from 'jsonwebtoken';
import jwksClient from 'jwks-rsa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { SIGNING_ALGORITHMS } from '../../src/services/signing-keys.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

describe.each(SIGNING_ALGORITHMS)('session JWTs signed with %s', (alg) => {
  let t: TestApp;
  let base: string;
  let tokens: { access_token: string; refresh_token: string };

  beforeAll(async () => {
    t = await startTestApp('sqlite', { JWT_ALGORITHM: alg });
    base = await t.listen();
    const { apiKey } = await t.newClient();
    const res = await fetch(`${base}/api/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key: apiKey }),
    });
    tokens = (await res.json()) as typeof tokens;
  });
  afterAll(async () => t?.close());

  it('verify with jose against /.well-known/jwks.json', async () => {
    const keys = createRemoteJWKSet(new URL(`${base}/.well-known/jwks.json`));
    for (const token of [tokens.access_token, tokens.refresh_token]) {
      const { protectedHeader } = await jwtVerify(token, keys, { audience: 'walkaround' });
      expect(protectedHeader.alg).toBe(alg);
    }
  });

  const verifyWithJsonwebtoken = (token: string) => {
    const client = jwksClient({ jwksUri: `${base}/.well-known/jwks.json` });
    const getKey = (header: JwtHeader, callback: SigningKeyCallback) => {
      client.getSigningKey(header.kid).then(
        (key) => callback(null, key.getPublicKey()),
        (error: Error) => callback(error),
      );
    };
    return new Promise<jwt.JwtPayload>((resolve, reject) =>
      jwt.verify(token, getKey, { algorithms: ['ES256'], audience: 'walkaround' }, (error, payload) =>
        error ? reject(error) : resolve(payload as jwt.JwtPayload),
      ),
    );
  };

  if (alg === 'ES256') {
    it('verify with jsonwebtoken + jwks-rsa, the default', async () => {
      expect(loadConfig({}).jwtAlgorithm).toBe('ES256');
      for (const token of [tokens.access_token, tokens.refresh_token])
        expect((await verifyWithJsonwebtoken(token)).aud).toBe('walkaround');
    });
  } else {
    it('are refused by jsonwebtoken, which has no EdDSA: why ES256 is the default', async () => {
      await expect(verifyWithJsonwebtoken(tokens.refresh_token)).rejects.toThrow();
    });
  }
});
