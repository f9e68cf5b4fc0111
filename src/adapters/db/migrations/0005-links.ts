import { sql, type Kysely } from 'kysely';

/**
 * Inspection links (docs/api.md#superapptoken): the link a token opens, the media captured behind it, and
 * the outbox of link messages (SMS and e-mail, docs/messages.md) sent by the worker after the response.
 */
export function links() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('links')
        // Also the id of the inspection the link turns into when submitted.
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id').onDelete('cascade'))
        .addColumn('persona_id', 'integer', (c) => c.notNull().references('personas.id'))
        // SHA-256 of the token, hex: tokens carry 256 random bits, so a fast hash is enough.
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('case_id', 'text')
        .addColumn('input_metadata', 'text')
        .addColumn('status', 'text', (c) =>
          c.notNull().check(sql`status in ('open', 'submitted', 'expired')`),
        )
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('opened_at', 'bigint')
        .addColumn('submitted_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('links_client_created')
        .on('links')
        .columns(['client_id', 'created_at'])
        .execute();

      await db.schema
        .createTable('link_media')
        // The resumable upload's id.
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('link_id', 'text', (c) => c.notNull().references('links.id').onDelete('cascade'))
        .addColumn('step_id', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('image', 'video')`))
        .addColumn('storage_key', 'text', (c) => c.notNull())
        .addColumn('sha256', 'text', (c) => c.notNull())
        .addColumn('bytes', 'bigint', (c) => c.notNull())
        .addColumn('mime', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      // One media per step: a retake replaces the earlier capture.
      await db.schema
        .createIndex('link_media_step')
        .on('link_media')
        .columns(['link_id', 'step_id'])
        .unique()
        .execute();

      await db.schema
        .createTable('outbox_messages')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id').onDelete('cascade'))
        .addColumn('link_id', 'text', (c) => c.references('links.id').onDelete('cascade'))
        .addColumn('channel', 'text', (c) => c.notNull().check(sql`channel in ('email', 'sms')`))
        .addColumn('recipient', 'text', (c) => c.notNull())
        .addColumn('language', 'text', (c) => c.notNull())
        .addColumn('subject', 'text')
        .addColumn('body', 'text', (c) => c.notNull())
        // held: no provider configured for the channel; the message stays in the local outbox.
        .addColumn('status', 'text', (c) =>
          c.notNull().check(sql`status in ('pending', 'sent', 'failed', 'held')`),
        )
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_error', 'text')
        .addColumn('provider_message_id', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('sent_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('outbox_messages_created')
        .on('outbox_messages')
        .columns(['client_id', 'created_at'])
        .execute();
    },
  };
}
