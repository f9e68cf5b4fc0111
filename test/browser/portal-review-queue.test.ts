// A reviewer working through the review queue by keyboard: the "To review" tab, an inspection opened from
// it, j/k (and the arrows) from photo to photo, ] and [ from inspection to inspection in the queue's order,
// a decision saved, and the queue without it afterwards. axe-core on each screen; screenshots in
// test-output/screenshots/portal/.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { expectAccessible, launchDesktop, launchPhone, screenshot, type Phone } from '../helpers/browser.js';
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
    const viewerBefore = await page.locator('.viewer').first().boundingBox();
    await page.click('button:has-text("Save review")');
    await page.waitForSelector('text=Review saved as version 2.');
    // The page does not jump: the notice is pinned, the toolbar keeps its place.
    await page.waitForFunction(
      "document.querySelector('.head-actions button.primary')?.textContent === 'Review'",
    );
    expect((await page.locator('.viewer').first().boundingBox())!.y).toBe(viewerBefore!.y);
    await screenshot(page, 'portal', 'review-queue-saved');
    await page.keyboard.press(']');
    await page.waitForFunction("document.querySelector('h1')?.textContent === 'CLM-Q-2'");
    await page.keyboard.press(']');
    await page.waitForFunction("document.querySelector('h1')?.textContent === 'CLM-Q-1'");
    expect(await page.locator('nav.queue-bar').textContent()).toContain('3 of 3');

    // Back to the queue: the decided one has left it.
    // (polled: both lists have two rows, so a count cannot tell the new list from the one before)
    await page.click('nav.queue-bar a.back');
    await expect.poll(caseIds, { timeout: 10_000 }).toEqual(['CLM-Q-2', 'CLM-Q-1']);
    await page.click('nav.review-tabs a:has-text("Accepted")');
    await expect.poll(caseIds, { timeout: 10_000 }).toEqual(['CLM-Q-3', 'CLM-Q-0']);
  }, 120_000);

  it('reads and writes days as "26 Nov 2026", and on a phone folds the filters under the inspections', async () => {
    const { page } = desk;
    await page.goto(`${base}/portal/#/inspections`);
    await page.waitForSelector('table.inspections tbody tr');
    const day = new Date(Date.now() - 2 * DAY).toISOString().slice(0, 10);
    const [y, m, d] = day.split('-').map(Number);
    const written = new Date(Date.UTC(y!, m! - 1, d)).toLocaleDateString('en-GB', {
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      timeZone: 'UTC',
    });
    await page.fill('#f-from', written);
    await page.fill('#f-to', `${d}/${m}/${y}`);
    await page.press('#f-to', 'Enter');
    await page.waitForFunction(
      `location.hash.includes('from=${day}') && location.hash.includes('to=${day}')`,
    );
    await page.waitForFunction("document.querySelectorAll('table.inspections tbody tr').length === 1");
    expect(await caseIds()).toEqual(['CLM-Q-2']);
    expect(await page.inputValue('#f-to')).toBe(written);
    await page.fill('#f-from', 'someday');
    await page.press('#f-from', 'Tab');
    expect(await page.textContent('#f-from-wrong')).toBe('Write a day such as 26 Nov 2026.');
    await expectAccessible(page, 'list, days');
    await screenshot(page, 'portal', 'list-days');

    const phone = await launchPhone({ chromium: chromium! });
    try {
      const p = phone.page;
      await p.goto(`${base}/portal/`);
      await p.fill('#email', email);
      await p.fill('#password', PASSWORD);
      await p.click('button[type="submit"]');
      await p.waitForSelector('table.inspections tbody tr');
      expect(await p.isVisible('#f-case_id')).toBe(false);
      const first = await p.locator('table.inspections tbody tr').first().boundingBox();
      expect(first!.y + first!.height).toBeLessThan(844);
      await expectAccessible(p, 'list on a phone');
      await screenshot(p, 'portal', 'list-phone');
      await p.click('summary:has-text("Search and filters")');
      expect(await p.isVisible('#f-case_id')).toBe(true);
      await screenshot(p, 'portal', 'list-phone-filters');
    } finally {
      await phone.close();
    }
  }, 120_000);
});
