// The local damage model: a YOLO-style ONNX detector run in-process by onnxruntime-node, with its
// labels file (one label per line, in class order, `part:type` or `type`).
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import type { DamageModelSettings } from '../../config.js';
import {
  DamageModelError,
  type DamageModel,
  type DamageModelDescription,
  type RawDetection,
} from '../../ports/damage-model.js';
import { cleanLabels, decodeYolo, DEFAULT_INPUT_SIZE, letterbox, toFloat32, type InputSize } from './yolo.js';

type OnnxSettings = Pick<Extract<DamageModelSettings, { kind: 'onnx' }>, 'modelPath' | 'labelsPath'>;

/**
 * Loads the model and its labels; rejects with DamageModelError when either cannot be read, the model
 * does not take one float image tensor, or its output does not have one score per label.
 */
export async function createOnnxDamageModel(settings: OnnxSettings): Promise<DamageModel> {
  const fail = (message: string, cause?: unknown): never => {
    throw new DamageModelError('onnx', `Damage model ${settings.modelPath}: ${message}`, { cause });
  };
  const bytes = await fs
    .readFile(settings.modelPath)
    .catch((e: Error) => fail(`cannot read the model (${e.message})`, e));
  const labelsText = await fs
    .readFile(settings.labelsPath, 'utf8')
    .catch((e: Error) => fail(`cannot read the labels ${settings.labelsPath} (${e.message})`, e));
  let labels: string[] = [];
  try {
    labels = cleanLabels(labelsText.split(/\r?\n/), `Labels file ${settings.labelsPath}`);
  } catch (e) {
    fail((e as Error).message, e);
  }
  const session = await InferenceSession.create(bytes).catch((e: Error) =>
    fail(`onnxruntime cannot load it (${e.message})`, e),
  );

  const input = session.inputMetadata[0];
  const outputName = session.outputNames[0];
  if (session.inputNames.length !== 1 || !input?.isTensor || input.type !== 'float32' || !outputName) {
    await session.release();
    return fail('expected one float32 image input [1, 3, H, W] and a detection output');
  }
  const size = inputSize(input.shape, bytes);
  const outputShape = session.outputMetadata[0]?.isTensor ? session.outputMetadata[0].shape : [];
  const features = 4 + labels.length;
  if (outputShape.length === 3 && outputShape.every((d) => typeof d === 'number')) {
    if (outputShape[1] !== features && outputShape[2] !== features) {
      await session.release();
      return fail(
        `its output [${outputShape.join(', ')}] has no axis of ${features} (4 box values + ${labels.length} labels)`,
      );
    }
  }

  const description: DamageModelDescription = {
    backend: 'onnx',
    model: path.basename(settings.modelPath),
    version: crypto.createHash('sha256').update(bytes).digest('hex').slice(0, 12),
  };
  let closed = false;

  return {
    describe: () => description,
    async detect({ image, minConfidence }, signal): Promise<RawDetection[]> {
      signal.throwIfAborted();
      if (closed) throw new DamageModelError('onnx', 'The damage model is closed');
      try {
        const boxed = await letterbox(image, size);
        signal.throwIfAborted();
        const tensor = new Tensor('float32', toFloat32(boxed.pixels), boxed.dims);
        const results = await session.run({ [input.name]: tensor });
        signal.throwIfAborted();
        const output = results[outputName];
        if (!output || !(output.data instanceof Float32Array))
          throw new Error(`output ${outputName} is not a float32 tensor`);
        return decodeYolo(
          { data: output.data, dims: output.dims },
          { labels, transform: boxed.transform, minConfidence },
        );
      } catch (e) {
        if (signal.aborted || e instanceof DamageModelError) throw e;
        throw new DamageModelError('onnx', `Damage model ${description.model}: ${(e as Error).message}`, {
          cause: e,
        });
      }
    },
    health: async () => !closed,
    async close() {
      if (closed) return;
      closed = true;
      await session.release();
    },
  };
}

/**
 * The input size from the model's input shape `[1, 3, H, W]`; when those are symbolic (a dynamic
 * export), from the `imgsz` the ultralytics exporter writes into the model's metadata; else 640.
 */
function inputSize(shape: ReadonlyArray<number | string>, model: Buffer): InputSize {
  const [, , h, w] = shape;
  if (typeof h === 'number' && typeof w === 'number' && h > 0 && w > 0) return { width: w, height: h };
  const imgsz = metadataProps(model).get('imgsz')?.match(/\d+/g)?.map(Number) ?? [];
  const [ih, iw = ih] = imgsz;
  if (ih && iw) return { width: iw, height: ih };
  return { width: DEFAULT_INPUT_SIZE, height: DEFAULT_INPUT_SIZE };
}

/**
 * `metadata_props` (field 14) of an ONNX ModelProto, read straight from the protobuf bytes: the
 * runtime does not expose them, and this walks only the top level (the graph is skipped, not parsed).
 */
export function metadataProps(model: Uint8Array): Map<string, string> {
  const props = new Map<string, string>();
  const read = (bytes: Uint8Array, visit: (field: number, value: Uint8Array) => void) => {
    let pos = 0;
    const varint = () => {
      let value = 0;
      for (let factor = 1; pos < bytes.length; factor *= 128) {
        const byte = bytes[pos++]!;
        value += (byte & 0x7f) * factor;
        if (byte < 0x80) return value;
      }
      throw new Error('truncated');
    };
    while (pos < bytes.length) {
      const tag = varint();
      const wire = tag % 8;
      if (wire === 0) varint();
      else if (wire === 1) pos += 8;
      else if (wire === 5) pos += 4;
      else if (wire === 2) {
        const length = varint();
        visit(Math.floor(tag / 8), bytes.subarray(pos, pos + length));
        pos += length;
      } else throw new Error(`wire type ${wire}`);
    }
  };
  try {
    read(model, (field, entry) => {
      if (field !== 14) return;
      let key = '';
      let value = '';
      read(entry, (f, v) => {
        if (f === 1) key = Buffer.from(v).toString('utf8');
        if (f === 2) value = Buffer.from(v).toString('utf8');
      });
      props.set(key, value);
    });
  } catch {
    // Not a protobuf we understand: no metadata, the defaults apply.
  }
  return props;
}
