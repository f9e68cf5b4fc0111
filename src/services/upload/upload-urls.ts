// POST /api/upload with `type` = urls: the fields are checked, the session claimed, what the URLs'
// extensions tell judged before any fetch, then every URL fetched and streamed to staging, and the
// inspection accepted. A rejected upload gives back everything it took.
import { AppError } from '../../domain/errors.js';
import type { TokenClaims } from '../session-tokens.js';
import { UploadAttempt, type UploadAccepted, type UploadDeps } from './attempt.js';
import { checkFields, UrlsUploadBody } from './fields.js';
import { fetchUrlItems, planUrlItems, precheckUrlItems, type UrlMediaDeps } from './url-media.js';

export async function uploadUrls(
  deps: UploadDeps & { fetch: UrlMediaDeps },
  claims: TokenClaims,
  body: unknown,
): Promise<UploadAccepted> {
  const attempt = await UploadAttempt.begin(deps, claims, 'urls');
  try {
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw new AppError('UPLOAD_UNSUPPORTED_MEDIA');
    const fields = checkFields(UrlsUploadBody, body as Record<string, unknown>);
    await attempt.checkCallback(fields.callback_url);
    await attempt.checkCompareWith(fields.compare_with);
    const items = planUrlItems(fields);
    await attempt.claimSession(fields.session);
    precheckUrlItems(items, attempt.intake);
    await fetchUrlItems(deps.fetch, items, attempt.intake, fields.auth);
    return await attempt.accept(fields);
  } catch (error) {
    await attempt.abandon();
    throw error;
  }
}
