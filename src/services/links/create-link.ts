// `POST /superappToken` (docs/api.md#superapptoken): checks the key and the request, then writes the
// link, its expiry job and its messages (SMS, e-mail) in one transaction; the worker sends the messages
// after the response.
import crypto from 'node:crypto';
import { type ClientRow, type Db, inTransaction, type LinkRow } from '../../ports/database.js';
import { AppError } from '../../domain/errors.js';
import type { JobQueue } from '../../ports/job-queue.js';
import type { Notifier } from '../../ports/notifier.js';
import type { AttemptLimiter } from '../../ports/attempt-limiter.js';
import type { SecretBox } from '../../ports/secret-box.js';
import { findKeyOwner, touchApiKey } from '../api-keys.js';
import { checkKeyAttempt } from '../key-attempts.js';
import { queueLinkMessages } from '../outbox/queue-messages.js';
import { parseLinkRequest } from './link-request.js';
import { hashLinkToken, newLinkToken } from './tokens.js';
import { jobKeys } from '../../domain/jobs.js';

export interface LinkDeps {
  db: Db;
  queue: JobQueue;
  notifier: Notifier;
  now: () => number;
  /** Links are `{superappUrl}/#<token>`. */
  superappUrl: string;
  failedAttempts: AttemptLimiter;
  secrets: SecretBox;
}

export interface CreatedLink {
  token: string;
  url: string;
  link: LinkRow;
}

export async function createLink(
  deps: LinkDeps,
  request: { apiKey: string | undefined; body: unknown; address: string },
): Promise<CreatedLink> {
  const { apiKey } = request;
  if (apiKey === undefined) throw new AppError('LINK_KEY_MISSING');
  const now = deps.now();
  const owner = await checkKeyAttempt(
    deps.failedAttempts,
    request.address,
    async () => {
      try {
        return await findKeyOwner(deps.db, apiKey, now);
      } catch (cause) {
        throw new AppError('LINK_KEY_CHECK_FAILED', { cause });
      }
    },
    'LINK_KEY_INVALID',
  );
  const { client } = owner;
  const fields = parseLinkRequest(request.body, client.id);
  const persona = await deps.db
    .selectFrom('personas')
    .select(['id', 'language'])
    .where('id', '=', fields.personaId)
    .where('client_id', '=', client.id)
    .executeTakeFirst();
  if (!persona) throw new AppError('LINK_INVALID_PERSONA');
  // Another client's inspection is answered exactly like an unknown one (docs/vehicles.md).
  if (fields.compareWith !== undefined) {
    const known = await deps.db
      .selectFrom('inspections')
      .select('id')
      .where('id', '=', fields.compareWith)
      .where('client_id', '=', client.id)
      .executeTakeFirst();
    if (!known) throw new AppError('LINK_INVALID_FIELD', { params: { field: 'compare_with' } });
  }

  return inTransaction(deps.db, async (trx) => {
    const created = await openLink(trx, deps, {
      client,
      personaId: persona.id,
      caseId: fields.caseId,
      inputMetaData: fields.inputMetaData,
      compareWith: fields.compareWith,
      now,
    });
    if (fields.phone !== undefined || fields.email !== undefined)
      await queueLinkMessages(trx, deps, {
        clientId: client.id,
        clientName: client.name,
        linkId: created.link.id,
        language: persona.language,
        url: created.url,
        token: created.token,
        expiresAt: created.link.expires_at,
        phone: fields.phone,
        email: fields.email,
      });
    // Inside the transaction: a failure after the commit would answer 500 for a link whose messages
    // are on their way, and the caller's retry would send them twice.
    await touchApiKey(trx, owner, now);
    return created;
  });
}

/**
 * Writes a new link of the client to the persona, and its expiry job, in `trx`: what every link is,
 * however it was asked for (`POST /superappToken`, the portal's test link). The token exists only in
 * the answer; the database keeps its SHA-256.
 */
export async function openLink(
  trx: Db,
  deps: Pick<LinkDeps, 'queue' | 'superappUrl'>,
  input: {
    client: Pick<ClientRow, 'id' | 'link_ttl_seconds'>;
    personaId: number;
    caseId: string | undefined;
    inputMetaData: unknown;
    compareWith?: string | undefined;
    now: number;
  },
): Promise<CreatedLink> {
  const token = newLinkToken();
  const link: LinkRow = {
    id: crypto.randomUUID(),
    client_id: input.client.id,
    persona_id: input.personaId,
    token_hash: hashLinkToken(token),
    case_id: input.caseId ?? null,
    input_metadata: input.inputMetaData === undefined ? null : JSON.stringify(input.inputMetaData),
    status: 'open',
    expires_at: input.now + input.client.link_ttl_seconds * 1000,
    opened_at: null,
    submitted_at: null,
    compare_with: input.compareWith ?? null,
    created_at: input.now,
  };
  await trx.insertInto('links').values(link).execute();
  await deps.queue.enqueue(trx, {
    task: 'expire-link',
    key: jobKeys.expireLink(link.id),
    payload: { linkId: link.id },
    runAt: link.expires_at,
  });
  return { token, url: `${deps.superappUrl}/#${token}`, link };
}
