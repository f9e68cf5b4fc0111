// The audit log in the portal (docs/audit.md): operators see every entry (or one client's), a client
// admin their own client's; a client viewer none (it is part of administering the client).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Deps } from '../../../deps.js';
import { AuditPage, listAuditFor } from '../../../services/audit.js';
import { callerPortal } from '../../plugins/auth.js';
import { dayRange } from '../../schemas/days.js';
import { pageFields, pageRequest } from '../../schemas/paging.js';

const Text = (description: string) => Type.Optional(Type.String({ maxLength: 200, description }));

const AuditQuery = Type.Object(
  {
    client_id: Text('Operators: one client only.'),
    action: Text('One action, e.g. `client.update`.'),
    actor: Text("A user's e-mail, an API key's prefix, `cli` or `system`."),
    object_type: Text('`client`, `persona`, `user`, `inspection`, …'),
    object_id: Text('One object.'),
    from: Type.Optional(Type.String({ format: 'date', description: 'On or after this day (UTC).' })),
    to: Type.Optional(Type.String({ format: 'date', description: 'On or before this day (UTC).' })),
    ...pageFields,
  },
  { additionalProperties: false },
);

export const portalAuditRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    '/audit',
    {
      config: { auth: 'portalSession' },
      schema: {
        tags: ['Portal'],
        summary: 'Who changed what, and when, newest first',
        querystring: AuditQuery,
        response: { 200: AuditPage },
      },
    },
    async (request) => {
      const q = request.query;
      return listAuditFor(
        deps.db,
        callerPortal(request),
        {
          clientId: q.client_id,
          action: q.action,
          actor: q.actor,
          objectType: q.object_type,
          objectId: q.object_id,
          ...dayRange(q),
        },
        pageRequest(q),
      );
    },
  );
};
