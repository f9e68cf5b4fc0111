// Reading inspections back (docs/api.md#inspections): a client sees its own inspections only.
import { Type, type Static } from '@sinclair/typebox';
import { ResultBody } from '../domain/result/index.js';
import { Nullable } from '../domain/schema.js';
import type { Db } from '../ports/database.js';

export const InspectionStatus = Type.Union([
  Type.Literal('queued'),
  Type.Literal('processing'),
  Type.Literal('completed'),
  Type.Literal('failed'),
]);
export type InspectionStatus = Static<typeof InspectionStatus>;
export const InspectionSource = Type.Union([
  Type.Literal('urls'),
  Type.Literal('file'),
  Type.Literal('link'),
]);

/** What `GET /api/inspections/{session}` answers (docs/api.md#inspections). */
export const InspectionView = Type.Object({
  id: Type.String({ description: 'The session the upload used (or the link id).' }),
  case_id: Type.String(),
  status: InspectionStatus,
  source: InspectionSource,
  callback_url: Nullable(Type.String()),
  agent_id: Nullable(Type.String()),
  agent_name: Nullable(Type.String()),
  email_id: Nullable(Type.String()),
  input_metadata: Nullable(Type.Record(Type.String(), Type.Unknown())),
  original_pair_ids: Nullable(Type.Array(Type.String())),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
  media: Type.Array(
    Type.Object({
      id: Type.String(),
      position: Type.Integer(),
      kind: Type.Union([Type.Literal('image'), Type.Literal('video')]),
      original_id: Nullable(Type.String()),
      source_url: Nullable(Type.String()),
      pair_index: Nullable(Type.Integer()),
      pair_member: Nullable(Type.Integer()),
      sha256: Type.String(),
      bytes: Type.Integer(),
      mime: Type.String(),
    }),
  ),
  result: Nullable(ResultBody),
});
export type InspectionView = Static<typeof InspectionView>;

/** The inspection with its media, when it belongs to `clientId`; undefined otherwise. */
export async function getInspection(
  db: Db,
  clientId: string,
  id: string,
): Promise<InspectionView | undefined> {
  const row = await db
    .selectFrom('inspections')
    .selectAll()
    .where('id', '=', id)
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  if (!row) return undefined;
  const media = await db
    .selectFrom('media')
    .selectAll()
    .where('inspection_id', '=', id)
    .where('client_id', '=', clientId)
    .orderBy('position')
    .execute();
  const parse = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));
  return {
    id: row.id,
    case_id: row.case_id,
    status: row.status,
    source: row.source,
    callback_url: row.callback_url,
    agent_id: row.agent_id,
    agent_name: row.agent_name,
    email_id: row.email_id,
    input_metadata: parse(row.input_metadata),
    original_pair_ids: parse(row.original_pair_ids),
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
    media: media.map((m) => ({
      id: m.id,
      position: m.position,
      kind: m.kind,
      original_id: m.original_id,
      source_url: m.source_url,
      pair_index: m.pair_index,
      pair_member: m.pair_member,
      sha256: m.sha256,
      bytes: m.bytes,
      mime: m.mime,
    })),
    result: parse<InspectionView['result']>(row.result),
  };
}
