// The outbox in the portal's console (docs/portal.md#messages): link messages and account e-mails with their
// state; a held one sent once its channel has a provider, a failed one sent again. Operators see every
// message, a client admin their own client's (another client's answers 404), a viewer none (403).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Deps } from '../../../deps.js';
import { OUTBOX_STATUSES } from '../../../services/outbox/list.js';
import {
  listPortalOutbox,
  OUTBOX_KINDS,
  PortalOutboxPage,
  releaseHeldFor,
  resendFailedFor,
} from '../../../services/outbox/portal.js';
import { callerActor, callerPortal } from '../../plugins/auth.js';
import { errorResponses } from '../../schemas/errors.js';
import { pageFields, pageRequest } from '../../schemas/paging.js';

const config = { auth: 'portalSession' } as const;
const tags = ['Portal'];
const literals = (values: readonly string[]) => Type.Union(values.map((v) => Type.Literal(v)));

const OutboxQuery = Type.Object(
  {
    client_id: Type.Optional(Type.String({ maxLength: 128, description: 'Operators: one client only.' })),
    status: Type.Optional(literals(OUTBOX_STATUSES)),
    kind: Type.Optional(literals(OUTBOX_KINDS)),
    ...pageFields,
  },
  { additionalProperties: false },
);
const Params = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const Queued = Type.Object({ id: Type.String(), status: Type.Literal('pending') });

export const portalOutboxRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  const outboxDeps = {
    db: deps.db,
    queue: deps.queue,
    now: deps.now,
    configured: (channel: 'email' | 'sms') => deps.notifier.configured(channel),
  };

  app.get(
    '/outbox',
    {
      config,
      schema: {
        tags,
        summary: 'Link messages and account e-mails, newest first, with their state (tokens redacted)',
        querystring: OutboxQuery,
        response: { 200: PortalOutboxPage },
      },
    },
    async (request) => {
      const q = request.query;
      return listPortalOutbox(outboxDeps, callerPortal(request), {
        clientId: q.client_id,
        status: q.status as (typeof OUTBOX_STATUSES)[number] | undefined,
        kind: q.kind as (typeof OUTBOX_KINDS)[number] | undefined,
        ...pageRequest(q),
      });
    },
  );

  app.post(
    '/outbox/:id/send',
    {
      config,
      schema: {
        tags,
        summary: 'Send a held message, once its channel has a provider',
        params: Params,
        // 409: not held, or its channel still has no provider.
        response: { 202: Queued, ...errorResponses('plain', 409) },
      },
    },
    async (request, reply) =>
      reply
        .status(202)
        .send(
          await releaseHeldFor(outboxDeps, callerPortal(request), request.params.id, callerActor(request)),
        ),
  );

  app.post(
    '/outbox/:id/resend',
    {
      config,
      schema: {
        tags,
        summary: 'Send a failed message again',
        params: Params,
        // 409: not failed, its link can no longer be used, or its channel has no provider.
        response: { 202: Queued, ...errorResponses('plain', 409) },
      },
    },
    async (request, reply) =>
      reply
        .status(202)
        .send(
          await resendFailedFor(outboxDeps, callerPortal(request), request.params.id, callerActor(request)),
        ),
  );
};
