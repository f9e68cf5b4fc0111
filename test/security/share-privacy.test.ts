// A share link shows an outsider only what its view allows (services/portal/shared-view.ts), and with
// `blur` nothing that names the vehicle or where it was: issue found a blurred share's API returning the
// plate and VIN readings, the client's input metadata, the reviewer's e-mail, the agent and `email_id`,
// and its PDF printing `licensePlate: AB-123-CD` under "Faces and licence plates are blurred".
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InspectionResult } from '../../src/domain/result/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { pdfText } from '../helpers/pdf-text.js';
import { portalUser, seedInspection, signInAs, type PortalSession } from '../helpers/portal.js';

const PLATE = 'AB-123-CD';
const VIN = 'WVWZZZ1JZXW000001';
const SECRETS = {
  plate: PLATE,
  plateRead: 'AB123CD',
  vin: VIN,
  agentId: 'agent-7731',
  agentName: 'Jo Agent',
  emailId: 'claims-7731@insurer.test',
  sourceUrl: 'https://media.insurer.test/private/AB-123-CD.jpg?token=s3cr3t',
  latitude: '48.85837',
};

describe('share links show their view, and nothing of the vehicle when blurred', () => {
  let t: TestApp;
  let admin: PortalSession;
  let adminEmail: string;
  let inspectionId: string;

  beforeAll(async () => {
    t = await startTestApp('sqlite');
    const client = await t.newClient();
    adminEmail = await portalUser(t.deps, 'client_admin', client.id);
    admin = await signInAs(t, adminEmail);
    const seeded = await seedInspection(t.deps, client.id, {
      caseId: 'SHARE-PRIVACY-1',
      photos: ['exif.jpg'],
      plate: PLATE,
      people: [{ x: 0.05, y: 0.1, width: 0.1, height: 0.3 }],
    });
    inspectionId = seeded.id;
    // What a real result of this vehicle holds besides: a VIN read, the photo's GPS and a capture
    // location, a file name with the plate in it, a private source URL, the agent and e-mail ids.
    const row = await t.deps.db
      .selectFrom('inspections')
      .select('result')
      .where('id', '=', seeded.id)
      .executeTakeFirstOrThrow();
    const result = JSON.parse(row.result!) as InspectionResult;
    const item = result.media[0]!;
    item.original_id = `${PLATE}-front.jpg`;
    item.source_url = SECRETS.sourceUrl;
    item.analysis.text!.plate.read = SECRETS.plateRead;
    item.analysis.text!.vin = {
      read: VIN,
      expected: VIN,
      match: true,
      confidence: 0.9,
      check_digit_valid: true,
    };
    item.analysis.exif = {
      capture_time: '2026-11-20T10:00:00+01:00',
      modify_time: null,
      gps: { latitude: 48.85837, longitude: 2.294481, altitude: null },
      camera_make: 'Phone',
      camera_model: 'One',
      lens: null,
      software: null,
      edited: false,
      edited_reasons: [],
    };
    item.capture = {
      source: 'camera',
      captured_at: '2026-11-20T10:00:00+01:00',
      orientation: 'landscape',
      location: { latitude: 48.858371, longitude: 2.294482, accuracy_m: 5 },
      distance_from_others_m: null,
    };
    result.client_metadata = {
      input_metadata: { licensePlate: PLATE, vin: VIN },
      agent_id: SECRETS.agentId,
      agent_name: SECRETS.agentName,
      email_id: SECRETS.emailId,
    };
    await t.deps.db
      .updateTable('inspections')
      .set({ result: JSON.stringify(result) })
      .where('id', '=', seeded.id)
      .execute();
    // A review: the result now names the reviewer.
    const reviewed = await t.app.inject({
      method: 'POST',
      url: `/portal/api/inspections/${seeded.id}/review`,
      headers: admin.writeHeaders,
      payload: { base_version: 1, decision: 'accepted', note: null },
    });
    expect(reviewed.statusCode).toBe(201);
  }, 60_000);
  afterAll(async () => t?.close());

  async function share(blur: boolean): Promise<string> {
    const made = await t.app.inject({
      method: 'POST',
      url: `/portal/api/inspections/${inspectionId}/shares`,
      headers: admin.writeHeaders,
      payload: { blur },
    });
    expect(made.statusCode).toBe(201);
    return made.json<{ url: string }>().url.split('#/share/')[1]!;
  }
  const open = (token: string, url: string) =>
    t.app.inject({ url: `/portal/api/${url}`, headers: { 'x-share-token': token } });

  /** What of SECRETS (and the reviewer's e-mail) a text holds. */
  const leaked = (text: string, allowed: string[] = []) =>
    [...Object.entries(SECRETS), ['reviewer', adminEmail]]
      .filter(([name, value]) => !allowed.includes(name!) && text.includes(value!))
      .map(([name]) => name);

  it('a blurred share: no plate, VIN, place, file name or client metadata in its API answer', async () => {
    const token = await share(true);
    const answer = await open(token, 'shared');
    expect(answer.statusCode).toBe(200);
    expect(leaked(answer.body)).toEqual([]);
    const view = answer.json<{ photos: { original_id: string | null; analysis: object }[] }>();
    expect(view.photos[0]!.original_id).toBeNull();
    expect(view.photos[0]!.analysis).not.toHaveProperty('text');
  });

  it('a blurred share: its PDF prints none of them either', async () => {
    const token = await share(true);
    const pdf = await open(token, 'shared/report.pdf');
    expect(pdf.statusCode).toBe(200);
    const text = pdfText(pdf.rawPayload);
    expect(text).toContain('Faces and licence plates are blurred in this report.');
    expect(text).toContain('Inspection SHARE-PRIVACY-1');
    expect(leaked(text)).toEqual([]);
  });

  it('a blurred share: its photos carry no metadata (no EXIF, XMP or IPTC)', async () => {
    const token = await share(true);
    const view = (await open(token, 'shared')).json<{ photos: { id: string }[] }>();
    for (const variant of ['', '/thumbnail']) {
      const photo = await open(token, `shared/media/${view.photos[0]!.id}${variant}`);
      expect(photo.statusCode).toBe(200);
      const meta = await sharp(photo.rawPayload).metadata();
      expect({ exif: meta.exif, xmp: meta.xmp, iptc: meta.iptc }).toEqual({
        exif: undefined,
        xmp: undefined,
        iptc: undefined,
      });
    }
  });

  it('any share: never the client metadata, the agent, the reviewer, source URLs or storage keys', async () => {
    const token = await share(false);
    const answer = await open(token, 'shared');
    expect(answer.statusCode).toBe(200);
    // Unblurred, the readings, the file name and the places are the report's own content.
    expect(leaked(answer.body, ['plate', 'plateRead', 'vin', 'latitude'])).toEqual([]);
    expect(answer.body).not.toMatch(/thumbnail_key|source_url|client_metadata|input_metadata|inspection_id/);
    const pdf = pdfText((await open(token, 'shared/report.pdf')).rawPayload);
    expect(leaked(pdf, ['plate', 'plateRead', 'vin', 'latitude'])).toEqual([]);
  });

  it('the portal itself still shows its users everything', async () => {
    const pdf = await t.app.inject({
      url: `/portal/api/inspections/${inspectionId}/report.pdf`,
      headers: { cookie: admin.cookie },
    });
    const text = pdfText(pdf.rawPayload);
    expect(text).toContain('licensePlate: ');
    expect(text).toContain(PLATE);
    expect(text).toContain(adminEmail);
  });
});
