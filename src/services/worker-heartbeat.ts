// Worker heartbeats: every worker process (and the in-process worker of `serve --role all`) records that
// it is alive; the upload API is "available" only while some worker is (otherwise uploads answer
// 503; see docs/api.md#quotas-and-service-windows).
import os from 'node:os';
import type { Db } from '../ports/database.js';

/** Beats at least this often; more often when a short job lease asks for quicker death notices. */
const BEAT_EVERY_MS = 10_000;
/** A worker silent for longer than this is taken for dead. */
const STALE_AFTER_MS = 60_000;
/** How long one answer of `isAnalysisAvailable` is reused. */
const CACHE_MS = 2_000;

interface Deps {
  db: Db;
  now: () => number;
  logger: { warn(obj: object, msg: string): void };
}

/** Starts beating for worker `id`; the returned function stops it and removes the worker's row. */
export async function startHeartbeat(
  deps: Deps,
  id: string,
  opts: { deadAfterMs?: number } = {},
): Promise<() => Promise<void>> {
  const everyMs = Math.min(BEAT_EVERY_MS, Math.floor((opts.deadAfterMs ?? Infinity) / 3));
  const now = deps.now();
  await deps.db
    .insertInto('workers')
    .values({ id, host: os.hostname(), started_at: now, heartbeat_at: now })
    .execute();
  const timer = setInterval(() => {
    deps.db
      .updateTable('workers')
      .set({ heartbeat_at: deps.now() })
      .where('id', '=', id)
      .execute()
      .catch((err: unknown) => deps.logger.warn({ err }, 'worker heartbeat failed'));
  }, everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await deps.db.deleteFrom('workers').where('id', '=', id).execute();
  };
}

/** Whether some worker beat recently; answers are cached briefly (this runs on every upload). */
export function analysisAvailability(deps: Omit<Deps, 'logger'>): () => Promise<boolean> {
  let cached: { at: number; value: Promise<boolean> } | undefined;
  return () => {
    const now = deps.now();
    if (!cached || now - cached.at > CACHE_MS) {
      const value = deps.db
        .selectFrom('workers')
        .select('id')
        .where('heartbeat_at', '>', now - STALE_AFTER_MS)
        .limit(1)
        .executeTakeFirst()
        .then((row) => row !== undefined);
      cached = { at: now, value };
      value.catch(() => (cached = undefined));
    }
    return cached.value;
  };
}
