import type { Kysely } from 'kysely';

/**
 * A client's delivery log across its inspections (the portal's console), newest first: found by client
 * and creation time, not by scanning every client's messages.
 */
export function clientDeliveries() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createIndex('webhook_messages_client')
        .on('webhook_messages')
        .columns(['client_id', 'created_at', 'id'])
        .execute();
    },
  };
}
