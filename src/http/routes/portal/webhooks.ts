// A client's webhook tools in the portal's console (docs/portal.md#clients-api-keys-and-webhooks): a
// signed test event sent to its webhook URL with the answer shown, its delivery log across inspections
// with filters, and re-sending a message. Operators and the client's admins; a viewer is refused, another
// client answers 404.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Deps } from '../../../deps.js';
import { ResendAnswer } from '../../../services/webhooks/delivery-log.js';
import {
  ClientDeliveryPage,
  listClientDeliveries,
  resendFromPortal,
  sendClientTestEvent,
} from '../../../services/webhooks/portal.js';
import { TestEventAnswer } from '../../../services/webhooks/test-event.js';
import { callerActor, callerPortal } from '../../plugins/auth.js';
import { errorResponses } from '../../schemas/errors.js';
import { pageFields, pageRequest } from '../../schemas/paging.js';
import { dayRange } from '../../schemas/days.js';

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
    ...pageFields,
  },
  { additionalProperties: false },
);

export const portalWebhookRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.post(
    '/clients/:id/webhook/test',
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
    async (request) => sendClientTestEvent(deps, callerPortal(request), request.params.id),
  );

  app.get(
    '/clients/:id/deliveries',
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
      const q = request.query;
      return listClientDeliveries(
        deps.db,
        callerPortal(request),
        request.params.id,
        {
          eventType: q.event,
          status: q.status,
          ...dayRange(q),
        },
        pageRequest(q),
      );
    },
  );

  app.post(
    '/clients/:id/deliveries/:messageId/resend',
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
      const { id, messageId } = request.params;
      const of = { clientId: id };
      const queued = await resendFromPortal(deps, callerPortal(request), of, messageId, callerActor(request));
      return reply.status(202).send(queued);
    },
  );
};
