// Personas API (docs/api.md#personas): a client manages its own capture flows with its API key in
// `x-api-key`; the persona id is the `personaId` of /superappToken. Another client's persona is
// answered as unknown.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Deps } from '../../deps.js';
import { AppError } from '../../domain/errors.js';
import {
  createPersona,
  getPersona,
  listPersonas,
  personaView,
  PersonaView,
  updatePersona,
} from '../../services/personas/manage.js';
import { callerActor, callerClient } from '../plugins/auth.js';
import { CreateBody, IdParams, settingsOf, UpdateBody } from '../schemas/personas.js';

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
