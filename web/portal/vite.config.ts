// The results portal is built into dist/web/portal and served by the service at /portal/ (same origin
// as its API). Everything it needs is bundled: no CDN.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { precompress } from '../precompress.js';

const here = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));
const outDir = here('../../dist/web/portal');

export default defineConfig({
  root: here('.'),
  base: '/portal/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  plugins: [precompress(outDir)],
  // `npm run dev:portal`: the portal with hot reload, its API calls sent on to a running service.
  server: { proxy: { '/portal/api': process.env.WALKAROUND_URL ?? 'http://localhost:8080' } },
  build: {
    outDir,
    emptyOutDir: true,
    target: 'es2022',
    modulePreload: false,
    reportCompressedSize: true,
  },
});
