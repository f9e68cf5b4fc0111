// The persona editor's data, as the portal API answers it (src/http/routes/portal-personas.ts).
export const LANGUAGES = { en: 'English', fr: 'French', de: 'German', es: 'Spanish' } as const;
export type Language = keyof typeof LANGUAGES;
export const LANGUAGE_CODES = Object.keys(LANGUAGES) as Language[];

export interface Words {
  label: string;
  instructions: string;
}

export interface Step extends Words {
  id: string;
  required: boolean;
  overlay: string;
  accept_poor_quality: boolean;
  /** The step's words in the persona's other languages. */
  translations?: Partial<Record<Language, Words>>;
}

export interface Branding {
  name?: string;
  colour?: string;
  logoUrl?: string;
}

export interface Persona {
  id: number;
  client_id: string;
  client_name: string;
  name: string;
  kind: 'photo' | 'video';
  language: string;
  steps: Step[];
  video_min_seconds: number | null;
  video_max_seconds: number | null;
  branding: Branding;
  allow_gallery: boolean;
  ask_location: boolean;
  max_photo_dimension: number | null;
}

export interface ListedPersona {
  id: number;
  client_id: string;
  client_name: string;
  name: string;
  kind: 'photo' | 'video';
  language: string;
  steps: number;
}

export interface TestLink {
  link_id: string;
  url: string;
  case_id: string;
  expires_at: string;
  qr_svg: string;
}

/**
 * The persona with its words in `to`: each step's translation swapped in (its current words kept as the
 * translation of `from`), as the service does when only the language changes. Steps without words in
 * `to` keep theirs, and are named so the editor can ask for them.
 */
export function inLanguage(persona: Persona, to: Language): { persona: Persona; untranslated: string[] } {
  const from = persona.language as Language;
  const untranslated: string[] = [];
  const steps = persona.steps.map((step) => {
    const words = step.translations?.[to];
    if (!words) {
      untranslated.push(step.label);
      return step;
    }
    const { [to]: _used, ...others } = step.translations ?? {};
    return {
      ...step,
      label: words.label,
      instructions: words.instructions,
      translations: { ...others, [from]: { label: step.label, instructions: step.instructions } },
    };
  });
  return { persona: { ...persona, language: to, steps }, untranslated: from === to ? [] : untranslated };
}
