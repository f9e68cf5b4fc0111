// The customer's capture app (docs/links.md#4-the-capture-app), served at /app/ on the main listener.
import type { FastifyPluginAsync } from 'fastify';
import { builtWebApp, webAppRoutes } from './web-app.js';

export const CAPTURE_APP_DIR = builtWebApp('capture');
export const CAPTURE_APP_PATH = '/app/';

/**
 * The app loads only its own files; it shows photos from blob: URLs, its branding logo from any https
 * address (docs/api.md#personas), and may use the camera and the location, nothing else. The one inline
 * script of index.html (it asks for the flow while the app's script downloads) runs by its hash. It may
 * compile WebAssembly ('wasm-unsafe-eval': the live hints' kernels, ADR 20), never evaluate JavaScript
 * from strings. No page may show it in a frame, but those of the origins the operator lists in
 * EMBED_ORIGINS (ADR 19).
 */
export const captureAppRoutes: FastifyPluginAsync<{ root: string; embedOrigins: readonly string[] }> = (
  app,
  { root, embedOrigins },
) =>
  webAppRoutes(app, {
    root,
    path: CAPTURE_APP_PATH,
    title: 'The capture app',
    contentSecurityPolicy: (hashes) =>
      "default-src 'self'; img-src 'self' blob: data: https:; media-src 'self' blob:; connect-src 'self'; " +
      `style-src 'self' 'unsafe-inline'; script-src 'self' 'wasm-unsafe-eval'${hashes}; frame-ancestors ${frameAncestors(embedOrigins)}; ` +
      "base-uri 'none'; form-action 'none'",
    permissionsPolicy: 'camera=(self), geolocation=(self), microphone=()',
  });

/** The frame-ancestors sources: the listed origins, or none at all (the default). */
const frameAncestors = (origins: readonly string[]) => (origins.length > 0 ? origins.join(' ') : "'none'");
