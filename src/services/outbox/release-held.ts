// Held messages (written while no provider was configured for their channel) are sent once an operator
// releases them, after configuring the provider: the message becomes pending and gets its send job, in
// one transaction. Only held messages still hold their link; sent and failed ones are redacted.
import { type Db, inTransaction } from '../../ports/database.js';
import type { JobQueue } from '../../ports/job-queue.js';
import { AppError } from '../../domain/errors.js';
import { jobKeys } from '../../domain/jobs.js';
import { recordAudit, type AuditActor } from '../audit.js';

const notHeld = (reason: string) => new AppError('OUTBOX_NOT_HELD', { params: { reason } });

export async function releaseHeldMessage(
  deps: { db: Db; queue: JobQueue; now: () => number; configured: (channel: 'email' | 'sms') => boolean },
  id: string,
  by: AuditActor,
): Promise<void> {
  await inTransaction(deps.db, async (trx) => {
    const message = await trx
      .selectFrom('outbox_messages')
      .select(['status', 'channel', 'attempts', 'client_id'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!message) throw new AppError('OUTBOX_MESSAGE_NOT_FOUND', { params: { id } });
    if (message.status !== 'held') throw notHeld(`Message ${id} is ${message.status}, not held`);
    if (!deps.configured(message.channel))
      throw notHeld(
        `No ${message.channel === 'email' ? 'mail server (SMTP_URL)' : 'SMS provider (SMS_PROVIDER)'} is configured`,
      );
    const attempt = message.attempts + 1;
    await trx
      .updateTable('outbox_messages')
      .set({ status: 'pending', updated_at: deps.now() })
      .where('id', '=', id)
      .where('status', '=', 'held')
      .execute();
    await deps.queue.enqueue(trx, {
      task: 'send-message',
      key: jobKeys.sendMessage(id, attempt),
      payload: { messageId: id, attempt },
    });
    await recordAudit(trx, deps.now(), {
      actor: by,
      action: 'outbox.send_held',
      object: { type: 'outbox_message', id },
      clientId: message.client_id,
      before: { status: 'held' },
      after: { status: 'pending' },
    });
  });
}
