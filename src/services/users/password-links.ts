// One-time set-password links (docs/portal.md#users): an invitation to a new portal account, or a
// password reset an administrator sends. The token is random and shown to no one: the database keeps its
// SHA-256; it travels in an e-mail written to the outbox in the same transaction (sealed beside the
// redacted text while the e-mail may still go out, as for link messages), sent by the worker over SMTP or
// held until a mail server is configured. A link works once, until PORTAL_PASSWORD_LINK_TTL has passed,
// and only while it is the user's latest.
import crypto from 'node:crypto';
import { Type, type Static } from '@sinclair/typebox';
import {
  renderAccountEmail,
  SET_PASSWORD_PATH,
  type PasswordLinkPurpose,
} from '../../domain/account-messages.js';
import { AppError } from '../../domain/errors.js';
import { Nullable } from '../../domain/schema.js';
import { jobKeys } from '../../domain/jobs.js';
import type { AttemptLimiter } from '../../ports/attempt-limiter.js';
import { inTransaction, type Db, type PasswordLinkRow, type PortalUserRow } from '../../ports/database.js';
import type { JobQueue } from '../../ports/job-queue.js';
import type { Notifier } from '../../ports/notifier.js';
import type { SecretBox } from '../../ports/secret-box.js';
import { recordAudit, type AuditActor } from '../audit.js';
import { limitedAttempt } from '../limited-attempts.js';
import { hashPassword, userObject } from './accounts.js';
import { checkPassword, MIN_PASSWORD_LENGTH } from './passwords.js';

export interface PasswordLinkDeps {
  db: Db;
  queue: JobQueue;
  now: () => number;
  notifier: Pick<Notifier, 'configured'>;
  secrets: SecretBox;
  /** `{PUBLIC_BASE_URL}`: the links open the portal there. */
  publicBaseUrl: string;
  /** PORTAL_PASSWORD_LINK_TTL. */
  ttlMs: number;
}

/** A link just issued: its e-mail's outbox message, and whether it went to the worker or is held. */
export interface IssuedLink {
  purpose: PasswordLinkPurpose;
  expiresAt: number;
  messageId: string;
  messageStatus: 'pending' | 'held';
  /**
   * The link itself, for the one answer that may show it (an operator's, when the e-mail is held):
   * never stored in clear, never logged.
   */
  url: string;
}

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');
/** 256 random bits, URL-safe: the part after `#/set-password/`. */
const newToken = () => crypto.randomBytes(32).toString('base64url');
const looksLikeToken = (value: string) => /^[A-Za-z0-9_-]{43}$/.test(value);

/**
 * Issues a link for `user` and queues its e-mail, in the caller's transaction `trx` (the caller audits
 * the change). The user's earlier links stop working, and their e-mails that have not gone out yet are
 * not sent.
 */
export async function issuePasswordLink(
  trx: Db,
  deps: Omit<PasswordLinkDeps, 'db'>,
  input: { user: PortalUserRow; purpose: PasswordLinkPurpose; by: AuditActor },
): Promise<IssuedLink> {
  const now = deps.now();
  const { user, purpose } = input;
  await revokeLinks(trx, now, user.id);

  const token = newToken();
  const link: PasswordLinkRow = {
    id: crypto.randomUUID(),
    user_id: user.id,
    token_hash: sha256(token),
    purpose,
    created_by: input.by.kind === 'user' ? input.by.id : null,
    created_at: now,
    expires_at: now + deps.ttlMs,
    used_at: null,
    revoked_at: null,
  };
  await trx.insertInto('password_links').values(link).execute();

  const client =
    user.client_id === null
      ? undefined
      : await trx.selectFrom('clients').select('name').where('id', '=', user.client_id).executeTakeFirst();
  const email = renderAccountEmail({
    purpose,
    baseUrl: deps.publicBaseUrl,
    email: user.email,
    role: user.role,
    clientName: client?.name ?? null,
    by: input.by.kind === 'user' ? input.by.email : null,
    expiresAt: link.expires_at,
  });
  const messageId = `out_${crypto.randomUUID().replaceAll('-', '')}`;
  const messageStatus = deps.notifier.configured('email') ? 'pending' : 'held';
  await trx
    .insertInto('outbox_messages')
    .values({
      id: messageId,
      client_id: user.client_id,
      link_id: null,
      kind: purpose === 'invite' ? 'invitation' : 'password_reset',
      password_link_id: link.id,
      channel: 'email',
      recipient: user.email,
      language: 'en',
      subject: email.subject,
      body: email.text,
      // The token goes back into the text only for the send (services/outbox/send-message.ts).
      link_token_sealed: deps.secrets.seal(token),
      status: messageStatus,
      created_at: now,
      updated_at: now,
    })
    .execute();
  if (messageStatus === 'pending')
    await deps.queue.enqueue(trx, {
      task: 'send-message',
      key: jobKeys.sendMessage(messageId, 1),
      payload: { messageId, attempt: 1 },
    });
  const url = `${deps.publicBaseUrl}${SET_PASSWORD_PATH}${token}`;
  return { purpose, expiresAt: link.expires_at, messageId, messageStatus, url };
}

/** Revokes the user's open links, and settles their e-mails (settleMessages). */
async function revokeLinks(trx: Db, now: number, userId: string): Promise<void> {
  const revoked = await trx
    .updateTable('password_links')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .returning('id')
    .execute();
  await settleMessages(
    trx,
    now,
    revoked.map((row) => row.id),
    'a newer set-password link replaced this one',
  );
}

/**
 * The e-mails of links that can no longer be used: those that may still go out are not sent (failed,
 * saying why), and none keeps its token.
 */
async function settleMessages(trx: Db, now: number, linkIds: string[], reason: string): Promise<void> {
  if (linkIds.length === 0) return;
  await trx
    .updateTable('outbox_messages')
    .set({ status: 'failed', last_error: reason, updated_at: now })
    .where('password_link_id', 'in', linkIds)
    .where('status', 'in', ['held', 'pending'])
    .execute();
  await trx
    .updateTable('outbox_messages')
    .set({ link_token_sealed: null })
    .where('password_link_id', 'in', linkIds)
    .execute();
}

/** What the set-password page shows before the user types: whose account, and until when. */
export interface OpenPasswordLink {
  email: string;
  purpose: PasswordLinkPurpose;
  expiresAt: number;
}

export interface SetPasswordDeps {
  db: Db;
  now: () => number;
  /** Failed attempts per client address, as for sign-in: unknown and closed links count. */
  limiter: AttemptLimiter;
}

/** The open link of `token`; throws 404, 410 or 429 (counted per address, as failed sign-ins are). */
/** A set-password link as its page shows it: whose account, for what, until when. */
export const PasswordLinkView = Type.Object({
  email: Type.String(),
  client_name: Nullable(Type.String({ description: 'The organisation of a client user.' })),
  purpose: Type.Union([Type.Literal('invite'), Type.Literal('reset')]),
  expires_at: Type.String({ format: 'date-time' }),
  min_password_length: Type.Integer(),
});
export type PasswordLinkView = Static<typeof PasswordLinkView>;

/** What an open link's page shows; refused as `openPasswordLink` refuses. */
export async function passwordLinkView(
  deps: SetPasswordDeps,
  token: string | undefined,
  address: string,
): Promise<PasswordLinkView> {
  const { link, user } = await openPasswordLink(deps, token, address);
  const client =
    user.client_id === null
      ? undefined
      : await deps.db
          .selectFrom('clients')
          .select('name')
          .where('id', '=', user.client_id)
          .executeTakeFirst();
  return {
    email: user.email,
    client_name: client?.name ?? null,
    purpose: link.purpose,
    expires_at: new Date(link.expires_at).toISOString(),
    min_password_length: MIN_PASSWORD_LENGTH,
  };
}

export async function openPasswordLink(
  deps: SetPasswordDeps,
  token: string | undefined,
  address: string,
): Promise<{ link: PasswordLinkRow; user: PortalUserRow }> {
  return limitedAttempt(
    [[deps.limiter, `password-link:${address}`]],
    (retryAfterSeconds) => new AppError('PASSWORD_LINK_LIMITED', { retryAfterSeconds }),
    () => findOpenLink(deps, token),
  );
}

const gone = (reason: string) => new AppError('PASSWORD_LINK_GONE', { params: { reason } });

async function findOpenLink(
  deps: Pick<SetPasswordDeps, 'db' | 'now'>,
  token: string | undefined,
): Promise<{ link: PasswordLinkRow; user: PortalUserRow }> {
  if (token === undefined || !looksLikeToken(token)) throw new AppError('PASSWORD_LINK_UNKNOWN');
  const link = await deps.db
    .selectFrom('password_links')
    .selectAll()
    .where('token_hash', '=', sha256(token))
    .executeTakeFirst();
  if (!link) throw new AppError('PASSWORD_LINK_UNKNOWN');
  const user = await deps.db
    .selectFrom('portal_users')
    .selectAll()
    .where('id', '=', link.user_id)
    .executeTakeFirstOrThrow();
  if (link.used_at !== null)
    throw gone(
      'This link was already used to choose a password. Sign in with that password, or ask an administrator for a new link.',
    );
  if (link.revoked_at !== null)
    throw gone('A newer link was sent to you since this one: open the latest e-mail.');
  if (link.expires_at <= deps.now())
    throw gone('This link has expired. Ask an administrator to send you a new one.');
  if (user.disabled_at !== null) throw gone('This account is disabled. Ask an administrator.');
  return { link, user };
}

/**
 * Sets the password of the link's user and spends the link, in one transaction with its audit entry:
 * their other sessions end (as with any new password), and the link's e-mails keep no token. Two uses of
 * one link at once: one sets the password, the other is refused.
 */
export async function setPasswordWithLink(
  deps: SetPasswordDeps,
  input: { token: string; password: string; address: string },
): Promise<PortalUserRow> {
  const { link, user } = await openPasswordLink(deps, input.token, input.address);
  await checkPassword(input.password);
  const password_hash = await hashPassword(input.password);
  const now = deps.now();
  await inTransaction(deps.db, async (trx) => {
    const spent = await trx
      .updateTable('password_links')
      .set({ used_at: now })
      .where('id', '=', link.id)
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (Number(spent.numUpdatedRows) !== 1)
      throw gone('This link was used or replaced a moment ago. Ask an administrator for a new one.');
    await settleMessages(trx, now, [link.id], 'the set-password link was used');
    await trx.updateTable('portal_users').set({ password_hash }).where('id', '=', user.id).execute();
    await trx.deleteFrom('portal_sessions').where('user_id', '=', user.id).execute();
    await recordAudit(trx, now, {
      actor: { kind: 'user', id: user.id, email: user.email },
      action: 'user.set_password',
      object: userObject(user),
      clientId: user.client_id,
      after: { purpose: link.purpose },
    });
  });
  return { ...user, password_hash };
}
