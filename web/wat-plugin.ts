// Vite (and Vitest) plugin: `import bytes from './x.wat'` gives the module compiled to WebAssembly, as
// a Uint8Array inside the importing script. The text form is the source kept in the repository; wabt
// (the WebAssembly project's own tools) compiles it at build time, so no binary is committed.
import { readFile } from 'node:fs/promises';
import type { Plugin } from 'vite';
import wabt from 'wabt';

export function wat(): Plugin {
  return {
    name: 'walkaround-wat',
    async load(id) {
      if (!id.endsWith('.wat')) return null;
      const tools = await wabt();
      const parsed = tools.parseWat(id, await readFile(id, 'utf8'));
      try {
        parsed.validate();
        const { buffer } = parsed.toBinary({});
        const base64 = Buffer.from(buffer).toString('base64');
        // A few hundred bytes: inlined, so the module needs no request of its own.
        return `export default Uint8Array.from(atob(${JSON.stringify(base64)}), (c) => c.charCodeAt(0));`;
      } finally {
        parsed.destroy();
      }
    },
  };
}
