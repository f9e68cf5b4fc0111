// The persona editor's API (docs/portal.md#the-persona-editor): client admins manage their client's capture
// flows, operators any client's; client viewers read them only. Every route takes the portal session;
// another client's persona answers 404, as if it did not exist. Each change writes one audit entry, in
// the service, in the change's transaction.
import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Ajv } from 'ajv';
import type { Deps } from '../../../deps.js';
import { AppError } from '../../../domain/errors.js';
import { LOGO_MAX_BYTES, LOGO_MEDIA_TYPES } from '../../../services/personas/logos.js';
import {
  changePortalPersona,
  createPortalPersona,
  EditorPersona,
  listPortalPersonas,
  PersonaSummary,
  portalPersona,
  portalTestLink,
  removePortalLogo,
  uploadPortalLogo,
} from '../../../services/personas/portal.js';
import { callerActor, callerPortal } from '../../plugins/auth.js';
import { binaryBody } from '../../schemas/content.js';
import { errorResponses } from '../../schemas/errors.js';
import { CreateBody, IdParams, settingsOf, UpdateBody } from '../../schemas/personas.js';

const config = { auth: 'portalSession' } as const;
/** Checks the logo route's path, as the app's own validator would (no coercion). */
const partsAjv = new Ajv({ coerceTypes: false, allErrors: false });
const tags = ['Portal'];

const PortalCreateBody = Type.Composite(
  [
    CreateBody,
    Type.Object({
      client_id: Type.Optional(
        Type.String({ maxLength: 128, description: "Operators: the persona's client (required)." }),
      ),
    }),
  ],
  { additionalProperties: false },
);

const TestLinkAnswer = Type.Object({
  link_id: Type.String(),
  url: Type.String({ description: 'The link, shown once: `{SUPERAPP_URL}/#<token>`.' }),
  case_id: Type.String(),
  expires_at: Type.String({ format: 'date-time' }),
  qr_svg: Type.String({ description: 'The link as a QR code, an SVG image.' }),
});

export const portalPersonaRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    '/personas',
    {
      config,
      schema: {
        tags,
        summary: 'The capture flows (personas) the caller may see',
        querystring: Type.Object(
          {
            client_id: Type.Optional(Type.String({ maxLength: 128, description: 'Operators: one client.' })),
          },
          { additionalProperties: false },
        ),
        response: { 200: Type.Object({ personas: Type.Array(PersonaSummary) }) },
      },
    },
    async (request) => ({
      personas: await listPortalPersonas(deps.db, callerPortal(request), request.query.client_id),
    }),
  );

  app.post(
    '/personas',
    {
      config,
      schema: {
        tags,
        summary: 'Create a capture flow from the photo or video template',
        body: PortalCreateBody,
        // 404: a client that does not exist, or another client than a client user's own.
        response: { 201: EditorPersona, ...errorResponses('plain', 404) },
      },
    },
    async (request, reply) => {
      const { client_id: clientId, ...body } = request.body;
      const input = { clientId, kind: body.kind, ...settingsOf(body) };
      const created = await createPortalPersona(deps, callerPortal(request), input, callerActor(request));
      return reply.status(201).send(created);
    },
  );

  app.get(
    '/personas/:id',
    {
      config,
      schema: { tags, summary: 'A capture flow', params: IdParams, response: { 200: EditorPersona } },
    },
    async (request) => portalPersona(deps.db, callerPortal(request), Number(request.params.id)),
  );

  app.patch(
    '/personas/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Change a capture flow (any setting left out keeps its value)',
        params: IdParams,
        body: UpdateBody,
        response: { 200: EditorPersona },
      },
    },
    async (request) =>
      changePortalPersona(
        deps,
        callerPortal(request),
        Number(request.params.id),
        settingsOf(request.body),
        callerActor(request),
      ),
  );

  // The logo's bytes are the body; a context of its own so its parser reaches no other route.
  await app.register(async (plugin) => {
    const logo = plugin.withTypeProvider<TypeBoxTypeProvider>();
    logo.addContentTypeParser(
      [...LOGO_MEDIA_TYPES],
      // Twice the limit: what is larger than the limit but under this gets the logo's own message (413).
      { parseAs: 'buffer', bodyLimit: LOGO_MAX_BYTES * 2 },
      (_request, body, done) => done(null, body),
    );
    // Any other type (an SVG, a PDF) is refused with the message that says what a logo may be.
    logo.addContentTypeParser('*', (_request, _payload, done) => done(new AppError('PERSONA_LOGO_INVALID')));

    logo.post(
      '/personas/:id/logo',
      {
        config,
        bodyLimit: LOGO_MAX_BYTES * 2,
        schema: {
          tags,
          summary: "Upload the capture flow's logo (PNG, JPEG or WebP, at most 2 MB)",
          description:
            'Stored as a PNG of at most 1024 × 512 pixels; `branding.logoUrl` becomes its public path `/app/api/logos/<sha256>.png`.',
          params: IdParams,
          body: binaryBody(LOGO_MEDIA_TYPES),
          response: { 200: EditorPersona, ...errorResponses('plain', 413, 415) },
        },
        // The body is the image's bytes, judged by the service (decoded, not matched to a schema).
        validatorCompiler: ({ schema, httpPart }) =>
          httpPart === 'body' ? () => true : partsAjv.compile(schema as object),
      },
      async (request) =>
        uploadPortalLogo(
          deps,
          callerPortal(request),
          Number(request.params.id),
          // No body (or one another parser made) is no image: refused once the persona is found (415).
          Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
          callerActor(request),
        ),
    );
  });

  app.delete(
    '/personas/:id/logo',
    {
      config,
      schema: {
        tags,
        summary: "Take the logo off the capture flow's branding",
        params: IdParams,
        response: { 200: EditorPersona },
      },
    },
    async (request) =>
      removePortalLogo(deps, callerPortal(request), Number(request.params.id), callerActor(request)),
  );

  app.post(
    '/personas/:id/test-link',
    {
      config,
      schema: {
        tags,
        summary: 'A real inspection link to this capture flow, with its QR code, to try it on a phone',
        description: 'The link is shown once; its token is never stored (only its SHA-256) nor logged.',
        params: IdParams,
        response: { 201: TestLinkAnswer },
      },
    },
    async (request, reply) => {
      const linkDeps = { ...deps, superappUrl: deps.config.superappUrl };
      const id = Number(request.params.id);
      const link = await portalTestLink(linkDeps, callerPortal(request), id, callerActor(request));
      return reply.status(201).send(link);
    },
  );
};
