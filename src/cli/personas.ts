// walkaround personas create|list (D9)
import { Command } from 'commander';
import type { PersonaRow } from '../adapters/db/schema.js';
import { SUPPORTED_LANGUAGES, type CaptureStep } from '../domain/personas.js';
import { createPersona, listPersonas } from '../services/personas.js';
import { print, table, withStorage } from './context.js';
import { oneOf } from './options.js';

const personaJson = (p: PersonaRow) => ({
  id: p.id,
  client_id: p.client_id,
  name: p.name,
  kind: p.kind,
  language: p.language,
  steps: JSON.parse(p.steps) as CaptureStep[],
  video_min_seconds: p.video_min_seconds,
  video_max_seconds: p.video_max_seconds,
  branding: JSON.parse(p.branding) as object,
});

const personaLines = (p: PersonaRow): [string, string][] => [
  ['personaId', String(p.id)],
  ['client', p.client_id],
  ['name', p.name],
  ['kind', p.kind],
  ['language', p.language],
  ['steps', (JSON.parse(p.steps) as CaptureStep[]).map((s) => s.id).join(', ')],
];

export function personasCommand(): Command {
  const personas = new Command('personas').description('manage capture flows (personaId of /superappToken)');

  personas
    .command('create')
    .description('create a persona from the built-in photo or video template; prints its id')
    .requiredOption('--client <id>', 'owning client id')
    .requiredOption('--kind <kind>', 'photo or video', oneOf('photo', 'video'))
    .option('--name <name>', "display name (default: the template's)")
    .option('--language <code>', `language of the flow (${SUPPORTED_LANGUAGES.join(', ')})`, 'en')
    .option('--json', 'print one JSON object')
    .action(
      (o: { client: string; kind: 'photo' | 'video'; name?: string; language: string; json?: boolean }) =>
        withStorage(async (deps) => {
          const persona = await createPersona(deps, {
            clientId: o.client,
            kind: o.kind,
            language: o.language,
            ...(o.name !== undefined && { name: o.name }),
          });
          print(o.json, personaJson(persona), () =>
            ['Persona created.', table(personaLines(persona))].join('\n'),
          );
        }),
    );

  personas
    .command('list')
    .description('list personas')
    .option('--client <id>', "only this client's")
    .option('--json', 'print one JSON object')
    .action((o: { client?: string; json?: boolean }) =>
      withStorage(async (deps) => {
        const rows = await listPersonas(deps.db, o.client);
        print(o.json, { personas: rows.map(personaJson) }, () =>
          rows.length === 0 ? 'No personas.' : rows.map((p) => table(personaLines(p))).join('\n\n'),
        );
      }),
    );
  return personas;
}
