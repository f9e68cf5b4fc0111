// Only English (the fallback, and the words of the loading screen) is in the first bundle; every other
// catalogue is its own small chunk, fetched when a link needs it, so the first load stays within its
// budget however many languages there are (docs/adr/0007). Apart from ./index.ts so that the portal,
// which bundles every catalogue (./all.ts), does not import these loaders too.
import { en } from './en.js';
import type { Catalogue, Language } from './index.js';

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
