// Shared by the web apps' Vite configs: an app is built into dist/web/<name> and served by the service
// at `base`, on the same origin as its API. Everything it needs is bundled: no CDN.
import { fileURLToPath } from 'node:url';
import { defineConfig, type UserConfig } from 'vite';
import { precompress } from './precompress.js';
import { wat } from './wat-plugin.js';

export function webAppConfig(app: {
  /** Its folder under web/ and under dist/web/. */
  name: string;
  /** Where the service serves it, e.g. '/app/'. */
  base: string;
  /** Its API's prefix, sent on to a running service by the dev server (hot reload). */
  api: string;
}): UserConfig {
  const root = fileURLToPath(new URL(`./${app.name}/`, import.meta.url));
  const outDir = fileURLToPath(new URL(`../dist/web/${app.name}`, import.meta.url));
  return defineConfig({
    root,
    base: app.base,
    oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
    plugins: [wat(), precompress(outDir)],
    // Workers are bundled apart, with plugins of their own.
    worker: { format: 'es', plugins: () => [wat()] },
    server: { proxy: { [app.api]: process.env.WALKAROUND_URL ?? 'http://localhost:8080' } },
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2022',
      // Small apps: a single script and stylesheet load faster on a phone than many chunks.
      modulePreload: false,
      reportCompressedSize: true,
    },
  });
}
