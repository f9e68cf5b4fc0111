// The results portal's web app (docs/portal.md), served at /portal/ on the main listener, beside its
// API under /portal/api.
import type { FastifyPluginAsync } from 'fastify';
import { builtWebApp, webAppRoutes } from './web-app.js';

export const PORTAL_APP_DIR = builtWebApp('portal');

/**
 * Own files only: photos come from the portal's API (and blob: URLs on share pages), and the
 * OpenStreetMap links it shows are links, not embedded tiles. No camera, microphone or location.
 */
export const portalAppRoutes: FastifyPluginAsync<{ root: string }> = (app, { root }) =>
  webAppRoutes(app, {
    root,
    path: '/portal/',
    title: 'The portal',
    contentSecurityPolicy: (hashes) =>
      "default-src 'self'; img-src 'self' blob: data:; media-src 'self' blob:; connect-src 'self'; " +
      `style-src 'self' 'unsafe-inline'; script-src 'self'${hashes}; frame-ancestors 'none'; ` +
      "base-uri 'none'; form-action 'self'",
    permissionsPolicy: 'camera=(), geolocation=(), microphone=()',
  });
