// Personas (docs/api.md#personas): integer ids owned by a client, created from a built-in template and
// customisable: name, language, ordered capture steps, video length bounds, branding. Used by the CLI
// and the API.
import { AppError } from '../domain/errors.js';
import type { Db, PersonaRow, PersonasTable } from '../ports/database.js';
import {
  SUPPORTED_LANGUAGES,
  templateFor,
  type Branding,
  type CaptureStep,
  type PersonaKind,
} from '../domain/personas.js';

/** What may be set on a persona; anything absent keeps its template (or current) value. */
export interface PersonaSettings {
  name?: string;
  language?: string;
  steps?: CaptureStep[];
  videoMinSeconds?: number | null;
  videoMaxSeconds?: number | null;
  branding?: Branding;
}

/** A persona as the API and `--json` show it. */
export const personaView = (p: PersonaRow) => ({
  id: p.id,
  client_id: p.client_id,
  name: p.name,
  kind: p.kind,
  language: p.language,
  steps: JSON.parse(p.steps) as CaptureStep[],
  video_min_seconds: p.video_min_seconds,
  video_max_seconds: p.video_max_seconds,
  branding: JSON.parse(p.branding) as Branding,
});

export async function createPersona(
  deps: { db: Db; now: () => number },
  input: PersonaSettings & { clientId: string; kind: PersonaKind },
): Promise<PersonaRow> {
  const client = await deps.db
    .selectFrom('clients')
    .select(['id', 'name'])
    .where('id', '=', input.clientId)
    .executeTakeFirst();
  if (!client) throw new AppError('CLIENT_NOT_FOUND', { params: { id: input.clientId } });
  const template = templateFor(input.kind);
  const values = checked(input.kind, {
    name: input.name ?? template.name,
    language: input.language ?? 'en',
    steps: input.steps ?? template.steps,
    videoMinSeconds: input.videoMinSeconds === undefined ? template.videoMinSeconds : input.videoMinSeconds,
    videoMaxSeconds: input.videoMaxSeconds === undefined ? template.videoMaxSeconds : input.videoMaxSeconds,
    branding: input.branding ?? { name: client.name },
  });
  return deps.db
    .insertInto('personas')
    .values({ client_id: client.id, kind: input.kind, created_at: deps.now(), ...values })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Changes the given settings of the client's persona; undefined when it has no such persona. */
export async function updatePersona(
  db: Db,
  where: { id: number; clientId?: string },
  input: PersonaSettings,
): Promise<PersonaRow | undefined> {
  const current = await getPersona(db, where);
  if (!current) return undefined;
  const values = checked(current.kind, {
    name: input.name ?? current.name,
    language: input.language ?? current.language,
    steps: input.steps ?? (JSON.parse(current.steps) as CaptureStep[]),
    videoMinSeconds: input.videoMinSeconds === undefined ? current.video_min_seconds : input.videoMinSeconds,
    videoMaxSeconds: input.videoMaxSeconds === undefined ? current.video_max_seconds : input.videoMaxSeconds,
    branding: { ...(JSON.parse(current.branding) as Branding), ...input.branding },
  });
  return db
    .updateTable('personas')
    .set(values)
    .where('id', '=', current.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function getPersona(db: Db, where: { id: number; clientId?: string | undefined }) {
  let query = db.selectFrom('personas').selectAll().where('id', '=', where.id);
  if (where.clientId !== undefined) query = query.where('client_id', '=', where.clientId);
  return query.executeTakeFirst();
}

export async function listPersonas(db: Db, clientId?: string): Promise<PersonaRow[]> {
  let query = db.selectFrom('personas').selectAll().orderBy('id');
  if (clientId !== undefined) query = query.where('client_id', '=', clientId);
  return query.execute();
}

const STEP_ID = /^[a-z0-9][a-z0-9_-]{0,39}$/;
const COLOUR = /^#[0-9a-fA-F]{6}$/;
/** Longest walk-around video a persona may ask for; the upload limit (100 MB) bounds it anyway. */
const VIDEO_MAX_SECONDS = 600;

/** The columns of a persona whose settings all hold; throws PERSONA_INVALID naming the first bad one. */
function checked(
  kind: PersonaKind,
  s: Required<PersonaSettings>,
): Pick<
  PersonasTable,
  'name' | 'language' | 'steps' | 'video_min_seconds' | 'video_max_seconds' | 'branding'
> {
  const fail = (message: string) => {
    throw new AppError('PERSONA_INVALID', { params: { reason: message } });
  };
  if (s.name.trim() === '' || s.name.length > 200) fail('name must be 1 to 200 characters');
  if (!(SUPPORTED_LANGUAGES as readonly string[]).includes(s.language))
    fail(`language must be one of ${SUPPORTED_LANGUAGES.join(', ')}`);
  if (s.steps.length === 0 || s.steps.length > 50) fail('steps must hold 1 to 50 steps');
  const ids = new Set<string>();
  for (const step of s.steps) {
    if (!STEP_ID.test(step.id))
      fail(`step id "${step.id}" must be lowercase letters, digits, _ or -, at most 40`);
    if (ids.has(step.id)) fail(`step id "${step.id}" appears twice`);
    ids.add(step.id);
    if (step.label.trim() === '' || step.label.length > 100)
      fail(`step "${step.id}" needs a label of at most 100 characters`);
    if (typeof step.instructions !== 'string' || step.instructions.length > 1000)
      fail(`step "${step.id}" instructions must be text of at most 1000 characters`);
    if (typeof step.overlay !== 'string' || step.overlay.length > 40)
      fail(`step "${step.id}" overlay must be a name of at most 40 characters`);
    if (typeof step.required !== 'boolean') fail(`step "${step.id}" required must be true or false`);
  }
  if (!s.steps.some((step) => step.required)) fail('at least one step must be required');
  if (kind === 'video') {
    const min = s.videoMinSeconds ?? 1;
    const max = s.videoMaxSeconds ?? VIDEO_MAX_SECONDS;
    if (!(
      Number.isInteger(min) &&
      Number.isInteger(max) &&
      min >= 1 &&
      min <= max &&
      max <= VIDEO_MAX_SECONDS
    ))
      fail(`video length bounds must be whole seconds with 1 <= min <= max <= ${VIDEO_MAX_SECONDS}`);
  }
  if (s.branding.colour !== undefined && !COLOUR.test(s.branding.colour))
    fail('branding colour must look like #1a2b3c');
  if (s.branding.logoUrl !== undefined && !/^https:\/\/\S+$/.test(s.branding.logoUrl))
    fail('branding logo must be an https:// URL');
  return {
    name: s.name.trim(),
    language: s.language,
    steps: JSON.stringify(s.steps),
    video_min_seconds: kind === 'video' ? s.videoMinSeconds : null,
    video_max_seconds: kind === 'video' ? s.videoMaxSeconds : null,
    branding: JSON.stringify(s.branding),
  };
}
