import { describe, expect, it } from 'vitest';
import { scrapeReading } from './scrape-reading.js';

describe('scrape reading', () => {
  const clock = () => {
    let at = 0;
    return { now: () => at, advance: (ms: number) => void (at += ms) };
  };

  it('reads at most once per interval; scrapes in between answer the last reading', async () => {
    const time = clock();
    let reads = 0;
    const get = scrapeReading(async () => ++reads, {
      everyMs: 10_000,
      timeoutMs: 1000,
      now: time.now,
      onError: () => undefined,
    });
    expect(await get()).toBe(1);
    time.advance(9_999);
    expect(await get()).toBe(1);
    time.advance(1);
    expect(await get()).toBe(2);
  });

  it('keeps one reading in flight, waits for it at most the timeout, and keeps the last value on failure', async () => {
    const time = clock();
    const errors: unknown[] = [];
    let finish!: (value: number) => void;
    let calls = 0;
    const get = scrapeReading(
      () => {
        calls++;
        if (calls === 3) return Promise.reject(new Error('database gone'));
        return new Promise<number>((resolve) => (finish = resolve));
      },
      { everyMs: 0, timeoutMs: 20, now: time.now, onError: (e) => errors.push(e) },
    );
    expect(await get()).toBeUndefined(); // the first reading is slower than the timeout
    expect(await get()).toBeUndefined(); // … and still in flight: no second query
    expect(calls).toBe(1);
    finish(7);
    await new Promise((r) => setTimeout(r, 0));
    expect(await get()).toBe(7); // a new reading started (calls 2) and is slow: the last value answers
    finish(8);
    await new Promise((r) => setTimeout(r, 0));
    expect(await get()).toBe(8); // the third reading fails
    expect(calls).toBe(3);
    expect(errors).toHaveLength(1);
  });
});
