// Uploaded persona logos (docs/portal.md#the-persona-editor), served to the capture app without any
// credential: a customer's phone shows them on the welcome screen before anything else. Only objects
// recorded as logos are served, by the SHA-256 in their name, so no other stored media (an inspection's
// photos) can be reached here whatever hash is asked for. The content never changes under a name: cached
// for good.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Deps } from '../../deps.js';
import { AppError } from '../../domain/errors.js';
import { uploadedLogo } from '../../services/personas/logos.js';
import { binaryBody } from '../schemas/content.js';
import { CAPTURE_PREFIX } from './capture.js';
import { sendFile } from '../replies.js';

export const personaLogoRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    `${CAPTURE_PREFIX}/logos/:file`,
    {
      schema: {
        tags: ['Capture'],
        summary: "A persona's uploaded logo, as the capture app shows it",
        params: Type.Object({ file: Type.String({ pattern: '^[0-9a-f]{64}\\.png$' }) }),
        response: { 200: binaryBody(['image/png']) },
      },
    },
    async (request, reply) => {
      const logo = await uploadedLogo(deps.db, request.params.file.slice(0, 64));
      if (!logo) throw new AppError('NOT_FOUND');
      const body = await deps.storage.get(logo.storage_key);
      return sendFile(
        reply,
        { mime: 'image/png', body, size: logo.bytes },
        'public, max-age=31536000, immutable',
      );
    },
  );
};
