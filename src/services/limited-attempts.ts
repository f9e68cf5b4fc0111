// One way to judge something that may be guessed (a password, an API key, a link token) under attempt
// limits: the attempt is counted under every limit before it is judged, so a burst of concurrent guesses
// never gets more than the limit judged (a right one among them is refused untried like the rest), and
// an attempt that turns out right is forgiven.
import { AppError } from '../domain/errors.js';
import type { AttemptLimiter } from '../ports/attempt-limiter.js';

/**
 * Judges one attempt counted under each `[limiter, key]`. `judge` resolves with what was right (the
 * attempt is forgiven), or rejects with an AppError for a wrong guess (it stays counted); any other
 * failure was no judgement, and is forgiven too. Past any limit, `refused(seconds)` is thrown untried.
 */
export async function limitedAttempt<T>(
  limits: readonly (readonly [AttemptLimiter, string])[],
  refused: (retryAfterSeconds: number) => AppError,
  judge: () => Promise<T>,
): Promise<T> {
  const counted: (readonly [AttemptLimiter, string])[] = [];
  const forgive = () => Promise.all(counted.map(([limiter, key]) => limiter.forgive(key)));
  for (const limit of limits) {
    const wait = await limit[0].attempt(limit[1]);
    if (wait > 0) {
      // Untried: the limits that let it through do not count it.
      await forgive();
      throw refused(wait);
    }
    counted.push(limit);
  }
  let right: T;
  try {
    right = await judge();
  } catch (error) {
    if (!(error instanceof AppError)) await forgive();
    throw error;
  }
  await forgive();
  return right;
}
