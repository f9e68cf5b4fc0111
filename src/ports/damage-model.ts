// A damage detection model (docs/result.md#what-it-holds): a local ONNX file or a remote Open Inference
// Protocol server. The analyzer hands it the decoded preview and gets detections back in the image's own
// coordinates; the model-specific steps (letterbox to its input size, decoding its output, NMS) stay in the
// adapter, because only the adapter knows the input size and output layout of its model. Every adapter passes
// the one contract suite in test/contract/damage-model.test.ts.

/** A decoded image: raw 8-bit RGB, 3 channels, row-major (the `preview` of a PreparedImage). */
export interface RgbImage {
  data: Buffer;
  width: number;
  height: number;
}

export interface ModelInput {
  image: RgbImage;
  /**
   * Detections below this confidence are not returned. Applied before non-maximum suppression, which
   * keeps the same detections as applying it after (a box is only ever suppressed by a more confident
   * one) while sparing NMS the thousands of near-zero candidates.
   */
  minConfidence: number;
}

/** A box as fractions (0..1) of the image's width and height, from its top-left corner. */
export interface NormalisedBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface RawDetection {
  /** Index of the class in the model's output. */
  classIndex: number;
  /** The model's label of that class, as published with it (`part:type` or `type`). */
  label: string;
  /** 0..1. */
  confidence: number;
  box: NormalisedBox;
}

export interface DamageModelDescription {
  backend: 'onnx' | 'kserve';
  /** File name of the ONNX model, or the model name on the server. */
  model: string;
  /**
   * ONNX: the first 12 hex digits of the file's SHA-256 (it changes exactly when the model does).
   * KServe: the first entry of the server's `versions` for the model, `unversioned` when it lists none,
   * `unknown` before the model's metadata has been read (the first `detect` reads it).
   */
  version: string;
}

export interface DamageModel {
  describe(): DamageModelDescription;
  /**
   * Detections in `input.image`, most confident first, after per-class NMS. Rejects with a
   * DamageModelError when the model cannot run or answers something that is not a detection output,
   * and with `signal.reason` when `signal` aborts.
   */
  detect(input: ModelInput, signal: AbortSignal): Promise<RawDetection[]>;
  /** True when the model can take a request now (loaded; the server answers that it is ready). Never rejects. */
  health(): Promise<boolean>;
  /** Releases what the adapter holds (the ONNX session). Safe to call more than once. */
  close(): Promise<void>;
}

export class DamageModelError extends Error {
  override name = 'DamageModelError';
  constructor(
    readonly backend: DamageModelDescription['backend'],
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
