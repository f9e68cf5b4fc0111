// GET /portal/api/vehicles/{id}: the portal's vehicle page (docs/portal.md#vehicles).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Deps } from '../../../deps.js';
import { vehiclePage } from '../../../services/portal/vehicle-page.js';
import { VehicleView } from '../../../services/vehicles/vehicles.js';
import { callerPortal } from '../../plugins/auth.js';

export const portalVehicleRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    '/vehicles/:id',
    {
      config: { auth: 'portalSession' },
      schema: {
        tags: ['Portal'],
        summary: 'A vehicle and its inspections, oldest first',
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 128 }) }),
        response: { 200: VehicleView },
      },
    },
    async (request) => vehiclePage(deps.db, callerPortal(request), request.params.id),
  );
};
