// Resumable uploads behind a link (D8) through the tus protocol (@tus/server): unfinished uploads wait
// on the local disk; a finished one streams through the upload rules into the storage port (disk or
// S3) and becomes the step's media. Registered by the capture routes, which own the content parser.
import fs from 'node:fs';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { FileStore } from '@tus/file-store';
import { Server as TusServer, type ServerOptions } from '@tus/server';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import { AppError, renderMessage } from '../../domain/errors.js';
import type { OpenLink } from '../../services/links/capture.js';
import {
  CAPTURE_MAX_BYTES,
  checkCaptureStart,
  newCaptureUploadId,
  storeCapture,
} from '../../services/links/captured-media.js';

export const UPLOADS_PATH = '/app/api/uploads';
/** An unfinished upload untouched this long is dropped: a customer resumes within days, not weeks. */
const UNFINISHED_UPLOAD_TTL_MS = 8 * 24 * 3600 * 1000;
/** Unfinished uploads one link may hold at once, per step of its persona (retakes in flight). */
const UNFINISHED_PER_STEP = 2;

type TusRequest = Parameters<NonNullable<ServerOptions['onUploadCreate']>>[0];

export const captureUploadRoutes: FastifyPluginAsync<{
  deps: Deps;
  openLink: (request: FastifyRequest) => Promise<OpenLink>;
}> = async (app, { deps, openLink }) => {
  const directory = path.join(deps.config.dataDir, 'capture-uploads');
  const datastore = new FileStore({ directory, expirationPeriodInMilliseconds: UNFINISHED_UPLOAD_TTL_MS });

  // The link each request was authorised for, handed from the route to tus's hooks.
  const opened = new WeakMap<IncomingMessage, OpenLink>();
  const linkOf = (req: TusRequest): OpenLink => {
    const node = (req as { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req;
    const open = node && opened.get(node);
    if (!open) throw new Error('capture upload without an authorised link');
    return open;
  };
  const ownUploadId = (open: OpenLink, id: string) => id.startsWith(`${open.link.id}_`);

  const tus = new TusServer({
    path: UPLOADS_PATH,
    datastore,
    maxSize: CAPTURE_MAX_BYTES,
    relativeLocation: true,
    allowedOrigins: [new URL(deps.config.superappUrl).origin],
    // The link's id in the upload's id: a token reaches only its own uploads (checked below).
    namingFunction: (req) => `${linkOf(req).link.id}_${newCaptureUploadId()}`,
    // Every request, on the id tus itself will use (not a route parameter it might parse otherwise).
    onIncomingRequest: async (req, id) => {
      if (!ownUploadId(linkOf(req), id)) throw new TusRefusal(new AppError('NOT_FOUND'));
    },
    onUploadCreate: async (req, upload) => {
      const open = linkOf(req);
      try {
        checkCaptureStart(open, upload.metadata?.step ?? undefined, upload.size);
        const unfinished = (await fs.promises.readdir(directory)).filter(
          (name) => ownUploadId(open, name) && !name.endsWith('.json'),
        ).length;
        if (unfinished >= UNFINISHED_PER_STEP * open.steps.length)
          throw new AppError('CAPTURE_TOO_MANY_UPLOADS');
      } catch (error) {
        throw refusalOf(error);
      }
      return {};
    },
    onUploadFinish: async (req, upload) => {
      try {
        await storeCapture(deps, linkOf(req), {
          uploadId: upload.id,
          stepId: upload.metadata?.step ?? '',
          source: datastore.read(upload.id),
        });
      } catch (error) {
        // Refused bytes are dropped (a retry starts a new upload); after a failure of ours they stay,
        // so the app's retry of the last PATCH finishes the upload without sending it again.
        if (error instanceof AppError) await datastore.remove(upload.id).catch(() => undefined);
        throw refusalOf(error);
      }
      await datastore.remove(upload.id);
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
    // A browser's CORS preflight carries no token; tus answers it with its capabilities only.
    if (request.method !== 'OPTIONS') opened.set(request.raw, await openLink(request));
    reply.hijack();
    await tus.handle(request.raw, reply.raw);
  };
  const schema = { hide: true } as const;
  for (const method of ['POST', 'OPTIONS'] as const)
    app.route({ method, url: UPLOADS_PATH, schema, handler: handle });
  for (const method of ['HEAD', 'PATCH', 'DELETE', 'OPTIONS'] as const)
    app.route({ method, url: `${UPLOADS_PATH}/:id`, schema, handler: handle });

  // Unfinished uploads past their time are removed hourly (and once at start).
  const sweep = () =>
    tus.cleanUpExpiredUploads().catch((err: unknown) => app.log.warn({ err }, 'capture upload sweep failed'));
  const sweeper = setInterval(() => void sweep(), 3600_000).unref();
  void sweep();
  app.addHook('onClose', () => clearInterval(sweeper));
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

const refusalOf = (error: unknown): unknown => (error instanceof AppError ? new TusRefusal(error) : error);
