import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import type { ImageAnalyzer, PreparedImage } from '../../analyzers/analyzer.js';
import { runImageAnalyzers } from './run-analyzers.js';

const image: PreparedImage = {
  sourcePath: '/nowhere.jpg',
  mime: 'image/jpeg',
  width: 2,
  height: 1,
  preview: { data: Buffer.alloc(6), width: 2, height: 1 },
};

const analyzer = (name: string, analyse: ImageAnalyzer['analyse'], timeoutMs = 1000): ImageAnalyzer => ({
  name,
  version: '1',
  schema: Type.Unknown(),
  timeoutMs,
  analyse,
});

describe('runImageAnalyzers', () => {
  it('keeps the work of the others when one fails or times out, and records why', async () => {
    const { parts, runs } = await runImageAnalyzers(
      [
        analyzer('first', async () => ({ ok: 1 })),
        analyzer('broken', async () => Promise.reject(new Error('model exploded'))),
        analyzer('stuck', () => new Promise(() => undefined), 50),
        analyzer('last', async () => ({ ok: 2 })),
      ],
      image,
      { inputMetaData: {} },
    );
    expect(parts).toEqual({ first: { ok: 1 }, last: { ok: 2 } });
    expect(runs.map((r) => [r.name, r.status, r.error])).toEqual([
      ['first', 'ok', undefined],
      ['broken', 'error', 'model exploded'],
      ['stuck', 'timeout', 'no answer within 50 ms'],
      ['last', 'ok', undefined],
    ]);
  });

  it('gives each analyzer the inspection metadata and a signal', async () => {
    let seen: unknown;
    await runImageAnalyzers(
      [
        analyzer('peek', async (_image, context) => {
          seen = { metadata: context.inputMetaData, signal: context.signal instanceof AbortSignal };
          return {};
        }),
      ],
      image,
      { inputMetaData: { vin: 'X' } },
    );
    expect(seen).toEqual({ metadata: { vin: 'X' }, signal: true });
  });

  it('stops at once when the job is stopping, instead of blaming the analyzer', async () => {
    const stop = new AbortController();
    const run = runImageAnalyzers([analyzer('slow', () => new Promise(() => undefined), 10_000)], image, {
      inputMetaData: {},
      signal: stop.signal,
    });
    stop.abort(new Error('worker stopping'));
    await expect(run).rejects.toThrow('worker stopping');
  });

  it('runs an analyzer on a thread of its own beside the others, and keeps the order of the parts', async () => {
    const events: string[] = [];
    let release!: () => void;
    const ocrDone = new Promise<void>((resolve) => (release = resolve));
    const ocr: ImageAnalyzer = {
      ...analyzer('text', async () => {
        events.push('text started');
        await ocrDone;
        events.push('text done');
        return { read: 'AB-123-CD' };
      }),
      ownThread: true,
    };
    const { parts, runs } = await runImageAnalyzers(
      [
        analyzer('quality', async () => (events.push('quality'), {})),
        ocr,
        analyzer('vehicles', async () => {
          events.push('vehicles');
          release(); // the text analyzer is still waiting: it did not wait for this one to start
          return {};
        }),
      ],
      image,
      { inputMetaData: {} },
    );
    expect(events).toEqual(['text started', 'quality', 'vehicles', 'text done']);
    expect(Object.keys(parts)).toEqual(['quality', 'text', 'vehicles']);
    expect(runs.map((r) => r.name)).toEqual(['quality', 'text', 'vehicles']);
  });
});
