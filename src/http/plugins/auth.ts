// Authentication, once for every route: a route names the credential it takes in its config
// (`config: { auth: 'apiKey' }`), and one onRequest hook checks that credential before the body is read,
// then hands the caller to the handler on the request. The same name declares the route's OpenAPI
// security, so the document cannot drift from what is checked. Routes without `auth` are public, or
// check their credential themselves where the interface fixes the order of errors (/superappToken reads
// its key from the body; /api/refresh spends its token).
//
// The portal's session is a cookie, so a state-changing request also needs the session's CSRF token in
// `x-csrf-token` (a cross-site form can send the cookie, never the header). A share link's token comes
// in `x-share-token`: kept out of URLs, and so out of logs and referrers.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Deps } from '../../deps.js';
import { AppError } from '../../domain/errors.js';
import type { ClientRow } from '../../ports/database.js';
import { visiblePrefix } from '../../domain/secret-formats.js';
import { findKeyOwner } from '../../services/api-keys.js';
import { portalActor, type AuditActor } from '../../services/audit.js';
import { checkKeyAttempt } from '../../services/key-attempts.js';
import { linkOfToken, type OpenLink } from '../../services/links/capture.js';
import { sharedInspection } from '../../services/portal/shares.js';
import { csrfMatches, sessionOf, type PortalCaller } from '../../services/portal/sessions.js';
import { verifyToken, type TokenClaims } from '../../services/session-tokens.js';

/** The credentials a route may require, each the name of its OpenAPI security scheme. */
export type Credential = 'apiKey' | 'uploadToken' | 'linkToken' | 'portalSession' | 'shareToken';

/** The portal session cookie (docs/portal.md#signing-in). */
export const SESSION_COOKIE = 'walkaround_portal';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The credential the route requires; checked before the body is read. */
    auth?: Credential;
  }
  interface FastifyRequest {
    /** Set by the `apiKey` check: the client whose live key is in `x-api-key`. */
    client?: ClientRow;
    /** Set by the `apiKey` check: that key, as the audit log names who made a change. */
    keyActor?: AuditActor;
    /** Set by the `uploadToken` check: the claims of the `refresh_token` in `Authorization`. */
    uploadClaims?: TokenClaims;
    /** Set by the `linkToken` check: the open link whose token is in `Authorization`. */
    link?: OpenLink;
    /** Set by the `portalSession` check: who is signed in to the portal. */
    portal?: PortalCaller;
    /** Set by the `shareToken` check: the share link in `x-share-token` and its inspection. */
    share?: Awaited<ReturnType<typeof sharedInspection>>;
  }
}

/** The token of an `Authorization: Bearer <token>` header. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

type Check = (request: FastifyRequest) => Promise<void>;

function checks(deps: Deps): Record<Credential, Check> {
  return {
    async apiKey(request) {
      const header = request.headers['x-api-key'];
      const key = typeof header === 'string' ? header : undefined;
      // No key at all is not a guess: it is not counted.
      if (!key) throw new AppError('API_KEY_REQUIRED');
      const owner = await checkKeyAttempt(
        deps.failedAttempts,
        request.ip,
        () => findKeyOwner(deps.db, key, deps.now()),
        'API_KEY_REQUIRED',
      );
      request.client = owner.client;
      request.keyActor = {
        kind: 'api_key',
        prefix: visiblePrefix(key),
        apiKeyId: owner.apiKeyId,
        requestId: request.id,
      };
    },
    async uploadToken(request) {
      const token = bearerToken(request.headers.authorization);
      const claims = token === undefined ? undefined : await verifyToken(deps, token, 'upload');
      if (!claims) throw new AppError('UPLOAD_UNAUTHORIZED');
      request.uploadClaims = claims;
    },
    async linkToken(request) {
      request.link = await linkOfToken(deps, bearerToken(request.headers.authorization));
    },
    async portalSession(request) {
      const caller = await sessionOf(deps.portalSessions, request.cookies[SESSION_COOKIE]);
      if (!caller) throw new AppError('PORTAL_SIGNED_OUT');
      const sent = request.headers['x-csrf-token'];
      if (
        !SAFE_METHODS.has(request.method) &&
        !csrfMatches(caller, typeof sent === 'string' ? sent : undefined)
      )
        throw new AppError('PORTAL_CSRF');
      request.portal = { ...caller, requestId: request.id };
    },
    async shareToken(request) {
      const token = request.headers['x-share-token'];
      request.share = await sharedInspection(deps, typeof token === 'string' ? token : undefined);
    },
  };
}

export const authPlugin = fp(async function auth(app: FastifyInstance, { deps }: { deps: Deps }) {
  const byCredential = checks(deps);
  app.addHook('onRoute', (route) => {
    const credential = route.config?.auth;
    if (route.schema?.hide) return;
    if (credential !== undefined) route.schema = { ...route.schema, security: [{ [credential]: [] }] };
    // A route without a credential says so (`security: []`) unless it checks one of its own.
    else if (route.schema?.security === undefined) route.schema = { ...route.schema, security: [] };
  });
  app.addHook('onRequest', async (request) => {
    const credential = request.routeOptions.config?.auth;
    if (credential !== undefined) await byCredential[credential](request);
  });
});

/** What a route's check set, or a failure of ours when the route did not declare that credential. */
function required<T>(value: T | undefined, credential: Credential): T {
  if (value === undefined) throw new Error(`route used its ${credential} caller without declaring auth`);
  return value;
}

export const callerClient = (request: FastifyRequest): ClientRow => required(request.client, 'apiKey');
export const callerUpload = (request: FastifyRequest): TokenClaims =>
  required(request.uploadClaims, 'uploadToken');
export const callerLink = (request: FastifyRequest): OpenLink => required(request.link, 'linkToken');
export const callerPortal = (request: FastifyRequest): PortalCaller =>
  required(request.portal, 'portalSession');
export const callerShare = (request: FastifyRequest) => required(request.share, 'shareToken');

/** Who a change is made by, for the audit log: the portal user, or the API key, the route took. */
export function callerActor(request: FastifyRequest): AuditActor {
  if (request.portal) return portalActor(request.portal);
  return required(request.keyActor, 'apiKey');
}
