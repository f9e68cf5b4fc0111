// A request body must keep arriving. Node's and Fastify's own timeouts cover the headers and an idle
// socket, but a client that sends its body one byte a second is never idle and would hold a connection
// (and whatever the route holds for it) for ever. So each window of `BODY_TIMEOUT` must bring at least
// BODY_PROGRESS_BYTES of the body, or its end; otherwise the request is answered 408 and its connection
// closed (docs/security.md#request-bodies-and-uploads).
//
// A rate, not a deadline: a 100 MB video over a slow phone link may take many minutes, and must.
// 16 KiB in the default 30 s is about 4 kbit/s, a tenth of the slowest mobile data link.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { sendError } from './errors.js';

export const BODY_PROGRESS_BYTES = 16 * 1024;

export const bodyTimeoutPlugin = fp<{ timeoutMs: number }>(function bodyTimeout(
  app: FastifyInstance,
  { timeoutMs },
) {
  app.addHook('onRequest', (request, reply, done) => {
    watchBody(request, reply, timeoutMs);
    done();
  });
});

function watchBody(request: FastifyRequest, reply: FastifyReply, timeoutMs: number): void {
  const { raw } = request;
  const socket = raw.socket as { bytesRead?: unknown; destroy(): void } | null;
  // No body to wait for, or no real socket (requests injected by tests).
  if (!expectsBody(raw.headers) || raw.complete || typeof socket?.bytesRead !== 'number') return;
  const bytesRead = () => socket.bytesRead as number;
  let mark = bytesRead();
  const timer = setInterval(() => {
    if (raw.complete) return stop();
    const progress = bytesRead() - mark;
    mark += progress;
    if (progress >= BODY_PROGRESS_BYTES) return;
    stop();
    request.log.info({ progress_bytes: progress }, 'request body too slow: answered 408, connection closed');
    if (reply.sent) return socket.destroy();
    void reply.header('connection', 'close');
    reply.raw.once('finish', () => socket.destroy());
    sendError(request, reply, 'REQUEST_BODY_TIMEOUT');
  }, timeoutMs);
  // A pending check must not keep a closing process alive.
  timer.unref();
  const stop = () => clearInterval(timer);
  raw.once('end', stop);
  raw.once('close', stop);
}

function expectsBody(headers: Record<string, string | string[] | undefined>): boolean {
  const length = headers['content-length'];
  return headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
