// Re-analysis (issue: after a model is configured, for example): the inspection is queued again and its
// next result gets the next version number.
import { recordAudit, type AuditActor } from './audit.js';
import { type Db, inTransaction } from '../ports/database.js';
import type { JobQueue } from '../ports/job-queue.js';
import { AppError } from '../domain/errors.js';
import { jobKeys } from '../domain/jobs.js';

export async function requestReanalysis(
  deps: { db: Db; queue: JobQueue; now: () => number },
  inspectionId: string,
  by: AuditActor,
): Promise<{ previousVersion: number }> {
  return inTransaction(deps.db, async (trx) => {
    const inspection = await trx
      .selectFrom('inspections')
      .select(['id', 'result_version', 'client_id'])
      .where('id', '=', inspectionId)
      .executeTakeFirst();
    if (!inspection) throw new AppError('INSPECTION_NOT_FOUND', { params: { id: inspectionId } });
    await trx
      .updateTable('inspections')
      .set({ status: 'queued', updated_at: deps.now() })
      .where('id', '=', inspectionId)
      .execute();
    await deps.queue.enqueue(trx, {
      task: 'analyse-inspection',
      key: jobKeys.analyse(inspectionId),
      payload: { inspectionId },
      again: true,
    });
    await recordAudit(trx, deps.now(), {
      actor: by,
      action: 'inspection.reanalyse',
      object: { type: 'inspection', id: inspectionId },
      clientId: inspection.client_id,
      before: { version: inspection.result_version },
    });
    return { previousVersion: inspection.result_version };
  });
}
