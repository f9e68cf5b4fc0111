// Persona logos uploaded in the portal (docs/portal.md#the-persona-editor). The image is decoded and
// written again as a PNG of at most 1024 × 512 pixels: what is served is always an image we wrote (no
// SVG scripts, no EXIF, no decoder surprises for the phone), small enough for the capture app's header.
// It is stored in media storage under its content address and recorded in persona_logos, the only
// objects the public logo route serves; the persona's `branding.logoUrl` becomes its path
// (`/app/api/logos/<sha256>.png`), which the capture app loads from its own origin.
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { AppError } from '../../domain/errors.js';
import { uploadedLogoPath, type Branding } from '../../domain/personas.js';
import { inTransaction, type Db, type PersonaRow } from '../../ports/database.js';
import type { MediaStorage } from '../../ports/media-storage.js';
import { recordAudit, type AuditActor } from '../audit.js';
import { getPersona, personaView } from './manage.js';

/** Largest logo file accepted: a logo is a few kilobytes; this leaves room for a large photo-like PNG. */
export const LOGO_MAX_BYTES = 2 * 1024 * 1024;
/** The formats a logo may be sent in (as sharp names them). */
const LOGO_FORMATS = new Set(['png', 'jpeg', 'webp']);
export const LOGO_MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
/** Decoding stops above this many pixels (a small file can claim a huge image). */
const LOGO_MAX_INPUT_PIXELS = 40_000_000;
const LOGO_BOX = { width: 1024, height: 512 };

export interface LogoDeps {
  db: Db;
  storage: MediaStorage;
  now: () => number;
}

/** The PNG we store for the uploaded bytes; PERSONA_LOGO_INVALID when they are not a PNG, JPEG or WebP image. */
async function normalisedLogo(bytes: Buffer): Promise<Buffer> {
  const invalid = () => new AppError('PERSONA_LOGO_INVALID');
  if (bytes.length > LOGO_MAX_BYTES) throw new AppError('PERSONA_LOGO_TOO_LARGE');
  try {
    const image = sharp(bytes, { limitInputPixels: LOGO_MAX_INPUT_PIXELS, failOn: 'error' });
    const { format } = await image.metadata();
    if (!format || !LOGO_FORMATS.has(format)) throw invalid();
    return await image
      .rotate()
      .resize({ ...LOGO_BOX, fit: 'inside', withoutEnlargement: true })
      .png({ compressionLevel: 9 })
      .toBuffer();
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw invalid();
  }
}

/**
 * Stores `bytes` as the logo of the caller's persona and points its branding at it, with one audit entry
 * (`persona.logo`, the branding before and after); undefined when there is no such persona. The object is
 * written before the transaction (storage is not transactional): a failed transaction leaves at most an
 * unreferenced object, never a persona pointing at a missing one.
 */
export async function uploadPersonaLogo(
  deps: LogoDeps,
  where: { id: number; clientId?: string | undefined },
  bytes: Buffer,
  by: AuditActor,
): Promise<PersonaRow | undefined> {
  const current = await getPersona(deps.db, where);
  if (!current) return undefined;
  const png = await normalisedLogo(bytes);
  const stored = await deps.storage.put(Readable.from([png]));
  const now = deps.now();
  return inTransaction(deps.db, async (trx) => {
    await trx
      .insertInto('persona_logos')
      .values({
        sha256: stored.sha256,
        storage_key: stored.key,
        bytes: stored.bytes,
        client_id: current.client_id,
        created_at: now,
      })
      .onConflict((oc) => oc.column('sha256').doNothing())
      .execute();
    return setLogo(trx, now, current, uploadedLogoPath(stored.sha256), by);
  });
}

/** Takes the logo off the persona's branding (the capture app then shows the name alone). */
export async function removePersonaLogo(
  deps: Pick<LogoDeps, 'db' | 'now'>,
  where: { id: number; clientId?: string | undefined },
  by: AuditActor,
): Promise<PersonaRow | undefined> {
  const current = await getPersona(deps.db, where);
  if (!current) return undefined;
  return inTransaction(deps.db, (trx) => setLogo(trx, deps.now(), current, undefined, by));
}

async function setLogo(
  trx: Db,
  now: number,
  current: PersonaRow,
  logoUrl: string | undefined,
  by: AuditActor,
): Promise<PersonaRow> {
  const { logoUrl: _previous, ...rest } = JSON.parse(current.branding) as Branding;
  const branding: Branding = { ...rest, ...(logoUrl !== undefined && { logoUrl }) };
  const row = await trx
    .updateTable('personas')
    .set({ branding: JSON.stringify(branding) })
    .where('id', '=', current.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await recordAudit(trx, now, {
    actor: by,
    action: 'persona.logo',
    object: { type: 'persona', id: String(row.id) },
    clientId: row.client_id,
    before: { branding: personaView(current).branding },
    after: { branding: personaView(row).branding },
  });
  return row;
}

/** The stored object of an uploaded logo, by its SHA-256; undefined for anything that is not one. */
export async function uploadedLogo(
  db: Db,
  sha256: string,
): Promise<{ storage_key: string; bytes: number } | undefined> {
  return db
    .selectFrom('persona_logos')
    .select(['storage_key', 'bytes'])
    .where('sha256', '=', sha256)
    .executeTakeFirst();
}
