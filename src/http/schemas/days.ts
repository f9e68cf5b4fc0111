// Date filters of the portal's lists: whole days in UTC, `from` and `to` both included.
const DAY_MS = 24 * 3600 * 1000;

/** The first millisecond of a `YYYY-MM-DD` day, in UTC. */
export const dayStart = (day: string): number => Date.parse(`${day}T00:00:00Z`);

/** The time range of `from`…`to` (inclusive days): `until` is the first millisecond after `to`. */
export function dayRange(q: { from?: string | undefined; to?: string | undefined }): {
  since: number | undefined;
  until: number | undefined;
} {
  return {
    since: q.from === undefined ? undefined : dayStart(q.from),
    until: q.to === undefined ? undefined : dayStart(q.to) + DAY_MS,
  };
}
