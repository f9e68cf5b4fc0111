// One limit on guessing API keys, on every surface that takes one (`/api/authenticate`, `/superappToken`,
// the `x-api-key` routes): failed keys are counted per client address; a blocked address is answered 429
// before its key is even looked at, so a right guess after the limit gains nothing; and the failure
// that goes over the limit is itself answered 429, so concurrent guesses cannot overshoot it.
import { AppError, type ErrorCode } from '../domain/errors.js';
import type { AttemptLimiter } from '../ports/attempt-limiter.js';

/** `check` looks the key up (undefined: not a live key); `refused` is the surface's answer to a bad key. */
export async function checkKeyAttempt<T>(
  limiter: AttemptLimiter,
  address: string,
  check: () => Promise<T | undefined>,
  refused: ErrorCode,
): Promise<T> {
  const blockedFor = await limiter.blockedFor(address);
  if (blockedFor > 0) throw new AppError('AUTH_RATE_LIMITED', { retryAfterSeconds: blockedFor });
  const found = await check();
  if (found !== undefined) return found;
  const wait = await limiter.recordFailure(address);
  throw wait > 0 ? new AppError('AUTH_RATE_LIMITED', { retryAfterSeconds: wait }) : new AppError(refused);
}
