// Re-analysis (issue: after a model is configured, for example): the inspection is queued again and its
// next result gets the next version number.
import { type Db, inTransaction } from '../ports/database.js';
import type { JobQueue } from '../ports/job-queue.js';
import { AppError } from '../domain/errors.js';
import { jobKeys } from '../domain/jobs.js';

export async function requestReanalysis(
  deps: { db: Db; queue: JobQueue; now: () => number },
  inspectionId: string,
): Promise<{ previousVersion: number }> {
  return inTransaction(deps.db, async (trx) => {
    const inspection = await trx
      .selectFrom('inspections')
      .select(['id', 'result_version'])
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
    return { previousVersion: inspection.result_version };
  });
}
