// Portal users in the console (docs/portal.md#users): the list, invitations by e-mail, a new set-password
// link, and role, client and disabled changes. Operators manage everyone; a client admin the users of
// their own client (another client's answers 404) and never makes an operator (403); a viewer nobody
// (403).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Deps } from '../../../deps.js';
import {
  changeUser,
  inviteUser,
  listUsers,
  PortalUserView,
  sendPasswordLink,
  SentLink,
  type SentLinkResult,
} from '../../../services/users/portal.js';
import { callerPortal } from '../../plugins/auth.js';
import { errorResponses } from '../../schemas/errors.js';

const config = { auth: 'portalSession' } as const;
const tags = ['Portal'];
const Role = Type.Union([
  Type.Literal('operator'),
  Type.Literal('client_admin'),
  Type.Literal('client_viewer'),
]);
const ClientId = Type.String({ minLength: 1, maxLength: 128 });
const Params = Type.Object({ id: Type.String({ minLength: 1, maxLength: 128 }) });

/** What an invitation or a new link answers (its token in the e-mail, and for an operator when held). */
const sent = (result: SentLinkResult) => ({
  user: result.user,
  message: { id: result.link.messageId, status: result.link.messageStatus },
  expires_at: new Date(result.link.expiresAt).toISOString(),
  ...(result.url !== undefined && { url: result.url }),
});

export const portalUserRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  const linkDeps = {
    db: deps.db,
    queue: deps.queue,
    now: deps.now,
    notifier: deps.notifier,
    secrets: deps.secrets,
    publicBaseUrl: deps.config.publicBaseUrl,
    ttlMs: deps.config.portalPasswordLinkMs,
    inviteLimiter: deps.inviteLimiter,
  };

  app.get(
    '/users',
    {
      config,
      schema: {
        tags,
        summary: 'The portal users the caller manages, by e-mail',
        querystring: Type.Object(
          {
            client_id: Type.Optional(Type.String({ maxLength: 128, description: 'Operators: one client.' })),
          },
          { additionalProperties: false },
        ),
        response: { 200: Type.Object({ users: Type.Array(PortalUserView) }) },
      },
    },
    async (request) => ({
      users: await listUsers(deps, callerPortal(request), { clientId: request.query.client_id }),
    }),
  );

  app.post(
    '/invitations',
    {
      config,
      schema: {
        tags,
        summary: 'Invite a user by e-mail: a one-time link to choose their password, through the outbox',
        body: Type.Object(
          {
            email: Type.String({ minLength: 3, maxLength: 320 }),
            role: Role,
            client_id: Type.Optional(
              Type.Union([ClientId, Type.Null()], {
                description: 'The client of a client admin or viewer (a client admin: their own).',
              }),
            ),
          },
          { additionalProperties: false },
        ),
        // 404: an operator naming a client that does not exist, or a client admin another client;
        // 429: too many invitations by a client admin in an hour.
        response: { 201: SentLink, ...errorResponses('plain', 404, 429) },
      },
    },
    async (request, reply) => {
      const invited = await inviteUser(linkDeps, callerPortal(request), {
        email: request.body.email,
        role: request.body.role,
        clientId: request.body.client_id,
      });
      return reply.status(201).send(sent(invited));
    },
  );

  app.patch(
    '/users/:id',
    {
      config,
      schema: {
        tags,
        summary: "Change a user's role or client, or disable or enable them (their sessions end)",
        params: Params,
        body: Type.Object(
          {
            role: Type.Optional(Role),
            client_id: Type.Optional(
              Type.Union([ClientId, Type.Null()], { description: 'Operators: move a client user.' }),
            ),
            disabled: Type.Optional(Type.Boolean()),
          },
          { additionalProperties: false, minProperties: 1 },
        ),
        response: { 200: PortalUserView },
      },
    },
    async (request) =>
      changeUser(deps, callerPortal(request), request.params.id, {
        role: request.body.role,
        clientId: request.body.client_id,
        disabled: request.body.disabled,
      }),
  );

  app.post(
    '/users/:id/password-link',
    {
      config,
      schema: {
        tags,
        summary:
          'E-mail the user a new one-time link to choose a password (a reset; for a user who never chose one, a new invitation)',
        params: Params,
        response: { 202: SentLink },
      },
    },
    async (request, reply) => {
      const result = await sendPasswordLink(linkDeps, callerPortal(request), request.params.id);
      return reply.status(202).send(sent(result));
    },
  );
};
