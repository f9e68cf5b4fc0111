// Portal users: operators (all clients) and client users (their own client only). Passwords are hashed
// with scrypt (Node's built-in, memory-hard KDF) and a per-user salt.
import crypto from 'node:crypto';
import { promisify } from 'node:util';
import { AppError } from '../domain/errors.js';
import type { Db, PortalUserRow } from '../ports/database.js';

const invalidUser = (reason: string) => new AppError('USER_INVALID', { params: { reason } });

const scrypt = promisify(crypto.scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  opts: crypto.ScryptOptions,
) => Promise<Buffer>;
const SCRYPT = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const hash = await scrypt(password, salt, 32, SCRYPT);
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: SCRYPT.maxmem,
  });
  return crypto.timingSafeEqual(actual, expected);
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export async function createPortalUser(
  deps: { db: Db; now: () => number },
  input: { email: string; password: string; role: 'operator' | 'client'; clientId?: string },
): Promise<PortalUserRow> {
  const email = input.email.trim().toLowerCase();
  if (!EMAIL.test(email)) throw invalidUser(`${input.email} is not an e-mail address`);
  if (input.password.length < 12) throw invalidUser('password must have at least 12 characters');
  if (input.role === 'client' && input.clientId === undefined)
    throw invalidUser('a client user needs --client');
  if (input.role === 'operator' && input.clientId !== undefined)
    throw invalidUser('an operator belongs to no client');
  if (input.clientId !== undefined) {
    const client = await deps.db
      .selectFrom('clients')
      .select('id')
      .where('id', '=', input.clientId)
      .executeTakeFirst();
    if (!client) throw new AppError('CLIENT_NOT_FOUND', { params: { id: input.clientId } });
  }
  const taken = await deps.db
    .selectFrom('portal_users')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirst();
  if (taken) throw invalidUser(`A user with e-mail ${email} exists already`);
  const row: PortalUserRow = {
    id: crypto.randomUUID(),
    email,
    password_hash: await hashPassword(input.password),
    role: input.role,
    client_id: input.clientId ?? null,
    created_at: deps.now(),
  };
  await deps.db.insertInto('portal_users').values(row).execute();
  return row;
}
