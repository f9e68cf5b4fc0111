// The persona editor of the portal's console (docs/portal.md#the-persona-editor): client admins manage
// their client's capture flows, operators any client's; client viewers read them only. Another client's
// persona answers NOT_FOUND, as if it did not exist. Each change writes one audit entry, in its
// transaction (in the services this calls).
import { Type, type Static } from '@sinclair/typebox';
import { AppError } from '../../domain/errors.js';
import {
  isSupportedLanguage,
  stepTextsIn,
  SUPPORTED_LANGUAGES,
  type CaptureStep,
  type PersonaKind,
} from '../../domain/personas.js';
import type { Db, PersonaRow } from '../../ports/database.js';
import type { JobQueue } from '../../ports/job-queue.js';
import type { AuditActor } from '../audit.js';
import { createTestLink, type TestLink } from '../links/test-link.js';
import { clientScope, requireChange } from '../portal/access.js';
import type { PortalCaller } from '../portal/sessions.js';
import { removePersonaLogo, uploadPersonaLogo, type LogoDeps } from './logos.js';
import {
  createPersona,
  getPersona,
  listPersonas,
  personaView,
  PersonaView,
  updatePersona,
  type PersonaSettings,
} from './manage.js';

/** A persona as the editor shows it: with its client's name, and template steps' words in every language. */
export const EditorPersona = Type.Composite([PersonaView, Type.Object({ client_name: Type.String() })]);
export type EditorPersona = Static<typeof EditorPersona>;

/** A persona in the editor's list. */
export const PersonaSummary = Type.Object({
  id: Type.Integer(),
  client_id: Type.String(),
  client_name: Type.String(),
  name: Type.String(),
  kind: Type.Union([Type.Literal('photo'), Type.Literal('video')]),
  language: Type.String(),
  steps: Type.Integer({ description: 'How many steps.' }),
});
export type PersonaSummary = Static<typeof PersonaSummary>;

type Deps = { db: Db; now: () => number };

/** The personas the caller may see: a client user their client's, an operator any (or one client's). */
export async function listPortalPersonas(
  db: Db,
  caller: PortalCaller,
  chosenClientId: string | undefined,
): Promise<PersonaSummary[]> {
  const rows = await listPersonas(db, clientScope(caller, chosenClientId));
  const clients = new Map(
    (await db.selectFrom('clients').select(['id', 'name']).execute()).map((c) => [c.id, c.name]),
  );
  return rows.map((row) => {
    const view = personaView(row);
    return {
      id: view.id,
      client_id: view.client_id,
      client_name: clients.get(view.client_id) ?? '',
      name: view.name,
      kind: view.kind,
      language: view.language,
      steps: view.steps.length,
    };
  });
}

/**
 * A new persona from the photo or video template, of the caller's own client (a client user), or of the
 * client an operator names (required). Another client's id, or one that does not exist, is NOT_FOUND.
 */
export async function createPortalPersona(
  deps: Deps,
  caller: PortalCaller,
  input: PersonaSettings & { kind: PersonaKind; clientId?: string | undefined },
  by: AuditActor,
): Promise<EditorPersona> {
  requireChange(caller);
  const { clientId: chosen, ...settings } = input;
  if (caller.clientId !== null && chosen !== undefined && chosen !== caller.clientId)
    throw new AppError('NOT_FOUND');
  const clientId = caller.clientId ?? chosen;
  if (clientId === undefined)
    throw new AppError('PERSONA_INVALID', { params: { reason: 'client_id is required' } });
  const exists = await deps.db
    .selectFrom('clients')
    .select('id')
    .where('id', '=', clientId)
    .executeTakeFirst();
  if (!exists) throw new AppError('NOT_FOUND');
  return editorView(deps.db, await createPersona(deps, { ...settings, clientId }, by));
}

/** A persona the caller sees. */
export async function portalPersona(db: Db, caller: PortalCaller, id: number): Promise<EditorPersona> {
  return editorView(db, found(await getPersona(db, scoped(caller, id))));
}

/** Changes a persona of the caller's (any setting left out keeps its value). */
export async function changePortalPersona(
  deps: Deps,
  caller: PortalCaller,
  id: number,
  settings: PersonaSettings,
  by: AuditActor,
): Promise<EditorPersona> {
  requireChange(caller);
  return editorView(deps.db, found(await updatePersona(deps, scoped(caller, id), settings, by)));
}

/** Sets a persona's logo from the uploaded image's bytes. */
export async function uploadPortalLogo(
  deps: LogoDeps,
  caller: PortalCaller,
  id: number,
  bytes: Buffer,
  by: AuditActor,
): Promise<EditorPersona> {
  requireChange(caller);
  return editorView(deps.db, found(await uploadPersonaLogo(deps, scoped(caller, id), bytes, by)));
}

/** Takes the logo off a persona's branding. */
export async function removePortalLogo(
  deps: Deps,
  caller: PortalCaller,
  id: number,
  by: AuditActor,
): Promise<EditorPersona> {
  requireChange(caller);
  return editorView(deps.db, found(await removePersonaLogo(deps, scoped(caller, id), by)));
}

/** A real link to the persona, to try it on a phone (shown once). */
export async function portalTestLink(
  deps: Deps & { queue: JobQueue; superappUrl: string },
  caller: PortalCaller,
  id: number,
  by: AuditActor,
): Promise<TestLink> {
  requireChange(caller);
  return found(await createTestLink(deps, scoped(caller, id), by));
}

/** The persona by id, limited to the caller's client unless they are an operator. */
const scoped = (caller: PortalCaller, id: number) => ({
  id,
  ...(caller.clientId !== null && { clientId: caller.clientId }),
});

function found<T>(value: T | undefined): T {
  if (value === undefined) throw new AppError('NOT_FOUND');
  return value;
}

async function editorView(db: Db, row: PersonaRow): Promise<EditorPersona> {
  const view = personaView(row);
  const client = await db
    .selectFrom('clients')
    .select('name')
    .where('id', '=', row.client_id)
    .executeTakeFirstOrThrow();
  return { ...view, steps: withTemplateWords(row, view.steps), client_name: client.name };
}

/**
 * Steps that are still a built-in template's get their words in every other language as translations, so
 * the editor shows (and on saving keeps) them; the stored persona is not changed by reading it.
 */
function withTemplateWords(persona: PersonaRow, steps: CaptureStep[]): CaptureStep[] {
  if (!isSupportedLanguage(persona.language)) return steps;
  const own = persona.language;
  return steps.map((step) => {
    const translations = { ...step.translations };
    for (const code of SUPPORTED_LANGUAGES) {
      if (code === own || translations[code]) continue;
      const words = stepTextsIn(persona.kind, step, code);
      if (words) translations[code] = words;
    }
    return Object.keys(translations).length === 0 ? step : { ...step, translations };
  });
}
