// A minimal Open Inference Protocol (KServe v2) HTTP server for tests, on loopback. It serves one
// model's metadata and readiness and answers /infer by running a real ONNX model with onnxruntime-node
// (the test model of ./onnx-model.ts), so the KServe adapter sees exactly the boxes the local adapter
// sees. Every request is recorded.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { InferenceSession, Tensor } from 'onnxruntime-node';

export interface KserveServerOptions {
  modelPath: string;
  modelName?: string;
  labels: readonly string[];
  /** How the metadata publishes the labels. Default `array` (`parameters.labels: [...]`). */
  labelsAs?: 'array' | 'comma' | 'none';
  versions?: string[];
}

export interface RecordedRequest {
  method: string;
  path: string;
  bytes: number;
  /** For /infer: what the request's first input declared, and how many values it carried. */
  input?: { name: unknown; shape: unknown; datatype: unknown; values: number };
}

export interface KserveServer {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  url: string;
  modelName: string;
  requests: RecordedRequest[];
  /** `ready`: normal; `not_ready`: /ready answers 503; `failing`: /infer answers 500. */
  state: 'ready' | 'not_ready' | 'failing';
  close(): Promise<void>;
}

export async function startKserveServer(options: KserveServerOptions): Promise<KserveServer> {
  const session = await InferenceSession.create(options.modelPath);
  const modelName = options.modelName ?? 'damage';
  const inputName = session.inputNames[0]!;
  const inputMeta = session.inputMetadata[0];
  const inputShape = inputMeta?.isTensor ? inputMeta.shape.map((d) => (typeof d === 'number' ? d : -1)) : [];
  const labelsAs = options.labelsAs ?? 'array';
  const metadata = {
    name: modelName,
    versions: options.versions ?? ['1'],
    platform: 'onnxruntime_onnx',
    inputs: [{ name: inputName, datatype: 'FP32', shape: inputShape }],
    outputs: [{ name: session.outputNames[0], datatype: 'FP32', shape: [-1, -1, -1] }],
    ...(labelsAs !== 'none' && {
      parameters: { labels: labelsAs === 'array' ? [...options.labels] : options.labels.join(',') },
    }),
  };

  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const record: RecordedRequest = { method: req.method ?? '', path: req.url ?? '', bytes: body.length };
      requests.push(record);
      const send = (status: number, value: unknown) => {
        const text = JSON.stringify(value);
        res.writeHead(status, {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(text),
        });
        res.end(text);
      };
      const base = `/v2/models/${modelName}`;
      if (req.method === 'GET' && req.url === base) return send(200, metadata);
      if (req.method === 'GET' && req.url === `${base}/ready`)
        return send(server.state === 'not_ready' ? 503 : 200, {});
      if (req.method === 'POST' && req.url === `${base}/infer`) {
        if (server.state === 'failing') return send(500, { error: 'model crashed' });
        infer(body, record).then(
          (reply) => send(200, reply),
          (error: Error) => send(400, { error: error.message }),
        );
        return;
      }
      send(404, { error: `Unknown ${req.method} ${req.url}` });
    });
  }) as http.Server & { state: KserveServer['state'] };
  server.state = 'ready';

  const infer = async (body: Buffer, record: RecordedRequest) => {
    const request = JSON.parse(body.toString('utf8')) as {
      inputs?: { name?: unknown; shape?: unknown; datatype?: unknown; data?: unknown }[];
    };
    const input = request.inputs?.[0];
    const data = input?.data;
    if (!input || !Array.isArray(data)) throw new Error('inputs[0].data is missing');
    record.input = { name: input.name, shape: input.shape, datatype: input.datatype, values: data.length };
    if (input.name !== inputName) throw new Error(`Unknown input ${String(input.name)}`);
    if (input.datatype !== 'FP32') throw new Error('Expected FP32');
    const shape = input.shape as number[];
    const tensor = new Tensor('float32', Float32Array.from(data as number[]), shape);
    const results = await session.run({ [inputName]: tensor });
    const name = session.outputNames[0]!;
    const output = results[name]!;
    return {
      model_name: modelName,
      model_version: metadata.versions[0],
      outputs: [
        { name, datatype: 'FP32', shape: output.dims, data: Array.from(output.data as Float32Array) },
      ],
    };
  };

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let closed = false;
  const handle: KserveServer = {
    url: `http://127.0.0.1:${port}`,
    modelName,
    requests,
    get state() {
      return server.state;
    },
    set state(value) {
      server.state = value;
    },
    async close() {
      if (closed) return;
      closed = true;
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await session.release();
    },
  };
  return handle;
}
