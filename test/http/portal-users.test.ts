// Portal users in the console (docs/portal.md#users) through app.inject(), with no mail server: every
// route per role and client (a client admin never touches another client's users nor makes an operator;
// a viewer changes nothing); invitations and reset links held in the outbox; the public set-password link
// (once, refused when used, replaced or expired, limited per address); one audit entry per change, and no
// token or password in any audit entry or log line. test/http/portal-outbox.test.ts sends them over SMTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { BACKENDS } from '../helpers/backends.js';
import { databaseText } from '../helpers/database-text.js';
import { captureLogs } from '../helpers/log-capture.js';
import { PASSWORD, portalUser, signInAs, type PortalSession } from '../helpers/portal.js';

const NEW_PASSWORD = 'a brand new passphrase';

interface UserView {
  id: string;
  email: string;
  role: string;
  client_id: string | null;
  status: 'active' | 'invited' | 'disabled';
  password_link: { purpose: string; expired: boolean; message_status: string | null } | null;
}
interface Sent {
  user: UserView;
  message: { id: string; status: 'pending' | 'held' };
  url?: string;
  expires_at: string;
}

describe.each(BACKENDS)('portal users on %s', (backend) => {
  let t: TestApp;
  let clientA: string;
  let clientB: string;
  const logs = captureLogs();
  const sessions: Record<'operator' | 'adminA' | 'viewerA' | 'adminB', PortalSession> = {} as never;
  const emails: Record<string, string> = {};
  /** Every token and password the tests handled: none may be in an audit entry or a log line. */
  const secrets: string[] = [PASSWORD, NEW_PASSWORD];

  beforeAll(async () => {
    t = await startTestApp(backend, { LOG_LEVEL: 'debug' }, { logDestination: logs.destination });
    clientA = (await t.newClient({ name: 'Acme' })).id;
    clientB = (await t.newClient({ name: 'Bolt' })).id;
    emails.operator = await portalUser(t.deps, 'operator');
    emails.adminA = await portalUser(t.deps, 'client_admin', clientA);
    emails.viewerA = await portalUser(t.deps, 'client_viewer', clientA);
    emails.adminB = await portalUser(t.deps, 'client_admin', clientB);
    for (const who of ['operator', 'adminA', 'viewerA', 'adminB'] as const)
      sessions[who] = await signInAs(t, emails[who]!);
  }, 60_000);
  afterAll(async () => t?.close());

  const get = (url: string, session?: PortalSession) =>
    t.app.inject({ method: 'GET', url, headers: session ? { cookie: session.cookie } : {} });
  const send = (
    method: 'POST' | 'PATCH',
    url: string,
    session: PortalSession | undefined,
    payload?: object,
  ) => t.app.inject({ method, url, headers: session?.writeHeaders ?? {}, ...(payload && { payload }) });
  const invite = (session: PortalSession | undefined, payload: object) =>
    send('POST', '/portal/api/invitations', session, payload);
  const userId = async (email: string) =>
    (
      await t.deps.db
        .selectFrom('portal_users')
        .select('id')
        .where('email', '=', email)
        .executeTakeFirstOrThrow()
    ).id;
  const auditRows = () => t.deps.db.selectFrom('audit_log').selectAll().orderBy('at').orderBy('id').execute();

  /** Runs `change` and returns the audit entries it added. */
  async function audited(change: () => Promise<unknown>) {
    const before = new Set((await auditRows()).map((e) => e.id));
    await change();
    return (await auditRows()).filter((e) => !before.has(e.id));
  }

  /** The token an outbox message carries, as the mailer would put it back (the test holds SECRET_KEY). */
  async function tokenOf(messageId: string): Promise<string> {
    const row = await t.deps.db
      .selectFrom('outbox_messages')
      .selectAll()
      .where('id', '=', messageId)
      .executeTakeFirstOrThrow();
    const token = t.deps.secrets.open(row.link_token_sealed!);
    secrets.push(token);
    return token;
  }

  const check = (token: string, remoteAddress = '10.50.0.1') =>
    t.app.inject({
      method: 'GET',
      url: '/portal/api/password-link',
      headers: { 'x-password-token': token },
      remoteAddress,
    });
  const choose = (token: string, password: string, remoteAddress = '10.50.0.1') =>
    t.app.inject({
      method: 'POST',
      url: '/portal/api/password-link',
      payload: { token, password },
      remoteAddress,
    });

  describe('listing', () => {
    it("shows an operator everyone (or one client's), a client admin their client's only, a viewer nothing", async () => {
      const all = (await get('/portal/api/users', sessions.operator)).json<{ users: UserView[] }>().users;
      expect(all.map((u) => u.email)).toEqual(expect.arrayContaining(Object.values(emails)));
      const onlyB = (await get(`/portal/api/users?client_id=${clientB}`, sessions.operator)).json<{
        users: UserView[];
      }>().users;
      expect(onlyB.map((u) => u.email)).toEqual([emails.adminB]);
      const mine = (await get(`/portal/api/users?client_id=${clientB}`, sessions.adminA)).json<{
        users: UserView[];
      }>().users;
      expect(mine.every((u) => u.client_id === clientA)).toBe(true);
      expect(mine.map((u) => u.email).sort()).toEqual([emails.adminA, emails.viewerA].sort());
      expect(mine.every((u) => u.status === 'active')).toBe(true);
      expect((await get('/portal/api/users', sessions.viewerA)).statusCode).toBe(403);
      expect((await get('/portal/api/users')).statusCode).toBe(401);
    });
  });

  describe('invitations', () => {
    it('creates the user without a password and holds the invitation e-mail in the outbox, with one audit entry', async () => {
      let res!: Awaited<ReturnType<typeof invite>>;
      const entries = await audited(async () => {
        res = await invite(sessions.adminA, { email: ' New.Viewer@Acme.test ', role: 'client_viewer' });
      });
      expect(res.statusCode).toBe(201);
      const sent = res.json<Sent>();
      expect(sent.message.status).toBe('held'); // no SMTP_URL here
      expect(sent.user).toMatchObject({
        email: 'new.viewer@acme.test',
        role: 'client_viewer',
        client_id: clientA,
        status: 'invited',
        password_link: { purpose: 'invite', expired: false, message_status: 'held' },
      });
      expect(Date.parse(sent.expires_at) - Date.now()).toBeGreaterThan(71 * 3600_000); // 72 h by default
      expect(entries.map((e) => [e.action, e.actor, e.client_id, e.object_id])).toEqual([
        ['user.invite', emails.adminA, clientA, sent.user.id],
      ]);
      const message = await t.deps.db
        .selectFrom('outbox_messages')
        .selectAll()
        .where('id', '=', sent.message.id)
        .executeTakeFirstOrThrow();
      expect(message).toMatchObject({
        kind: 'invitation',
        client_id: clientA,
        channel: 'email',
        recipient: 'new.viewer@acme.test',
        status: 'held',
        subject: 'Your account on the Walkaround inspection portal of Acme',
      });
      expect(message.body).toContain(`${t.deps.config.publicBaseUrl}/portal/#/set-password/[redacted]`);
      expect(message.body).toContain(`${emails.adminA} invited you`);
      // The account cannot be signed in to before its password is chosen, whatever is typed.
      const signIn = await t.app.inject({
        method: 'POST',
        url: '/portal/api/session',
        payload: { email: 'new.viewer@acme.test', password: '' + 'x'.repeat(12) },
        remoteAddress: '10.60.0.1',
      });
      expect(signIn.statusCode).toBe(401);
      const stored = await t.deps.db
        .selectFrom('password_links')
        .selectAll()
        .where('user_id', '=', sent.user.id)
        .executeTakeFirstOrThrow();
      const token = await tokenOf(sent.message.id);
      expect(stored.token_hash).not.toContain(token);
      expect(stored.token_hash).toMatch(/^[0-9a-f]{64}$/);
      // A client admin is not shown the link: the e-mail proves the address is the invitee's.
      expect(sent.url).toBeUndefined();
      expect(JSON.parse(entries[0]!.after!)).toMatchObject({ link_shown: false });
    });

    it("shows an operator a held e-mail's link once, to pass on by hand, and the audit entry says so", async () => {
      let res!: Awaited<ReturnType<typeof invite>>;
      const entries = await audited(async () => {
        res = await invite(sessions.operator, {
          email: 'by.hand@acme.test',
          role: 'client_admin',
          client_id: clientA,
        });
      });
      const sent = res.json<Sent>();
      expect(sent.message.status).toBe('held');
      const token = await tokenOf(sent.message.id);
      expect(sent.url).toBe(`${t.deps.config.publicBaseUrl}/portal/#/set-password/${token}`);
      expect(JSON.parse(entries[0]!.after!)).toMatchObject({ link_shown: true });
      expect(entries[0]!.after).not.toContain(token);
      // The link works: it opens the account to choose a password.
      expect((await check(token)).statusCode).toBe(200);
      // Only that answer holds it: the user list and the outbox do not.
      const listed = await t.app.inject({
        method: 'GET',
        url: '/portal/api/users',
        headers: { cookie: sessions.operator.cookie },
      });
      expect(listed.body).not.toContain(token);
      const outbox = await t.app.inject({
        method: 'GET',
        url: '/portal/api/outbox',
        headers: { cookie: sessions.operator.cookie },
      });
      expect(outbox.body).not.toContain(token);
      // A new link for the same user: shown again (a new one; the first stops working), audited likewise.
      const again = await send('POST', `/portal/api/users/${sent.user.id}/password-link`, sessions.operator);
      const second = again.json<Sent>();
      expect(second.url).toBe(
        `${t.deps.config.publicBaseUrl}/portal/#/set-password/${await tokenOf(second.message.id)}`,
      );
      expect((await check(token)).statusCode).not.toBe(200);
    });

    it('lets a client admin invite only into their own client, and never an operator; a viewer invites no one', async () => {
      const entries = await audited(async () => {
        const other = await invite(sessions.adminA, {
          email: 'sneaky@acme.test',
          role: 'client_viewer',
          client_id: clientB,
        });
        expect(other.statusCode).toBe(404);
        const operator = await invite(sessions.adminA, { email: 'boss@acme.test', role: 'operator' });
        expect(operator.statusCode).toBe(403);
        expect(operator.json()).toEqual({ status: 'error', message: 'Your role does not allow this' });
        const viewer = await invite(sessions.viewerA, { email: 'friend@acme.test', role: 'client_viewer' });
        expect(viewer.statusCode).toBe(403);
        expect((await invite(undefined, { email: 'x@acme.test', role: 'client_viewer' })).statusCode).toBe(
          401,
        );
      });
      expect(entries).toEqual([]);
      const created = await t.deps.db
        .selectFrom('portal_users')
        .select('email')
        .where('email', 'in', ['sneaky@acme.test', 'boss@acme.test', 'friend@acme.test'])
        .execute();
      expect(created).toEqual([]);
    });

    it('invites an address once when two invitations of it arrive together: the other is told it is taken', async () => {
      const both = await Promise.all(
        [1, 2].map(() => invite(sessions.operator, { email: 'twice@ops.test', role: 'operator' })),
      );
      expect(both.map((res) => res.statusCode).sort()).toEqual([201, 400]);
      expect(both.find((res) => res.statusCode === 400)!.json()).toEqual({
        status: 'error',
        message: expect.stringContaining('A user with e-mail twice@ops.test exists already') as string,
      });
    });

    it('lets an operator invite an operator or a client user, and says what is wrong otherwise', async () => {
      const operator = await invite(sessions.operator, {
        email: 'second.operator@ops.test',
        role: 'operator',
      });
      expect(operator.statusCode).toBe(201);
      expect(operator.json<Sent>().user).toMatchObject({ role: 'operator', client_id: null });
      const message = await t.deps.db
        .selectFrom('outbox_messages')
        .select(['client_id', 'subject'])
        .where('id', '=', operator.json<Sent>().message.id)
        .executeTakeFirstOrThrow();
      expect(message).toEqual({
        client_id: null,
        subject: 'Your account on the Walkaround inspection portal',
      });
      const noClient = await invite(sessions.operator, { email: 'lost@ops.test', role: 'client_admin' });
      expect(noClient.statusCode).toBe(400);
      expect(noClient.json<{ message: string }>().message).toBe(
        'Choose the client of a client admin or viewer',
      );
      const unknown = await invite(sessions.operator, {
        email: 'lost@ops.test',
        role: 'client_admin',
        client_id: 'no-such-client',
      });
      expect(unknown.statusCode).toBe(404);
      const taken = await invite(sessions.operator, {
        email: emails.viewerA!.toUpperCase(),
        role: 'client_viewer',
        client_id: clientA,
      });
      expect(taken.statusCode).toBe(400);
      expect(taken.json<{ message: string }>().message).toBe(
        `A user with e-mail ${emails.viewerA} exists already`,
      );
      const notEmail = await invite(sessions.operator, { email: 'not-an-address', role: 'operator' });
      expect(notEmail.statusCode).toBe(400);
    });
  });

  describe('the set-password link', () => {
    it('says whose account it is, sets the password once, signs the user in, and is refused after', async () => {
      const sent = (
        await invite(sessions.adminA, { email: 'once@acme.test', role: 'client_admin' })
      ).json<Sent>();
      const token = await tokenOf(sent.message.id);
      const opened = await check(token);
      expect(opened.statusCode).toBe(200);
      expect(opened.json()).toMatchObject({
        email: 'once@acme.test',
        client_name: 'Acme',
        purpose: 'invite',
        min_password_length: 12,
      });

      const short = await choose(token, 'too short');
      expect(short.statusCode).toBe(400);
      expect(short.json<{ message: string }>().message).toBe(
        'password must have at least 12 characters besides spaces at its ends',
      );

      let res!: Awaited<ReturnType<typeof choose>>;
      const entries = await audited(async () => {
        res = await choose(token, NEW_PASSWORD);
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        user: { email: 'once@acme.test', role: 'client_admin', client_id: clientA },
      });
      expect(entries.map((e) => [e.action, e.actor_kind, e.actor, e.client_id])).toEqual([
        ['user.set_password', 'user', 'once@acme.test', clientA],
      ]);
      const cookie = res.cookies.find((c) => c.name === 'walkaround_portal')!;
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/portal' });
      const me = await get('/portal/api/session', {
        cookie: `walkaround_portal=${cookie.value}`,
        csrf: '',
        writeHeaders: {},
      });
      expect(me.json()).toMatchObject({ user: { email: 'once@acme.test' } });

      const again = await choose(token, 'another long password');
      expect(again.statusCode).toBe(410);
      expect(again.json<{ message: string }>().message).toMatch(/^This link was already used/);
      expect((await check(token)).statusCode).toBe(410);
      await signInAs(t, 'once@acme.test', NEW_PASSWORD);
      const view = (await get('/portal/api/users', sessions.adminA))
        .json<{ users: UserView[] }>()
        .users.find((u) => u.email === 'once@acme.test');
      expect(view).toMatchObject({ status: 'active', password_link: null });
      // The held invitation is not sent any more, and keeps no token.
      const message = await t.deps.db
        .selectFrom('outbox_messages')
        .selectAll()
        .where('id', '=', sent.message.id)
        .executeTakeFirstOrThrow();
      expect(message).toMatchObject({
        status: 'failed',
        last_error: 'the set-password link was used',
        link_token_sealed: null,
      });
    });

    it('refuses an unknown, an expired and a replaced link, each saying so', async () => {
      expect((await check('A'.repeat(43))).json()).toEqual({
        status: 'error',
        message:
          'This link is not valid: check that you opened all of it, or ask an administrator for a new one',
      });
      expect((await check('short')).statusCode).toBe(404);
      expect((await check('D'.repeat(500))).statusCode).toBe(404);
      expect((await choose('D'.repeat(500), NEW_PASSWORD)).statusCode).toBe(400); // the body's limit
      expect((await t.app.inject({ url: '/portal/api/password-link' })).statusCode).toBe(404);

      const sent = (
        await invite(sessions.adminA, { email: 'late@acme.test', role: 'client_viewer' })
      ).json<Sent>();
      const first = await tokenOf(sent.message.id);
      const renewed = await send('POST', `/portal/api/users/${sent.user.id}/password-link`, sessions.adminA);
      expect(renewed.statusCode).toBe(202);
      expect(renewed.json<Sent>().user.password_link).toMatchObject({ purpose: 'invite' });
      const replaced = await choose(first, NEW_PASSWORD, '10.50.0.2');
      expect(replaced.statusCode).toBe(410);
      expect(replaced.json<{ message: string }>().message).toBe(
        'A newer link was sent to you since this one: open the latest e-mail.',
      );
      const second = await tokenOf(renewed.json<Sent>().message.id);
      await t.deps.db
        .updateTable('password_links')
        .set({ expires_at: Date.now() - 1000 })
        .where('user_id', '=', sent.user.id)
        .execute();
      const expired = await choose(second, NEW_PASSWORD, '10.50.0.2');
      expect(expired.statusCode).toBe(410);
      expect(expired.json<{ message: string }>().message).toBe(
        'This link has expired. Ask an administrator to send you a new one.',
      );
      const view = (await get('/portal/api/users', sessions.adminA))
        .json<{ users: UserView[] }>()
        .users.find((u) => u.id === sent.user.id);
      expect(view).toMatchObject({ status: 'invited', password_link: { expired: true } });
    });

    it('limits unknown links per address like sign-in: 20 in 15 minutes, then 429 with Retry-After', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 21; i++)
        statuses.push((await choose('B'.repeat(43), NEW_PASSWORD, '10.70.0.1')).statusCode);
      expect(statuses.slice(0, 20).every((s) => s === 404)).toBe(true);
      const limited = await check('C'.repeat(43), '10.70.0.1');
      expect(limited.statusCode).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(limited.json<{ message: string }>().message).toBe(
        'Too many attempts with set-password links, try again later',
      );
      expect((await check('C'.repeat(43), '10.70.0.2')).statusCode).toBe(404); // another address
    });
  });

  describe('changes', () => {
    it("lets a client admin change their client's users' roles, never to operator nor another client's", async () => {
      const target = await portalUser(t.deps, 'client_viewer', clientA);
      const id = await userId(target);
      const entries = await audited(async () => {
        const promoted = await send('PATCH', `/portal/api/users/${id}`, sessions.adminA, {
          role: 'client_admin',
        });
        expect(promoted.statusCode).toBe(200);
        expect(promoted.json()).toMatchObject({ role: 'client_admin', client_id: clientA, status: 'active' });
        const operator = await send('PATCH', `/portal/api/users/${id}`, sessions.adminA, {
          role: 'operator',
        });
        expect(operator.statusCode).toBe(403);
        const moved = await send('PATCH', `/portal/api/users/${id}`, sessions.adminA, { client_id: clientB });
        expect(moved.statusCode).toBe(404);
        const foreign = await send(
          'PATCH',
          `/portal/api/users/${await userId(emails.adminB!)}`,
          sessions.adminA,
          {
            disabled: true,
          },
        );
        expect(foreign.statusCode).toBe(404);
        const byViewer = await send('PATCH', `/portal/api/users/${id}`, sessions.viewerA, { disabled: true });
        expect(byViewer.statusCode).toBe(403);
        const unknown = await send('PATCH', '/portal/api/users/nobody', sessions.operator, {
          disabled: true,
        });
        expect(unknown.statusCode).toBe(404);
      });
      expect(entries.map((e) => [e.action, e.actor, e.object_id])).toEqual([
        ['user.update', emails.adminA, id],
      ]);
      expect(JSON.parse(entries[0]!.before!)).toMatchObject({ role: 'client_viewer' });
      expect(JSON.parse(entries[0]!.after!)).toMatchObject({ role: 'client_admin' });
    });

    it('disables a user (their sessions end) and enables them again; nobody disables or demotes themselves', async () => {
      const target = await portalUser(t.deps, 'client_viewer', clientA);
      const session = await signInAs(t, target);
      const id = await userId(target);
      const disabled = await send('PATCH', `/portal/api/users/${id}`, sessions.adminA, { disabled: true });
      expect(disabled.json()).toMatchObject({ status: 'disabled' });
      expect((await get('/portal/api/session', session)).statusCode).toBe(401);
      const link = await send('POST', `/portal/api/users/${id}/password-link`, sessions.adminA);
      expect(link.statusCode).toBe(400);
      const enabled = await send('PATCH', `/portal/api/users/${id}`, sessions.adminA, { disabled: false });
      expect(enabled.json()).toMatchObject({ status: 'active' });
      await signInAs(t, target);

      const self = await send('PATCH', `/portal/api/users/${await userId(emails.adminA!)}`, sessions.adminA, {
        disabled: true,
      });
      expect(self.statusCode).toBe(400);
      expect(self.json<{ message: string }>().message).toBe(
        'You cannot change your own role or disable yourself: ask another administrator',
      );
      expect((await send('PATCH', `/portal/api/users/${id}`, sessions.adminA, {})).statusCode).toBe(400);
    });

    it('lets an operator move a client user to another client, or make them an operator', async () => {
      const target = await portalUser(t.deps, 'client_viewer', clientA);
      const id = await userId(target);
      const moved = await send('PATCH', `/portal/api/users/${id}`, sessions.operator, { client_id: clientB });
      expect(moved.json()).toMatchObject({ client_id: clientB, role: 'client_viewer' });
      const operator = await send('PATCH', `/portal/api/users/${id}`, sessions.operator, {
        role: 'operator',
      });
      expect(operator.json()).toMatchObject({ client_id: null, role: 'operator' });
      const back = await send('PATCH', `/portal/api/users/${id}`, sessions.operator, {
        role: 'client_admin',
      });
      expect(back.statusCode).toBe(400);
      const withClient = await send('PATCH', `/portal/api/users/${id}`, sessions.operator, {
        role: 'client_admin',
        client_id: clientA,
      });
      expect(withClient.json()).toMatchObject({ client_id: clientA, role: 'client_admin' });
    });

    it('sends a reset link: the old password works until the new one is chosen, then only the new one', async () => {
      const target = await portalUser(t.deps, 'client_viewer', clientA);
      const id = await userId(target);
      const other = await send('POST', `/portal/api/users/${id}/password-link`, sessions.adminB);
      expect(other.statusCode).toBe(404);
      const byViewer = await send('POST', `/portal/api/users/${id}/password-link`, sessions.viewerA);
      expect(byViewer.statusCode).toBe(403);
      let res!: Awaited<ReturnType<typeof send>>;
      const entries = await audited(async () => {
        res = await send('POST', `/portal/api/users/${id}/password-link`, sessions.adminA);
      });
      expect(res.statusCode).toBe(202);
      const sent = res.json<Sent>();
      expect(sent.user.password_link).toMatchObject({ purpose: 'reset', message_status: 'held' });
      expect(entries.map((e) => [e.action, e.actor, e.object_id])).toEqual([
        ['user.password_link', emails.adminA, id],
      ]);
      expect(JSON.parse(entries[0]!.after!)).toMatchObject({ purpose: 'reset', message_id: sent.message.id });
      const message = await t.deps.db
        .selectFrom('outbox_messages')
        .select(['kind', 'subject'])
        .where('id', '=', sent.message.id)
        .executeTakeFirstOrThrow();
      expect(message).toEqual({
        kind: 'password_reset',
        subject: 'Choose a new password for the Walkaround inspection portal',
      });
      const before = await signInAs(t, target); // still the old password
      const token = await tokenOf(sent.message.id);
      expect((await check(token)).json()).toMatchObject({ email: target, purpose: 'reset' });
      expect((await choose(token, NEW_PASSWORD)).statusCode).toBe(200);
      expect((await get('/portal/api/session', before)).statusCode).toBe(401); // other sessions end
      await signInAs(t, target, NEW_PASSWORD);
      await expect(signInAs(t, target, PASSWORD)).rejects.toThrow(/401/);
    });
  });

  it('keeps every token and password out of the database, the audit log and the logs', async () => {
    expect(secrets.length).toBeGreaterThan(5);
    const stored = await databaseText(t.deps.db);
    expect(stored).toContain('@portal.test'); // the grep reads the rows (the users' addresses)
    for (const secret of secrets) expect(stored).not.toContain(secret);
    const audit = JSON.stringify(await auditRows());
    const logged = JSON.stringify(logs.lines);
    expect(logs.lines.length).toBeGreaterThan(50);
    for (const secret of secrets) {
      expect(audit).not.toContain(secret);
      expect(logged).not.toContain(secret);
    }
    expect(audit).not.toMatch(/token_hash|password_hash|scrypt/);
    // The tokens' hashes are not in the logs either.
    const hashes = await t.deps.db.selectFrom('password_links').select('token_hash').execute();
    for (const { token_hash } of hashes) expect(logged + audit).not.toContain(token_hash);
  });
});
