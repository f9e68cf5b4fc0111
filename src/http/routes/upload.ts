// POST /api/upload (docs/api.md#upload): one path, two variants told apart by content type and `type`.
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import { LIMITS } from '../../domain/limits.js';
import { UrlsUploadBody } from '../../services/upload/fields.js';
import type { UploadPart } from '../../services/upload/file-parts.js';
import { uploadFiles } from '../../services/upload/upload-files.js';
import { uploadUrls } from '../../services/upload/upload-urls.js';
import { callerUpload } from '../plugins/auth.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** `session` and `case_id` of a multipart upload as read so far, echoed in its error bodies. */
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
    fetch: { safeFetch: deps.safeFetch, concurrency: deps.config.outbound.concurrency },
  };

  app.post(
    '/api/upload',
    {
      config: { surface: 'upload', auth: 'uploadToken' },
      // Bodies are checked by the service, which answers with its own messages; the schema documents them.
      validatorCompiler: () => () => true,
      schema: {
        tags: ['Upload'],
        summary: 'Upload media by URLs (JSON, `type` = urls) or as files (multipart, `type` = file)',
        consumes: ['application/json', 'multipart/form-data'],
        body: UrlsUploadBody,
        response: { 200: UploadResponse, '4xx': UploadResponse, '5xx': UploadResponse },
      },
    },
    async (request) => {
      if (!request.isMultipart()) return uploadUrls(uploadDeps, callerUpload(request), request.body);
      request.uploadEcho = {};
      try {
        const parts = request.parts() as AsyncIterable<UploadPart>;
        return await uploadFiles(uploadDeps, callerUpload(request), parts, request.uploadEcho);
      } catch (error) {
        // Storing stopped at the first broken rule; the rest of the body is read and dropped (not kept,
        // not buffered) so that every client gets to read the answer instead of a broken pipe.
        discardRest(request);
        throw error;
      }
    },
  );
};

function discardRest(request: FastifyRequest): void {
  request.raw.unpipe();
  request.raw.resume();
}
