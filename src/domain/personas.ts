// Personas (docs/api.md#personas): the capture flow a link opens. The built-in templates give a sensible flow
// without any set-up, in each supported language; clients may later customise steps, language, branding
// and the capture options (gallery, location, photo size).
import { TEMPLATE_TEXTS, type StepTexts } from './persona-templates.js';

export type { StepTexts };

export type PersonaKind = 'photo' | 'video';

/** The capture app speaks the same languages (web/capture/src/i18n/index.ts). */
export const SUPPORTED_LANGUAGES = [
  'en',
  'fr',
  'de',
  'es',
  'it',
  'pt',
  'nl',
  'pl',
  'tr',
  'ar',
  'hi',
  'ja',
] as const;
export type PersonaLanguage = (typeof SUPPORTED_LANGUAGES)[number];

export const isSupportedLanguage = (language: string): language is PersonaLanguage =>
  (SUPPORTED_LANGUAGES as readonly string[]).includes(language);

export interface CaptureStep {
  id: string;
  label: string;
  instructions: string;
  required: boolean;
  /** Name of the framing overlay the capture app draws. */
  overlay: string;
  /** Whether the customer may keep a photo that fails the quality pre-check; false makes them retake it. */
  accept_poor_quality: boolean;
  /**
   * The step's label and instructions in languages other than the persona's, kept so that a change of
   * the persona's language can swap them in (`label` and `instructions` are always the persona's own).
   */
  translations?: Partial<Record<PersonaLanguage, StepTexts>>;
}

export interface Branding {
  name?: string;
  colour?: string;
  /** An https URL, or the path of a logo uploaded to this service ({@link uploadedLogoPath}). */
  logoUrl?: string;
}

/**
 * Where the service serves an uploaded logo, by the SHA-256 of its stored PNG: a path on the service's
 * own origin (the capture app and the portal are served from it), so it holds wherever the service is
 * reached, and content-addressed, so it never changes and may be cached for good.
 */
export const uploadedLogoPath = (sha256: string): string => `/app/api/logos/${sha256}.png`;

export const isUploadedLogoPath = (value: string): boolean =>
  /^\/app\/api\/logos\/[0-9a-f]{64}\.png$/.test(value);

/**
 * Bounds of `max_photo_dimension`, the long side the capture app scales larger photos down to: under
 * 640 px the quality check's resolution rule (720 px short side) could never pass; 8192 px is above
 * every phone camera's long side, so a larger cap would never apply.
 */
export const PHOTO_DIMENSION_MIN = 640;
export const PHOTO_DIMENSION_MAX = 8192;

export interface PersonaTemplate {
  name: string;
  kind: PersonaKind;
  steps: CaptureStep[];
  videoMinSeconds: number | null;
  videoMaxSeconds: number | null;
}

/** The ids of the photo template's steps, in order; each is also its overlay's name. */
export const PHOTO_STEP_IDS = [
  'front',
  'front_right',
  'right',
  'rear_right',
  'rear',
  'rear_left',
  'left',
  'front_left',
  'odometer',
  'vin',
  'plate',
] as const;
export type PhotoStepId = (typeof PHOTO_STEP_IDS)[number];

const templateStep = (id: string, texts: StepTexts): CaptureStep => ({
  id,
  label: texts.label,
  instructions: texts.instructions,
  required: true,
  overlay: id,
  accept_poor_quality: true,
});

/** The built-in template of `kind`, with its name, labels and instructions in `language`. */
export function templateFor(kind: PersonaKind, language: PersonaLanguage = 'en'): PersonaTemplate {
  const texts = TEMPLATE_TEXTS[language];
  if (kind === 'photo')
    return {
      name: texts.photo.name,
      kind,
      videoMinSeconds: null,
      videoMaxSeconds: null,
      steps: PHOTO_STEP_IDS.map((id) => templateStep(id, texts.photo.steps[id])),
    };
  return {
    name: texts.video.name,
    kind,
    videoMinSeconds: 30,
    videoMaxSeconds: 120,
    steps: [templateStep('walkaround', texts.video.step)],
  };
}

/** Whether two step lists are the same, field by field and in order. */
export function sameSteps(a: readonly CaptureStep[], b: readonly CaptureStep[]): boolean {
  const fields = (s: CaptureStep) => [
    s.id,
    s.label,
    s.instructions,
    s.required,
    s.overlay,
    s.accept_poor_quality,
  ];
  return JSON.stringify(a.map(fields)) === JSON.stringify(b.map(fields));
}

/**
 * The step's words in `to`: its own translation when it has one, else the template's when its label and
 * instructions are still exactly a built-in template step's (same id, any language); undefined otherwise.
 */
export function stepTextsIn(
  kind: PersonaKind,
  step: CaptureStep,
  to: PersonaLanguage,
): StepTexts | undefined {
  const own = step.translations?.[to];
  if (own) return own;
  const textsOf = (language: PersonaLanguage): StepTexts | undefined => {
    const template = templateFor(kind, language).steps.find((s) => s.id === step.id);
    return template && { label: template.label, instructions: template.instructions };
  };
  const isTemplate = SUPPORTED_LANGUAGES.some((language) => {
    const texts = textsOf(language);
    return texts?.label === step.label && texts.instructions === step.instructions;
  });
  return isTemplate ? textsOf(to) : undefined;
}

/**
 * The step with its words in `to` (from its translations or its template), its current words kept as the
 * translation of `from`; unchanged when it has no words in `to`.
 */
export function translateStep(
  kind: PersonaKind,
  step: CaptureStep,
  from: PersonaLanguage,
  to: PersonaLanguage,
): CaptureStep {
  const texts = stepTextsIn(kind, step, to);
  if (!texts || from === to) return step;
  const { [to]: _used, ...others } = step.translations ?? {};
  const translations = step.translations
    ? { ...others, [from]: { label: step.label, instructions: step.instructions } }
    : undefined;
  return {
    ...step,
    label: texts.label,
    instructions: texts.instructions,
    ...(translations && { translations }),
  };
}

/** Steps as stored, with the fields added after they were written given their defaults. */
export function stepsFromJson(json: string): CaptureStep[] {
  return (JSON.parse(json) as (Omit<CaptureStep, 'accept_poor_quality'> & Partial<CaptureStep>)[]).map(
    (step) => ({ ...step, accept_poor_quality: step.accept_poor_quality ?? true }),
  );
}
