// Estimate lines as CSV (docs/estimate.md#export), for a claims system to take: one row per line, with
// the inspection it belongs to. The portal exports one inspection; the CLI a date range.
import { stringify } from 'csv-stringify/sync';
import type { EstimatePart } from '../../domain/result/estimate-part.js';
import { AppError } from '../../domain/errors.js';
import type { Db } from '../../ports/database.js';
import { visibleInspection } from '../portal/access.js';
import type { PortalCaller } from '../portal/sessions.js';

export const CSV_COLUMNS = [
  'inspection_id',
  'case_id',
  'currency',
  'rate_card_version',
  'part',
  'part_source',
  'operation',
  'labour_hours',
  'labour_cost',
  'paint_hours',
  'paint_cost',
  'parts_cost',
  'total',
  'source',
  'damage_ids',
] as const;

export interface EstimatedInspection {
  id: string;
  case_id: string;
  estimate: EstimatePart;
}

/** The rows of the inspections' estimate lines, after a header row. */
export function estimateCsv(inspections: EstimatedInspection[], header = true): string {
  const rows = inspections.flatMap(({ id, case_id, estimate }) =>
    estimate.lines.map((line) => [
      id,
      case_id,
      estimate.currency,
      estimate.rate_card_version,
      line.part ?? '',
      line.part_source ?? '',
      line.operation,
      line.labour_hours,
      line.labour_cost,
      line.paint_hours,
      line.paint_cost,
      line.parts_cost,
      line.total,
      line.source,
      line.damage_ids.join(' '),
    ]),
  );
  return stringify(header ? [[...CSV_COLUMNS], ...rows] : rows);
}

/**
 * The estimates of a client's (or every client's) completed inspections created in [from, to), oldest
 * first, read in pages so that a long range is never held whole.
 */
export async function* estimatesBetween(
  db: Db,
  range: { clientId?: string | undefined; from: number; to: number },
): AsyncGenerator<EstimatedInspection> {
  const PAGE = 200;
  let after = { at: range.from - 1, id: '' };
  for (;;) {
    let query = db
      .selectFrom('inspections')
      .select(['id', 'case_id', 'created_at', 'result'])
      .where('status', '=', 'completed')
      .where('created_at', '<', range.to)
      .where((eb) =>
        eb.or([
          eb('created_at', '>', after.at),
          eb.and([eb('created_at', '=', after.at), eb('id', '>', after.id)]),
        ]),
      )
      .orderBy('created_at')
      .orderBy('id')
      .limit(PAGE);
    if (range.clientId) query = query.where('client_id', '=', range.clientId);
    const rows = await query.execute();
    for (const row of rows) {
      const estimate = row.result
        ? (JSON.parse(row.result) as { estimate?: EstimatePart }).estimate
        : undefined;
      if (estimate) yield { id: row.id, case_id: row.case_id, estimate };
    }
    if (rows.length < PAGE) return;
    const last = rows.at(-1)!;
    after = { at: Number(last.created_at), id: last.id };
  }
}

/** One inspection's estimate as CSV, for a portal user who may see it; PORTAL_NOT_ANALYSED before one. */
export async function inspectionEstimateCsv(db: Db, caller: PortalCaller, id: string): Promise<string> {
  const inspection = await visibleInspection(db, caller, id);
  const estimate = inspection.result
    ? (JSON.parse(inspection.result) as { estimate?: EstimatePart }).estimate
    : undefined;
  if (!estimate || inspection.status !== 'completed') throw new AppError('PORTAL_NOT_ANALYSED');
  return estimateCsv([{ id: inspection.id, case_id: inspection.case_id, estimate }]);
}
