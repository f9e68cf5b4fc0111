// The outbox's unfinished messages (held: no provider for their channel; pending: to be sent), by channel
// and status, for the metrics read on a scrape (docs/ops/metrics.md). Read from the status index alone.
import type { Db } from '../../ports/database.js';
import type { OutboxBacklog } from '../../ports/metrics.js';

export async function outboxBacklog(db: Db): Promise<OutboxBacklog[]> {
  const rows = await db
    .selectFrom('outbox_messages')
    .where('status', 'in', ['held', 'pending'])
    .groupBy(['status', 'channel'])
    .select((eb) => ['status', 'channel', eb.fn.countAll<number | string>().as('messages')])
    .execute();
  return rows.map((row) => ({
    channel: row.channel,
    status: row.status as OutboxBacklog['status'],
    messages: Number(row.messages), // PostgreSQL answers counts as text
  }));
}
