// Task `send-message`: one attempt to send a link message (SMS or e-mail); the next one is scheduled by
// the service on MESSAGE_RETRY_SCHEDULE.
import type { Deps } from '../../deps.js';
import type { JobPayloads } from '../../domain/jobs.js';
import type { TaskHandler } from '../../ports/job-queue.js';
import { sendMessage } from '../../services/outbox/send-message.js';

export function sendMessageTask(deps: Deps): TaskHandler<JobPayloads['send-message']> {
  const sendDeps = { ...deps, retrySchedule: deps.config.messages.retrySchedule };
  return (payload, job) => sendMessage(sendDeps, payload, job);
}
