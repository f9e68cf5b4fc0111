/** Counts failures per key (for example, failed logins per address) over a fixed window. */
export interface AttemptLimiter {
  /** Seconds until the key may try again, or 0 when it is not blocked. */
  blockedFor(key: string): Promise<number>;
  /**
   * Counts a failure, atomically in every store: 0 when it was within the limit, else the seconds until
   * the key may try again (this failure was one too many, and is answered as blocked).
   */
  recordFailure(key: string): Promise<number>;
}

/** Lets an action happen a number of times per key over a fixed window (for example re-sends per client). */
export interface ActionLimiter {
  /** Counts one action of `key`: 0 when it may go ahead, else the seconds until it may. */
  take(key: string): Promise<number>;
}
