import { describe, expect, it } from 'vitest';
import { matchOdometer, odometerMatches, type ReadLine } from './odometer.js';

const line = (text: string, height = 0.05, confidence = 0.9): ReadLine => ({
  text,
  confidence,
  box: { x: 0.4, y: 0.5, width: 0.2, height },
});

describe('odometer', () => {
  it.each([
    ['123456', 123456, null],
    ['123 456 km', 123456, 'km'],
    ['123,456 mi', 123456, 'mi'],
    ['ODO 45218', 45218, null],
    ['0 4 5 2 1 8', 45218, null],
    ['O45Z18 km', 45218, 'km'],
  ] as const)('reads %s', (text, value, unit) => {
    expect(matchOdometer([line(text)])).toMatchObject({ value, unit });
  });

  it('leaves out the trip meter, clocks, speeds and temperatures', () => {
    const lines = [
      line('TRIP A 123.4', 0.04),
      line('12:45'),
      line('21°C'),
      line('88 km/h'),
      line('98765 km', 0.05),
    ];
    expect(matchOdometer(lines)).toMatchObject({ value: 98765, unit: 'km' });
    expect(matchOdometer([line('TRIP A 123.4'), line('A 1234'), line('345.6')])).toBeUndefined();
  });

  it('prefers the main figure with a unit over a smaller number beside it', () => {
    expect(matchOdometer([line('1234', 0.02), line('76543 km', 0.06)])).toMatchObject({ value: 76543 });
  });

  it('finds nothing in words or short numbers', () => {
    expect(matchOdometer([line('PARKING PROHIBITED'), line('12'), line('ABCDEF')])).toBeUndefined();
  });

  it('matches the expected value within 500, or 2 %', () => {
    expect(odometerMatches(45218, 45000)).toBe(true);
    expect(odometerMatches(45218, 44000)).toBe(false);
    expect(odometerMatches(102000, 100000)).toBe(true);
    expect(odometerMatches(103000, 100000)).toBe(false);
  });
});
