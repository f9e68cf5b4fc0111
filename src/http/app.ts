// The Fastify instances, built without listening (tests use inject()): buildApp serves every surface on
// PORT; buildUrlgenApp serves only the link generator, for URLGEN_PORT (D1).
import fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import metrics from 'fastify-metrics';
import type { Deps } from '../deps.js';
import { VERSION } from '../version.js';
import { docsPlugin } from './plugins/docs.js';
import { errorsPlugin } from './plugins/errors.js';
import { requestIdFrom, requestIdPlugin } from './plugins/request-id.js';
import { authenticateRoutes } from './routes/authenticate.js';
import { healthRoutes } from './routes/health.js';

const QUIET_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/** A bare instance with what every listener shares: logging, request ids and the error handler. */
async function baseServer(deps: Deps): Promise<FastifyInstance> {
  const app = fastify({
    // Typed as Fastify's logger so the instance keeps Fastify's default generic parameters.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
    loggerInstance: deps.logger as FastifyBaseLogger,
    genReqId: requestIdFrom,
    logController: new LogController({
      requestIdLogLabel: 'request_id',
      // Probes and scrapes arrive every few seconds; logging each would drown the real traffic.
      disableRequestLogging: (request) => QUIET_PATHS.has(request.url ?? ''),
    }),
    trustProxy: deps.config.trustProxy,
    return503OnClosing: true,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, allErrors: false } },
  });
  await app.register(errorsPlugin);
  await app.register(requestIdPlugin);
  return app;
}

export async function buildApp(deps: Deps): Promise<FastifyInstance> {
  const app = await baseServer(deps);
  await app.register(metrics.default, { endpoint: '/metrics', clearRegisterOnInit: true });
  await app.register(docsPlugin, { publicBaseUrl: deps.config.publicBaseUrl, version: VERSION });
  await app.register(healthRoutes, { deps });
  await app.register(authenticateRoutes, { deps });
  return app;
}

/** The `{urlgen_url}` listener: health plus the link generator routes (added with inspection links). */
export async function buildUrlgenApp(deps: Deps): Promise<FastifyInstance> {
  const app = await baseServer(deps);
  await app.register(healthRoutes, { deps });
  return app;
}
