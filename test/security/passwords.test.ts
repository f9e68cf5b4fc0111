// Portal passwords keep one rule wherever they are chosen (issue: a password of 12 spaces was taken):
// at least 12 characters besides spaces at its ends, and none of the most common passwords. Checked on
// each way in: a set-password link (HTTP), and the CLI's create and reset-password (the services).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_ACTOR } from '../../src/services/audit.js';
import { createPortalUser, resetPassword } from '../../src/services/users/accounts.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { portalUser, signInAs, type PortalSession } from '../helpers/portal.js';

const REFUSED = [' '.repeat(12), `a${' '.repeat(11)}`, 'qwerty123456', '1QAZ2WSX3EDC'];

describe('weak portal passwords are refused everywhere', () => {
  let t: TestApp;
  let operator: PortalSession;

  beforeAll(async () => {
    t = await startTestApp('sqlite');
    operator = await signInAs(t, await portalUser(t.deps, 'operator'));
  });
  afterAll(async () => t?.close());

  it('a set-password link refuses them, and takes a good one', async () => {
    const sent = await t.app.inject({
      method: 'POST',
      url: '/portal/api/invitations',
      headers: operator.writeHeaders,
      payload: { email: 'weak.passwords@example.test', role: 'operator' },
    });
    expect(sent.statusCode).toBe(201);
    const row = await t.deps.db
      .selectFrom('outbox_messages')
      .select('link_token_sealed')
      .where('id', '=', sent.json<{ message: { id: string } }>().message.id)
      .executeTakeFirstOrThrow();
    const token = t.deps.secrets.open(row.link_token_sealed!);
    const choose = (password: string) =>
      t.app.inject({
        method: 'POST',
        url: '/portal/api/password-link',
        payload: { token, password },
        remoteAddress: '10.71.0.1',
      });
    for (const password of REFUSED) {
      const answer = await choose(password);
      expect(answer.statusCode, JSON.stringify(password)).toBe(400);
    }
    expect((await choose('a good long passphrase')).statusCode).toBe(200);
  });

  it('the CLI refuses them when it creates a user or resets a password', async () => {
    for (const password of REFUSED) {
      await expect(
        createPortalUser(t.deps, { email: 'weak.cli@example.test', password, role: 'operator' }, CLI_ACTOR),
      ).rejects.toMatchObject({ code: 'USER_INVALID' });
      await expect(
        resetPassword(t.deps, { email: 'weak.passwords@example.test', password }, CLI_ACTOR),
      ).rejects.toMatchObject({ code: 'USER_INVALID' });
    }
  });
});
