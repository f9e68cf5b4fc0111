// buildApp(deps): the Fastify instance with every plugin and route, not listening (tests use inject()).
import fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import metrics from 'fastify-metrics';
import type { Deps } from '../deps.js';
import { VERSION } from '../version.js';
import { docsPlugin } from './plugins/docs.js';
import { errorsPlugin } from './plugins/errors.js';
import { requestIdFrom, requestIdPlugin } from './plugins/request-id.js';
import { authenticateRoutes } from './routes/authenticate.js';
import { healthRoutes } from './routes/health.js';

export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
];

export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
}

export async function buildApp(deps: Deps, opts: { logger?: FastifyServerOptions['logger'] } = {}): Promise<FastifyInstance> {
  const app = fastify({
    logger: opts.logger ?? loggerOptions(deps.config.logLevel),
    genReqId: requestIdFrom,
    logController: new LogController({ requestIdLogLabel: 'request_id' }),
    trustProxy: deps.config.trustProxy,
    return503OnClosing: true,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, allErrors: false } },
  });

  await app.register(errorsPlugin);
  await app.register(requestIdPlugin);
  await app.register(metrics.default, { endpoint: '/metrics', clearRegisterOnInit: true });
  await app.register(docsPlugin, { publicBaseUrl: deps.config.publicBaseUrl, version: VERSION });

  await app.register(healthRoutes, { deps });
  await app.register(authenticateRoutes, { deps });
  return app;
}
