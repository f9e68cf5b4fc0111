// Shared by the web apps' Vite configs: a Brotli and a gzip copy beside every script and stylesheet,
// which the service sends to browsers that take them, so a slow connection downloads the compressed
// size without the server compressing on every request.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

export function precompress(outDir: string): Plugin {
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
