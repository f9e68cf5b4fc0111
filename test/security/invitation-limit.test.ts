// E-mail addresses are unique in an installation, so an invitation answers whether an address is taken,
// by anyone (issue: a client admin inviting an operator's address was told "A user with e-mail … exists
// already"). That cannot be answered otherwise without breaking the invitation itself; it is bounded:
// a client admin may send 30 invitations an hour (docs/security.md#portal-accounts), operators, who see
// every user anyway, are not limited.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { portalUser, signInAs, type PortalSession } from '../helpers/portal.js';

const PER_HOUR = 30;

describe('invitations by a client admin are bounded', () => {
  let t: TestApp;
  let clientId: string;
  let admin: PortalSession;
  let operator: PortalSession;
  const taken: string[] = [];

  beforeAll(async () => {
    t = await startTestApp('sqlite');
    clientId = (await t.newClient()).id;
    admin = await signInAs(t, await portalUser(t.deps, 'client_admin', clientId));
    operator = await signInAs(t, await portalUser(t.deps, 'operator'));
    const other = (await t.newClient()).id;
    for (let i = 0; i < 5; i++) taken.push(await portalUser(t.deps, 'client_viewer', other));
    taken.push(await portalUser(t.deps, 'operator'));
  }, 60_000);
  afterAll(async () => t?.close());

  const invite = (session: PortalSession, email: string) =>
    t.app.inject({
      method: 'POST',
      url: '/portal/api/invitations',
      headers: session.writeHeaders,
      payload: { email, role: 'client_viewer' },
    });

  it(`answers ${PER_HOUR} invitations an hour, taken addresses or not, then 429 with Retry-After`, async () => {
    const statuses: number[] = [];
    for (let i = 0; i < PER_HOUR; i++)
      statuses.push((await invite(admin, taken[i % taken.length] ?? `new-${i}@example.test`)).statusCode);
    expect(statuses.every((s) => s === 400)).toBe(true);
    const refused = await invite(admin, 'someone.else@example.test');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json<{ message: string }>().message).toBe('Too many invitations, try again later');
  }, 60_000);

  it('does not limit operators', async () => {
    for (let i = 0; i < PER_HOUR + 2; i++)
      expect((await invite(operator, taken[i % taken.length]!)).statusCode).toBe(400);
  }, 60_000);
});
