// The PDF report's cover (docs/portal.md#the-pdf-report): page 1 holds the vehicle, what the client
// expected against what the photos read, a grid of the photos and the damage table with each damage's
// estimate. Read back with pdftotext and rendered with pdftoppm (Debian poppler-utils) to
// test-output/screenshots/portal-report/ for a person to look at.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InspectionResult } from '../../src/domain/result/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { SCREENSHOTS } from '../helpers/browser.js';
import { portalUser, seedInspection, signInAs, type PortalSession } from '../helpers/portal.js';

const hasPoppler = spawnSync('pdftotext', ['-v']).error === undefined;

describe.skipIf(!hasPoppler)('the PDF report: its cover', () => {
  let t: TestApp;
  let admin: PortalSession;
  let inspectionId: string;
  /** The estimate's totals as the report writes them: each line's, and the whole. */
  let lineTotals: string[];
  let total: string;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'walkaround-report-'));
  const file = path.join(dir, 'report.pdf');

  beforeAll(async () => {
    t = await startTestApp('sqlite');
    const client = await t.newClient({ name: 'Motor Claims' });
    admin = await signInAs(t, await portalUser(t.deps, 'client_admin', client.id));
    const seeded = await seedInspection(t.deps, client.id, {
      caseId: 'COVER-1',
      photos: [
        'home.jpg',
        'exif.jpg',
        'licenseplate_motion.jpg',
        'scenetext01.jpg',
        'home.jpg',
        'exif.jpg',
        'home.jpg',
      ],
      plate: 'AB-123-CD',
      damages: [
        { part: 'front_bumper', type: 'scratch', box: { x: 0.3, y: 0.5, width: 0.05, height: 0.03 } },
        // At the photo's top right corner: its label must stay inside the photo.
        { part: 'rear_door_left', type: 'dent', box: { x: 0.9, y: 0.0, width: 0.1, height: 0.1 } },
      ],
    });
    inspectionId = seeded.id;
    // What the client gave, and what the photos read: the plate read differs, the VIN matches, the
    // odometer reads more than expected; the dent was confirmed new since the last inspection.
    const row = await t.deps.db
      .selectFrom('inspections')
      .select('result')
      .where('id', '=', seeded.id)
      .executeTakeFirstOrThrow();
    const result = JSON.parse(row.result!) as InspectionResult;
    result.client_metadata.input_metadata = {
      licensePlate: 'AB-123-CD',
      vin: 'WVWZZZ1JZXW000001',
      odometer: 45000,
    };
    const first = result.media[0]!.analysis;
    first.text!.plate = { read: 'AB123CE', expected: 'AB123CD', match: false, confidence: 0.9 };
    first.damage!.damages[1]!.new = true;
    const dashboard = result.media[3]!.analysis.text!;
    dashboard.vin = {
      read: 'WVWZZZ1JZXW000001',
      expected: 'WVWZZZ1JZXW000001',
      match: true,
      confidence: 0.8,
      check_digit_valid: true,
    };
    dashboard.odometer = { read: 45218, unit: 'km', expected: 45000, match: false, confidence: 0.8 };
    const money = new Intl.NumberFormat('en-GB', { style: 'currency', currency: result.estimate!.currency });
    lineTotals = result.estimate!.lines.map((l) => money.format(l.total));
    total = money.format(result.estimate!.total);
    expect(lineTotals).toHaveLength(2);
    await t.deps.db
      .updateTable('inspections')
      .set({ result: JSON.stringify(result) })
      .where('id', '=', seeded.id)
      .execute();
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('page 1: the vehicle expected against read, the photos and the damage table', async () => {
    const pdf = await t.app.inject({
      url: `/portal/api/inspections/${inspectionId}/report.pdf`,
      headers: { cookie: admin.cookie },
    });
    expect(pdf.statusCode).toBe(200);
    fs.writeFileSync(file, pdf.rawPayload);
    const page1 = execFileSync('pdftotext', ['-layout', '-f', '1', '-l', '1', file, '-']).toString();
    const lines = page1.split('\n').map((l) => l.trim().replace(/\s{2,}/g, ' | '));
    expect(page1).toContain('Inspection COVER-1');
    expect(lines).toContain('Licence plate | AB-123-CD | AB123CE | DIFFERS');
    expect(lines).toContain('VIN | WVWZZZ1JZXW000001 | WVWZZZ1JZXW000001 | matches');
    expect(lines).toContain('Odometer | 45 000 km | 45 218 km | DIFFERS');
    // The damage table: part in words, the new one marked, each line's estimate and the total.
    const damage = (part: string) => lines.find((l) => l.includes(`| ${part} |`));
    expect(damage('front bumper')).toBe(
      `1 | 1. home.jpg | front bumper | scratch | moderate | ${lineTotals[0]}`,
    );
    expect(damage('rear door left')).toBe(
      `2 | 1. home.jpg | rear door left | dent | moderate | new | ${lineTotals[1]}`,
    );
    // The seeded client has no rate card: the cover says the total is at example rates.
    expect(lines.find((l) => l.startsWith('Estimate total'))).toMatch(
      new RegExp(`^Estimate total, at example rates: .* \\| ${total}$`),
    );
    // The thumbnail grid: each photo's caption.
    for (const caption of ['1. home.jpg', '4. scenetext01.jpg', '7. home.jpg'])
      expect(page1).toContain(caption);
    // The estimate's own table is on the next page, not repeated on the cover.
    expect(page1).not.toContain('Operation');

    const out = path.join(SCREENSHOTS, 'portal-report', 'report');
    fs.mkdirSync(path.dirname(out), { recursive: true });
    execFileSync('pdftoppm', ['-png', '-r', '90', '-f', '1', '-l', '3', file, out]);
    expect(fs.existsSync(`${out}-1.png`)).toBe(true);
  }, 60_000);
});
