// Turns a TensorFlow.js graph model (model.json and its weight files) into an ONNX model in memory, so
// that onnxruntime's native CPU kernels run it instead of tfjs' WebAssembly backend (docs/adr/0011-vehicle-detector-on-onnxruntime.md).
// It knows the operations of the convolutional networks we ship (MobileNet-style backbones and heads)
// and refuses any other with an error naming it. TensorFlow lays tensors out as NHWC; ONNX's Conv
// wants NCHW, so the whole graph is converted to NCHW: filters, axes and sizes are rewritten and the
// input is expected planar ([1, 3, H, W]). Only what the named outputs depend on is converted.
import onnxProto, { type onnx as Onnx } from 'onnx-proto';

const { onnx } = onnxProto;
const OPSET = 13;

/** The parts of a tfjs model.json read here. */
export interface TfjsGraphModel {
  modelTopology: { node: TfjsNode[] };
  weightsManifest: { paths: string[]; weights: TfjsWeight[] }[];
}
export interface TfjsNode {
  name: string;
  op: string;
  input?: string[];
  attr?: Record<string, TfjsAttr>;
}
export interface TfjsAttr {
  s?: string;
  b?: boolean;
  i?: string;
  list?: { i?: string[]; s?: string[] };
}
interface TfjsWeight {
  name: string;
  shape: number[];
  dtype: 'float32' | 'int32';
  quantization?: { dtype: string };
}

type Values = { kind: 'float'; data: Float32Array } | { kind: 'int'; data: Int32Array };
interface Constant {
  shape: number[];
  values: Values;
}

export interface ConversionOptions {
  /** The graph's input placeholder, and its name and fixed NCHW shape in the ONNX model. */
  input: { tfName: string; name: string; shape: [number, number, number, number] };
  /** tfjs output names (NHWC tensors of rank 4) → ONNX output names (NCHW). */
  outputs: Record<string, string>;
}

/** The model's weights by name, decoded from the weight files (float16-quantized weights widened). */
export function readWeights(model: TfjsGraphModel, files: Uint8Array[]): Map<string, Constant> {
  const weights = new Map<string, Constant>();
  model.weightsManifest.forEach((group, index) => {
    const bytes = files[index];
    if (!bytes) throw new Error(`tfjs model: weight file ${group.paths.join(', ')} missing`);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let offset = 0;
    for (const weight of group.weights) {
      const count = weight.shape.reduce((a, b) => a * b, 1);
      const quantized = weight.quantization?.dtype;
      let values: Values;
      if (weight.dtype === 'float32' && quantized === 'float16') {
        const data = new Float32Array(count);
        for (let i = 0; i < count; i++) data[i] = halfToFloat(view.getUint16(offset + 2 * i, true));
        values = { kind: 'float', data };
        offset += 2 * count;
      } else if (quantized === undefined && (weight.dtype === 'float32' || weight.dtype === 'int32')) {
        const data = weight.dtype === 'float32' ? new Float32Array(count) : new Int32Array(count);
        for (let i = 0; i < count; i++)
          data[i] =
            weight.dtype === 'float32'
              ? view.getFloat32(offset + 4 * i, true)
              : view.getInt32(offset + 4 * i, true);
        values = data instanceof Float32Array ? { kind: 'float', data } : { kind: 'int', data };
        offset += 4 * count;
      } else {
        throw new Error(`tfjs model: weight ${weight.name} is ${weight.dtype}/${quantized}, not supported`);
      }
      weights.set(weight.name, { shape: weight.shape, values });
    }
  });
  return weights;
}

function halfToFloat(half: number): number {
  const sign = half & 0x8000 ? -1 : 1;
  const exponent = (half >> 10) & 0x1f;
  const fraction = half & 0x3ff;
  if (exponent === 0) return sign * 2 ** -14 * (fraction / 1024);
  if (exponent === 0x1f) return fraction ? NaN : sign * Infinity;
  return sign * 2 ** (exponent - 15) * (1 + fraction / 1024);
}

/** The ONNX model (serialized ModelProto) computing `options.outputs` from the input. */
export function convertGraph(
  model: TfjsGraphModel,
  weights: Map<string, Constant>,
  options: ConversionOptions,
): Uint8Array {
  const nodes = new Map(model.modelTopology.node.map((node) => [node.name, node]));
  const graph = new GraphWriter(weights, options.input);
  for (const [tfName, onnxName] of Object.entries(options.outputs)) {
    const source = convertNode(graph, nodes, tfName);
    graph.add('Identity', [source], { name: onnxName });
    graph.outputs.push(onnxName);
  }
  return graph.serialize();
}

/** A node's output in the ONNX graph (memoised), converting what it depends on first. */
function convertNode(graph: GraphWriter, nodes: Map<string, TfjsNode>, ref: string): string {
  const name = ref.replace(/:0$/, '');
  const done = graph.converted.get(name);
  if (done !== undefined) return done;
  const node = nodes.get(name);
  if (!node) throw new Error(`tfjs model: no node ${ref}`);
  const inputs = node.input ?? [];
  const operand = (index: number) => convertNode(graph, nodes, inputs[index]!);
  const constant = (index: number) => graph.constantOf(inputs[index]!.replace(/:0$/, ''));
  let output: string;
  switch (node.op) {
    case 'Placeholder':
      if (name !== graph.input.tfName) throw new Error(`tfjs model: unexpected input ${name}`);
      output = graph.input.name;
      break;
    case 'Const':
      output = graph.constant(name);
      break;
    case 'Identity':
      output = operand(0);
      break;
    case '_FusedConv2D':
    case 'Conv2D':
    case 'FusedDepthwiseConv2dNative':
    case 'DepthwiseConv2dNative':
      output = convolution(graph, node, operand(0), constant(1), inputs[2] ? constant(2) : undefined);
      break;
    case 'Add':
    case 'AddV2':
    case 'Mul':
    case 'Sub':
      output = graph.add(node.op === 'AddV2' ? 'Add' : node.op, [operand(0), operand(1)]);
      break;
    case 'Relu':
    case 'Sigmoid':
      output = graph.add(node.op, [operand(0)]);
      break;
    case 'Relu6':
      output = graph.add('Clip', [operand(0), graph.scalar(0), graph.scalar(6)]);
      break;
    case 'Mean': {
      const axes = [...intValues(constant(1))].map(nchwAxis).sort();
      if (attrBool(node, 'keep_dims') !== true || axes.join() !== '2,3')
        throw new Error(`tfjs model: ${name}: only a spatial Mean keeping dims is supported`);
      output = graph.add('GlobalAveragePool', [operand(0)]);
      break;
    }
    case 'ConcatV2': {
      const axis = nchwAxis(intValues(constant(inputs.length - 1))[0]!);
      output = graph.add(
        'Concat',
        inputs.slice(0, -1).map((_, i) => operand(i)),
        { axis },
      );
      break;
    }
    case 'ResizeBilinear': {
      if (attrBool(node, 'align_corners') || attrBool(node, 'half_pixel_centers'))
        throw new Error(`tfjs model: ${name}: only align_corners = half_pixel_centers = false is supported`);
      const [height, width] = intValues(constant(1));
      const shape = graph.shapeOf(operand(0));
      const sizes = graph.int64Constant([shape[0]!, shape[1]!, height!, width!]);
      output = graph.add('Resize', [operand(0), '', '', sizes], {
        mode: 'linear',
        coordinate_transformation_mode: 'asymmetric',
      });
      break;
    }
    default:
      throw new Error(`tfjs model: operation ${node.op} (${name}) is not supported by the converter`);
  }
  graph.converted.set(name, output);
  return output;
}

/** Conv (grouped for depthwise) with its bias and fused activation (Relu, Relu6). */
function convolution(
  graph: GraphWriter,
  node: TfjsNode,
  input: string,
  filter: Constant,
  bias: Constant | undefined,
): string {
  const depthwise = node.op.includes('Depthwise');
  const [kh, kw, inChannels, outPer] = filter.shape as [number, number, number, number];
  // TensorFlow: HWIO (conv) or HWCM (depthwise); ONNX: OIHW, depthwise as C·M groups of one.
  const outChannels = depthwise ? inChannels * outPer : outPer;
  const perGroupIn = depthwise ? 1 : inChannels;
  const source = floatValues(filter);
  const weights = new Float32Array(outChannels * perGroupIn * kh * kw);
  for (let y = 0; y < kh; y++)
    for (let x = 0; x < kw; x++)
      for (let c = 0; c < inChannels; c++)
        for (let m = 0; m < outPer; m++) {
          const from = ((y * kw + x) * inChannels + c) * outPer + m;
          const [o, i] = depthwise ? [c * outPer + m, 0] : [m, c];
          weights[((o * perGroupIn + i) * kh + y) * kw + x] = source[from]!;
        }
  const inputs = [input, graph.floatConstant([outChannels, perGroupIn, kh, kw], weights)];
  if (bias) inputs.push(graph.floatConstant([outChannels], floatValues(bias)));
  const strides = attrInts(node, 'strides');
  const dilations = attrInts(node, 'dilations');
  if (attrString(node, 'data_format') !== 'NHWC') throw new Error(`tfjs model: ${node.name} is not NHWC`);
  const padding = attrString(node, 'padding');
  if (padding !== 'SAME' && padding !== 'VALID')
    throw new Error(`tfjs model: ${node.name}: padding ${padding} is not supported`);
  let output = graph.add('Conv', inputs, {
    group: depthwise ? inChannels : 1,
    kernel_shape: [kh, kw],
    strides: [strides[1]!, strides[2]!],
    dilations: [dilations[1]!, dilations[2]!],
    // TensorFlow's SAME pads the extra row or column at the end, as ONNX's SAME_UPPER does.
    auto_pad: padding === 'SAME' ? 'SAME_UPPER' : 'VALID',
  });
  const fused = (node.attr?.fused_ops?.list?.s ?? []).map((s) => Buffer.from(s, 'base64').toString());
  for (const op of fused) {
    if (op === 'BiasAdd') continue;
    if (op === 'Relu') output = graph.add('Relu', [output]);
    else if (op === 'Relu6') output = graph.add('Clip', [output, graph.scalar(0), graph.scalar(6)]);
    else throw new Error(`tfjs model: ${node.name}: fused ${op} is not supported`);
  }
  return output;
}

/** NHWC axis → NCHW axis. */
const nchwAxis = (axis: number) => [0, 2, 3, 1][axis < 0 ? axis + 4 : axis]!;

const attrString = (node: TfjsNode, key: string) => {
  const s = node.attr?.[key]?.s;
  return s === undefined ? undefined : Buffer.from(s, 'base64').toString();
};
const attrBool = (node: TfjsNode, key: string) => node.attr?.[key]?.b;
const attrInts = (node: TfjsNode, key: string) =>
  (node.attr?.[key]?.list?.i ?? ['1', '1', '1', '1']).map(Number);

function floatValues(constant: Constant): Float32Array {
  if (constant.values.kind !== 'float') throw new Error('tfjs model: expected float weights');
  return constant.values.data;
}
function intValues(constant: Constant): Int32Array {
  if (constant.values.kind !== 'int') throw new Error('tfjs model: expected int32 constant');
  return constant.values.data;
}

type AttributeValue = number | string | number[];

/** Builds the ONNX graph, tracking each tensor's static NCHW shape where a Resize needs it. */
class GraphWriter {
  readonly converted = new Map<string, string>();
  readonly outputs: string[] = [];
  private readonly nodes: Onnx.INodeProto[] = [];
  private readonly initializers: Onnx.ITensorProto[] = [];
  private readonly shapes = new Map<string, number[]>();
  private count = 0;

  constructor(
    private readonly weights: Map<string, Constant>,
    readonly input: ConversionOptions['input'],
  ) {
    this.shapes.set(input.name, input.shape);
  }

  constantOf(name: string): Constant {
    const weight = this.weights.get(name);
    if (!weight) throw new Error(`tfjs model: no weight for constant ${name}`);
    return weight;
  }

  /** A graph constant used as an operand (scalars of Add/Mul/Sub). */
  constant(name: string): string {
    const weight = this.constantOf(name);
    if (weight.shape.length > 1)
      throw new Error(`tfjs model: constant ${name} of rank ${weight.shape.length}`);
    if (weight.values.kind !== 'float') throw new Error(`tfjs model: constant ${name} is not float`);
    return this.floatConstant(weight.shape, weight.values.data);
  }

  scalar(value: number): string {
    return this.floatConstant([], new Float32Array([value]));
  }

  floatConstant(shape: number[], data: Float32Array): string {
    const name = `c${this.count++}`;
    this.initializers.push(
      onnx.TensorProto.create({
        name,
        dims: shape,
        dataType: onnx.TensorProto.DataType.FLOAT,
        rawData: bytesOf(data),
      }),
    );
    return name;
  }

  int64Constant(values: number[]): string {
    const name = `c${this.count++}`;
    this.initializers.push(
      onnx.TensorProto.create({
        name,
        dims: [values.length],
        dataType: onnx.TensorProto.DataType.INT64,
        int64Data: values,
      }),
    );
    return name;
  }

  shapeOf(tensor: string): number[] {
    const shape = this.shapes.get(tensor);
    if (!shape) throw new Error(`tfjs model: the shape of ${tensor} is not known`);
    return shape;
  }

  add(
    op: string,
    inputs: string[],
    attributes: Record<string, AttributeValue> & { name?: string } = {},
  ): string {
    const { name = `t${this.count++}`, ...rest } = attributes;
    this.nodes.push(
      onnx.NodeProto.create({
        opType: op,
        input: inputs,
        output: [name],
        name,
        attribute: Object.entries(rest).map(([key, value]) => attribute(key, value)),
      }),
    );
    const shape = this.inferShape(op, inputs, rest);
    if (shape) this.shapes.set(name, shape);
    return name;
  }

  /** Static shapes for what feeds a Resize: Conv, elementwise ops, Concat and Resize itself. */
  private inferShape(op: string, inputs: string[], attributes: Record<string, AttributeValue>) {
    const known = (tensor: string) => this.shapes.get(tensor);
    switch (op) {
      case 'Conv': {
        const [n, , h, w] = known(inputs[0]!) ?? [];
        const init = this.initializers.find((t) => t.name === inputs[1]);
        if (n === undefined || h === undefined || w === undefined || !init) return undefined;
        const [sh, sw] = attributes.strides as number[];
        const [kh, kw] = attributes.kernel_shape as number[];
        const same = attributes.auto_pad === 'SAME_UPPER';
        const out = (size: number, k: number, s: number) =>
          same ? Math.ceil(size / s) : Math.floor((size - k) / s) + 1;
        return [n, Number(init.dims![0]), out(h, kh!, sh!), out(w, kw!, sw!)];
      }
      case 'Concat': {
        const shapes = inputs.map(known);
        if (shapes.some((s) => !s)) return undefined;
        const [first] = shapes as number[][];
        return [first![0]!, shapes.reduce((sum, s) => sum + s![1]!, 0), first![2]!, first![3]!];
      }
      case 'Resize': {
        const sizes = this.initializers.find((t) => t.name === inputs[3]);
        return sizes?.int64Data?.map(Number);
      }
      case 'GlobalAveragePool': {
        const shape = known(inputs[0]!);
        return shape && [shape[0]!, shape[1]!, 1, 1];
      }
      default: {
        // Elementwise (with broadcasting): the larger operand's shape.
        const shapes = inputs.map(known).filter((s): s is number[] => s !== undefined && s.length === 4);
        return shapes.sort((a, b) => b[2]! * b[3]! - a[2]! * a[3]!)[0];
      }
    }
  }

  serialize(): Uint8Array {
    const tensorType = (name: string, shape: number[]) =>
      onnx.ValueInfoProto.create({
        name,
        type: {
          tensorType: {
            elemType: onnx.TensorProto.DataType.FLOAT,
            shape: { dim: shape.map((dimValue) => ({ dimValue })) },
          },
        },
      });
    const graph = onnx.GraphProto.create({
      name: 'converted',
      node: this.nodes,
      initializer: this.initializers,
      input: [tensorType(this.input.name, this.input.shape)],
      output: this.outputs.map((name) => tensorType(name, this.shapes.get(name) ?? [])),
    });
    const model = onnx.ModelProto.create({
      irVersion: 7,
      producerName: 'walkaround tfjs-to-onnx',
      opsetImport: [{ domain: '', version: OPSET }],
      graph,
    });
    return onnx.ModelProto.encode(model).finish();
  }
}

function attribute(name: string, value: AttributeValue): Onnx.IAttributeProto {
  const { AttributeType } = onnx.AttributeProto;
  if (typeof value === 'string')
    return { name, type: AttributeType.STRING, s: new TextEncoder().encode(value) };
  if (Array.isArray(value)) return { name, type: AttributeType.INTS, ints: value };
  return { name, type: AttributeType.INT, i: value };
}

const bytesOf = (data: Float32Array) => new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
