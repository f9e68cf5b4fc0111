// Capped exponential backoff of failed jobs: 5 s, 10 s, 20 s … up to 10 minutes between attempts.
const BASE_MS = 5_000;
const CAP_MS = 10 * 60_000;

/** Delay before the next attempt, after `attempts` attempts have failed (1 or more). */
export function retryDelayMs(attempts: number): number {
  return Math.min(CAP_MS, BASE_MS * 2 ** Math.max(0, attempts - 1));
}
