// The console's users and messages in Chromium against a real service with its worker and a real SMTP
// server: an operator invites a client admin; the invitation e-mail's link, opened in a fresh browser,
// sets the password and signs in; the link is refused the second time; the new admin sees only their
// organisation's users; a role changes in its row; the operator's messages page shows sent, held and failed messages (texts
// redacted) and sends a failed one again. axe-core on every page; screenshots in
// test-output/screenshots/console/.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { inTransaction } from '../../src/ports/database.js';
import { queueLinkMessages } from '../../src/services/outbox/queue-messages.js';
import { createPersona } from '../../src/services/personas/manage.js';
import { startWorker, type RunningWorker } from '../../src/workers/run.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { expectAccessible, launchDesktop, screenshot, type Phone } from '../helpers/browser.js';
import { PASSWORD, portalUser } from '../helpers/portal.js';
import { startSmtpServer, type SmtpTestServer } from '../helpers/smtp-server.js';

const chromium = inject('chromium');
const CHOSEN = 'correct horse battery staple';

describe.skipIf(!chromium)('console users and messages in a browser', () => {
  let t: TestApp;
  let smtp: SmtpTestServer;
  let worker: RunningWorker;
  let base: string;
  let desk: Phone;
  let operator: string;
  let client: { id: string; name: string; personaId: number };
  const tokens: string[] = [];

  /** An inspection link whose messages go to the outbox, as POST /superappToken writes them. */
  async function linkFor(contact: { email?: string; phone?: string }) {
    const token = crypto.randomBytes(32).toString('base64url');
    tokens.push(token);
    const linkId = crypto.randomUUID();
    const expiresAt = Date.now() + 72 * 3600_000;
    await inTransaction(t.deps.db, async (trx) => {
      await trx
        .insertInto('links')
        .values({
          id: linkId,
          client_id: client.id,
          persona_id: client.personaId,
          token_hash: crypto.createHash('sha256').update(token).digest('hex'),
          status: 'open',
          expires_at: expiresAt,
          created_at: Date.now(),
        })
        .execute();
      await queueLinkMessages(trx, t.deps, {
        clientId: client.id,
        clientName: client.name,
        linkId,
        language: 'en',
        url: `${t.deps.config.superappUrl}/#${token}`,
        token,
        expiresAt,
        ...contact,
      });
    });
  }

  async function until(what: string, done: () => Promise<boolean>) {
    const deadline = Date.now() + 30_000;
    while (!(await done())) {
      if (Date.now() > deadline) throw new Error(`never: ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await startTestApp('sqlite', {
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      SMTP_REQUIRE_TLS: 'false', // the test server speaks plain SMTP on loopback
      SMTP_FROM: 'Walkaround <portal@acme.test>',
    });
    worker = await startWorker(t.deps);
    base = await t.listen();
    const { id } = await t.newClient({ name: 'Acme Insurance' });
    const persona = await createPersona(t.deps, { clientId: id, kind: 'photo' });
    client = { id, name: 'Acme Insurance', personaId: persona.id };
    await t.newClient({ name: 'Bolt Leasing' });
    // Messages in every state: an e-mail sent, an SMS held (no SMS provider), an e-mail refused for good.
    await linkFor({ email: 'driver@example.com', phone: '+33612345678' });
    await smtp.waitFor(1);
    smtp.failNext(1, 550);
    await linkFor({ email: 'bounced@example.com' });
    await until('the bounced e-mail failed', async () => {
      const row = await t.deps.db
        .selectFrom('outbox_messages')
        .select('status')
        .where('recipient', '=', 'bounced@example.com')
        .executeTakeFirst();
      return row?.status === 'failed';
    });
    operator = await portalUser(t.deps, 'operator');
    await portalUser(t.deps, 'client_viewer', id);
    desk = await launchDesktop({ chromium: chromium! });
  }, 120_000);
  afterAll(async () => {
    await desk?.close();
    await worker?.stop();
    await t?.close();
    await smtp?.close();
  });

  it('lets an operator invite a client admin by e-mail', async () => {
    const { page } = desk;
    await page.goto(`${base}/portal/#/users`);
    await page.fill('#email', operator);
    await page.fill('#password', PASSWORD);
    await page.click('button[type="submit"]');
    await page.waitForSelector('table.user-list tbody tr');
    expect(await page.locator('table.user-list tbody tr').count()).toBe(2);
    await expectAccessible(page, 'users');
    await screenshot(page, 'console', 'users');

    await page.click('button:has-text("Invite a user")');
    await page.fill('#invite-email', 'claims.lead@acme.test');
    await page.selectOption('#invite-role', 'client_admin');
    await page.selectOption('#invite-client', { label: 'Acme Insurance' });
    await expectAccessible(page, 'users, invitation form');
    await screenshot(page, 'console', 'users-invite');
    await page.click('button:has-text("Send invitation")');
    await page.waitForSelector('text=An invitation is on its way to claims.lead@acme.test.');
    const row = page.locator('table.user-list tbody tr', { hasText: 'claims.lead@acme.test' });
    expect(await row.locator('.status').textContent()).toBe('Invited');
    expect(await row.textContent()).toContain('Acme Insurance');
    await expectAccessible(page, 'users, invited');
    await screenshot(page, 'console', 'users-invited');

    // The same address again: refused at the e-mail field in plain words, the API's behind "More".
    await page.click('button:has-text("Invite a user")');
    await page.fill('#invite-email', 'claims.lead@acme.test');
    await page.selectOption('#invite-client', { label: 'Acme Insurance' });
    await page.click('button:has-text("Send invitation")');
    const taken = page.locator('#invite-email ~ .field-error');
    await taken.waitFor();
    expect(await taken.locator('p').first().textContent()).toMatch(
      /^Someone with this e-mail address is a user/,
    );
    expect(await page.getAttribute('#invite-email', 'aria-invalid')).toBe('true');
    expect(await page.getAttribute('#invite-email', 'aria-describedby')).toBe('email-error');
    await taken.locator('summary').click();
    expect(await taken.locator('details p').textContent()).toBe(
      'A user with e-mail claims.lead@acme.test exists already',
    );
    await expectAccessible(page, 'users, invitation refused');
    await screenshot(page, 'console', 'users-invite-taken');
    await page.click('.invite-form button:has-text("Cancel")');

    // A role changes in the row; the user's sessions end.
    const viewer = page.locator('table.user-list tbody tr', { hasText: 'client_viewer-' });
    await viewer.locator('button:has-text("Change role")').click();
    await viewer.locator('select[name="role"]').selectOption('client_admin');
    await expectAccessible(page, 'users, role form');
    await screenshot(page, 'console', 'users-role');
    await viewer.locator('button:has-text("Save role")').click();
    await page.waitForSelector('text=is now client admin.');
    expect(await viewer.locator('td:nth-child(2)').textContent()).toBe('Client admin');
    await screenshot(page, 'console', 'users-role-saved');

    // Disabling asks first; cancelled, nothing changes.
    await viewer.locator('button:has-text("Disable")').click();
    await viewer.locator('text=Disable and sign out everywhere?').waitFor();
    await expectAccessible(page, 'users, confirm disabling');
    await viewer.locator('button:has-text("Cancel")').click();
    expect(await viewer.locator('button:has-text("Yes, disable")').count()).toBe(0);
    expect(await viewer.locator('.status').textContent()).not.toBe('Disabled');
  }, 60_000);

  it('opens the e-mailed link in a fresh browser, sets the password once and signs in', async () => {
    const [mail] = (await smtp.waitFor(2)).filter((m) => m.to.includes('claims.lead@acme.test'));
    expect(mail!.subject).toBe('Your account on the Walkaround inspection portal of Acme Insurance');
    const url = /https?:\/\/\S+\/portal\/#\/set-password\/[A-Za-z0-9_-]{43}/.exec(mail!.text)![0];
    tokens.push(url.split('/').at(-1)!);
    const fresh = await launchDesktop({ chromium: chromium! });
    try {
      const { page } = fresh;
      await page.goto(url.replace(/^https?:\/\/[^/]+/, base));
      await page.waitForSelector('form.card');
      expect(await page.textContent('h1')).toBe('Welcome to Walkaround');
      expect(await page.inputValue('#account')).toBe('claims.lead@acme.test');
      await expectAccessible(page, 'set-password');
      await screenshot(page, 'console', 'set-password');
      await page.fill('#password', CHOSEN);
      await page.fill('#repeat', 'correct horse battery stapler');
      await page.click('button[type="submit"]');
      await page.waitForSelector('.error');
      expect(await page.textContent('.error')).toBe('The two passwords are not the same.');
      await expectAccessible(page, 'set-password, mismatch');
      await screenshot(page, 'console', 'set-password-mismatch');
      await page.fill('#repeat', CHOSEN);
      await page.click('button[type="submit"]');
      await page.waitForSelector('.topbar .who');
      expect(await page.textContent('.topbar .who')).toContain('claims.lead@acme.test · Client admin');

      // The new admin manages their organisation's users only, and cannot make an operator.
      await page.click('.topbar a:has-text("Users")');
      await page.waitForSelector('table.user-list tbody tr');
      const listed = await page.locator('table.user-list tbody tr td:first-child').allTextContents();
      expect(listed).toHaveLength(2);
      expect(listed.some((text) => text.startsWith(operator))).toBe(false);
      await page.click('button:has-text("Invite a user")');
      const roles = await page.locator('#invite-role option').allTextContents();
      expect(roles).toEqual(['Viewer', 'Client admin']);
      await expectAccessible(page, 'users of a client admin');
      await screenshot(page, 'console', 'users-client-admin');

      // Signed out, the new password signs in; the link is refused the second time.
      await page.click('button:has-text("Sign out")');
      await page.waitForSelector('form.card');
      await page.fill('#email', 'claims.lead@acme.test');
      await page.fill('#password', CHOSEN);
      await page.click('button[type="submit"]');
      await page.waitForSelector('.topbar .who');
      await page.goto(url.replace(/^https?:\/\/[^/]+/, base));
      await page.waitForSelector('text=This link cannot be used');
      expect(await page.textContent('.error')).toMatch(/^This link was already used to choose a password/);
      await expectAccessible(page, 'set-password, used');
      await screenshot(page, 'console', 'set-password-used');
    } finally {
      await fresh.close();
    }
  }, 90_000);

  it('shows the operator every message with its state, redacted, and sends a failed one again', async () => {
    const { page } = desk;
    await page.click('.topbar a:has-text("Messages")');
    await page.waitForSelector('table.messages tbody tr');
    const rows = page.locator('table.messages tbody tr');
    expect(await rows.count()).toBe(4); // the link's e-mail and SMS, the bounced e-mail, the invitation
    const held = rows.filter({ hasText: '+33612345678' });
    expect(await held.locator('.status').textContent()).toBe('Held');
    expect(await held.textContent()).toContain('Held until an SMS provider (SMS_PROVIDER) is configured');
    expect(await page.textContent('.notice')).toBe(
      'No SMS provider (SMS_PROVIDER) is configured, so text messages are held here instead of being sent. Once one is configured, send each held message with “Send now”.',
    );
    const failed = rows.filter({ hasText: 'bounced@example.com' });
    expect(await failed.locator('.status').textContent()).toBe('Failed');
    await failed.locator('summary:has-text("Text")').click();
    expect(await failed.locator('pre').textContent()).toContain('/#[redacted]');
    await expectAccessible(page, 'messages');
    await screenshot(page, 'console', 'messages', { fullPage: true });
    const html = await page.content();
    for (const token of tokens) expect(html).not.toContain(token);

    await failed.locator('button:has-text("Send again")').click();
    await page.waitForSelector('text=Inspection link to bounced@example.com is queued to be sent again.');
    await screenshot(page, 'console', 'messages-sent-again');
    await smtp.waitFor(3); // the refused one was never received
    expect(smtp.received.at(-1)!.to).toEqual(['bounced@example.com']);
    await page.click('.tabs a:has-text("Held")');
    await page.waitForFunction("document.querySelectorAll('table.messages tbody tr').length === 1");
    await expectAccessible(page, 'messages, held');
    await screenshot(page, 'console', 'messages-held');
  }, 60_000);
});
