/** A WebAssembly text module, compiled at build time (web/wat-plugin.ts). */
declare module '*.wat' {
  const bytes: Uint8Array<ArrayBuffer>;
  export default bytes;
}
