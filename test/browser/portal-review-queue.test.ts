// A reviewer working through the review queue by keyboard: the "To review" tab, an inspection opened from
// it, j/k (and the arrows) from photo to photo, ] and [ from inspection to inspection in the queue's order,
// a decision saved, and the queue without it afterwards. axe-core on each screen; screenshots in
// test-output/screenshots/portal/.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { expectAccessible, launchDesktop, screenshot, type Phone } from '../helpers/browser.js';
import { PASSWORD, portalUser, seedInspection } from '../helpers/portal.js';

const chromium = inject('chromium');
const DAY = 24 * 3600 * 1000;

describe.skipIf(!chromium)('the review queue in a browser', () => {
  let t: TestApp;
  let base: string;
  let desk: Phone;
  let email: string;

  beforeAll(async () => {
    t = await startTestApp('sqlite');
    base = await t.listen();
    const client = await t.newClient({ name: 'Acme Insurance' });
    const now = Date.now();
    for (const [i, caseId] of ['CLM-Q-1', 'CLM-Q-2', 'CLM-Q-3'].entries())
      await seedInspection(t.deps, client.id, {
        caseId,
        photos: ['home.jpg', 'exif.jpg', 'home.jpg'],
        createdAt: now - (3 - i) * DAY,
      });
    // Already decided: not in the queue.
    const done = await seedInspection(t.deps, client.id, { caseId: 'CLM-Q-0', createdAt: now - 4 * DAY });
    await t.deps.db
      .updateTable('inspections')
      .set({ review_decision: 'accepted' })
      .where('id', '=', done.id)
      .execute();
    email = await portalUser(t.deps, 'client_admin', client.id);
    desk = await launchDesktop({ chromium: chromium! });
  }, 120_000);
  afterAll(async () => {
    await desk?.close();
    await t?.close();
  });

  const caseIds = () => desk.page.locator('table.inspections tbody tr td:nth-child(2) a').allTextContents();
  const shownPhoto = () => desk.page.locator('.strip [aria-current="true"] .thumb-name').textContent();
  const heading = () => desk.page.locator('h1').textContent();

  it('walks the queue by keyboard: photos with j/k and arrows, inspections with ] and [', async () => {
    const { page } = desk;
    await page.goto(`${base}/portal/`);
    await page.fill('#email', email);
    await page.fill('#password', PASSWORD);
    await page.click('button[type="submit"]');
    await page.waitForSelector('table.inspections tbody tr');
    await page.click('nav.review-tabs a:has-text("To review")');
    await page.waitForFunction("document.querySelectorAll('table.inspections tbody tr').length === 3");
    expect(await caseIds()).toEqual(['CLM-Q-3', 'CLM-Q-2', 'CLM-Q-1']);
    expect(page.url()).toContain('review=to_review');
    await expectAccessible(page, 'list, to review');
    await screenshot(page, 'portal', 'review-queue-list');

    await page.click('a:has-text("CLM-Q-3")');
    await page.waitForSelector('.strip [aria-current="true"]');
    expect(await page.locator('nav.queue-bar').textContent()).toContain('1 of 3');
    expect(await page.locator('.keys-hint').textContent()).toContain('next inspection');
    expect(await shownPhoto()).toMatch(/^1\./);
    await page.keyboard.press('j');
    expect(await shownPhoto()).toMatch(/^2\./);
    await page.keyboard.press('ArrowRight');
    expect(await shownPhoto()).toMatch(/^3\./);
    await page.keyboard.press('j'); // the last photo: stays
    expect(await shownPhoto()).toMatch(/^3\./);
    await page.keyboard.press('k');
    await page.keyboard.press('ArrowLeft');
    expect(await shownPhoto()).toMatch(/^1\./);
    await expectAccessible(page, 'inspection in a queue');
    await screenshot(page, 'portal', 'review-queue-inspection');

    await page.keyboard.press(']');
    await page.waitForFunction("document.querySelector('h1')?.textContent === 'CLM-Q-2'");
    expect(await page.locator('nav.queue-bar').textContent()).toContain('2 of 3');
    await page.keyboard.press('[');
    await page.waitForFunction("document.querySelector('h1')?.textContent === 'CLM-Q-3'");
    await page.keyboard.press('[');
    // The first of the queue: nothing before it.
    expect(await heading()).toBe('CLM-Q-3');

    // A decision, its note typed with the letters the keys use: they stay in the note.
    await page.click('button:has-text("Review")');
    await page.check('input[name="decision"] >> nth=0');
    await page.fill('#review-note', '');
    await page.type('#review-note', 'jk ok');
    expect(await page.inputValue('#review-note')).toBe('jk ok');
    expect(await shownPhoto()).toMatch(/^1\./);
    await page.click('button:has-text("Save review")');
    await page.waitForSelector('text=Review saved as version 2.');
    await page.keyboard.press(']');
    await page.waitForFunction("document.querySelector('h1')?.textContent === 'CLM-Q-2'");
    await page.keyboard.press(']');
    await page.waitForFunction("document.querySelector('h1')?.textContent === 'CLM-Q-1'");
    expect(await page.locator('nav.queue-bar').textContent()).toContain('3 of 3');

    // Back to the queue: the decided one has left it.
    await page.click('nav.queue-bar a.back');
    await page.waitForFunction("document.querySelectorAll('table.inspections tbody tr').length === 2");
    expect(await caseIds()).toEqual(['CLM-Q-2', 'CLM-Q-1']);
    await page.click('nav.review-tabs a:has-text("Accepted")');
    await page.waitForFunction("document.querySelectorAll('table.inspections tbody tr').length === 2");
    expect(await caseIds()).toEqual(['CLM-Q-3', 'CLM-Q-0']);
  }, 120_000);
});
