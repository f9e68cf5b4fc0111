// The app's words: one catalogue per language, none in the code. The language comes from the persona,
// else from the browser, else English. Only English (the fallback, and the words of the loading screen)
// is in the first bundle; every other catalogue is its own small chunk, fetched when a link needs it, so
// the first load stays within its budget however many languages there are (docs/adr/0007).
import { en, type Catalogue, type MessageKey } from './en.js';

/** Every language the app speaks, English first. The service's persona languages are the same list. */
export const LANGUAGES = ['en', 'fr', 'de', 'es', 'it', 'pt', 'nl', 'pl', 'tr', 'ar', 'hi', 'ja'] as const;
export type Language = (typeof LANGUAGES)[number];
export type { Catalogue, MessageKey };

/** Languages written right to left: the page is mirrored for them (`dir="rtl"`). */
const RIGHT_TO_LEFT: ReadonlySet<Language> = new Set<Language>(['ar']);

export const direction = (language: Language): 'ltr' | 'rtl' => (RIGHT_TO_LEFT.has(language) ? 'rtl' : 'ltr');

const isLanguage = (code: string): code is Language => (LANGUAGES as readonly string[]).includes(code);

// One dynamic import per language: Vite makes each its own chunk.
const LOADERS: Record<Exclude<Language, 'en'>, () => Promise<Catalogue>> = {
  fr: () => import('./fr.js').then((m) => m.fr),
  de: () => import('./de.js').then((m) => m.de),
  es: () => import('./es.js').then((m) => m.es),
  it: () => import('./it.js').then((m) => m.it),
  pt: () => import('./pt.js').then((m) => m.pt),
  nl: () => import('./nl.js').then((m) => m.nl),
  pl: () => import('./pl.js').then((m) => m.pl),
  tr: () => import('./tr.js').then((m) => m.tr),
  ar: () => import('./ar.js').then((m) => m.ar),
  hi: () => import('./hi.js').then((m) => m.hi),
  ja: () => import('./ja.js').then((m) => m.ja),
};

/** A language's catalogue; English at once, the others fetched (and cached by the browser) on first use. */
export function loadCatalogue(language: Language): Promise<Catalogue> {
  return language === 'en' ? Promise.resolve(en) : LOADERS[language]();
}

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
