// What a share link opens, for someone without an account (docs/portal.md#sharing): the inspection's
// latest result, its photos and the PDF, read only, with faces and plates blurred when the link says so.
// The token comes in `x-share-token`; the portal's share page sends it.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Deps } from '../../../deps.js';
import { mediaFile } from '../../../services/portal/media-files.js';
import { sharedReport } from '../../../services/portal/report.js';
import { sharedBeforePhoto, SharedView, sharedView } from '../../../services/portal/shared-view.js';
import { callerShare } from '../../plugins/auth.js';
import { binaryBody, PDF_RESPONSES } from '../../schemas/content.js';
import { sendFile, sendPdf } from '../../replies.js';
import { errorResponses } from '../../schemas/errors.js';

const config = { auth: 'shareToken' } as const;
const tags = ['Portal'];
const MediaParams = Type.Object({ mediaId: Type.String({ minLength: 1, maxLength: 128 }) });

export const portalSharedRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    '/shared',
    {
      config,
      schema: {
        tags,
        summary: 'The shared inspection and its latest result',
        response: { 200: SharedView, ...errorResponses('plain', 409) },
      },
    },
    async (request) => sharedView(deps.db, callerShare(request)),
  );

  const media = (variant: 'original' | 'thumbnail') =>
    app.get(
      `/shared/media/:mediaId${variant === 'thumbnail' ? '/thumbnail' : ''}`,
      {
        config,
        schema: {
          tags,
          summary: `A shared ${variant === 'thumbnail' ? 'thumbnail' : 'photo'}`,
          params: MediaParams,
          response: { 200: binaryBody(variant === 'thumbnail' ? ['image/jpeg'] : ['image/*', 'video/*']) },
        },
      },
      async (request, reply) => {
        const { share, inspection } = callerShare(request);
        const file = await mediaFile(deps, inspection, request.params.mediaId, variant, {
          blur: share.blur === 1,
        });
        return sendFile(reply, file, 'private, no-store');
      },
    );
  media('original');
  media('thumbnail');

  app.get(
    '/shared/media/:mediaId/before',
    {
      config,
      schema: {
        tags,
        summary: "The previous inspection's photo of a shared photo with confirmed new damage",
        params: MediaParams,
        response: { 200: binaryBody(['image/*']) },
      },
    },
    async (request, reply) =>
      sendFile(
        reply,
        await sharedBeforePhoto(deps, callerShare(request), request.params.mediaId),
        'private, no-store',
      ),
  );

  app.get(
    '/shared/report.pdf',
    {
      config,
      schema: { tags, summary: 'The PDF report of the shared inspection', response: PDF_RESPONSES },
    },
    async (request, reply) => {
      return sendPdf(reply, await sharedReport(deps, callerShare(request)));
    },
  );
};
