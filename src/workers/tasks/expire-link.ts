// Task `expire-link`: closes a link at the end of its validity and records `link.expired`.
import type { Deps } from '../../deps.js';
import type { JobPayloads } from '../../domain/jobs.js';
import type { TaskHandler } from '../../ports/job-queue.js';
import { expireLink } from '../../services/links/expire-link.js';

export function expireLinkTask(deps: Deps): TaskHandler<JobPayloads['expire-link']> {
  const linkDeps = { ...deps, publicBaseUrl: deps.config.publicBaseUrl };
  return ({ linkId }) => expireLink(linkDeps, linkId);
}
