import { sql, type Kysely } from 'kysely';

/**
 * Webhook messages (one per event and destination) and every delivery attempt: the delivery log of
 * docs/webhooks.md#the-delivery-log-and-re-sending.
 */
export function webhooks() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      // JSON array of the event types a client receives; null means all.
      await db.schema.alterTable('clients').addColumn('webhook_events', 'text').execute();
      // After a rotation, the previous secret also signs until this time (receivers switch over).
      await db.schema.alterTable('clients').addColumn('webhook_secret_previous_enc', 'text').execute();
      await db.schema.alterTable('clients').addColumn('webhook_secret_previous_until', 'bigint').execute();

      await db.schema
        .createTable('webhook_messages')
        // The `webhook-id` header: the same for every attempt of the message.
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id').onDelete('cascade'))
        .addColumn('inspection_id', 'text')
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) =>
          c.notNull().check(sql`status in ('pending', 'delivered', 'failed')`),
        )
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('webhook_messages_inspection')
        .on('webhook_messages')
        .columns(['inspection_id', 'created_at'])
        .execute();

      await db.schema
        .createTable('webhook_attempts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('message_id', 'text', (c) =>
          c.notNull().references('webhook_messages.id').onDelete('cascade'),
        )
        .addColumn('attempt', 'integer', (c) => c.notNull())
        .addColumn('started_at', 'bigint', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('status_code', 'integer')
        .addColumn('latency_ms', 'integer', (c) => c.notNull())
        .addColumn('response_excerpt', 'text')
        .addColumn('error', 'text')
        .addColumn('outcome', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('webhook_attempts_message')
        .on('webhook_attempts')
        .columns(['message_id', 'started_at'])
        .execute();
    },
  };
}
