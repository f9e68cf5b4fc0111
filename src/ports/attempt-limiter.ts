/**
 * Limits failed attempts per key (failed sign-ins per account and per address, guessed API keys per
 * address) over a fixed window. An attempt is counted before it is judged, in one atomic step in every
 * store, so concurrent attempts never get more than the limit judged; a right one is then forgiven.
 */
export interface AttemptLimiter {
  /** Seconds until the key may try again, or 0 when it is not blocked. Counts nothing. */
  blockedFor(key: string): Promise<number>;
  /**
   * Counts an attempt about to be judged: 0 when it may be (it counts as a failure unless forgiven),
   * else the seconds until the key may try again (the attempt is refused untried).
   */
  attempt(key: string): Promise<number>;
  /** Takes back an attempt that was right, or was never judged. */
  forgive(key: string): Promise<void>;
  /** Forgets every attempt of the key: an operator lifting a lock. */
  reset(key: string): Promise<void>;
}

/** Lets an action happen a number of times per key over a fixed window (for example re-sends per client). */
export interface ActionLimiter {
  /** Counts one action of `key`: 0 when it may go ahead, else the seconds until it may. */
  take(key: string): Promise<number>;
}
