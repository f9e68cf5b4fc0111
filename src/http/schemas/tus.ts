// The capture uploads (tus 1.0.0, creation and termination extensions) as the OpenAPI document shows
// them: https://tus.io/protocols/resumable-upload describes the protocol; these are its requests here.
import { Type } from '@sinclair/typebox';
import { binaryBody, NoBody } from './content.js';
import { ErrorBody } from './errors.js';

const tags = ['Capture'];
const Header = (description: string) => ({ type: 'string', description });
const TUS_RESUMABLE = Type.String({ description: 'Always `1.0.0`.' });

/** tus's own refusals are short text; the service's (a step's rules, the link) are JSON. */
const TusError = (description: string) => ({
  description,
  content: {
    'application/json': { schema: ErrorBody },
    'text/plain': { schema: Type.String() },
  },
});

/** No body: the document shows the response without content. */
const nullBody = () => ({ type: NoBody.type });

const Id = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) });

export const tusSchemas = {
  create: {
    tags,
    summary: 'Start a resumable upload of one step (tus creation)',
    description:
      'Send `Upload-Length` and `Upload-Metadata` with `step` (the step id, base64 as tus encodes metadata) and optionally `source`, `captured_at`, `orientation`, `latitude`, `longitude`, `accuracy`. The answer’s `Location` is the upload’s address; send the bytes there with PATCH.',
    headers: Type.Object({
      'tus-resumable': TUS_RESUMABLE,
      'upload-length': Type.String({ description: 'The whole file, in bytes.' }),
      'upload-metadata': Type.String({
        description: 'tus metadata: `key base64value` pairs, comma-separated.',
      }),
    }),
    response: {
      201: { description: 'Created.', headers: { location: Header('The upload’s address.') }, ...nullBody() },
      400: TusError('Bad length or metadata, an unknown step, or a kind the step does not take.'),
      412: TusError('No `Tus-Resumable` header.'),
      413: TusError('Larger than the capture limit.'),
      415: TusError('The first bytes are not an image or a video (the upload is sniffed as it arrives).'),
      429: TusError('Two unfinished uploads of this step already.'),
    },
  },
  offset: {
    tags,
    summary: 'How many bytes of the upload the server holds (tus HEAD)',
    description:
      'A finished upload keeps answering its full length until the link is submitted or expires, so a client that lost the last answer does not send the file again.',
    params: Id,
    response: {
      200: {
        description: 'The upload’s offset and length.',
        headers: {
          'upload-offset': Header('Bytes the server holds.'),
          'upload-length': Header('The whole file, in bytes.'),
        },
        ...nullBody(),
      },
      412: TusError('No `Tus-Resumable` header.'),
    },
  },
  append: {
    tags,
    summary: 'Send bytes of the upload from its offset (tus PATCH)',
    params: Id,
    headers: Type.Object({
      'tus-resumable': TUS_RESUMABLE,
      'upload-offset': Type.String({ description: 'Where these bytes start: the offset HEAD answered.' }),
    }),
    body: binaryBody(['application/offset+octet-stream']),
    response: {
      204: {
        description: 'Stored.',
        headers: { 'upload-offset': Header('Bytes the server now holds.') },
        ...nullBody(),
      },
      403: TusError('A PATCH without `Upload-Offset`, or of another content type.'),
      409: TusError('`Upload-Offset` is not the server’s offset: ask with HEAD, then resume from there.'),
      412: TusError('No `Tus-Resumable` header.'),
      413: TusError('More bytes than `Upload-Length`.'),
      415: TusError('The bytes are not an image or a video, or not of the kind the step takes.'),
    },
  },
  terminate: {
    tags,
    summary: 'Drop an unfinished upload (tus termination), e.g. when the photo is retaken',
    params: Id,
    response: {
      204: { description: 'Dropped.', ...nullBody() },
      412: TusError('No `Tus-Resumable` header.'),
    },
  },
};
