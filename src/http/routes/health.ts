// Liveness, readiness (database reachable) and the JWT public keys.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { sql } from 'kysely';
import type { Deps } from '../../deps.js';

const Status = Type.Object({ status: Type.String() });

export const healthRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    '/healthz',
    { schema: { tags: ['Operations'], summary: 'Liveness', response: { 200: Status } } },
    () => ({ status: 'ok' }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        tags: ['Operations'],
        summary: 'Readiness: the database answers',
        response: { 200: Status, 503: Status },
      },
    },
    async (request, reply) => {
      try {
        await sql`select 1`.execute(deps.db);
        return { status: 'ready' };
      } catch (error) {
        request.log.warn({ err: error }, 'database not reachable');
        return reply.status(503).send({ status: 'database unreachable' });
      }
    },
  );

  app.get(
    '/.well-known/jwks.json',
    {
      schema: {
        tags: ['Authentication'],
        summary: 'Public keys that verify the issued JWTs',
        response: { 200: Type.Object({ keys: Type.Array(Type.Record(Type.String(), Type.Unknown())) }) },
      },
    },
    async (_request, reply) => {
      void reply.header('cache-control', 'public, max-age=300');
      return deps.keys.jwks();
    },
  );
};
