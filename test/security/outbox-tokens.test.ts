// A database dump opens no link: after a link is created with an e-mail and a phone number, no column of
// any table holds its token, held messages included; rows written before tokens were sealed are sealed
// at start (docs/security.md#credentials-and-tenants). The messages themselves still carry a working
// link: test/e2e/outbox.test.ts follows them to the mail and SMS receivers, held and released.
import crypto from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/ports/database.js';
import { sealLegacyOutboxTokens } from '../../src/services/outbox/seal-tokens.js';
import { createPersona } from '../../src/services/personas/manage.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { BACKENDS } from '../helpers/backends.js';

/** Every table of the database (every schema but the system's on PostgreSQL), as `schema.table`. */
async function allTables(db: Db, backend: (typeof BACKENDS)[number]): Promise<string[]> {
  if (backend === 'sqlite') {
    const { rows } = await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(
      db,
    );
    return rows.map((r) => `"${r.name}"`);
  }
  const { rows } = await sql<{ schema: string; name: string }>`
    select table_schema as schema, table_name as name from information_schema.tables
    where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`.execute(db);
  return rows.map((r) => `"${r.schema}"."${r.name}"`);
}

/** The tables (and a row) where `needle` appears in any column, as text. */
async function whereFound(db: Db, backend: (typeof BACKENDS)[number], needle: string): Promise<string[]> {
  const found: string[] = [];
  for (const table of await allTables(db, backend)) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.raw(table)}`.execute(db);
    for (const row of rows) {
      const text = JSON.stringify(row, (_k, v: unknown) =>
        Buffer.isBuffer(v) ? v.toString('latin1') : typeof v === 'bigint' ? String(v) : v,
      );
      if (text.includes(needle)) found.push(`${table}: ${text.slice(0, 200)}`);
    }
  }
  return found;
}

describe.each(BACKENDS)('link tokens in the database on %s', (backend) => {
  let t: TestApp;
  let client: { id: string; apiKey: string };
  let personaId: number;

  beforeAll(async () => {
    t = await startTestApp(backend);
    client = await t.newClient();
    personaId = (await createPersona(t.deps, { clientId: client.id, kind: 'photo' })).id;
  });
  afterAll(async () => t?.close());

  it('are nowhere in clear after a link with an e-mail and a phone number (messages held)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/superappToken',
      payload: {
        apiKey: client.apiKey,
        personaId,
        userDetails: { email: 'driver@example.com', phone: '+33612345678' },
      },
    });
    const { token } = res.json<{ token: string }>();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const messages = await t.deps.db.selectFrom('outbox_messages').selectAll().execute();
    expect(messages.map((m) => m.status).sort()).toEqual(['held', 'held']);
    for (const message of messages) {
      expect(message.body).toContain('/#[redacted]');
      expect(t.deps.secrets.open(message.link_token_sealed!)).toBe(token);
    }
    expect(await whereFound(t.deps.db, backend, token)).toEqual([]);
  });

  it('seals, at start, the tokens that earlier rows kept in clear', async () => {
    const token = crypto.randomBytes(32).toString('base64url');
    const row = (id: string, status: 'held' | 'sent') => ({
      id,
      client_id: client.id,
      link_id: null,
      channel: 'sms' as const,
      recipient: '+33612345678',
      language: 'en',
      subject: null,
      body: `Your inspection link: https://capture.example.com/app/#${token}`,
      link_token_sealed: null,
      status,
      created_at: Date.now(),
      updated_at: Date.now(),
    });
    await t.deps.db
      .insertInto('outbox_messages')
      .values([row('out_legacy_held', 'held'), row('out_legacy_sent', 'sent')])
      .execute();
    expect(await sealLegacyOutboxTokens(t.deps)).toBe(2);
    expect(await sealLegacyOutboxTokens(t.deps)).toBe(0);
    expect(await whereFound(t.deps.db, backend, token)).toEqual([]);
    const [held, sent] = await Promise.all(
      ['out_legacy_held', 'out_legacy_sent'].map((id) =>
        t.deps.db.selectFrom('outbox_messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
      ),
    );
    expect(t.deps.secrets.open(held!.link_token_sealed!)).toBe(token);
    expect(sent!.link_token_sealed).toBeNull();
  });
});
