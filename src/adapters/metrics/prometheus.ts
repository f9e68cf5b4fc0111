// The Metrics port on prom-client (docs/ops/metrics.md): one registry per process, holding Node's process
// metrics, what the use cases count, and gauges read from the database when Prometheus scrapes. Route
// durations stay with fastify-metrics (global registry); GET /metrics serves both.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { TASK_LANES } from '../../domain/jobs.js';
import type { QueueTaskStats } from '../../ports/job-queue.js';
import type { Metrics, MetricsExposition, OutboxBacklog } from '../../ports/metrics.js';
import { scrapeReading, type Reading } from './scrape-reading.js';

/**
 * prom-client's gauges that `promtool check metrics` warns about ("non-counter metrics should not have
 * _total suffix"); the per-type gauges beside them (`nodejs_active_handles{type}`, …) stay, and sum() of
 * them is the same total.
 */
const MISNAMED_DEFAULTS = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
];

/** Attempt numbers above this share one label value, so a long retry schedule adds no series. */
const MAX_ATTEMPT_LABEL = 10;

const SOURCES = ['api', 'link'] as const;
const CHANNELS = ['email', 'sms'] as const;
const TASKS = Object.keys(TASK_LANES);
const QUEUE_STATES = ['ready', 'scheduled', 'running'] as const;

export interface PrometheusOptions {
  version: string;
  logger: { warn(obj: object, msg: string): void };
  /** What the scrape reads from the database (each at most every `readEveryMs`). */
  read: {
    queue: () => Promise<QueueTaskStats[]>;
    outbox: () => Promise<OutboxBacklog[]>;
  };
  /** A scrape reads the database at most this often; scrapes in between see the last reading. */
  readEveryMs?: number;
  /** A scrape waits at most this long for a reading; a slower one is used by the next scrape. */
  readTimeoutMs?: number;
  now?: () => number;
}

export function createPrometheusMetrics(opts: PrometheusOptions): Metrics & MetricsExposition {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry });
  for (const name of MISNAMED_DEFAULTS) registry.removeSingleMetric(name);

  new Gauge({
    name: 'walkaround_build_info',
    help: 'Always 1; the version of the running service in its label.',
    labelNames: ['version'],
    registers,
  }).set({ version: opts.version }, 1);

  const uploadsAccepted = new Counter({
    name: 'walkaround_uploads_accepted_total',
    help: 'Requests that created an inspection: POST /api/upload (source api) and link submits (source link).',
    labelNames: ['source'],
    registers,
  });
  const uploadsRefused = new Counter({
    name: 'walkaround_uploads_refused_total',
    help: 'Upload and link-submit requests refused, by the error catalogue code of the answer (reason).',
    labelNames: ['source', 'reason'],
    registers,
  });
  const ingested = new Counter({
    name: 'walkaround_media_ingested_bytes_total',
    help: 'Bytes of the stored media of accepted inspections.',
    labelNames: ['source'],
    registers,
  });
  const analysisJobs = new Counter({
    name: 'walkaround_analysis_jobs_total',
    help: 'Analysis job runs by outcome: completed, gone (inspection deleted), retry, failed (for good).',
    labelNames: ['outcome'],
    registers,
  });
  const analysisDuration = new Histogram({
    name: 'walkaround_analysis_duration_seconds',
    help: 'Time to analyse a whole inspection and store its result (completed jobs).',
    buckets: [0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600],
    registers,
  });
  const analyzerDuration = new Histogram({
    name: 'walkaround_analyzer_duration_seconds',
    help: 'Time of one analyzer on one image or video keyframe, by analyzer and status (ok, error, timeout).',
    labelNames: ['analyzer', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  });
  const webhookAttempts = new Counter({
    name: 'walkaround_webhook_attempts_total',
    help: `Webhook delivery attempts by outcome and attempt number (1 the first; "${MAX_ATTEMPT_LABEL}+" from the ${MAX_ATTEMPT_LABEL}th).`,
    labelNames: ['outcome', 'attempt'],
    registers,
  });
  const webhookLatency = new Histogram({
    name: 'walkaround_webhook_delivery_latency_seconds',
    help: 'From the event being recorded (with the result it reports) to its first successful delivery, retries included.',
    labelNames: ['event'],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 3600, 7200, 21600, 86400],
    registers,
  });
  const outboxAttempts = new Counter({
    name: 'walkaround_outbox_attempts_total',
    help: 'Send attempts of link messages by channel and outcome: sent, retry, failed (for good), dropped (link closed).',
    labelNames: ['channel', 'outcome'],
    registers,
  });
  const linkEvents = new Counter({
    name: 'walkaround_link_events_total',
    help: 'Inspection links created, opened (first read of the flow), submitted and expired.',
    labelNames: ['event'],
    registers,
  });

  // Every series of a closed label set exists from the start, so rate() and alerts see the first event.
  for (const source of SOURCES) {
    uploadsAccepted.inc({ source }, 0);
    ingested.inc({ source }, 0);
  }
  for (const outcome of ['completed', 'gone', 'retry', 'failed']) analysisJobs.inc({ outcome }, 0);
  for (const channel of CHANNELS)
    for (const outcome of ['sent', 'retry', 'failed', 'dropped']) outboxAttempts.inc({ channel, outcome }, 0);
  for (const event of ['created', 'opened', 'submitted', 'expired']) linkEvents.inc({ event }, 0);

  const readFailures = new Counter({
    name: 'walkaround_metrics_read_failures_total',
    help: 'Database readings for a scrape that failed (the gauges keep their last values).',
    labelNames: ['source'],
    registers,
  });
  const reading = <T>(source: string, read: () => Promise<T>): Reading<T> => {
    readFailures.inc({ source }, 0);
    return scrapeReading(read, {
      everyMs: opts.readEveryMs ?? 10_000,
      timeoutMs: opts.readTimeoutMs ?? 2_000,
      now: opts.now ?? Date.now,
      onError: (err) => {
        readFailures.inc({ source });
        opts.logger.warn({ err, source }, 'could not read metrics from the database');
      },
    });
  };
  const queue = reading('queue', opts.read.queue);
  const outbox = reading('outbox', opts.read.outbox);
  const now = opts.now ?? Date.now;

  new Gauge({
    name: 'walkaround_queue_jobs',
    help: 'Unfinished jobs per task: ready (due, waiting for a runner), scheduled (retries, link expiries), running.',
    labelNames: ['task', 'state'],
    registers,
    async collect() {
      const stats = await queue();
      if (!stats) return;
      this.reset();
      for (const task of TASKS) for (const state of QUEUE_STATES) this.set({ task, state }, 0);
      for (const s of stats) for (const state of QUEUE_STATES) this.set({ task: s.task, state }, s[state]);
    },
  });
  new Gauge({
    name: 'walkaround_queue_oldest_job_age_seconds',
    help: 'How long the oldest ready job of each task has been due; 0 when none waits.',
    labelNames: ['task'],
    registers,
    async collect() {
      const stats = await queue();
      if (!stats) return;
      this.reset();
      for (const task of TASKS) this.set({ task }, 0);
      const at = now();
      for (const s of stats)
        this.set({ task: s.task }, s.oldestReadyAt === null ? 0 : Math.max(0, at - s.oldestReadyAt) / 1000);
    },
  });
  new Gauge({
    name: 'walkaround_outbox_messages',
    help: 'Link messages not yet finished, by channel and status: held (no provider configured) or pending.',
    labelNames: ['channel', 'status'],
    registers,
    async collect() {
      const backlog = await outbox();
      if (!backlog) return;
      this.reset();
      for (const channel of CHANNELS)
        for (const status of ['held', 'pending']) this.set({ channel, status }, 0);
      for (const b of backlog) this.set({ channel: b.channel, status: b.status }, b.messages);
    },
  });

  return {
    contentType: registry.contentType,
    text: () => registry.metrics(),
    uploadAccepted: (source) => uploadsAccepted.inc({ source }),
    uploadRefused: (source, reason) => uploadsRefused.inc({ source, reason }),
    mediaIngested: (source, bytes) => ingested.inc({ source }, bytes),
    analysisFinished(outcome, seconds) {
      analysisJobs.inc({ outcome });
      if (outcome === 'completed') analysisDuration.observe(seconds);
    },
    analyzerRan: (analyzer, status, seconds) => analyzerDuration.observe({ analyzer, status }, seconds),
    webhookAttempted(outcome, attempt) {
      const label = attempt >= MAX_ATTEMPT_LABEL ? `${MAX_ATTEMPT_LABEL}+` : String(attempt);
      webhookAttempts.inc({ outcome, attempt: label });
    },
    webhookDelivered: (event, seconds) => webhookLatency.observe({ event }, seconds),
    outboxAttempted: (channel, outcome) => outboxAttempts.inc({ channel, outcome }),
    linkEvent: (event) => linkEvents.inc({ event }),
  };
}
