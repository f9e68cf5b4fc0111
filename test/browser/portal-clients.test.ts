// The console's clients, API keys and webhooks in Chromium against a real service: an operator creates a
// client and copies its key (which then authenticates), sets the webhook and sends a test event that a
// receiver verifies, rotates the webhook secret (a delivery then verifies with the old secret and the new),
// manages keys and reads the delivery log; a client admin sees their own settings. axe-core on every
// page; screenshots in test-output/screenshots/portal-clients/.
import crypto from 'node:crypto';
import type { Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { expectAccessible, launchDesktop, screenshot, type Phone } from '../helpers/browser.js';
import { PASSWORD, portalUser, seedInspection } from '../helpers/portal.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

const chromium = inject('chromium');
const SHOTS = 'portal-clients';

describe.skipIf(!chromium)('console clients and webhooks in a browser', () => {
  let t: TestApp;
  let base: string;
  let receiver: Receiver;
  let desk: Phone;
  let operator: string;
  let clientId = '';
  /** The client's current webhook secret: the receiver verifies with it. */
  const secret = { value: '' };

  beforeAll(async () => {
    t = await startTestApp('sqlite');
    base = await t.listen();
    receiver = await startReceiver(() => secret.value);
    operator = await portalUser(t.deps, 'operator');
    desk = await launchDesktop({ chromium: chromium! });
    await desk.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
  }, 120_000);
  afterAll(async () => {
    await desk?.close();
    await receiver?.close();
    await t?.close();
  });

  const authenticate = (key: string) =>
    fetch(`${base}/api/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key }),
    });

  async function signIn(page: Page, email: string) {
    await page.goto(`${base}/portal/`);
    await page.waitForSelector('form.card');
    await page.fill('#email', email);
    await page.fill('#password', PASSWORD);
    await page.click('button[type="submit"]');
    await page.waitForSelector('.topbar');
  }

  /** The page, checked by axe-core and saved as a screenshot. */
  async function look(page: Page, name: string, fullPage = true) {
    await expectAccessible(page, name);
    await screenshot(page, SHOTS, name, { fullPage });
  }

  it('creates a client; its key, copied from the page, authenticates', async () => {
    const { page } = desk;
    await signIn(page, operator);
    await page.click('.sections a:has-text("Clients")');
    await page.waitForSelector('text=No client yet');
    await look(page, 'clients-empty', false);

    await page.click('button:has-text("New client")');
    await page.fill('#new-name', 'Acme Insurance');
    await page.fill('#new-quota', '500');
    await page.fill('#new-window', 'mon-fri 08:00-18:00');
    await page.fill('#new-timezone', 'Europe/Paris');
    await look(page, 'client-new');
    await page.click('button:has-text("Create client")');
    await page.waitForSelector('#created-key');

    // The copy button puts the key on the clipboard, exactly as shown.
    await page.click('.secret-once:has(#created-key) button.copy');
    await page.waitForSelector('.secret-once:has(#created-key) button.copy:has-text("Copied")');
    const copied = await page.evaluate<string>('navigator.clipboard.readText()');
    const key = await page.inputValue('#created-key');
    expect(copied).toBe(key);
    expect(key).toMatch(/^wk_live_[A-Za-z0-9_-]{32}$/);
    secret.value = await page.inputValue('#created-secret');
    expect(secret.value).toMatch(/^whsec_/);
    await look(page, 'client-created');

    const answer = await authenticate(copied);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toHaveProperty('access_token');

    await page.click('a:has-text("Open Acme Insurance")');
    await page.waitForSelector('h1:has-text("Acme Insurance")');
    clientId = page.url().split('#/clients/')[1]!.split('?')[0]!;
    expect(await page.inputValue('#client-quota')).toBe('500');
    expect(await page.inputValue('#client-window')).toBe('mon-fri 08:00-18:00');
    // A new client has no capture flow: the page says so, with the way to make the first.
    await page.waitForSelector('a:has-text("Create its first capture flow")');
    await look(page, 'client-settings');

    await page.click('a.back');
    await page.waitForSelector('table.clients');
    expect(await page.textContent('table.clients tbody')).toContain('Acme Insurance');
    await look(page, 'clients-list', false);
  }, 120_000);

  it('sets the webhook and sends a test event that the receiver verifies', async () => {
    const { page } = desk;
    await page.goto(`${base}/portal/#/clients/${clientId}?tab=webhook`);
    await page.waitForSelector('#webhook-url');
    expect(await page.isDisabled('button:has-text("Send test event")')).toBe(true);
    // A private address: refused at the field in plain words, the operator's detail behind "More".
    await page.fill('#webhook-url', 'http://10.1.2.3/hooks');
    await page.click('button:has-text("Save webhook")');
    const refused = page.locator('#webhook_url-error');
    await refused.waitFor();
    expect(await refused.locator('p').first().textContent()).toContain('on a private network');
    expect(await refused.locator('p').first().textContent()).not.toContain('ALLOW_PRIVATE_NETWORKS');
    expect(await page.getAttribute('#webhook-url', 'aria-invalid')).toBe('true');
    expect(await refused.locator('details p').isVisible()).toBe(false);
    await refused.locator('summary:has-text("More")').click();
    expect(await refused.locator('details p').textContent()).toContain('ALLOW_PRIVATE_NETWORKS');
    await look(page, 'webhook-private');
    await page.fill('#webhook-url', `http://media.test:${receiver.port}/hooks`);
    await page.uncheck('input[value="link.opened"]');
    await page.click('button:has-text("Save webhook")');
    await page.waitForSelector('text=Saved. Send a test event');
    expect(await page.locator('#webhook_url-error').count()).toBe(0);

    await page.click('button:has-text("Send test event")');
    await page.waitForSelector('.test-answer');
    expect(await page.textContent('.test-answer')).toContain('HTTP 200');
    expect(await page.textContent('.test-answer')).toContain('thanks');
    const [ping] = await receiver.waitFor(1);
    expect(ping).toMatchObject({ type: 'ping', verified: true });
    expect(await page.textContent('.test-answer')).toContain(ping!.id);
    // The snippet names the secret by its start, never whole.
    const snippet = await page.textContent('#snippet-node');
    expect(snippet).toContain(`${secret.value.slice(0, 12)}…`);
    expect(snippet).not.toContain(secret.value);
    await look(page, 'webhook-test');
  }, 60_000);

  it('rotates the webhook secret: during the grace period a delivery verifies with the old and the new', async () => {
    const { page } = desk;
    const old = secret.value;
    // A day's grace is offered first: stopping the old secret at once must be a choice.
    expect(await page.inputValue('#secret-grace')).toBe(String(24 * 3600));
    await page.click('button:has-text("Rotate secret")');
    await page.waitForSelector('#new-secret');
    secret.value = await page.inputValue('#new-secret');
    expect(secret.value).not.toBe(old);
    await page.waitForSelector(`text=also with the previous one`);

    const before = receiver.received.length;
    await page.click('button:has-text("Send test event")');
    await page.waitForSelector('text=signed with the new and the previous secret');
    const [ping] = (await receiver.waitFor(before + 1)).slice(before);
    expect(ping!.verified).toBe(true); // with the new secret
    expect(ping!.raw.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(() => new Webhook(old).verify(ping!.raw.payload, ping!.raw.headers)).not.toThrow();
    expect(() => new Webhook(secret.value).verify(ping!.raw.payload, ping!.raw.headers)).not.toThrow();
    await look(page, 'webhook-rotated');
  }, 60_000);

  it('creates, rotates and revokes API keys', async () => {
    const { page } = desk;
    await page.click('.tabs a:has-text("API keys")');
    await page.waitForSelector('table.keys');
    expect(await page.locator('table.keys tbody tr').count()).toBe(1);
    await page.click('button:has-text("Create a key")');
    await page.waitForSelector('#new-key');
    const second = await page.inputValue('#new-key');
    expect((await authenticate(second)).status).toBe(200);
    await page.waitForFunction("document.querySelectorAll('table.keys tbody tr').length === 2");
    await look(page, 'keys-created');

    const row = page.locator('table.keys tbody tr', { hasText: second.slice(0, 14) });
    await row.locator('button:has-text("Revoke")').click();
    await row.locator('button:has-text("Revoke now")').click();
    await page.waitForSelector('text=is revoked: it stopped working now');
    expect((await authenticate(second)).status).toBe(401);

    await page.selectOption('#key-grace', '3600');
    await page.click('button:has-text("Rotate keys")');
    await page.waitForSelector('text=The other keys stop working at');
    expect((await authenticate(await page.inputValue('#new-key'))).status).toBe(200);
    await page.waitForFunction("document.querySelectorAll('table.keys tbody tr').length === 2");
    await look(page, 'keys-rotated');
  }, 60_000);

  it("reads the client's delivery log with filters, and re-sends a message", async () => {
    const day = 24 * 3600 * 1000;
    const now = Date.now();
    const inspection = await seedInspection(t.deps, clientId, {
      caseId: 'CLM-2026-0042',
      createdAt: now - day,
    });
    for (const [event, status, code, at] of [
      ['inspection.received', 'delivered', 200, now - day],
      ['inspection.completed', 'failed', 500, now - day + 4000],
      ['inspection.reviewed', 'delivered', 204, now - 3600_000],
    ] as const) {
      const id = `msg_${crypto.randomUUID().replaceAll('-', '')}`;
      await t.deps.db
        .insertInto('webhook_messages')
        .values({
          id,
          client_id: clientId,
          inspection_id: inspection.id,
          event_type: event,
          url: `http://media.test:${receiver.port}/hooks`,
          payload: JSON.stringify({ type: event, timestamp: new Date(at).toISOString(), data: {} }),
          status,
          attempts: 1,
          next_attempt_at: null,
          created_at: at,
          updated_at: at,
        })
        .execute();
      await t.deps.db
        .insertInto('webhook_attempts')
        .values({
          id: crypto.randomUUID(),
          message_id: id,
          attempt: 1,
          started_at: at,
          url: `http://media.test:${receiver.port}/hooks`,
          status_code: code,
          latency_ms: 31,
          response_excerpt: code === 500 ? 'Internal Server Error' : 'ok',
          error: null,
          outcome: status === 'failed' ? 'exhausted' : 'delivered',
        })
        .execute();
    }
    const { page } = desk;
    await page.click('.tabs a:has-text("Delivery log")');
    await page.waitForSelector('.delivery-log li');
    expect(await page.locator('.delivery-log > li').count()).toBe(3);
    await look(page, 'deliveries');

    await page.selectOption('#log-status', 'failed');
    await page.click('.filters button:has-text("Filter")');
    await page.waitForFunction("document.querySelectorAll('.delivery-log > li').length === 1");
    await page.click('.delivery-log summary');
    expect(await page.textContent('.delivery-log')).toContain('Internal Server Error');
    await page.click('.delivery-log button:has-text("Re-send")');
    await page.waitForSelector('text=Queued to be sent again');
    await look(page, 'deliveries-failed');
  }, 60_000);

  it('shows a client admin their own settings, the quota and service window read-only', async () => {
    const admin = await portalUser(t.deps, 'client_admin', clientId);
    const { page } = desk;
    await page.click('button:has-text("Sign out")');
    await signIn(page, admin);
    await page.click('.sections a:has-text("Settings")');
    await page.waitForSelector('h1:has-text("Acme Insurance")');
    expect(await page.locator('a.back').count()).toBe(0);
    expect(await page.locator('#client-quota').count()).toBe(0);
    expect(await page.textContent('.read-only')).toContain('mon-fri 08:00-18:00 (Europe/Paris)');
    await page.fill('#client-ttl', '48');
    await page.click('button:has-text("Save settings")');
    await page.waitForSelector('.saved');
    const row = await t.deps.db
      .selectFrom('clients')
      .select('link_ttl_seconds')
      .where('id', '=', clientId)
      .executeTakeFirstOrThrow();
    expect(row.link_ttl_seconds).toBe(48 * 3600);
    await look(page, 'admin-settings');
    await page.click('.tabs a:has-text("Webhook")');
    await page.waitForSelector('#webhook-url');
    await page.click('.snippet summary:has-text("Python")');
    expect(await page.textContent('#snippet-python')).toContain('webhook.verify(request.get_data()');
    await look(page, 'admin-webhook');
  }, 60_000);
});
