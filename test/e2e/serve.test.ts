// The real program on a real port: zero-configuration start, the demo client, bad settings, and several
// processes sharing one database.
import crypto from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { BACKENDS, testEnvironment, type TestEnvironment } from '../helpers/backends.js';
import {
  authenticateOver,
  demoKey,
  freePort,
  runCli,
  startServer,
  STARTUP_DEADLINE_MS,
  type RunningServer,
} from '../helpers/process.js';

const started: RunningServer[] = [];
const environments: TestEnvironment[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.stop()));
  await Promise.all(environments.splice(0).map((e) => e.cleanup()));
});

async function environment(backend: (typeof BACKENDS)[number]) {
  const env = await testEnvironment(backend);
  environments.push(env);
  return env;
}

describe('walkaround serve', () => {
  it('starts with no configuration, prints a demo key once, and the key authenticates', async () => {
    const { env } = await environment('sqlite');
    const first = await startServer({ DATA_DIR: env.DATA_DIR! });
    started.push(first);
    expect((await fetch(`${first.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${first.url}/readyz`)).status).toBe(200);
    const key = demoKey(first.output());
    expect(key).toBeDefined();
    expect(first.output()).toContain(`http://localhost:${new URL(first.url).port}/docs`);
    const res = await authenticateOver(first.url, key!);
    expect(res.status).toBe(200);
    expect(Object.keys((await res.json()) as object).sort()).toEqual([
      'access_token',
      'refresh_token',
      'session',
    ]);

    await first.stop();
    const second = await startServer({ DATA_DIR: env.DATA_DIR! });
    started.push(second);
    expect(demoKey(second.output())).toBeUndefined();
    expect((await authenticateOver(second.url, key!)).status).toBe(200);
  });

  it('serves /superappToken on URLGEN_PORT too, with the demo persona printed at first start', async () => {
    const { env } = await environment('sqlite');
    const urlgenPort = await freePort();
    const server = await startServer({ DATA_DIR: env.DATA_DIR!, URLGEN_PORT: String(urlgenPort) });
    started.push(server);
    const key = demoKey(server.output())!;
    const personaId = Number(/photo persona:\s+(\d+)/.exec(server.output())?.[1]);
    expect(Number.isInteger(personaId)).toBe(true);
    expect(server.output()).toContain(`http://localhost:${urlgenPort}/superappToken`);
    for (const base of [`http://127.0.0.1:${urlgenPort}`, server.url]) {
      const response = await fetch(`${base}/superappToken`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        body: JSON.stringify({ personaId }),
      });
      expect(response.status, base).toBe(200);
      expect(await response.json()).toMatchObject({
        status: 'true',
        message: 'Token generated successfully',
      });
    }
    // The link generator's listener serves nothing else.
    expect((await authenticateOver(`http://127.0.0.1:${urlgenPort}`, key)).status).toBe(404);
  });

  it.each([
    [{ PORT: 'abc' }, 'walkaround: Invalid setting PORT="abc": expected an integer from 1 to 65535.'],
    [
      { DATABASE_URL: 'mysql://x' },
      'walkaround: Invalid setting DATABASE_URL=(hidden): expected a URL starting with sqlite: or postgres://.',
    ],
  ])('stops on a bad setting %j with one clear line', async (bad, line) => {
    const { env } = await environment('sqlite');
    const result = await runCli(['serve'], { ...env, ...bad });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(line);
    expect(result.stdout).toBe('');
  });

  it.each(BACKENDS)(
    'creates one demo client when three processes start together on %s',
    async (backend) => {
      const { env } = await environment(backend);
      const servers = await Promise.all([1, 2, 3].map(() => startServer(env)));
      started.push(...servers);
      const keys = servers.map((s) => demoKey(s.output())).filter((k) => k !== undefined);
      expect(keys).toHaveLength(1);
      for (const server of servers) expect((await authenticateOver(server.url, keys[0]!)).status).toBe(200);
    },
    STARTUP_DEADLINE_MS + 30_000,
  );

  it('runs two processes on one PostgreSQL database that both authenticate the same client', async () => {
    const { env } = await environment('postgres');
    const shared = { DATABASE_URL: env.DATABASE_URL!, SECRET_KEY: crypto.randomBytes(32).toString('base64') };
    const other = await environment('sqlite'); // only for a second, separate DATA_DIR
    const a = await startServer({ ...shared, DATA_DIR: env.DATA_DIR! });
    started.push(a);
    const b = await startServer({ ...shared, DATA_DIR: other.env.DATA_DIR! });
    started.push(b);

    const created = await runCli(['clients', 'create', '--name', 'Shared', '--json'], {
      ...shared,
      DATA_DIR: env.DATA_DIR!,
    });
    expect(created.code).toBe(0);
    const { api_key } = JSON.parse(created.stdout) as { api_key: string };

    const fromA = await authenticateOver(a.url, api_key);
    const fromB = await authenticateOver(b.url, api_key);
    expect(fromA.status).toBe(200);
    expect(fromB.status).toBe(200);

    // A token issued by one process renews on the other: they share the signing keys.
    const { access_token } = (await fromA.json()) as { access_token: string };
    const renewed = await fetch(`${b.url}/api/refresh`, {
      method: 'POST',
      headers: { authorization: `Bearer ${access_token}` },
    });
    expect(renewed.status).toBe(200);
  });
});
