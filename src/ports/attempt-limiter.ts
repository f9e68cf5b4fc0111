/** Counts failures per key (for example, failed logins per address) over a fixed window. */
export interface AttemptLimiter {
  /** Seconds until the key may try again, or 0 when it is not blocked. */
  blockedFor(key: string): Promise<number>;
  recordFailure(key: string): Promise<void>;
}
