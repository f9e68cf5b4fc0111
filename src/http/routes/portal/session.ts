// Signing in to the portal and out again (docs/portal.md#signing-in): the session lives in the database,
// its token only in an httpOnly, SameSite=Lax cookie (Secure when the service is reached over https);
// the answer carries the CSRF token the app sends back with every state-changing call.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../../deps.js';
import { signIn, signOut, type PortalCaller } from '../../../services/portal/sessions.js';
import { callerPortal, SESSION_COOKIE } from '../../plugins/auth.js';
import { NoBody } from '../../schemas/content.js';
import { ErrorBody } from '../../schemas/errors.js';

const PATH = '/session';
const COOKIE_PATH = '/portal';

export const Me = Type.Object({
  user: Type.Object({
    id: Type.String(),
    email: Type.String(),
    role: Type.Union([Type.Literal('operator'), Type.Literal('client_admin'), Type.Literal('client_viewer')]),
    client_id: Type.Union([Type.String(), Type.Null()]),
  }),
  csrf_token: Type.String({ description: 'Send it back in `x-csrf-token` with every state-changing call.' }),
});

export const me = (caller: PortalCaller) => ({
  user: { id: caller.userId, email: caller.email, role: caller.role, client_id: caller.clientId },
  csrf_token: caller.csrfToken,
});

const secureFor = (deps: Deps, request: FastifyRequest) =>
  request.protocol === 'https' || deps.config.publicBaseUrl.startsWith('https:');

/** Gives the browser a new session's cookie (also after a set-password link, which signs the user in). */
export function setSessionCookie(deps: Deps, request: FastifyRequest, reply: FastifyReply, token: string) {
  void reply.setCookie(SESSION_COOKIE, token, {
    path: COOKIE_PATH,
    httpOnly: true,
    sameSite: 'lax',
    secure: secureFor(deps, request),
    maxAge: Math.floor(deps.config.portalSessionMaxMs / 1000),
  });
}

export const portalSessionRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  const secure = (request: FastifyRequest) => secureFor(deps, request);
  const clearCookie = (request: FastifyRequest, reply: FastifyReply) =>
    reply.clearCookie(SESSION_COOKIE, {
      path: COOKIE_PATH,
      httpOnly: true,
      sameSite: 'lax',
      secure: secure(request),
    });

  app.post(
    PATH,
    {
      schema: {
        tags: ['Portal'],
        summary: 'Sign in with e-mail and password',
        body: Type.Object(
          {
            email: Type.String({ minLength: 1, maxLength: 320 }),
            password: Type.String({ minLength: 1, maxLength: 1024 }),
          },
          { additionalProperties: false },
        ),
        response: { 200: Me, 401: ErrorBody, 429: ErrorBody },
      },
    },
    async (request, reply) => {
      const { token, caller } = await signIn(deps.portalSessions, {
        email: request.body.email,
        password: request.body.password,
        address: request.ip,
        replacing: request.cookies[SESSION_COOKIE],
      });
      setSessionCookie(deps, request, reply, token);
      return me(caller);
    },
  );

  app.get(
    PATH,
    {
      config: { auth: 'portalSession' },
      schema: {
        tags: ['Portal'],
        summary: 'Who is signed in, and the CSRF token of the session',
        response: { 200: Me, 401: ErrorBody },
      },
    },
    (request) => me(callerPortal(request)),
  );

  app.delete(
    PATH,
    {
      config: { auth: 'portalSession' },
      schema: {
        tags: ['Portal'],
        summary: 'Sign out',
        response: { 204: NoBody, 401: ErrorBody, 403: ErrorBody },
      },
    },
    async (request, reply) => {
      const token = request.cookies[SESSION_COOKIE];
      if (token) await signOut(deps.portalSessions, token);
      clearCookie(request, reply);
      return reply.status(204).send(null);
    },
  );
};
