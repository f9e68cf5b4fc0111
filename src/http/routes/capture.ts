// The capture API behind an inspection link, under the capture app's path `/app/api`, authorised by the
// link token alone (`Authorization: Bearer <token>`): the flow, resumable uploads per step (tus), a
// quality pre-check for one photo, and the submit; and the capture app itself at /app/. See docs/links.md.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import { FlowView, readFlow, SubmitAnswer, submitLink } from '../../services/links/capture.js';
import { QualityPart } from '../../domain/result/image-parts.js';
import { checkPhotoQuality } from '../../services/links/quality-check.js';
import { callerLink } from '../plugins/auth.js';
import { errorResponses } from '../schemas/errors.js';
import { binaryBody } from '../schemas/content.js';
import { CAPTURE_APP_DIR, captureAppRoutes } from './capture-app.js';
import { captureUploadRoutes } from './capture-uploads.js';

export const CAPTURE_PREFIX = '/app/api';

const QUALITY_TYPES = ['image/jpeg', 'image/png', 'image/heic', 'image/heif', 'application/octet-stream'];

// Text, as every query arrives: the service checks them, so a bad value gets a message naming it.
const side = (name: string, example: string) =>
  Type.Optional(
    Type.String({
      description: `${name} of the original photo in pixels (a whole number from 1 to 100000), when the body is a smaller preview of it; give both width and height or neither.`,
      examples: [example],
    }),
  );
const QualityQuery = Type.Object({ width: side('Width', '4032'), height: side('Height', '3024') });

export interface CaptureRouteOptions {
  deps: Deps;
  /** The built capture app; default: where `npm run build` puts it. Tests give a folder of their own. */
  appDir?: string;
}

export const captureRoutes: FastifyPluginAsyncTypebox<CaptureRouteOptions> = async (
  app,
  { deps, appDir },
) => {
  const captureDeps = {
    db: deps.db,
    storage: deps.storage,
    queue: deps.queue,
    now: deps.now,
    publicBaseUrl: deps.config.publicBaseUrl,
  };
  const qualityDeps = { photoQuality: deps.photoQuality, scratchDir: deps.scratchDir };
  const config = { auth: 'linkToken' } as const;
  const tags = ['Capture'];

  // Bodies of tus and of the quality check are streams the services read themselves.
  const passThrough = (_request: FastifyRequest, _payload: unknown, done: (err: null) => void) => done(null);
  app.addContentTypeParser(['application/offset+octet-stream', ...QUALITY_TYPES], passThrough);

  app.get(
    `${CAPTURE_PREFIX}/flow`,
    {
      config,
      schema: {
        tags,
        summary: "The link's flow: steps, branding, language, what is uploaded, time left",
        response: { 200: FlowView },
      },
    },
    async (request) => readFlow(captureDeps, callerLink(request)),
  );

  app.post(
    `${CAPTURE_PREFIX}/submit`,
    {
      config,
      schema: {
        tags,
        summary: 'Turns the captured media into an inspection; the token is spent',
        response: { 200: SubmitAnswer },
      },
    },
    async (request) => submitLink(captureDeps, callerLink(request)),
  );

  app.post(
    `${CAPTURE_PREFIX}/quality`,
    {
      config,
      schema: {
        tags,
        summary:
          'Quality pre-check of one photo (blur, exposure, resolution), so the app can ask for a retake',
        description:
          'The body is the photo itself (JPEG, PNG or HEIC), or a smaller preview of it with the original size in `width` and `height`: blur and exposure are judged on the body, the resolution on the original size. Nothing is kept.',
        querystring: QualityQuery,
        // The body is the photo itself (read by the service as a stream, not validated here).
        body: binaryBody(QUALITY_TYPES),
        // 503: every quality-check slot is taken; the app retries after Retry-After.
        response: { 200: Type.Object({ quality: QualityPart }), ...errorResponses('plain', 503) },
      },
      validatorCompiler: () => () => true,
    },
    async (request) => checkPhotoQuality(qualityDeps, request.raw, request.query),
  );

  await app.register(captureUploadRoutes, { deps });
  await app.register(captureAppRoutes, {
    root: appDir ?? CAPTURE_APP_DIR,
    embedOrigins: deps.config.embedOrigins,
  });
};
