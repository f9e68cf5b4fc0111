// Portal users in the console (docs/portal.md#users): operators manage everyone, a client admin the users
// of their own client only, and never makes an operator; a viewer manages no one. Users are invited by
// e-mail (a one-time set-password link through the outbox), never given a password by someone else;
// a forgotten password gets a reset link the same way. What is not the caller's answers 404.
import crypto from 'node:crypto';
import { Type, type Static } from '@sinclair/typebox';
import { AppError } from '../../domain/errors.js';
import { Nullable } from '../../domain/schema.js';
import type { ActionLimiter } from '../../ports/attempt-limiter.js';
import { inTransaction, type Db, type PortalRole, type PortalUserRow } from '../../ports/database.js';
import { portalActor, recordAudit } from '../audit.js';
import {
  EMAIL,
  insertPortalUser,
  requireFreeEmail,
  hasPassword,
  invalidUser,
  NO_PASSWORD,
  normaliseEmail,
  updatePortalUser,
  userObject,
  userView,
} from './accounts.js';
import { requireChange } from '../portal/access.js';
import { issuePasswordLink, type IssuedLink, type PasswordLinkDeps } from './password-links.js';
import type { PortalCaller } from '../portal/sessions.js';

const Role = Type.Union([
  Type.Literal('operator'),
  Type.Literal('client_admin'),
  Type.Literal('client_viewer'),
]);
const Purpose = Type.Union([Type.Literal('invite'), Type.Literal('reset')]);
const MessageStatus = Type.Union(['pending', 'sent', 'failed', 'held'].map((s) => Type.Literal(s)));

export const PortalUserView = Type.Object({
  id: Type.String(),
  email: Type.String(),
  role: Role,
  client_id: Nullable(Type.String()),
  client_name: Nullable(Type.String()),
  status: Type.Union([Type.Literal('active'), Type.Literal('invited'), Type.Literal('disabled')], {
    description: '`invited`: the user has not chosen a password yet.',
  }),
  created_at: Type.String({ format: 'date-time' }),
  password_link: Nullable(
    Type.Object(
      {
        purpose: Purpose,
        expires_at: Type.String({ format: 'date-time' }),
        expired: Type.Boolean(),
        message_id: Nullable(Type.String()),
        message_status: Nullable(MessageStatus),
      },
      { description: "The user's latest set-password link not used yet, and its e-mail's state." },
    ),
  ),
});
export type PortalUserView = Static<typeof PortalUserView>;

/** What an invitation or a reset answers: the e-mail's outbox message, sent soon or held. */
export const SentLink = Type.Object({
  user: PortalUserView,
  message: Type.Object({
    id: Type.String(),
    status: Type.Union([Type.Literal('pending'), Type.Literal('held')], {
      description: '`held`: no mail server is configured; the e-mail waits in the outbox.',
    }),
  }),
  expires_at: Type.String({ format: 'date-time' }),
  url: Type.Optional(
    Type.String({
      description:
        'Operators only, when the e-mail is `held` (no mail server): the set-password link, to pass on by hand. Only in this answer (the audit entry records `link_shown`); the e-mail still goes out once a mail server is configured.',
    }),
  ),
});

const iso = (ms: number) => new Date(ms).toISOString();

/** An invitation or a new link as its route answers it: the link itself only when it may be shown. */
export interface SentLinkResult {
  user: PortalUserView;
  link: Omit<IssuedLink, 'url'>;
  /** The set-password link, for an operator to pass on by hand (see mayShowLink). */
  url?: string;
}

/**
 * Whether the caller is shown the link itself: an operator, when its e-mail is held for want of a mail
 * server (as `outbox list --reveal` shows it on the command line), in this one answer; the audit entry
 * records that it was. A client admin is not: the e-mail is what proves the address is the invitee's.
 */
const mayShowLink = (caller: PortalCaller, link: IssuedLink) =>
  caller.role === 'operator' && link.messageStatus === 'held';

function sentLink(caller: PortalCaller, user: PortalUserView, { url, ...link }: IssuedLink): SentLinkResult {
  return { user, link, ...(mayShowLink(caller, { url, ...link }) && { url }) };
}

/** The users the caller may manage, by e-mail: a client admin's client's; an operator's, or one client's. */
export async function listUsers(
  deps: { db: Db; now: () => number },
  caller: PortalCaller,
  filter: { clientId?: string | undefined },
): Promise<PortalUserView[]> {
  requireChange(caller);
  let query = deps.db.selectFrom('portal_users').selectAll().orderBy('email');
  const clientId = caller.clientId ?? filter.clientId;
  if (clientId !== undefined) query = query.where('client_id', '=', clientId);
  return views(deps, await query.execute());
}

async function views(deps: { db: Db; now: () => number }, users: PortalUserRow[]): Promise<PortalUserView[]> {
  if (users.length === 0) return [];
  const ids = users.map((u) => u.id);
  const clientIds = [...new Set(users.flatMap((u) => (u.client_id === null ? [] : [u.client_id])))];
  const clients = new Map(
    clientIds.length === 0
      ? []
      : (
          await deps.db.selectFrom('clients').select(['id', 'name']).where('id', 'in', clientIds).execute()
        ).map((c) => [c.id, c.name]),
  );
  const links = await deps.db
    .selectFrom('password_links')
    .leftJoin('outbox_messages', 'outbox_messages.password_link_id', 'password_links.id')
    .select([
      'password_links.user_id',
      'password_links.purpose',
      'password_links.expires_at',
      'password_links.created_at',
      'outbox_messages.id as message_id',
      'outbox_messages.status as message_status',
    ])
    .where('password_links.user_id', 'in', ids)
    .where('password_links.used_at', 'is', null)
    .where('password_links.revoked_at', 'is', null)
    .execute();
  const linkOf = new Map(links.map((link) => [link.user_id, link]));
  const now = deps.now();
  return users.map((user) => {
    const link = linkOf.get(user.id);
    return {
      id: user.id,
      email: user.email,
      role: user.role,
      client_id: user.client_id,
      client_name: user.client_id === null ? null : (clients.get(user.client_id) ?? null),
      status: user.disabled_at !== null ? 'disabled' : hasPassword(user) ? 'active' : 'invited',
      created_at: iso(user.created_at),
      password_link: link
        ? {
            purpose: link.purpose,
            expires_at: iso(link.expires_at),
            expired: link.expires_at <= now,
            message_id: link.message_id,
            message_status: link.message_status,
          }
        : null,
    };
  });
}

async function viewOf(deps: { db: Db; now: () => number }, user: PortalUserRow): Promise<PortalUserView> {
  const [view] = await views(deps, [user]);
  return view!;
}

/** The user, when the caller may manage them; NOT_FOUND otherwise (also for another client's). */
export async function visibleUser(db: Db, caller: PortalCaller, id: string): Promise<PortalUserRow> {
  requireChange(caller);
  let query = db.selectFrom('portal_users').selectAll().where('id', '=', id);
  if (caller.clientId !== null) query = query.where('client_id', '=', caller.clientId);
  const user = await query.executeTakeFirst();
  if (!user) throw new AppError('NOT_FOUND');
  return user;
}

/**
 * The role and client a change asks for, as the caller may ask it: a client admin keeps users in their
 * own client (another client is not found) and cannot make an operator (forbidden).
 */
async function allowedRoleAndClient(
  db: Db,
  caller: PortalCaller,
  role: PortalRole,
  clientId: string | null | undefined,
): Promise<string | null> {
  if (caller.clientId !== null) {
    if (role === 'operator') throw new AppError('PORTAL_FORBIDDEN');
    if (clientId !== undefined && clientId !== null && clientId !== caller.clientId)
      throw new AppError('NOT_FOUND');
    return caller.clientId;
  }
  if (role === 'operator') {
    if (clientId !== undefined && clientId !== null) throw invalidUser('An operator belongs to no client');
    return null;
  }
  if (clientId === undefined || clientId === null)
    throw invalidUser('Choose the client of a client admin or viewer');
  const client = await db.selectFrom('clients').select('id').where('id', '=', clientId).executeTakeFirst();
  if (!client) throw new AppError('CLIENT_NOT_FOUND', { params: { id: clientId } });
  return clientId;
}

/**
 * Creates the user without a usable password and sends them an invitation (a set-password link), in one
 * transaction with one audit entry, `user.invite`.
 */
export async function inviteUser(
  deps: PasswordLinkDeps & { inviteLimiter: ActionLimiter },
  caller: PortalCaller,
  input: { email: string; role: PortalRole; clientId?: string | null | undefined },
): Promise<SentLinkResult> {
  requireChange(caller);
  // Addresses are unique in the installation, so an invitation tells whether one is taken, anywhere:
  // a client admin may ask that a bounded number of times (operators see every user anyway).
  if (caller.role !== 'operator') {
    const wait = await deps.inviteLimiter.take(caller.userId);
    if (wait > 0) throw new AppError('INVITATIONS_RATE_LIMITED', { retryAfterSeconds: wait });
  }
  const clientId = await allowedRoleAndClient(deps.db, caller, input.role, input.clientId);
  const email = normaliseEmail(input.email);
  if (!EMAIL.test(email)) throw invalidUser(`${input.email} is not an e-mail address`);
  await requireFreeEmail(deps.db, email);
  const user: PortalUserRow = {
    id: crypto.randomUUID(),
    email,
    password_hash: NO_PASSWORD,
    role: input.role,
    client_id: clientId,
    disabled_at: null,
    created_at: deps.now(),
  };
  const by = portalActor(caller);
  const link = await inTransaction(deps.db, async (trx) => {
    await insertPortalUser(trx, user);
    const issued = await issuePasswordLink(trx, deps, { user, purpose: 'invite', by });
    await recordAudit(trx, user.created_at, {
      actor: by,
      action: 'user.invite',
      object: userObject(user),
      clientId: user.client_id,
      after: { ...userView(user), ...linkFacts(caller, issued) },
    });
    return issued;
  });
  return sentLink(caller, await viewOf(deps, user), link);
}

/** What the audit log records of a link: never its token, which nothing but the e-mail holds. */
const linkFacts = (caller: PortalCaller, link: IssuedLink) => ({
  link_expires_at: iso(link.expiresAt),
  message_id: link.messageId,
  message_status: link.messageStatus,
  link_shown: mayShowLink(caller, link),
});

/**
 * Sends the user a new set-password link: a reset for a user who has a password (it keeps working until
 * they choose a new one), a new invitation for one who never chose one. Earlier links stop working.
 */
export async function sendPasswordLink(
  deps: PasswordLinkDeps,
  caller: PortalCaller,
  userId: string,
): Promise<SentLinkResult> {
  const user = await visibleUser(deps.db, caller, userId);
  if (user.disabled_at !== null) throw invalidUser(`${user.email} is disabled: enable the user first`);
  const purpose = hasPassword(user) ? 'reset' : 'invite';
  const by = portalActor(caller);
  const link = await inTransaction(deps.db, async (trx) => {
    const issued = await issuePasswordLink(trx, deps, { user, purpose, by });
    await recordAudit(trx, deps.now(), {
      actor: by,
      action: 'user.password_link',
      object: userObject(user),
      clientId: user.client_id,
      after: { purpose, ...linkFacts(caller, issued) },
    });
    return issued;
  });
  return sentLink(caller, await viewOf(deps, user), link);
}

/**
 * Changes a user's role (and client, for operators) or disables or enables them, through the user service
 * (one `user.update` entry; their sessions end). Nobody changes their own role or disables themselves:
 * the last administrator could lock everyone out.
 */
export async function changeUser(
  deps: { db: Db; now: () => number },
  caller: PortalCaller,
  userId: string,
  input: {
    role?: PortalRole | undefined;
    clientId?: string | null | undefined;
    disabled?: boolean | undefined;
  },
): Promise<PortalUserView> {
  const user = await visibleUser(deps.db, caller, userId);
  const role = input.role ?? user.role;
  const movesClient = input.clientId !== undefined && input.clientId !== user.client_id;
  const clientId =
    input.role === undefined && !movesClient
      ? user.client_id
      : await allowedRoleAndClient(
          deps.db,
          caller,
          role,
          input.clientId !== undefined ? input.clientId : role === 'operator' ? null : user.client_id,
        );
  if (
    user.id === caller.userId &&
    (role !== user.role || clientId !== user.client_id || input.disabled === true)
  )
    throw invalidUser('You cannot change your own role or disable yourself: ask another administrator');
  const changed = await updatePortalUser(
    deps,
    {
      email: user.email,
      role,
      clientId,
      ...(input.disabled !== undefined && { disabled: input.disabled }),
    },
    portalActor(caller),
  );
  return viewOf(deps, changed);
}
