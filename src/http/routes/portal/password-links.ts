// A set-password link, opened by someone without a session (docs/portal.md#users): the portal's page asks
// whose account it is, then sets the password and signs the user in. The token comes in the
// `x-password-token` header or the JSON body, never in a URL (so never in a log or a referrer). Unknown and
// closed links are counted per client address, as failed sign-ins are, and refused for a while past the
// limit.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Deps } from '../../../deps.js';
import {
  PasswordLinkView,
  passwordLinkView,
  setPasswordWithLink,
} from '../../../services/users/password-links.js';
import { startSession } from '../../../services/portal/sessions.js';
import { errorResponses } from '../../schemas/errors.js';
import { Me, me, setSessionCookie } from './session.js';
import { SESSION_COOKIE } from '../../plugins/auth.js';

const PATH = '/password-link';
const tags = ['Portal'];
/** Unknown (404), used, replaced, expired or of a disabled account (410), too many failures (429). */
const REFUSALS = errorResponses('plain', 404, 410, 429);

export const portalPasswordLinkRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  const linkDeps = {
    db: deps.db,
    now: deps.now,
    limiter: deps.portalSessions.signInLimits.address,
  };

  app.get(
    PATH,
    {
      schema: {
        tags,
        summary: 'Whose account a set-password link is for, and until when it works',
        // Any value is taken: one that is not a token of ours is an unknown link (404, counted).
        headers: Type.Object({ 'x-password-token': Type.Optional(Type.String()) }),
        response: {
          200: PasswordLinkView,
          ...REFUSALS,
        },
      },
    },
    async (request) => passwordLinkView(linkDeps, request.headers['x-password-token'], request.ip),
  );

  app.post(
    PATH,
    {
      schema: {
        tags,
        summary: 'Choose the password with a set-password link (once), and sign in',
        body: Type.Object(
          {
            token: Type.String({ minLength: 1, maxLength: 100 }),
            password: Type.String({ minLength: 1, maxLength: 1024 }),
          },
          { additionalProperties: false },
        ),
        response: { 200: Me, ...REFUSALS },
      },
    },
    async (request, reply) => {
      const user = await setPasswordWithLink(linkDeps, {
        token: request.body.token,
        password: request.body.password,
        address: request.ip,
      });
      const { token, caller } = await startSession(
        { db: deps.db, now: deps.now, sessions: deps.portalSessions.sessions },
        user,
        request.cookies[SESSION_COOKIE],
      );
      setSessionCookie(deps, request, reply, token);
      return me(caller);
    },
  );
};
