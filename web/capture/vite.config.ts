// The capture app is built into dist/web/capture and served by the service at /app/ (same origin as the
// capture API). Everything it needs is bundled: no CDN.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';

const here = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));
const outDir = here('../../dist/web/capture');

/**
 * Writes a Brotli and a gzip copy beside every script and stylesheet: the service sends them to browsers
 * that take them, so a phone on one bar of signal downloads the compressed size without the server
 * compressing on every request.
 */
function precompress(): Plugin {
  return {
    name: 'walkaround-precompress',
    apply: 'build',
    closeBundle() {
      const assets = path.join(outDir, 'assets');
      for (const name of fs.readdirSync(assets)) {
        if (!/\.(js|css|svg)$/.test(name)) continue;
        const body = fs.readFileSync(path.join(assets, name));
        fs.writeFileSync(path.join(assets, `${name}.gz`), zlib.gzipSync(body, { level: 9 }));
        fs.writeFileSync(
          path.join(assets, `${name}.br`),
          zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
        );
      }
    },
  };
}

export default defineConfig({
  root: here('.'),
  base: '/app/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  plugins: [precompress()],
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
