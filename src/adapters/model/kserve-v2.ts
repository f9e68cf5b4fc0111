// The remote damage model: a YOLO-style detector on a server speaking the Open Inference Protocol
// (KServe v2 / Triton HTTP), over HTTP/JSON through the operator fetch (the server is the operator's
// own). The server runs the network; the letterbox and the decoding are the same as the local adapter's
// (./yolo.ts).
//
// Labels. The protocol's model metadata has no field for class names, so they are taken, in order:
//   1. `options.labels`, when the operator gives them (for servers that publish none, e.g. Triton);
//   2. a top-level `labels` array in the model metadata (a non-standard field some servers add);
//   3. `parameters.labels` in the model metadata: an array, or one string with the labels separated
//      by commas or new lines (also accepted wrapped as `{ "string_value": … }` / `{ "string_param": … }`).
// With none of these, detect rejects saying so: class numbers are never turned into invented names.
//
// The metadata is read on the first detect, not at creation, so the service starts while the model
// server is still coming up; a failed read is retried on the next detect.
import type { Readable } from 'node:stream';
import type { DamageModelSettings } from '../../config.js';
import {
  DamageModelError,
  type DamageModel,
  type DamageModelDescription,
  type RawDetection,
} from '../../ports/damage-model.js';
import type { SafeFetchInit } from '../../ports/outbound-fetch.js';
import type { OperatorFetch } from '../fetch/operator-fetch.js';
import { cleanLabels, decodeYolo, DEFAULT_INPUT_SIZE, letterbox, type InputSize } from './yolo.js';

type KserveSettings = Pick<Extract<DamageModelSettings, { kind: 'kserve' }>, 'url' | 'model'>;

export interface KserveOptions {
  /** Class names in output order, for servers whose metadata publishes none. */
  labels?: readonly string[];
  /** Timeout of the readiness probe. Default 5 s. */
  healthTimeoutMs?: number;
}

interface ModelMetadata {
  inputName: string;
  size: InputSize;
  labels: string[];
  version: string;
}

/** Largest response body read (an infer reply is about 12 bytes per output value). */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

/** Sends no request until the first `detect` or `health`. */
export async function createKserveDamageModel(
  settings: KserveSettings,
  fetch: OperatorFetch,
  options: KserveOptions = {},
): Promise<DamageModel> {
  const base = `${settings.url.replace(/\/+$/, '')}/v2/models/${encodeURIComponent(settings.model)}`;
  const description: DamageModelDescription = {
    backend: 'kserve',
    model: settings.model,
    version: 'unknown',
  };
  const fail = (message: string, cause?: unknown) =>
    new DamageModelError('kserve', `Damage model ${settings.model} at ${settings.url}: ${message}`, {
      cause,
    });

  const request = async (url: string, init: SafeFetchInit): Promise<unknown> => {
    const response = await fetch.request(url, init);
    const text = await readBody(response.body, MAX_BODY_BYTES);
    if (response.status !== 200)
      throw new Error(`${init.method ?? 'GET'} ${url}: HTTP ${response.status} ${errorText(text)}`);
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new Error(`${url} did not answer JSON`);
    }
  };

  let metadata: Promise<ModelMetadata> | undefined;
  // Shared by concurrent detects, so not tied to one caller's signal (the fetch's timeout bounds it).
  const loadMetadata = () => {
    metadata ??= request(base, {}).then(
      (body) => {
        const parsed = parseMetadata(body, options.labels);
        description.version = parsed.version;
        return parsed;
      },
      (error: unknown) => {
        metadata = undefined;
        throw error;
      },
    );
    return metadata;
  };

  return {
    describe: () => ({ ...description }),
    async detect({ image, minConfidence }, signal): Promise<RawDetection[]> {
      signal.throwIfAborted();
      try {
        const meta = await loadMetadata();
        signal.throwIfAborted();
        const boxed = await letterbox(image, meta.size);
        const body = inferBody(meta.inputName, boxed.dims, boxed.pixels);
        const reply = await request(`${base}/infer`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
          signal,
        });
        return decodeYolo(firstOutput(reply), {
          labels: meta.labels,
          transform: boxed.transform,
          minConfidence,
        });
      } catch (e) {
        if (signal.aborted && e === signal.reason) throw e;
        throw fail((e as Error).message, e);
      }
    },
    async health() {
      try {
        const response = await fetch.request(`${base}/ready`, { timeoutMs: options.healthTimeoutMs ?? 5000 });
        response.body.resume();
        return response.status === 200;
      } catch {
        return false;
      }
    },
    close: async () => undefined,
  };
}

/** The model metadata response (`$metadata_model_response`), checked for what the decoder needs. */
function parseMetadata(body: unknown, given: readonly string[] | undefined): ModelMetadata {
  const meta = asRecord(body);
  const inputs = Array.isArray(meta.inputs) ? meta.inputs : [];
  const input = asRecord(inputs[0]);
  const shape = Array.isArray(input.shape) ? input.shape : [];
  if (inputs.length !== 1 || typeof input.name !== 'string' || shape.length !== 4 || shape[1] !== 3)
    throw new Error(`expected one image input of shape [1, 3, H, W], got ${JSON.stringify(meta.inputs)}`);
  if (input.datatype !== 'FP32')
    throw new Error(`input ${input.name} is ${String(input.datatype)}, not FP32`);
  const dim = (d: unknown) => (typeof d === 'number' && d > 0 ? d : DEFAULT_INPUT_SIZE);
  const labels = cleanLabels(
    given ?? labelList(meta.labels) ?? labelList(asRecord(meta.parameters).labels) ?? [],
    'The model metadata (`labels` or `parameters.labels`)',
  );
  const versions = Array.isArray(meta.versions) ? meta.versions : [];
  return {
    inputName: input.name,
    size: { width: dim(shape[3]), height: dim(shape[2]) },
    labels,
    version: typeof versions[0] === 'string' && versions[0] ? versions[0] : 'unversioned',
  };
}

function labelList(value: unknown): string[] | undefined {
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value;
  if (typeof value === 'string') return value.split(/[,\n]/);
  const wrapped = asRecord(value);
  const inner = wrapped.string_value ?? wrapped.string_param;
  return typeof inner === 'string' ? inner.split(/[,\n]/) : undefined;
}

/** `$inference_request` JSON, built as text: 1.2 M numbers go faster through a lookup table than JSON.stringify. */
function inferBody(name: string, shape: readonly number[], pixels: Uint8Array): string {
  const parts = new Array<string>(pixels.length);
  for (let i = 0; i < pixels.length; i++) parts[i] = PIXEL_TEXT[pixels[i]!]!;
  const head = JSON.stringify({ name, shape, datatype: 'FP32' }).slice(0, -1);
  return `{"inputs":[${head},"data":[${parts.join(',')}]}]}`;
}

/** Each 8-bit value as the float32 the local adapter feeds (v / 255), in 9 significant digits (exact for float32). */
const PIXEL_TEXT = Array.from({ length: 256 }, (_, v) => String(Number(Math.fround(v / 255).toPrecision(9))));

function firstOutput(reply: unknown): { data: number[]; dims: number[] } {
  const outputs = asRecord(reply).outputs;
  const output = asRecord(Array.isArray(outputs) ? outputs[0] : undefined);
  const shape = output.shape;
  const data: unknown = Array.isArray(output.data) ? output.data.flat(Infinity) : undefined;
  if (!Array.isArray(shape) || !shape.every((d) => typeof d === 'number'))
    throw new Error('the infer reply has no outputs[0].shape');
  if (!Array.isArray(data) || !data.every((v) => typeof v === 'number'))
    throw new Error('the infer reply has no numeric outputs[0].data');
  return { data, dims: shape };
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/** The protocol's error body is `{"error": "…"}`; anything else is shown cut short. */
function errorText(text: string): string {
  try {
    const error = asRecord(JSON.parse(text)).error;
    if (typeof error === 'string') return error.slice(0, 300);
  } catch {
    // not JSON
  }
  return text.slice(0, 300);
}

async function readBody(body: Readable, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer | string>) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    size += bytes.length;
    if (size > maxBytes) throw new Error(`response larger than ${maxBytes} bytes`); // leaving the loop destroys it
    chunks.push(bytes);
  }
  return Buffer.concat(chunks).toString('utf8');
}
