// Personas (docs/api.md#personas): integer ids owned by a client, created from a built-in template in the
// persona's language and customisable: name, language, ordered capture steps, video length bounds,
// branding, and the capture options (gallery, location, photo size). Used by the CLI and the API.
import { Type, type Static } from '@sinclair/typebox';
import { AppError } from '../../domain/errors.js';
import { Nullable } from '../../domain/schema.js';
import { inTransaction, type Db, type PersonaRow, type PersonasTable } from '../../ports/database.js';
import { recordAudit, SYSTEM_ACTOR, type AuditActor } from '../audit.js';
import {
  isSupportedLanguage,
  isUploadedLogoPath,
  PHOTO_DIMENSION_MAX,
  PHOTO_DIMENSION_MIN,
  stepsFromJson,
  SUPPORTED_LANGUAGES,
  templateFor,
  translateStep,
  type Branding,
  type CaptureStep,
  type PersonaKind,
} from '../../domain/personas.js';

const Words = Type.Object(
  { label: Type.String({ minLength: 1, maxLength: 100 }), instructions: Type.String({ maxLength: 1000 }) },
  { additionalProperties: false },
);

/** A step as the API takes it: `accept_poor_quality` may be left out (default true). */
export const StepInput = Type.Object(
  {
    id: Type.String({ description: 'Lowercase letters, digits, `_` or `-`; unique in the persona.' }),
    label: Type.String({ minLength: 1, maxLength: 100 }),
    instructions: Type.String({ maxLength: 1000 }),
    required: Type.Boolean(),
    overlay: Type.String({ maxLength: 40, description: 'Framing overlay the capture app draws.' }),
    accept_poor_quality: Type.Optional(
      Type.Boolean({
        description:
          'Whether the customer may keep a photo that fails the quality pre-check (default true); false makes them retake it.',
      }),
    ),
    translations: Type.Optional(
      Type.Partial(Type.Object(Object.fromEntries(SUPPORTED_LANGUAGES.map((code) => [code, Words]))), {
        additionalProperties: false,
        description:
          "The step's label and instructions in other languages: when the persona's language changes to one of them, they become the step's own.",
      }),
    ),
  },
  { additionalProperties: false },
);
export type StepInput = Static<typeof StepInput>;

/** What may be set on a persona; anything absent keeps its template (or current) value. */
export interface PersonaSettings {
  name?: string;
  language?: string;
  steps?: StepInput[];
  videoMinSeconds?: number | null;
  videoMaxSeconds?: number | null;
  branding?: Branding;
  allowGallery?: boolean;
  askLocation?: boolean;
  maxPhotoDimension?: number | null;
}

const CaptureOptions = {
  allow_gallery: Type.Boolean({ description: "The customer may pick media from the phone's gallery." }),
  ask_location: Type.Boolean({
    description: "The capture app sends the customer's location with each capture.",
  }),
  max_photo_dimension: Nullable(
    Type.Integer({ description: 'Photos are scaled so their long side is at most this; null: as captured.' }),
  ),
};
export const CaptureOptionsView = Type.Object(CaptureOptions);

/** The capture options of a persona, as the API, the CLI and the capture app's flow show them. */
export const captureOptionsView = (p: PersonaRow): Static<typeof CaptureOptionsView> => ({
  allow_gallery: p.allow_gallery === 1,
  ask_location: p.ask_location === 1,
  max_photo_dimension: p.max_photo_dimension,
});

export const StepTexts = Type.Object({ label: Type.String(), instructions: Type.String() });
/** A step's words in the persona's other languages, swapped in when the persona's language changes. */
export const StepTranslations = Type.Partial(
  Type.Object(Object.fromEntries(SUPPORTED_LANGUAGES.map((code) => [code, StepTexts]))),
  {
    description:
      "The step's label and instructions in other languages than the persona's, used when its language changes to one of them.",
  },
);

export const StepView = Type.Object({
  id: Type.String(),
  label: Type.String(),
  instructions: Type.String(),
  required: Type.Boolean(),
  overlay: Type.String({ description: 'Framing overlay the capture app draws.' }),
  accept_poor_quality: Type.Boolean(),
  translations: Type.Optional(StepTranslations),
});

export const BrandingView = Type.Object({
  name: Type.Optional(Type.String()),
  colour: Type.Optional(Type.String({ description: '`#rrggbb`' })),
  logoUrl: Type.Optional(Type.String()),
});

/** A persona as the API and `--json` show it. */
export const PersonaView = Type.Object({
  id: Type.Integer({ description: 'The `personaId` of /superappToken.' }),
  client_id: Type.String(),
  name: Type.String(),
  kind: Type.Union([Type.Literal('photo'), Type.Literal('video')]),
  language: Type.String(),
  steps: Type.Array(StepView),
  video_min_seconds: Nullable(Type.Integer()),
  video_max_seconds: Nullable(Type.Integer()),
  branding: BrandingView,
  ...CaptureOptions,
});
export type PersonaView = Static<typeof PersonaView>;

export const personaView = (p: PersonaRow): PersonaView => ({
  id: p.id,
  client_id: p.client_id,
  name: p.name,
  kind: p.kind,
  language: p.language,
  steps: stepsFromJson(p.steps),
  video_min_seconds: p.video_min_seconds,
  video_max_seconds: p.video_max_seconds,
  branding: JSON.parse(p.branding) as Branding,
  ...captureOptionsView(p),
});

const personaObject = (id: number) => ({ type: 'persona', id: String(id) });

export async function createPersona(
  deps: { db: Db; now: () => number },
  input: PersonaSettings & { clientId: string; kind: PersonaKind },
  by: AuditActor = SYSTEM_ACTOR,
): Promise<PersonaRow> {
  const client = await deps.db
    .selectFrom('clients')
    .select(['id', 'name'])
    .where('id', '=', input.clientId)
    .executeTakeFirst();
  if (!client) throw new AppError('CLIENT_NOT_FOUND', { params: { id: input.clientId } });
  const language = input.language ?? 'en';
  // An unknown language is refused by the checks below; the template only needs words meanwhile.
  const template = templateFor(input.kind, isSupportedLanguage(language) ? language : 'en');
  const values = checked(input.kind, {
    name: input.name ?? template.name,
    language,
    steps: input.steps ?? template.steps,
    videoMinSeconds: input.videoMinSeconds === undefined ? template.videoMinSeconds : input.videoMinSeconds,
    videoMaxSeconds: input.videoMaxSeconds === undefined ? template.videoMaxSeconds : input.videoMaxSeconds,
    branding: input.branding ?? { name: client.name },
    allowGallery: input.allowGallery ?? false,
    askLocation: input.askLocation ?? false,
    maxPhotoDimension: input.maxPhotoDimension ?? null,
  });
  const now = deps.now();
  return inTransaction(deps.db, async (trx) => {
    const row = await trx
      .insertInto('personas')
      .values({ client_id: client.id, kind: input.kind, created_at: now, ...values })
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, now, {
      actor: by,
      action: 'persona.create',
      object: personaObject(row.id),
      clientId: row.client_id,
      after: personaView(row),
    });
    return row;
  });
}

/**
 * Changes the given settings of the client's persona; undefined when it has no such persona. A new
 * language alone also translates what is still exactly a template: the steps, and the name (steps or a
 * name given with it win).
 */
export async function updatePersona(
  deps: { db: Db; now: () => number },
  where: { id: number; clientId?: string },
  input: PersonaSettings,
  by: AuditActor,
): Promise<PersonaRow | undefined> {
  const current = await getPersona(deps.db, where);
  if (!current) return undefined;
  const translated = translatedTemplate(current, input.language);
  const values = checked(current.kind, {
    name: input.name ?? translated?.name ?? current.name,
    language: input.language ?? current.language,
    steps: input.steps ?? translated?.steps ?? stepsFromJson(current.steps),
    videoMinSeconds: input.videoMinSeconds === undefined ? current.video_min_seconds : input.videoMinSeconds,
    videoMaxSeconds: input.videoMaxSeconds === undefined ? current.video_max_seconds : input.videoMaxSeconds,
    branding: { ...(JSON.parse(current.branding) as Branding), ...input.branding },
    allowGallery: input.allowGallery ?? current.allow_gallery === 1,
    askLocation: input.askLocation ?? current.ask_location === 1,
    maxPhotoDimension:
      input.maxPhotoDimension === undefined ? current.max_photo_dimension : input.maxPhotoDimension,
  });
  return inTransaction(deps.db, async (trx) => {
    const row = await trx
      .updateTable('personas')
      .set(values)
      .where('id', '=', current.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, deps.now(), {
      actor: by,
      action: 'persona.update',
      object: personaObject(row.id),
      clientId: row.client_id,
      before: personaView(current),
      after: personaView(row),
    });
    return row;
  });
}

/**
 * What replaces the persona's own words when only its language changes: each step's words in the new
 * language (its own translation, or its template's while it is still exactly a built-in template step),
 * and the name while it is a template's. Any language's template counts, not only the persona's: personas
 * made before the templates were translated hold the English one whatever their language. Undefined when
 * the language does not change.
 */
function translatedTemplate(
  current: PersonaRow,
  language: string | undefined,
): { steps?: CaptureStep[]; name?: string } | undefined {
  if (
    language === undefined ||
    language === current.language ||
    !isSupportedLanguage(language) ||
    !isSupportedLanguage(current.language)
  )
    return undefined;
  const from = current.language;
  const templates = SUPPORTED_LANGUAGES.map((code) => templateFor(current.kind, code));
  const steps = stepsFromJson(current.steps).map((step) => translateStep(current.kind, step, from, language));
  const to = templateFor(current.kind, language);
  return {
    steps,
    ...(templates.some((t) => t.name === current.name) && { name: to.name }),
  };
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

/**
 * The step's translations worth keeping: none into the persona's own language (that is its label and
 * instructions), and no field at all when nothing is left, so steps without translations stay as they were.
 */
function translationsOf(step: StepInput, language: string): Pick<CaptureStep, 'translations'> {
  const kept: [string, Static<typeof StepTexts>][] = [];
  for (const [code, texts] of Object.entries(step.translations ?? {}))
    if (texts && code !== language)
      kept.push([code, { label: texts.label, instructions: texts.instructions }]);
  return kept.length === 0 ? {} : { translations: Object.fromEntries(kept) };
}

/** The columns of a persona whose settings all hold; throws PERSONA_INVALID naming the first bad one. */
function checked(
  kind: PersonaKind,
  s: Required<PersonaSettings>,
): Pick<
  PersonasTable,
  | 'name'
  | 'language'
  | 'steps'
  | 'video_min_seconds'
  | 'video_max_seconds'
  | 'branding'
  | 'allow_gallery'
  | 'ask_location'
  | 'max_photo_dimension'
> {
  const fail = (message: string) => {
    throw new AppError('PERSONA_INVALID', { params: { reason: message } });
  };
  if (s.name.trim() === '' || s.name.length > 200) fail('name must be 1 to 200 characters');
  if (!isSupportedLanguage(s.language)) fail(`language must be one of ${SUPPORTED_LANGUAGES.join(', ')}`);
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
    if (step.accept_poor_quality !== undefined && typeof step.accept_poor_quality !== 'boolean')
      fail(`step "${step.id}" accept_poor_quality must be true or false`);
    for (const [code, texts] of Object.entries(step.translations ?? {})) {
      if (!texts) continue;
      if (!isSupportedLanguage(code))
        fail(`step "${step.id}" has a translation to an unknown language "${code}"`);
      if (texts.label.trim() === '' || texts.label.length > 100 || texts.instructions.length > 1000)
        fail(
          `step "${step.id}" ${code} words need a label of at most 100 characters and instructions of at most 1000`,
        );
    }
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
  if (
    s.branding.logoUrl !== undefined &&
    !/^https:\/\/\S+$/.test(s.branding.logoUrl) &&
    !isUploadedLogoPath(s.branding.logoUrl)
  )
    // An uploaded logo's path is set by the portal (personas/logos.ts), never typed: the message names URLs.
    fail('branding logo must be an https:// URL');
  if (typeof s.allowGallery !== 'boolean') fail('allow_gallery must be true or false');
  if (typeof s.askLocation !== 'boolean') fail('ask_location must be true or false');
  const dimension = s.maxPhotoDimension;
  if (
    dimension !== null &&
    !(Number.isInteger(dimension) && dimension >= PHOTO_DIMENSION_MIN && dimension <= PHOTO_DIMENSION_MAX)
  )
    fail(
      `max_photo_dimension must be a whole number of pixels from ${PHOTO_DIMENSION_MIN} to ${PHOTO_DIMENSION_MAX}, or null`,
    );
  const steps: CaptureStep[] = s.steps.map((step) => ({
    id: step.id,
    label: step.label,
    instructions: step.instructions,
    required: step.required,
    overlay: step.overlay,
    accept_poor_quality: step.accept_poor_quality ?? true,
    ...translationsOf(step, s.language),
  }));
  return {
    name: s.name.trim(),
    language: s.language,
    steps: JSON.stringify(steps),
    video_min_seconds: kind === 'video' ? s.videoMinSeconds : null,
    video_max_seconds: kind === 'video' ? s.videoMaxSeconds : null,
    branding: JSON.stringify(s.branding),
    allow_gallery: s.allowGallery ? 1 : 0,
    ask_location: s.askLocation ? 1 : 0,
    // Videos are sent as recorded: the photo size cap means nothing to a video persona.
    max_photo_dimension: kind === 'photo' ? dimension : null,
  };
}
