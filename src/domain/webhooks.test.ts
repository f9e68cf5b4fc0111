import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_SCHEDULE_SECONDS, outcomeOf } from './webhooks.js';

describe('webhook attempt outcomes', () => {
  const schedule = DEFAULT_RETRY_SCHEDULE_SECONDS;
  it('delivers on any 2xx', () => {
    expect([200, 201, 204, 299].map((s) => outcomeOf(s, 1, schedule))).toEqual(Array(4).fill('delivered'));
  });
  it('stops at 410 Gone', () => expect(outcomeOf(410, 1, schedule)).toBe('gone'));
  it('retries errors, timeouts and refusals while the schedule lasts, then gives up', () => {
    expect(outcomeOf(500, 1, schedule)).toBe('retry');
    expect(outcomeOf(null, 7, schedule)).toBe('retry');
    expect(outcomeOf(null, 8, schedule)).toBe('exhausted');
  });
  it('follows the documented schedule (docs/webhooks.md): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h', () => {
    expect(schedule).toEqual([5, 300, 1800, 7200, 18000, 36000, 36000]);
  });
});
