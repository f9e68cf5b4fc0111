// The media of a URL upload (docs/api.md#upload-by-urls): what can be judged from the request is judged
// before any fetch (extensions, pairs, counts, mixing); then every URL is fetched through safe-fetch with
// bounded parallelism and streamed to staging, the limits enforced while streaming. The first failure stops
// the other fetches.
import pLimit from 'p-limit';
import { AppError } from '../../domain/errors.js';
import { extensionOf, kindOfExtension, LIMITS, videoMaxBytes } from '../../domain/limits.js';
import { OutboundError, type SafeFetch } from '../../ports/outbound-fetch.js';
import type { UrlsUpload } from './fields.js';
import type { Intake, ItemMeta } from './intake.js';

export interface UrlMediaDeps {
  safeFetch: SafeFetch;
  concurrency: number;
}

interface UrlItem extends ItemMeta {
  url: string;
}

/** The URL items of the request, in order: `urls` first, then each pair's two members. */
export function planUrlItems(body: UrlsUpload): UrlItem[] {
  const items: UrlItem[] = [];
  const add = (url: string, originalId: string | undefined, pair: [number, number] | null) => {
    const extension = extensionOf(originalId ?? '') || extensionOf(pathOf(url));
    const expectedKind = extension === '' ? undefined : kindOfExtension(extension);
    if (extension !== '' && expectedKind === undefined) throw new AppError('UPLOAD_INVALID_EXTENSION');
    items.push({
      url,
      position: items.length,
      originalId: originalId ?? null,
      sourceUrl: url,
      pairIndex: pair?.[0] ?? null,
      pairMember: pair?.[1] ?? null,
      expectedKind,
    });
  };
  (body.urls ?? []).forEach((url, i) => add(url, body.original_Id?.[i], null));
  (body.url_pairs ?? []).forEach((pair, p) => {
    if (pair.length !== 2) throw new AppError('UPLOAD_BAD_PAIR');
    pair.forEach((url, member) => add(url, undefined, [p, member]));
  });
  if (items.length === 0) throw new AppError('UPLOAD_FIELD_REQUIRED', { params: { field: 'urls' } });
  return items;
}

/** Checks what the extensions already tell, before anything is fetched. */
export function precheckUrlItems(items: UrlItem[], intake: Intake): void {
  const known = items.filter((i) => i.expectedKind !== undefined);
  if (items.some((i) => i.pairIndex !== null && i.expectedKind === 'video'))
    throw new AppError('UPLOAD_BAD_PAIR');
  if (known.filter((i) => i.expectedKind === 'image').length > LIMITS.maxImages)
    throw new AppError('UPLOAD_TOO_MANY_IMAGES');
  for (const item of known) intake.expect(item.expectedKind!);
}

/** Fetches every item into the intake; rejects with the first failure. */
export async function fetchUrlItems(
  deps: UrlMediaDeps,
  items: UrlItem[],
  intake: Intake,
  auth: string | undefined,
): Promise<void> {
  const stop = new AbortController();
  const limit = pLimit(deps.concurrency);
  // The failure that stopped the others is the one to report, not an abort it caused.
  let first: { error: unknown } | undefined;
  const fetchOne = async (item: UrlItem) => {
    if (stop.signal.aborted) return;
    try {
      await fetchInto(deps, item, intake, auth, stop.signal);
    } catch (error) {
      first ??= { error };
      stop.abort();
    }
  };
  await Promise.all(items.map((item) => limit(() => fetchOne(item))));
  if (first) throw first.error;
}

async function fetchInto(
  deps: UrlMediaDeps,
  item: UrlItem,
  intake: Intake,
  auth: string | undefined,
  signal: AbortSignal,
): Promise<void> {
  const couldNotFetch = (cause?: unknown) =>
    new AppError('UPLOAD_FETCH_FAILED', { params: { url: item.url }, cause });
  let response;
  try {
    response = await deps.safeFetch(item.url, { headers: auth ? { authorization: auth } : {}, signal });
  } catch (error) {
    throw couldNotFetch(error);
  }
  if (response.status < 200 || response.status > 299) {
    response.body.destroy();
    throw couldNotFetch(new Error(`status ${response.status}`));
  }
  const declared = Number(response.headers['content-length'] ?? NaN);
  if (item.expectedKind === 'video' && declared >= videoMaxBytes('urls')) {
    response.body.destroy();
    throw new AppError('UPLOAD_URL_VIDEO_TOO_LARGE');
  }
  // A failure of the remote body (reset, timeout) is the URL's fault; any other is ours (storage).
  let remoteFailed = false;
  response.body.once('error', () => (remoteFailed = true));
  try {
    await intake.add(response.body, item);
  } catch (error) {
    if (error instanceof AppError || !(remoteFailed || error instanceof OutboundError)) throw error;
    throw couldNotFetch(error);
  }
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}
