// The portal's inspections (docs/portal.md): the list and search, an inspection's page, its media and
// thumbnails (only through these routes, after the caller's client is checked), reviews, webhook
// re-sends, the PDF report and share links. Every route takes the portal session; what is not the
// caller's client answers 404, as if it did not exist.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Deps } from '../../../deps.js';
import { SEARCH_FLAGS } from '../../../domain/result/digest.js';
import { inspectionPage, InspectionPageView } from '../../../services/portal/inspection-page.js';
import { CocoExport, exportLabelsFor } from '../../../services/portal/labels.js';
import { inspectionMedia, inspectionThumbnail } from '../../../services/portal/media-files.js';
import { reportFor } from '../../../services/portal/report.js';
import { ReviewInput, saveReview } from '../../../services/portal/review.js';
import { ChangeDecisionInput, decideChange } from '../../../services/portal/change-decisions.js';
import { inspectionEstimateCsv } from '../../../services/estimates/export.js';
import { InspectionPage, searchInspections } from '../../../services/portal/search-inspections.js';
import {
  createShare,
  listShares,
  MAX_SHARE_DAYS,
  NewShare,
  revokeShare,
  ShareView,
} from '../../../services/portal/shares.js';
import { ResendAnswer } from '../../../services/webhooks/delivery-log.js';
import { resendFromPortal } from '../../../services/webhooks/portal.js';
import { callerActor, callerPortal } from '../../plugins/auth.js';
import { rangeOf, sendFile, sendPdf } from '../../replies.js';
import { binaryBody, NoBody, PDF_RESPONSES } from '../../schemas/content.js';
import { errorResponses } from '../../schemas/errors.js';
import { pageFields, pageRequest } from '../../schemas/paging.js';
import { dayRange, dayStart } from '../../schemas/days.js';

const Id = Type.String({ minLength: 1, maxLength: 128 });
const config = { auth: 'portalSession' } as const;
const tags = ['Portal'];

/** An amount in a query: digits, with up to 4 decimals. */
const AMOUNT = '^[0-9]{1,12}(\\.[0-9]{1,4})?$';

const SearchQuery = Type.Object(
  {
    client_id: Type.Optional(Type.String({ maxLength: 128, description: 'Operators: one client only.' })),
    case_id: Type.Optional(Type.String({ maxLength: 256, description: 'Case ids starting with this.' })),
    plate: Type.Optional(Type.String({ maxLength: 32, description: 'Plates read starting with this.' })),
    vin: Type.Optional(Type.String({ maxLength: 32, description: 'VINs read starting with this.' })),
    status: Type.Optional(
      Type.Union(['queued', 'processing', 'completed', 'failed'].map((s) => Type.Literal(s))),
    ),
    flags: Type.Optional(
      Type.String({
        maxLength: 512,
        description: `Comma-separated, all required: ${SEARCH_FLAGS.join(', ')}.`,
      }),
    ),
    source: Type.Optional(Type.Union([Type.Literal('api'), Type.Literal('link')])),
    review: Type.Optional(
      Type.Union([Type.Literal('to_review'), Type.Literal('accepted'), Type.Literal('rejected')], {
        description:
          'The review queue: `to_review` (analysed, no decision yet), `accepted` or `rejected` (the latest review decision).',
      }),
    ),
    from: Type.Optional(Type.String({ format: 'date', description: 'Created on or after this day (UTC).' })),
    to: Type.Optional(Type.String({ format: 'date', description: 'Created on or before this day (UTC).' })),
    min_total: Type.Optional(Type.String({ pattern: AMOUNT, description: 'Estimate total at least this.' })),
    max_total: Type.Optional(Type.String({ pattern: AMOUNT, description: 'Estimate total at most this.' })),
    sort: Type.Optional(
      Type.Union([Type.Literal('newest'), Type.Literal('total')], {
        description: '`newest` (default), or `total`: the highest estimate first.',
      }),
    ),
    ...pageFields,
  },
  { additionalProperties: false },
);

const JPEG = binaryBody(['image/jpeg']);
/** Photos and videos as received (their sniffed type). */
const MEDIA = binaryBody(['image/*', 'video/*']);

export const portalInspectionRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  const reviewDeps = {
    db: deps.db,
    queue: deps.queue,
    now: deps.now,
    publicBaseUrl: deps.config.publicBaseUrl,
  };
  app.get(
    '/inspections',
    {
      config,
      schema: {
        tags,
        summary: 'Search inspections, newest first (or the highest estimate first)',
        querystring: SearchQuery,
        response: { 200: InspectionPage },
      },
    },
    async (request) => {
      const q = request.query;
      const days = dayRange(q);
      return searchInspections(deps.db, callerPortal(request), {
        clientId: q.client_id,
        caseId: q.case_id,
        plate: q.plate,
        vin: q.vin,
        status: q.status as 'queued' | 'processing' | 'completed' | 'failed' | undefined,
        flags: q.flags
          ?.split(',')
          .map((f) => f.trim())
          .filter(Boolean),
        source: q.source,
        review: q.review,
        from: days.since,
        to: days.until,
        minTotal: q.min_total === undefined ? undefined : Number(q.min_total),
        maxTotal: q.max_total === undefined ? undefined : Number(q.max_total),
        sort: q.sort,
        ...pageRequest(q),
      });
    },
  );

  app.get(
    '/inspections/:id',
    {
      config,
      schema: {
        tags,
        summary: 'An inspection with a version of its result, its versions, deliveries and timeline',
        params: Type.Object({ id: Id }),
        querystring: Type.Object({ version: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,8}$' })) }),
        response: { 200: InspectionPageView },
      },
    },
    (request) => {
      const { version } = request.query;
      return inspectionPage(
        deps.db,
        callerPortal(request),
        request.params.id,
        version === undefined ? undefined : Number(version),
      );
    },
  );

  app.get(
    '/inspections/:id/thumbnail',
    {
      config,
      schema: {
        tags,
        summary: "The inspection's first thumbnail",
        params: Type.Object({ id: Id }),
        response: { 200: JPEG },
      },
    },
    async (request, reply) =>
      sendFile(reply, await inspectionThumbnail(deps, callerPortal(request), request.params.id)),
  );

  app.get(
    '/inspections/:id/media/:mediaId',
    {
      config,
      schema: {
        tags,
        summary: 'A photo or video of the inspection, as received',
        description: 'A `Range: bytes=…` header gets that part (206), as video players ask.',
        params: Type.Object({ id: Id, mediaId: Id }),
        response: { 200: MEDIA, 206: MEDIA, ...errorResponses('plain', 416) },
      },
    },
    async (request, reply) => {
      const ids = { inspectionId: request.params.id, mediaId: request.params.mediaId };
      const range = rangeOf(request.headers.range);
      return sendFile(reply, await inspectionMedia(deps, callerPortal(request), ids, 'original', range));
    },
  );

  app.get(
    '/inspections/:id/media/:mediaId/thumbnail',
    {
      config,
      schema: {
        tags,
        summary: "A media item's thumbnail",
        params: Type.Object({ id: Id, mediaId: Id }),
        response: { 200: JPEG },
      },
    },
    async (request, reply) => {
      const ids = { inspectionId: request.params.id, mediaId: request.params.mediaId };
      return sendFile(reply, await inspectionMedia(deps, callerPortal(request), ids, 'thumbnail'));
    },
  );

  app.post(
    '/inspections/:id/review',
    {
      config,
      schema: {
        tags,
        summary: 'Accept or reject, and correct damages: saved as a new result version',
        params: Type.Object({ id: Id }),
        body: ReviewInput,
        // 409: the inspection has a newer version than the one reviewed, or no result yet.
        response: { 201: Type.Object({ version: Type.Integer() }), ...errorResponses('plain', 409) },
      },
    },
    async (request, reply) => {
      const saved = await saveReview(reviewDeps, callerPortal(request), request.params.id, request.body);
      return reply.status(201).send(saved);
    },
  );

  app.post(
    '/inspections/:id/changes',
    {
      config,
      schema: {
        tags,
        summary: 'Confirm a candidate new damage (with its part, type, severity) or dismiss it',
        description:
          'Saved as a new result version, like a review: a confirmed candidate becomes a damage with `new: true` (docs/vehicles.md).',
        params: Type.Object({ id: Id }),
        body: ChangeDecisionInput,
        response: { 201: Type.Object({ version: Type.Integer() }), ...errorResponses('plain', 409) },
      },
    },
    async (request, reply) => {
      const saved = await decideChange(reviewDeps, callerPortal(request), request.params.id, request.body);
      return reply.status(201).send(saved);
    },
  );

  app.post(
    '/inspections/:id/deliveries/:messageId/resend',
    {
      config,
      schema: {
        tags,
        summary: 'Send a webhook message again (same webhook-id)',
        params: Type.Object({ id: Id, messageId: Type.String({ minLength: 1, maxLength: 64 }) }),
        response: { 202: ResendAnswer, ...errorResponses('plain', 429) },
      },
    },
    async (request, reply) => {
      const { id, messageId } = request.params;
      const of = { inspectionId: id };
      const queued = await resendFromPortal(deps, callerPortal(request), of, messageId, callerActor(request));
      return reply.status(202).send(queued);
    },
  );

  app.get(
    '/inspections/:id/report.pdf',
    {
      config,
      schema: {
        tags,
        summary: 'The PDF report of the latest result',
        params: Type.Object({ id: Id }),
        response: PDF_RESPONSES,
      },
    },
    async (request, reply) => sendPdf(reply, await reportFor(deps, callerPortal(request), request.params.id)),
  );

  app.get(
    '/inspections/:id/estimate.csv',
    {
      config,
      schema: {
        tags,
        summary: "The latest result's estimate lines as CSV (docs/estimate.md#export)",
        params: Type.Object({ id: Id }),
        response: { 200: binaryBody(['text/csv']), ...errorResponses('plain', 409) },
      },
    },
    async (request, reply) => {
      const csv = await inspectionEstimateCsv(deps.db, callerPortal(request), request.params.id);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="estimate-${request.params.id}.csv"`)
        .send(csv);
    },
  );

  app.get(
    '/inspections/:id/shares',
    {
      config,
      schema: {
        tags,
        summary: "The inspection's share links",
        params: Type.Object({ id: Id }),
        response: { 200: Type.Object({ shares: Type.Array(ShareView) }) },
      },
    },
    async (request) => ({ shares: await listShares(deps.db, callerPortal(request), request.params.id) }),
  );

  app.post(
    '/inspections/:id/shares',
    {
      config,
      schema: {
        tags,
        summary: 'Make a read-only, expiring link to the report (shown once)',
        params: Type.Object({ id: Id }),
        body: Type.Object(
          {
            days: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_SHARE_DAYS })),
            blur: Type.Optional(Type.Boolean({ description: 'Blur faces and licence plates.' })),
            details: Type.Optional(
              Type.Boolean({
                description:
                  'Also show fraud signals, hashes, EXIF, readings and file names (default: photos, damages and review only).',
              }),
            ),
          },
          { additionalProperties: false },
        ),
        response: { 201: NewShare, ...errorResponses('plain', 409) },
      },
    },
    async (request, reply) => {
      const share = await createShare(reviewDeps, callerPortal(request), request.params.id, request.body);
      return reply.status(201).send(share);
    },
  );

  app.delete(
    '/shares/:shareId',
    {
      config,
      schema: {
        tags,
        summary: 'Revoke a share link',
        params: Type.Object({ shareId: Id }),
        response: { 204: NoBody },
      },
    },
    async (request, reply) => {
      await revokeShare(deps, callerPortal(request), request.params.shareId);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/labels',
    {
      config,
      schema: {
        tags,
        summary: 'Reviewed damage boxes in COCO format (training data for a damage model)',
        querystring: Type.Object(
          {
            client_id: Type.Optional(Type.String({ maxLength: 128 })),
            since: Type.Optional(Type.String({ format: 'date' })),
          },
          { additionalProperties: false },
        ),
        response: { 200: CocoExport },
      },
    },
    async (request, reply) => {
      const { client_id: clientId, since } = request.query;
      const coco = await exportLabelsFor(deps, callerPortal(request), {
        clientId,
        since: since === undefined ? undefined : dayStart(since),
      });
      return reply.header('content-disposition', 'attachment; filename="labels-coco.json"').send(coco);
    },
  );
};
