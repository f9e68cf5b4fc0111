// GET /metrics (docs/ops/metrics.md): the process's own metrics (Node's process metrics, what the use
// cases count, gauges read from the database) and, where fastify-metrics runs, its route durations, which
// it keeps in prom-client's global registry.
import type { FastifyInstance, RouteShorthandOptions } from 'fastify';
import { register as routeRegistry } from 'prom-client';
import type { MetricsExposition } from '../../ports/metrics.js';

export interface MetricsRouteOptions {
  metrics: MetricsExposition;
  /** The route's options (its schema); the path is /metrics. */
  route: RouteShorthandOptions;
  /** Whether this app also serves the route durations of fastify-metrics. */
  withRouteDurations: boolean;
}

export async function metricsRoute(app: FastifyInstance, opts: MetricsRouteOptions) {
  app.get('/metrics', opts.route, async (_request, reply) => {
    const texts = await Promise.all([
      opts.metrics.text(),
      opts.withRouteDurations ? routeRegistry.metrics() : '',
    ]);
    // Both registries write the same text format, each metric family once: the two concatenate.
    return reply.type(opts.metrics.contentType).send(texts.join(''));
  });
}
