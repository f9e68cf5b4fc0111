// The customer's capture app (docs/links.md), served at /app/ on the main listener: the same origin as the
// capture API under /app/api, which sends no CORS headers. `npm run build` writes it to dist/web/capture:
// index.html, and assets/ whose names carry a hash of their content, so they may be cached for good while
// index.html is always revalidated (a new build reaches phones at their next visit).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';

/**
 * Where the build puts the app. Compiled, this file is dist/src/http/routes/, so the app is
 * dist/web/capture/; from the sources under the test runner, the repository's dist/web/capture/.
 */
const fromSource = import.meta.url.endsWith('.ts');
export const CAPTURE_APP_DIR = fileURLToPath(
  new URL(fromSource ? '../../../dist/web/capture/' : '../../../web/capture/', import.meta.url),
);

export const CAPTURE_APP_PATH = '/app/';

/**
 * The app loads only its own files; it shows photos from blob: URLs, its branding logo from any https
 * address (docs/api.md#personas), and may use the camera and the location, nothing else. The one inline
 * script of index.html (it asks for the flow while the app's script downloads) runs by its hash.
 */
function securityHeaders(inlineScripts: string[]): Record<string, string> {
  const hashes = inlineScripts.map(
    (code) => ` 'sha256-${crypto.createHash('sha256').update(code).digest('base64')}'`,
  );
  return {
    'content-security-policy':
      "default-src 'self'; img-src 'self' blob: data: https:; media-src 'self' blob:; connect-src 'self'; " +
      `style-src 'self' 'unsafe-inline'; script-src 'self'${hashes.join('')}; frame-ancestors 'none'; ` +
      "base-uri 'none'; form-action 'none'",
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'permissions-policy': 'camera=(self), geolocation=(self), microphone=()',
  };
}

/** The code of each `<script>` without a `src` in the page. */
const inlineScriptsOf = (html: string): string[] =>
  [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((match) => match[1]!);
const HASHED_ASSET = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';
const NOT_BUILT = 'The capture app is not built: run npm run build\n';

/** Registered by the capture routes, in a context of its own: its headers reach no other route. */
export const captureAppRoutes: FastifyPluginAsync<{ root: string }> = async (app, { root }) => {
  const schema = { hide: true } as const;
  const index = path.join(root, 'index.html');
  const headers = securityHeaders(
    fs.existsSync(index) ? inlineScriptsOf(fs.readFileSync(index, 'utf8')) : [],
  );
  app.addHook('onSend', async (_request, reply) => {
    void reply.headers(headers);
  });
  // The token is in the fragment (`/app#<token>`), which browsers keep across the redirect.
  app.get('/app', { schema }, (request, reply) => {
    const query = request.url.indexOf('?');
    return reply.redirect(CAPTURE_APP_PATH + (query === -1 ? '' : request.url.slice(query)), 301);
  });

  if (!fs.existsSync(index)) {
    app.log.warn({ root }, 'the capture app is not built: /app/ answers 503');
    app.get(CAPTURE_APP_PATH, { schema }, (_request, reply) =>
      reply.code(503).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send(NOT_BUILT),
    );
    return;
  }
  const assets = path.join(root, 'assets') + path.sep;
  await app.register(fastifyStatic, {
    root,
    prefix: CAPTURE_APP_PATH,
    // One route per file found at start, never a catch-all: /app/api/… stays the capture API's.
    wildcard: false,
    // @fastify/swagger-ui registers this plugin too; the reply decorators would clash.
    decorateReply: false,
    index: ['index.html'],
    // The build writes a .br and a .gz beside each script and stylesheet: sent to browsers that take
    // them, without compressing on every request.
    preCompressed: true,
    cacheControl: false,
    setHeaders: (response, file) => {
      response.setHeader('cache-control', file.startsWith(assets) ? HASHED_ASSET : REVALIDATE);
      // The same URL may be answered compressed or not: shared caches must key on what the browser takes.
      response.setHeader('vary', 'accept-encoding');
    },
  });
};
