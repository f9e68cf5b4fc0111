import { InferenceSession, Tensor } from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { convertGraph, readWeights, type TfjsAttr, type TfjsGraphModel } from './tfjs-to-onnx.js';

// A small NHWC graph with the operations the converter knows, run by onnxruntime and compared with
// the same arithmetic written out here in TensorFlow's layout and padding rules.
const H = 5;
const W = 6;
const C = 2;
const b64 = (text: string) => Buffer.from(text).toString('base64');
const ints = (...values: number[]) => ({ list: { i: values.map(String) } });
const conv = (extra: Record<string, TfjsAttr>) => ({
  data_format: { s: b64('NHWC') },
  padding: { s: b64('SAME') },
  dilations: ints(1, 1, 1, 1),
  ...extra,
});

const seeded = (count: number, seed: number) =>
  Float32Array.from({ length: count }, (_, i) => Math.sin(seed * 7.1 + i * 1.37) * 0.8);

const weights = {
  convFilter: seeded(3 * 3 * C * 3, 1), // HWIO: 3×3, 2 in, 3 out
  convBias: seeded(3, 2),
  dwFilter: seeded(3 * 3 * 3 * 1, 3), // HWCM: 3×3, 3 channels, multiplier 1
  dwBias: seeded(3, 4),
  scale: new Float32Array([1.5]),
  sizes: new Int32Array([H + 1, 2 * W]),
  axis: new Int32Array([3]),
  axes: new Int32Array([1, 2]),
};

function model(): { model: TfjsGraphModel; files: Uint8Array[] } {
  const manifest = [
    { name: 'conv/filter', shape: [3, 3, C, 3], dtype: 'float32' as const },
    { name: 'conv/bias', shape: [3], dtype: 'float32' as const },
    { name: 'dw/filter', shape: [3, 3, 3, 1], dtype: 'float32' as const },
    { name: 'dw/bias', shape: [3], dtype: 'float32' as const },
    { name: 'scale', shape: [], dtype: 'float32' as const },
    { name: 'sizes', shape: [2], dtype: 'int32' as const },
    { name: 'axis', shape: [], dtype: 'int32' as const },
    { name: 'axes', shape: [2], dtype: 'int32' as const },
  ];
  const parts = [
    weights.convFilter,
    weights.convBias,
    weights.dwFilter,
    weights.dwBias,
    weights.scale,
    weights.sizes,
    weights.axis,
    weights.axes,
  ];
  const bytes = Buffer.concat(parts.map((p) => Buffer.from(p.buffer, p.byteOffset, p.byteLength)));
  const node = (name: string, op: string, input: string[] = [], attr: Record<string, TfjsAttr> = {}) => ({
    name,
    op,
    input,
    attr,
  });
  return {
    files: [new Uint8Array(bytes)],
    model: {
      weightsManifest: [{ paths: ['weights.bin'], weights: manifest }],
      modelTopology: {
        node: [
          node('images', 'Placeholder'),
          ...manifest.map((m) => node(m.name, 'Const')),
          node('conv', '_FusedConv2D', ['images', 'conv/filter', 'conv/bias'], {
            ...conv({ strides: ints(1, 1, 1, 1) }),
            fused_ops: { list: { s: [b64('BiasAdd'), b64('Relu')] } },
          }),
          node('dw', 'FusedDepthwiseConv2dNative', ['conv', 'dw/filter', 'dw/bias'], {
            ...conv({ strides: ints(1, 2, 2, 1) }),
            fused_ops: { list: { s: [b64('BiasAdd')] } },
          }),
          node('scaled', 'Mul', ['scale', 'dw']),
          node('clipped', 'Relu6', ['scaled']),
          node('mean', 'Mean', ['clipped', 'axes'], { keep_dims: { b: true } }),
          node('excited', 'Mul', ['clipped', 'mean']),
          node('up', 'ResizeBilinear', ['excited', 'sizes'], {
            align_corners: { b: false },
            half_pixel_centers: { b: false },
          }),
          node('joined', 'ConcatV2', ['up', 'up', 'axis']),
          node('out', 'Sigmoid', ['joined']),
        ],
      },
    },
  };
}

// ---- The reference, in NHWC: x[y][x][c]. ----
type Image = number[][][];
const relu = (v: number) => Math.max(0, v);

function convolve(
  input: Image,
  filter: Float32Array,
  k: number,
  outPer: number,
  stride: number,
  depthwise: boolean,
) {
  const inC = input[0]![0]!.length;
  const outH = Math.ceil(input.length / stride);
  const outW = Math.ceil(input[0]!.length / stride);
  // SAME: total padding split with the extra at the end.
  const padTop = Math.floor(Math.max((outH - 1) * stride + k - input.length, 0) / 2);
  const padLeft = Math.floor(Math.max((outW - 1) * stride + k - input[0]!.length, 0) / 2);
  const outC = depthwise ? inC * outPer : outPer;
  const out: Image = [];
  for (let oy = 0; oy < outH; oy++) {
    out.push([]);
    for (let ox = 0; ox < outW; ox++) {
      const values = new Array<number>(outC).fill(0);
      for (let ky = 0; ky < k; ky++)
        for (let kx = 0; kx < k; kx++) {
          const row = input[oy * stride + ky - padTop];
          const pixel = row?.[ox * stride + kx - padLeft];
          if (!pixel) continue;
          for (let c = 0; c < inC; c++)
            for (let m = 0; m < outPer; m++) {
              const w = filter[((ky * k + kx) * inC + c) * outPer + m]!;
              values[depthwise ? c * outPer + m : m]! += pixel[c]! * w;
            }
        }
      out[oy]!.push(values);
    }
  }
  return out;
}

function reference(input: Image): Image {
  let x = convolve(input, weights.convFilter, 3, 3, 1, false).map((r) =>
    r.map((p) => p.map((v, c) => relu(v + weights.convBias[c]!))),
  );
  x = convolve(x, weights.dwFilter, 3, 1, 2, true).map((r) =>
    r.map((p) => p.map((v, c) => v + weights.dwBias[c]!)),
  );
  x = x.map((r) => r.map((p) => p.map((v) => Math.min(6, relu(v * 1.5)))));
  const cells = x.length * x[0]!.length;
  const mean = [0, 1, 2].map((c) => x.flat().reduce((sum, p) => sum + p[c]!, 0) / cells);
  x = x.map((r) => r.map((p) => p.map((v, c) => v * mean[c]!)));
  // resizeBilinear, align_corners = half_pixel_centers = false.
  const [outH, outW] = [weights.sizes[0]!, weights.sizes[1]!];
  const up: Image = [];
  for (let y = 0; y < outH; y++) {
    up.push([]);
    const sy = (y * x.length) / outH;
    const y0 = Math.floor(sy);
    const y1 = Math.min(y0 + 1, x.length - 1);
    for (let xx = 0; xx < outW; xx++) {
      const sx = (xx * x[0]!.length) / outW;
      const x0 = Math.floor(sx);
      const x1 = Math.min(x0 + 1, x[0]!.length - 1);
      up[y]!.push(
        [0, 1, 2].map((c) => {
          const top = x[y0]![x0]![c]! + (x[y0]![x1]![c]! - x[y0]![x0]![c]!) * (sx - x0);
          const bottom = x[y1]![x0]![c]! + (x[y1]![x1]![c]! - x[y1]![x0]![c]!) * (sx - x0);
          return top + (bottom - top) * (sy - y0);
        }),
      );
    }
  }
  return up.map((r) => r.map((p) => [...p, ...p].map((v) => 1 / (1 + Math.exp(-v)))));
}

describe('tfjs graph to ONNX', () => {
  it('computes what the TensorFlow graph computes, converted to NCHW', async () => {
    const { model: graph, files } = model();
    const bytes = convertGraph(graph, readWeights(graph, files), {
      input: { tfName: 'images', name: 'images', shape: [1, C, H, W] },
      outputs: { out: 'out' },
    });
    const image: Image = Array.from({ length: H }, (_, y) =>
      Array.from({ length: W }, (_, x) =>
        Array.from({ length: C }, (_, c) => Math.cos(y * 1.3 + x * 0.7 + c)),
      ),
    );
    const planar = new Float32Array(C * H * W);
    image.forEach((row, y) =>
      row.forEach((pixel, x) => pixel.forEach((v, c) => (planar[(c * H + y) * W + x] = v))),
    );
    const session = await InferenceSession.create(bytes);
    const { out } = await session.run({ images: new Tensor('float32', planar, [1, C, H, W]) });
    await session.release();
    const expected = reference(image);
    const [outH, outW, outC] = [expected.length, expected[0]!.length, expected[0]![0]!.length];
    expect(out!.dims).toEqual([1, outC, outH, outW]);
    const data = out!.data as Float32Array;
    for (let y = 0; y < outH; y++)
      for (let x = 0; x < outW; x++)
        for (let c = 0; c < outC; c++)
          expect(data[(c * outH + y) * outW + x]).toBeCloseTo(expected[y]![x]![c]!, 5);
  });

  it('widens float16 weights', () => {
    const graph: TfjsGraphModel = {
      modelTopology: { node: [] },
      weightsManifest: [
        {
          paths: ['w.bin'],
          weights: [{ name: 'h', shape: [4], dtype: 'float32', quantization: { dtype: 'float16' } }],
        },
      ],
    };
    // 1, -2, 0.5, 65504 (the largest float16)
    const half = new Uint16Array([0x3c00, 0xc000, 0x3800, 0x7bff]);
    const read = readWeights(graph, [new Uint8Array(half.buffer)]).get('h');
    expect(read?.values.data).toEqual(new Float32Array([1, -2, 0.5, 65504]));
  });

  it('refuses an operation it does not know, naming it', () => {
    const { model: graph, files } = model();
    graph.modelTopology.node.push({ name: 'odd', op: 'Softplus', input: ['images'] });
    expect(() =>
      convertGraph(graph, readWeights(graph, files), {
        input: { tfName: 'images', name: 'images', shape: [1, C, H, W] },
        outputs: { odd: 'out' },
      }),
    ).toThrow(/Softplus \(odd\) is not supported/);
  });
});
