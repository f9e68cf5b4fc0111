// POST /api/upload (docs/api.md#upload): one path, two variants told apart by content type and `type`.
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import { AppError } from '../../domain/errors.js';
import { LIMITS } from '../../domain/limits.js';
import { FileUploadBody, UrlsUploadBody } from '../../services/upload/fields.js';
import type { UploadPart } from '../../services/upload/file-parts.js';
import { uploadFiles } from '../../services/upload/upload-files.js';
import { uploadUrls } from '../../services/upload/upload-urls.js';
import { callerUpload } from '../plugins/auth.js';
import { UploadResponse } from '../schemas/errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** `session` and `case_id` of a multipart upload as read so far, echoed in its error bodies. */
    uploadEcho?: Record<string, unknown>;
  }
}

const FILE_PART_BUFFER_BYTES = 1024 * 1024;

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
        body: {
          content: {
            'application/json': { schema: UrlsUploadBody },
            'multipart/form-data': { schema: FileUploadBody },
          },
        },
        response: { 200: UploadResponse, '4xx': UploadResponse, '5xx': UploadResponse },
      },
    },
    async (request) => {
      if (!request.isMultipart()) return uploadUrls(uploadDeps, callerUpload(request), request.body);
      request.uploadEcho = {};
      const faults = new WeakSet<object>();
      try {
        const parts = framingFaultsOf(request.parts() as AsyncIterable<UploadPart>, faults);
        return await uploadFiles(uploadDeps, callerUpload(request), parts, request.uploadEcho);
      } catch (error) {
        // Storing stopped at the first broken rule; the rest of the body is read and dropped (not kept,
        // not buffered) so that every client gets to read the answer instead of a broken pipe.
        discardRest(request);
        throw isFramingFault(error, faults)
          ? new AppError('UPLOAD_MULTIPART_INVALID', { cause: error })
          : error;
      }
    },
  );
};

function discardRest(request: FastifyRequest): void {
  request.raw.unpipe();
  request.raw.resume();
}

/**
 * The parser's parts, with every error of the multipart framing itself (no boundary, broken part headers,
 * a body cut before its closing boundary) remembered in `faults`: those are the client's mistakes, to be
 * answered 400, not failures of ours.
 */
async function* framingFaultsOf(parts: AsyncIterable<UploadPart>, faults: WeakSet<object>) {
  // The parser reports framing faults as plain Errors, with neither a status nor a code. A file stream
  // also errors when the upload itself gives up on it (a broken rule, a storage failure): those errors
  // are AppErrors or carry a code, and keep their own answer.
  const remember = (error: unknown) => {
    const plain = error instanceof Error && Object.getPrototypeOf(error) === Error.prototype;
    if (plain && !('statusCode' in error) && !('code' in error)) faults.add(error);
  };
  const iterator = parts[Symbol.asyncIterator]();
  for (;;) {
    let next: IteratorResult<UploadPart>;
    try {
      next = await iterator.next();
    } catch (error) {
      remember(error);
      throw error;
    }
    if (next.done === true) return;
    // A file cut short errors on its own stream: while the upload reads it, or already before it is
    // handed over when the parser has seen the whole (short) body first.
    if (next.value.type === 'file') {
      const { file } = next.value;
      if (file.errored) remember(file.errored);
      file.on('error', remember);
    }
    yield next.value;
  }
}

/** Whether `error`, or an error it was caused by, is a framing fault of the multipart body. */
function isFramingFault(error: unknown, faults: WeakSet<object>): boolean {
  for (let cause = error, hops = 0; cause instanceof Error && hops < 5; cause = cause.cause, hops++)
    if (faults.has(cause)) return true;
  return false;
}
