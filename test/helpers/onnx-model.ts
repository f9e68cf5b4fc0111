// A tiny, real ONNX detection model, written with onnx-proto (no Python, no downloaded weights). It
// takes `images` [1, 3, 640, 640] float and answers a fixed YOLOv8-style output `output0`
// [1, 4 + classes, N] (or transposed [1, N, 4 + classes]): the candidates below. The input is really
// consumed (ReduceMean(images) × 0 is added to the constant), so onnxruntime checks its name, type and
// shape, and the adapters must feed it properly; the boxes it answers are known in advance.
//
//   images ─ ReduceMean ─ mean ─┐
//                 Constant(0) ──┴─ Mul ─ zero ─┐
//             Constant(candidates) ────────────┴─ Add ─ output0
import fs from 'node:fs';
import path from 'node:path';
import onnxProto, { type onnx as Onnx } from 'onnx-proto';

const { onnx } = onnxProto;

export const TEST_LABELS = ['front_bumper:scratch', 'door:dent', 'crack'] as const;
export const TEST_INPUT_SIZE = 640;

/** One output column: box centre and size in input pixels, and the score of each class. */
export interface TestCandidate {
  cx: number;
  cy: number;
  w: number;
  h: number;
  scores: [number, number, number];
}

/**
 * For a 1024×768 image the letterbox is 640×480 at (0, 80): x fraction = x / 640 and
 * y fraction = (y − 80) / 480. The comments give the box each candidate means in the image.
 */
export const TEST_CANDIDATES: TestCandidate[] = [
  // A: scratch, 0.90, x 0.1 y 0.2 w 0.2 h 0.2 (area 4 %: moderate)
  { cx: 128, cy: 224, w: 128, h: 96, scores: [0.9, 0.01, 0.02] },
  // A's duplicate, same class, IoU 0.87 with A: removed by NMS
  { cx: 132, cy: 228, w: 128, h: 96, scores: [0.8, 0.05, 0.01] },
  // dent, 0.70, over A but another class (NMS is per class): x 0.1125 y 0.2167 w 0.2 h 0.2 (moderate)
  { cx: 136, cy: 232, w: 128, h: 96, scores: [0.3, 0.7, 0.01] },
  // crack, 0.60, x 0.5 y 0.25 w 0.4 h 0.5 (area 20 %: severe)
  { cx: 448, cy: 320, w: 256, h: 240, scores: [0.01, 0.02, 0.6] },
  // dent, 0.20: under the threshold
  { cx: 500, cy: 150, w: 40, h: 40, scores: [0.1, 0.2, 0.05] },
  // crack, 0.40, x 0.75 y 0.05 w 0.05 h 0.05 (area 0.25 %: minor)
  { cx: 496, cy: 116, w: 32, h: 24, scores: [0.01, 0.01, 0.4] },
  // scratch, 0.55, reaching into the bottom padding: x 0 y 0.9 w 0.1, h clipped to 0.1 (minor)
  { cx: 32, cy: 552, w: 64, h: 80, scores: [0.55, 0.01, 0.01] },
  // dent, 0.50, entirely in the top padding: nothing of it is in the image, dropped
  { cx: 300, cy: 30, w: 40, h: 40, scores: [0.01, 0.5, 0.01] },
  // nothing
  { cx: 0, cy: 0, w: 0, h: 0, scores: [0, 0, 0] },
];

export interface TestModelOptions {
  /** Output as [1, N, 4 + classes] instead of ultralytics' [1, 4 + classes, N]. */
  transposed?: boolean;
  /** Symbolic input dims (a dynamic export) and the size only in the metadata (`imgsz`), as ultralytics writes it. */
  dynamicInput?: boolean;
  /** Written to the labels file instead of TEST_LABELS. */
  labels?: readonly string[];
}

export interface TestModel {
  modelPath: string;
  labelsPath: string;
  labels: readonly string[];
  /** Output shape. */
  outputDims: number[];
}

/** Writes `damage.onnx` and `damage.labels` into `dir`. */
export function writeTestModel(dir: string, options: TestModelOptions = {}): TestModel {
  const features = 4 + TEST_LABELS.length;
  const count = TEST_CANDIDATES.length;
  const outputDims = options.transposed ? [1, count, features] : [1, features, count];
  const values = new Array<number>(features * count);
  TEST_CANDIDATES.forEach((c, i) => {
    [c.cx, c.cy, c.w, c.h, ...c.scores].forEach((v, f) => {
      values[options.transposed ? i * features + f : f * count + i] = v;
    });
  });

  const tensor = (name: string, dims: number[], floats: number[]) =>
    onnx.TensorProto.create({ name, dims, dataType: onnx.TensorProto.DataType.FLOAT, floatData: floats });
  const constant = (output: string, value: Onnx.ITensorProto) =>
    onnx.NodeProto.create({
      opType: 'Constant',
      output: [output],
      attribute: [{ name: 'value', type: onnx.AttributeProto.AttributeType.TENSOR, t: value }],
    });
  const valueInfo = (name: string, dims: (number | string)[]) =>
    onnx.ValueInfoProto.create({
      name,
      type: {
        tensorType: {
          elemType: onnx.TensorProto.DataType.FLOAT,
          shape: { dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) },
        },
      },
    });

  const inputDims = options.dynamicInput
    ? ['batch', 3, 'height', 'width']
    : [1, 3, TEST_INPUT_SIZE, TEST_INPUT_SIZE];
  const graph = onnx.GraphProto.create({
    name: 'walkaround-test-detector',
    node: [
      onnx.NodeProto.create({
        opType: 'ReduceMean',
        input: ['images'],
        output: ['mean'],
        attribute: [{ name: 'keepdims', type: onnx.AttributeProto.AttributeType.INT, i: 0 }],
      }),
      constant('zero_value', tensor('zero_value', [], [0])),
      onnx.NodeProto.create({ opType: 'Mul', input: ['mean', 'zero_value'], output: ['zero'] }),
      constant('candidates', tensor('candidates', outputDims, values)),
      onnx.NodeProto.create({ opType: 'Add', input: ['candidates', 'zero'], output: ['output0'] }),
    ],
    input: [valueInfo('images', inputDims)],
    output: [valueInfo('output0', outputDims)],
  });
  const model = onnx.ModelProto.create({
    irVersion: 8,
    producerName: 'walkaround-tests',
    opsetImport: [{ domain: '', version: 13 }],
    graph,
    metadataProps: options.dynamicInput
      ? [{ key: 'imgsz', value: `[${TEST_INPUT_SIZE}, ${TEST_INPUT_SIZE}]` }]
      : [],
  });

  const labels = options.labels ?? TEST_LABELS;
  const modelPath = path.join(dir, 'damage.onnx');
  const labelsPath = path.join(dir, 'damage.labels');
  fs.writeFileSync(modelPath, onnx.ModelProto.encode(model).finish());
  fs.writeFileSync(labelsPath, `${labels.join('\n')}\n`);
  return { modelPath, labelsPath, labels, outputDims };
}
