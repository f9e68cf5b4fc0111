// GET /api/inspections/{session}: an inspection's state, media and (once analysed) result, for the client
// whose API key is in `x-api-key`. Another client's inspection is answered as unknown.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Deps } from '../../deps.js';
import { AppError } from '../../domain/errors.js';
import { getInspection, InspectionView } from '../../services/inspections.js';
import { callerClient } from '../plugins/auth.js';

export const inspectionRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    '/api/inspections/:session',
    {
      config: { auth: 'apiKey' },
      schema: {
        tags: ['Inspections'],
        summary: "An inspection's state, media and result",
        params: Type.Object({ session: Type.String({ minLength: 1, maxLength: 128 }) }),
        response: { 200: InspectionView },
      },
    },
    async (request) => {
      const inspection = await getInspection(deps.db, callerClient(request).id, request.params.session);
      if (!inspection) throw new AppError('NOT_FOUND');
      return inspection;
    },
  );
};
