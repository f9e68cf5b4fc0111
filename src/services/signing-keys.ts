// JWT signing keys, kept in the database (so every process signs and verifies alike) with the private
// half sealed under the master key. Rotation adds a key that signs from then on; the older ones keep
// verifying until every token they signed has expired, so no issued token is invalidated.
import { recordAudit, SYSTEM_ACTOR, type AuditActor } from './audit.js';
import crypto from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import type { SecretBox } from '../ports/secret-box.js';
import type { Db } from '../ports/database.js';

/** The JWS algorithms a signing key may use (`JWT_ALGORITHM`, docs/adr/0008-jwt-algorithm.md). */
export const SIGNING_ALGORITHMS = ['ES256', 'EdDSA'] as const;
export type SigningAlg = (typeof SIGNING_ALGORITHMS)[number];

interface Deps {
  db: Db;
  secrets: SecretBox;
  now: () => number;
}

export interface SigningKey {
  kid: string;
  alg: SigningAlg;
  key: CryptoKey;
}

/** A public key and the one algorithm it verifies (a token naming another is refused). */
export interface VerifyingKey {
  alg: SigningAlg;
  key: CryptoKey;
}

interface Ring {
  loadedAt: number;
  signer: SigningKey;
  verifiers: Map<string, VerifyingKey>;
  jwks: JWK[];
}

export interface KeyRing {
  signer(): Promise<SigningKey>;
  /** The public key for `kid`, re-reading the database once when the kid is new to this process. */
  verifier(kid: string): Promise<VerifyingKey | undefined>;
  jwks(): Promise<{ keys: JWK[] }>;
}

export function createKeyRing(deps: Deps, opts: { cacheMs: number }): KeyRing {
  let ring: Promise<Ring> | undefined;
  let lastLoad = 0;

  const load = (): Promise<Ring> => {
    lastLoad = deps.now();
    const loading = loadRing(deps).catch((error: unknown) => {
      ring = undefined;
      throw error;
    });
    ring = loading;
    return loading;
  };
  const current = (): Promise<Ring> => (ring && deps.now() - lastLoad < opts.cacheMs ? ring : load());

  return {
    signer: async () => (await current()).signer,
    async verifier(kid) {
      const known = (await current()).verifiers.get(kid);
      if (known || deps.now() - lastLoad < 1000) return known;
      return (await load()).verifiers.get(kid);
    },
    jwks: async () => ({ keys: (await current()).jwks }),
  };
}

async function loadRing(deps: Deps): Promise<Ring> {
  const now = deps.now();
  const rows = await deps.db
    .selectFrom('signing_keys')
    .selectAll()
    .where((eb) => eb.or([eb('retired_at', 'is', null), eb('retired_at', '>', now)]))
    .orderBy('created_at', 'desc')
    .orderBy('kid', 'desc')
    .execute();
  const newest = rows[0];
  if (!newest) throw new Error('No JWT signing key: run `walkaround migrate` or start the service once');
  const verifiers = new Map<string, VerifyingKey>();
  const jwks: JWK[] = [];
  for (const row of rows) {
    const jwk = JSON.parse(row.public_jwk) as JWK;
    const alg = signingAlg(row.alg);
    verifiers.set(row.kid, { alg, key: (await importJWK(jwk, alg)) as CryptoKey });
    jwks.push(jwk);
  }
  let privateJwk: JWK;
  try {
    privateJwk = JSON.parse(deps.secrets.open(newest.private_jwk_enc)) as JWK;
  } catch (cause) {
    throw new Error(
      'SECRET_KEY does not decrypt the JWT signing keys in the database: every process must share one SECRET_KEY',
      { cause },
    );
  }
  return {
    loadedAt: now,
    signer: {
      kid: newest.kid,
      alg: signingAlg(newest.alg),
      key: (await importJWK(privateJwk, newest.alg)) as CryptoKey,
    },
    verifiers,
    jwks,
  };
}

/** How long a retired key must still verify: the longest lifetime of a token it may have signed. */
export const longestTokenLifetime = (config: {
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
}): number => Math.max(config.accessTokenTtlSeconds, config.refreshTokenTtlSeconds);

const signingAlg = (alg: string): SigningAlg => {
  if ((SIGNING_ALGORITHMS as readonly string[]).includes(alg)) return alg as SigningAlg;
  throw new Error(`Signing key with unsupported algorithm ${alg}`);
};

/**
 * Makes sure a key of `alg` signs: creates one when none is in use, and rotates to a new one when the
 * one in use has another algorithm (the setting changed), so tokens signed before stay valid until they
 * expire (`verifyForSeconds`, the longest token lifetime). Returns the new kid, or undefined.
 */
export async function ensureSigningKey(
  deps: Deps,
  opts: { alg: SigningAlg; verifyForSeconds: number },
): Promise<string | undefined> {
  const live = await deps.db
    .selectFrom('signing_keys')
    .select(['kid', 'alg'])
    .where('retired_at', 'is', null)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  if (live?.alg === opts.alg) return undefined;
  if (!live) return addSigningKey(deps, deps.now(), opts.alg);
  // The setting changed: the service itself rotates, at start.
  return rotateSigningKey(deps, opts, SYSTEM_ACTOR);
}

/**
 * Adds a key that signs from now on. Keys in use before it are retired after `verifyForSeconds` (the
 * longest token lifetime), so tokens they signed stay valid until they expire.
 */
export async function rotateSigningKey(
  deps: Deps,
  opts: { alg: SigningAlg; verifyForSeconds: number },
  by: AuditActor,
): Promise<string> {
  const now = deps.now();
  return deps.db.transaction().execute(async (trx) => {
    const retiredAt = now + opts.verifyForSeconds * 1000;
    await trx
      .updateTable('signing_keys')
      .set({ retired_at: retiredAt })
      .where('retired_at', 'is', null)
      .execute();
    const kid = await addSigningKey({ ...deps, db: trx }, now, opts.alg);
    await recordAudit(trx, now, {
      actor: by,
      action: 'signing_key.rotate',
      object: { type: 'signing_key', id: kid },
      clientId: null,
      after: { alg: opts.alg, earlier_keys_verify_until: new Date(retiredAt).toISOString() },
    });
    return kid;
  });
}

export async function listSigningKeys(db: Db) {
  return db
    .selectFrom('signing_keys')
    .select(['kid', 'alg', 'created_at', 'retired_at'])
    .orderBy('created_at')
    .execute();
}

async function addSigningKey(deps: Deps, now: number, alg: SigningAlg): Promise<string> {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  const kid = crypto.randomUUID();
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg };
  await deps.db
    .insertInto('signing_keys')
    .values({
      kid,
      alg,
      public_jwk: JSON.stringify(publicJwk),
      private_jwk_enc: deps.secrets.seal(JSON.stringify(privateJwk)),
      created_at: now,
      retired_at: null,
    })
    .execute();
  return kid;
}
