// POST /api/upload (spec 4.2, 4.3; D4): one path, two variants told apart by content type and `type`.
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import { AppError } from '../../domain/errors.js';
import { LIMITS } from '../../domain/limits.js';
import { verifyToken, type TokenClaims } from '../../services/session-tokens.js';
import { UploadAttempt } from '../../services/upload/attempt.js';
import { checkFields, UrlsUploadBody } from '../../services/upload/fields.js';
import { readFileParts, type UploadPart } from '../../services/upload/file-media.js';
import { fetchUrlItems, planUrlItems, precheckUrlItems } from '../../services/upload/url-media.js';
import { bearerToken } from './authenticate.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The verified upload credential (set before the body is read). */
    uploadClaims?: TokenClaims;
    /** `session` and `case_id` as read so far, echoed in error bodies (D4). */
    uploadEcho?: Record<string, unknown>;
  }
}

const FILE_PART_BUFFER_BYTES = 1024 * 1024;

const UploadResponse = Type.Object(
  {
    status: Type.String({ description: '`success`, or `error`.' }),
    id: Type.String({ description: 'The submitted session.' }),
    message: Type.String({ description: 'Empty on success; the reason otherwise.' }),
    case_id: Type.String({ description: 'The submitted case_id.' }),
  },
  { $id: 'UploadResponse' },
);

export const uploadRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  await app.register(multipart, {
    throwFileSizeLimit: true,
    // A file part buffers up to this much before the parser waits for it to drain: fewer pauses of the
    // request stream while a file moves to storage (one file is read at a time).
    fileHwm: FILE_PART_BUFFER_BYTES,
    limits: {
      // Backstops only: the media guard enforces the real, per-kind limits while streaming.
      fileSize: LIMITS.fileVideoMaxBytes + 1,
      files: LIMITS.maxImages + LIMITS.maxVideos,
      fields: 64,
      fieldSize: 256 * 1024,
      parts: 256,
    },
  });

  const uploadDeps = {
    db: deps.db,
    storage: deps.storage,
    queue: deps.queue,
    quota: deps.uploadQuota,
    analysisAvailable: deps.analysisAvailable,
    now: deps.now,
    publicBaseUrl: deps.config.publicBaseUrl,
  };

  app.post(
    '/api/upload',
    {
      config: { surface: 'upload' },
      // Bodies are checked by the service, which answers with D4's messages; the schema documents them.
      validatorCompiler: () => () => true,
      schema: {
        tags: ['Upload'],
        summary: 'Upload media by URLs (JSON, `type` = urls) or as files (multipart, `type` = file)',
        security: [{ uploadToken: [] }],
        consumes: ['application/json', 'multipart/form-data'],
        body: UrlsUploadBody,
        response: { 200: UploadResponse, '4xx': UploadResponse, '5xx': UploadResponse },
      },
      onRequest: async (request) => {
        const token = bearerToken(request.headers.authorization);
        const claims = token === undefined ? undefined : await verifyToken(deps, token, 'upload');
        if (!claims) throw new AppError('UPLOAD_UNAUTHORIZED');
        request.uploadClaims = claims;
      },
    },
    async (request) => {
      const variant = request.isMultipart() ? 'file' : 'urls';
      const attempt = await UploadAttempt.begin(uploadDeps, request.uploadClaims!, variant);
      try {
        return variant === 'file'
          ? await acceptFiles(request, attempt)
          : await acceptUrls(request.body, attempt, deps);
      } catch (error) {
        // Storing stopped at the first broken rule; the rest of the body is read and dropped (not kept,
        // not buffered) so that every client gets to read the answer instead of a broken pipe.
        if (variant === 'file') discardRest(request);
        await attempt.abandon();
        throw error;
      }
    },
  );
};

function discardRest(request: FastifyRequest): void {
  request.raw.unpipe();
  request.raw.resume();
}

async function acceptUrls(body: unknown, attempt: UploadAttempt, deps: Deps) {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new AppError('UPLOAD_UNSUPPORTED_MEDIA');
  const fields = checkFields(UrlsUploadBody, body as Record<string, unknown>);
  attempt.checkCallback(fields.callback_url);
  const items = planUrlItems(fields);
  await attempt.claimSession(fields.session);
  precheckUrlItems(items, attempt.intake);
  await fetchUrlItems(
    { safeFetch: deps.safeFetch, concurrency: deps.config.outbound.concurrency },
    items,
    attempt.intake,
    fields.auth,
  );
  return attempt.accept(fields);
}

async function acceptFiles(request: FastifyRequest, attempt: UploadAttempt) {
  const echo: Record<string, unknown> = {};
  request.uploadEcho = echo;
  const parts = request.parts() as AsyncIterable<UploadPart>;
  const fields = await readFileParts(parts, attempt, echo);
  return attempt.accept(fields);
}
