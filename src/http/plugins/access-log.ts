// One log line per request, when it is answered (method, URL, status, time, request id), instead of
// Fastify's two (one as it arrives, one as it is answered): half the logging on every request, with the
// same facts. Probes and scrapes arrive every few seconds and are not logged at all.
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

const QUIET_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

export class AccessLogController extends LogController {
  constructor() {
    super({
      requestIdLogLabel: 'request_id',
      disableRequestLogging: (request) => QUIET_PATHS.has(request.url ?? ''),
    });
  }

  override incomingRequest(): void {
    // Logged with the answer (requestCompleted).
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return;
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
