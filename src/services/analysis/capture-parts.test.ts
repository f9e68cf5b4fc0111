// The capture part and its two flags (docs/result.md#the-capture-part), on hand-made media rows.
import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import type { CaptureMetadata } from '../../domain/capture-metadata.js';
import { InspectionResult } from '../../domain/result/index.js';
import type { InspectionRow, MediaRow } from '../../ports/database.js';
import { captureParts, distanceToMedian, FAR_FROM_OTHERS_METRES } from './capture-parts.js';
import { buildResult } from './result-builder.js';

/** Metres per degree of latitude on the sphere the distances use. */
const METRES_PER_DEGREE = 111_195;

const at = (latitude: number, longitude: number) => ({ latitude, longitude, accuracy_m: 10 });
const captured = (
  location: CaptureMetadata['location'],
  source: CaptureMetadata['source'] = 'camera',
): CaptureMetadata => ({
  source,
  captured_at: '2026-11-23T10:05:12+01:00',
  orientation: 'portrait-primary',
  location,
});
const rows = (...metadata: (CaptureMetadata | null)[]) =>
  metadata.map((m, i) => ({ id: `m${i}`, capture_metadata: m === null ? null : JSON.stringify(m) }));

describe('capture parts', () => {
  it('measures each located item against the median of the others', () => {
    // Three photos within 20 m of each other, one 0.01° (about 1.1 km) north of them.
    const parts = captureParts(
      rows(
        captured(at(48.8566, 2.3522)),
        captured(at(48.85665, 2.35225)),
        captured(at(48.8565, 2.3521)),
        captured(at(48.8666, 2.3522)),
      ),
    );
    const distances = [...parts.values()].map((p) => p.distance_from_others_m!);
    expect(distances.slice(0, 3).every((d) => d < 20)).toBe(true);
    expect(distances[3]).toBeGreaterThan(FAR_FROM_OTHERS_METRES);
    expect(Math.abs(distances[3]! - 0.01 * METRES_PER_DEGREE)).toBeLessThan(15);
    expect(parts.get('m0')).toEqual({
      source: 'camera',
      captured_at: '2026-11-23T10:05:12+01:00',
      orientation: 'portrait-primary',
      location: at(48.8566, 2.3522),
      distance_from_others_m: expect.any(Number) as number,
    });
  });

  it('has no distance without a location, or with a single located item', () => {
    const parts = captureParts(rows(captured(at(10, 10)), captured(null, 'gallery'), null));
    expect(parts.get('m0')?.distance_from_others_m).toBeNull();
    expect(parts.get('m1')).toMatchObject({
      source: 'gallery',
      location: null,
      distance_from_others_m: null,
    });
    expect(parts.get('m2')).toEqual({
      source: null,
      captured_at: null,
      orientation: null,
      location: null,
      distance_from_others_m: null,
    });
  });

  it('takes the middle of two others, and stays close across the 180th meridian', () => {
    expect(distanceToMedian(at(0, 0), [at(0.01, 0), at(0.03, 0)])).toBeCloseTo(0.02 * METRES_PER_DEGREE, -1);
    expect(distanceToMedian(at(0, 179.9999), [at(0, -179.9999), at(0, -179.9997)])).toBeLessThan(50);
  });
});

describe('capture flags in the result', () => {
  const inspection = (source: InspectionRow['source']): InspectionRow => ({
    id: 'i1',
    client_id: 'c1',
    case_id: 'CASE',
    source,
    status: 'processing',
    callback_url: null,
    agent_id: null,
    agent_name: null,
    email_id: null,
    input_metadata: null,
    original_pair_ids: null,
    result: null,
    result_version: 0,
    digest: null,
    review_decision: null,
    reviewed_at: null,
    vehicle_id: null,
    compare_with: null,
    estimate_total_cents: null,
    created_at: 0,
    updated_at: 0,
  });
  const analysed = (row: { id: string; capture_metadata: string | null }, position: number) => ({
    row: {
      ...row,
      inspection_id: 'i1',
      client_id: 'c1',
      position,
      kind: 'image',
      pair_index: null,
      pair_member: null,
      original_id: `step${position}`,
      source_url: null,
      storage_key: `k${position}`,
      sha256: 'a'.repeat(64),
      bytes: 1,
      mime: 'image/jpeg',
      created_at: 0,
    } satisfies MediaRow,
    analysis: { kind: 'image' as const, width: 4000, height: 3000, parts: {}, runs: [], thumbnail: null },
    thumbnailKey: null,
  });
  const build = (source: InspectionRow['source'], media: ReturnType<typeof rows>) =>
    buildResult({
      inspection: inspection(source),
      media: media.map(analysed),
      reuse: new Map(),
      pairs: [],
      comparison: null,
      version: 1,
      analysedAt: 0,
    });

  it('flags picked_from_gallery and captured_far_from_others, and counts them in the summary', () => {
    const result = build(
      'link',
      rows(
        captured(at(48.8566, 2.3522)),
        captured(at(48.8567, 2.3522), 'gallery'),
        captured(at(48.8565, 2.3522)),
        captured(at(48.9566, 2.3522)),
      ),
    );
    expect([...Value.Errors(InspectionResult, result)].map((e) => `${e.path}: ${e.message}`)).toEqual([]);
    expect(result.media.map((m) => m.flags)).toEqual([
      [],
      ['picked_from_gallery'],
      [],
      ['captured_far_from_others'],
    ]);
    expect(result.summary.flags).toEqual(['captured_far_from_others', 'picked_from_gallery']);
    expect(result.summary.flag_counts).toEqual({ picked_from_gallery: 1, captured_far_from_others: 1 });
  });

  it('gives no capture part to the items of an API upload', () => {
    const result = build('file', rows(null, null));
    expect(result.media.every((m) => !('capture' in m))).toBe(true);
    expect(Value.Check(InspectionResult, result)).toBe(true);
  });
});

describe('comparison flags in the result', () => {
  const row = (id: string, position: number): MediaRow => ({
    id,
    inspection_id: 'i2',
    client_id: 'c1',
    position,
    kind: 'image',
    pair_index: null,
    pair_member: null,
    original_id: null,
    source_url: null,
    storage_key: `k${position}`,
    sha256: 'b'.repeat(64),
    bytes: 1,
    mime: 'image/jpeg',
    capture_metadata: null,
    created_at: 0,
  });
  const odometer = { read: 41_000, unit: 'km', expected: null, match: null, confidence: 0.9 };
  const text = (withOdometer: boolean) => ({
    plate: { read: null, expected: null, match: null, confidence: null },
    vin: { read: null, expected: null, match: null, confidence: null, check_digit_valid: null },
    ...(withOdometer && { odometer }),
    flags: [],
  });
  const build = (previousOdometer: number) =>
    buildResult({
      inspection: {
        id: 'i2',
        client_id: 'c1',
        case_id: 'CASE',
        source: 'file',
        status: 'processing',
        callback_url: null,
        agent_id: null,
        agent_name: null,
        email_id: null,
        input_metadata: null,
        original_pair_ids: null,
        result: null,
        result_version: 0,
        digest: null,
        review_decision: null,
        reviewed_at: null,
        vehicle_id: null,
        compare_with: 'i1',
        estimate_total_cents: null,
        created_at: 0,
        updated_at: 0,
      },
      media: ['m1', 'm2', 'm3'].map((id, i) => ({
        row: row(id, i),
        analysis: {
          kind: 'image' as const,
          width: 100,
          height: 100,
          parts: { text: text(id === 'm3') },
          runs: [],
          thumbnail: null,
        },
        thumbnailKey: null,
      })),
      reuse: new Map(),
      pairs: [],
      comparison: {
        changes: new Map([
          [
            'm1',
            {
              status: 'compared',
              previous_inspection_id: 'i1',
              previous_media_id: 'p1',
              regions: [{ box: { x: 0.2, y: 0.3, width: 0.1, height: 0.1 }, score: 0.6 }],
            },
          ],
          ['m2', { status: 'compared', previous_inspection_id: 'i1', previous_media_id: 'p2', regions: [] }],
        ]),
        errors: new Map(),
        summary: {
          previous_inspection_id: 'i1',
          basis: 'compare_with',
          pairs: 2,
          compared: 2,
          not_aligned: 0,
          no_counterpart: 1,
          regions: 1,
          odometer: { previous: previousOdometer, current: 41_000, unit: 'km' },
        },
      },
      version: 1,
      analysedAt: 0,
    });

  it('flags possible_new_damage where regions changed, and odometer_rollback where a lower reading was read', () => {
    const result = build(45_000);
    expect([...Value.Errors(InspectionResult, result)].map((e) => `${e.path}: ${e.message}`)).toEqual([]);
    expect(result.media.map((m) => m.flags)).toEqual([['possible_new_damage'], [], ['odometer_rollback']]);
    expect(result.comparison?.previous_inspection_id).toBe('i1');
    expect(result.media[0]?.analysis.changes?.regions).toHaveLength(1);
  });

  it('does not flag a higher reading', () => {
    expect(build(40_000).summary.flags).toEqual(['possible_new_damage']);
  });
});
