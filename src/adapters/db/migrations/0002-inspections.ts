import { sql, type Kysely } from 'kysely';

/** Inspections, their media, the job queue and worker heartbeats (upload and analysis). */
export function inspections() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('inspections')
        // The session id of the upload (or of the link) that created it.
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id').onDelete('cascade'))
        .addColumn('case_id', 'text', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull().check(sql`source in ('urls', 'file', 'link')`))
        .addColumn('status', 'text', (c) =>
          c.notNull().check(sql`status in ('queued', 'processing', 'completed', 'failed')`),
        )
        .addColumn('callback_url', 'text')
        .addColumn('agent_id', 'text')
        .addColumn('agent_name', 'text')
        .addColumn('email_id', 'text')
        .addColumn('input_metadata', 'text')
        .addColumn('original_pair_ids', 'text')
        .addColumn('result', 'text')
        .addColumn('result_version', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('inspections_client_created')
        .on('inspections')
        .columns(['client_id', 'created_at'])
        .execute();

      await db.schema
        .createTable('media')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('inspection_id', 'text', (c) =>
          c.notNull().references('inspections.id').onDelete('cascade'),
        )
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('image', 'video')`))
        // Set for members of a url_pairs entry: which pair, and first (0) or second (1).
        .addColumn('pair_index', 'integer')
        .addColumn('pair_member', 'integer')
        .addColumn('original_id', 'text')
        .addColumn('source_url', 'text')
        .addColumn('storage_key', 'text', (c) => c.notNull())
        .addColumn('sha256', 'text', (c) => c.notNull())
        .addColumn('bytes', 'bigint', (c) => c.notNull())
        .addColumn('mime', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('media_inspection')
        .on('media')
        .columns(['inspection_id', 'position'])
        .execute();
      await db.schema.createIndex('media_sha256').on('media').column('sha256').execute();

      await db.schema
        .createTable('jobs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('task', 'text', (c) => c.notNull())
        // Idempotency key: one live job per key (for example one analysis per inspection).
        .addColumn('key', 'text', (c) => c.notNull().unique())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) =>
          c.notNull().check(sql`status in ('pending', 'running', 'completed', 'failed')`),
        )
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('max_attempts', 'integer', (c) => c.notNull())
        .addColumn('run_at', 'bigint', (c) => c.notNull())
        .addColumn('locked_by', 'text')
        .addColumn('locked_until', 'bigint')
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('jobs_due').on('jobs').columns(['status', 'run_at']).execute();

      await db.schema
        .createTable('workers')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('host', 'text', (c) => c.notNull())
        .addColumn('started_at', 'bigint', (c) => c.notNull())
        .addColumn('heartbeat_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  };
}
