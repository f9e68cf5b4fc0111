import type { Kysely } from 'kysely';

/**
 * The outbox's unfinished messages by status and channel, for the metrics read on every scrape
 * (docs/ops/metrics.md): counted from this index alone, so a scrape reads the held and pending messages,
 * never the sent ones that pile up for good.
 */
export function outboxStatus() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createIndex('outbox_messages_status')
        .on('outbox_messages')
        .columns(['status', 'channel'])
        .execute();
    },
  };
}
