// Published JSON Schemas (docs/api.md#api-documentation): the inspection result (docs/result.md), for
// integrators to validate what they receive.
import type { FastifyPluginAsync } from 'fastify';
import { InspectionResult } from '../../domain/result/index.js';

export const schemaRoutes: FastifyPluginAsync = async (app) => {
  app.get('/schemas/inspection-result.json', { schema: { hide: true } }, async (_request, reply) => {
    void reply.header('cache-control', 'public, max-age=3600');
    return { $schema: 'http://json-schema.org/draft-07/schema#', ...InspectionResult };
  });
};
