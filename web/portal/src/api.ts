// The portal's API (docs/portal.md), as the app calls it: same origin, the session cookie sent by the
// browser, and the session's CSRF token on every state-changing call.
import type { InspectionResult } from '../../../src/domain/result/index.js';

export type { InspectionResult };
export type MediaItem = InspectionResult['media'][number];
export type Damage = NonNullable<MediaItem['analysis']['damage']>['damages'][number];
export type Box = Damage['box'];

export type Role = 'operator' | 'client_admin' | 'client_viewer';
export interface Me {
  user: { id: string; email: string; role: Role; client_id: string | null };
  csrf_token: string;
}

export type Status = 'queued' | 'processing' | 'completed' | 'failed';
export interface ListedInspection {
  id: string;
  client_id: string;
  client_name: string;
  case_id: string;
  status: Status;
  source: 'urls' | 'file' | 'link';
  created_at: string;
  plate: string | null;
  vin: string | null;
  flags: string[];
  media_count: number;
  damages: number;
  has_thumbnail: boolean;
  review_decision: 'accepted' | 'rejected' | null;
}
export interface InspectionList {
  items: ListedInspection[];
  next_cursor: string | null;
  counts: Record<Status, number>;
}

export interface Delivery {
  id: string;
  event_type: string;
  url: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: {
    attempt: number;
    at: string;
    status_code: number | null;
    error: string | null;
    outcome: string;
  }[];
}

export interface InspectionPage {
  inspection: {
    id: string;
    client_id: string;
    client_name: string;
    case_id: string;
    status: Status;
    source: 'urls' | 'file' | 'link';
    agent_id: string | null;
    agent_name: string | null;
    created_at: string;
    review_decision: 'accepted' | 'rejected' | null;
    reviewed_at: string | null;
  };
  result: InspectionResult | null;
  version: number | null;
  latest_version: number | null;
  versions: { version: number; origin: 'analysis' | 'review'; author: string | null; created_at: string }[];
  deliveries: Delivery[];
  timeline: { at: string; event: string; detail: string | null }[];
  may_change: boolean;
}

export interface Share {
  id: string;
  blur: boolean;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  created_by: string | null;
  url?: string;
}

export interface Shared {
  client_name: string;
  case_id: string;
  review_decision: 'accepted' | 'rejected' | null;
  blur: boolean;
  expires_at: string;
  result: InspectionResult;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export const API = '/portal/api';
let csrfToken = '';
export const setCsrfToken = (token: string) => (csrfToken = token);

/** Told when a call finds the session gone (signed out elsewhere, idle, expired). */
export const signedOut = new EventTarget();

export async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const method = init.method ?? 'GET';
  const headers: Record<string, string> = { ...(init.headers as Record<string, string>) };
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken;
  if (init.body && typeof init.body === 'string') headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(`${API}${path}`, {
      ...init,
      headers,
      credentials: 'same-origin',
      cache: 'no-store',
    });
  } catch {
    throw new ApiError(0, 'The service cannot be reached. Check your connection and try again.');
  }
  if (response.status === 204) return undefined as T;
  const body = (await response.json().catch(() => ({}))) as { message?: string };
  if (response.status === 401 && path !== '/session') signedOut.dispatchEvent(new Event('signed-out'));
  if (!response.ok) throw new ApiError(response.status, body.message ?? response.statusText);
  return body as T;
}

export const post = <T>(path: string, body: unknown = {}) =>
  api<T>(path, { method: 'POST', body: JSON.stringify(body) });

/** A file of the API as an object URL (share pages send their token in a header, so no plain <img src>). */
export async function objectUrl(path: string, headers: Record<string, string>): Promise<string> {
  const response = await fetch(`${API}${path}`, { headers, credentials: 'same-origin' });
  if (!response.ok) throw new ApiError(response.status, response.statusText);
  return URL.createObjectURL(await response.blob());
}
