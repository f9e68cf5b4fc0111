// Every response carries `x-request-id`: the caller's own when it is a sane token, else a new UUID. The
// same id labels the request's log lines.
import crypto from 'node:crypto';
import type { FastifyInstance, RawRequestDefaultExpression } from 'fastify';
import fp from 'fastify-plugin';

const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdFrom(request: RawRequestDefaultExpression): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && SANE_ID.test(given) ? given : crypto.randomUUID();
}

export const requestIdPlugin = fp(function requestId(app: FastifyInstance) {
  app.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    done();
  });
});
