// A database reading behind gauges that are read when Prometheus scrapes: its cost is bounded whatever
// scrapes (several Prometheus servers, a dashboard refreshing, a slow database): at most one query in
// flight, at most one started every `everyMs`, and no scrape waits longer than `timeoutMs` for it.

/** The latest value read; undefined until a first reading has succeeded. */
export type Reading<T> = () => Promise<T | undefined>;

export interface ReadingOptions {
  everyMs: number;
  timeoutMs: number;
  now: () => number;
  /** A failed reading; the last value stays. */
  onError: (error: unknown) => void;
}

export function scrapeReading<T>(read: () => Promise<T>, opts: ReadingOptions): Reading<T> {
  let value: T | undefined;
  let startedAt = -Infinity;
  let inFlight: Promise<void> | undefined;

  return async () => {
    if (!inFlight && opts.now() - startedAt >= opts.everyMs) {
      startedAt = opts.now();
      inFlight = read()
        .then(
          (fresh) => void (value = fresh),
          (error: unknown) => opts.onError(error),
        )
        .finally(() => (inFlight = undefined));
    }
    if (inFlight) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, opts.timeoutMs)));
      await Promise.race([inFlight, timeout]);
      clearTimeout(timer);
    }
    return value;
  };
}
