// What the answers of a few routes mean for the operator (docs/ops/metrics.md): uploads and link submits
// accepted or refused (with the catalogue code of the refusal), the bytes they stored, links created and
// opened. Counted here, once the answer is sent, because only here are the acceptance and the refusal's
// code both known, for an upload and a link submit alike; the bytes are read after the commit, so a
// request that failed late counts nothing.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Deps } from '../../deps.js';
import type { UploadSource } from '../../ports/metrics.js';
import { ingestedBytes } from '../../services/ingested-bytes.js';
import { CAPTURE_PREFIX } from '../routes/capture.js';

/** Counts one answer of a route; `accepted`: answered with success. */
type Counted = (request: FastifyRequest, accepted: boolean) => Promise<void> | void;

export const requestMetricsPlugin = fp(async function requestMetrics(
  app: FastifyInstance,
  { deps }: { deps: Pick<Deps, 'db' | 'metrics'> },
) {
  const { metrics } = deps;

  /** An answer to a request that creates the inspection `id` when accepted. */
  const inspection = async (
    request: FastifyRequest,
    source: UploadSource,
    accepted: boolean,
    id: string | undefined,
  ) => {
    if (!accepted || id === undefined) {
      metrics.uploadRefused(source, request.errorCode ?? 'UNKNOWN');
      return;
    }
    metrics.uploadAccepted(source);
    metrics.mediaIngested(source, await ingestedBytes(deps.db, id));
  };

  const byRoute: Record<string, Counted> = {
    // The upload token's session is the inspection's id.
    'POST /api/upload': (request, accepted) =>
      inspection(request, 'api', accepted, request.uploadClaims?.session),
    [`POST ${CAPTURE_PREFIX}/submit`]: async (request, accepted) => {
      // A link's inspection has the link's id.
      await inspection(request, 'link', accepted, request.link?.link.id);
      if (accepted) metrics.linkEvent('submitted');
    },
    'POST /superappToken': (_request, accepted) => {
      if (accepted) metrics.linkEvent('created');
    },
    // The first read of the flow opens the link (services/links/capture.ts readFlow): the link as the
    // credential check read it, before this request, was not opened yet. Two first reads at the same
    // instant (two tabs) both count; the `link.opened` event goes out once.
    [`GET ${CAPTURE_PREFIX}/flow`]: (request, accepted) => {
      if (accepted && request.link?.link.opened_at === null) metrics.linkEvent('opened');
    },
  };

  app.addHook('onResponse', async (request, reply) => {
    const counted = byRoute[`${request.method} ${request.routeOptions.url}`];
    if (!counted) return;
    const accepted = reply.statusCode < 400 && request.errorCode === undefined;
    try {
      await counted(request, accepted);
    } catch (err) {
      request.log.warn({ err }, 'could not count a request in the metrics');
    }
  });
});
