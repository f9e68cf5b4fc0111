// The capture API behind the link (docs/links.md): every call carries the link token, read from the
// page's hash (it never travels in a URL to the server).
import { reportReach } from './connectivity.js';

export interface Step {
  id: string;
  label: string;
  instructions: string;
  required: boolean;
  overlay: string;
  accept_poor_quality?: boolean;
}

export interface Flow {
  link_id: string;
  case_id: string | null;
  seconds_left: number;
  persona: {
    id: number;
    name: string;
    kind: 'photo' | 'video';
    language: string;
    video_min_seconds: number | null;
    video_max_seconds: number | null;
    branding: { name?: string; colour?: string; logoUrl?: string };
    steps: Step[];
    allow_gallery?: boolean;
    ask_location?: boolean;
    max_photo_dimension?: number | null;
  };
  uploaded: { step_id: string; kind: 'image' | 'video'; mime: string; bytes: number; uploaded_at: string }[];
  missing_steps: string[];
}

export interface QualityCheck {
  blur: { pass: boolean };
  exposure: { pass: boolean; state: 'ok' | 'dark' | 'overexposed' };
  resolution: { pass: boolean };
  pass: boolean;
}

/** Why the link cannot be used: its own page for each. */
export type LinkProblem = 'unknown' | 'expired' | 'submitted' | 'network';

export class LinkError extends Error {
  constructor(readonly problem: LinkProblem) {
    super(problem);
  }
}

/** A refusal of ours with the server's message (shown as is: the catalogue's words). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export const API = '/app/api';

export function readToken(hash: string): string | undefined {
  const token = decodeURIComponent(hash.replace(/^#\/?/, '')).trim();
  return /^[A-Za-z0-9_-]{20,200}$/.test(token) ? token : undefined;
}

async function call<T>(
  token: string,
  path: string,
  init: RequestInit = {},
  sent?: Promise<Response>,
): Promise<T> {
  let response: Response;
  try {
    response = await (sent ??
      fetch(`${API}${path}`, {
        ...init,
        headers: { ...init.headers, authorization: `Bearer ${token}` },
        cache: 'no-store',
      }));
  } catch {
    reportReach(false);
    throw new LinkError('network');
  }
  reportReach(true);
  if (response.status === 401) throw new LinkError('unknown');
  if (response.status === 410) throw new LinkError('expired');
  if (response.status === 409) throw new LinkError('submitted');
  const body = (await response.json().catch(() => ({}))) as { message?: string };
  if (!response.ok) throw new ApiError(response.status, body.message ?? response.statusText);
  return body as T;
}

declare global {
  interface Window {
    /** The flow request index.html sent for the page's token before this script arrived. */
    walkaroundFlow?: { token: string; response: Promise<Response> };
  }
}

/** The link's flow: the answer index.html asked for already, the first time, else a new request. */
export function readFlow(token: string): Promise<Flow> {
  const early = window.walkaroundFlow;
  window.walkaroundFlow = undefined; // once: a retry, or another link in this tab, asks again
  return call<Flow>(token, '/flow', {}, early?.token === token ? early.response : undefined);
}

export const submit = (token: string) =>
  call<{ status: string; id: string }>(token, '/submit', { method: 'POST' });

/** Quality of a photo from a preview of it; `original` is the photo's own pixel size. */
export const checkQuality = (token: string, preview: Blob, original: { width: number; height: number }) =>
  call<{ quality: QualityCheck }>(token, `/quality?width=${original.width}&height=${original.height}`, {
    method: 'POST',
    headers: { 'content-type': preview.type || 'image/jpeg' },
    body: preview,
  }).then((r) => r.quality);
