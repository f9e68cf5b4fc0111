// The stores behind clients, keys, personas, portal users and bootstrap, on SQLite and on PostgreSQL.
import { CLI_ACTOR } from '../../src/services/audit.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/adapters/db/connect.js';
import { buildStorageDeps } from '../../src/deps.js';
import { findKeyOwner } from '../../src/services/api-keys.js';
import { createDemoClientOnce } from '../../src/services/bootstrap.js';
import {
  createClient,
  listClients,
  revokeKeys,
  rotateKey,
  updateClient,
} from '../../src/services/clients/manage.js';
import { spendCredential } from '../../src/services/session-tokens.js';
import { createPersona, listPersonas } from '../../src/services/personas/manage.js';
import { AppError } from '../../src/domain/errors.js';
import { createPortalUser, verifyPassword } from '../../src/services/users/accounts.js';
import { BACKENDS, testEnvironment, type TestEnvironment } from '../helpers/backends.js';

type Storage = Awaited<ReturnType<typeof buildStorageDeps>>;

describe.each(BACKENDS)('database on %s', (backend) => {
  let environment: TestEnvironment;
  let deps: Storage;

  beforeAll(async () => {
    environment = await testEnvironment(backend);
    deps = await buildStorageDeps(environment.config, { migrate: true });
  });
  afterAll(async () => {
    await deps?.database.close();
    await environment?.cleanup();
  });

  it('migrates once; a second run applies nothing', async () => {
    expect(await migrate(deps.database)).toEqual([]);
  });

  describe('clients', () => {
    it('creates a client with defaults and a key that finds it', async () => {
      const { client, apiKey, webhookSecret } = await createClient(deps, { name: 'Acme Insurance' });
      expect(client).toMatchObject({
        name: 'Acme Insurance',
        quota_per_hour: 1000,
        timezone: 'UTC',
        link_ttl_seconds: 259200,
      });
      expect(apiKey).toMatch(/^wk_live_[A-Za-z0-9_-]{32}$/);
      expect(webhookSecret).toMatch(/^whsec_/);
      const owner = await findKeyOwner(deps.db, apiKey, Date.now());
      expect(owner?.client.id).toBe(client.id);
      expect(owner?.client.name).toBe('Acme Insurance');
    });

    it('updates settings and normalises "always" to no window', async () => {
      const { client } = await createClient(deps, { name: 'Windowed' });
      const updated = await updateClient(
        deps,
        client.id,
        {
          quotaPerHour: 50,
          serviceWindow: 'Mon-Fri 08:00-18:00',
          timezone: 'Europe/Paris',
          linkTtlSeconds: 3600,
          webhookUrl: 'https://hooks.example.com/walkaround',
        },
        CLI_ACTOR,
      );
      expect(updated).toMatchObject({
        quota_per_hour: 50,
        service_window: 'mon-fri 08:00-18:00',
        timezone: 'Europe/Paris',
        link_ttl_seconds: 3600,
        webhook_url: 'https://hooks.example.com/walkaround',
      });
      expect(
        (await updateClient(deps, client.id, { serviceWindow: 'always' }, CLI_ACTOR)).service_window,
      ).toBeNull();
    });

    it.each([
      [{ quotaPerHour: 0 }, /quota/],
      [{ serviceWindow: 'weekdays' }, /service window/],
      [{ timezone: 'Mars/Olympus' }, /time zone/],
      [{ webhookUrl: 'ftp://x' }, /webhook URL/],
      [{ linkTtlSeconds: 5 }, /link validity/],
    ])('refuses %j', async (settings, message) => {
      const { client } = await createClient(deps, { name: 'Strict' });
      await expect(updateClient(deps, client.id, settings, CLI_ACTOR)).rejects.toThrow(message);
    });

    it('refuses to update an unknown client', async () => {
      await expect(updateClient(deps, 'nope', { quotaPerHour: 5 }, CLI_ACTOR)).rejects.toMatchObject({
        code: 'CLIENT_NOT_FOUND',
      });
    });

    it('lists clients with the prefixes of their live keys only', async () => {
      const { client, apiKey } = await createClient(deps, { name: 'Listed' });
      const rotated = await rotateKey(deps, client.id, 0, CLI_ACTOR);
      const listed = (await listClients(deps)).find((c) => c.id === client.id);
      expect(listed?.keys.map((k) => k.prefix)).toEqual([rotated.slice(0, 14)]);
      expect(JSON.stringify(listed)).not.toContain(apiKey);
    });

    it('revokes one key by prefix, or all', async () => {
      const { client, apiKey } = await createClient(deps, { name: 'Revoking' });
      const second = await rotateKey(deps, client.id, 3600, CLI_ACTOR);
      expect(await revokeKeys(deps, client.id, apiKey.slice(0, 14), CLI_ACTOR)).toBe(1);
      expect(await findKeyOwner(deps.db, apiKey, Date.now())).toBeUndefined();
      expect(await findKeyOwner(deps.db, second, Date.now())).toBeDefined();
      expect(await revokeKeys(deps, client.id, undefined, CLI_ACTOR)).toBe(1);
      expect(await findKeyOwner(deps.db, second, Date.now())).toBeUndefined();
      await expect(revokeKeys(deps, client.id, 'wk_live_nope', CLI_ACTOR)).rejects.toThrow(/No live key/);
    });
  });

  describe('single-use credentials', () => {
    it('are spent exactly once, also when many try at the same time', async () => {
      const credential = {
        kind: 'session' as const,
        id: crypto.randomUUID(),
        clientId: 'c',
        expiresAt: Date.now() + 1000,
      };
      const results = await Promise.all(
        Array.from({ length: 20 }, () => spendCredential(deps.db, credential, Date.now())),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
    });
  });

  describe('personas', () => {
    it('creates personas with integer ids from the built-in templates', async () => {
      const { client } = await createClient(deps, { name: 'Persona owner' });
      const photo = await createPersona(deps, { clientId: client.id, kind: 'photo' });
      const video = await createPersona(deps, { clientId: client.id, kind: 'video', language: 'fr' });
      expect(Number.isInteger(photo.id)).toBe(true);
      expect(video.id).toBeGreaterThan(photo.id);
      const steps = JSON.parse(photo.steps) as { id: string }[];
      expect(steps.map((s) => s.id)).toEqual([
        'front',
        'front_right',
        'right',
        'rear_right',
        'rear',
        'rear_left',
        'left',
        'front_left',
        'odometer',
        'vin',
        'plate',
      ]);
      expect(video).toMatchObject({
        kind: 'video',
        language: 'fr',
        video_min_seconds: 30,
        video_max_seconds: 120,
      });
      expect(JSON.parse(photo.branding)).toEqual({ name: 'Persona owner' });
      expect((await listPersonas(deps.db, client.id)).map((p) => p.id)).toEqual([photo.id, video.id]);
    });

    it('refuses an unknown client or language', async () => {
      await expect(createPersona(deps, { clientId: 'nope', kind: 'photo' })).rejects.toMatchObject({
        code: 'CLIENT_NOT_FOUND',
      });
      const { client } = await createClient(deps, { name: 'Lang' });
      await expect(
        createPersona(deps, { clientId: client.id, kind: 'photo', language: 'xx' }),
      ).rejects.toThrow(/language/);
    });
  });

  describe('portal users', () => {
    it('stores a scrypt hash that verifies the password', async () => {
      const user = await createPortalUser(deps, {
        email: 'Ops@Example.com',
        password: 'correct horse battery',
        role: 'operator',
      });
      expect(user.email).toBe('ops@example.com');
      expect(user.password_hash).not.toContain('correct horse');
      expect(await verifyPassword('correct horse battery', user.password_hash)).toBe(true);
      expect(await verifyPassword('wrong horse battery', user.password_hash)).toBe(false);
    });

    it('ties client users to an existing client and refuses duplicates and weak input', async () => {
      const { client } = await createClient(deps, { name: 'Users' });
      const user = await createPortalUser(deps, {
        email: 'a@users.test',
        password: 'long enough pass',
        role: 'client_viewer',
        clientId: client.id,
      });
      expect(user.client_id).toBe(client.id);
      const attempts = [
        {
          email: 'a@users.test',
          password: 'long enough pass',
          role: 'client_viewer' as const,
          clientId: client.id,
        },
        { email: 'not-an-email', password: 'long enough pass', role: 'operator' as const },
        { email: 'b@users.test', password: 'short', role: 'operator' as const },
        { email: 'c@users.test', password: 'long enough pass', role: 'client_viewer' as const },
        {
          email: 'd@users.test',
          password: 'long enough pass',
          role: 'client_viewer' as const,
          clientId: 'nope',
        },
      ];
      for (const attempt of attempts)
        await expect(createPortalUser(deps, attempt)).rejects.toBeInstanceOf(AppError);
    });
  });
});

describe.each(BACKENDS)('first start on %s', (backend) => {
  // Several processes starting together is tested with real processes in test/e2e/serve.test.ts: SQLite
  // connections in one process would wait on each other synchronously.
  it('creates the demo client on an empty database, and never again', async () => {
    const environment = await testEnvironment(backend);
    const deps = await buildStorageDeps(environment.config, { migrate: true });
    try {
      const created = await createDemoClientOnce(deps);
      expect(created?.client.name).toBe('Demo client');
      expect(await findKeyOwner(deps.db, created!.apiKey, Date.now())).toBeDefined();
      expect(await createDemoClientOnce(deps)).toBeUndefined();
      const clients = await deps.db.selectFrom('clients').select('name').execute();
      expect(clients).toEqual([{ name: 'Demo client' }]);
    } finally {
      await deps.database.close();
      await environment.cleanup();
    }
  });
});
