// One send attempt of an outbox message (a link message, or a portal invitation or reset e-mail), run by
// the worker. Retries follow MESSAGE_RETRY_SCHEDULE the way webhook deliveries follow theirs: a failed
// attempt is recorded and the next one is enqueued as its own job with its own key, in one transaction.
// Each job carries its attempt number, so a job run twice after its attempt was recorded does nothing; a
// worker dying mid-send sends again (at least once).
import { type Db, inTransaction, type OutboxMessageRow } from '../../ports/database.js';
import { emailHtml } from '../../domain/messages.js';
import type { Logger } from '../../logger.js';
import type { JobContext, JobQueue } from '../../ports/job-queue.js';
import type { Metrics } from '../../ports/metrics.js';
import { NotifyError, type Notifier } from '../../ports/notifier.js';
import type { SecretBox } from '../../ports/secret-box.js';
import { whyClosed } from './closed.js';
import { bodyWithToken } from './message-token.js';
import { jobKeys, type JobPayloads } from '../../domain/jobs.js';

export interface SendDeps {
  db: Db;
  queue: JobQueue;
  notifier: Notifier;
  logger: Logger;
  now: () => number;
  /** Seconds to wait before each retry (MESSAGE_RETRY_SCHEDULE). */
  retrySchedule: readonly number[];
  secrets: SecretBox;
  metrics: Pick<Metrics, 'outboxAttempted'>;
}

export type SendMessageJob = JobPayloads['send-message'];

export async function sendMessage(deps: SendDeps, job: SendMessageJob, context: JobContext): Promise<void> {
  const message = await deps.db
    .selectFrom('outbox_messages')
    .selectAll()
    .where('id', '=', job.messageId)
    .executeTakeFirst();
  // Sent, failed or held messages are done; an attempt already recorded is not made again.
  if (!message || message.status !== 'pending') return;
  const attempt = message.attempts + 1;
  if (attempt !== (job.attempt ?? 1)) return;
  const log = {
    message_id: message.id,
    kind: message.kind,
    channel: message.channel,
    attempt,
    job: context.jobId,
  };
  // A retry hours later must not send a link that was submitted or expired meanwhile.
  const why = await whyClosed(deps, message);
  if (why) {
    const closed = why.gone ? why.reason : `${why.reason} before the message could be sent`;
    await finish(deps.db, message.id, deps.now(), {
      status: 'failed',
      attempts: message.attempts,
      last_error: closed,
      link_token_sealed: null,
    });
    deps.logger.info({ ...log, reason: closed }, 'link message dropped');
    deps.metrics.outboxAttempted(message.channel, 'dropped');
    return;
  }

  let providerMessageId: string | null = null;
  let failure: NotifyError | undefined;
  try {
    providerMessageId = await send(deps.notifier, withLink(deps.secrets, message), context.signal);
  } catch (error) {
    if (context.signal.aborted) throw error; // the worker is stopping: hand the job back, no attempt made
    failure =
      error instanceof NotifyError
        ? error
        : new NotifyError(error instanceof Error ? error.message : String(error), false);
  }
  const at = deps.now();

  if (!failure) {
    await finish(deps.db, message.id, at, {
      status: 'sent',
      attempts: attempt,
      provider_message_id: providerMessageId,
      sent_at: at,
      link_token_sealed: null,
    });
    deps.logger.info({ ...log, provider_message_id: providerMessageId }, 'link message sent');
    deps.metrics.outboxAttempted(message.channel, 'sent');
    return;
  }

  const retryInSeconds = failure.permanent ? undefined : deps.retrySchedule[attempt - 1];
  const lastError = failure.detail ? `${failure.message}: ${failure.detail}` : failure.message;
  await inTransaction(deps.db, async (trx) => {
    // A provider's failure keeps the sealed token, so that the message can be re-sent from the portal
    // once the cause is fixed (services/outbox/resend-failed.ts), while its link is open.
    if (retryInSeconds === undefined)
      await finish(trx, message.id, at, { status: 'failed', attempts: attempt, last_error: lastError });
    else
      await trx
        .updateTable('outbox_messages')
        .set({ attempts: attempt, last_error: lastError, updated_at: at })
        .where('id', '=', message.id)
        .execute();
    if (retryInSeconds !== undefined)
      await deps.queue.enqueue(trx, {
        task: 'send-message',
        key: jobKeys.sendMessage(message.id, attempt + 1),
        payload: { messageId: message.id, attempt: attempt + 1 },
        runAt: at + retryInSeconds * 1000,
      });
  });
  deps.metrics.outboxAttempted(message.channel, retryInSeconds === undefined ? 'failed' : 'retry');
  // The provider's words (`detail`) may name the recipient: they stay in the outbox, out of the logs.
  if (retryInSeconds === undefined)
    deps.logger.error(
      { ...log, error: failure.message, permanent: failure.permanent },
      'link message failed',
    );
  else
    deps.logger.warn(
      { ...log, error: failure.message, retry_in_s: retryInSeconds },
      'link message attempt failed',
    );
}

function send(notifier: Notifier, message: OutboxMessageRow, signal: AbortSignal): Promise<string | null> {
  switch (message.channel) {
    case 'email':
      return notifier.sendEmail(
        {
          to: message.recipient,
          subject: message.subject ?? '',
          text: message.body,
          html: emailHtml(message.body, message.language),
        },
        signal,
      );
    case 'sms':
      return notifier.sendSms({ to: message.recipient, body: message.body }, signal);
  }
}

/**
 * Records the message's final state. Once it is sent, or its link has closed, its token is forgotten
 * (`link_token_sealed: null`): nothing in the database opens its link.
 */
async function finish(
  db: Db,
  id: string,
  at: number,
  state: Pick<OutboxMessageRow, 'status' | 'attempts'> &
    Partial<Pick<OutboxMessageRow, 'provider_message_id' | 'sent_at' | 'last_error' | 'link_token_sealed'>>,
): Promise<void> {
  await db
    .updateTable('outbox_messages')
    .set({ ...state, updated_at: at })
    .where('id', '=', id)
    .execute();
}

/** The message as it goes out: its body with its token unsealed and put back, for this send only. */
function withLink(secrets: SecretBox, message: OutboxMessageRow): OutboxMessageRow {
  if (message.link_token_sealed === null) return message;
  return { ...message, body: bodyWithToken(message, secrets.open(message.link_token_sealed)) };
}
