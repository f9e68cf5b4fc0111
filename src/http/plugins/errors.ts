// One error handler for every surface: a catalogue entry is rendered in the body shape of the route's
// surface (docs/api.md#error-bodies). Anything unforeseen is logged with the request id and answered
// as the surface's "unexpected" entry.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  AppError,
  catalogue,
  invalidRequestFor,
  renderMessage,
  unexpectedErrorFor,
  type ErrorCode,
  type Surface,
} from '../../domain/errors.js';
import { errorBodyOf, standardErrorStatuses } from '../schemas/errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Which error body shape the route answers with; 'plain' when unset. */
    surface?: Surface;
  }
  interface FastifyRequest {
    /** The catalogue entry the request was answered with, if it was an error (read by the metrics). */
    errorCode?: ErrorCode;
  }
}

export function surfaceOf(request: FastifyRequest): Surface {
  return request.routeOptions.config?.surface ?? 'plain';
}

/** The error body of each surface. */
export function errorBody(
  surface: Surface,
  message: string,
  request: FastifyRequest,
): Record<string, string> {
  switch (surface) {
    case 'link':
      return { status: 'false', message };
    case 'upload': {
      const body = (request.uploadEcho ?? request.body ?? {}) as Record<string, unknown>;
      const text = (v: unknown) => (typeof v === 'string' ? v : '');
      return { status: 'error', id: text(body.session), message, case_id: text(body.case_id) };
    }
    case 'auth':
    case 'plain':
      return { status: 'error', message };
  }
}

export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  code: ErrorCode,
  options: { retryAfterSeconds?: number; params?: Record<string, string> } = {},
) {
  const { retryAfterSeconds, params } = options;
  request.errorCode = code;
  if (retryAfterSeconds !== undefined) void reply.header('retry-after', String(Math.ceil(retryAfterSeconds)));
  const message = renderMessage(code, params);
  return reply.status(catalogue[code].status).send(errorBody(surfaceOf(request), message, request));
}

function isClientError(error: FastifyError): boolean {
  return (
    error.validation !== undefined ||
    (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500)
  );
}

export const errorsPlugin = fp(function errors(app: FastifyInstance) {
  // Every documented route declares the errors its credential and its inputs can cause, in its
  // surface's body shape (a route's own declaration of a status wins).
  app.addHook('onRoute', (route) => {
    if (route.schema?.hide) return;
    const response = { ...((route.schema?.response ?? {}) as Record<string, unknown>) };
    const surface = route.config?.surface ?? 'plain';
    for (const status of standardErrorStatuses(route)) {
      const range = `${String(status)[0]}xx`;
      if (response[status] === undefined && response[range] === undefined)
        response[status] = errorBodyOf[surface];
    }
    route.schema = { ...route.schema, response };
  });
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      // A 5xx from the catalogue still reports a failure of ours: log its cause for the operator.
      if (error.status >= 500) request.log.error({ err: error.options.cause ?? error }, error.message);
      return sendError(request, reply, error.code, error.options);
    }
    const surface = surfaceOf(request);
    // A body of a type the upload path does not take (docs/api.md#upload): neither JSON nor multipart.
    if (surface === 'upload' && error.statusCode === 415)
      return sendError(request, reply, 'UPLOAD_UNSUPPORTED_MEDIA');
    // Over the route's body limit: said as such (the other surfaces keep the answers their callers know).
    if (surface === 'plain' && error.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
      return sendError(request, reply, 'BODY_TOO_LARGE');
    if (isClientError(error)) {
      request.log.info({ err: error }, 'request rejected');
      return sendError(request, reply, invalidRequestFor[surface]);
    }
    request.log.error({ err: error }, 'unexpected error');
    return sendError(request, reply, unexpectedErrorFor[surface]);
  });
  app.setNotFoundHandler((request, reply) => sendError(request, reply, 'NOT_FOUND'));
});
