// Checks every answer against the OpenAPI document it is generated from (RESPONSE_CONTRACT, off by
// default; the test suite runs with `enforce`): the status must be declared for the operation, and a
// JSON body must match that response's schema exactly. Fastify's serializer silently drops fields a
// response schema does not name, so the body is checked before serialization, with every object of the
// schema closed (`additionalProperties: false` where the schema leaves it open): a field the handler
// sends and the document does not name is a mismatch, not a field quietly lost.
//
// A mismatch is logged as an error and remembered (see takeContractViolations); with `enforce` the answer
// becomes a 500 naming it, where it has not been sent yet. Replies that routes write themselves (tus)
// are checked for their status once sent.
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

export type ContractMode = 'off' | 'log' | 'enforce';

export interface ContractViolation {
  method: string;
  route: string;
  status: number;
  problem: string;
}

const violations: ContractViolation[] = [];

/** The mismatches found in this process since the last call (tests assert there are none). */
export function takeContractViolations(): ContractViolation[] {
  return violations.splice(0);
}

interface DeclaredResponse {
  /** JSON Schema of a JSON body; undefined when the body is not JSON (or not described). */
  json: object | undefined;
  /** Media types the response may have; undefined when only JSON is declared. */
  mediaTypes: string[] | undefined;
}

type Responses = Record<string, unknown>;

const ajv = new Ajv({ allErrors: false, strict: false, validateFormats: true });
addFormats.default(ajv);
const validators = new WeakMap<object, ValidateFunction>();

declare module 'fastify' {
  interface FastifyRequest {
    /** Set once the body was checked before serialization. */
    contractChecked?: boolean;
  }
}

export const responseContractPlugin = fp(async function responseContract(
  app: FastifyInstance,
  { mode }: { mode: ContractMode },
) {
  if (mode === 'off') return;
  // Shared schemas (`$ref`ed by the routes' answers) are closed and known to the checker too.
  app.addHook('onReady', async () => {
    for (const [id, schema] of Object.entries(app.getSchemas()))
      if (!ajv.getSchema(id)) ajv.addSchema(closed(schema, true) as object, id);
  });

  const report = (request: FastifyRequest, status: number, problem: string) => {
    const violation = {
      method: request.method,
      route: request.routeOptions.url ?? request.url,
      status,
      problem,
    };
    violations.push(violation);
    request.log.error({ contract: violation }, `response contract violation: ${problem}`);
    return violation;
  };

  /** The route's declared responses, or undefined for what is not an operation of the document. */
  const responsesOf = (request: FastifyRequest): Responses | undefined => {
    const schema = request.routeOptions.schema as { hide?: boolean; response?: Responses } | undefined;
    if (!request.routeOptions.url || !schema || schema.hide) return undefined;
    return schema.response ?? {};
  };

  const enforceWith = (reply: FastifyReply, problem: string) => {
    void reply.code(500).header('content-type', 'application/json; charset=utf-8');
    return JSON.stringify({ status: 'error', message: `Response contract violation: ${problem}` });
  };

  app.addHook('onRequest', async (request, reply) => {
    // Replies the route writes itself skip the hooks below: their status is checked once sent.
    reply.raw.once('finish', () => {
      if (!reply.sent || request.contractChecked !== undefined) return;
      const responses = responsesOf(request);
      if (responses && !declaredFor(responses, reply.raw.statusCode))
        report(request, reply.raw.statusCode, `status ${reply.raw.statusCode} is not declared`);
    });
  });

  app.addHook('preSerialization', async (request, reply, payload: unknown) => {
    const responses = responsesOf(request);
    if (!responses) return payload;
    request.contractChecked = true;
    const problem = bodyProblem(responses, reply.statusCode, payload, 'application/json');
    if (problem === undefined) return payload;
    report(request, reply.statusCode, problem);
    if (mode !== 'enforce') return payload;
    void reply.code(500);
    return { status: 'error', message: `Response contract violation: ${problem}` };
  });

  app.addHook('onSend', async (request, reply, payload: unknown) => {
    const responses = responsesOf(request);
    if (!responses) return payload;
    const status = reply.statusCode;
    const mediaType = String(reply.getHeader('content-type') ?? '')
      .split(';')[0]!
      .trim();
    // A body handed over as an object was checked before serialization (preSerialization).
    if (request.contractChecked === true) return payload;
    request.contractChecked = false;
    const body =
      typeof payload === 'string' && mediaType === 'application/json' ? parseJson(payload) : NOT_JSON;
    const problem = bodyProblem(responses, status, body, mediaType, request.method === 'HEAD');
    if (problem === undefined) return payload;
    report(request, status, problem);
    return mode === 'enforce' ? enforceWith(reply, problem) : payload;
  });
});

const NOT_JSON = Symbol('not JSON');

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return NOT_JSON;
  }
}

function declaredFor(responses: Responses, status: number): DeclaredResponse | undefined {
  const entry = responses[String(status)] ?? responses[`${String(status)[0]}xx`] ?? responses.default;
  if (entry === undefined) return undefined;
  const content = (entry as { content?: Record<string, { schema?: object }> }).content;
  if (content === undefined) return { json: entry as object, mediaTypes: undefined };
  return { json: content['application/json']?.schema, mediaTypes: Object.keys(content) };
}

/** What is wrong with the answer, or undefined when it is what the document declares. */
function bodyProblem(
  responses: Responses,
  status: number,
  body: unknown,
  mediaType: string,
  headOnly = false,
): string | undefined {
  const declared = declaredFor(responses, status);
  if (!declared) return `status ${status} is not declared`;
  if (headOnly || status === 204 || status === 304) return undefined;
  if (declared.mediaTypes && !declared.mediaTypes.some((type) => matches(type, mediaType)))
    return `${status} answered ${mediaType || 'no content type'}, declared ${declared.mediaTypes.join(', ')}`;
  if (declared.mediaTypes && mediaType !== 'application/json') return undefined;
  if (!declared.json) return undefined;
  if (body === NOT_JSON) return `${status} answered ${mediaType || 'no content type'}, declared JSON`;
  const validate = validatorOf(declared.json);
  if (validate(body)) return undefined;
  const [error] = validate.errors ?? [];
  const where = error?.instancePath || '(body)';
  const extra =
    error?.keyword === 'additionalProperties'
      ? ` '${String((error.params as { additionalProperty?: string }).additionalProperty)}'`
      : '';
  return `${status} body ${where} ${error?.message ?? 'does not match'}${extra}`;
}

const matches = (declared: string, actual: string) =>
  declared === actual ||
  declared === '*/*' ||
  (declared.endsWith('/*') && actual.startsWith(declared.slice(0, -1)));

function validatorOf(schema: object): ValidateFunction {
  let validate = validators.get(schema);
  if (!validate) {
    validate = ajv.compile(closed(schema) as object);
    validators.set(schema, validate);
  }
  return validate;
}

/** A copy of the schema with every open object closed, and without ids (each is compiled on its own). */
function closed(schema: unknown, top = false): unknown {
  if (Array.isArray(schema)) return schema.map((item) => closed(item));
  if (schema === null || typeof schema !== 'object') return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) if (key !== '$id' || top) copy[key] = closed(value);
  if (copy.type === 'object' && copy.properties !== undefined && copy.additionalProperties === undefined)
    copy.additionalProperties = false;
  return copy;
}
