// The repair estimate in Chromium (docs/estimate.md#in-the-portal): a client's rate card prices a
// model's damage; a reviewer changes the line's operation in review, saves, and the next version and
// its PDF show the new operation beside what the rules gave. axe-core on every screen; screenshots in
// test-output/screenshots/portal-estimate/.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { InspectionResult } from '../../src/domain/result/index.js';
import { CLI_ACTOR } from '../../src/services/audit.js';
import { setRateCard } from '../../src/services/clients/rate-card.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { expectAccessible, launchDesktop, screenshot, type Phone } from '../helpers/browser.js';
import { PASSWORD, portalUser, seedInspection, type Seeded } from '../helpers/portal.js';

const chromium = inject('chromium');
const hasPdftotext = spawnSync('pdftotext', ['-v']).error === undefined;

describe.skipIf(!chromium)('the repair estimate in a browser', () => {
  let t: TestApp;
  let base: string;
  let desk: Phone;
  let email: string;
  let seeded: Seeded;
  let clientId: string;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'walkaround-estimate-'));

  beforeAll(async () => {
    t = await startTestApp('sqlite');
    base = await t.listen();
    const client = await t.newClient({ name: 'Motor Claims', webhookUrl: 'https://hooks.example.com/x' });
    clientId = client.id;
    await setRateCard(
      t.deps,
      client.id,
      {
        currency: 'GBP',
        labour_rate: 60,
        paint_rate: 40,
        paint_material_rate: 20,
        part_prices: { front_bumper: 500 },
        total_loss_share: 0.7,
      },
      CLI_ACTOR,
    );
    seeded = await seedInspection(t.deps, client.id, {
      caseId: 'MOTOR-7',
      photos: ['home.jpg'],
      damages: [
        { part: 'front_bumper', type: 'scratch', box: { x: 0.3, y: 0.5, width: 0.05, height: 0.03 } },
      ],
    });
    email = await portalUser(t.deps, 'client_admin', client.id);
    desk = await launchDesktop({ chromium: chromium! });
  }, 120_000);
  afterAll(async () => {
    await desk?.close();
    await t?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("changes a line's operation in review; the saved version and its PDF show it", async () => {
    const { page } = desk;
    await page.goto(`${base}/portal/`);
    await page.waitForSelector('form.card');
    await page.fill('#email', email);
    await page.fill('#password', PASSWORD);
    await page.click('button[type="submit"]');
    await page.waitForSelector('table.inspections tbody tr');
    await page.goto(`${base}/portal/#/inspections/${seeded.id}`);
    await page.waitForSelector('.estimate-panel table.estimate');
    expect(await page.textContent('.estimate-panel tbody tr')).toContain('smart repair');
    await expectAccessible(page, 'estimate');
    await screenshot(page, 'portal-estimate', 'estimate', { fullPage: true });

    await page.click('button:has-text("Review")');
    await page.waitForSelector('.estimate-panel select');
    await page.selectOption(
      '.estimate-panel select[aria-label="Operation on front bumper"]',
      'replace_and_paint',
    );
    await page.waitForSelector('text=1 change to the estimate');
    await page.check('input[name="decision"] >> nth=0');
    await expectAccessible(page, 'estimate in review');
    await screenshot(page, 'portal-estimate', 'estimate-review', { fullPage: true });
    await page.click('button:has-text("Save review")');
    await page.waitForSelector('text=Review saved as version 2.');
    await page.waitForSelector('.estimate-panel .changed');
    expect(await page.textContent('.estimate-panel tbody tr')).toContain(
      'replace and paint changed; the rules gave smart repair',
    );
    await screenshot(page, 'portal-estimate', 'estimate-saved', { fullPage: true });

    const row = await t.deps.db
      .selectFrom('inspections')
      .select('result')
      .where('id', '=', seeded.id)
      .executeTakeFirstOrThrow();
    const { estimate, version } = JSON.parse(row.result!) as InspectionResult;
    expect(version).toBe(2);
    // 1.5 h × 60 + 3 h × (40 + 20) + the card's 500 for the bumper.
    expect(estimate!.lines[0]).toMatchObject({
      operation: 'replace_and_paint',
      total: 770,
      rules: { operation: 'smart_repair' },
    });

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click('a:has-text("Download PDF")'),
    ]);
    const file = path.join(dir, 'report.pdf');
    await download.saveAs(file);
    if (!hasPdftotext) {
      console.log('PDF text not checked: pdftotext (Debian poppler-utils) is not installed');
      return;
    }
    // The table's cells wrap: compare the words, whatever the line breaks.
    const text = execFileSync('pdftotext', ['-l', '2', file, '-']).toString().replace(/\s+/g, ' ');
    expect(text).toContain('Repair estimate');
    expect(text).toContain('replace and paint (changed; rules: smart repair)');
    expect(text).toContain('£770.00');
  }, 120_000);

  it("edits the client's rate card in the console: a new version, with prices pasted as CSV", async () => {
    const { page } = desk;
    await page.goto(`${base}/portal/#/clients?tab=rate-card`);
    await page.waitForSelector('#rate-card-title');
    expect(await page.inputValue('#card-currency')).toBe('GBP');
    await page.fill('#card-labour_rate', '70');
    await page.fill('#card-prices', 'part,price\nfront_bumper,520\nbonnet,610.5');
    await expectAccessible(page, 'rate card');
    await screenshot(page, 'portal-estimate', 'rate-card', { fullPage: true });
    await page.click('button:has-text("Save the rate card")');
    await page.waitForSelector('text=Saved as version 2');
    const row = await t.deps.db
      .selectFrom('clients')
      .select(['rate_card', 'rate_card_version'])
      .where('id', '=', clientId)
      .executeTakeFirstOrThrow();
    expect(row.rate_card_version).toBe(2);
    expect(JSON.parse(row.rate_card!)).toMatchObject({
      currency: 'GBP',
      labour_rate: 70,
      part_prices: { front_bumper: 520, bonnet: 610.5 },
    });
  }, 60_000);
});
