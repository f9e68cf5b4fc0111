// The results portal in Chromium against a real service with its worker: sign in, search by plate, open
// an inspection and look at its boxes; review it (draw a damage, accept) into version 2 with its
// inspection.reviewed webhook; re-send a delivery; download the PDF and render its first page; open a
// share link signed out. axe-core on every page; screenshots in test-output/screenshots/portal/.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startWorker, type RunningWorker } from '../../src/workers/run.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import {
  expectAccessible,
  launchDesktop,
  launchPhone,
  SCREENSHOTS,
  screenshot,
  type Phone,
} from '../helpers/browser.js';
import { photo } from '../helpers/media.js';
import { makeMp4 } from '../helpers/video.js';
import { PASSWORD, portalUser, seedInspection } from '../helpers/portal.js';
import { uploadClient } from '../helpers/upload-client.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

const chromium = inject('chromium');
const hasPdftoppm = spawnSync('pdftoppm', ['-v']).error === undefined;
/** Every image of the page has loaded (a string: the page's DOM is not in this file's types). */
const ALL_IMAGES_LOADED = '[...document.images].every((img) => img.complete && img.naturalWidth > 0)';

describe.skipIf(!chromium)('portal in a browser', () => {
  let t: TestApp;
  let worker: RunningWorker;
  let base: string;
  let receiver: Receiver;
  let desk: Phone;
  let email: string;
  let apiKey: string;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'walkaround-portal-'));

  beforeAll(async () => {
    t = await startTestApp('sqlite');
    worker = await startWorker(t.deps);
    base = await t.listen();
    const secret = { value: '' };
    receiver = await startReceiver(() => secret.value);
    const client = await t.newClient({
      name: 'Acme Insurance',
      webhookUrl: `http://media.test:${receiver.port}/hooks`,
    });
    secret.value = client.webhookSecret;
    apiKey = client.apiKey;
    // One inspection through the real upload and analysis; others written as the analysis writes them.
    const api = uploadClient(base);
    const c = await api.credentials(client.apiKey);
    const upload = await api.files(
      c.refresh_token,
      { type: 'file', session: c.session, case_id: 'CLM-2026-0042' },
      [
        { name: 'rear.jpg', content: photo('licenseplate_motion.jpg') },
        { name: 'street.jpg', content: photo('scenetext01.jpg') },
      ],
    );
    expect(upload.status).toBe(200);
    await receiver.waitFor(2, 60_000); // received, completed
    const day = 24 * 3600 * 1000;
    for (const [i, caseId] of ['CLM-2026-0031', 'CLM-2026-0035', 'CLM-2026-0039'].entries())
      await seedInspection(t.deps, client.id, {
        caseId,
        plate: i === 1 ? 'AB-123-CD' : null,
        flags: i === 0 ? ['blurry', 'edited'] : i === 2 ? ['reused'] : [],
        photos: ['home.jpg', 'exif.jpg'],
        createdAt: Date.now() - (3 - i) * day,
      });
    email = await portalUser(t.deps, 'client_admin', client.id);
    desk = await launchDesktop({ chromium: chromium! });
  }, 180_000);
  afterAll(async () => {
    await desk?.close();
    await worker?.stop();
    await receiver?.close();
    await t?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('signs in, finds an inspection by plate and shows its photo with the vehicle drawn on it', async () => {
    const { page } = desk;
    await page.goto(`${base}/portal/`);
    await page.waitForSelector('form.card');
    await expectAccessible(page, 'sign-in');
    await screenshot(page, 'portal', 'sign-in');
    await page.fill('#email', email);
    await page.fill('#password', 'not the password');
    await page.click('button[type="submit"]');
    await page.waitForSelector('.error');
    expect(await page.textContent('.error')).toBe('E-mail or password is wrong');
    await page.fill('#password', PASSWORD);
    await page.click('button[type="submit"]');
    await page.waitForSelector('table.inspections tbody tr');
    expect(await page.locator('table.inspections tbody tr').count()).toBe(4);
    await page.waitForFunction(ALL_IMAGES_LOADED);
    await expectAccessible(page, 'list');
    await screenshot(page, 'portal', 'list');

    await page.fill('#f-plate', 'ab123');
    await page.click('.filters button[type="submit"]');
    await page.waitForFunction("document.querySelectorAll('table.inspections tbody tr').length === 1");
    expect(await page.textContent('table.inspections tbody tr')).toContain('CLM-2026-0035');
    await screenshot(page, 'portal', 'list-search-plate');

    await page.click('a[href="#/inspections"]');
    await page.click('text=CLM-2026-0042');
    await page.waitForSelector('.viewer .box.vehicle');
    await page.waitForFunction(ALL_IMAGES_LOADED);
    expect(await page.textContent('.viewer .box.vehicle .tag')).toBe('car');
    await expectAccessible(page, 'inspection');
    await screenshot(page, 'portal', 'inspection');
    // The camera's clock in words, not an ISO string.
    expect(await page.textContent('.facts')).toContain('20 Dec 2003, 16:10 (camera clock)');
    // Each photo is named in the strip with its flags; a flag filters the strip.
    expect(await page.locator('.strip .thumb-name').allTextContents()).toEqual([
      '1. rear.jpg',
      '2. street.jpg',
    ]);
    await page.click('.flag-list button:has-text("Show only these")');
    await page.waitForFunction("document.querySelectorAll('.strip li').length === 1");
    expect(await page.textContent('.strip-filter')).toContain('Showing the 1 item flagged Blurred');
    await page.click('.strip-filter button:has-text("Show all 2")');
    await page.waitForFunction("document.querySelectorAll('.strip li').length === 2");
    await screenshot(page, 'portal', 'inspection-full', { fullPage: true });
  }, 120_000);

  it('reviews it: a damage drawn on the photo and an acceptance make version 2 and send inspection.reviewed', async () => {
    const { page } = desk;
    const before = receiver.received.length;
    await page.click('button:has-text("Review")');
    await page.waitForSelector('.review-panel');
    await expectAccessible(page, 'review');
    const stage = (await page.locator('.stage').boundingBox())!;
    await page.mouse.move(stage.x + stage.width * 0.35, stage.y + stage.height * 0.55);
    await page.mouse.down();
    await page.mouse.move(stage.x + stage.width * 0.5, stage.y + stage.height * 0.7, { steps: 5 });
    await page.mouse.up();
    await page.waitForSelector('.box.damage.selected');
    await page.fill('.damage-fields input[list="parts"]', 'bumper');
    await page.press('.damage-fields input[list="parts"]', 'Tab');
    await page.fill('.damage-fields input[list="types"]', 'dent');
    await page.press('.damage-fields input[list="types"]', 'Tab');
    await page.selectOption('.damage-fields select', 'moderate');
    await page.check('input[name="decision"] >> nth=0');
    await page.fill('#review-note', 'Dent confirmed on the rear bumper.');
    await screenshot(page, 'portal', 'review');
    await page.click('button:has-text("Save review")');
    await page.waitForSelector('text=Review saved as version 2.');
    expect(await page.textContent('.viewer .box.damage .tag')).toBe('bumper: dent (moderate)');
    expect(await page.inputValue('.head-actions select')).toBe('2');
    await screenshot(page, 'portal', 'reviewed');

    const [reviewed] = (await receiver.waitFor(before + 1, 30_000)).slice(before);
    expect(reviewed).toMatchObject({ type: 'inspection.reviewed', verified: true });
    expect(reviewed!.body.data).toMatchObject({
      version: 2,
      review: { decision: 'accepted', note: 'Dent confirmed on the rear bumper.', reviewer: { email } },
      summary: { damages: 1 },
    });
  }, 120_000);

  it('re-sends a delivery with the same webhook-id', async () => {
    const { page } = desk;
    await page.reload();
    await page.waitForSelector('.deliveries');
    const before = receiver.received.length;
    const item = page.locator('.deliveries > li', { hasText: 'inspection.reviewed' });
    await item.locator('button:has-text("Re-send")').click();
    await page.waitForSelector('text=queued to be sent again');
    const again = (await receiver.waitFor(before + 1, 30_000)).slice(before);
    const first = receiver.received.find((r) => r.type === 'inspection.reviewed')!;
    expect(again[0]).toMatchObject({ type: 'inspection.reviewed', id: first.id, verified: true });
  }, 60_000);

  it('downloads the PDF report; its first page shows the summary', async () => {
    const { page } = desk;
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click('a:has-text("Download PDF")'),
    ]);
    const file = path.join(dir, 'report.pdf');
    await download.saveAs(file);
    expect(fs.readFileSync(file).subarray(0, 5).toString()).toBe('%PDF-');
    expect(download.suggestedFilename()).toBe('inspection-CLM-2026-0042.pdf');
    if (!hasPdftoppm) {
      console.log('PDF not rendered to PNG: pdftoppm (Debian poppler-utils) is not installed');
      return;
    }
    const out = path.join(SCREENSHOTS, 'portal', 'report');
    execFileSync('pdftoppm', ['-png', '-r', '80', '-f', '1', '-l', '2', file, out]);
    expect(fs.existsSync(`${out}-1.png`)).toBe(true);
    const text = execFileSync('pdftotext', ['-l', '1', file, '-']).toString();
    expect(text).toContain('Inspection CLM-2026-0042');
    expect(text).toContain('accepted by');
  }, 60_000);

  it('opens a share link signed out, on a phone, with faces and plates blurred', async () => {
    const { page } = desk;
    await page.check('input[name="blur"]');
    await page.click('button:has-text("Create share link")');
    const url = await page.inputValue('.created input');
    expect(url).toMatch(/\/portal\/#\/share\/[A-Za-z0-9_-]{43}$/);
    await expectAccessible(page, 'inspection with a share link');
    const phone = await launchPhone({ chromium: chromium! });
    try {
      await phone.page.goto(url.replace(/^https?:\/\/[^/]+/, base));
      await phone.page.waitForSelector('.shared-photo .stage img');
      await phone.page.waitForFunction(ALL_IMAGES_LOADED);
      expect(await phone.page.textContent('h1')).toBe('Inspection CLM-2026-0042');
      expect(await phone.page.textContent('.page-head')).toContain('faces and licence plates are blurred');
      // By default an outsider sees the photos, damages and review: no fraud flag, hash or EXIF.
      const shown = await phone.page.textContent('main');
      for (const internal of ['Edited', 'Blurred', 'Low resolution', 'SHA-256', 'FUJIFILM', 'rear.jpg'])
        expect(shown).not.toContain(internal);
      await expectAccessible(phone.page, 'shared report');
      await screenshot(phone.page, 'portal', 'shared-phone', { fullPage: true });
      // Signed out, the portal itself still asks for a sign-in.
      await phone.page.goto(`${base}/portal/`);
      await phone.page.waitForSelector('form.card');
    } finally {
      await phone.close();
    }
  }, 60_000);

  it('shows a reused photo beside the one it was reused from, and a video with its keyframes', async () => {
    const api = uploadClient(base);
    const before = receiver.received.length;
    const video = await makeMp4(dir, 'walkaround.mp4', 4, '4M', 'libx264');
    for (const [caseId, file] of [
      ['CLM-2026-0050', { name: 'rear-again.jpg', content: photo('licenseplate_motion.jpg') }],
      ['CLM-2026-0051', { name: 'walkaround.mp4', content: fs.readFileSync(video) }],
    ] as const) {
      const c = await api.credentials(apiKey);
      const upload = await api.files(c.refresh_token, { type: 'file', session: c.session, case_id: caseId }, [
        file,
      ]);
      expect(upload.body).toMatchObject({ status: 'success' });
    }
    await receiver.waitFor(before + 4, 60_000);
    const { page } = desk;
    await page.goto(`${base}/portal/#/inspections`);
    await page.click('text=CLM-2026-0050');
    await page.waitForSelector('.reuse .side-by-side');
    await page.waitForFunction(ALL_IMAGES_LOADED);
    expect(await page.textContent('.reuse')).toContain('The other inspection');
    await expectAccessible(page, 'inspection with a reused photo');
    await screenshot(page, 'portal', 'reused', { fullPage: true });

    // The reused photo's link opens the inspection it came from.
    await page.click('.reuse a');
    await page.waitForSelector('h1:has-text("CLM-2026-0042")');

    await page.goto(`${base}/portal/#/inspections`);
    await page.click('text=CLM-2026-0051');
    await page.waitForSelector('.video video');
    await page.waitForSelector('.keyframes img');
    await page.waitForFunction(ALL_IMAGES_LOADED);
    await expectAccessible(page, 'inspection with a video');
    await screenshot(page, 'portal', 'video');
  }, 120_000);
});
