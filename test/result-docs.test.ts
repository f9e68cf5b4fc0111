// The documented result example is a real result; it must stay valid against the published schema.
import fs from 'node:fs';
import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { InspectionResult } from '../src/domain/result/index.js';
import { startTestApp } from './helpers/app.js';

describe('the published result schema', () => {
  it('accepts docs/result-example.json', () => {
    const example = JSON.parse(fs.readFileSync('docs/result-example.json', 'utf8')) as unknown;
    expect([...Value.Errors(InspectionResult, example)].map((e) => `${e.path}: ${e.message}`)).toEqual([]);
  });

  it('is served at /schemas/inspection-result.json', async () => {
    const t = await startTestApp('sqlite');
    try {
      const res = await t.app.inject({ url: '/schemas/inspection-result.json' });
      expect(res.statusCode).toBe(200);
      const schema = res.json<{ title: string; properties: Record<string, unknown> }>();
      expect(schema.title).toBe('Walkaround inspection result');
      expect(Object.keys(schema.properties)).toContain('media');
      // The capture part of link inspections is published with the rest, built from its TypeBox part.
      const media = schema.properties.media as {
        items: { properties: { capture: { properties: Record<string, unknown> } } };
      };
      expect(Object.keys(media.items.properties.capture.properties)).toEqual([
        'source',
        'captured_at',
        'orientation',
        'location',
        'distance_from_others_m',
      ]);
    } finally {
      await t.close();
    }
  });
});
