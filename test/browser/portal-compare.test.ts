// New damage since the vehicle's previous inspection, in Chromium against a real service and worker
// (docs/vehicles.md): two uploads of one VIN, the second with a scratch; a reviewer opens the compare view,
// blends the photos, confirms the candidate as a damage, and the next version of the result carries it
// as new; the vehicle page lists both inspections; a share link shows the damage before and after.
// axe-core on every screen; screenshots in test-output/screenshots/portal-compare/.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { InspectionResult } from '../../src/domain/result/index.js';
import { startWorker, type RunningWorker } from '../../src/workers/run.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { expectAccessible, launchDesktop, launchPhone, screenshot, type Phone } from '../helpers/browser.js';
import { photo, scratchedPhoto } from '../helpers/media.js';
import { PASSWORD, portalUser } from '../helpers/portal.js';
import { uploadClient } from '../helpers/upload-client.js';

const chromium = inject('chromium');
const ALL_IMAGES_LOADED = '[...document.images].every((img) => img.complete && img.naturalWidth > 0)';
const VIN = 'WVWZZZ1JZ3W386752';

describe.skipIf(!chromium)('comparing with the previous inspection in a browser', () => {
  let t: TestApp;
  let worker: RunningWorker;
  let base: string;
  let desk: Phone;
  let email: string;
  let first: string;
  let second: string;

  beforeAll(async () => {
    t = await startTestApp('sqlite');
    worker = await startWorker(t.deps);
    base = await t.listen();
    const client = await t.newClient({ name: 'Fleet Rentals', webhookUrl: 'https://hooks.example.com/x' });
    const api = uploadClient(base);
    const upload = async (caseId: string, content: Buffer) => {
      const c = await api.credentials(client.apiKey);
      const res = await api.files(
        c.refresh_token,
        { type: 'file', session: c.session, case_id: caseId, inputMetaData: JSON.stringify({ vin: VIN }) },
        [{ name: 'left-side.jpg', content }],
      );
      expect(res.status).toBe(200);
      await completed(c.session);
      return c.session;
    };
    first = await upload('CHECK-OUT-0001', photo('home.jpg'));
    second = await upload('CHECK-IN-0001', await scratchedPhoto());
    email = await portalUser(t.deps, 'client_admin', client.id);
    desk = await launchDesktop({ chromium: chromium! });
  }, 180_000);
  afterAll(async () => {
    await desk?.close();
    await worker?.stop();
    await t?.close();
  });

  async function completed(id: string) {
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      const row = await t.deps.db
        .selectFrom('inspections')
        .select('status')
        .where('id', '=', id)
        .executeTakeFirst();
      if (row?.status === 'completed') return;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`${id} was not analysed`);
  }

  const latestResult = async (id: string) => {
    const row = await t.deps.db
      .selectFrom('inspections')
      .select('result')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return JSON.parse(row.result!) as InspectionResult;
  };

  it('shows the candidate in the compare view; a reviewer confirms it and the next version carries it as new', async () => {
    const { page } = desk;
    await page.goto(`${base}/portal/`);
    await page.waitForSelector('form.card');
    await page.fill('#email', email);
    await page.fill('#password', PASSWORD);
    await page.click('button[type="submit"]');
    await page.waitForSelector('table.inspections tbody tr');
    await page.goto(`${base}/portal/#/inspections/${second}`);
    await page.waitForSelector('.compare-panel .box.region');
    await page.waitForFunction(ALL_IMAGES_LOADED);
    expect(await page.textContent('.compare-panel')).toContain(
      'Compared with the same view in the previous inspection',
    );
    await expectAccessible(page, 'compare view');
    await screenshot(page, 'portal-compare', 'side-by-side', { fullPage: true });

    await page.click('.compare-panel button:has-text("Blend")');
    await page.waitForSelector('.compare-panel .blend input[type="range"]');
    await page.fill('.compare-panel .blend input[type="range"]', '20');
    await expectAccessible(page, 'compare view, blended');
    await screenshot(page, 'portal-compare', 'blend', { fullPage: true });

    await page.click('.candidates li >> nth=0 >> button:has-text("Confirm")');
    await page.fill('.candidates input[name="part"]', 'door');
    await page.fill('.candidates input[name="type"]', 'scratch');
    await page.selectOption('.candidates select[name="severity"]', 'moderate');
    await expectAccessible(page, 'confirming a candidate');
    await screenshot(page, 'portal-compare', 'confirm');
    await page.click('button:has-text("Confirm as new damage")');
    await page.waitForSelector('text=Saved as version 2.');
    await page.waitForSelector('.candidates li >> text=confirmed as new damage');
    await page.waitForSelector('.viewer .box.damage .tag >> text=New · door: scratch (moderate)');
    await screenshot(page, 'portal-compare', 'confirmed', { fullPage: true });

    const result = await latestResult(second);
    expect(result.version).toBe(2);
    const item = result.media[0]!;
    expect(item.analysis.damage?.damages).toEqual([
      expect.objectContaining({
        part: 'door',
        type: 'scratch',
        severity: 'moderate',
        new: true,
        previous_inspection_id: first,
        source: 'reviewer',
      }),
    ]);
    expect(item.analysis.changes?.regions[0]?.decision).toBe('confirmed');
    expect(item.flags).toEqual(expect.arrayContaining(['damage', 'new_damage']));
    expect(result.review?.reviewer.email).toBe(email);
  }, 120_000);

  it("lists both inspections on the vehicle's page, oldest first", async () => {
    const { page } = desk;
    await page.click('a:has-text("This vehicle\'s history")');
    await page.waitForSelector('.vehicle-timeline li');
    const rows = await page.locator('.vehicle-timeline li').allTextContents();
    expect(rows).toHaveLength(2);
    expect(rows[0]).toContain('CHECK-OUT-0001');
    expect(rows[1]).toContain('CHECK-IN-0001');
    expect(rows[1]).toContain('New damage');
    expect(await page.textContent('.vehicle-page')).toContain(VIN);
    await expectAccessible(page, 'vehicle page');
    await screenshot(page, 'portal-compare', 'vehicle', { fullPage: true });
  }, 60_000);

  it('shows the confirmed new damage before and after on a share link, signed out, on a phone', async () => {
    const { page } = desk;
    await page.goto(`${base}/portal/#/inspections/${second}`);
    await page.waitForSelector('.compare-panel');
    await page.click('button:has-text("Create share link")');
    const url = await page.inputValue('.created input');
    const phone = await launchPhone({ chromium: chromium! });
    try {
      await phone.page.goto(url.replace(/^https?:\/\/[^/]+/, base));
      await phone.page.waitForSelector('.before-after img[alt^="Before"]');
      await phone.page.waitForSelector('.before-after img[alt^="After"]');
      await phone.page.waitForFunction(ALL_IMAGES_LOADED);
      expect(await phone.page.textContent('.before-after')).toContain('door: scratch (moderate)');
      // The damage's label stays on the photo, though its box is at the photo's right.
      const overflow = await phone.page.evaluate<number[]>(
        `[...document.querySelectorAll('.viewer .box .tag')].map((tag) => {
          const frame = tag.closest('.frame').getBoundingClientRect();
          const { left, right } = tag.getBoundingClientRect();
          return Math.max(frame.left - left, right - frame.right);
        })`,
      );
      expect(overflow.length).toBeGreaterThan(0);
      for (const beyond of overflow) expect(beyond).toBeLessThanOrEqual(1);
      await expectAccessible(phone.page, 'shared before and after');
      await screenshot(phone.page, 'portal-compare', 'shared-phone', { fullPage: true });
    } finally {
      await phone.close();
    }
  }, 60_000);
});
