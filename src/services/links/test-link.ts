// The persona editor's "send me a test link" (docs/portal.md#the-persona-editor): a real link to the
// persona, made as POST /superappToken makes one (openLink), with its QR code, for the portal user to
// open on their own phone. It is a link like any other: opening and submitting it sends the client's
// link and inspection webhooks, and its inspection is listed with the case id `test-persona-<id>`.
//
// The token is a secret: it is in the answer and nowhere else (the audit entry names the link by id).
import encodeQR from 'qr';
import { inTransaction, type Db } from '../../ports/database.js';
import type { JobQueue } from '../../ports/job-queue.js';
import { recordAudit, type AuditActor } from '../audit.js';
import { getPersona } from '../personas/manage.js';
import { openLink } from './create-link.js';

export interface TestLink {
  link_id: string;
  url: string;
  case_id: string;
  expires_at: string;
  /** The URL as a QR code, an SVG image (black modules, no background). */
  qr_svg: string;
}

/** A new link to the caller's persona; undefined when they have no such persona. */
export async function createTestLink(
  deps: { db: Db; queue: JobQueue; now: () => number; superappUrl: string },
  where: { id: number; clientId?: string | undefined },
  by: AuditActor,
): Promise<TestLink | undefined> {
  const persona = await getPersona(deps.db, where);
  if (!persona) return undefined;
  const client = await deps.db
    .selectFrom('clients')
    .select(['id', 'link_ttl_seconds'])
    .where('id', '=', persona.client_id)
    .executeTakeFirstOrThrow();
  const now = deps.now();
  const caseId = `test-persona-${persona.id}`;
  const created = await inTransaction(deps.db, async (trx) => {
    const opened = await openLink(trx, deps, {
      client,
      personaId: persona.id,
      caseId,
      inputMetaData: undefined,
      now,
    });
    await recordAudit(trx, now, {
      actor: by,
      action: 'link.create_test',
      object: { type: 'link', id: opened.link.id },
      clientId: client.id,
      after: {
        persona_id: persona.id,
        case_id: caseId,
        expires_at: new Date(opened.link.expires_at).toISOString(),
      },
    });
    return opened;
  });
  return {
    link_id: created.link.id,
    url: created.url,
    case_id: caseId,
    expires_at: new Date(created.link.expires_at).toISOString(),
    qr_svg: encodeQR(created.url, 'svg', { ecc: 'medium', border: 2 }),
  };
}
