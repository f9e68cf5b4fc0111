// The persona editor's API (docs/portal.md#the-persona-editor): client admins manage their client's capture
// flows, operators any client's; client viewers read them only. Every route takes the portal session;
// another client's persona answers 404, as if it did not exist. Each change writes one audit entry, in
// the service, in the change's transaction.
import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import { Ajv } from 'ajv';
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import { AppError } from '../../domain/errors.js';
import {
  isSupportedLanguage,
  stepTextsIn,
  SUPPORTED_LANGUAGES,
  type CaptureStep,
} from '../../domain/personas.js';
import type { PersonaRow } from '../../ports/database.js';
import { createTestLink } from '../../services/links/test-link.js';
import {
  LOGO_MAX_BYTES,
  LOGO_MEDIA_TYPES,
  removePersonaLogo,
  uploadPersonaLogo,
} from '../../services/persona-logos.js';
import {
  createPersona,
  getPersona,
  listPersonas,
  personaView,
  PersonaView,
  updatePersona,
} from '../../services/personas.js';
import { clientScope, requireChange } from '../../services/portal/access.js';
import type { PortalCaller } from '../../services/portal/sessions.js';
import { callerActor, callerPortal } from '../plugins/auth.js';
import { binaryBody } from '../schemas/content.js';
import { errorResponses } from '../schemas/errors.js';
import { CreateBody, IdParams, settingsOf, UpdateBody } from './personas.js';

const config = { auth: 'portalSession' } as const;
/** Checks the logo route's path, as the app's own validator would (no coercion). */
const partsAjv = new Ajv({ coerceTypes: false, allErrors: false });
const tags = ['Portal'];

/** A persona as the editor shows it: with its client's name, and template steps' words in every language. */
const EditorPersona = Type.Composite([PersonaView, Type.Object({ client_name: Type.String() })]);
type EditorPersona = Static<typeof EditorPersona>;

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

/**
 * Steps that are still a built-in template's get their words in every other language as translations, so
 * the editor shows (and on saving keeps) them; the stored persona is not changed by reading it.
 */
function withTemplateWords(persona: PersonaRow, steps: CaptureStep[]): CaptureStep[] {
  if (!isSupportedLanguage(persona.language)) return steps;
  const own = persona.language;
  return steps.map((step) => {
    const translations = { ...step.translations };
    for (const code of SUPPORTED_LANGUAGES) {
      if (code === own || translations[code]) continue;
      const words = stepTextsIn(persona.kind, step, code);
      if (words) translations[code] = words;
    }
    return Object.keys(translations).length === 0 ? step : { ...step, translations };
  });
}

export const portalPersonaRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  const clientName = async (id: string) =>
    (await deps.db.selectFrom('clients').select('name').where('id', '=', id).executeTakeFirstOrThrow()).name;
  const editorView = async (row: PersonaRow): Promise<EditorPersona> => {
    const view = personaView(row);
    return {
      ...view,
      steps: withTemplateWords(row, view.steps),
      client_name: await clientName(row.client_id),
    };
  };
  /** The persona the caller may see, by its id in the path; NOT_FOUND otherwise. */
  const where = (caller: PortalCaller, id: string) => ({
    id: Number(id),
    ...(caller.clientId !== null && { clientId: caller.clientId }),
  });
  const found = <T>(value: T | undefined): T => {
    if (value === undefined) throw new AppError('NOT_FOUND');
    return value;
  };
  /** The caller, once it is sure they may change things (a viewer: 403). */
  const changer = (request: FastifyRequest) => {
    const caller = callerPortal(request);
    requireChange(caller);
    return caller;
  };

  app.get(
    '/portal/api/personas',
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
        response: {
          200: Type.Object({
            personas: Type.Array(
              Type.Object({
                id: Type.Integer(),
                client_id: Type.String(),
                client_name: Type.String(),
                name: Type.String(),
                kind: Type.Union([Type.Literal('photo'), Type.Literal('video')]),
                language: Type.String(),
                steps: Type.Integer({ description: 'How many steps.' }),
              }),
            ),
          }),
        },
      },
    },
    async (request) => {
      const scope = clientScope(callerPortal(request), request.query.client_id);
      const rows = await listPersonas(deps.db, scope);
      const clients = new Map(
        (await deps.db.selectFrom('clients').select(['id', 'name']).execute()).map((c) => [c.id, c.name]),
      );
      return {
        personas: rows.map((row) => {
          const view = personaView(row);
          return {
            id: view.id,
            client_id: view.client_id,
            client_name: clients.get(view.client_id) ?? '',
            name: view.name,
            kind: view.kind,
            language: view.language,
            steps: view.steps.length,
          };
        }),
      };
    },
  );

  app.post(
    '/portal/api/personas',
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
      const caller = changer(request);
      const { client_id: chosen, ...body } = request.body;
      // A client user's persona is their client's, whatever they send; another client's id is unknown.
      if (caller.clientId !== null && chosen !== undefined && chosen !== caller.clientId)
        throw new AppError('NOT_FOUND');
      const clientId = caller.clientId ?? chosen;
      if (clientId === undefined)
        throw new AppError('PERSONA_INVALID', { params: { reason: 'client_id is required' } });
      const exists = await deps.db
        .selectFrom('clients')
        .select('id')
        .where('id', '=', clientId)
        .executeTakeFirst();
      if (!exists) throw new AppError('NOT_FOUND');
      const row = await createPersona(
        deps,
        { clientId, kind: body.kind, ...settingsOf(body) },
        callerActor(request),
      );
      return reply.status(201).send(await editorView(row));
    },
  );

  app.get(
    '/portal/api/personas/:id',
    {
      config,
      schema: { tags, summary: 'A capture flow', params: IdParams, response: { 200: EditorPersona } },
    },
    async (request) =>
      editorView(found(await getPersona(deps.db, where(callerPortal(request), request.params.id)))),
  );

  app.patch(
    '/portal/api/personas/:id',
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
    async (request) => {
      const caller = changer(request);
      const row = await updatePersona(
        deps,
        where(caller, request.params.id),
        settingsOf(request.body),
        callerActor(request),
      );
      return editorView(found(row));
    },
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
      '/portal/api/personas/:id/logo',
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
      async (request) => {
        const caller = changer(request);
        const row = await uploadPersonaLogo(
          deps,
          where(caller, request.params.id),
          // No body (or one another parser made) is no image: refused once the persona is found (415).
          Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
          callerActor(request),
        );
        return editorView(found(row));
      },
    );
  });

  app.delete(
    '/portal/api/personas/:id/logo',
    {
      config,
      schema: {
        tags,
        summary: "Take the logo off the capture flow's branding",
        params: IdParams,
        response: { 200: EditorPersona },
      },
    },
    async (request) => {
      const caller = changer(request);
      return editorView(
        found(await removePersonaLogo(deps, where(caller, request.params.id), callerActor(request))),
      );
    },
  );

  app.post(
    '/portal/api/personas/:id/test-link',
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
      const caller = changer(request);
      const link = await createTestLink(
        {
          db: deps.db,
          queue: deps.queue,
          now: deps.now,
          superappUrl: deps.config.superappUrl,
        },
        where(caller, request.params.id),
        callerActor(request),
      );
      return reply.status(201).send(found(link));
    },
  );
};
