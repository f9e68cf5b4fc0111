// Personas API (docs/api.md#personas): a client manages its own capture flows with its API key in
// `x-api-key`; the persona id is the `personaId` of /superappToken. Another client's persona is
// answered as unknown.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import type { Deps } from '../../deps.js';
import { AppError } from '../../domain/errors.js';
import { PHOTO_DIMENSION_MAX, PHOTO_DIMENSION_MIN, SUPPORTED_LANGUAGES } from '../../domain/personas.js';
import {
  createPersona,
  getPersona,
  listPersonas,
  personaView,
  PersonaView,
  StepInput,
  updatePersona,
  type PersonaSettings,
} from '../../services/personas/manage.js';
import { callerActor, callerClient } from '../plugins/auth.js';

const Branding = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 200 })),
    colour: Type.Optional(Type.String({ description: '`#rrggbb`' })),
    logoUrl: Type.Optional(Type.String({ maxLength: 2000, description: 'An https:// URL.' })),
  },
  { additionalProperties: false },
);

const Settings = {
  name: Type.Optional(Type.String({ maxLength: 200 })),
  language: Type.Optional(Type.Union(SUPPORTED_LANGUAGES.map((code) => Type.Literal(code)))),
  steps: Type.Optional(Type.Array(StepInput, { minItems: 1, maxItems: 50 })),
  video_min_seconds: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  video_max_seconds: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  branding: Type.Optional(Branding),
  allow_gallery: Type.Optional(
    Type.Boolean({
      description: "The customer may pick photos or videos from the phone's gallery (default false).",
    }),
  ),
  ask_location: Type.Optional(
    Type.Boolean({
      description:
        "The capture app asks for the customer's location and sends it with each capture (default false).",
    }),
  ),
  // Any number: the persona rules check that it is whole and in range, with a message naming the field.
  max_photo_dimension: Type.Optional(
    Type.Union([Type.Number(), Type.Null()], {
      description: `Photo personas: the capture app scales photos whose long side is larger (${PHOTO_DIMENSION_MIN} to ${PHOTO_DIMENSION_MAX} px); null sends them as captured (default).`,
    }),
  ),
};
export const CreateBody = Type.Object(
  { kind: Type.Union([Type.Literal('photo'), Type.Literal('video')]), ...Settings },
  { additionalProperties: false },
);
export const UpdateBody = Type.Object(Settings, { additionalProperties: false });
// Path parameters arrive as text (no type coercion anywhere in the app).
export const IdParams = Type.Object({ id: Type.String({ pattern: '^[1-9][0-9]{0,15}$' }) });

export const settingsOf = (body: Static<typeof UpdateBody>): PersonaSettings => ({
  ...(body.name !== undefined && { name: body.name }),
  ...(body.language !== undefined && { language: body.language }),
  ...(body.steps !== undefined && { steps: body.steps }),
  ...(body.video_min_seconds !== undefined && { videoMinSeconds: body.video_min_seconds }),
  ...(body.video_max_seconds !== undefined && { videoMaxSeconds: body.video_max_seconds }),
  ...(body.branding !== undefined && { branding: body.branding }),
  ...(body.allow_gallery !== undefined && { allowGallery: body.allow_gallery }),
  ...(body.ask_location !== undefined && { askLocation: body.ask_location }),
  ...(body.max_photo_dimension !== undefined && { maxPhotoDimension: body.max_photo_dimension }),
});

export const personaRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  const config = { auth: 'apiKey' } as const;
  const tags = ['Personas'];

  app.get(
    '/api/personas',
    {
      config,
      schema: {
        tags,
        summary: "The client's personas",
        response: { 200: Type.Object({ personas: Type.Array(PersonaView) }) },
      },
    },
    async (request) => ({
      personas: (await listPersonas(deps.db, callerClient(request).id)).map(personaView),
    }),
  );

  app.post(
    '/api/personas',
    {
      config,
      schema: {
        tags,
        summary: 'Create a persona from the photo or video template, with any setting changed',
        body: CreateBody,
        response: { 201: PersonaView },
      },
    },
    async (request, reply) => {
      const persona = await createPersona(
        deps,
        { clientId: callerClient(request).id, kind: request.body.kind, ...settingsOf(request.body) },
        callerActor(request),
      );
      return reply.status(201).send(personaView(persona));
    },
  );

  app.get(
    '/api/personas/:id',
    { config, schema: { tags, summary: 'One persona', params: IdParams, response: { 200: PersonaView } } },
    async (request) => {
      const persona = await getPersona(deps.db, {
        id: Number(request.params.id),
        clientId: callerClient(request).id,
      });
      if (!persona) throw new AppError('NOT_FOUND');
      return personaView(persona);
    },
  );

  app.patch(
    '/api/personas/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Change settings of a persona',
        params: IdParams,
        body: UpdateBody,
        response: { 200: PersonaView },
      },
    },
    async (request) => {
      const persona = await updatePersona(
        deps,
        { id: Number(request.params.id), clientId: callerClient(request).id },
        settingsOf(request.body),
        callerActor(request),
      );
      if (!persona) throw new AppError('NOT_FOUND');
      return personaView(persona);
    },
  );
};
