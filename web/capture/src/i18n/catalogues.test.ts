// Every catalogue has exactly English's keys, with the same {placeholders}: a key added to en.ts fails
// here, by language and key, until each language has it.
import { describe, expect, it } from 'vitest';
import { CATALOGUES } from './all.js';
import { en } from './en.js';
import { chooseLanguage, direction, LANGUAGES, translator } from './index.js';
import { loadCatalogue } from './load.js';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
const others = LANGUAGES.filter((language) => language !== 'en');

describe('the capture catalogues', () => {
  it('are one per language the app speaks', () => {
    expect(Object.keys(CATALOGUES).sort()).toEqual([...LANGUAGES].sort());
  });

  it.each(others)('%s has every key of English and no other', (language) => {
    const keys = Object.keys(CATALOGUES[language]);
    const reference = Object.keys(en);
    expect({
      language,
      missing: reference.filter((key) => !keys.includes(key)),
      extra: keys.filter((key) => !reference.includes(key)),
    }).toEqual({ language, missing: [], extra: [] });
  });

  it.each(others)('%s keeps the placeholders of each English text, and leaves none empty', (language) => {
    const catalogue: Record<string, string> = CATALOGUES[language];
    const wrong = Object.entries(en)
      .filter(([key]) => key in catalogue)
      .filter(
        ([key, text]) =>
          !catalogue[key]!.trim() || placeholders(catalogue[key]!).join() !== placeholders(text).join(),
      )
      .map(([key]) => `${key}: ${JSON.stringify(catalogue[key])}`);
    expect({ language, wrong }).toEqual({ language, wrong: [] });
  });

  it.each(LANGUAGES)('%s loads on demand as the same catalogue', async (language) => {
    expect(await loadCatalogue(language)).toBe(CATALOGUES[language]);
  });
});

describe('chooseLanguage', () => {
  it("takes the persona's language, else the browser's first spoken one, else English", () => {
    expect(chooseLanguage('ja', ['fr-FR'])).toBe('ja');
    expect(chooseLanguage(undefined, ['sv-SE', 'pt-BR', 'en'])).toBe('pt');
    expect(chooseLanguage('xx', ['sv'])).toBe('en');
  });
});

it('mirrors Arabic only', () => {
  expect(LANGUAGES.filter((language) => direction(language) === 'rtl')).toEqual(['ar']);
});

it('fills the placeholders it is given and leaves the others visible', () => {
  const t = translator(CATALOGUES.ja);
  expect(t('step.progress', { n: 2, total: 11 })).toBe('ステップ 2/11');
  expect(translator()('welcome.photos', { count: 3 })).toBe('{name} needs 3 photos of your vehicle');
});
