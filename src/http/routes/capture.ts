// The capture API behind an inspection link (D7, D8), under the capture app's path `/app/api`, and
// authorised by the link token alone (`Authorization: Bearer <token>`): the flow, resumable uploads
// per step (tus), a quality pre-check for one photo, and the submit.
import fs from 'node:fs';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { FileStore } from '@tus/file-store';
import { Server as TusServer, type ServerOptions } from '@tus/server';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import { AppError, renderMessage } from '../../domain/errors.js';
import { LIMITS } from '../../domain/limits.js';
import { linkOfToken, readFlow, submitLink, type OpenLink } from '../../services/links/capture.js';
import {
  CAPTURE_MAX_BYTES,
  checkCaptureStart,
  newCaptureUploadId,
  storeCapture,
} from '../../services/links/captured-media.js';
import { enforceBelow, MediaGuard } from '../../services/upload/media-guard.js';
import { createQualityPool } from '../../workers/quality-pool.js';
import { bearerToken } from './authenticate.js';

export const CAPTURE_PREFIX = '/app/api';
const UPLOADS_PATH = `${CAPTURE_PREFIX}/uploads`;
/** A resumable upload not finished within this time is dropped (longer than any link lives). */
const UNFINISHED_UPLOAD_TTL_MS = 8 * 24 * 3600 * 1000;

const QUALITY_TYPES = ['image/jpeg', 'image/png', 'image/heic', 'image/heif', 'application/octet-stream'];

export const captureRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  const captureDeps = {
    db: deps.db,
    storage: deps.storage,
    queue: deps.queue,
    now: deps.now,
    publicBaseUrl: deps.config.publicBaseUrl,
  };
  const openLink = (request: FastifyRequest) => linkOfToken(deps, bearerToken(request.headers.authorization));

  // Bodies of tus and of the quality check are streams the handlers read themselves.
  const passThrough = (_request: FastifyRequest, _payload: unknown, done: (err: null) => void) => done(null);
  app.addContentTypeParser(['application/offset+octet-stream', ...QUALITY_TYPES], passThrough);

  app.get(
    `${CAPTURE_PREFIX}/flow`,
    {
      schema: {
        tags: ['Capture'],
        summary: "The link's flow: steps, branding, language, what is uploaded, time left",
        security: [{ linkToken: [] }],
      },
    },
    async (request) => readFlow(captureDeps, await openLink(request)),
  );

  app.post(
    `${CAPTURE_PREFIX}/submit`,
    {
      schema: {
        tags: ['Capture'],
        summary: 'Turns the captured media into an inspection; the token is spent',
        security: [{ linkToken: [] }],
      },
    },
    async (request) => submitLink(captureDeps, await openLink(request)),
  );

  const quality = createQualityPool();
  const scratch = path.join(deps.config.dataDir, 'tmp');
  await fs.promises.mkdir(scratch, { recursive: true });
  app.post(
    `${CAPTURE_PREFIX}/quality`,
    {
      schema: {
        tags: ['Capture'],
        summary:
          'Quality pre-check of one photo (blur, exposure, resolution), so the app can ask for a retake',
        description: 'The body is the photo itself (JPEG, PNG or HEIC); nothing is kept.',
        security: [{ linkToken: [] }],
      },
    },
    async (request) => {
      await openLink(request);
      const file = path.join(scratch, `quality-${newCaptureUploadId()}`);
      const guard = new MediaGuard({
        expectedKind: 'image',
        onBytes: (_kind, total) => enforceBelow(total, LIMITS.imageMaxBytes, 'UPLOAD_IMAGE_TOO_LARGE'),
      });
      try {
        await pipeline(request.raw, guard, fs.createWriteStream(file));
        if (!guard.sniffed) throw new AppError('CAPTURE_IMAGE_REQUIRED');
        return { quality: await quality.check(file, guard.sniffed.mime) };
      } catch (error) {
        if (error instanceof AppError && error.code === 'UPLOAD_UNSUPPORTED_MEDIA')
          throw new AppError('CAPTURE_IMAGE_REQUIRED');
        throw error;
      } finally {
        await fs.promises.rm(file, { force: true });
      }
    },
  );

  // Resumable uploads: tus keeps unfinished uploads on the local disk; a finished one moves to the
  // storage port (disk or S3) as the step's media.
  const opened = new WeakMap<IncomingMessage, OpenLink>();
  const datastore = new FileStore({
    directory: path.join(deps.config.dataDir, 'capture-uploads'),
    expirationPeriodInMilliseconds: UNFINISHED_UPLOAD_TTL_MS,
  });
  const linkOfUpload = (req: Parameters<NonNullable<ServerOptions['onUploadCreate']>>[0]): OpenLink => {
    const node = (req as { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req;
    const open = node && opened.get(node);
    if (!open) throw new Error('capture upload without an authorised link');
    return open;
  };
  const tus = new TusServer({
    path: UPLOADS_PATH,
    datastore,
    maxSize: CAPTURE_MAX_BYTES,
    relativeLocation: true,
    // The link's id in the upload's id: a token reaches only its own uploads (checked below).
    namingFunction: (req) => `${linkOfUpload(req).link.id}_${newCaptureUploadId()}`,
    onUploadCreate: async (req, upload) => {
      try {
        checkCaptureStart(linkOfUpload(req), upload.metadata?.step ?? undefined, upload.size);
      } catch (error) {
        throw tusError(error);
      }
      return {};
    },
    onUploadFinish: async (req, upload) => {
      const open = linkOfUpload(req);
      try {
        await storeCapture(deps, open, {
          uploadId: upload.id,
          stepId: upload.metadata?.step ?? '',
          source: datastore.read(upload.id),
        });
        return {};
      } catch (error) {
        throw tusError(error);
      } finally {
        // Stored or refused, the bytes are done with; a retry starts a new upload.
        await datastore.remove(upload.id).catch(() => undefined);
      }
    },
  });

  const handleTus = async (request: FastifyRequest<{ Params: { id?: string } }>, reply: FastifyReply) => {
    // A browser's CORS preflight carries no token; tus answers it with its capabilities only.
    if (request.method === 'OPTIONS') {
      reply.hijack();
      return tus.handle(request.raw, reply.raw);
    }
    const open = await openLink(request);
    const { id } = request.params;
    if (id !== undefined && !id.startsWith(`${open.link.id}_`)) throw new AppError('NOT_FOUND');
    opened.set(request.raw, open);
    reply.hijack();
    await tus.handle(request.raw, reply.raw);
  };
  const tusSchema = { hide: true } as const;
  for (const method of ['POST', 'OPTIONS'] as const)
    app.route({ method, url: UPLOADS_PATH, schema: tusSchema, handler: handleTus });
  for (const method of ['HEAD', 'PATCH', 'DELETE'] as const)
    app.route({ method, url: `${UPLOADS_PATH}/:id`, schema: tusSchema, handler: handleTus });

  // Unfinished uploads past their time are removed hourly (and once at start).
  const sweep = () =>
    tus.cleanUpExpiredUploads().catch((err: unknown) => app.log.warn({ err }, 'capture upload sweep failed'));
  const sweeper = setInterval(() => void sweep(), 3600_000).unref();
  void sweep();

  app.addHook('onClose', async () => {
    clearInterval(sweeper);
    await quality.close();
  });
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

const tusError = (error: unknown): unknown => (error instanceof AppError ? new TusRefusal(error) : error);
