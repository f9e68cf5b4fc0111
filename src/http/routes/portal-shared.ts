// What a share link opens, for someone without an account (docs/portal.md#sharing): the inspection's
// latest result, its photos and the PDF, read only, with faces and plates blurred when the link says so.
// The token comes in `x-share-token`; the portal's share page sends it.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import type { Deps } from '../../deps.js';
import { AppError } from '../../domain/errors.js';
import { mediaFile } from '../../services/portal/media-files.js';
import { callerShare } from '../plugins/auth.js';
import { REPORT_RESPONSES, sendFile, sendReport } from './portal-inspections.js';
import { binaryBody } from '../schemas/content.js';
import { errorResponses } from '../schemas/errors.js';
import { ResultBody } from '../../domain/result/index.js';
import { Nullable } from '../../domain/schema.js';

const config = { auth: 'shareToken' } as const;
const tags = ['Portal'];
const SharedView = Type.Object({
  client_name: Type.String(),
  case_id: Type.String(),
  review_decision: Nullable(Type.Union([Type.Literal('accepted'), Type.Literal('rejected')])),
  blur: Type.Boolean({ description: 'Faces and licence plates are blurred in the photos and the PDF.' }),
  expires_at: Type.String({ format: 'date-time' }),
  result: ResultBody,
});
const MediaParams = Type.Object({ mediaId: Type.String({ minLength: 1, maxLength: 128 }) });

export const portalSharedRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    '/portal/api/shared',
    {
      config,
      schema: {
        tags,
        summary: 'The shared inspection and its latest result',
        response: { 200: SharedView, ...errorResponses('plain', 409) },
      },
    },
    async (request) => {
      const { share, inspection } = callerShare(request);
      if (inspection.result === null) throw new AppError('PORTAL_NOT_ANALYSED');
      const client = await deps.db
        .selectFrom('clients')
        .select('name')
        .where('id', '=', inspection.client_id)
        .executeTakeFirstOrThrow();
      return {
        client_name: client.name,
        case_id: inspection.case_id,
        review_decision: inspection.review_decision,
        blur: share.blur === 1,
        expires_at: new Date(share.expires_at).toISOString(),
        result: JSON.parse(inspection.result) as Static<typeof ResultBody>,
      };
    },
  );

  const media = (variant: 'original' | 'thumbnail') =>
    app.get(
      `/portal/api/shared/media/:mediaId${variant === 'thumbnail' ? '/thumbnail' : ''}`,
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
    '/portal/api/shared/report.pdf',
    {
      config,
      schema: { tags, summary: 'The PDF report of the shared inspection', response: REPORT_RESPONSES },
    },
    async (request, reply) => {
      const { share, inspection } = callerShare(request);
      return sendReport(deps, reply, inspection, share.blur === 1);
    },
  );
};
