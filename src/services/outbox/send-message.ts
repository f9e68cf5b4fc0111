// One send attempt of an outbox message, run by the worker. Retries follow MESSAGE_RETRY_SCHEDULE the
// way webhook deliveries follow theirs: a failed attempt is recorded and the next one is enqueued as
// its own job with its own key, in one transaction. Each job carries its attempt number, so a job run
// twice after its attempt was recorded does nothing; a worker dying mid-send sends again (at least once).
import type { Db, OutboxMessageRow } from '../../adapters/db/schema.js';
import { inTransaction } from '../../adapters/db/transaction.js';
import { emailHtml } from '../../domain/messages.js';
import type { Logger } from '../../logger.js';
import type { JobContext, JobQueue } from '../../ports/job-queue.js';
import { NotifyError, type Notifier } from '../../ports/notifier.js';
import { SEND_MESSAGE_TASK, sendJobKey } from './queue-messages.js';

export interface SendDeps {
  db: Db;
  queue: JobQueue;
  notifier: Notifier;
  logger: Logger;
  now: () => number;
  /** Seconds to wait before each retry (MESSAGE_RETRY_SCHEDULE). */
  retrySchedule: readonly number[];
}

export interface SendMessageJob {
  messageId: string;
  /** Which attempt this job is (1 for the first); jobs enqueued without it are the first. */
  attempt?: number;
}

/** Reads the job's payload as the queue hands it over. */
export const sendMessageJob = (payload: Record<string, unknown>): SendMessageJob => ({
  messageId: String(payload.messageId),
  ...(typeof payload.attempt === 'number' && { attempt: payload.attempt }),
});

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
  const log = { message_id: message.id, channel: message.channel, attempt, job: context.jobId };

  let providerMessageId: string | null = null;
  let failure: NotifyError | undefined;
  try {
    providerMessageId = await send(deps.notifier, message, context.signal);
  } catch (error) {
    if (context.signal.aborted) throw error; // the worker is stopping: hand the job back, no attempt made
    failure =
      error instanceof NotifyError
        ? error
        : new NotifyError(error instanceof Error ? error.message : String(error), false);
  }
  const at = deps.now();

  if (!failure) {
    await deps.db
      .updateTable('outbox_messages')
      .set({
        status: 'sent',
        attempts: attempt,
        provider_message_id: providerMessageId,
        sent_at: at,
        updated_at: at,
      })
      .where('id', '=', message.id)
      .execute();
    deps.logger.info({ ...log, provider_message_id: providerMessageId }, 'link message sent');
    return;
  }

  const retryInSeconds = failure.permanent ? undefined : deps.retrySchedule[attempt - 1];
  const lastError = failure.detail ? `${failure.message}: ${failure.detail}` : failure.message;
  await inTransaction(deps.db, async (trx) => {
    await trx
      .updateTable('outbox_messages')
      .set({
        status: retryInSeconds === undefined ? 'failed' : 'pending',
        attempts: attempt,
        last_error: lastError,
        updated_at: at,
      })
      .where('id', '=', message.id)
      .execute();
    if (retryInSeconds !== undefined)
      await deps.queue.enqueue(trx, {
        task: SEND_MESSAGE_TASK,
        key: sendJobKey(message.id, attempt + 1),
        payload: { messageId: message.id, attempt: attempt + 1 },
        runAt: at + retryInSeconds * 1000,
      });
  });
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
