// Storing a version of an inspection's result: the version itself (every version stays readable), the
// latest in `inspections.result`, and what the portal lists and searches by (docs/portal.md#search), all
// in the caller's transaction so that they never disagree.
import { digestOf, searchFactsOf } from '../../domain/result/digest.js';
import type { Db, InspectionResultsTable } from '../../ports/database.js';

export interface ResultVersion {
  inspection: { id: string; client_id: string; created_at: number };
  /** The result; its `version` is the version stored. */
  result: { version: number; estimate?: { total: number } };
  origin: InspectionResultsTable['origin'];
  authorId: string | null;
  now: number;
}

/** The estimate's total in hundredths of its currency (for sorting and filtering), or null. */
function totalCentsOf(result: { estimate?: { total: number } }): number | null {
  return result.estimate ? Math.round(result.estimate.total * 100) : null;
}

export async function storeResultVersion(trx: Db, input: ResultVersion): Promise<void> {
  const { inspection, result, now } = input;
  const json = JSON.stringify(result);
  await trx
    .insertInto('inspection_results')
    .values({
      inspection_id: inspection.id,
      version: result.version,
      result: json,
      origin: input.origin,
      author_id: input.authorId,
      created_at: now,
    })
    .execute();
  await trx
    .updateTable('inspections')
    .set({
      result: json,
      result_version: result.version,
      digest: JSON.stringify(digestOf(result)),
      estimate_total_cents: totalCentsOf(result),
      updated_at: now,
    })
    .where('id', '=', inspection.id)
    .execute();
  await trx.deleteFrom('inspection_facts').where('inspection_id', '=', inspection.id).execute();
  const facts = searchFactsOf(result).map((fact) => ({
    ...fact,
    inspection_id: inspection.id,
    client_id: inspection.client_id,
    created_at: inspection.created_at,
  }));
  if (facts.length > 0) await trx.insertInto('inspection_facts').values(facts).execute();
}
