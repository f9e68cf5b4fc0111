// The credentials of docs/api.md#authenticate: a fresh `session` per exchange and two JWTs carrying the
// client and the session. Deliberate quirk (docs/api.md#deliberate-quirks): the `refresh_token`
// authorises uploads, the `access_token` renews.
// Nothing is written when credentials are issued: a session is spent by the upload that uses it, and an
// access_token by its one renewal (table spent_credentials), so issuing stays a read.
import crypto from 'node:crypto';
import { decodeProtectedHeader, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import type { Db } from '../ports/database.js';
import { isApiKeyLive } from './api-keys.js';
import type { KeyRing } from './signing-keys.js';

export interface Credentials {
  session: string;
  access_token: string;
  refresh_token: string;
}

/** What a token is for; the claim keeps an access_token from passing as an upload credential. */
type TokenUse = 'upload' | 'renew';

export interface TokenSettings {
  issuer: string;
  refreshTokenTtlSeconds: number;
  accessTokenTtlSeconds: number;
}

interface Deps {
  db: Db;
  keys: KeyRing;
  tokens: TokenSettings;
  now: () => number;
}

export interface TokenClaims {
  clientId: string;
  session: string;
  apiKeyId: string;
  tokenId: string;
  expiresAt: number;
}

const AUDIENCE = 'walkaround';

export async function issueCredentials(
  deps: Pick<Deps, 'keys' | 'tokens' | 'now'>,
  owner: { clientId: string; apiKeyId: string },
): Promise<Credentials> {
  const session = crypto.randomUUID();
  const { kid, alg, key } = await deps.keys.signer();
  const issuedAt = Math.floor(deps.now() / 1000);
  const sign = (use: TokenUse, ttl: number) =>
    new SignJWT({ sid: session, akid: owner.apiKeyId, use })
      .setProtectedHeader({ alg, kid, typ: 'JWT' })
      .setIssuer(deps.tokens.issuer)
      .setAudience(AUDIENCE)
      .setSubject(owner.clientId)
      .setJti(crypto.randomUUID())
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + ttl)
      .sign(key);
  const [refresh_token, access_token] = await Promise.all([
    sign('upload', deps.tokens.refreshTokenTtlSeconds),
    sign('renew', deps.tokens.accessTokenTtlSeconds),
  ]);
  return { session, access_token, refresh_token };
}

/**
 * Checks a token's signature, issuer, audience, expiry and use, and that the API key it was issued
 * with is still live. Returns undefined for any token that fails.
 */
export async function verifyToken(
  deps: Deps,
  token: string,
  use: TokenUse,
): Promise<TokenClaims | undefined> {
  let payload: JWTPayload;
  try {
    const { kid } = decodeProtectedHeader(token);
    const verifying = kid === undefined ? undefined : await deps.keys.verifier(kid);
    if (!verifying) return undefined;
    ({ payload } = await jwtVerify(token, verifying.key, {
      algorithms: [verifying.alg],
      issuer: deps.tokens.issuer,
      audience: AUDIENCE,
      currentDate: new Date(deps.now()),
      requiredClaims: ['sub', 'jti', 'exp', 'sid'],
    }));
  } catch {
    return undefined;
  }
  const { sub, jti, exp, sid, akid } = payload;
  if (payload.use !== use || typeof sid !== 'string' || typeof akid !== 'string') return undefined;
  if (!(await isApiKeyLive(deps.db, akid, deps.now()))) return undefined;
  return { clientId: sub!, session: sid, apiKeyId: akid, tokenId: jti!, expiresAt: exp! * 1000 };
}

/**
 * Marks a single-use credential spent; true for the one caller that spends it, false for every other,
 * also under concurrency (the primary key decides).
 */
export async function spendCredential(
  db: Db,
  credential: { kind: 'session' | 'access_token'; id: string; clientId: string; expiresAt: number },
  now: number,
): Promise<boolean> {
  const inserted = await db
    .insertInto('spent_credentials')
    .values({
      id: credential.id,
      kind: credential.kind,
      client_id: credential.clientId,
      spent_at: now,
      expires_at: credential.expiresAt,
    })
    .onConflict((oc) => oc.columns(['kind', 'id']).doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** Renewal (docs/api.md#refresh): a valid access_token, used once, buys a new session and token pair. */
export async function renewCredentials(deps: Deps, accessToken: string): Promise<Credentials | undefined> {
  const claims = await verifyToken(deps, accessToken, 'renew');
  if (!claims) return undefined;
  const spent = await spendCredential(
    deps.db,
    { kind: 'access_token', id: claims.tokenId, clientId: claims.clientId, expiresAt: claims.expiresAt },
    deps.now(),
  );
  if (!spent) return undefined;
  return issueCredentials(deps, { clientId: claims.clientId, apiKeyId: claims.apiKeyId });
}
