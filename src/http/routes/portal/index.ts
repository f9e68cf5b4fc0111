// The portal's API (docs/portal.md), registered under `/portal/api`: what the results portal and the
// operator console call with a session cookie (sign-in, inspections, reviews, shares, the console's
// clients, personas, users, outbox and audit), and what a share or set-password link opens without one.
// Each route is one service call; the service checks the caller's scope.
import type { FastifyPluginAsync } from 'fastify';
import type { Deps } from '../../../deps.js';
import { portalAuditRoutes } from './audit.js';
import { portalClientRoutes } from './clients.js';
import { portalInspectionRoutes } from './inspections.js';
import { portalOutboxRoutes } from './outbox.js';
import { portalPasswordLinkRoutes } from './password-links.js';
import { portalPersonaRoutes } from './personas.js';
import { portalSessionRoutes } from './session.js';
import { portalSharedRoutes } from './shared.js';
import { portalUserRoutes } from './users.js';
import { portalVehicleRoutes } from './vehicles.js';
import { portalWebhookRoutes } from './webhooks.js';

export const PORTAL_API_PREFIX = '/portal/api';

export const portalApiRoutes: FastifyPluginAsync<{ deps: Deps }> = async (app, { deps }) => {
  await app.register(portalSessionRoutes, { deps });
  await app.register(portalInspectionRoutes, { deps });
  await app.register(portalVehicleRoutes, { deps });
  await app.register(portalSharedRoutes, { deps });
  await app.register(portalAuditRoutes, { deps });
  await app.register(portalOutboxRoutes, { deps });
  await app.register(portalUserRoutes, { deps });
  await app.register(portalPasswordLinkRoutes, { deps });
  await app.register(portalPersonaRoutes, { deps });
  await app.register(portalClientRoutes, { deps });
  await app.register(portalWebhookRoutes, { deps });
};
