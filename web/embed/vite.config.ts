// The embed script: one small classic script (an IIFE, no module, no chunk) written beside the capture
// app's build as dist/web/capture/embed.js, so the service serves it at /app/embed.js. Built after the
// capture app, whose build empties the folder. A few hundred bytes: sent as is, not precompressed.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const outDir = fileURLToPath(new URL('../../dist/web/capture', import.meta.url));

export default defineConfig({
  build: {
    outDir,
    emptyOutDir: false,
    target: 'es2020',
    copyPublicDir: false,
    lib: {
      entry: fileURLToPath(new URL('./src/embed.ts', import.meta.url)),
      formats: ['iife'],
      name: 'WalkaroundEmbed',
      fileName: () => 'embed.js',
    },
  },
});
