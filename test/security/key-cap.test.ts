// A client never holds more than MAX_LIVE_KEYS (10) live API keys, however they are made (issue: twelve
// rotations with a 30-day grace left 18 live keys, while creating an 11th answered 409): a rotation with
// a grace period keeps the others live beside the new key, so it counts them; and concurrent requests
// take turns on the client, so they cannot all pass the count.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_LIVE_KEYS } from '../../src/services/clients/manage.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { BACKENDS } from '../helpers/backends.js';
import { portalUser, signInAs, type PortalSession } from '../helpers/portal.js';

const THIRTY_DAYS = 30 * 24 * 3600;

describe.each(BACKENDS)('the cap on live API keys on %s', (backend) => {
  let t: TestApp;
  let operator: PortalSession;

  beforeAll(async () => {
    t = await startTestApp(backend);
    operator = await signInAs(t, await portalUser(t.deps, 'operator'));
  });
  afterAll(async () => t?.close());

  const liveKeys = async (clientId: string) =>
    (
      await t.app.inject({ url: `/portal/api/clients/${clientId}`, headers: { cookie: operator.cookie } })
    ).json<{ keys: unknown[] }>().keys.length;
  const post = (url: string, payload?: object) =>
    t.app.inject({ method: 'POST', url, headers: operator.writeHeaders, ...(payload && { payload }) });

  it('twelve rotations with a 30-day grace: the ones past the cap are refused, 10 keys stay live', async () => {
    const { id } = await t.newClient();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++)
      statuses.push(
        (await post(`/portal/api/clients/${id}/keys/rotate`, { grace_seconds: THIRTY_DAYS })).statusCode,
      );
    expect(statuses).toEqual([...Array.from({ length: MAX_LIVE_KEYS - 1 }, () => 201), 409, 409, 409]);
    expect(await liveKeys(id)).toBe(MAX_LIVE_KEYS);
    // A rotation that stops the others at once still works: one key live.
    expect((await post(`/portal/api/clients/${id}/keys/rotate`, { grace_seconds: 0 })).statusCode).toBe(201);
    expect(await liveKeys(id)).toBe(1);
  });

  it('twenty concurrent new keys: at most the cap is made', async () => {
    const { id } = await t.newClient();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => post(`/portal/api/clients/${id}/keys`)),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(MAX_LIVE_KEYS - 1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(20 - (MAX_LIVE_KEYS - 1));
    expect(await liveKeys(id)).toBe(MAX_LIVE_KEYS);
  });
});
