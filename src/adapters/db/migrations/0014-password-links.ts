import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Dialect } from '../connect.js';

/**
 * Invitations and password resets from the portal (docs/portal.md#users): one-time set-password links,
 * kept as their token's SHA-256, sent by e-mail through the outbox like link messages. The outbox learns
 * what each message is (`kind`) and the set-password link it carries; an operator's invitation belongs
 * to no client, so `client_id` becomes nullable. SQLite cannot drop a NOT NULL constraint, so there the
 * outbox is rebuilt (its rows, sealed tokens and indexes kept); PostgreSQL alters it in place.
 */
export function passwordLinks(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('password_links')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('portal_users.id').onDelete('cascade'))
        // SHA-256 of the token; the token itself travels only in the e-mail.
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose in ('invite', 'reset')`))
        // The portal user who asked for it; null from the command line.
        .addColumn('created_by', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        // Set when a newer link of the same user replaces it, or the user is disabled.
        .addColumn('revoked_at', 'bigint')
        .execute();
      await db.schema.createIndex('password_links_user').on('password_links').column('user_id').execute();

      const kind = sql`kind in ('link', 'invitation', 'password_reset')`;
      if (dialect === 'postgres') {
        await sql`alter table outbox_messages alter column client_id drop not null`.execute(db);
        await db.schema
          .alterTable('outbox_messages')
          .addColumn('kind', 'text', (c) => c.notNull().defaultTo('link').check(kind))
          .execute();
        await db.schema
          .alterTable('outbox_messages')
          .addColumn('password_link_id', 'text', (c) =>
            c.references('password_links.id').onDelete('set null'),
          )
          .execute();
      } else await rebuildOutbox(db, kind);
      // The messages of a set-password link, found when it is used (their sealed tokens are erased).
      await db.schema
        .createIndex('outbox_messages_password_link')
        .on('outbox_messages')
        .column('password_link_id')
        .execute();
    },
  };
}

async function rebuildOutbox(db: Kysely<unknown>, kind: RawBuilder<unknown>): Promise<void> {
  await db.schema
    .createTable('outbox_messages_new')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.references('clients.id').onDelete('cascade'))
    .addColumn('link_id', 'text', (c) => c.references('links.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('link').check(kind))
    .addColumn('password_link_id', 'text', (c) => c.references('password_links.id').onDelete('set null'))
    .addColumn('channel', 'text', (c) => c.notNull().check(sql`channel in ('email', 'sms')`))
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('subject', 'text')
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('link_token_sealed', 'text')
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
  await sql`insert into outbox_messages_new (id, client_id, link_id, channel, recipient, language, subject,
          body, link_token_sealed, status, attempts, last_error, provider_message_id, created_at, updated_at,
          sent_at)
        select id, client_id, link_id, channel, recipient, language, subject, body, link_token_sealed, status,
          attempts, last_error, provider_message_id, created_at, updated_at, sent_at
        from outbox_messages`.execute(db);
  await db.schema.dropTable('outbox_messages').execute();
  await db.schema.alterTable('outbox_messages_new').renameTo('outbox_messages').execute();
  await db.schema
    .createIndex('outbox_messages_created')
    .on('outbox_messages')
    .columns(['client_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('outbox_messages_status')
    .on('outbox_messages')
    .columns(['status', 'channel'])
    .execute();
}
