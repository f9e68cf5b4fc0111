// Personas API (D7): a client manages its own capture flows with its API key in `x-api-key`; the
// persona id is the `personaId` of /superappToken. Another client's persona is answered as unknown.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import { AppError } from '../../domain/errors.js';
import { SUPPORTED_LANGUAGES } from '../../domain/personas.js';
import { clientOfKey } from '../../services/inspections.js';
import {
  createPersona,
  getPersona,
  listPersonas,
  PersonaInputError,
  personaView,
  updatePersona,
  type PersonaSettings,
} from '../../services/personas.js';

const Step = Type.Object(
  {
    id: Type.String({ description: 'Lowercase letters, digits, `_` or `-`; unique in the persona.' }),
    label: Type.String({ minLength: 1, maxLength: 100 }),
    instructions: Type.String({ maxLength: 1000 }),
    required: Type.Boolean(),
    overlay: Type.String({ maxLength: 40, description: 'Framing overlay the capture app draws.' }),
  },
  { additionalProperties: false },
);

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
  steps: Type.Optional(Type.Array(Step, { minItems: 1, maxItems: 50 })),
  video_min_seconds: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  video_max_seconds: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  branding: Type.Optional(Branding),
};
const CreateBody = Type.Object(
  { kind: Type.Union([Type.Literal('photo'), Type.Literal('video')]), ...Settings },
  { additionalProperties: false },
);
const UpdateBody = Type.Object(Settings, { additionalProperties: false });
// Path parameters arrive as text (no type coercion anywhere in the app).
const IdParams = Type.Object({ id: Type.String({ pattern: '^[1-9][0-9]{0,15}$' }) });

const settingsOf = (body: Static<typeof UpdateBody>): PersonaSettings => ({
  ...(body.name !== undefined && { name: body.name }),
  ...(body.language !== undefined && { language: body.language }),
  ...(body.steps !== undefined && { steps: body.steps }),
  ...(body.video_min_seconds !== undefined && { videoMinSeconds: body.video_min_seconds }),
  ...(body.video_max_seconds !== undefined && { videoMaxSeconds: body.video_max_seconds }),
  ...(body.branding !== undefined && { branding: body.branding }),
});

/** Runs a change; a rule the persona breaks becomes a 400 naming it. */
async function applying<T>(change: () => Promise<T>): Promise<T> {
  try {
    return await change();
  } catch (error) {
    if (error instanceof PersonaInputError)
      throw new AppError('PERSONA_INVALID', { params: { reason: error.message } });
    throw error;
  }
}

export const personaRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  const clientOf = async (request: FastifyRequest) => {
    const header = request.headers['x-api-key'];
    const client = await clientOfKey(deps, typeof header === 'string' ? header : undefined);
    if (!client) throw new AppError('API_KEY_REQUIRED');
    return client;
  };
  const common = { tags: ['Personas'], security: [{ apiKey: [] }] };

  app.get('/api/personas', { schema: { ...common, summary: "The client's personas" } }, async (request) => {
    const client = await clientOf(request);
    return { personas: (await listPersonas(deps.db, client.id)).map(personaView) };
  });

  app.post(
    '/api/personas',
    {
      schema: {
        ...common,
        summary: 'Create a persona from the photo or video template, with any setting changed',
        body: CreateBody,
      },
    },
    async (request, reply) => {
      const client = await clientOf(request);
      const persona = await applying(() =>
        createPersona(deps, { clientId: client.id, kind: request.body.kind, ...settingsOf(request.body) }),
      );
      return reply.status(201).send(personaView(persona));
    },
  );

  app.get(
    '/api/personas/:id',
    { schema: { ...common, summary: 'One persona', params: IdParams } },
    async (request) => {
      const client = await clientOf(request);
      const persona = await getPersona(deps.db, { id: Number(request.params.id), clientId: client.id });
      if (!persona) throw new AppError('NOT_FOUND');
      return personaView(persona);
    },
  );

  app.patch(
    '/api/personas/:id',
    { schema: { ...common, summary: 'Change settings of a persona', params: IdParams, body: UpdateBody } },
    async (request) => {
      const client = await clientOf(request);
      const persona = await applying(() =>
        updatePersona(
          deps.db,
          { id: Number(request.params.id), clientId: client.id },
          settingsOf(request.body),
        ),
      );
      if (!persona) throw new AppError('NOT_FOUND');
      return personaView(persona);
    },
  );
};
