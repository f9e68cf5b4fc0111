// The Fastify instances, built without listening (tests use inject()): buildApp serves every surface on
// PORT; buildUrlgenApp serves only the link generator, for URLGEN_PORT (docs/api.md#listeners).
import cookie from '@fastify/cookie';
import fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import metrics from 'fastify-metrics';
import type { Deps } from '../deps.js';
import { ResultComponent } from '../domain/result/index.js';
import { VERSION } from '../version.js';
import { AccessLogController } from './plugins/access-log.js';
import { authPlugin } from './plugins/auth.js';
import { bodyTimeoutPlugin } from './plugins/body-timeout.js';
import { docsPlugin } from './plugins/docs.js';
import { errorsPlugin } from './plugins/errors.js';
import { metricsRoute } from './plugins/metrics.js';
import { requestIdFrom, requestIdPlugin } from './plugins/request-id.js';
import { requestMetricsPlugin } from './plugins/request-metrics.js';
import { responseContractPlugin } from './plugins/response-contract.js';
import { authenticateRoutes } from './routes/authenticate.js';
import { captureRoutes } from './routes/capture.js';
import { deliveryRoutes } from './routes/deliveries.js';
import { healthRoutes } from './routes/health.js';
import { inspectionRoutes } from './routes/inspections.js';
import { vehicleRoutes } from './routes/vehicles.js';
import { personaRoutes } from './routes/personas.js';
import { PORTAL_APP_DIR, portalAppRoutes } from './routes/portal-app.js';
import { PORTAL_API_PREFIX, portalApiRoutes } from './routes/portal/index.js';
import { personaLogoRoutes } from './routes/persona-logos.js';
import { schemaRoutes } from './routes/result-schema.js';
import { superappTokenRoutes } from './routes/superapp-token.js';
import { uploadRoutes } from './routes/upload.js';

/** GET /metrics (plugins/metrics.ts), on the full app and on a worker's health app. */
const METRICS_ROUTE = {
  logLevel: 'fatal',
  exposeHeadRoute: false,
  schema: {
    tags: ['Operations'],
    summary: 'Prometheus metrics (docs/ops/metrics.md)',
    response: { 200: { content: { 'text/plain': { schema: { type: 'string' } } } } },
  },
} as const;

/** A bare instance with what every listener shares: logging, request ids and the error handler. */
async function baseServer(deps: Deps): Promise<FastifyInstance> {
  const app = fastify({
    // Typed as Fastify's logger so the instance keeps Fastify's default generic parameters.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
    loggerInstance: deps.logger as FastifyBaseLogger,
    genReqId: requestIdFrom,
    logController: new AccessLogController(),
    trustProxy: deps.config.trustProxy,
    return503OnClosing: true,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, allErrors: false } },
  });
  await app.register(errorsPlugin);
  await app.register(responseContractPlugin, { mode: deps.config.responseContract });
  await app.register(requestIdPlugin);
  await app.register(bodyTimeoutPlugin, { timeoutMs: deps.config.bodyTimeoutMs });
  // The portal's session cookie (the only cookie the service reads).
  await app.register(cookie);
  await app.register(authPlugin, { deps });
  await app.register(requestMetricsPlugin, { deps });
  return app;
}

export interface AppOptions {
  /** Folder of the built capture app served at /app/ (default: the build's, see routes/capture-app.ts). */
  captureAppDir?: string;
  /** Folder of the built portal served at /portal/ (default: the build's). */
  portalAppDir?: string;
}

export async function buildApp(deps: Deps, options: AppOptions = {}): Promise<FastifyInstance> {
  const app = await baseServer(deps);
  // Route durations, histograms only: prom-client summaries keep a sliding t-digest per route, costly on
  // every request. Process metrics are the process's own registry's (deps.metrics), which /metrics adds.
  await app.register(metrics.default, {
    endpoint: null,
    defaultMetrics: { enabled: false },
    clearRegisterOnInit: true,
    routeMetrics: { enabled: { histogram: true, summary: false } },
  });
  // The inspection result, one component of the document that the answers carrying it refer to.
  app.addSchema(ResultComponent);
  await app.register(docsPlugin, { publicBaseUrl: deps.config.publicBaseUrl, version: VERSION });
  // After the docs plugin, so that the reference documents it.
  await app.register(metricsRoute, { metrics: deps.metrics, route: METRICS_ROUTE, withRouteDurations: true });
  await app.register(healthRoutes, { deps });
  await app.register(authenticateRoutes, { deps });
  await app.register(uploadRoutes, { deps });
  await app.register(inspectionRoutes, { deps });
  await app.register(vehicleRoutes, { deps });
  await app.register(deliveryRoutes, { deps });
  await app.register(personaRoutes, { deps });
  await app.register(superappTokenRoutes, { deps });
  await app.register(captureRoutes, {
    deps,
    ...(options.captureAppDir !== undefined && { appDir: options.captureAppDir }),
  });
  await app.register(personaLogoRoutes, { deps });
  await app.register(portalApiRoutes, { deps, prefix: PORTAL_API_PREFIX });
  await app.register(portalAppRoutes, { root: options.portalAppDir ?? PORTAL_APP_DIR });
  await app.register(schemaRoutes);
  return app;
}

/** The `URLGEN_PORT` listener (docs/api.md#listeners): health plus the link generator. */
export async function buildUrlgenApp(deps: Deps): Promise<FastifyInstance> {
  const app = await baseServer(deps);
  await app.register(healthRoutes, { deps });
  await app.register(superappTokenRoutes, { deps });
  return app;
}

/**
 * What a process of `--role worker` serves on PORT: health, for probes of its orchestrator, and its
 * metrics (analyses, webhook deliveries, link messages are counted where they run) for Prometheus.
 */
export async function buildHealthApp(deps: Deps): Promise<FastifyInstance> {
  const app = await baseServer(deps);
  await app.register(healthRoutes, { deps });
  await app.register(metricsRoute, {
    metrics: deps.metrics,
    route: METRICS_ROUTE,
    withRouteDurations: false,
  });
  return app;
}
