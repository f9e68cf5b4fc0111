// An invitation where no mail server is configured, in Chromium: the operator is shown the set-password
// link once, copies it, and the link opened in a fresh page lets the invitee choose a password. The
// audit log says the link was shown. axe-core on the screen; screenshot in test-output/screenshots/console/.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { expectAccessible, launchDesktop, screenshot, type Phone } from '../helpers/browser.js';
import { PASSWORD, portalUser } from '../helpers/portal.js';

const chromium = inject('chromium');

describe.skipIf(!chromium)('an invitation link passed on by hand', () => {
  let t: TestApp;
  let base: string;
  let desk: Phone;
  let operator: string;

  beforeAll(async () => {
    t = await startTestApp('sqlite'); // no SMTP_URL: e-mails are held
    base = await t.listen();
    await t.newClient({ name: 'Acme Insurance' });
    operator = await portalUser(t.deps, 'operator');
    desk = await launchDesktop({ chromium: chromium! });
  }, 120_000);
  afterAll(async () => {
    await desk?.close();
    await t?.close();
  });

  it('shows the operator the link once, which opens the set-password page, and audits it', async () => {
    const { page } = desk;
    await page.goto(`${base}/portal/#/users`);
    await page.fill('#email', operator);
    await page.fill('#password', PASSWORD);
    await page.click('button[type="submit"]');
    await page.click('button:has-text("Invite a user")');
    await page.fill('#invite-email', 'claims.lead@acme.test');
    await page.selectOption('#invite-role', 'client_admin');
    await page.selectOption('#invite-client', { label: 'Acme Insurance' });
    await page.click('form.invite-form button[type="submit"]');
    await page.waitForSelector('#password-link');
    const url = await page.inputValue('#password-link');
    expect(url).toMatch(/\/portal\/#\/set-password\/[A-Za-z0-9_-]{43}$/);
    expect(await page.locator('.saved').textContent()).toContain('it is shown only now');
    await expectAccessible(page, 'users, invitation link shown');
    await screenshot(page, 'console', 'users-invite-link');

    // Gone once the page is left: nothing shows it again.
    await page.goto(`${base}/portal/#/users`);
    await page.reload();
    await page.waitForSelector('table');
    expect(await page.locator('#password-link').count()).toBe(0);
    expect(await page.content()).not.toContain(url.split('/').at(-1)!);

    const audit = await t.deps.db
      .selectFrom('audit_log')
      .select(['action', 'after'])
      .where('action', '=', 'user.invite')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(audit.after!)).toMatchObject({ link_shown: true, message_status: 'held' });

    const fresh = await launchDesktop({ chromium: chromium! });
    try {
      await fresh.page.goto(url.replace(/^https?:\/\/[^/]+/, base));
      await fresh.page.waitForSelector('form.card');
      expect(await fresh.page.inputValue('#account')).toBe('claims.lead@acme.test');
    } finally {
      await fresh.close();
    }
  }, 60_000);
});
