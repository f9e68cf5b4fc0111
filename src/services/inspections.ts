// Reading inspections back (docs/api.md#inspections): a client sees its own inspections only.
import type { Db, InspectionRow, MediaRow } from '../ports/database.js';

export interface InspectionView {
  id: string;
  case_id: string;
  status: InspectionRow['status'];
  source: InspectionRow['source'];
  callback_url: string | null;
  agent_id: string | null;
  agent_name: string | null;
  email_id: string | null;
  input_metadata: Record<string, unknown> | null;
  original_pair_ids: string[] | null;
  created_at: string;
  updated_at: string;
  media: {
    id: string;
    position: number;
    kind: MediaRow['kind'];
    original_id: string | null;
    source_url: string | null;
    pair_index: number | null;
    pair_member: number | null;
    sha256: string;
    bytes: number;
    mime: string;
  }[];
  result: unknown;
}

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
    result: parse(row.result),
  };
}
