// The generated references must match the code they document.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GENERATED } from '../scripts/reference-docs.js';
import { settingsSchema } from '../src/config.js';
import { AUDIT_ACTIONS } from '../src/domain/audit-actions.js';

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

  it('docs/audit.md names every action of the audit log, and no other', () => {
    const row = fs
      .readFileSync('docs/audit.md', 'utf8')
      .split('\n')
      .find((line) => line.startsWith('| `action`'));
    const named = [...(row ?? '').matchAll(/`([a-z_]+\.[a-z_]+)`/g)].map((m) => m[1]);
    expect(new Set(named)).toEqual(new Set(AUDIT_ACTIONS));
  });
});
