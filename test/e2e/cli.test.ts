// The operator CLI (README.md#operating-it) as an operator runs it: real processes, exit codes,
// --json output.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/adapters/db/connect.js';
import { createSignInLimits } from '../../src/deps.js';
import { NO_PASSWORD } from '../../src/services/users/accounts.js';
import { BACKENDS, testEnvironment, type TestEnvironment } from '../helpers/backends.js';
import { runCli } from '../helpers/process.js';

describe.each(BACKENDS)('walkaround CLI on %s', (backend) => {
  let environment: TestEnvironment;
  const cli = (...args: string[]) => runCli(args, environment.env);
  /** Runs a --json command: exit 0 and exactly one JSON object on stdout. */
  const json = async <T = Record<string, unknown>>(...args: string[]): Promise<T> => {
    const result = await cli(...args, '--json');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(1);
    return JSON.parse(result.stdout) as T;
  };

  beforeAll(async () => {
    environment = await testEnvironment(backend);
  });
  afterAll(async () => environment?.cleanup());

  it('migrate applies the migrations once', async () => {
    expect(await json('migrate')).toEqual({
      database: backend,
      applied: [
        '0001-foundation',
        '0002-inspections',
        '0003-analysis',
        '0004-webhooks',
        '0005-links',
        '0006-capture-options',
        '0007-outbox-sealed-tokens',
        '0008-portal',
        '0009-webhook-listeners',
        '0010-outbox-status',
        '0011-audit-log',
        '0012-client-deliveries',
        '0013-persona-logos',
        '0014-password-links',
        '0015-vehicles',
        '0016-rate-cards',
        '0017-share-details',
      ],
    });
    expect(await json('migrate')).toEqual({ database: backend, applied: [] });
  });

  it('clients create prints the id, API key and webhook secret; update, list, rotate-key and revoke-key work', async () => {
    const created = await json<{ id: string; api_key: string; webhook_secret: string }>(
      'clients',
      'create',
      '--name',
      'Acme',
      '--webhook-url',
      'https://hooks.example.com/a',
      '--quota',
      '500',
    );
    expect(created).toMatchObject({
      name: 'Acme',
      webhook_url: 'https://hooks.example.com/a',
      quota_per_hour: 500,
    });
    expect(created.api_key).toMatch(/^wk_live_/);
    expect(created.webhook_secret).toMatch(/^whsec_/);

    const updated = await json(
      'clients',
      'update',
      created.id,
      '--service-window',
      'mon-fri 08:00-18:00',
      '--timezone',
      'Europe/Paris',
      '--token-ttl',
      '48h',
    );
    expect(updated).toMatchObject({
      service_window: 'mon-fri 08:00-18:00',
      timezone: 'Europe/Paris',
      link_ttl_seconds: 172800,
    });

    const rotated = await json<{ api_key: string }>('clients', 'rotate-key', created.id, '--grace', '0');
    expect(rotated.api_key).not.toBe(created.api_key);

    const listed = await json<{ clients: { id: string; keys: { prefix: string }[] }[] }>('clients', 'list');
    const acme = listed.clients.find((c) => c.id === created.id);
    expect(acme?.keys.map((k) => k.prefix)).toEqual([rotated.api_key.slice(0, 14)]);
    expect(JSON.stringify(listed)).not.toContain(created.api_key);

    expect(await json('clients', 'revoke-key', created.id)).toEqual({ client_id: created.id, revoked: 1 });
  });

  it('takes a private webhook URL when the operator sets ALLOW_PRIVATE_NETWORKS=true', async () => {
    const url = 'http://localhost:9000/hook';
    const args = ['clients', 'create', '--name', 'Local', '--webhook-url', url, '--json'];
    const created = await runCli(args, { ...environment.env, ALLOW_PRIVATE_NETWORKS: 'true' });
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ webhook_url: url });
  });

  it('prints readable text without --json', async () => {
    const result = await cli('clients', 'create', '--name', 'Readable');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/API key:\s+wk_live_/);
    expect(result.stdout).toContain('shown this once');
  });

  it('personas create prints an integer persona id; personas list shows it', async () => {
    const { id: clientId } = await json<{ id: string }>('clients', 'create', '--name', 'With personas');
    const photo = await json<{ id: number; steps: unknown[] }>(
      'personas',
      'create',
      '--client',
      clientId,
      '--kind',
      'photo',
    );
    expect(Number.isInteger(photo.id)).toBe(true);
    expect(photo.steps).toHaveLength(11);
    const video = await json<{ id: number; kind: string }>(
      'personas',
      'create',
      '--client',
      clientId,
      '--kind',
      'video',
    );
    expect(video.kind).toBe('video');
    const listed = await json<{ personas: { id: number }[] }>('personas', 'list', '--client', clientId);
    expect(listed.personas.map((p) => p.id)).toEqual([photo.id, video.id]);

    const steps = path.join(environment.dataDir, 'steps.json');
    fs.writeFileSync(
      steps,
      JSON.stringify([
        { id: 'front', label: 'Front' },
        { id: 'vin', label: 'VIN', required: false },
      ]),
    );
    const updated = await json<{
      steps: { id: string; required: boolean }[];
      branding: object;
      language: string;
    }>(
      'personas',
      'update',
      String(photo.id),
      '--steps',
      steps,
      '--brand-colour',
      '#112233',
      '--language',
      'es',
    );
    expect(updated.steps.map((s) => [s.id, s.required])).toEqual([
      ['front', true],
      ['vin', false],
    ]);
    expect(updated.branding).toEqual({ name: 'With personas', colour: '#112233' });
    expect(updated.language).toBe('es');
    const refused = await cli(
      'personas',
      'update',
      String(video.id),
      '--video-min',
      '200',
      '--video-max',
      '100',
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toBe(
      'walkaround: video length bounds must be whole seconds with 1 <= min <= max <= 600',
    );
  });

  it('personas create and update set the capture options; --json and the text show them', async () => {
    const { id: clientId } = await json<{ id: string }>('clients', 'create', '--name', 'With options');
    const created = await json<{ id: number; name: string; steps: { label: string }[] }>(
      'personas',
      'create',
      '--client',
      clientId,
      '--kind',
      'photo',
      '--language',
      'es',
      '--allow-gallery',
      '--ask-location',
      '--max-photo-dimension',
      '2048',
    );
    expect(created).toMatchObject({
      name: 'Recorrido del vehículo en ocho ángulos',
      allow_gallery: true,
      ask_location: true,
      max_photo_dimension: 2048,
    });
    expect(created.steps[0]!.label).toBe('Delantera');

    const updated = await json(
      'personas',
      'update',
      String(created.id),
      '--no-allow-gallery',
      '--max-photo-dimension',
      'none',
    );
    expect(updated).toMatchObject({ allow_gallery: false, ask_location: true, max_photo_dimension: null });

    const text = await cli('personas', 'list', '--client', clientId);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/gallery:\s+not allowed/);
    expect(text.stdout).toMatch(/location:\s+asked/);
    expect(text.stdout).toMatch(/max photo size:\s+as captured/);

    const refused = await cli('personas', 'update', String(created.id), '--max-photo-dimension', '100');
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toBe(
      'walkaround: max_photo_dimension must be a whole number of pixels from 640 to 8192, or null',
    );
  });

  it('users create, update, reset-password and list manage portal accounts', async () => {
    const operator = await json<{ password: string; role: string }>(
      'users',
      'create',
      '--email',
      'ops@example.com',
      '--role',
      'operator',
    );
    expect(operator.role).toBe('operator');
    expect(operator.password.length).toBeGreaterThanOrEqual(12);
    const { id: clientId } = await json<{ id: string }>('clients', 'create', '--name', 'With users');
    const viaStdin = await runCli(
      [
        'users',
        'create',
        '--email',
        'viewer@example.com',
        '--role',
        'client-viewer',
        '--client',
        clientId,
        '--password-stdin',
        '--json',
      ],
      environment.env,
      'a long enough password\n',
    );
    expect(viaStdin.code).toBe(0);
    expect(JSON.parse(viaStdin.stdout)).toMatchObject({
      email: 'viewer@example.com',
      role: 'client-viewer',
      client_id: clientId,
    });
    expect(viaStdin.stdout).not.toContain('password');

    const promoted = await json<{ role: string }>(
      'users',
      'update',
      '--email',
      'viewer@example.com',
      '--role',
      'client-admin',
    );
    expect(promoted.role).toBe('client-admin');
    const reset = await json<{ password: string }>(
      'users',
      'reset-password',
      '--email',
      'viewer@example.com',
    );
    expect(reset.password.length).toBeGreaterThanOrEqual(12);
    // A user invited from the portal who has not used the set-password link yet, as the invite leaves it.
    await json(
      'users',
      'create',
      '--email',
      'invited@example.com',
      '--role',
      'client-viewer',
      '--client',
      clientId,
    );
    const database = openDatabase(environment.config.database);
    await database.db
      .updateTable('portal_users')
      .set({ password_hash: NO_PASSWORD })
      .where('email', '=', 'invited@example.com')
      .execute();
    await database.close();
    const listed = await json<{ users: { email: string; role: string }[] }>('users', 'list');
    expect(listed.users).toEqual([
      expect.objectContaining({ email: 'invited@example.com', invited: true }),
      expect.objectContaining({ email: 'ops@example.com', role: 'operator', invited: false }),
      expect.objectContaining({ email: 'viewer@example.com', role: 'client-admin', invited: false }),
    ]);
    const text = await cli('users', 'list');
    expect(text.stdout).toMatch(
      /invited@example\.com {2}client-viewer of \S+ {2}\(invited, no password yet\)/,
    );
    expect(text.stdout).not.toMatch(/viewer@example\.com.*invited/);
    const unknown = await runCli(
      ['users', 'reset-password', '--email', 'nobody@example.com'],
      environment.env,
    );
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No user with e-mail nobody@example.com');
  });

  it('users unlock lifts the sign-in lock of a user locked out by wrong passwords', async () => {
    await json('users', 'create', '--email', 'locked@example.com', '--role', 'operator');
    const database = openDatabase(environment.config.database);
    try {
      const limits = await createSignInLimits({ database, redis: undefined });
      const key = 'account:locked@example.com';
      for (let i = 0; i < 5; i++) expect(await limits.account.attempt(key)).toBe(0);
      expect(await limits.account.blockedFor(key)).toBeGreaterThan(0);
      const unlocked = await cli('users', 'unlock', '--email', 'Locked@Example.com');
      expect(unlocked.code).toBe(0);
      expect(unlocked.stdout).toContain('locked@example.com may sign in again.');
      expect(await limits.account.blockedFor(key)).toBe(0);
      const entry = await database.db
        .selectFrom('audit_log')
        .select(['actor', 'object_type'])
        .where('action', '=', 'user.unlock')
        .executeTakeFirstOrThrow();
      expect(entry).toEqual({ actor: 'cli', object_type: 'user' });
    } finally {
      await database.close();
    }
    const unknown = await runCli(['users', 'unlock', '--email', 'nobody@example.com'], environment.env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No user with e-mail nobody@example.com');
  });

  it('vehicles list, show and merge: the merged vehicle keeps both plates and every inspection', async () => {
    const client = await json<{ id: string }>('clients', 'create', '--name', 'Fleet');
    const database = openDatabase(environment.config.database);
    try {
      const now = Date.now();
      const vehicle = (id: string, plate: string, at: number) => ({
        id,
        client_id: client.id,
        vin: null,
        plate,
        created_at: at,
        updated_at: at,
      });
      await database.db
        .insertInto('vehicles')
        .values([vehicle('old-plate', 'AB123CD', now - 1000), vehicle('new-plate', 'GH456JK', now)])
        .execute();
      await database.db
        .insertInto('vehicle_keys')
        .values([
          { client_id: client.id, kind: 'plate', value: 'AB123CD', vehicle_id: 'old-plate' },
          { client_id: client.id, kind: 'plate', value: 'GH456JK', vehicle_id: 'new-plate' },
        ])
        .execute();
    } finally {
      await database.close();
    }
    const listed = await json<{ vehicles: { id: string }[] }>('vehicles', 'list', '--client', client.id);
    expect(listed.vehicles.map((v) => v.id)).toEqual(['new-plate', 'old-plate']);
    const merged = await json<{ id: string; plate: string }>('vehicles', 'merge', 'new-plate', 'old-plate');
    expect(merged).toMatchObject({ id: 'old-plate', plate: 'AB123CD' });
    const shown = await json<{ keys: { kind: string; value: string }[] }>(
      'vehicles',
      'show',
      'old-plate',
      '--client',
      client.id,
    );
    expect(shown.keys).toEqual([
      { kind: 'plate', value: 'AB123CD' },
      { kind: 'plate', value: 'GH456JK' },
    ]);
    // The new plate now finds the merged vehicle.
    const found = await json<{ vehicles: { id: string }[] }>(
      'vehicles',
      'list',
      '--client',
      client.id,
      '--search',
      'gh-456-jk',
    );
    expect(found.vehicles.map((v) => v.id)).toEqual(['old-plate']);
    const again = await cli('vehicles', 'merge', 'new-plate', 'old-plate');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('No vehicle new-plate');
  });

  it('clients rate-card get and set: the example card, then a card from a file and prices from CSV', async () => {
    const client = await json<{ id: string }>('clients', 'create', '--name', 'Claims Co');
    const example = JSON.parse((await cli('clients', 'rate-card', 'get', client.id)).stdout) as {
      version: number;
      example: boolean;
    };
    expect(example).toMatchObject({ version: 0, example: true });
    const dir = fs.mkdtempSync(path.join(environment.dataDir, 'card-'));
    const card = path.join(dir, 'card.json');
    fs.writeFileSync(
      card,
      JSON.stringify({
        currency: 'JPY',
        labour_rate: 7000,
        paint_rate: 6500,
        paint_material_rate: 1200,
        part_prices: {},
        total_loss_share: 0.6,
      }),
    );
    const prices = path.join(dir, 'prices.csv');
    fs.writeFileSync(prices, 'part;price\nfront_bumper;52000\nbonnet;61000,5\n');
    const set = await cli('clients', 'rate-card', 'set', client.id, '--file', card, '--prices', prices);
    expect(set.code).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({
      version: 1,
      example: false,
      card: { currency: 'JPY', part_prices: { front_bumper: 52000, bonnet: 61000.5 } },
    });
    fs.writeFileSync(prices, 'part,price\nfront_bumper,lots\n');
    const bad = await cli('clients', 'rate-card', 'set', client.id, '--prices', prices);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('Rate card is invalid: row 2 of the prices: expected part,price');
    // No inspection in the range: the header alone.
    const exported = await cli('estimates', 'export', '--since', '2026-01-01', '--client', client.id);
    expect(exported.code).toBe(0);
    expect(exported.stdout.trim()).toBe(
      'inspection_id,case_id,currency,rate_card_version,part,part_source,operation,labour_hours,labour_cost,paint_hours,paint_cost,parts_cost,total,source,damage_ids',
    );
  });

  it('audit export prints what the commands before changed, as JSON lines, attributed to the CLI', async () => {
    const since = new Date(Date.now() - 1000).toISOString();
    const client = await json<{ id: string; api_key: string; webhook_secret: string }>(
      'clients',
      'create',
      '--name',
      'Audited by CLI',
    );
    await json('clients', 'update', client.id, '--quota', '9');
    const result = await cli('audit', 'export', '--since', since, '--client', client.id);
    expect(result.code).toBe(0);
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((e) => [e.action, e.actor_kind, e.actor, e.object_id])).toEqual([
      ['client.create', 'cli', 'cli', client.id],
      ['client.update', 'cli', 'cli', client.id],
    ]);
    expect(lines[1]).toMatchObject({ before: { quota_per_hour: 1000 }, after: { quota_per_hour: 9 } });
    expect(result.stdout).not.toContain(client.api_key);
    expect(result.stdout).not.toContain(client.webhook_secret);
    const later = await cli('audit', 'export', '--since', new Date(Date.now() + 60_000).toISOString());
    expect(later).toMatchObject({ code: 0, stdout: '' });
    const bad = await cli('audit', 'export', '--since', 'yesterday');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('expected a day such as 2026-11-23 or a time such as 2026-11-23T14:00:00Z');
  });

  it('signing-keys rotate adds a signing key', async () => {
    const rotated = await json<{ kid: string }>('signing-keys', 'rotate');
    const listed = await json<{ keys: { kid: string; retired_at: number | null }[] }>('signing-keys', 'list');
    expect(listed.keys.find((k) => k.retired_at === null)?.kid).toBe(rotated.kid);
  });

  it.each([
    [['clients', 'update', 'no-such-client', '--quota', '5'], 'walkaround: No client with id no-such-client'],
    [
      ['clients', 'create', '--name', 'X', '--quota', 'many'],
      "option '--quota <n>' argument 'many' is invalid. expected a positive integer",
    ],
    [
      ['clients', 'create', '--name', 'X', '--webhook-url', 'https://user:secret@hooks.example.com/x'],
      'walkaround: webhook URL must not contain credentials (user:password@); deliveries are signed instead',
    ],
    // Deliveries could not reach these (ALLOW_PRIVATE_NETWORKS is off): refused when given (ADR 12).
    [
      ['clients', 'create', '--name', 'X', '--webhook-url', 'http://localhost:9000/hook'],
      'private, loopback and link-local addresses are refused unless ALLOW_PRIVATE_NETWORKS=true. To receive webhooks on this machine, run walkaround webhooks listen',
    ],
    [
      ['clients', 'create', '--name', 'X', '--webhook-url', 'http://169.254.169.254/latest/meta-data/'],
      'walkaround: webhook URL http://169.254.169.254/latest/meta-data/ points to a private address (Refused 169.254.169.254: not a public address)',
    ],
    [
      ['clients', 'update', 'x', '--service-window', 'sometimes'],
      'walkaround: service window: "sometimes" is not of the form "mon-fri 08:00-18:00"',
    ],
    [
      ['personas', 'create', '--client', 'x', '--kind', 'audio'],
      "option '--kind <kind>' argument 'audio' is invalid. expected one of photo, video",
    ],
    [
      ['personas', 'update', '1', '--max-photo-dimension', 'big'],
      "option '--max-photo-dimension <px|none>' argument 'big' is invalid. expected a whole number of pixels or none",
    ],
    [['nonsense'], "unknown command 'nonsense'"],
  ])('exits non-zero with a clear message for %j', async (args, message) => {
    const result = await cli(...args);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(message);
  });
});
