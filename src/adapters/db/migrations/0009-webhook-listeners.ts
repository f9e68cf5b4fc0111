import type { Kysely } from 'kysely';

/**
 * Local listeners (`walkaround webhooks listen`, ADR 12): a client's events may be delivered to loopback on
 * `port` while its listener is live, that is until `expires_at`, which the listener keeps pushing forward.
 */
export function webhookListeners() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('webhook_listeners')
        .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id').onDelete('cascade'))
        .addColumn('port', 'integer', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('webhook_listeners_pk', ['client_id', 'port'])
        .execute();
    },
  };
}
