// The portal's inspections (docs/portal.md): the list and search, an inspection's page, its media and
// thumbnails (only through these routes, after the caller's client is checked), reviews, webhook
// re-sends, the PDF report and share links. Every route takes the portal session; what is not the
// caller's client answers 404, as if it did not exist.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import type { Deps } from '../../deps.js';
import { AppError } from '../../domain/errors.js';
import { SEARCH_FLAGS } from '../../domain/result/digest.js';
import type { InspectionResult } from '../../domain/result/index.js';
import { requireChange, visibleInspection } from '../../services/portal/access.js';
import { inspectionPage, InspectionPageView } from '../../services/portal/inspection-page.js';
import { CocoExport, exportLabels } from '../../services/portal/labels.js';
import {
  coverThumbnail,
  mediaFile,
  type MediaFile,
  type RangeRequest,
} from '../../services/portal/media-files.js';
import { renderReport } from '../../services/portal/report.js';
import { saveReview } from '../../services/portal/review.js';
import { InspectionPage, searchInspections } from '../../services/portal/search-inspections.js';
import {
  createShare,
  listShares,
  MAX_SHARE_DAYS,
  NewShare,
  revokeShare,
  ShareView,
} from '../../services/portal/shares.js';
import { resendMessage, ResendAnswer } from '../../services/webhooks/deliveries.js';
import { callerActor, callerPortal } from '../plugins/auth.js';
import { binaryBody, NoBody } from '../schemas/content.js';
import { errorResponses } from '../schemas/errors.js';
import { dayRange, dayStart } from '../schemas/days.js';

const Id = Type.String({ minLength: 1, maxLength: 128 });
const config = { auth: 'portalSession' } as const;
const tags = ['Portal'];

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
    from: Type.Optional(Type.String({ format: 'date', description: 'Created on or after this day (UTC).' })),
    to: Type.Optional(Type.String({ format: 'date', description: 'Created on or before this day (UTC).' })),
    cursor: Type.Optional(Type.String({ maxLength: 512 })),
    limit: Type.Optional(
      Type.String({ pattern: '^[1-9][0-9]{0,2}$', description: 'Page size, 1 to 200 (50).' }),
    ),
  },
  { additionalProperties: false },
);

const ReviewBody = Type.Object(
  {
    base_version: Type.Integer({ minimum: 1 }),
    decision: Type.Union([Type.Literal('accepted'), Type.Literal('rejected'), Type.Null()]),
    note: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
    damages: Type.Optional(
      Type.Record(
        Type.String(),
        Type.Array(
          Type.Object(
            {
              part: Type.Union([Type.String({ minLength: 1, maxLength: 64 }), Type.Null()]),
              type: Type.String({ minLength: 1, maxLength: 64 }),
              severity: Type.Union([Type.Literal('minor'), Type.Literal('moderate'), Type.Literal('severe')]),
              box: Type.Object(
                {
                  x: Type.Number({ minimum: 0, maximum: 1 }),
                  y: Type.Number({ minimum: 0, maximum: 1 }),
                  width: Type.Number({ minimum: 0, maximum: 1 }),
                  height: Type.Number({ minimum: 0, maximum: 1 }),
                },
                { additionalProperties: false },
              ),
              confidence: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
              source: Type.Optional(Type.Union([Type.Literal('model'), Type.Literal('reviewer')])),
            },
            { additionalProperties: false },
          ),
          { maxItems: 100 },
        ),
        { description: 'Per media id, the damages as the reviewer left them.' },
      ),
    ),
  },
  { additionalProperties: false },
);

const JPEG = binaryBody(['image/jpeg']);
/** Photos and videos as received (their sniffed type). */
const MEDIA = binaryBody(['image/*', 'video/*']);
/** The PDF, or 409 while the inspection has no result to report. */
export const REPORT_RESPONSES = { 200: binaryBody(['application/pdf']), ...errorResponses('plain', 409) };

export async function sendFile(reply: FastifyReply, file: MediaFile, cache = 'private, max-age=300') {
  void reply.header('content-type', file.mime).header('cache-control', cache);
  if (file.size !== undefined) void reply.header('accept-ranges', 'bytes');
  if (file.range && file.size !== undefined) {
    const { start, end } = file.range;
    return reply
      .status(206)
      .header('content-range', `bytes ${start}-${end}/${file.size}`)
      .header('content-length', String(end - start + 1))
      .send(file.body);
  }
  if (file.size !== undefined) void reply.header('content-length', String(file.size));
  return reply.send(file.body);
}

/**
 * The one range of a `Range: bytes=…` header (a video player seeking); undefined for none, or for what
 * this service does not serve as a range (several ranges, other units): those get the whole file.
 */
export function rangeOf(header: string | undefined): RangeRequest | undefined {
  const match = header === undefined ? null : /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  if (match[1] === '') return { suffix: Number(match[2]) };
  return { start: Number(match[1]), ...(match[2] !== '' && { end: Number(match[2]) }) };
}

export const portalInspectionRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  const reviewDeps = {
    db: deps.db,
    queue: deps.queue,
    now: deps.now,
    publicBaseUrl: deps.config.publicBaseUrl,
  };
  app.get(
    '/portal/api/inspections',
    {
      config,
      schema: {
        tags,
        summary: 'Search inspections, newest first',
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
        from: days.since,
        to: days.until,
        cursor: q.cursor,
        limit: q.limit === undefined ? undefined : Number(q.limit),
      });
    },
  );

  app.get(
    '/portal/api/inspections/:id',
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
    '/portal/api/inspections/:id/thumbnail',
    {
      config,
      schema: {
        tags,
        summary: "The inspection's first thumbnail",
        params: Type.Object({ id: Id }),
        response: { 200: JPEG },
      },
    },
    async (request, reply) => {
      const inspection = await visibleInspection(deps.db, callerPortal(request), request.params.id);
      return sendFile(reply, await coverThumbnail(deps.storage, inspection));
    },
  );

  app.get(
    '/portal/api/inspections/:id/media/:mediaId',
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
      const inspection = await visibleInspection(deps.db, callerPortal(request), request.params.id);
      const range = rangeOf(request.headers.range);
      return sendFile(
        reply,
        await mediaFile(deps, inspection, request.params.mediaId, 'original', { range }),
      );
    },
  );

  app.get(
    '/portal/api/inspections/:id/media/:mediaId/thumbnail',
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
      const inspection = await visibleInspection(deps.db, callerPortal(request), request.params.id);
      return sendFile(reply, await mediaFile(deps, inspection, request.params.mediaId, 'thumbnail'));
    },
  );

  app.post(
    '/portal/api/inspections/:id/review',
    {
      config,
      schema: {
        tags,
        summary: 'Accept or reject, and correct damages: saved as a new result version',
        params: Type.Object({ id: Id }),
        body: ReviewBody,
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
    '/portal/api/inspections/:id/deliveries/:messageId/resend',
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
      const caller = callerPortal(request);
      requireChange(caller);
      const inspection = await visibleInspection(deps.db, caller, request.params.id);
      const queued = await resendMessage(
        deps,
        request.params.messageId,
        { clientId: inspection.client_id, inspectionId: inspection.id },
        callerActor(request),
      );
      if (!queued) throw new AppError('NOT_FOUND');
      return reply.status(202).send({ status: 'queued', id: request.params.messageId });
    },
  );

  app.get(
    '/portal/api/inspections/:id/report.pdf',
    {
      config,
      schema: {
        tags,
        summary: 'The PDF report of the latest result',
        params: Type.Object({ id: Id }),
        response: REPORT_RESPONSES,
      },
    },
    async (request, reply) => {
      const inspection = await visibleInspection(deps.db, callerPortal(request), request.params.id);
      return sendReport(deps, reply, inspection, false);
    },
  );

  app.get(
    '/portal/api/inspections/:id/shares',
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
    '/portal/api/inspections/:id/shares',
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
    '/portal/api/shares/:shareId',
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
    '/portal/api/labels',
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
      const caller = callerPortal(request);
      requireChange(caller);
      const coco = await exportLabels(deps, {
        clientId: caller.clientId ?? request.query.client_id ?? null,
        since: request.query.since === undefined ? undefined : dayStart(request.query.since),
      });
      return reply.header('content-disposition', 'attachment; filename="labels-coco.json"').send(coco);
    },
  );
};

/** The PDF of the inspection's latest result, sent as it is written. */
export async function sendReport(
  deps: Deps,
  reply: FastifyReply,
  inspection: Awaited<ReturnType<typeof visibleInspection>>,
  blur: boolean,
) {
  if (inspection.result === null || inspection.status !== 'completed')
    throw new AppError('PORTAL_NOT_ANALYSED');
  const client = await deps.db
    .selectFrom('clients')
    .select('name')
    .where('id', '=', inspection.client_id)
    .executeTakeFirstOrThrow();
  const result = JSON.parse(inspection.result) as InspectionResult;
  const pdf = await renderReport(deps, { inspection, result, clientName: client.name, blur });
  const name = `inspection-${result.case_id.replace(/[^A-Za-z0-9._-]+/g, '_')}.pdf`;
  return reply
    .header('content-type', 'application/pdf')
    .header('content-disposition', `attachment; filename="${name}"`)
    .header('cache-control', 'private, no-store')
    .send(pdf);
}
