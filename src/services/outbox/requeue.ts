// What sending a message again takes, whether it was held (no provider then) or failed (the provider
// refused it): the message becomes pending and gets a send job for its next attempt, with its audit
// entry, in the caller's transaction. The callers decide whether the message may go.
import type { Db } from '../../ports/database.js';
import type { JobQueue } from '../../ports/job-queue.js';
import type { Channel } from '../../ports/notifier.js';
import { jobKeys } from '../../domain/jobs.js';
import { recordAudit, type AuditActor } from '../audit.js';

/** Why a message cannot go yet when its channel has no provider, naming the setting to fill in. */
export function missingProvider(channel: Channel): string {
  return `No ${channel === 'email' ? 'mail server (SMTP_URL)' : 'SMS provider (SMS_PROVIDER)'} is configured`;
}

export interface RequeuedMessage {
  id: string;
  status: 'held' | 'failed';
  attempts: number;
  client_id: string | null;
}

export async function requeueMessage(
  trx: Db,
  deps: { queue: JobQueue; now: () => number },
  message: RequeuedMessage,
  audit: { by: AuditActor; action: 'outbox.send_held' | 'outbox.resend'; before: Record<string, unknown> },
): Promise<void> {
  const attempt = message.attempts + 1;
  await trx
    .updateTable('outbox_messages')
    .set({ status: 'pending', updated_at: deps.now() })
    .where('id', '=', message.id)
    .where('status', '=', message.status)
    .execute();
  await deps.queue.enqueue(trx, {
    task: 'send-message',
    key: jobKeys.sendMessage(message.id, attempt),
    payload: { messageId: message.id, attempt },
  });
  await recordAudit(trx, deps.now(), {
    actor: audit.by,
    action: audit.action,
    object: { type: 'outbox_message', id: message.id },
    clientId: message.client_id,
    before: audit.before,
    after: { status: 'pending' },
  });
}
