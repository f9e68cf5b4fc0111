// What `walkaround webhooks listen` shows of an event: the few fields a developer looks for first (for
// inspection.completed: status, media count, flags), not the whole result, which the delivery log and
// GET /api/inspections/{session} have.

export type Summary = Record<string, string | number | boolean | string[] | null>;

type Data = Record<string, unknown>;

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const count = (v: unknown): number | null => (typeof v === 'number' ? v : null);
const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

/** The summary of an event's `data`, by its type. */
export function summarise(type: string, data: unknown): Summary {
  const d = (typeof data === 'object' && data !== null ? data : {}) as Data;
  if (d.too_large === true)
    return { inspection_id: text(d.inspection_id), too_large: true, result_url: text(d.result_url) };
  const inspection = { inspection_id: text(d.inspection_id), case_id: text(d.case_id) };
  switch (type) {
    case 'inspection.completed':
    case 'inspection.reviewed': {
      const summary = (typeof d.summary === 'object' && d.summary !== null ? d.summary : {}) as Data;
      return {
        ...inspection,
        status: text(d.status),
        version: count(d.version),
        media_count: count(summary.media_count) ?? (Array.isArray(d.media) ? d.media.length : null),
        flags: strings(summary.flags),
      };
    }
    case 'inspection.received':
      return { ...inspection, status: text(d.status), media_count: count(d.media_count), kind: text(d.kind) };
    case 'inspection.failed':
      return { ...inspection, status: text(d.status), error: text(d.error) };
    default:
      // Link events and any later type: their plain fields.
      return Object.fromEntries(
        Object.entries(d).filter(([, v]) => ['string', 'number', 'boolean'].includes(typeof v)),
      ) as Summary;
  }
}

/** One line for a person: `completed, 2 media, flags: low_resolution, no_vehicle (case my-case-1)`. */
export function describe(summary: Summary): string {
  if (summary.too_large === true) return `too large to inline: fetch ${String(summary.result_url)}`;
  const parts: string[] = [];
  if (typeof summary.status === 'string') parts.push(summary.status);
  if (typeof summary.version === 'number') parts.push(`version ${summary.version}`);
  if (typeof summary.media_count === 'number')
    parts.push(`${summary.media_count} media` + (summary.kind ? ` (${String(summary.kind)})` : ''));
  if (Array.isArray(summary.flags))
    parts.push(summary.flags.length === 0 ? 'no flags' : `flags: ${summary.flags.join(', ')}`);
  if (typeof summary.error === 'string') parts.push(`error: ${summary.error}`);
  if (typeof summary.case_id === 'string') parts.push(`case ${summary.case_id}`);
  if (parts.length > 0) return parts.join(', ');
  return Object.entries(summary)
    .map(([k, v]) => `${k} ${String(v)}`)
    .join(', ');
}
