// The error bodies of each surface (docs/api.md#error-bodies), and the errors every operation of a kind
// can answer, so that the OpenAPI document declares each status a route really gives: those that follow
// from its credential and its inputs are added to every route here; a route declares its own others.
import { Type, type TSchema } from '@sinclair/typebox';
import type { RouteOptions } from 'fastify';
import type { Surface } from '../../domain/errors.js';

export const ErrorBody = Type.Object(
  { status: Type.Literal('error'), message: Type.String() },
  { description: 'An error: `message` says what went wrong (docs/errors.md).' },
);

export const LinkErrorBody = Type.Object(
  { status: Type.Literal('false'), message: Type.String() },
  { description: 'An error of the link generator: `status` is the string `false`.' },
);

export const UploadResponse = Type.Object({
  status: Type.String({ description: '`success`, or `error`.' }),
  id: Type.String({ description: 'The submitted session.' }),
  message: Type.String({ description: 'Empty on success; the reason otherwise.' }),
  case_id: Type.String({ description: 'The submitted case_id.' }),
});

export const errorBodyOf: Record<Surface, TSchema> = {
  auth: ErrorBody,
  plain: ErrorBody,
  link: LinkErrorBody,
  upload: UploadResponse,
};

/** `{ [status]: the surface's error body }` for each status. */
export function errorResponses(surface: Surface, ...statuses: number[]): Record<number, TSchema> {
  return Object.fromEntries(statuses.map((status) => [status, errorBodyOf[surface]]));
}

/** What a credential's check answers when it fails (src/http/plugins/auth.ts). */
const CREDENTIAL_ERRORS: Record<string, number[]> = {
  // No or a wrong key; too many wrong keys from one address.
  apiKey: [401, 429],
  uploadToken: [401],
  // Unknown, submitted, expired.
  linkToken: [401, 409, 410],
  // Signed out; a state change without the CSRF token, or a viewer changing something.
  portalSession: [401, 403],
  // Unknown, revoked or expired.
  shareToken: [404, 410],
};

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The statuses any route like this one can answer, besides its own. */
export function standardErrorStatuses(route: Pick<RouteOptions, 'method' | 'schema' | 'config'>): number[] {
  const statuses = new Set<number>([500]);
  const schema = (route.schema ?? {}) as Record<string, unknown>;
  const methods = [route.method].flat();
  const credential = (route.config as { auth?: string } | undefined)?.auth;
  for (const status of credential ? (CREDENTIAL_ERRORS[credential] ?? []) : []) statuses.add(status);
  if (schema.params !== undefined) statuses.add(404);
  if (schema.params !== undefined || schema.querystring !== undefined || schema.body !== undefined)
    statuses.add(400);
  // A body that is malformed or of another type (400), too large (413 on the plain surface, 400 on the
  // others, whose callers know those answers), or that stops arriving (408).
  if (methods.some((method) => BODY_METHODS.has(method))) {
    statuses.add(400).add(408);
    const surface = (route.config as { surface?: string } | undefined)?.surface ?? 'plain';
    if (surface === 'plain') statuses.add(413);
  }
  return [...statuses];
}
