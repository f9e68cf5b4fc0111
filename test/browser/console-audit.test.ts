// The audit log page in Chromium: an operator sees changes made through the CLI and the client API, opens
// one to read its settings before and after (a capture flow's steps as a step-by-step list), and filters
// by action; a client admin sees only their own
// organisation's changes; a viewer is told the console is not theirs. axe-core on every screen;
// screenshots in test-output/screenshots/console/.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CLI_ACTOR } from '../../src/services/audit.js';
import { updateClient } from '../../src/services/clients/manage.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { expectAccessible, launchDesktop, screenshot, type Phone } from '../helpers/browser.js';
import { PASSWORD, portalUser } from '../helpers/portal.js';

const chromium = inject('chromium');

describe.skipIf(!chromium)('the audit log in a browser', () => {
  let t: TestApp;
  let base: string;
  let desk: Phone;
  const users = { operator: '', admin: '', viewer: '' };
  let boltId = '';
  /** The capture flow's steps as the template made them, then changed through the API. */
  let steps: { id: string; label: string }[] = [];

  beforeAll(async () => {
    t = await startTestApp('sqlite');
    base = await t.listen();
    const acme = await t.newClient({ name: 'Acme Insurance' });
    const bolt = await t.newClient({ name: 'Bolt Leasing' });
    boltId = bolt.id;
    users.operator = await portalUser(t.deps, 'operator');
    users.admin = await portalUser(t.deps, 'client_admin', acme.id);
    users.viewer = await portalUser(t.deps, 'client_viewer', acme.id);
    await updateClient(t.deps, acme.id, { quotaPerHour: 250, timezone: 'Europe/Paris' }, CLI_ACTOR);
    await updateClient(t.deps, bolt.id, { linkTtlSeconds: 24 * 3600 }, CLI_ACTOR);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/personas',
      headers: { 'x-api-key': acme.apiKey },
      payload: { kind: 'photo', name: 'Windscreen claims' },
    });
    expect(created.statusCode).toBe(201);
    const persona = created.json<{ id: number; steps: { id: string; label: string }[] }>();
    steps = persona.steps;
    // The first step renamed, the second removed, one added at the end.
    const changed = await t.app.inject({
      method: 'PATCH',
      url: `/api/personas/${persona.id}`,
      headers: { 'x-api-key': acme.apiKey },
      payload: {
        steps: [
          { ...steps[0], label: 'Whole front of the car' },
          ...steps.slice(2),
          {
            id: 'windscreen_chip',
            label: 'The chip, close up',
            instructions: 'Fill the frame with the chip.',
            required: true,
            overlay: 'none',
          },
        ],
      },
    });
    expect(changed.statusCode).toBe(200);
    desk = await launchDesktop({ chromium: chromium! });
  }, 120_000);
  afterAll(async () => {
    await desk?.close();
    await t?.close();
  });

  async function signIn(email: string) {
    const { page } = desk;
    await page.context().clearCookies();
    // A fresh load: the app reads its session once, as it starts.
    await page.goto('about:blank');
    await page.goto(`${base}/portal/#/audit`);
    await page.fill('#email', email);
    await page.fill('#password', PASSWORD);
    await page.click('button[type="submit"]');
    return page;
  }

  it("shows an operator every client's changes, one opened to its settings before and after, and filters", async () => {
    const page = await signIn(users.operator);
    await page.waitForSelector('ol.audit-entries li');
    const actions = await page.locator('ol.audit-entries summary strong').allTextContents();
    // Newest first: the persona made and changed through the API, the two updates from the command line,
    // the creations.
    expect(actions.slice(0, 4)).toEqual([
      'persona.update',
      'persona.create',
      'client.update',
      'client.update',
    ]);
    expect(await page.locator('ol.audit-entries summary').first().textContent()).toContain(
      'by API key wk_live_',
    );
    // The persona by its name, not its id.
    expect(await page.locator('ol.audit-entries summary').first().textContent()).toContain(
      'persona Windscreen claims',
    );
    await expectAccessible(page, 'audit log');
    await screenshot(page, 'console', 'audit');

    const update = page.locator('ol.audit-entries li', { hasText: 'client.update' }).last();
    await update.locator('summary').click();
    const rows = update.locator('table.audit-change tbody tr');
    expect(await rows.allTextContents()).toEqual(['quota per hour1000250', 'timezoneUTCEurope/Paris']);
    // The setting's name on one line, however long the values beside it.
    const setting = await update.locator('table.audit-change tbody th').first().boundingBox();
    expect(setting!.height).toBeLessThan(40);
    await expectAccessible(page, 'audit log, an entry open');
    await screenshot(page, 'console', 'audit-entry');
    await update.locator('summary').click();

    // The steps as what happened to each, not JSON.
    const personaUpdate = page.locator('ol.audit-entries li', { hasText: 'persona.update' });
    await personaUpdate.locator('summary').click();
    const lines = personaUpdate.locator('ol.steps-diff > li');
    expect(await lines.count()).toBe(3);
    expect(await lines.nth(0).textContent()).toBe(
      `Changed step 1 Whole front of the car ${steps[0]!.id}name: ${steps[0]!.label} → Whole front of the car`,
    );
    expect(await lines.nth(1).textContent()).toBe(
      `Added step ${steps.length} The chip, close up windscreen_chip`,
    );
    expect(await lines.nth(2).textContent()).toBe(`Removed step 2 ${steps[1]!.label} ${steps[1]!.id}`);
    expect(await personaUpdate.locator('.audit-change').textContent()).not.toContain('{');
    expect(await personaUpdate.locator('.audit-change').textContent()).toContain(
      `${steps.length - 2} other steps unchanged.`,
    );
    await expectAccessible(page, 'audit log, a capture flow change open');
    await screenshot(page, 'console', 'audit-steps');
    await personaUpdate.locator('summary').click();

    await page.fill('#audit-action', 'persona.create');
    await page.click('button:has-text("Filter")');
    await page.waitForFunction("document.querySelectorAll('ol.audit-entries > li').length === 1");
    expect(page.url()).toContain('#/audit?action=persona.create');
  });

  it("shows a client admin their organisation's changes only", async () => {
    const page = await signIn(users.admin);
    await page.waitForSelector('ol.audit-entries li');
    const text = await page.locator('ol.audit-entries').textContent();
    expect(text).toContain('Windscreen');
    expect(text).not.toContain(boltId);
    expect(await page.locator('p.muted').first().textContent()).toContain("your organisation's settings");
    await expectAccessible(page, 'audit log, client admin');
    await screenshot(page, 'console', 'audit-client-admin');
  });

  it('tells a viewer the console is not theirs, and offers no console sections', async () => {
    const page = await signIn(users.viewer);
    await page.waitForSelector('p.notice');
    expect(await page.locator('p.notice').textContent()).toContain('can look at inspections only');
    expect(await page.locator('nav.sections a').allTextContents()).toEqual(['Inspections']);
    await expectAccessible(page, 'audit log, viewer');
  });
});
