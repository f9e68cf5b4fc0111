// What the portal's inspection page shows (docs/portal.md#the-inspection-page): the inspection, a version
// of its result (the latest unless asked), every version, and the timeline from the link's creation to the
// last webhook attempt.
import { AppError } from '../../domain/errors.js';
import type { Db, InspectionRow } from '../../ports/database.js';
import { listDeliveries, type DeliveryView } from '../webhooks/deliveries.js';
import { mayChange, visibleInspection } from './access.js';
import type { PortalCaller } from './sessions.js';

export interface TimelineEntry {
  at: string;
  /** link.created, link.sent, link.opened, link.submitted, received, analysed, reviewed, analysis.failed. */
  event: string;
  detail: string | null;
}

export interface VersionView {
  version: number;
  origin: 'analysis' | 'review';
  author: string | null;
  created_at: string;
}

export interface InspectionPageView {
  inspection: {
    id: string;
    client_id: string;
    client_name: string;
    case_id: string;
    status: InspectionRow['status'];
    source: InspectionRow['source'];
    agent_id: string | null;
    agent_name: string | null;
    email_id: string | null;
    input_metadata: unknown;
    created_at: string;
    updated_at: string;
    review_decision: InspectionRow['review_decision'];
    reviewed_at: string | null;
  };
  /** The version shown, or null before the first analysis. */
  result: unknown;
  version: number | null;
  latest_version: number | null;
  versions: VersionView[];
  deliveries: DeliveryView[];
  timeline: TimelineEntry[];
  /** Whether the caller may review, share and re-send. */
  may_change: boolean;
}

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

  let result: unknown = row.result === null ? null : JSON.parse(row.result);
  let shown: number | null = row.result_version > 0 ? row.result_version : null;
  if (version !== undefined && version !== row.result_version) {
    const stored = await db
      .selectFrom('inspection_results')
      .select('result')
      .where('inspection_id', '=', id)
      .where('version', '=', version)
      .executeTakeFirst();
    if (!stored) throw new AppError('NOT_FOUND');
    result = JSON.parse(stored.result);
    shown = version;
  }

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
      input_metadata: row.input_metadata === null ? null : JSON.parse(row.input_metadata),
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
    deliveries,
    timeline: await timeline(db, row, versions, deliveries),
    may_change: mayChange(caller),
  };
}

async function timeline(
  db: Db,
  row: InspectionRow,
  versions: { version: number; origin: string; created_at: number; author: string | null }[],
  deliveries: DeliveryView[],
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
        detail: `${d.event_type}, attempt ${a.attempt}: ${a.status_code ?? a.error ?? 'no answer'}`,
      });
  return entries
    .sort((a, b) => a.at - b.at)
    .map((e) => ({ at: iso(e.at), event: e.event, detail: e.detail }));
}
