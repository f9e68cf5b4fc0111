import { describe, expect, it } from 'vitest';
import { dayRange } from './days.js';

describe('dayRange', () => {
  it('takes both days whole, in UTC', () => {
    expect(dayRange({ from: '2026-03-01', to: '2026-03-01' })).toEqual({
      since: Date.UTC(2026, 2, 1),
      until: Date.UTC(2026, 2, 2),
    });
  });

  it('leaves an open end open', () => {
    expect(dayRange({ to: '2026-12-31' })).toEqual({ since: undefined, until: Date.UTC(2027, 0, 1) });
    expect(dayRange({})).toEqual({ since: undefined, until: undefined });
  });
});
