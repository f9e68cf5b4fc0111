import { describe, expect, it } from 'vitest';
import { nestsDeeperThan } from './limits.js';

describe('nestsDeeperThan', () => {
  const nested = (depth: number): unknown => (depth === 0 ? 1 : { a: nested(depth - 1) });

  it('counts each object or array as one level', () => {
    expect(nestsDeeperThan(1, 0)).toBe(false);
    expect(nestsDeeperThan({}, 0)).toBe(true);
    expect(nestsDeeperThan({ a: [1, { b: 2 }] }, 3)).toBe(false);
    expect(nestsDeeperThan({ a: [1, { b: {} }] }, 3)).toBe(true);
    expect(nestsDeeperThan(nested(32), 32)).toBe(false);
    expect(nestsDeeperThan(nested(33), 32)).toBe(true);
  });

  it('walks a value far deeper than the call stack allows without overflowing', () => {
    const deep = JSON.parse('['.repeat(200_000) + ']'.repeat(200_000)) as unknown;
    expect(nestsDeeperThan(deep, 32)).toBe(true);
  });
});
