// API keys: random, shown once, stored as a SHA-256 hash with a visible prefix (docs/api.md#concepts).
import crypto from 'node:crypto';
import { API_KEY_PREFIX, looksLikeApiKey, visiblePrefix } from '../domain/secret-formats.js';
import type { ApiKeyRow, ClientRow, Db } from '../ports/database.js';

const sha256 = (text: string): Buffer => crypto.createHash('sha256').update(text).digest();

/** Creates a key for the client and returns it in clear, the only time it exists in clear. */
export async function issueApiKey(
  db: Db,
  clientId: string,
  now: number,
): Promise<{ key: string; row: ApiKeyRow }> {
  const key = API_KEY_PREFIX + crypto.randomBytes(24).toString('base64url');
  const row: ApiKeyRow = {
    id: crypto.randomUUID(),
    client_id: clientId,
    prefix: visiblePrefix(key),
    key_hash: sha256(key).toString('hex'),
    created_at: now,
    expires_at: null,
    revoked_at: null,
    last_used_at: null,
  };
  await db.insertInto('api_keys').values(row).execute();
  return { key, row };
}

export interface KeyOwner {
  client: ClientRow;
  apiKeyId: string;
  keyLastUsedAt: number | null;
}

/** The client a key belongs to, when the key is live (not revoked, not expired); undefined otherwise. */
/**
 * The lookup by key hash, built and compiled once per database: every call of every `x-api-key` route
 * and of /api/authenticate makes it, and building Kysely's query anew each time cost more than running it.
 */
const ownerLookups = new WeakMap<Db, ReturnType<typeof compileOwnerLookup>>();
const compileOwnerLookup = (db: Db) =>
  db
    .selectFrom('api_keys')
    .innerJoin('clients', 'clients.id', 'api_keys.client_id')
    .selectAll('clients')
    .select([
      'api_keys.id as api_key_id',
      'api_keys.key_hash',
      'api_keys.revoked_at',
      'api_keys.expires_at',
      'api_keys.last_used_at as key_last_used_at',
    ])
    .where('api_keys.key_hash', '=', '')
    .compile();

export async function findKeyOwner(db: Db, key: string, now: number): Promise<KeyOwner | undefined> {
  if (!looksLikeApiKey(key)) return undefined;
  const digest = sha256(key);
  let lookup = ownerLookups.get(db);
  if (!lookup) ownerLookups.set(db, (lookup = compileOwnerLookup(db)));
  const query: typeof lookup = { ...lookup, parameters: [digest.toString('hex')] };
  const [row] = (await db.executeQuery(query)).rows;
  if (!row) return undefined;
  // The lookup is by hash already; the constant-time compare keeps the check itself free of timing leaks.
  if (!crypto.timingSafeEqual(Buffer.from(row.key_hash, 'hex'), digest)) return undefined;
  if (row.revoked_at !== null || (row.expires_at !== null && row.expires_at <= now)) return undefined;
  const { api_key_id, key_last_used_at, key_hash, revoked_at, expires_at, ...client } = row;
  return { client, apiKeyId: api_key_id, keyLastUsedAt: key_last_used_at };
}

/** Whether a key is still live: tokens issued with it stop working once it is revoked or expired. */
export async function isApiKeyLive(db: Db, apiKeyId: string, now: number): Promise<boolean> {
  const row = await db
    .selectFrom('api_keys')
    .select(['revoked_at', 'expires_at'])
    .where('id', '=', apiKeyId)
    .executeTakeFirst();
  return row !== undefined && row.revoked_at === null && (row.expires_at === null || row.expires_at > now);
}

const TOUCH_EVERY_MS = 60_000;

/** Records a key's use at most once a minute, so authentication stays a read in steady state. */
export async function touchApiKey(db: Db, owner: KeyOwner, now: number): Promise<void> {
  if (owner.keyLastUsedAt !== null && owner.keyLastUsedAt > now - TOUCH_EVERY_MS) return;
  await db.updateTable('api_keys').set({ last_used_at: now }).where('id', '=', owner.apiKeyId).execute();
}
