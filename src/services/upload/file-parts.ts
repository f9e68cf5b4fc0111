// The parts of a multipart upload as the upload reads them: text fields (an `inputMetaData` sent as
// JSON text becomes an object) and the repeated `files` parts, in the order they arrive. File parts
// of any other name are drained and skipped. Nothing is buffered: each file is a stream to be read
// before the next part arrives.
import type { Readable } from 'node:stream';
import { AppError } from '../../domain/errors.js';

/** A part as the multipart parser hands it over. */
export type UploadPart =
  | { type: 'field'; fieldname: string; value: unknown }
  | { type: 'file'; fieldname: string; filename: string; file: Readable };

export type FilePart =
  { kind: 'field'; name: string; value: unknown } | { kind: 'file'; filename: string; file: Readable };

export async function* fileParts(parts: AsyncIterable<UploadPart>): AsyncGenerator<FilePart> {
  for await (const part of parts) {
    if (part.type === 'field') yield { kind: 'field', name: part.fieldname, value: parseField(part) };
    else if (part.fieldname === 'files') yield { kind: 'file', filename: part.filename, file: part.file };
    else part.file.resume(); // not ours: drain it
  }
}

/** Multipart fields are text; `inputMetaData` may be sent as a JSON object. */
function parseField({ fieldname, value }: { fieldname: string; value: unknown }): unknown {
  if (fieldname !== 'inputMetaData' || typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    throw new AppError('UPLOAD_INVALID_FIELD', { params: { field: fieldname } });
  }
}
