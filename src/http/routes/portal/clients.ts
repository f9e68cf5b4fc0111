// Clients in the portal's console (docs/portal.md#clients-api-keys-and-webhooks): the list, creating one
// (operators), a client's settings, its API keys (create, rotate with a grace period, revoke) and its
// webhook secret's rotation. Each route checks the session, then the role, then the client (another
// client's answers 404); each change is one service call that writes its audit entry. A key or secret is
// in clear only in the answer that makes it.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Deps } from '../../../deps.js';
import { RateCard } from '../../../domain/estimate/rate-card.js';
import { getRateCard, setRateCard } from '../../../services/clients/rate-card.js';
import { Nullable } from '../../../domain/schema.js';
import { EVENT_TYPES } from '../../../domain/webhooks.js';
import {
  addPortalKey,
  administeredClient,
  changePortalClient,
  ClientSummary,
  ClientView,
  createPortalClient,
  MAX_GRACE_SECONDS,
  portalClient,
  portalClients,
  revokePortalKey,
  rotatePortalKey,
  rotatePortalWebhookSecret,
} from '../../../services/clients/portal.js';
import { callerActor, callerPortal } from '../../plugins/auth.js';
import { NoBody } from '../../schemas/content.js';
import { errorResponses } from '../../schemas/errors.js';

const config = { auth: 'portalSession' } as const;
const tags = ['Portal'];

const RateCardView = Type.Object({
  card: RateCard,
  version: Type.Integer({ minimum: 0, description: 'Grows with every change; 0: the example card.' }),
  example: Type.Boolean({ description: 'The example card: its figures are examples, not real rates.' }),
});
const ClientId = Type.Object({ id: Type.String({ minLength: 1, maxLength: 128 }) });

const Grace = Type.Object(
  {
    grace_seconds: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_GRACE_SECONDS,
        description: 'How long the old ones keep working (0: stop now; default 24 h, at most 30 days).',
      }),
    ),
  },
  { additionalProperties: false },
);

/** Every setting, each optional; quota, service window and time zone are the operator's. */
const settingFields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  webhook_url: Nullable(Type.String({ maxLength: 2048 }), { description: 'Null or empty: none.' }),
  webhook_events: Nullable(
    Type.Array(Type.Union(EVENT_TYPES.map((name) => Type.Literal(name))), { uniqueItems: true }),
    { description: 'The event types sent; null: every one.' },
  ),
  quota_per_hour: Type.Integer({ minimum: 1, maximum: 10_000_000, description: 'Operators only.' }),
  service_window: Nullable(Type.String({ maxLength: 500 }), {
    description: 'Operators only. `mon-fri 08:00-18:00, sat 09:00-13:00`; null: always.',
  }),
  timezone: Type.String({ minLength: 1, maxLength: 64, description: 'Operators only. IANA name.' }),
  link_ttl_seconds: Type.Integer({ minimum: 60, maximum: 365 * 24 * 3600 }),
  auto_compare: Type.Boolean({
    description: "Compare a new inspection of a known vehicle with the vehicle's latest (docs/vehicles.md).",
  }),
};
const Settings = Type.Object(settingFields);
const NewClientBody = Type.Composite([Type.Partial(Settings), Type.Pick(Settings, ['name'])], {
  additionalProperties: false,
});
const SettingsBody = Type.Partial(Settings, { additionalProperties: false, minProperties: 1 });

export const portalClientRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    '/clients',
    {
      config,
      schema: {
        tags,
        summary: 'The clients the caller may see, by name (operators: all)',
        description:
          'Client viewers get ids and names only; those who administer them also the webhook URL, ' +
          'the number of live keys and the creation time.',
        response: { 200: Type.Object({ clients: Type.Array(ClientSummary) }) },
      },
    },
    async (request) => ({ clients: await portalClients(deps, callerPortal(request)) }),
  );

  app.post(
    '/clients',
    {
      config,
      schema: {
        tags,
        summary: 'Create a client (operators); its API key and webhook secret are shown this once',
        body: NewClientBody,
        response: {
          201: Type.Object({
            client: ClientView,
            api_key: Type.String({ description: 'Shown this once.' }),
            webhook_secret: Type.String({ description: 'Shown this once.' }),
          }),
        },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await createPortalClient(deps, callerPortal(request), request.body, callerActor(request))),
  );

  app.get(
    '/clients/:id',
    {
      config,
      schema: {
        tags,
        summary: "A client's settings, live keys and webhook secret (by their prefixes)",
        params: ClientId,
        response: { 200: ClientView },
      },
    },
    async (request) => portalClient(deps, callerPortal(request), request.params.id),
  );

  app.patch(
    '/clients/:id',
    {
      config,
      schema: {
        tags,
        summary: "Change a client's settings (a client admin: not quota, service window, time zone)",
        params: ClientId,
        body: SettingsBody,
        response: { 200: ClientView },
      },
    },
    async (request) =>
      changePortalClient(deps, callerPortal(request), request.params.id, request.body, callerActor(request)),
  );

  app.get(
    '/clients/:id/rate-card',
    {
      config,
      schema: {
        tags,
        summary: "The client's rate card for repair estimates (the example card until one is set)",
        params: ClientId,
        response: { 200: RateCardView },
      },
    },
    async (request) => {
      const client = await administeredClient(deps.db, callerPortal(request), request.params.id);
      return getRateCard(deps.db, client.id);
    },
  );

  app.put(
    '/clients/:id/rate-card',
    {
      config,
      schema: {
        tags,
        summary: "Replace the client's rate card: a new version, audited",
        description: 'Estimates from then on use it (docs/estimate.md#the-rate-card).',
        params: ClientId,
        body: RateCard,
        response: { 200: RateCardView, ...errorResponses('plain', 400) },
      },
    },
    async (request) => {
      const client = await administeredClient(deps.db, callerPortal(request), request.params.id);
      return setRateCard(deps, client.id, request.body, callerActor(request));
    },
  );

  app.post(
    '/clients/:id/keys',
    {
      config,
      schema: {
        tags,
        summary: 'One more API key, the others unchanged (shown this once)',
        params: ClientId,
        // 409: the client has as many live keys as allowed.
        response: {
          201: Type.Object({ key: Type.String({ description: 'Shown this once.' }), prefix: Type.String() }),
          ...errorResponses('plain', 409),
        },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await addPortalKey(deps, callerPortal(request), request.params.id, callerActor(request))),
  );

  app.post(
    '/clients/:id/keys/rotate',
    {
      config,
      schema: {
        tags,
        summary: 'A new API key (shown this once); the live ones stop after the grace period',
        params: ClientId,
        body: Grace,
        // 409: with the grace period, the client would hold more live keys than allowed.
        response: {
          201: Type.Object({
            key: Type.String({ description: 'Shown this once.' }),
            prefix: Type.String(),
            others_expire_at: Type.String({ format: 'date-time' }),
          }),
          ...errorResponses('plain', 409),
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const grace = request.body.grace_seconds;
      const key = await rotatePortalKey(deps, callerPortal(request), id, grace, callerActor(request));
      return reply.status(201).send(key);
    },
  );

  app.delete(
    '/clients/:id/keys/:prefix',
    {
      config,
      schema: {
        tags,
        summary: 'Revoke one API key, by its prefix, at once',
        params: Type.Object({
          id: Type.String({ minLength: 1, maxLength: 128 }),
          prefix: Type.String({ pattern: '^wk_live_[A-Za-z0-9_-]{6}$' }),
        }),
        response: { 204: NoBody },
      },
    },
    async (request, reply) => {
      const { id, prefix } = request.params;
      await revokePortalKey(deps, callerPortal(request), id, prefix, callerActor(request));
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/clients/:id/webhook/secret',
    {
      config,
      schema: {
        tags,
        summary: 'A new webhook secret (shown this once); the old one also signs for the grace period',
        params: ClientId,
        body: Grace,
        response: {
          201: Type.Object({
            webhook_secret: Type.String({ description: 'Shown this once.' }),
            previous_signs_until: Nullable(Type.String({ format: 'date-time' })),
          }),
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const grace = request.body.grace_seconds;
      const secret = await rotatePortalWebhookSecret(
        deps,
        callerPortal(request),
        id,
        grace,
        callerActor(request),
      );
      return reply.status(201).send(secret);
    },
  );
};
