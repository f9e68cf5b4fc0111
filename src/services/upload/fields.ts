// The fields of the two upload variants (docs/api.md#upload-by-urls, docs/api.md#upload-files) and their
// checks, with the messages of docs/api.md#upload-errors: a missing or wrong required field is "<field> is
// required", a wrong `type` "type must be urls|file", a malformed optional field "<field> is invalid".
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { AppError } from '../../domain/errors.js';
import { LIMITS, nestsDeeperThan } from '../../domain/limits.js';

const Text = (description: string, maxLength = 1024) => Type.String({ maxLength, description });
const Url = Type.String({ minLength: 1, maxLength: 4096 });

const common = {
  session: Type.String({
    minLength: 1,
    maxLength: 128,
    description: 'The session from `/api/authenticate`.',
  }),
  case_id: Type.String({ minLength: 1, maxLength: 256, description: "The client's own inspection id." }),
  callback_url: Type.Optional(
    Type.String({ maxLength: 2048, description: 'Where the result is sent; else the client webhook URL.' }),
  ),
  agent_id: Type.Optional(Text('Agent id.')),
  agent_name: Type.Optional(Text('Agent name.')),
  email_id: Type.Optional(Text('E-mail address the report is sent to.', 320)),
  compare_with: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 128,
      description:
        "An earlier inspection of the client (its `inspection_id`) to compare this one with; by default a known vehicle's latest inspection (docs/vehicles.md).",
    }),
  ),
};

export const UrlsUploadBody = Type.Object(
  {
    type: Type.Literal('urls'),
    ...common,
    urls: Type.Optional(Type.Array(Url, { description: 'Image or video URLs.' })),
    url_pairs: Type.Optional(Type.Array(Type.Array(Url), { description: 'Image URL pairs `[url1, url2]`.' })),
    original_Id: Type.Optional(
      Type.Array(Type.String({ maxLength: 512 }), { description: 'File names for `urls`.' }),
    ),
    original_pair_Id: Type.Optional(
      Type.Array(Type.String({ maxLength: 1024 }), { description: 'Combined file names for `url_pairs`.' }),
    ),
    auth: Type.Optional(
      Type.String({ maxLength: 8192, description: 'Authorization header for fetching the URLs.' }),
    ),
    inputMetaData: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: 'Client metadata.' }),
    ),
  },
  { additionalProperties: true, description: 'Upload by URLs (`type` = `urls`).' },
);
export type UrlsUpload = Static<typeof UrlsUploadBody>;

/** The text fields of a multipart upload; files come as repeated `files` parts. */
export const FileUploadFields = Type.Object(
  {
    type: Type.Literal('file'),
    ...common,
    inputMetaData: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { additionalProperties: true },
);
export type FileUpload = Static<typeof FileUploadFields>;

/** The multipart body as the API reference shows it: the text fields, and `files` once per file. */
export const FileUploadBody = Type.Object(
  {
    ...FileUploadFields.properties,
    inputMetaData: Type.Optional(Type.String({ description: 'Client metadata, as a JSON object.' })),
    files: Type.Array(Type.String({ format: 'binary' }), {
      minItems: 1,
      description: 'One part per image or video file (jpg, jpeg, png, jfif, heic, mp4, webm, mov, mkv, avi).',
    }),
  },
  { description: 'Upload as files (`type` = `file`).' },
);

const REQUIRED = new Set(['type', 'session', 'case_id', 'urls', 'files']);

/** Checks `value` against the variant's schema and throws the upload error of the first problem. */
export function checkFields<T extends TSchema>(schema: T, value: Record<string, unknown>): Static<T> {
  const expectedType = (schema.properties as Record<string, { const?: string }>).type?.const;
  if (typeof value.type !== 'string' || value.type === '')
    throw new AppError('UPLOAD_FIELD_REQUIRED', { params: { field: 'type' } });
  if (value.type !== expectedType)
    throw new AppError(expectedType === 'urls' ? 'UPLOAD_TYPE_NOT_URLS' : 'UPLOAD_TYPE_NOT_FILE');
  // Before the schema walks it: the schema's checks, like the JSON.stringify that stores it, recurse.
  if (nestsDeeperThan(value.inputMetaData, LIMITS.metadataMaxDepth))
    throw new AppError('UPLOAD_INVALID_FIELD', { params: { field: 'inputMetaData' } });
  for (const error of Value.Errors(schema, value)) {
    const field = error.path.split('/')[1] ?? '';
    const code = REQUIRED.has(field) ? 'UPLOAD_FIELD_REQUIRED' : 'UPLOAD_INVALID_FIELD';
    throw new AppError(code, { params: { field } });
  }
  return value;
}

/**
 * An http(s) URL without credentials, or the upload error naming the field (`<field> is invalid`).
 * Deliveries never send to a URL with credentials (docs/webhooks.md#addresses-walkaround-refuses), so
 * such a URL is refused now rather than failing every attempt later.
 */
export function checkHttpUrl(field: string, text: string): URL {
  try {
    const url = new URL(text);
    const http = url.protocol === 'http:' || url.protocol === 'https:';
    if (http && !url.username && !url.password) return url;
  } catch {
    // reported below
  }
  throw new AppError('UPLOAD_INVALID_FIELD', { params: { field } });
}
