import { describe, expect, it } from 'vitest';
import { parseDuration } from './duration.js';

describe('parseDuration', () => {
  it.each([
    ['3600', 3600],
    ['90s', 90],
    ['30m', 1800],
    ['1h', 3600],
    ['2d', 172800],
    ['500ms', 0.5],
  ])('%s is %d seconds', (text, seconds) => expect(parseDuration(text)).toBe(seconds));

  it.each(['', 'h', '1w', '-1h', '1.5h'])('%j is not a duration', (text) =>
    expect(parseDuration(text)).toBeNaN(),
  );
});
