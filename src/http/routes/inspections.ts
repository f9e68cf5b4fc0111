// GET /api/inspections/{session} (D5): an inspection's state, media and (once analysed) result, for the
// client whose API key is in `x-api-key`. Another client's inspection is answered as unknown.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Deps } from '../../deps.js';
import { AppError } from '../../domain/errors.js';
import { clientOfKey, getInspection } from '../../services/inspections.js';

export const inspectionRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    '/api/inspections/:session',
    {
      schema: {
        tags: ['Inspections'],
        summary: "An inspection's state, media and result",
        security: [{ apiKey: [] }],
        params: Type.Object({ session: Type.String({ minLength: 1, maxLength: 128 }) }),
      },
    },
    async (request) => {
      const header = request.headers['x-api-key'];
      const client = await clientOfKey(deps, typeof header === 'string' ? header : undefined);
      if (!client) throw new AppError('API_KEY_REQUIRED');
      const inspection = await getInspection(deps.db, client.id, request.params.session);
      if (!inspection) throw new AppError('NOT_FOUND');
      return inspection;
    },
  );
};
