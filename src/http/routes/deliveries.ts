// The webhook delivery log of an inspection, and re-sending a message, with the client's key.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Deps } from '../../deps.js';
import { AppError } from '../../domain/errors.js';
import {
  DeliveryView,
  listDeliveries,
  resendMessage,
  ResendAnswer,
} from '../../services/webhooks/delivery-log.js';
import { callerActor, callerClient } from '../plugins/auth.js';
import { errorResponses } from '../schemas/errors.js';

export const deliveryRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    '/api/inspections/:session/deliveries',
    {
      config: { auth: 'apiKey' },
      schema: {
        tags: ['Webhooks'],
        summary: 'Every webhook message of the inspection, with each delivery attempt',
        params: Type.Object({ session: Type.String({ minLength: 1, maxLength: 128 }) }),
        response: { 200: Type.Object({ deliveries: Type.Array(DeliveryView) }) },
      },
    },
    async (request) => {
      const deliveries = await listDeliveries(deps.db, callerClient(request).id, request.params.session);
      if (!deliveries) throw new AppError('NOT_FOUND');
      return { deliveries };
    },
  );

  app.post(
    '/api/inspections/:session/deliveries/:id/resend',
    {
      config: { auth: 'apiKey' },
      schema: {
        tags: ['Webhooks'],
        summary: 'Send a message again (same webhook-id); the attempt is logged',
        params: Type.Object({
          session: Type.String({ minLength: 1, maxLength: 128 }),
          id: Type.String({ minLength: 1, maxLength: 64 }),
        }),
        // 429: a client may ask for 60 re-sends a minute.
        response: { 202: ResendAnswer, ...errorResponses('plain', 429) },
      },
    },
    async (request, reply) => {
      const { session, id } = request.params;
      const queued = await resendMessage(
        deps,
        id,
        { clientId: callerClient(request).id, inspectionId: session },
        callerActor(request),
      );
      if (!queued) throw new AppError('NOT_FOUND');
      return reply.status(202).send({ status: 'queued', id });
    },
  );
};
