// Task `deliver-webhook`: one attempt to deliver a webhook message; the next one is scheduled by the
// service on WEBHOOK_RETRY_SCHEDULE.
import type { Deps } from '../../deps.js';
import type { JobPayloads } from '../../domain/jobs.js';
import type { TaskHandler } from '../../ports/job-queue.js';
import { deliverMessage } from '../../services/webhooks/deliver.js';

export function deliverWebhookTask(deps: Deps): TaskHandler<JobPayloads['deliver-webhook']> {
  const deliverDeps = { ...deps, retrySchedule: deps.config.webhookRetrySchedule };
  return (payload) => deliverMessage(deliverDeps, payload);
}
