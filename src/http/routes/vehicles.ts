// GET /api/vehicles and GET /api/vehicles/{id} (docs/vehicles.md#the-api): a client's vehicles and each
// one's history of inspections, for the client whose API key is in `x-api-key`. Another client's vehicle
// is answered as unknown.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Deps } from '../../deps.js';
import { AppError } from '../../domain/errors.js';
import {
  listVehicles,
  vehicleHistory,
  VehicleSummary,
  VehicleView,
} from '../../services/vehicles/vehicles.js';
import { callerClient } from '../plugins/auth.js';

const tags = ['Vehicles'];

export const vehicleRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    '/api/vehicles',
    {
      config: { auth: 'apiKey' },
      schema: {
        tags,
        summary: "The client's vehicles, last seen first",
        querystring: Type.Object({
          search: Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: 64,
              description: 'A VIN or plate, any case or separators.',
            }),
          ),
          limit: Type.Optional(
            Type.String({ pattern: '^[1-9][0-9]{0,2}$', description: 'At most this many, 1 to 500 (100).' }),
          ),
        }),
        response: { 200: Type.Object({ vehicles: Type.Array(VehicleSummary) }) },
      },
    },
    async (request) => ({
      vehicles: await listVehicles(deps.db, {
        clientId: callerClient(request).id,
        search: request.query.search,
        limit: Math.min(Number(request.query.limit ?? 100), 500),
      }),
    }),
  );
  app.get(
    '/api/vehicles/:id',
    {
      config: { auth: 'apiKey' },
      schema: {
        tags,
        summary: 'A vehicle and its inspections',
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 128 }) }),
        response: { 200: VehicleView },
      },
    },
    async (request) => {
      const vehicle = await vehicleHistory(deps.db, {
        clientId: callerClient(request).id,
        vehicleId: request.params.id,
      });
      if (!vehicle) throw new AppError('NOT_FOUND');
      return vehicle;
    },
  );
};
