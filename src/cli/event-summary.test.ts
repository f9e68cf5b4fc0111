import { describe as group, expect, it } from 'vitest';
import { describe, summarise } from './event-summary.js';

group('what webhooks listen shows of an event', () => {
  it('inspection.completed: status, media count and flags', () => {
    const data = {
      inspection_id: 'ed3a',
      case_id: 'CLM-42',
      status: 'completed',
      version: 1,
      media: [{}, {}],
      summary: { media_count: 2, flags: ['low_resolution', 'no_vehicle'], damages: 0 },
    };
    const summary = summarise('inspection.completed', data);
    expect(summary).toEqual({
      inspection_id: 'ed3a',
      case_id: 'CLM-42',
      status: 'completed',
      version: 1,
      media_count: 2,
      flags: ['low_resolution', 'no_vehicle'],
    });
    expect(describe(summary)).toBe(
      'completed, version 1, 2 media, flags: low_resolution, no_vehicle, case CLM-42',
    );
    expect(describe(summarise('inspection.completed', { ...data, summary: { flags: [] } }))).toBe(
      'completed, version 1, 2 media, no flags, case CLM-42',
    );
  });

  it('inspection.received and inspection.failed', () => {
    const received = { inspection_id: 'a', case_id: 'c', status: 'queued', media_count: 1, kind: 'image' };
    expect(describe(summarise('inspection.received', received))).toBe('queued, 1 media (image), case c');
    const failed = { inspection_id: 'a', case_id: 'c', status: 'failed', error: 'no media decoded' };
    expect(describe(summarise('inspection.failed', failed))).toBe('failed, error: no media decoded, case c');
  });

  it('a result too large to inline, a link event, and data that is not an object', () => {
    const large = { inspection_id: 'a', too_large: true, result_url: 'https://x/api/inspections/a' };
    expect(describe(summarise('inspection.completed', large))).toBe(
      'too large to inline: fetch https://x/api/inspections/a',
    );
    expect(describe(summarise('link.opened', { link_id: 'l1', case_id: 'c', nested: { x: 1 } }))).toBe(
      'case c',
    );
    expect(summarise('link.opened', { link_id: 'l1', nested: { x: 1 } })).toEqual({ link_id: 'l1' });
    expect(describe(summarise('inspection.completed', null))).toBe('no flags');
  });
});
