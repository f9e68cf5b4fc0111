// What the portal's inspection page shows (docs/portal.md#the-inspection-page): the inspection, a version
// of its result (the latest unless asked), every version, and the timeline from the link's creation to the
// last webhook attempt.
import { Type, type Static } from '@sinclair/typebox';
import { AppError } from '../../domain/errors.js';
import { ResultBody } from '../../domain/result/index.js';
import { Nullable } from '../../domain/schema.js';
import { InspectionSource, InspectionStatus } from '../inspections.js';
import type { Db, InspectionRow } from '../../ports/database.js';
import { DeliveryOutline, deliveryOutline, listDeliveries } from '../webhooks/delivery-log.js';
import { mayChange, visibleInspection } from './access.js';
import type { PortalCaller } from './sessions.js';
import { failureInWords } from '../webhooks/failure-words.js';

export const TimelineEntry = Type.Object({
  at: Type.String({ format: 'date-time' }),
  event: Type.String({
    description:
      'link.created, link.sent, link.opened, link.submitted, received, analysed, reviewed, analysis.failed.',
  }),
  detail: Nullable(Type.String()),
});
export type TimelineEntry = Static<typeof TimelineEntry>;

export const VersionView = Type.Object({
  version: Type.Integer({ minimum: 1 }),
  origin: Type.Union([Type.Literal('analysis'), Type.Literal('review')]),
  author: Nullable(Type.String({ description: 'The reviewer, for a review.' })),
  created_at: Type.String({ format: 'date-time' }),
});
export type VersionView = Static<typeof VersionView>;

export const InspectionPageView = Type.Object({
  inspection: Type.Object({
    id: Type.String(),
    client_id: Type.String(),
    client_name: Type.String(),
    case_id: Type.String(),
    status: InspectionStatus,
    source: InspectionSource,
    agent_id: Nullable(Type.String()),
    agent_name: Nullable(Type.String()),
    email_id: Nullable(Type.String()),
    input_metadata: Nullable(Type.Record(Type.String(), Type.Unknown())),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
    review_decision: Nullable(Type.Union([Type.Literal('accepted'), Type.Literal('rejected')])),
    reviewed_at: Nullable(Type.String({ format: 'date-time' })),
  }),
  result: Nullable(ResultBody, { description: 'The version shown, or null before the first analysis.' }),
  version: Nullable(Type.Integer()),
  latest_version: Nullable(Type.Integer()),
  versions: Type.Array(VersionView),
  deliveries: Type.Array(DeliveryOutline, {
    description: "To a client viewer, without the receiver's URL, answers and errors.",
  }),
  timeline: Type.Array(TimelineEntry),
  may_change: Type.Boolean({ description: 'Whether the caller may review, share and re-send.' }),
});
export type InspectionPageView = Static<typeof InspectionPageView>;

const iso = (ms: number) => new Date(ms).toISOString();

export async function inspectionPage(
  db: Db,
  caller: PortalCaller,
  id: string,
  version?: number,
): Promise<InspectionPageView> {
  const row = await visibleInspection(db, caller, id);
  const [client, versions, deliveries] = await Promise.all([
    db.selectFrom('clients').select('name').where('id', '=', row.client_id).executeTakeFirstOrThrow(),
    db
      .selectFrom('inspection_results')
      .leftJoin('portal_users', 'portal_users.id', 'inspection_results.author_id')
      .select([
        'inspection_results.version',
        'inspection_results.origin',
        'inspection_results.created_at',
        'portal_users.email as author',
      ])
      .where('inspection_results.inspection_id', '=', id)
      .orderBy('inspection_results.version', 'desc')
      .execute(),
    listDeliveries(db, row.client_id, id).then((d) => d ?? []),
  ]);

  let result: InspectionPageView['result'] =
    row.result === null ? null : (JSON.parse(row.result) as InspectionPageView['result']);
  let shown: number | null = row.result_version > 0 ? row.result_version : null;
  if (version !== undefined && version !== row.result_version) {
    const stored = await db
      .selectFrom('inspection_results')
      .select('result')
      .where('inspection_id', '=', id)
      .where('version', '=', version)
      .executeTakeFirst();
    if (!stored) throw new AppError('NOT_FOUND');
    result = JSON.parse(stored.result) as InspectionPageView['result'];
    shown = version;
  }

  // The receiver's URL, answers and errors are the client's administration: not a viewer's to read.
  const readable = mayChange(caller) ? deliveries : deliveries.map(deliveryOutline);
  return {
    inspection: {
      id: row.id,
      client_id: row.client_id,
      client_name: client.name,
      case_id: row.case_id,
      status: row.status,
      source: row.source,
      agent_id: row.agent_id,
      agent_name: row.agent_name,
      email_id: row.email_id,
      input_metadata:
        row.input_metadata === null ? null : (JSON.parse(row.input_metadata) as Record<string, unknown>),
      created_at: iso(row.created_at),
      updated_at: iso(row.updated_at),
      review_decision: row.review_decision,
      reviewed_at: row.reviewed_at === null ? null : iso(row.reviewed_at),
    },
    result,
    version: shown,
    latest_version: row.result_version > 0 ? row.result_version : null,
    versions: versions.map((v) => ({
      version: v.version,
      origin: v.origin,
      author: v.author,
      created_at: iso(v.created_at),
    })),
    deliveries: readable,
    timeline: await timeline(db, row, versions, readable),
    may_change: mayChange(caller),
  };
}

async function timeline(
  db: Db,
  row: InspectionRow,
  versions: { version: number; origin: string; created_at: number; author: string | null }[],
  deliveries: DeliveryOutline[],
): Promise<TimelineEntry[]> {
  const entries: { at: number; event: string; detail: string | null }[] = [];
  if (row.source === 'link') {
    // A submitted link's id is the inspection's id.
    const link = await db.selectFrom('links').selectAll().where('id', '=', row.id).executeTakeFirst();
    if (link) {
      entries.push({ at: link.created_at, event: 'link.created', detail: null });
      if (link.opened_at !== null) entries.push({ at: link.opened_at, event: 'link.opened', detail: null });
      if (link.submitted_at !== null)
        entries.push({ at: link.submitted_at, event: 'link.submitted', detail: null });
      const messages = await db
        .selectFrom('outbox_messages')
        .select(['channel', 'status', 'sent_at', 'created_at'])
        .where('link_id', '=', link.id)
        .execute();
      for (const m of messages)
        entries.push({
          at: m.sent_at ?? m.created_at,
          event: m.status === 'sent' ? 'link.sent' : `link.${m.status}`,
          detail: m.channel === 'sms' ? 'SMS' : 'e-mail',
        });
    }
  }
  entries.push({ at: row.created_at, event: 'received', detail: row.source });
  for (const v of [...versions].reverse())
    entries.push({
      at: v.created_at,
      event: v.origin === 'review' ? 'reviewed' : 'analysed',
      detail:
        v.origin === 'review'
          ? `version ${v.version} by ${v.author ?? 'a former user'}`
          : `version ${v.version}`,
    });
  if (row.status === 'failed') entries.push({ at: row.updated_at, event: 'analysis.failed', detail: null });
  for (const d of deliveries)
    for (const a of d.attempts)
      entries.push({
        at: Date.parse(a.at),
        event: `webhook.${a.outcome}`,
        detail: `${d.event_type}, attempt ${a.attempt}: ${failureInWords(a.status_code, a.error ?? null)}`,
      });
  return entries
    .sort((a, b) => a.at - b.at)
    .map((e) => ({ at: iso(e.at), event: e.event, detail: e.detail }));
}
