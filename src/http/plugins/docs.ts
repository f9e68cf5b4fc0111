// OpenAPI document generated from the route schemas (`/openapi.json`) and a readable reference (`/docs`).
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export const docsPlugin = fp(async function docs(
  app: FastifyInstance,
  opts: { publicBaseUrl: string; version: string },
) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Walkaround',
        version: opts.version,
        license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
        description:
          'Vehicle inspection media service: authenticate with an API key, upload photos or videos, receive the analysis by signed webhook, and generate inspection links for customers.',
      },
      servers: [{ url: opts.publicBaseUrl }],
      components: {
        securitySchemes: {
          uploadToken: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: 'The `refresh_token` from /api/authenticate.',
          },
          renewToken: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: 'The `access_token` from /api/authenticate.',
          },
          apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
          linkToken: {
            type: 'http',
            scheme: 'bearer',
            description: 'The inspection link token from /superappToken (the part after `#` in the link).',
          },
          portalSession: {
            type: 'apiKey',
            in: 'cookie',
            name: 'walkaround_portal',
            description:
              "The portal session cookie set by `POST /portal/api/session`. State-changing calls also send the session's `csrf_token` in `x-csrf-token`.",
          },
          shareToken: {
            type: 'apiKey',
            in: 'header',
            name: 'x-share-token',
            description: 'The token of a share link (the part after `#/share/` in the link).',
          },
        },
      },
    },
    // Shared schemas are components named by their `$id` (InspectionResult), not def-0.
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) =>
        typeof json.$id === 'string' ? json.$id : `def-${i}`,
    },
    // Generated clients name their functions after operationId; one is derived for every route that
    // does not name its own, so every operation has one and no two share it.
    transform: ({ schema, url, route }) => ({
      url,
      schema:
        schema && !schema.hide && typeof route.method === 'string' && !('operationId' in schema)
          ? { ...schema, operationId: operationIdOf(route.method, url) }
          : schema,
    }),
  });
  app.get('/openapi.json', { schema: { hide: true } }, () => app.swagger());
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { docExpansion: 'list', deepLinking: true },
  });
});

/** `GET /api/inspections/:session/deliveries` → `getApiInspectionsBySessionDeliveries`. */
export function operationIdOf(method: string, url: string): string {
  const words = url
    .split('/')
    .filter(Boolean)
    .flatMap((segment) =>
      segment.startsWith(':') ? ['by', segment.slice(1)] : segment.split(/[^A-Za-z0-9]+/).filter(Boolean),
    );
  const pascal = words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('');
  return `${method.toLowerCase()}${pascal}`;
}
