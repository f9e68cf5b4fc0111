// The generated references must match the code they document.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GENERATED } from '../scripts/reference-docs.js';
import { settingsSchema } from '../src/config.js';

describe('generated documentation', () => {
  it.each(Object.entries(GENERATED))('%s is up to date (run `npm run docs`)', async (file, generate) => {
    expect(fs.readFileSync(file, 'utf8')).toBe(await generate());
  });

  it('documents every setting with a description and an example', () => {
    for (const [name, schema] of Object.entries(settingsSchema.properties)) {
      const s = schema as { description?: string; examples?: string[] };
      expect(s.description, name).toBeTruthy();
      expect(s.examples?.length, name).toBeGreaterThan(0);
    }
  });
});
