// The DamageModel contract, run against both adapters: the local ONNX runtime and a KServe v2 server.
// Both run the same real ONNX test model (test/helpers/onnx-model.ts), whose output is known, so the
// damages the analyzer reports are known exactly.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Value } from '@sinclair/typebox/value';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperatorFetch } from '../../src/adapters/fetch/operator-fetch.js';
import { createKserveDamageModel } from '../../src/adapters/model/kserve-v2.js';
import { createOnnxDamageModel } from '../../src/adapters/model/onnx.js';
import type { PreparedImage } from '../../src/analyzers/analyzer.js';
import { createDamageAnalyzer } from '../../src/analyzers/damage.js';
import { DamagePart } from '../../src/domain/result/damage-part.js';
import { DamageModelError, type DamageModel } from '../../src/ports/damage-model.js';
import { startKserveServer, type KserveServer, type KserveServerOptions } from '../helpers/kserve-server.js';
import { photo } from '../helpers/media.js';
import { TEST_LABELS, writeTestModel, type TestModelOptions } from '../helpers/onnx-model.js';

const BACKENDS = ['onnx', 'kserve'] as const;
type Backend = (typeof BACKENDS)[number];
const MIN_CONFIDENCE = 0.35;

// The model server is the operator's: reached through the operator fetch, loopback included.
const operatorFetch = createOperatorFetch({ connectTimeoutMs: 2000, timeoutMs: 10000, maxRedirects: 0 });

interface Harness {
  model: DamageModel;
  server: KserveServer | undefined;
  close(): Promise<void>;
}

async function harness(
  backend: Backend,
  modelOptions: TestModelOptions = {},
  serverOptions: Partial<KserveServerOptions> = {},
): Promise<Harness> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'walkaround-model-'));
  const files = writeTestModel(dir, modelOptions);
  const cleanup = () => fs.rmSync(dir, { recursive: true, force: true });
  let server: KserveServer | undefined;
  try {
    if (backend === 'onnx') {
      const model = await createOnnxDamageModel(files);
      return { model, server, close: async () => (await model.close(), cleanup()) };
    }
    server = await startKserveServer({ modelPath: files.modelPath, labels: files.labels, ...serverOptions });
    const model = await createKserveDamageModel({ url: server.url, model: server.modelName }, operatorFetch);
    const started = server;
    return { model, server, close: async () => (await model.close(), await started.close(), cleanup()) };
  } catch (error) {
    await server?.close();
    cleanup();
    throw error;
  }
}

/** A real photo as a 1024×768 preview of a 4032×3024 original (the same 4:3 shape). */
let image: PreparedImage;
beforeAll(async () => {
  const data = await sharp(photo('home.jpg'))
    .resize(1024, 768, { fit: 'fill' })
    .removeAlpha()
    .raw()
    .toBuffer();
  image = {
    sourcePath: '/nowhere/home.jpg',
    mime: 'image/jpeg',
    width: 4032,
    height: 3024,
    preview: { data, width: 1024, height: 768 },
  };
});
afterAll(() => operatorFetch.close());

const context = () => ({ inputMetaData: {}, signal: AbortSignal.timeout(20_000) });

/** What the test model's candidates mean in this image, at DAMAGE_MIN_CONFIDENCE 0.35 (see onnx-model.ts). */
const EXPECTED = [
  {
    part: 'front_bumper',
    type: 'scratch',
    severity: 'moderate',
    confidence: 0.9,
    box: { x: 0.1, y: 0.2, width: 0.2, height: 0.2 },
  },
  {
    part: 'door',
    type: 'dent',
    severity: 'moderate',
    confidence: 0.7,
    box: { x: 0.1125, y: 0.2167, width: 0.2, height: 0.2 },
  },
  {
    part: null,
    type: 'crack',
    severity: 'severe',
    confidence: 0.6,
    box: { x: 0.5, y: 0.25, width: 0.4, height: 0.5 },
  },
  {
    part: 'front_bumper',
    type: 'scratch',
    severity: 'minor',
    confidence: 0.55,
    box: { x: 0, y: 0.9, width: 0.1, height: 0.1 },
  },
  {
    part: null,
    type: 'crack',
    severity: 'minor',
    confidence: 0.4,
    box: { x: 0.75, y: 0.05, width: 0.05, height: 0.05 },
  },
];

describe.each(BACKENDS)('DamageModel contract: %s', (backend) => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness(backend);
  });
  afterAll(() => h.close());

  it('reports the known damages, boxes mapped back to fractions of the original image', async () => {
    const analyzer = createDamageAnalyzer(h.model, MIN_CONFIDENCE);
    const part = await analyzer.analyse(image, context());
    expect(Value.Check(DamagePart, part)).toBe(true);
    expect(part.status).toBe('ok');
    expect(part.damages).toEqual(EXPECTED);
    expect(part.model).toEqual(
      backend === 'onnx'
        ? {
            backend: 'onnx',
            name: 'damage.onnx',
            version: expect.stringMatching(/^[0-9a-f]{12}$/) as unknown,
          }
        : { backend: 'kserve', name: 'damage', version: '1' },
    );
    expect(analyzer).toMatchObject({ name: 'damage', schema: DamagePart });
  });

  it('NMS removes a duplicate of the same class and keeps another class over the same spot', async () => {
    const raw = await h.model.detect({ image: image.preview, minConfidence: 0.05 }, context().signal);
    const scratchesNearA = raw.filter(
      (d) => d.label === 'front_bumper:scratch' && d.box.x < 0.15 && d.box.y < 0.3,
    );
    expect(scratchesNearA.map((d) => d.confidence)).toEqual([expect.closeTo(0.9, 5)]);
    expect(raw.some((d) => d.label === 'door:dent' && Math.abs(d.box.x - 0.1125) < 1e-6)).toBe(true);
    // most confident first, each with its class index and label
    expect(raw.map((d) => d.confidence)).toEqual([...raw.map((d) => d.confidence)].sort((a, b) => b - a));
    for (const d of raw) expect(d.label).toBe(TEST_LABELS[d.classIndex]);
  });

  it('drops detections under the threshold, and only those', async () => {
    const strict = await h.model.detect({ image: image.preview, minConfidence: 0.65 }, context().signal);
    expect(strict.map((d) => d.label)).toEqual(['front_bumper:scratch', 'door:dent']);
    const lenient = await createDamageAnalyzer(h.model, 0.1).analyse(image, context());
    expect(lenient.damages).toHaveLength(EXPECTED.length + 1);
    expect(lenient.damages).toContainEqual(expect.objectContaining({ type: 'dent', confidence: 0.2 }));
    // the candidate lying wholly in the letterbox padding is never reported, whatever the threshold
    expect(lenient.damages.filter((d) => d.type === 'dent')).toHaveLength(2);
  });

  it('reads the transposed [1, N, 4 + classes] layout the same way', async () => {
    const transposed = await harness(backend, { transposed: true });
    try {
      const part = await createDamageAnalyzer(transposed.model, MIN_CONFIDENCE).analyse(image, context());
      expect(part.damages).toEqual(EXPECTED);
    } finally {
      await transposed.close();
    }
  });

  it('refuses labels that do not fit the output (one score per label)', async () => {
    const attempt = harness(backend, { labels: ['scratch', 'dent'] }, { labels: ['scratch', 'dent'] }).then(
      async (wrong) => {
        try {
          return await wrong.model.detect({ image: image.preview, minConfidence: 0.35 }, context().signal);
        } finally {
          await wrong.close();
        }
      },
    );
    await expect(attempt).rejects.toThrow(DamageModelError);
    await expect(attempt).rejects.toThrow(/2 labels|2 classes/);
  });

  it('is healthy, and rejects with the reason when the caller aborts', async () => {
    expect(await h.model.health()).toBe(true);
    const reason = new Error('time is up');
    await expect(
      h.model.detect({ image: image.preview, minConfidence: 0.35 }, AbortSignal.abort(reason)),
    ).rejects.toBe(reason);
  });
});

describe('KServe v2 specifics', () => {
  it('sends the letterboxed FP32 tensor under the metadata input name', async () => {
    const h = await harness('kserve');
    try {
      await h.model.detect({ image: image.preview, minConfidence: 0.35 }, context().signal);
      expect(h.server!.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
        'GET /v2/models/damage',
        'POST /v2/models/damage/infer',
      ]);
      expect(h.server!.requests[1]!.input).toEqual({
        name: 'images',
        shape: [1, 3, 640, 640],
        datatype: 'FP32',
        values: 3 * 640 * 640,
      });
    } finally {
      await h.close();
    }
  });

  it('takes labels given as a comma list in parameters.labels', async () => {
    const h = await harness('kserve', {}, { labelsAs: 'comma' });
    try {
      const part = await createDamageAnalyzer(h.model, MIN_CONFIDENCE).analyse(image, context());
      expect(part.damages).toEqual(EXPECTED);
    } finally {
      await h.close();
    }
  });

  it('never invents labels: a model that publishes none is an error naming the cause', async () => {
    const h = await harness('kserve', {}, { labelsAs: 'none' });
    try {
      await expect(
        h.model.detect({ image: image.preview, minConfidence: 0.35 }, context().signal),
      ).rejects.toThrow(/labels/);
    } finally {
      await h.close();
    }
  });

  it('a server that is not ready, failing or gone: health false, detect throws, the analyzer throws', async () => {
    const h = await harness('kserve');
    const analyzer = createDamageAnalyzer(h.model, MIN_CONFIDENCE);
    try {
      h.server!.state = 'not_ready';
      expect(await h.model.health()).toBe(false);
      h.server!.state = 'failing';
      await expect(analyzer.analyse(image, context())).rejects.toThrow(/HTTP 500 model crashed/);
      h.server!.state = 'ready';
      expect(await h.model.health()).toBe(true);
      await h.server!.close();
      expect(await h.model.health()).toBe(false);
      await expect(
        h.model.detect({ image: image.preview, minConfidence: 0.35 }, context().signal),
      ).rejects.toThrow(DamageModelError);
      await expect(analyzer.analyse(image, context())).rejects.toThrow(/damage at http:\/\/127\.0\.0\.1/);
    } finally {
      await h.close();
    }
  });
});

describe('ONNX specifics', () => {
  it('takes the input size from the model metadata (imgsz) when the input shape is dynamic', async () => {
    const h = await harness('onnx', { dynamicInput: true });
    try {
      const part = await createDamageAnalyzer(h.model, MIN_CONFIDENCE).analyse(image, context());
      expect(part.damages).toEqual(EXPECTED);
    } finally {
      await h.close();
    }
  });

  it('rejects a missing model file, and a closed model', async () => {
    await expect(
      createOnnxDamageModel({ modelPath: '/nowhere/damage.onnx', labelsPath: '/nowhere/damage.labels' }),
    ).rejects.toThrow(/cannot read the model/);
    const h = await harness('onnx');
    await h.close();
    await h.model.close(); // twice is fine
    expect(await h.model.health()).toBe(false);
    await expect(
      h.model.detect({ image: image.preview, minConfidence: 0.35 }, context().signal),
    ).rejects.toThrow(/closed/);
  });
});

describe('without a damage model', () => {
  it('says plainly that none is configured and invents nothing', async () => {
    const part = await createDamageAnalyzer(undefined, MIN_CONFIDENCE).analyse(image, context());
    expect(part).toEqual({ status: 'not_configured', model: null, damages: [] });
    expect(Value.Check(DamagePart, part)).toBe(true);
  });
});
