import { describe, expect, it } from 'vitest';
import {
  isTimeZone,
  isWithinWindow,
  parseServiceWindow,
  secondsUntilOpen,
  ServiceWindowError,
} from './service-window.js';

describe('service window', () => {
  it('"always" and empty are always open', () => {
    expect(parseServiceWindow('always')).toBeNull();
    expect(isWithinWindow(parseServiceWindow(''), new Date(), 'UTC')).toBe(true);
  });

  it('reads weekday hours in the client time zone', () => {
    const rules = parseServiceWindow('mon-fri 08:00-18:00');
    // Monday 2026-11-23 07:30 UTC is 08:30 in Paris (UTC+1 in November).
    const mondayMorning = new Date('2026-11-23T07:30:00Z');
    expect(isWithinWindow(rules, mondayMorning, 'UTC')).toBe(false);
    expect(isWithinWindow(rules, mondayMorning, 'Europe/Paris')).toBe(true);
    const saturday = new Date('2026-11-28T12:00:00Z');
    expect(isWithinWindow(rules, saturday, 'Europe/Paris')).toBe(false);
  });

  it('handles several rules, wrapped day ranges and windows past midnight', () => {
    const rules = parseServiceWindow('sat-sun 22:00-06:00, wed 12:00-13:00');
    expect(rules?.[0]?.days).toEqual([6, 0]);
    expect(isWithinWindow(rules, new Date('2026-11-28T23:00:00Z'), 'UTC')).toBe(true); // Sat 23:00
    expect(isWithinWindow(rules, new Date('2026-11-30T05:00:00Z'), 'UTC')).toBe(true); // Mon 05:00 after Sun
    expect(isWithinWindow(rules, new Date('2026-11-24T05:00:00Z'), 'UTC')).toBe(false); // Tue 05:00
    expect(isWithinWindow(rules, new Date('2026-11-25T12:30:00Z'), 'UTC')).toBe(true); // Wed 12:30
  });

  it.each(['mon 8-18', 'funday 08:00-10:00', 'mon 25:00-26:00', 'mon 08:00-08:00'])('rejects %j', (text) =>
    expect(() => parseServiceWindow(text)).toThrow(ServiceWindowError),
  );

  it('knows IANA time zones', () => {
    expect(isTimeZone('Europe/Paris')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });
});

describe('secondsUntilOpen', () => {
  const rules = parseServiceWindow('mon-fri 08:00-18:00');
  it('is 0 inside the window', () => {
    expect(secondsUntilOpen(rules, new Date('2026-11-23T09:00:00Z'), 'UTC')).toBe(0);
  });
  it('counts to the next opening, over the weekend', () => {
    // Saturday 10:00 UTC → Monday 08:00 UTC is 46 hours.
    expect(secondsUntilOpen(rules, new Date('2026-11-21T10:00:00Z'), 'UTC')).toBe(46 * 3600);
  });
  it('reads the window in the client time zone', () => {
    // 07:30 UTC is 08:30 in Paris (winter): open.
    expect(secondsUntilOpen(rules, new Date('2026-11-23T07:30:00Z'), 'Europe/Paris')).toBe(0);
  });
});
