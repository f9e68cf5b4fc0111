// POST /superappToken (docs/api.md#superapptoken): served on the main listener and on the URLGEN_PORT
// listener (docs/api.md#listeners). The body schema documents the request; the checks themselves run in
// the service, in the order of the error table of docs/api.md#superapptoken, so that, say, a missing key
// is a 403 whatever else is wrong with the body.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Deps } from '../../deps.js';
import { createLink } from '../../services/links/create-link.js';
import { apiKeyOf } from '../../services/links/link-request.js';

const text = (description: string) => Type.Optional(Type.String({ description }));

const TokenRequest = Type.Object({
  apiKey: text('The API key; or send it in the `x-api-key` header.'),
  personaId: Type.Integer({ description: "The flow the link opens (a persona of the key's client)." }),
  clientId: text("The key's client id; a different one is refused."),
  caseId: text("Becomes the inspection's `case_id`."),
  compare_with: text(
    "An earlier inspection of the client (its `inspection_id`) to compare the link's inspection with; by default a known vehicle's latest (docs/vehicles.md).",
  ),
  userDetails: Type.Optional(
    Type.Object({
      phone: text('E.164 (`+<country code><number>`): the link is sent by SMS.'),
      email: text('The link is sent by e-mail.'),
    }),
  ),
  inputMetaData: Type.Optional(
    Type.Object(
      {
        licensePlate: text('Vehicle registration number, checked against the photos.'),
        infoCarCode: text('Region-specific code for a cost-estimate integration.'),
        vin: text('Vehicle Identification Number, checked against the photos.'),
        agentId: text('ID of the agent handling the inspection.'),
        agentName: text('Name of the agent.'),
        tlId: text('Team leader ID.'),
        tlName: text('Team leader name.'),
      },
      { description: 'Kept on the inspection.' },
    ),
  ),
});

const TokenResponse = Type.Object({
  token: Type.String({ description: 'Opaque; the customer link is `{SUPERAPP_URL}/#<token>`.' }),
  status: Type.Literal('true'),
  message: Type.Literal('Token generated successfully'),
});

const LinkError = Type.Object({ status: Type.Literal('false'), message: Type.String() });

export const superappTokenRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  const linkDeps = {
    db: deps.db,
    queue: deps.queue,
    notifier: deps.notifier,
    now: deps.now,
    superappUrl: deps.config.superappUrl,
    failedAttempts: deps.failedAttempts,
    secrets: deps.secrets,
  };
  app.post(
    '/superappToken',
    {
      config: { surface: 'link' },
      // Validation errors are not answered here: the service answers them in the order of the error table
      // of docs/api.md#superapptoken.
      attachValidation: true,
      schema: {
        tags: ['Inspection links'],
        summary: 'Generate an inspection link token',
        body: TokenRequest,
        response: {
          200: TokenResponse,
          400: LinkError,
          401: LinkError,
          403: LinkError,
          429: LinkError,
          500: LinkError,
        },
      },
    },
    async (request) => {
      const created = await createLink(linkDeps, {
        apiKey: apiKeyOf(request.body, request.headers['x-api-key']),
        body: request.body,
        address: request.ip,
      });
      request.log.info({ link: created.link.id, client: created.link.client_id }, 'inspection link created');
      return { token: created.token, status: 'true', message: 'Token generated successfully' } as const;
    },
  );
};
