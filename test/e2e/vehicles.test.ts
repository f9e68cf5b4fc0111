// Vehicle history and new damage end to end (docs/vehicles.md), on both databases: real uploads over
// HTTP, a real worker with its analysis threads. A second inspection of the same VIN is compared with the
// first automatically; `compare_with` names another; another client's inspection in `compare_with` is
// refused exactly like an unknown one.
import { Value } from '@sinclair/typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InspectionResult } from '../../src/domain/result/index.js';
import { startWorker, type RunningWorker } from '../../src/workers/run.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { BACKENDS } from '../helpers/backends.js';
import { photo, scratchedPhoto } from '../helpers/media.js';
import { uploadClient } from '../helpers/upload-client.js';

const VIN = 'WVWZZZ1JZ3W386752';
const OTHER_VIN = 'WBA3A5C51CF256551';

describe.each(BACKENDS)('vehicle history on %s', (backend) => {
  let t: TestApp;
  let worker: RunningWorker;
  let api: ReturnType<typeof uploadClient>;
  let baseUrl: string;
  let client: { id: string; apiKey: string };
  let other: { id: string; apiKey: string };

  beforeAll(async () => {
    t = await startTestApp(backend, { JOB_LEASE: '5s' });
    worker = await startWorker(t.deps);
    baseUrl = await t.listen();
    api = uploadClient(baseUrl);
    client = await t.newClient({ webhookUrl: 'https://hooks.example.com/x' });
    other = await t.newClient({ webhookUrl: 'https://hooks.example.com/y' });
  }, 120_000);
  afterAll(async () => {
    await worker?.stop();
    await t?.close();
  });

  async function upload(key: string, content: Buffer, fields: { vin?: string; compare_with?: string } = {}) {
    const c = await api.credentials(key);
    const res = await api.files(
      c.refresh_token,
      {
        type: 'file',
        session: c.session,
        case_id: 'vehicles',
        ...(fields.vin && { inputMetaData: JSON.stringify({ vin: fields.vin }) }),
        ...(fields.compare_with && { compare_with: fields.compare_with }),
      },
      [{ name: 'side.jpg', content }],
    );
    return { session: c.session, ...res };
  }

  async function resultOf(session: string): Promise<InspectionResult> {
    const deadline = Date.now() + 120_000;
    for (;;) {
      const res = await fetch(`${baseUrl}/api/inspections/${session}`, {
        headers: { 'x-api-key': client.apiKey },
      });
      const body = (await res.json()) as { status: string; result: InspectionResult | null };
      if (body.status === 'completed' && body.result) {
        const errors = [...Value.Errors(InspectionResult, body.result)].slice(0, 5);
        expect(errors.map((e) => `${e.path}: ${e.message}`)).toEqual([]);
        return body.result;
      }
      if (body.status === 'failed') throw new Error(`analysis failed: ${JSON.stringify(body.result)}`);
      if (Date.now() > deadline) throw new Error(`no result for ${session}: ${body.status}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  const get = (path: string, key = client.apiKey) =>
    fetch(`${baseUrl}${path}`, { headers: { 'x-api-key': key } });

  it('compares a second inspection of the same VIN with the first, and one with compare_with with that one', async () => {
    const first = await upload(client.apiKey, photo('home.jpg'), { vin: VIN });
    expect(first.status).toBe(200);
    const before = await resultOf(first.session);
    expect(before.comparison).toBeNull();
    expect(before.vehicle_id).toEqual(expect.any(String));

    const second = await upload(client.apiKey, await scratchedPhoto(), { vin: VIN });
    const after = await resultOf(second.session);
    expect(after.vehicle_id).toBe(before.vehicle_id);
    expect(after.comparison).toMatchObject({
      previous_inspection_id: first.session,
      basis: 'vehicle',
      pairs: 1,
      compared: 1,
    });
    const changes = after.media[0]!.analysis.changes!;
    expect(changes).toMatchObject({
      status: 'compared',
      previous_inspection_id: first.session,
      previous_media_id: before.media[0]!.id,
    });
    // The scratch runs from (0.55, 0.75) to (0.70, 0.68): a region lies on it.
    expect(changes.regions.some((r) => r.box.x < 0.7 && r.box.x + r.box.width > 0.55 && r.box.y < 0.76)).toBe(
      true,
    );
    expect(after.media[0]!.flags).toContain('possible_new_damage');
    expect(after.summary.flags).toContain('possible_new_damage');

    // Another vehicle, compared with the first inspection because the client says so: the same photo.
    const third = await upload(client.apiKey, photo('home.jpg'), {
      vin: OTHER_VIN,
      compare_with: first.session,
    });
    expect(third.status).toBe(200);
    const named = await resultOf(third.session);
    expect(named.comparison).toMatchObject({ previous_inspection_id: first.session, basis: 'compare_with' });
    expect(named.media[0]!.analysis.changes).toMatchObject({ status: 'compared', regions: [] });
    expect(named.vehicle_id).not.toBe(before.vehicle_id);

    // The vehicle's history through the API, and nothing of it for another client.
    const listed = (await (await get(`/api/vehicles?search=${VIN.toLowerCase()}&limit=10`)).json()) as {
      vehicles: { id: string; inspections: number }[];
    };
    expect(listed.vehicles).toEqual([expect.objectContaining({ id: before.vehicle_id, inspections: 2 })]);
    const history = (await (await get(`/api/vehicles/${before.vehicle_id}`)).json()) as {
      vin: string;
      history: { inspection_id: string; possible_new_damage: boolean; compared_with: string | null }[];
    };
    expect(history.vin).toBe(VIN);
    expect(history.history).toEqual([
      expect.objectContaining({
        inspection_id: first.session,
        possible_new_damage: false,
        compared_with: null,
      }),
      expect.objectContaining({
        inspection_id: second.session,
        possible_new_damage: true,
        compared_with: first.session,
      }),
    ]);
    expect((await get(`/api/vehicles/${before.vehicle_id}`, other.apiKey)).status).toBe(404);
    const theirs = (await (await get('/api/vehicles', other.apiKey)).json()) as { vehicles: unknown[] };
    expect(theirs.vehicles).toEqual([]);
  }, 240_000);

  it("refuses another client's inspection in compare_with exactly like an unknown one", async () => {
    const mine = await upload(client.apiKey, photo('home.jpg'));
    expect(mine.status).toBe(200);
    const theirs = await upload(other.apiKey, photo('home.jpg'), { compare_with: mine.session });
    const unknown = await upload(other.apiKey, photo('home.jpg'), { compare_with: 'no-such-inspection' });
    expect([theirs.status, unknown.status]).toEqual([400, 400]);
    // The same answer, but for the session each upload used.
    expect(theirs.body).toEqual({
      status: 'error',
      id: theirs.session,
      message: 'compare_with is invalid',
      case_id: 'vehicles',
    });
    expect({ ...unknown.body, id: theirs.session }).toEqual(theirs.body);
  }, 120_000);
});
