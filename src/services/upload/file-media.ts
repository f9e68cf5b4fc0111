// The parts of a multipart upload (spec 2.3, 4.3): text fields and repeated `files` parts, read in
// the order they arrive. Each file streams through the intake as it arrives, so nothing waits whole in
// memory; the session is claimed as soon as its field is seen.
import type { Readable } from 'node:stream';
import { AppError } from '../../domain/errors.js';
import { extensionOf, kindOfExtension } from '../../domain/limits.js';
import { checkFields, FileUploadFields, type FileUpload } from './fields.js';
import type { UploadAttempt } from './attempt.js';

export type UploadPart =
  | { type: 'field'; fieldname: string; value: unknown }
  | { type: 'file'; fieldname: string; filename: string; file: Readable };

const REQUIRED_BEFORE_FILES = ['type', 'session', 'case_id'];

/** Reads every part into the attempt; returns the checked text fields (also written to `fields`). */
export async function readFileParts(
  parts: AsyncIterable<UploadPart>,
  attempt: UploadAttempt,
  fields: Record<string, unknown> = {},
): Promise<FileUpload> {
  let checked = false;
  let position = 0;
  for await (const part of parts) {
    if (part.type === 'field') {
      fields[part.fieldname] = parseField(part.fieldname, part.value);
      if (part.fieldname === 'session' && typeof fields.session === 'string')
        await attempt.claimSession(fields.session);
      continue;
    }
    if (part.fieldname !== 'files') {
      part.file.resume(); // not ours: drain it
      continue;
    }
    // Fields sent before the files are checked before any file is stored.
    if (!checked && REQUIRED_BEFORE_FILES.every((name) => name in fields)) {
      checkAll(fields, attempt);
      checked = true;
    }
    const extension = extensionOf(part.filename);
    const expectedKind = kindOfExtension(extension);
    if (expectedKind === undefined) {
      part.file.resume();
      throw new AppError('UPLOAD_INVALID_EXTENSION');
    }
    attempt.intake.expect(expectedKind);
    await attempt.intake.add(part.file, {
      position: position++,
      originalId: part.filename,
      sourceUrl: null,
      pairIndex: null,
      pairMember: null,
      expectedKind,
    });
  }
  return checkAll(fields, attempt);
}

function checkAll(fields: Record<string, unknown>, attempt: UploadAttempt): FileUpload {
  const checked = checkFields(FileUploadFields, fields);
  attempt.checkCallback(checked.callback_url);
  return checked;
}

/** Multipart fields are text; `inputMetaData` may be sent as a JSON object. */
function parseField(name: string, value: unknown): unknown {
  if (name !== 'inputMetaData' || typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    throw new AppError('UPLOAD_INVALID_FIELD', { params: { field: name } });
  }
}
