// Resumable uploads behind a link through the tus protocol (@tus/server): the tus server speaks the
// protocol, unfinished uploads wait in the capture staging, and the services decide what is accepted.
// Registered by the capture routes, which own the content parser.
import type { IncomingMessage } from 'node:http';
import { Server as TusServer, type ServerOptions } from '@tus/server';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import { AppError, renderMessage } from '../../domain/errors.js';
import type { OpenLink } from '../../services/links/capture.js';
import { CAPTURE_MAX_BYTES } from '../../services/links/captured-media.js';
import {
  captureUploadId,
  finishCaptureUpload,
  finishedCaptureUpload,
  isLinkUpload,
  startCaptureUpload,
} from '../../services/links/capture-uploads.js';
import { callerLink } from '../plugins/auth.js';
import { sendError } from '../plugins/errors.js';
import { tusSchemas } from '../schemas/tus.js';

export const UPLOADS_PATH = '/app/api/uploads';

type TusRequest = Parameters<NonNullable<ServerOptions['onUploadCreate']>>[0];

export const captureUploadRoutes: FastifyPluginAsync<{ deps: Deps }> = async (app, { deps }) => {
  const uploadDeps = { db: deps.db, storage: deps.storage, now: deps.now, staging: deps.captureStaging };

  // The link each request was authorised for, handed from the route to tus's hooks.
  const opened = new WeakMap<IncomingMessage, OpenLink>();
  const linkOf = (req: TusRequest): OpenLink => {
    const node = (req as { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req;
    const open = node && opened.get(node);
    if (!open) throw new Error('capture upload without an authorised link');
    return open;
  };

  const tus = new TusServer({
    path: UPLOADS_PATH,
    datastore: deps.captureStaging.datastore,
    maxSize: CAPTURE_MAX_BYTES,
    relativeLocation: true,
    allowedOrigins: [new URL(deps.config.superappUrl).origin],
    namingFunction: (req, metadata) => captureUploadId(linkOf(req), metadata?.step),
    // Every request, on the id tus itself will use (not a route parameter it might parse otherwise).
    onIncomingRequest: async (req, id) => {
      if (!isLinkUpload(linkOf(req), id)) throw new TusRefusal(new AppError('NOT_FOUND'));
    },
    onUploadCreate: async (req, upload) => {
      const step = upload.metadata?.step ?? undefined;
      await startCaptureUpload(uploadDeps, linkOf(req), {
        stepId: step,
        size: upload.size,
        metadata: upload.metadata,
      }).catch(refuse);
      return {};
    },
    // tus keeps the creation's metadata with the upload (on disk), so the finish reads it from there.
    onUploadFinish: async (req, upload) => {
      const step = upload.metadata?.step ?? '';
      await finishCaptureUpload(uploadDeps, linkOf(req), {
        id: upload.id,
        stepId: step,
        metadata: upload.metadata,
      }).catch(refuse);
      return {};
    },
    // The reply is tus's own, so Fastify's error handler never sees these: log ours, hide the details.
    onResponseError: (req, error) => {
      if (error instanceof TusRefusal || !(error instanceof Error)) return undefined;
      app.log.error({ err: error, url: req.url.replace(/\?.*/, '') }, 'capture upload failed');
      return {
        status_code: 500,
        body: JSON.stringify({ status: 'error', message: 'Internal server error' }),
      };
    },
  });

  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    // tus would answer 501 itself; a request for an extension we do not offer is the client's mistake.
    if (request.headers['upload-concat'] !== undefined)
      return sendError(request, reply, 'CAPTURE_UPLOAD_CONCAT');
    if (request.method !== 'OPTIONS') opened.set(request.raw, callerLink(request));
    if (request.method === 'HEAD') {
      const id = (request.params as { id?: string }).id ?? '';
      const finished = await finishedCaptureUpload(deps.db, callerLink(request), id);
      // tus forgets a finished upload; we answer for it until the link is submitted or expires.
      if (finished)
        return reply
          .status(200)
          .headers({
            'tus-resumable': '1.0.0',
            'upload-offset': String(finished.bytes),
            'upload-length': String(finished.bytes),
            'cache-control': 'no-store',
          })
          .send();
    }
    reply.hijack();
    await tus.handle(request.raw, reply.raw);
  };
  const config = { auth: 'linkToken' } as const;
  // tus writes its answers itself (the contract check sees their status only); its bodies are ours
  // (JSON) when a rule of the service refuses, tus's own short text otherwise.
  const routes = [
    { method: 'POST', url: UPLOADS_PATH, schema: tusSchemas.create },
    { method: 'HEAD', url: `${UPLOADS_PATH}/:id`, schema: tusSchemas.offset },
    { method: 'PATCH', url: `${UPLOADS_PATH}/:id`, schema: tusSchemas.append },
    { method: 'DELETE', url: `${UPLOADS_PATH}/:id`, schema: tusSchemas.terminate },
  ] as const;
  for (const route of routes)
    app.route({
      ...route,
      // The document leaves HEAD routes out unless told (Fastify makes one for every GET).
      config: route.method === 'HEAD' ? { ...config, swagger: { exposeHeadRoute: true } } : config,
      validatorCompiler: () => () => true,
      handler: handle,
    });
  // A browser's CORS preflight carries no token; tus answers it with its capabilities only.
  for (const url of [UPLOADS_PATH, `${UPLOADS_PATH}/:id`])
    app.route({ method: 'OPTIONS', url, schema: { hide: true }, handler: handle });
};

/** A refusal as tus answers it (it reads `status_code` and `body`): the catalogue's status and text. */
class TusRefusal extends Error {
  readonly status_code: number;
  readonly body: string;
  constructor(error: AppError) {
    super(error.message);
    this.status_code = error.status;
    this.body = JSON.stringify({ status: 'error', message: renderMessage(error.code, error.options.params) });
  }
}

const refuse = (error: unknown): never => {
  throw error instanceof AppError ? new TusRefusal(error) : error;
};
