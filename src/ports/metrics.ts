// What the service counts for its operator (docs/ops/metrics.md): each use case reports what happened in
// the process that did the work, through this port, and never learns how it is exported. Label values
// are closed sets (an error code of the catalogue, a task name, an analyzer name), never ids or URLs.
import type { AttemptOutcome } from '../domain/webhooks.js';
import type { AnalyzerRun } from './analysis-pool.js';
import type { Channel } from './notifier.js';

/** Where an inspection's media came from: the upload API, or a link's capture app (its submit). */
export type UploadSource = 'api' | 'link';

/** How an analysis job ended: a result stored, nothing to analyse, tried again later, failed for good. */
export type AnalysisOutcome = 'completed' | 'gone' | 'retry' | 'failed';

/** One delivery attempt of a webhook message, as `webhook_attempts.outcome` records it. */
export type WebhookOutcome = AttemptOutcome;

/** One send attempt of an outbox message; `dropped`: its link closed before it could be sent. */
export type OutboxOutcome = 'sent' | 'retry' | 'failed' | 'dropped';

export type LinkEvent = 'created' | 'opened' | 'submitted' | 'expired';

export interface Metrics {
  /** A request that would create an inspection was answered 2xx. */
  uploadAccepted(source: UploadSource): void;
  /** … or refused, with the catalogue code of its answer (`reason`). */
  uploadRefused(source: UploadSource, reason: string): void;
  /** Bytes of the media of an accepted inspection. */
  mediaIngested(source: UploadSource, bytes: number): void;
  /** An analysis job ended; `seconds` is the whole job's run. */
  analysisFinished(outcome: AnalysisOutcome, seconds: number): void;
  /** One analyzer's run on one image (or keyframe), as the analysis thread timed it. */
  analyzerRan(analyzer: string, status: AnalyzerRun['status'], seconds: number): void;
  /** One delivery attempt of a webhook message (1 for the first). */
  webhookAttempted(outcome: WebhookOutcome, attempt: number): void;
  /** A message delivered for the first time, `seconds` after its event was recorded. */
  webhookDelivered(eventType: string, seconds: number): void;
  /** One send attempt of a link message. */
  outboxAttempted(channel: Channel, outcome: OutboxOutcome): void;
  linkEvent(event: LinkEvent): void;
}

/** Outbox messages not yet finished, by channel and status: held (no provider) or pending. */
export interface OutboxBacklog {
  channel: Channel;
  status: 'held' | 'pending';
  messages: number;
}

/** The metrics of this process in Prometheus's text format, for GET /metrics. */
export interface MetricsExposition {
  contentType: string;
  text(): Promise<string>;
}
