// The webhook delivery log of an inspection, and re-sending a message (D6), with the client's key.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Deps } from '../../deps.js';
import { AppError } from '../../domain/errors.js';
import { clientOfKey } from '../../services/inspections.js';
import { listDeliveries, MessageNotFoundError, resendMessage } from '../../services/webhooks/deliveries.js';

export const deliveryRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  const callerClient = async (header: string | string[] | undefined) => {
    const client = await clientOfKey(deps, typeof header === 'string' ? header : undefined);
    if (!client) throw new AppError('API_KEY_REQUIRED');
    return client;
  };

  app.get(
    '/api/inspections/:session/deliveries',
    {
      schema: {
        tags: ['Webhooks'],
        summary: 'Every webhook message of the inspection, with each delivery attempt',
        security: [{ apiKey: [] }],
        params: Type.Object({ session: Type.String({ minLength: 1, maxLength: 128 }) }),
      },
    },
    async (request) => {
      const client = await callerClient(request.headers['x-api-key']);
      const deliveries = await listDeliveries(deps.db, client.id, request.params.session);
      if (!deliveries) throw new AppError('NOT_FOUND');
      return { deliveries };
    },
  );

  app.post(
    '/api/inspections/:session/deliveries/:id/resend',
    {
      schema: {
        tags: ['Webhooks'],
        summary: 'Send a message again (same webhook-id); the attempt is logged',
        security: [{ apiKey: [] }],
        params: Type.Object({
          session: Type.String({ minLength: 1, maxLength: 128 }),
          id: Type.String({ minLength: 1, maxLength: 64 }),
        }),
      },
    },
    async (request, reply) => {
      const client = await callerClient(request.headers['x-api-key']);
      try {
        await resendMessage(deps, request.params.id, {
          clientId: client.id,
          inspectionId: request.params.session,
        });
      } catch (error) {
        if (error instanceof MessageNotFoundError) throw new AppError('NOT_FOUND');
        throw error;
      }
      return reply.status(202).send({ status: 'queued', id: request.params.id });
    },
  );
};
