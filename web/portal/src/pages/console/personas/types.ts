// The persona editor's data, as the portal API answers it: the types of its OpenAPI document
// (docs/examples/api.d.ts).
import type { Answer } from '../../../api.js';

export const LANGUAGES = {
  en: 'English',
  fr: 'French',
  de: 'German',
  es: 'Spanish',
  it: 'Italian',
  pt: 'Portuguese',
  nl: 'Dutch',
  pl: 'Polish',
  tr: 'Turkish',
  ar: 'Arabic',
  hi: 'Hindi',
  ja: 'Japanese',
} as const;
export type Language = keyof typeof LANGUAGES;
export const LANGUAGE_CODES = Object.keys(LANGUAGES) as Language[];

export type Persona = Answer<'/portal/api/personas/{id}'>;
export type Step = Persona['steps'][number];
/** A step's title and instructions in one language. */
export type Words = NonNullable<NonNullable<Step['translations']>[Language]>;

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
