// POST /api/upload with `type` = file (multipart): the parts are read in the order they arrive. The
// session is claimed as soon as its field is seen; the fields sent before the first file are checked
// before that file is stored; each file streams into staging as it arrives. A rejected upload gives
// back everything it took.
import { AppError } from '../../domain/errors.js';
import { extensionOf, kindOfExtension } from '../../domain/limits.js';
import type { TokenClaims } from '../session-tokens.js';
import { UploadAttempt, type UploadAccepted, type UploadDeps } from './attempt.js';
import { checkFields, FileUploadFields, type FileUpload } from './fields.js';
import { fileParts, type UploadPart } from './file-parts.js';

const REQUIRED_BEFORE_FILES = ['type', 'session', 'case_id'];

/**
 * `fields` receives the text fields as they are read, so that an error answered before the end can
 * echo `session` and `case_id`.
 */
export async function uploadFiles(
  deps: UploadDeps,
  claims: TokenClaims,
  parts: AsyncIterable<UploadPart>,
  fields: Record<string, unknown> = {},
): Promise<UploadAccepted> {
  const attempt = await UploadAttempt.begin(deps, claims, 'file');
  try {
    let checked = false;
    let position = 0;
    for await (const part of fileParts(parts)) {
      if (part.kind === 'field') {
        fields[part.name] = part.value;
        if (part.name === 'session' && typeof part.value === 'string') await attempt.claimSession(part.value);
        continue;
      }
      if (!checked && REQUIRED_BEFORE_FILES.every((name) => name in fields)) {
        await checkFileFields(fields, attempt);
        checked = true;
      }
      const expectedKind = kindOfExtension(extensionOf(part.filename));
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
    return await attempt.accept(await checkFileFields(fields, attempt));
  } catch (error) {
    await attempt.abandon();
    throw error;
  }
}

async function checkFileFields(fields: Record<string, unknown>, attempt: UploadAttempt): Promise<FileUpload> {
  const checked = checkFields(FileUploadFields, fields);
  await attempt.checkCallback(checked.callback_url);
  await attempt.checkCompareWith(checked.compare_with);
  return checked;
}
