import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_SCHEDULE_SECONDS, listenerPortOf, outcomeOf } from './webhooks.js';

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

describe('local listener URLs (ADR 12)', () => {
  it.each([
    ['http://localhost:9000/hook', 9000],
    ['http://LOCALHOST:9000/', 9000],
    ['http://127.0.0.1:4000/x?y=1', 4000],
    ['http://[::1]:4000/', 4000],
    ['http://2130706433:4000/', 4000], // WHATWG URL spells it 127.0.0.1
    ['http://localhost/', 80],
  ])('%s may reach a listener on port %i', (url, port) => expect(listenerPortOf(url)).toBe(port));

  it.each([
    'https://localhost:9000/', // the listener speaks plain http
    'http://user:pw@localhost:9000/',
    'http://127.0.0.2:9000/', // loopback, but not where the listener binds
    'http://localhost.:9000/',
    'http://loopback.example.com:9000/', // a name a resolver decides about
    'http://10.0.0.1:9000/',
    'not a url',
  ])('%s may not', (url) => expect(listenerPortOf(url)).toBeUndefined());
});
