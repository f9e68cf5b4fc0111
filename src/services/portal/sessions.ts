// Portal sign-in and sessions (docs/portal.md#signing-in): e-mail and password against the portal
// users, a server-side session whose random token only the cookie holds (the database keeps its SHA-256),
// a CSRF token per session, idle and absolute ends, and failed sign-ins limited per account and per
// address. An unknown e-mail, a wrong password and a disabled account answer alike, in the same time.
import crypto from 'node:crypto';
import { AppError } from '../../domain/errors.js';
import type { AttemptLimiter } from '../../ports/attempt-limiter.js';
import type { Db, PortalRole, PortalUserRow } from '../../ports/database.js';
import { limitedAttempt } from '../limited-attempts.js';
import { recordAudit, type AuditActor } from '../audit.js';
import {
  findPortalUser,
  hashPassword,
  hasPassword,
  normaliseEmail,
  userByEmail,
  userObject,
  verifyPassword,
} from '../users/accounts.js';

export interface SessionDeps {
  db: Db;
  now: () => number;
  signInLimits: { account: AttemptLimiter; address: AttemptLimiter };
  sessions: { idleMs: number; maxMs: number };
}

/** Who is signed in, as the portal's routes see them. */
export interface PortalCaller {
  userId: string;
  email: string;
  role: PortalRole;
  /** Null for operators (every client). */
  clientId: string | null;
  csrfToken: string;
  /** The session, as stored (for signing out). */
  sessionHash: string;
  /** The request the caller is making: changes record it in the audit log. */
  requestId?: string;
}

/** How often a session's last use is written: reads stay reads between. */
const TOUCH_EVERY_MS = 60_000;

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');
const randomToken = () => crypto.randomBytes(32).toString('base64url');

/** Checked against when the e-mail is unknown, so that the answer takes as long as a real check. */
let decoyHash: Promise<string> | undefined;

export async function signIn(
  deps: SessionDeps,
  input: { email: string; password: string; address: string; replacing?: string | undefined },
): Promise<{ token: string; caller: PortalCaller }> {
  const accountKey = accountKeyOf(input.email);
  const addressKey = `address:${input.address}`;
  // Counted before the password is checked, so concurrent tries never get more than the limits checked.
  const user = await limitedAttempt(
    [
      [deps.signInLimits.address, addressKey],
      [deps.signInLimits.account, accountKey],
    ],
    (retryAfterSeconds) => new AppError('PORTAL_SIGN_IN_LIMITED', { retryAfterSeconds }),
    async () => {
      const found = await findPortalUser(deps.db, input.email);
      decoyHash ??= hashPassword(crypto.randomBytes(16).toString('hex'));
      // An invited user without a password yet is checked against the decoy too: the time tells nothing.
      const usable = found && hasPassword(found) ? found.password_hash : undefined;
      const matches = await verifyPassword(input.password, usable ?? (await decoyHash));
      if (!found || usable === undefined || !matches || found.disabled_at !== null)
        throw new AppError('PORTAL_SIGN_IN_FAILED');
      return found;
    },
  );

  return startSession(deps, user, input.replacing);
}

/** The sign-in limit's key of an account: its e-mail as the users table keeps it. */
const accountKeyOf = (email: string) => `account:${normaliseEmail(email)}`;

/**
 * Lifts the sign-in lock of an account (docs/security.md#signing-in): an operator's answer to someone
 * who locked a user out by guessing. Its failures are forgotten; the per-address limits stay.
 */
export async function unlockSignIn(
  deps: Pick<SessionDeps, 'db' | 'now' | 'signInLimits'>,
  email: string,
  by: AuditActor,
): Promise<PortalUserRow> {
  const user = await userByEmail(deps.db, email);
  await deps.signInLimits.account.reset(accountKeyOf(user.email));
  await recordAudit(deps.db, deps.now(), {
    actor: by,
    action: 'user.unlock',
    object: userObject(user),
    clientId: user.client_id,
  });
  return user;
}

/**
 * A new session for `user`, who has just proved who they are (their password, or a set-password link):
 * always a new session id (no fixation); the one the browser held before ends.
 */
export async function startSession(
  deps: Pick<SessionDeps, 'db' | 'now' | 'sessions'>,
  user: PortalUserRow,
  replacing: string | undefined,
): Promise<{ token: string; caller: PortalCaller }> {
  if (replacing) await signOut(deps, replacing);
  const token = randomToken();
  const now = deps.now();
  const session = {
    id_hash: sha256(token),
    user_id: user.id,
    csrf_token: randomToken(),
    created_at: now,
    last_seen_at: now,
    expires_at: now + deps.sessions.maxMs,
  };
  await deps.db.insertInto('portal_sessions').values(session).execute();
  return { token, caller: callerOf(user, session) };
}

/** The signed-in caller of a session token, or undefined when the session is unknown or has ended. */
export async function sessionOf(
  deps: SessionDeps,
  token: string | undefined,
): Promise<PortalCaller | undefined> {
  if (!token || token.length > 100) return undefined;
  const idHash = sha256(token);
  const row = await deps.db
    .selectFrom('portal_sessions')
    .innerJoin('portal_users', 'portal_users.id', 'portal_sessions.user_id')
    .select([
      'portal_sessions.id_hash',
      'portal_sessions.csrf_token',
      'portal_sessions.last_seen_at',
      'portal_sessions.expires_at',
      'portal_users.id',
      'portal_users.email',
      'portal_users.role',
      'portal_users.client_id',
      'portal_users.disabled_at',
    ])
    .where('portal_sessions.id_hash', '=', idHash)
    .executeTakeFirst();
  if (!row) return undefined;
  const now = deps.now();
  if (row.expires_at <= now || row.last_seen_at + deps.sessions.idleMs <= now || row.disabled_at !== null) {
    await deps.db.deleteFrom('portal_sessions').where('id_hash', '=', idHash).execute();
    return undefined;
  }
  if (row.last_seen_at + TOUCH_EVERY_MS <= now)
    await deps.db
      .updateTable('portal_sessions')
      .set({ last_seen_at: now })
      .where('id_hash', '=', idHash)
      .execute();
  return {
    userId: row.id,
    email: row.email,
    role: row.role,
    clientId: row.client_id,
    csrfToken: row.csrf_token,
    sessionHash: row.id_hash,
  };
}

export async function signOut(deps: Pick<SessionDeps, 'db'>, token: string): Promise<void> {
  await deps.db.deleteFrom('portal_sessions').where('id_hash', '=', sha256(token)).execute();
}

/** Whether `sent` is the session's CSRF token (constant time). */
export function csrfMatches(caller: PortalCaller, sent: string | undefined): boolean {
  if (!sent) return false;
  const expected = Buffer.from(caller.csrfToken);
  const actual = Buffer.from(sent);
  return expected.length === actual.length && crypto.timingSafeEqual(expected, actual);
}

function callerOf(user: PortalUserRow, session: { id_hash: string; csrf_token: string }): PortalCaller {
  return {
    userId: user.id,
    email: user.email,
    role: user.role,
    clientId: user.client_id,
    csrfToken: session.csrf_token,
    sessionHash: session.id_hash,
  };
}
