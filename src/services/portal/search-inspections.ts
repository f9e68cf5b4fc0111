// The portal's inspection list (docs/portal.md#search): filters by case id, plate, VIN (prefixes), status,
// flags, source and date range; newest first with keyset pagination (a cursor, never an offset), and the
// count per status of what the other filters match. Plates, VINs and flags are searched in
// inspection_facts, one indexed row per fact.
import { Type, type Static } from '@sinclair/typebox';
import { sql, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { compactReading, type ResultDigest } from '../../domain/result/digest.js';
import type { Db, InspectionFactsTable, Tables } from '../../ports/database.js';
import { Nullable } from '../../domain/schema.js';
import { decodeCursor, encodeCursor, pastKey } from '../keyset-pages.js';
import { InspectionSource, InspectionStatus } from '../inspections.js';
import { clientScope } from './access.js';
import type { PortalCaller } from './sessions.js';

export const PAGE_SIZE = 50;
const STATUSES: InspectionStatus[] = ['queued', 'processing', 'completed', 'failed'];

export interface InspectionSearch {
  /** Operators only: one client's inspections. */
  clientId?: string | undefined;
  caseId?: string | undefined;
  plate?: string | undefined;
  vin?: string | undefined;
  status?: InspectionStatus | undefined;
  /** Every one of these flags (blurry, edited, reused, plate_mismatch, no_vehicle, …). */
  flags?: string[] | undefined;
  /** `api`: uploads (files or URLs); `link`: submitted through an inspection link. */
  source?: 'api' | 'link' | undefined;
  /**
   * The review queue: `to_review` is analysed and without a decision (a review that only corrected
   * boxes leaves none); `accepted` and `rejected` are the latest review's decision.
   */
  review?: 'to_review' | 'accepted' | 'rejected' | undefined;
  /** Epoch ms, inclusive. */
  from?: number | undefined;
  /** Epoch ms, exclusive. */
  to?: number | undefined;
  /** The estimate's total, inclusive (in its currency). */
  minTotal?: number | undefined;
  maxTotal?: number | undefined;
  /** `newest` (default) or `total`: the highest estimate first (inspections without one left out). */
  sort?: 'newest' | 'total' | undefined;
  cursor?: string | undefined;
  limit?: number | undefined;
}

export const ListedInspection = Type.Object({
  id: Type.String(),
  client_id: Type.String(),
  client_name: Type.String(),
  case_id: Type.String(),
  status: InspectionStatus,
  source: InspectionSource,
  created_at: Type.String({ format: 'date-time' }),
  plate: Nullable(Type.String({ description: 'The plate read, when one was.' })),
  vin: Nullable(Type.String()),
  flags: Type.Array(Type.String()),
  media_count: Type.Integer(),
  damages: Type.Integer(),
  has_thumbnail: Type.Boolean(),
  review_decision: Nullable(Type.Union([Type.Literal('accepted'), Type.Literal('rejected')])),
  estimate: Nullable(Type.Object({ total: Type.Number(), currency: Type.String() }), {
    description: "The repair estimate's total (docs/estimate.md); null before one.",
  }),
});
export type ListedInspection = Static<typeof ListedInspection>;

export const InspectionPage = Type.Object({
  items: Type.Array(ListedInspection),
  next_cursor: Nullable(
    Type.String({ description: 'Pass back as `cursor` for the next page; null on the last.' }),
  ),
  counts: Type.Record(InspectionStatus, Type.Integer(), {
    description: 'Inspections per status matching every filter but the status.',
  }),
});
export type InspectionPage = Static<typeof InspectionPage>;

/**
 * The query's rows: the inspections, or (when the search names a plate, VIN or flag) the leading fact
 * joined to its inspection, so that both databases read the facts' index in date order and stop at the
 * page's end instead of sorting every match (docs/portal.md#search).
 */
type Query = SelectQueryBuilder<Tables & { lead: InspectionFactsTable }, 'inspections' | 'lead', object>;

interface FactFilter {
  kind: 'flag' | 'plate' | 'vin';
  value: string;
  prefix: boolean;
}

/**
 * The two queries of a search: the page (newest first, one row more than asked, to know whether there is
 * a next page) and the count per status. Built apart so that the portal bench can show their plans.
 */
export function searchQueries(db: Db, caller: Pick<PortalCaller, 'clientId'>, search: InspectionSearch) {
  const limit = Math.min(Math.max(search.limit ?? PAGE_SIZE, 1), 200);
  const client = clientScope(caller, search.clientId);
  const [lead, ...others] = factFilters(search);
  const order =
    search.sort === 'total'
      ? { at: 'inspections.estimate_total_cents' as const, id: 'inspections.id' as const }
      : lead
        ? { at: 'lead.created_at' as const, id: 'lead.inspection_id' as const }
        : { at: 'inspections.created_at' as const, id: 'inspections.id' as const };
  const rows = (): Query => {
    if (!lead) return db.selectFrom('inspections');
    let q = db
      .selectFrom('inspection_facts as lead')
      .innerJoin('inspections', 'inspections.id', 'lead.inspection_id')
      .where('lead.kind', '=', lead.kind) as unknown as Query;
    if (client !== undefined) q = q.where('lead.client_id', '=', client);
    return q.where(
      lead.prefix ? startsWith('lead.value', lead.value) : sql<SqlBool>`lead.value = ${lead.value}`,
    );
  };
  const at = lead ? ('lead.created_at' as const) : ('inspections.created_at' as const);
  const filtered = () => narrow(rows(), client, search, at, others);

  let page = filtered()
    .innerJoin('clients', 'clients.id', 'inspections.client_id')
    .select([
      'inspections.id',
      'inspections.client_id',
      'clients.name as client_name',
      'inspections.case_id',
      'inspections.status',
      'inspections.source',
      'inspections.created_at',
      'inspections.digest',
      'inspections.review_decision',
      'inspections.estimate_total_cents',
    ])
    .orderBy(order.at, 'desc')
    .orderBy(order.id, 'desc')
    .limit(limit + 1);
  if (search.status) page = page.where('inspections.status', '=', search.status);
  if (search.cursor) page = page.where(pastKey(order, decodeCursor(search.cursor)));
  const counts = filtered()
    .select(['inspections.status', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('inspections.status');
  return { page, counts, limit };
}

/**
 * Flags found on many inspections: a search never reads the facts' index by one of these while it names
 * a rarer fact, because the leading fact's matches are read one by one and each other fact is probed.
 */
const COMMON_FLAGS = ['damage', 'blurry', 'picked_from_gallery', 'low_resolution', 'dark', 'overexposed'];
const commonness = (flag: string) => COMMON_FLAGS.indexOf(flag);

function factFilters(search: InspectionSearch): FactFilter[] {
  const facts: FactFilter[] = [];
  // A plate or VIN first: the most selective, so the one to read the index by.
  const plate = compactReading(search.plate ?? '');
  const vin = compactReading(search.vin ?? '');
  if (plate) facts.push({ kind: 'plate', value: plate, prefix: true });
  if (vin) facts.push({ kind: 'vin', value: vin, prefix: true });
  const flags = [...new Set(search.flags ?? [])].sort((a, b) => commonness(a) - commonness(b));
  for (const flag of flags) facts.push({ kind: 'flag', value: flag, prefix: false });
  return facts;
}

export async function searchInspections(
  db: Db,
  caller: PortalCaller,
  search: InspectionSearch,
): Promise<InspectionPage> {
  const queries = searchQueries(db, caller, search);
  const { limit } = queries;
  const [rows, counted] = await Promise.all([queries.page.execute(), queries.counts.execute()]);

  const counts = Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<InspectionStatus, number>;
  for (const row of counted) counts[row.status] = Number(row.n);
  const more = rows.length > limit;
  const items = rows.slice(0, limit).map((row): ListedInspection => {
    const digest = row.digest === null ? undefined : (JSON.parse(row.digest) as ResultDigest);
    return {
      id: row.id,
      client_id: row.client_id,
      client_name: row.client_name,
      case_id: row.case_id,
      status: row.status,
      source: row.source,
      created_at: new Date(row.created_at).toISOString(),
      plate: digest?.plate ?? null,
      vin: digest?.vin ?? null,
      flags: digest?.flags ?? [],
      media_count: digest?.media_count ?? 0,
      damages: digest?.damages ?? 0,
      has_thumbnail: Boolean(digest?.thumbnail_key),
      review_decision: row.review_decision,
      estimate: digest?.estimate ?? null,
    };
  });
  const last = rows.slice(0, limit).at(-1);
  const key = (row: NonNullable<typeof last>) =>
    search.sort === 'total'
      ? { at: Number(row.estimate_total_cents ?? 0), id: row.id }
      : { at: Number(row.created_at), id: row.id };
  return { items, next_cursor: more && last ? encodeCursor(key(last)) : null, counts };
}

/** Every filter but the status and the cursor; `at` is the creation time column the rows are read by. */
function narrow(
  query: Query,
  client: string | undefined,
  search: InspectionSearch,
  at: 'inspections.created_at' | 'lead.created_at',
  facts: FactFilter[],
): Query {
  let q = query;
  if (client !== undefined) q = q.where('inspections.client_id', '=', client);
  const caseId = search.caseId?.trim();
  if (caseId) q = q.where(startsWith('inspections.case_id', caseId));
  if (search.source === 'link') q = q.where('inspections.source', '=', 'link');
  if (search.source === 'api') q = q.where('inspections.source', 'in', ['urls', 'file']);
  if (search.review === 'to_review')
    q = q.where('inspections.review_decision', 'is', null).where('inspections.status', '=', 'completed');
  else if (search.review) q = q.where('inspections.review_decision', '=', search.review);
  if (search.from !== undefined) q = q.where(at, '>=', search.from);
  if (search.to !== undefined) q = q.where(at, '<', search.to);
  if (search.sort === 'total') q = q.where('inspections.estimate_total_cents', 'is not', null);
  if (search.minTotal !== undefined)
    q = q.where('inspections.estimate_total_cents', '>=', Math.round(search.minTotal * 100));
  if (search.maxTotal !== undefined)
    q = q.where('inspections.estimate_total_cents', '<=', Math.round(search.maxTotal * 100));
  // The facts beside the leading one (there are none without it): one probe each of the facts' primary
  // key (inspection, kind, value) per leading fact read.
  for (const fact of facts) {
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('inspection_facts as other')
          .select(sql`1`.as('one'))
          .whereRef('other.inspection_id', '=', 'lead.inspection_id')
          .where('other.kind', '=', fact.kind)
          .where(
            fact.prefix ? startsWith('other.value', fact.value) : sql<SqlBool>`other.value = ${fact.value}`,
          ),
      ),
    );
  }
  return q;
}

/**
 * `column` starts with `prefix`. The range lets either database answer from an index; the `substr`
 * keeps the answer exact whatever the column's collation (a linguistic one may sort `Ab1` between `AB`
 * and `AC`).
 */
function startsWith(column: string, prefix: string): RawBuilder<SqlBool> {
  const upper = prefix.slice(0, -1) + String.fromCodePoint(prefix.codePointAt(prefix.length - 1)! + 1);
  const ref = sql.ref(column);
  return sql<SqlBool>`(${ref} >= ${prefix} and ${ref} < ${upper} and substr(${ref}, 1, ${prefix.length}) = ${prefix})`;
}
