// `POST /superappToken` (docs/api.md#superapptoken): checks the key and the request, then writes the
// link, its expiry job and its messages (SMS, e-mail) in one transaction; the worker sends the messages
// after the response.
import crypto from 'node:crypto';
import { type Db, inTransaction, type LinkRow } from '../../ports/database.js';
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

  const token = newLinkToken();
  const url = `${deps.superappUrl}/#${token}`;
  const link: LinkRow = {
    id: crypto.randomUUID(),
    client_id: client.id,
    persona_id: persona.id,
    token_hash: hashLinkToken(token),
    case_id: fields.caseId ?? null,
    input_metadata: fields.inputMetaData === undefined ? null : JSON.stringify(fields.inputMetaData),
    status: 'open',
    expires_at: now + client.link_ttl_seconds * 1000,
    opened_at: null,
    submitted_at: null,
    created_at: now,
  };
  await inTransaction(deps.db, async (trx) => {
    await trx.insertInto('links').values(link).execute();
    await deps.queue.enqueue(trx, {
      task: 'expire-link',
      key: jobKeys.expireLink(link.id),
      payload: { linkId: link.id },
      runAt: link.expires_at,
    });
    if (fields.phone !== undefined || fields.email !== undefined)
      await queueLinkMessages(trx, deps, {
        clientId: client.id,
        clientName: client.name,
        linkId: link.id,
        language: persona.language,
        url,
        token,
        expiresAt: link.expires_at,
        phone: fields.phone,
        email: fields.email,
      });
    // Inside the transaction: a failure after the commit would answer 500 for a link whose messages
    // are on their way, and the caller's retry would send them twice.
    await touchApiKey(trx, owner, now);
  });
  return { token, url, link };
}
