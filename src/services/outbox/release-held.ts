// Held messages (written while no provider was configured for their channel) are sent once an operator
// releases them, after configuring the provider: the message becomes pending and gets its send job, in
// one transaction. Only held messages still hold their link; sent and failed ones are redacted.
import { type Db, inTransaction } from '../../ports/database.js';
import type { JobQueue } from '../../ports/job-queue.js';
import type { Channel } from '../../ports/notifier.js';
import { AppError } from '../../domain/errors.js';
import type { AuditActor } from '../audit.js';
import { missingProvider, requeueMessage } from './requeue.js';

const notHeld = (reason: string) => new AppError('OUTBOX_NOT_HELD', { params: { reason } });

export async function releaseHeldMessage(
  deps: { db: Db; queue: JobQueue; now: () => number; configured: (channel: Channel) => boolean },
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
    if (!deps.configured(message.channel)) throw notHeld(missingProvider(message.channel));
    await requeueMessage(
      trx,
      deps,
      { ...message, id, status: 'held' },
      { by, action: 'outbox.send_held', before: { status: 'held' } },
    );
  });
}
