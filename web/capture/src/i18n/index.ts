// The app's words: one catalogue per language, none in the code. The language comes from the persona,
// else from the browser, else English. The catalogues themselves are fetched when needed (./load.ts).
import { en, type Catalogue, type MessageKey } from './en.js';

/** Every language the app speaks, English first. The service's persona languages are the same list. */
export const LANGUAGES = ['en', 'fr', 'de', 'es', 'it', 'pt', 'nl', 'pl', 'tr', 'ar', 'hi', 'ja'] as const;
export type Language = (typeof LANGUAGES)[number];
export type { Catalogue, MessageKey };

/** Languages written right to left: the page is mirrored for them (`dir="rtl"`). */
const RIGHT_TO_LEFT: ReadonlySet<Language> = new Set<Language>(['ar']);

export const direction = (language: Language): 'ltr' | 'rtl' => (RIGHT_TO_LEFT.has(language) ? 'rtl' : 'ltr');

const isLanguage = (code: string): code is Language => (LANGUAGES as readonly string[]).includes(code);

/** The persona's language when the app speaks it, else the browser's first one it speaks, else English. */
export function chooseLanguage(persona: string | undefined, browser: readonly string[]): Language {
  const candidates = [persona, ...browser].filter((l): l is string => Boolean(l));
  for (const candidate of candidates) {
    const base = candidate.toLowerCase().split('-')[0]!;
    if (isLanguage(base)) return base;
  }
  return 'en';
}

export type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;

export function translator(catalogue: Catalogue = en): Translate {
  return (key, params = {}) =>
    catalogue[key].replace(/\{(\w+)\}/g, (whole, name: string) =>
      name in params ? String(params[name]) : whole,
    );
}
