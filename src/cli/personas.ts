// walkaround personas create|update|list (README.md#operating-it, docs/api.md#personas)
import { CLI_ACTOR } from '../services/audit.js';
import fs from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import type { PersonaRow } from '../ports/database.js';
import {
  PHOTO_DIMENSION_MAX,
  PHOTO_DIMENSION_MIN,
  stepsFromJson,
  SUPPORTED_LANGUAGES,
  type Branding,
} from '../domain/personas.js';
import {
  createPersona,
  listPersonas,
  personaView,
  updatePersona,
  type PersonaSettings,
  type StepInput,
} from '../services/personas/manage.js';
import { print, table, withStorage } from './context.js';
import { oneOf, positiveInteger } from './options.js';

const personaLines = (p: PersonaRow): [string, string][] => [
  ['personaId', String(p.id)],
  ['client', p.client_id],
  ['name', p.name],
  ['kind', p.kind],
  ['language', p.language],
  [
    'steps',
    stepsFromJson(p.steps)
      .map((s) => s.id)
      .join(', '),
  ],
  ['gallery', p.allow_gallery === 1 ? 'allowed' : 'not allowed'],
  ['location', p.ask_location === 1 ? 'asked' : 'not asked'],
  ['max photo size', p.max_photo_dimension === null ? 'as captured' : `${p.max_photo_dimension} px`],
];

export function personasCommand(): Command {
  const personas = new Command('personas').description('manage capture flows (personaId of /superappToken)');

  withSettingOptions(
    personas
      .command('create')
      .description('create a persona from the built-in photo or video template; prints its id')
      .requiredOption('--client <id>', 'owning client id')
      .requiredOption('--kind <kind>', 'photo or video', oneOf('photo', 'video'))
      .option('--name <name>', "display name (default: the template's)")
      .option('--language <code>', `language of the flow (${SUPPORTED_LANGUAGES.join(', ')})`, 'en')
      .option('--json', 'print one JSON object'),
  ).action((o: SettingOptions & { client: string; kind: 'photo' | 'video'; json?: boolean }) =>
    withStorage(async (deps) => {
      const persona = await createPersona(
        deps,
        { clientId: o.client, kind: o.kind, ...settingsOf(o) },
        CLI_ACTOR,
      );
      print(o.json, personaView(persona), () =>
        ['Persona created.', table(personaLines(persona))].join('\n'),
      );
    }),
  );

  withSettingOptions(
    personas
      .command('update')
      .description('change settings of a persona')
      .argument('<personaId>', 'the persona id', positiveInteger)
      .option('--name <name>', 'display name')
      .option('--language <code>', `language of the flow (${SUPPORTED_LANGUAGES.join(', ')})`)
      .option('--json', 'print one JSON object'),
  ).action((id: number, o: SettingOptions & { json?: boolean }) =>
    withStorage(async (deps) => {
      const persona = await updatePersona(deps, { id }, settingsOf(o), CLI_ACTOR);
      if (!persona) throw new Error(`No persona with id ${id}`);
      print(o.json, personaView(persona), () =>
        ['Persona updated.', table(personaLines(persona))].join('\n'),
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
        print(o.json, { personas: rows.map(personaView) }, () =>
          rows.length === 0 ? 'No personas.' : rows.map((p) => table(personaLines(p))).join('\n\n'),
        );
      }),
    );
  return personas;
}

interface SettingOptions {
  name?: string;
  language?: string;
  steps?: StepInput[];
  videoMin?: number;
  videoMax?: number;
  brandName?: string;
  brandColour?: string;
  logoUrl?: string;
  allowGallery?: boolean;
  askLocation?: boolean;
  maxPhotoDimension?: number | 'none';
}

/** Adds the options shared by create and update (name and language each declare, with their defaults). */
function withSettingOptions(command: Command): Command {
  const shared = [
    new Option('--steps <file>', 'JSON file with the ordered capture steps').argParser(stepsFromFile),
    new Option('--video-min <seconds>', 'shortest video (video personas)').argParser(positiveInteger),
    new Option('--video-max <seconds>', 'longest video (video personas)').argParser(positiveInteger),
    new Option('--brand-name <name>', 'name shown in the capture app'),
    new Option('--brand-colour <#rrggbb>', 'main colour of the capture app'),
    new Option('--logo-url <https-url>', 'logo shown in the capture app'),
    new Option('--allow-gallery', 'the customer may pick photos or videos from the phone gallery'),
    new Option('--no-allow-gallery', 'live capture only (the default)'),
    new Option('--ask-location', "the capture app sends the customer's location with each capture"),
    new Option('--no-ask-location', 'no location (the default)'),
    new Option(
      '--max-photo-dimension <px|none>',
      `scale photos whose long side is larger (${PHOTO_DIMENSION_MIN} to ${PHOTO_DIMENSION_MAX}); none sends them as captured`,
    ).argParser(photoDimension),
  ];
  for (const option of shared) command.addOption(option);
  return command;
}

function settingsOf(o: SettingOptions): PersonaSettings {
  const branding: Branding = {
    ...(o.brandName !== undefined && { name: o.brandName }),
    ...(o.brandColour !== undefined && { colour: o.brandColour }),
    ...(o.logoUrl !== undefined && { logoUrl: o.logoUrl }),
  };
  return {
    ...(o.name !== undefined && { name: o.name }),
    ...(o.language !== undefined && { language: o.language }),
    ...(o.steps !== undefined && { steps: o.steps }),
    ...(o.videoMin !== undefined && { videoMinSeconds: o.videoMin }),
    ...(o.videoMax !== undefined && { videoMaxSeconds: o.videoMax }),
    ...(Object.keys(branding).length > 0 && { branding }),
    ...(o.allowGallery !== undefined && { allowGallery: o.allowGallery }),
    ...(o.askLocation !== undefined && { askLocation: o.askLocation }),
    ...(o.maxPhotoDimension !== undefined && {
      maxPhotoDimension: o.maxPhotoDimension === 'none' ? null : o.maxPhotoDimension,
    }),
  };
}

/**
 * A whole number of pixels, or `none` (kept as text: commander turns a parsed null into ''). The range
 * is the persona rule's, so the CLI and the API answer the same message.
 */
function photoDimension(value: string): number | 'none' {
  if (value === 'none') return value;
  if (!/^[0-9]{1,6}$/.test(value))
    throw new InvalidArgumentError('expected a whole number of pixels or none');
  return Number(value);
}

function stepsFromFile(file: string): StepInput[] {
  let steps: unknown;
  try {
    steps = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new InvalidArgumentError(`cannot read ${file}: ${(error as Error).message}`);
  }
  const valid = (step: unknown): step is StepInput => {
    const s = step as Partial<StepInput> | null;
    return (
      typeof s === 'object' &&
      s !== null &&
      typeof s.id === 'string' &&
      typeof s.label === 'string' &&
      typeof (s.instructions ?? '') === 'string' &&
      typeof (s.required ?? true) === 'boolean' &&
      typeof (s.accept_poor_quality ?? true) === 'boolean'
    );
  };
  if (!Array.isArray(steps) || !steps.every(valid))
    throw new InvalidArgumentError(
      'expected a JSON array of steps {id, label, instructions, required, overlay, accept_poor_quality}',
    );
  return steps.map((s) => ({
    id: s.id,
    label: s.label,
    instructions: s.instructions ?? '',
    required: s.required ?? true,
    overlay: s.overlay ?? s.id,
    accept_poor_quality: s.accept_poor_quality ?? true,
  }));
}
