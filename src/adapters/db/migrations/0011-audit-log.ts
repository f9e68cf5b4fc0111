import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connect.js';

/**
 * The audit log (docs/audit.md): who changed what, and when, through the portal, the CLI or the client
 * API. Append-only: the database itself refuses to change or delete an entry (a trigger on each engine),
 * so no code path, however wrong, can rewrite the history.
 */
export function auditLog(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('audit_log')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addColumn('actor_kind', 'text', (c) =>
          c.notNull().check(sql`actor_kind in ('user', 'api_key', 'cli', 'system')`),
        )
        // The user's e-mail, the API key's visible prefix, `cli` or `system`.
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('actor_id', 'text')
        // The client the object belongs to (null for what belongs to none: operators, signing keys).
        .addColumn('client_id', 'text')
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('object_type', 'text', (c) => c.notNull())
        .addColumn('object_id', 'text', (c) => c.notNull())
        // JSON of the settings before and after, secrets left out; null where it does not apply.
        .addColumn('before', 'text')
        .addColumn('after', 'text')
        .addColumn('request_id', 'text')
        .execute();
      await db.schema.createIndex('audit_log_at').on('audit_log').columns(['at', 'id']).execute();
      await db.schema
        .createIndex('audit_log_client_at')
        .on('audit_log')
        .columns(['client_id', 'at', 'id'])
        .execute();
      if (dialect === 'postgres') {
        await sql`create function audit_log_append_only() returns trigger language plpgsql as $$
          begin raise exception 'audit_log is append-only'; end $$`.execute(db);
        await sql`create trigger audit_log_append_only before update or delete on audit_log
          for each row execute function audit_log_append_only()`.execute(db);
      } else {
        for (const event of ['update', 'delete'])
          await sql
            .raw(
              `create trigger audit_log_no_${event} before ${event} on audit_log
               begin select raise(abort, 'audit_log is append-only'); end`,
            )
            .execute(db);
      }
    },
  };
}
