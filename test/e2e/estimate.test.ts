// Repair estimates end to end through the portal API of a listening service (docs/estimate.md), on both
// databases: a client sets its rate
// card; a reviewer saves damages; the next version's estimate follows the card (labour = hours × rate,
// paint likewise, replaced parts at the card's price, totals that add up); a reviewer's change to a line
// is kept beside what the rules gave; the CSV export and the list's sort and filter by total. Another
// client's card never applies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InspectionResult } from '../../src/domain/result/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { BACKENDS } from '../helpers/backends.js';
import { portalUser, seedInspection, signInAs, type PortalSession, type Seeded } from '../helpers/portal.js';

const BOX = { x: 0.3, y: 0.5, width: 0.1, height: 0.05 };
const CARD_A = {
  currency: 'GBP',
  labour_rate: 60,
  paint_rate: 40,
  paint_material_rate: 20,
  part_prices: { front_bumper: 500 },
  total_loss_share: 0.7,
};
const CARD_B = { ...CARD_A, currency: 'EUR', labour_rate: 10, part_prices: { front_bumper: 1 } };

describe.each(BACKENDS)('repair estimates on %s', (backend) => {
  let t: TestApp;
  let base: string;
  let clientA: string;
  let clientB: string;
  let inspection: Seeded;
  let other: Seeded;
  let adminA: PortalSession;
  let adminB: PortalSession;
  let viewerA: PortalSession;

  beforeAll(async () => {
    t = await startTestApp(backend);
    base = await t.listen();
    clientA = (await t.newClient({ name: 'Insurer A', webhookUrl: 'https://hooks.example.com/a' })).id;
    clientB = (await t.newClient({ name: 'Insurer B' })).id;
    inspection = await seedInspection(t.deps, clientA, { caseId: 'CLAIM-1', photos: ['home.jpg'] });
    other = await seedInspection(t.deps, clientA, { caseId: 'CLAIM-0', photos: ['home.jpg'] });
    adminA = await signInAs(t, await portalUser(t.deps, 'client_admin', clientA));
    adminB = await signInAs(t, await portalUser(t.deps, 'client_admin', clientB));
    viewerA = await signInAs(t, await portalUser(t.deps, 'client_viewer', clientA));
  });
  afterAll(() => t.close());

  /** A call over HTTP to the listening service, as the portal makes it. */
  const call = async (
    session: PortalSession,
    method: 'GET' | 'PUT' | 'POST',
    url: string,
    payload?: object,
  ) => {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: { ...session.writeHeaders, ...(payload && { 'content-type': 'application/json' }) },
      ...(payload && { body: JSON.stringify(payload) }),
    });
    const body = await res.text();
    return {
      statusCode: res.status,
      headers: Object.fromEntries(res.headers),
      body,
      json: <T = unknown>() => JSON.parse(body) as T,
    };
  };
  const latest = async () => {
    const row = await t.deps.db
      .selectFrom('inspections')
      .select('result')
      .where('id', '=', inspection.id)
      .executeTakeFirstOrThrow();
    return JSON.parse(row.result!) as InspectionResult;
  };

  it('keeps each client its own card: the example card first, then a new version per change', async () => {
    const example = await call(adminA, 'GET', `/portal/api/clients/${clientA}/rate-card`);
    expect(example.json()).toMatchObject({ version: 0, example: true, card: { currency: 'EUR' } });
    const set = await call(adminA, 'PUT', `/portal/api/clients/${clientA}/rate-card`, CARD_A);
    expect(set.statusCode).toBe(200);
    expect(set.json()).toEqual({ card: CARD_A, version: 1, example: false });
    expect((await call(adminB, 'PUT', `/portal/api/clients/${clientB}/rate-card`, CARD_B)).statusCode).toBe(
      200,
    );
    // Another client's card is unknown to B; a viewer may not touch it.
    expect((await call(adminB, 'PUT', `/portal/api/clients/${clientA}/rate-card`, CARD_B)).statusCode).toBe(
      404,
    );
    expect((await call(viewerA, 'GET', `/portal/api/clients/${clientA}/rate-card`)).statusCode).toBe(403);
    const wrong = await call(adminA, 'PUT', `/portal/api/clients/${clientA}/rate-card`, {
      ...CARD_A,
      currency: 'XYZ',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json<{ message: string }>().message).toBe(
      'Rate card is invalid: /currency: XYZ is not an ISO 4217 currency',
    );
    const audit = await t.deps.db
      .selectFrom('audit_log')
      .select('client_id')
      .where('action', '=', 'client.rate_card')
      .execute();
    expect(audit.map((a) => a.client_id).sort()).toEqual([clientA, clientB].sort());
  });

  it("prices a reviewer's damages with the client's card in the next version", async () => {
    const review = await call(adminA, 'POST', `/portal/api/inspections/${inspection.id}/review`, {
      base_version: 1,
      decision: null,
      damages: {
        [inspection.mediaIds[0]!]: [
          { part: 'front_bumper', type: 'crack', severity: 'moderate', box: BOX },
          { part: 'front_bumper', type: 'scratch', severity: 'minor', box: BOX },
          { part: 'left_front_door', type: 'dent', severity: 'moderate', box: BOX },
        ],
      },
    });
    expect(review.statusCode).toBe(201);
    const { estimate, version } = await latest();
    expect(version).toBe(2);
    expect(estimate).toMatchObject({ currency: 'GBP', rate_card_version: 1, total_loss: null });
    const media = inspection.mediaIds[0]!;
    expect(estimate!.lines).toEqual([
      expect.objectContaining({
        part: 'front_bumper',
        part_source: 'reviewer',
        damage_ids: [`${media}:0`, `${media}:1`],
        operation: 'replace_and_paint',
        labour_hours: 1.5,
        labour_cost: 90, // 1.5 h × 60
        paint_hours: 3,
        paint_cost: 180, // 3 h × (40 + 20)
        parts_cost: 500, // the card's price
        total: 770,
      }),
      expect.objectContaining({
        part: 'left_front_door',
        operation: 'repair_and_paint',
        labour_cost: 180,
        paint_cost: 150,
        parts_cost: 0,
        total: 330,
      }),
    ]);
    const sum = (pick: (l: NonNullable<typeof estimate>['lines'][number]) => number) =>
      estimate!.lines.reduce((n, l) => n + pick(l), 0);
    expect(estimate).toMatchObject({
      labour_total: sum((l) => l.labour_cost),
      paint_total: sum((l) => l.paint_cost),
      parts_total: sum((l) => l.parts_cost),
      total: 1100,
    });
  });

  it("keeps a reviewer's change to a line beside what the rules gave, in the next version", async () => {
    const review = await call(adminA, 'POST', `/portal/api/inspections/${inspection.id}/review`, {
      base_version: 2,
      decision: 'accepted',
      estimate_adjustments: [{ part: 'left_front_door', operation: 'replace_and_paint', parts_cost: 640 }],
    });
    expect(review.statusCode).toBe(201);
    const { estimate } = await latest();
    expect(estimate!.lines[1]).toMatchObject({
      part: 'left_front_door',
      operation: 'replace_and_paint',
      source: 'reviewer',
      parts_cost: 640,
      rules: { operation: 'repair_and_paint', labour_hours: 3, paint_hours: 2.5, parts_cost: 0 },
    });
    expect(estimate!.adjustments).toHaveLength(1);
  });

  it('exports the lines as CSV, and sorts and filters the list by total', async () => {
    const csv = await call(adminA, 'GET', `/portal/api/inspections/${inspection.id}/estimate.csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const rows = csv.body.trim().split('\n');
    expect(rows[0]).toBe(
      'inspection_id,case_id,currency,rate_card_version,part,part_source,operation,labour_hours,labour_cost,paint_hours,paint_cost,parts_cost,total,source,damage_ids',
    );
    expect(rows).toHaveLength(3);
    expect(rows[1]).toContain(
      `${inspection.id},CLAIM-1,GBP,1,front_bumper,reviewer,replace_and_paint,1.5,90,3,180,500,770,rules`,
    );
    expect(
      (await call(adminB, 'GET', `/portal/api/inspections/${inspection.id}/estimate.csv`)).statusCode,
    ).toBe(404);

    // Accepted as it is: no damage, an estimate of 0.
    await call(adminA, 'POST', `/portal/api/inspections/${other.id}/review`, {
      base_version: 1,
      decision: 'accepted',
    });
    const list = async (query: string) =>
      (await call(adminA, 'GET', `/portal/api/inspections?${query}`)).json<{
        items: { case_id: string; estimate: { total: number; currency: string } | null }[];
      }>().items;
    const byTotal = await list('sort=total');
    expect(byTotal.map((i) => i.case_id)).toEqual(['CLAIM-1', 'CLAIM-0']);
    // 770 for the bumper; the door replaced and painted: 3.5 h × 60 + 3 h × 60 + 640 = 1030.
    expect(byTotal[0]!.estimate).toEqual({ total: 1800, currency: 'GBP' });
    expect((await list('min_total=1000')).map((i) => i.case_id)).toEqual(['CLAIM-1']);
    expect((await list('max_total=0')).map((i) => i.case_id)).toEqual(['CLAIM-0']);
  });
});
