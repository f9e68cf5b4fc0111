// The web apps the service serves itself (docs/architecture.md#web-apps): the capture app at /app/ and
// the portal at /portal/, each the same origin as its API, which sends no CORS headers. `npm run build`
// writes each to dist/web/<name>: index.html, and assets/ whose names carry a hash of their content, so
// they may be cached for good while index.html is always revalidated (a new build reaches browsers at
// their next visit).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';

/**
 * Where the build puts an app. Compiled, this file is dist/src/http/routes/, so the app is
 * dist/web/<name>/; from the sources under the test runner, the repository's dist/web/<name>/.
 */
const fromSource = import.meta.url.endsWith('.ts');
export const builtWebApp = (name: 'capture' | 'portal'): string =>
  fileURLToPath(
    new URL(fromSource ? `../../../dist/web/${name}/` : `../../../web/${name}/`, import.meta.url),
  );

export interface WebAppOptions {
  /** The build folder. */
  root: string;
  /** Where it is served, with a trailing slash: `/app/`, `/portal/`. */
  path: string;
  /** Its name in messages: "The capture app is not built". */
  title: string;
  /**
   * The app's content security policy, given the `'sha256-…'` sources of index.html's inline scripts
   * (each runs by its hash, nothing else inline does).
   */
  contentSecurityPolicy: (inlineScriptHashes: string) => string;
  permissionsPolicy: string;
}

/** The code of each `<script>` without a `src` in the page. */
const inlineScriptsOf = (html: string): string[] =>
  [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((match) => match[1]!);

const HASHED_ASSET = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

/** Register in a context of its own: its headers reach no other route. */
export const webAppRoutes: FastifyPluginAsync<WebAppOptions> = async (app, options) => {
  const { root } = options;
  const bare = options.path.replace(/\/$/, '');
  const schema = { hide: true } as const;
  const index = path.join(root, 'index.html');
  const hashes = (fs.existsSync(index) ? inlineScriptsOf(fs.readFileSync(index, 'utf8')) : [])
    .map((code) => ` 'sha256-${crypto.createHash('sha256').update(code).digest('base64')}'`)
    .join('');
  const headers = {
    'content-security-policy': options.contentSecurityPolicy(hashes),
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'permissions-policy': options.permissionsPolicy,
  };
  app.addHook('onSend', async (_request, reply) => {
    void reply.headers(headers);
  });
  // Tokens travel in the fragment (`/app#<token>`), which browsers keep across the redirect.
  app.get(bare, { schema }, (request, reply) => {
    const query = request.url.indexOf('?');
    return reply.redirect(options.path + (query === -1 ? '' : request.url.slice(query)), 301);
  });

  if (!fs.existsSync(index)) {
    app.log.warn({ root }, `${options.title} is not built: ${options.path} answers 503`);
    app.get(options.path, { schema }, (_request, reply) =>
      reply
        .code(503)
        .header('cache-control', 'no-store')
        .type('text/plain; charset=utf-8')
        .send(`${options.title} is not built: run npm run build\n`),
    );
    return;
  }
  const assets = path.join(root, 'assets') + path.sep;
  await app.register(fastifyStatic, {
    root,
    prefix: options.path,
    // One route per file found at start, never a catch-all: the app's API under it stays the API's.
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
