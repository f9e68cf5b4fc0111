// A failed message is sent again when someone asks, once the cause is fixed (a mail server's credentials,
// an SMS provider's account): the message becomes pending and gets a send job for its next attempt, in
// one transaction with its audit entry. Only while it can still open something: a provider's failure
// keeps the sealed token (services/outbox/send-message.ts), and the link must still be usable.
import { AppError } from '../../domain/errors.js';
import { type Db, inTransaction } from '../../ports/database.js';
import type { JobQueue } from '../../ports/job-queue.js';
import type { Channel } from '../../ports/notifier.js';
import type { AuditActor } from '../audit.js';
import { whyClosed } from './closed.js';
import { missingProvider, requeueMessage } from './requeue.js';

const refused = (reason: string) => new AppError('OUTBOX_NOT_RESENDABLE', { params: { reason } });

export async function resendFailedMessage(
  deps: { db: Db; queue: JobQueue; now: () => number; configured: (channel: Channel) => boolean },
  id: string,
  by: AuditActor,
): Promise<void> {
  await inTransaction(deps.db, async (trx) => {
    const message = await trx
      .selectFrom('outbox_messages')
      .select([
        'status',
        'channel',
        'attempts',
        'client_id',
        'link_id',
        'password_link_id',
        'link_token_sealed',
      ])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!message) throw new AppError('OUTBOX_MESSAGE_NOT_FOUND', { params: { id } });
    if (message.status !== 'failed') throw refused(`Message ${id} is ${message.status}, not failed`);
    if (!deps.configured(message.channel)) throw refused(missingProvider(message.channel));
    const closed = await whyClosed({ db: trx, now: deps.now }, message);
    if (closed) throw refused(`It cannot be sent again: ${closed.reason}`);
    if (message.link_token_sealed === null)
      throw refused('It cannot be sent again: its link is no longer kept. Make a new one');
    await requeueMessage(
      trx,
      deps,
      { ...message, id, status: 'failed' },
      { by, action: 'outbox.resend', before: { status: 'failed', attempts: message.attempts } },
    );
  });
}
