import { useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { en } from './en.js';
import { loadCatalogue } from './load.js';
import { direction, translator, type Catalogue, type Language, type Translate } from './index.js';

/**
 * The language the app speaks, and `speak` to change it: it resolves once the language's catalogue is
 * here, so a screen can wait for its words instead of flashing English. When a catalogue cannot be fetched
 * (the network dropped between the link and its language), the app keeps the words it has. The page's
 * `lang` and `dir` follow, so Arabic is laid out right to left.
 */
export function useLanguage(): {
  language: Language;
  t: Translate;
  speak: (language: Language) => Promise<void>;
} {
  const [speaking, setSpeaking] = useState<{ language: Language; catalogue: Catalogue }>({
    language: 'en',
    catalogue: en,
  });
  const wanted = useRef<Language>('en');
  const t = useMemo(() => translator(speaking.catalogue), [speaking]);

  const speak = async (language: Language) => {
    wanted.current = language;
    const catalogue = await loadCatalogue(language).catch(() => undefined);
    // A later choice (the persona's, after the browser's) wins over a slower earlier one.
    if (catalogue && wanted.current === language) setSpeaking({ language, catalogue });
  };

  // Before the screen shows: a page in French never carries English's lang for a frame, nor Arabic a
  // left-to-right layout.
  useLayoutEffect(() => {
    document.documentElement.lang = speaking.language;
    document.documentElement.dir = direction(speaking.language);
  }, [speaking]);

  return { language: speaking.language, t, speak };
}
