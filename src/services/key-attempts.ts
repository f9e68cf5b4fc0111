// One limit on guessing API keys, on every surface that takes one (`/api/authenticate`, `/superappToken`,
// the `x-api-key` routes): failed keys are counted per client address; each key is counted before it is
// looked at, so a blocked address, or a burst of concurrent guesses past the limit, is answered 429
// untried, and a right guess after the limit gains nothing.
import { AppError, type ErrorCode } from '../domain/errors.js';
import type { AttemptLimiter } from '../ports/attempt-limiter.js';
import { limitedAttempt } from './limited-attempts.js';

/** `check` looks the key up (undefined: not a live key); `refused` is the surface's answer to a bad key. */
export async function checkKeyAttempt<T>(
  limiter: AttemptLimiter,
  address: string,
  check: () => Promise<T | undefined>,
  refused: ErrorCode,
): Promise<T> {
  return limitedAttempt(
    [[limiter, address]],
    (retryAfterSeconds) => new AppError('AUTH_RATE_LIMITED', { retryAfterSeconds }),
    async () => {
      const found = await check();
      if (found === undefined) throw new AppError(refused);
      return found;
    },
  );
}
