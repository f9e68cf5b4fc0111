// A client's webhook tools in the portal's console (docs/portal.md#clients-api-keys-and-webhooks): a
// signed test event sent to its webhook URL with the answer shown, its delivery log across inspections
// with filters, and re-sending a message. Operators and the client's admins; a viewer is refused, another
// client answers 404.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Deps } from '../../deps.js';
import { AppError } from '../../domain/errors.js';
import { administeredClient } from '../../services/portal/clients.js';
import { ClientDeliveryPage, listClientDeliveries } from '../../services/webhooks/client-deliveries.js';
import { resendMessage, ResendAnswer } from '../../services/webhooks/deliveries.js';
import { sendTestEvent, TestEventAnswer } from '../../services/webhooks/test-event.js';
import { callerActor, callerPortal } from '../plugins/auth.js';
import { errorResponses } from '../schemas/errors.js';
import { dayRange } from '../schemas/days.js';

const config = { auth: 'portalSession' } as const;
const tags = ['Portal'];
const ClientId = Type.String({ minLength: 1, maxLength: 128 });

const DeliveryQuery = Type.Object(
  {
    event: Type.Optional(Type.String({ maxLength: 64, description: 'One event type.' })),
    status: Type.Optional(
      Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
    ),
    from: Type.Optional(Type.String({ format: 'date', description: 'Created on or after this day (UTC).' })),
    to: Type.Optional(Type.String({ format: 'date', description: 'Created on or before this day (UTC).' })),
    cursor: Type.Optional(Type.String({ maxLength: 512 })),
    limit: Type.Optional(
      Type.String({ pattern: '^[1-9][0-9]{0,2}$', description: 'Page size, 1 to 200 (50).' }),
    ),
  },
  { additionalProperties: false },
);

export const portalWebhookRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.post(
    '/portal/api/clients/:id/webhook/test',
    {
      config,
      schema: {
        tags,
        summary: "Send a signed `ping` event to the client's webhook URL and answer what came back",
        description:
          'Signed and sent as a real delivery (with both secrets during a rotation). It is not recorded ' +
          'in the delivery log. 200 whatever the receiver answered: see `outcome`.',
        params: Type.Object({ id: ClientId }),
        // 409: no webhook URL; 429: too many test events for the client in a minute.
        response: { 200: TestEventAnswer, ...errorResponses('plain', 409, 429) },
      },
    },
    async (request) => {
      const client = await administeredClient(deps.db, callerPortal(request), request.params.id);
      return sendTestEvent(deps, client);
    },
  );

  app.get(
    '/portal/api/clients/:id/deliveries',
    {
      config,
      schema: {
        tags,
        summary: "The client's webhook messages across inspections, newest first, with each attempt",
        params: Type.Object({ id: ClientId }),
        querystring: DeliveryQuery,
        response: { 200: ClientDeliveryPage },
      },
    },
    async (request) => {
      const client = await administeredClient(deps.db, callerPortal(request), request.params.id);
      const q = request.query;
      return listClientDeliveries(
        deps.db,
        client.id,
        {
          eventType: q.event,
          status: q.status,
          ...dayRange(q),
        },
        { cursor: q.cursor, limit: Math.min(Number(q.limit ?? 50), 200) },
      );
    },
  );

  app.post(
    '/portal/api/clients/:id/deliveries/:messageId/resend',
    {
      config,
      schema: {
        tags,
        summary: 'Send a webhook message of the client again (same webhook-id)',
        params: Type.Object({ id: ClientId, messageId: Type.String({ minLength: 1, maxLength: 64 }) }),
        response: { 202: ResendAnswer, ...errorResponses('plain', 429) },
      },
    },
    async (request, reply) => {
      const client = await administeredClient(deps.db, callerPortal(request), request.params.id);
      const queued = await resendMessage(
        deps,
        request.params.messageId,
        { clientId: client.id },
        callerActor(request),
      );
      if (!queued) throw new AppError('NOT_FOUND');
      return reply.status(202).send({ status: 'queued', id: request.params.messageId });
    },
  );
};
