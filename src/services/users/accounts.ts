// Portal users: operators (all clients) and client users (their own client only). Passwords are hashed
// with scrypt (Node's built-in, memory-hard KDF) and a per-user salt.
import { recordAudit, SYSTEM_ACTOR, type AuditActor } from '../audit.js';
import crypto from 'node:crypto';
import { promisify } from 'node:util';
import { AppError } from '../../domain/errors.js';
import { inTransaction, type Db, type PortalRole, type PortalUserRow } from '../../ports/database.js';
import { checkPassword } from './passwords.js';

export const invalidUser = (reason: string) => new AppError('USER_INVALID', { params: { reason } });

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

export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The password of a user invited from the portal who has not chosen one yet: no password verifies
 * against it (it is not a hash), so the account cannot be signed in to until its link is used.
 */
export const NO_PASSWORD = '';
export const hasPassword = (user: Pick<PortalUserRow, 'password_hash'>): boolean =>
  user.password_hash !== NO_PASSWORD;

export const PORTAL_ROLES: readonly PortalRole[] = ['operator', 'client_admin', 'client_viewer'];

/** A client user belongs to one client; an operator to none. */
export function checkRoleAndClient(role: PortalRole, clientId: string | null | undefined) {
  if (role !== 'operator' && (clientId === undefined || clientId === null))
    throw invalidUser('a client user needs --client');
  if (role === 'operator' && clientId !== undefined && clientId !== null)
    throw invalidUser('an operator belongs to no client');
}

/** A user as the audit log records them (never the password's hash). */
export const userView = (user: PortalUserRow) => ({
  email: user.email,
  role: user.role,
  client_id: user.client_id,
  disabled: user.disabled_at !== null,
});
export const userObject = (user: Pick<PortalUserRow, 'id'>) => ({ type: 'user', id: user.id });

export async function createPortalUser(
  deps: { db: Db; now: () => number },
  input: { email: string; password: string; role: PortalRole; clientId?: string },
  by: AuditActor = SYSTEM_ACTOR,
): Promise<PortalUserRow> {
  const email = normaliseEmail(input.email);
  if (!EMAIL.test(email)) throw invalidUser(`${input.email} is not an e-mail address`);
  await checkPassword(input.password);
  checkRoleAndClient(input.role, input.clientId);
  if (input.clientId !== undefined) {
    const client = await deps.db
      .selectFrom('clients')
      .select('id')
      .where('id', '=', input.clientId)
      .executeTakeFirst();
    if (!client) throw new AppError('CLIENT_NOT_FOUND', { params: { id: input.clientId } });
  }
  await requireFreeEmail(deps.db, email);
  const row: PortalUserRow = {
    id: crypto.randomUUID(),
    email,
    password_hash: await hashPassword(input.password),
    role: input.role,
    client_id: input.clientId ?? null,
    disabled_at: null,
    created_at: deps.now(),
  };
  await inTransaction(deps.db, async (trx) => {
    await insertPortalUser(trx, row);
    await recordAudit(trx, row.created_at, {
      actor: by,
      action: 'user.create',
      object: userObject(row),
      clientId: row.client_id,
      after: userView(row),
    });
  });
  return row;
}

const emailTaken = (email: string) => invalidUser(`A user with e-mail ${email} exists already`);

/** Refuses an e-mail address that is a user's already. */
export async function requireFreeEmail(db: Db, email: string): Promise<void> {
  const taken = await db
    .selectFrom('portal_users')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirst();
  if (taken) throw emailTaken(email);
}

/** Adds the user; an e-mail taken meanwhile (two requests at once) is refused as one taken before. */
export async function insertPortalUser(db: Db, user: PortalUserRow): Promise<void> {
  try {
    await db.insertInto('portal_users').values(user).execute();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505') throw emailTaken(user.email);
    throw error;
  }
}

/** E-mail addresses are compared as typed, but trimmed and in lower case. */
export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

export async function findPortalUser(db: Db, email: string): Promise<PortalUserRow | undefined> {
  return db
    .selectFrom('portal_users')
    .selectAll()
    .where('email', '=', normaliseEmail(email))
    .executeTakeFirst();
}

/** The user of an e-mail address; USER_INVALID naming it when there is none (the CLI's commands). */
export async function userByEmail(db: Db, email: string): Promise<PortalUserRow> {
  const user = await findPortalUser(db, email);
  if (!user) throw invalidUser(`No user with e-mail ${normaliseEmail(email)}`);
  return user;
}

/**
 * A new password for the user (the CLI's reset): their sessions end, so a stolen session does not outlive
 * the reset.
 */
export async function resetPassword(
  deps: { db: Db; now: () => number },
  input: { email: string; password: string },
  by: AuditActor,
): Promise<PortalUserRow> {
  await checkPassword(input.password);
  const user = await userByEmail(deps.db, input.email);
  const password_hash = await hashPassword(input.password);
  await inTransaction(deps.db, async (trx) => {
    await trx.updateTable('portal_users').set({ password_hash }).where('id', '=', user.id).execute();
    await trx.deleteFrom('portal_sessions').where('user_id', '=', user.id).execute();
    await recordAudit(trx, deps.now(), {
      actor: by,
      action: 'user.reset_password',
      object: userObject(user),
      clientId: user.client_id,
    });
  });
  return { ...user, password_hash };
}

/** Changes a user's role or client, or disables or enables them; disabling ends their sessions. */
export async function updatePortalUser(
  deps: { db: Db; now: () => number },
  input: { email: string; role?: PortalRole; clientId?: string | null; disabled?: boolean },
  by: AuditActor,
): Promise<PortalUserRow> {
  const user = await userByEmail(deps.db, input.email);
  const role = input.role ?? user.role;
  const clientId =
    input.clientId !== undefined ? input.clientId : role === 'operator' ? null : user.client_id;
  checkRoleAndClient(role, clientId);
  const disabled_at = input.disabled === undefined ? user.disabled_at : input.disabled ? deps.now() : null;
  const changes = { role, client_id: clientId, disabled_at };
  await inTransaction(deps.db, async (trx) => {
    await trx.updateTable('portal_users').set(changes).where('id', '=', user.id).execute();
    if (disabled_at !== null || role !== user.role || clientId !== user.client_id)
      await trx.deleteFrom('portal_sessions').where('user_id', '=', user.id).execute();
    await recordAudit(trx, deps.now(), {
      actor: by,
      action: 'user.update',
      object: userObject(user),
      // Moving a user between clients concerns both: the entry goes with the one they end up in.
      clientId: clientId ?? user.client_id,
      before: userView(user),
      after: userView({ ...user, ...changes }),
    });
  });
  return { ...user, ...changes };
}

export async function listPortalUsers(db: Db): Promise<PortalUserRow[]> {
  return db.selectFrom('portal_users').selectAll().orderBy('email').execute();
}
