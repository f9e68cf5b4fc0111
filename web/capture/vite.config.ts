// The capture app is built into dist/web/capture and served by the service at /app/ (same origin as the
// capture API). Everything it needs is bundled: no CDN.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: here('.'),
  base: '/app/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  // `npm run dev:capture`: the app with hot reload, its API calls sent on to a running service.
  server: { proxy: { '/app/api': process.env.WALKAROUND_URL ?? 'http://localhost:8080' } },
  build: {
    outDir: here('../../dist/web/capture'),
    emptyOutDir: true,
    target: 'es2022',
    // One small app: a single script and stylesheet load faster on a phone than many chunks.
    modulePreload: false,
    reportCompressedSize: true,
  },
});
