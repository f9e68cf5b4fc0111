// Personas: integer ids owned by a client, created from a built-in template.
import type { Db, PersonaRow } from '../adapters/db/schema.js';
import { SUPPORTED_LANGUAGES, templateFor, type Branding, type PersonaKind } from '../domain/personas.js';

export class PersonaInputError extends Error {
  override name = 'PersonaInputError';
}

export async function createPersona(
  deps: { db: Db; now: () => number },
  input: { clientId: string; kind: PersonaKind; name?: string; language?: string; branding?: Branding },
): Promise<PersonaRow> {
  const language = input.language ?? 'en';
  if (!(SUPPORTED_LANGUAGES as readonly string[]).includes(language)) {
    throw new PersonaInputError(`language must be one of ${SUPPORTED_LANGUAGES.join(', ')}`);
  }
  const client = await deps.db
    .selectFrom('clients')
    .select(['id', 'name'])
    .where('id', '=', input.clientId)
    .executeTakeFirst();
  if (!client) throw new PersonaInputError(`No client with id ${input.clientId}`);
  const template = templateFor(input.kind);
  return deps.db
    .insertInto('personas')
    .values({
      client_id: client.id,
      name: input.name ?? template.name,
      kind: input.kind,
      language,
      steps: JSON.stringify(template.steps),
      video_min_seconds: template.videoMinSeconds,
      video_max_seconds: template.videoMaxSeconds,
      branding: JSON.stringify(input.branding ?? { name: client.name }),
      created_at: deps.now(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function listPersonas(db: Db, clientId?: string): Promise<PersonaRow[]> {
  let query = db.selectFrom('personas').selectAll().orderBy('id');
  if (clientId !== undefined) query = query.where('client_id', '=', clientId);
  return query.execute();
}
