// Every background task in one place: its name, its payload, and the idempotency key of its jobs.
// Services enqueue jobs in the transaction of the state they follow; workers/tasks/ runs them. Keys
// make a job unique: enqueueing a key that exists does nothing, so a retried request never doubles it.

// A type, not an interface: the queue's task-map constraint needs its implicit index signature.
export type JobPayloads = {
  /** Analyse an inspection's media and store the result (a new version on re-analysis). */
  'analyse-inspection': { inspectionId: string };
  /** Deliver one webhook message; `manual` is a re-send by hand (one attempt, no retries after it). */
  'deliver-webhook': { messageId: string; manual?: boolean };
  /** Send one link message (SMS or e-mail); `attempt` counts from 1 (jobs without it are the first). */
  'send-message': { messageId: string; attempt?: number };
  /** Close a link at the end of its validity and record `link.expired`. */
  'expire-link': { linkId: string };
};

export type TaskName = keyof JobPayloads;

/**
 * Which runner of a worker claims each task. Analysis takes seconds of CPU per inspection; the others
 * are short network calls or row updates that an integrator waits on (the webhook after the result),
 * so they run on a lane of their own and never queue behind image work.
 */
export const TASK_LANES = {
  'analyse-inspection': 'analysis',
  'deliver-webhook': 'messages',
  'send-message': 'messages',
  'expire-link': 'messages',
} as const satisfies Record<TaskName, 'analysis' | 'messages'>;

export type Lane = (typeof TASK_LANES)[TaskName];

export const jobKeys = {
  analyse: (inspectionId: string) => `analyse-inspection:${inspectionId}`,
  deliver: (messageId: string, attempt: number) => `deliver-webhook:${messageId}:${attempt}`,
  /**
   * A re-send by hand, keyed by the attempts the message had when it was asked for: asking again before
   * that re-send has run finds the same key and adds nothing (one pending re-send at most).
   */
  resend: (messageId: string, attemptsSoFar: number) =>
    `deliver-webhook:${messageId}:manual:${attemptsSoFar}`,
  sendMessage: (messageId: string, attempt: number) => `send-message:${messageId}:${attempt}`,
  expireLink: (linkId: string) => `expire-link:${linkId}`,
} as const;
