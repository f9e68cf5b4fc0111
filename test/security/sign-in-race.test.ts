// Concurrent sign-ins cannot get past the limits (issue: 60 concurrent sign-ins with the right password
// 47th got 200, because the limiter checked, then ran scrypt, then counted the failure). Each attempt
// is now counted before its password is checked, atomically in SQLite, PostgreSQL and Redis: of a
// burst, at most the limit is checked (answered 401), the rest is refused untried (429), the right
// password among them too. Both limits: 5 failures per account, 20 per address, in 15 minutes.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { freshAddress, limiterStores } from '../helpers/backends.js';
import { PASSWORD, portalUser } from '../helpers/portal.js';

const REDIS_URL = inject('redisUrl');
const STORES = limiterStores(REDIS_URL);

const BURST = 60;
const RIGHT_ONE = 46; // the 47th
const ACCOUNT_LIMIT = 5;
const ADDRESS_LIMIT = 20;

describe.each(STORES)('sign-in limits under a burst, counted in %s', (_name, backend, extra) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(backend, { ...extra });
  });
  afterAll(async () => t?.close());

  const signIn = (email: string, password: string, address: string) =>
    t.app.inject({
      method: 'POST',
      url: '/portal/api/session',
      remoteAddress: address,
      payload: { email, password },
    });

  /** Sends the burst at once; `attempt(i)` says who tries what from where. */
  async function burst(attempt: (i: number) => { email: string; password: string; address: string }) {
    const answers = await Promise.all(
      Array.from({ length: BURST }, (_, i) => {
        const { email, password, address } = attempt(i);
        return signIn(email, password, address);
      }),
    );
    const statuses = answers.map((a) => a.statusCode);
    const count = (status: number) => statuses.filter((s) => s === status).length;
    return { statuses, checked: count(401), refused: count(429), other: BURST - count(401) - count(429) };
  }

  it('one account from one address: 5 passwords checked, the right one 47th refused untried', async () => {
    const email = await portalUser(t.deps, 'client_viewer', (await t.newClient()).id);
    const address = freshAddress();
    const result = await burst((i) => ({
      email,
      password: i === RIGHT_ONE ? PASSWORD : `wrong guess ${i}`,
      address,
    }));
    expect(result.statuses[RIGHT_ONE]).toBe(429);
    expect({ checked: result.checked, refused: result.refused, other: result.other }).toEqual({
      checked: ACCOUNT_LIMIT,
      refused: BURST - ACCOUNT_LIMIT,
      other: 0,
    });
    // Still locked after the burst, for the right password too.
    expect((await signIn(email, PASSWORD, freshAddress())).statusCode).toBe(429);
  });

  it('one account from 60 addresses: the account limit holds (5 checked)', async () => {
    const email = await portalUser(t.deps, 'client_admin', (await t.newClient()).id);
    const result = await burst((i) => ({
      email,
      password: i === RIGHT_ONE ? PASSWORD : `wrong guess ${i}`,
      address: freshAddress(),
    }));
    expect(result.statuses[RIGHT_ONE]).toBe(429);
    expect([result.checked, result.refused, result.other]).toEqual([ACCOUNT_LIMIT, BURST - ACCOUNT_LIMIT, 0]);
  });

  it('60 accounts from one address: the address limit holds (20 checked)', async () => {
    const client = await t.newClient();
    const emails = await Promise.all(
      Array.from({ length: BURST }, () => portalUser(t.deps, 'client_viewer', client.id)),
    );
    const address = freshAddress();
    const result = await burst((i) => ({
      email: emails[i]!,
      password: i === RIGHT_ONE ? PASSWORD : `wrong guess ${i}`,
      address,
    }));
    expect(result.statuses[RIGHT_ONE]).toBe(429);
    expect([result.checked, result.refused, result.other]).toEqual([ADDRESS_LIMIT, BURST - ADDRESS_LIMIT, 0]);
  });

  it('counts no right password: a user who signs in right, again and again, is never locked', async () => {
    const email = await portalUser(t.deps, 'client_viewer', (await t.newClient()).id);
    const address = freshAddress();
    // One at a time, as a person signs in: an attempt counts while its password is being checked (so a
    // burst of right ones is held to the limit too), and is forgiven once found right.
    for (let i = 0; i < 3 * ACCOUNT_LIMIT; i++)
      expect((await signIn(email, PASSWORD, address)).statusCode).toBe(200);
  });
});
