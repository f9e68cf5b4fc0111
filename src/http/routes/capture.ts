// The capture API behind an inspection link (D7, D8), under the capture app's path `/app/api`, and
// authorised by the link token alone (`Authorization: Bearer <token>`): the flow, resumable uploads
// per step (tus), a quality pre-check for one photo, and the submit.
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import { AppError } from '../../domain/errors.js';
import { LIMITS } from '../../domain/limits.js';
import { linkOfToken, readFlow, submitLink } from '../../services/links/capture.js';
import { newCaptureUploadId } from '../../services/links/captured-media.js';
import { enforceBelow, MediaGuard } from '../../services/upload/media-guard.js';
import { createQualityPool, QualityPoolBusyError } from '../../workers/quality-pool.js';
import { bearerToken } from './authenticate.js';
import { captureUploadRoutes } from './capture-uploads.js';

export const CAPTURE_PREFIX = '/app/api';
/** Seconds the app is told to wait when every quality-check slot is taken. */
const QUALITY_RETRY_SECONDS = 5;

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
        const checked = await quality.check(file, guard.sniffed.mime);
        // Content that looked like an image but does not decode (truncated, corrupt) is the app's.
        if (checked === 'undecodable') throw new AppError('CAPTURE_IMAGE_REQUIRED');
        return { quality: checked };
      } catch (error) {
        if (error instanceof AppError && error.code === 'UPLOAD_UNSUPPORTED_MEDIA')
          throw new AppError('CAPTURE_IMAGE_REQUIRED');
        if (error instanceof QualityPoolBusyError)
          throw new AppError('CAPTURE_BUSY', { retryAfterSeconds: QUALITY_RETRY_SECONDS });
        throw error;
      } finally {
        await fs.promises.rm(file, { force: true });
      }
    },
  );

  await app.register(captureUploadRoutes, { deps, openLink });

  app.addHook('onClose', async () => quality.close());
};
