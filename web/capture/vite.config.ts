// The capture app is built into dist/web/capture and served by the service at /app/ (same origin as the
// capture API). Everything it needs is bundled: no CDN.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { precompress } from '../precompress.js';

const here = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));
const outDir = here('../../dist/web/capture');

export default defineConfig({
  root: here('.'),
  base: '/app/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  plugins: [precompress(outDir)],
  // `npm run dev:capture`: the app with hot reload, its API calls sent on to a running service.
  server: { proxy: { '/app/api': process.env.WALKAROUND_URL ?? 'http://localhost:8080' } },
  build: {
    outDir,
    emptyOutDir: true,
    target: 'es2022',
    // One small app: a single script and stylesheet load faster on a phone than many chunks.
    modulePreload: false,
    reportCompressedSize: true,
  },
});
