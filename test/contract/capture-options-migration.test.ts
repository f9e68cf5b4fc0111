// Migration 0006 on SQLite and PostgreSQL: personas written before the capture options keep working, with
// the defaults (no gallery, no location, photos as captured, poor-quality photos accepted).
import { Migrator, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openDatabase, type Database } from '../../src/adapters/db/connect.js';
import { migrationProvider } from '../../src/adapters/db/migrations/index.js';
import { getPersona, personaView } from '../../src/services/personas/manage.js';
import { BACKENDS, testEnvironment, type TestEnvironment } from '../helpers/backends.js';

const OLD_STEPS = [
  { id: 'front', label: 'Front', instructions: 'The whole front.', required: true, overlay: 'front' },
  { id: 'vin', label: 'VIN', instructions: '', required: false, overlay: 'vin' },
];

describe.each(BACKENDS)('migration 0006-capture-options on %s', (backend) => {
  let environment: TestEnvironment;
  let database: Database;

  beforeAll(async () => {
    environment = await testEnvironment(backend);
    database = openDatabase(environment.config.database);
    const migrator = new Migrator({ db: database.db, provider: migrationProvider(database.dialect) });
    const { error } = await migrator.migrateTo('0005-links');
    if (error) throw error instanceof Error ? error : new Error('migration to 0005 failed');
  });
  afterAll(async () => {
    await database?.close();
    await environment?.cleanup();
  });

  it('fills the defaults of personas written before it', async () => {
    // The tables as 0005 left them: written without the typed port, whose columns are the new ones.
    const old = database.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    await old
      .insertInto('clients')
      .values({
        id: 'c1',
        name: 'Old client',
        webhook_secret_enc: 'x',
        quota_per_hour: 10,
        timezone: 'UTC',
        link_ttl_seconds: 3600,
        created_at: 1,
        updated_at: 1,
      })
      .execute();
    await old
      .insertInto('personas')
      .values({
        client_id: 'c1',
        name: 'Old persona',
        kind: 'photo',
        language: 'en',
        steps: JSON.stringify(OLD_STEPS),
        branding: '{}',
        created_at: 1,
      })
      .execute();

    expect((await migrate(database))[0]).toBe('0006-capture-options');

    const [row] = await database.db.selectFrom('personas').selectAll().execute();
    expect(row).toMatchObject({ allow_gallery: 0, ask_location: 0, max_photo_dimension: null });
    expect(JSON.parse(row!.steps)).toEqual(OLD_STEPS.map((s) => ({ ...s, accept_poor_quality: true })));
    const view = personaView((await getPersona(database.db, { id: row!.id }))!);
    expect(view).toMatchObject({ allow_gallery: false, ask_location: false, max_photo_dimension: null });
  });
});
