// POST /api/authenticate and POST /api/refresh (docs/api.md#authenticate, docs/api.md#refresh).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError } from '../../domain/errors.js';
import { authenticate } from '../../services/authenticate.js';
import { renewCredentials } from '../../services/session-tokens.js';
import type { Deps } from '../../deps.js';
import { bearerToken } from '../plugins/auth.js';
import { AuthenticateBody, AuthError, Credentials } from '../schemas/auth.js';

const OTHER_METHODS = ['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const;
const errorResponses = { 400: AuthError, 401: AuthError, 429: AuthError };

export const authenticateRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.post(
    '/api/authenticate',
    {
      config: { surface: 'auth' },
      schema: {
        tags: ['Authentication'],
        summary: 'Exchange an API key for a session and its tokens',
        body: AuthenticateBody,
        response: { 200: Credentials, ...errorResponses },
      },
    },
    async (request) =>
      authenticate(deps, {
        key: request.body.key,
        clientId: request.body.client_id || undefined,
        address: request.ip,
      }),
  );

  app.post(
    '/api/refresh',
    {
      config: { surface: 'auth' },
      schema: {
        tags: ['Authentication'],
        summary: 'Renew a session with the access_token (once per access_token)',
        security: [{ renewToken: [] }],
        response: { 200: Credentials, 401: AuthError },
      },
    },
    async (request) => {
      const token = bearerToken(request.headers.authorization);
      const renewed = token === undefined ? undefined : await renewCredentials(deps, token);
      if (!renewed) throw new AppError('AUTH_TOKEN_NOT_VALID');
      return renewed;
    },
  );

  // Other methods are answered 405 (docs/api.md#authenticate), and documented as such.
  for (const url of ['/api/authenticate', '/api/refresh'])
    for (const method of OTHER_METHODS)
      app.route({
        method,
        url,
        config: { surface: 'auth' },
        schema: {
          tags: ['Authentication'],
          summary: `Not allowed: only POST (${method} answers 405)`,
          response: { 405: AuthError },
        },
        handler: async (_request, reply) => {
          void reply.header('allow', 'POST');
          throw new AppError('METHOD_NOT_ALLOWED');
        },
      });
};
