// The baseline of bench/authenticate.ts: a bare Fastify route that only signs the same two JWTs
// (same library, algorithm and claims) and answers the same JSON shape. No database, no checks.
import crypto from 'node:crypto';
import fastify from 'fastify';
import { generateKeyPair, SignJWT } from 'jose';

const port = Number(process.env.PORT);
// The service's setting, so that both sign with the same algorithm.
const alg = process.env.JWT_ALGORITHM ?? 'ES256';
const { privateKey } = await generateKeyPair(alg);
const kid = crypto.randomUUID();
const app = fastify({ logger: { level: process.env.LOG_LEVEL ?? 'info' } });

app.post('/api/authenticate', async () => {
  const session = crypto.randomUUID();
  const issuedAt = Math.floor(Date.now() / 1000);
  const sign = (use: string, ttl: number) =>
    new SignJWT({ sid: session, akid: kid, use })
      .setProtectedHeader({ alg, kid, typ: 'JWT' })
      .setIssuer('walkaround')
      .setAudience('walkaround')
      .setSubject(kid)
      .setJti(crypto.randomUUID())
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + ttl)
      .sign(privateKey);
  const [refresh_token, access_token] = await Promise.all([sign('upload', 3600), sign('renew', 86400)]);
  return { session, access_token, refresh_token };
});

await app.listen({ port, host: '127.0.0.1' });
process.stdout.write('walkaround started\n');
