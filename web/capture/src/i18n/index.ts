// The app's words: one catalogue per language, none in the code. The language comes from the persona,
// else from the browser, else English.
import { de } from './de.js';
import { en, type Catalogue, type MessageKey } from './en.js';
import { es } from './es.js';
import { fr } from './fr.js';

export const CATALOGUES: Record<string, Catalogue> = { en, fr, de, es };
export type Language = keyof typeof CATALOGUES;
export type { MessageKey };

/** The persona's language when the app speaks it, else the browser's first one it speaks, else English. */
export function chooseLanguage(persona: string | undefined, browser: readonly string[]): string {
  const candidates = [persona, ...browser].filter((l): l is string => Boolean(l));
  for (const candidate of candidates) {
    const base = candidate.toLowerCase().split('-')[0]!;
    if (base in CATALOGUES) return base;
  }
  return 'en';
}

export type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;

export function translator(language: string): Translate {
  const catalogue = CATALOGUES[language] ?? en;
  return (key, params = {}) =>
    catalogue[key].replace(/\{(\w+)\}/g, (whole, name: string) =>
      name in params ? String(params[name]) : whole,
    );
}
