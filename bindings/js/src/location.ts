// Where the ES-module build finds v4a.wasm: beside dist/, relative to this module's URL.
// The CommonJS build replaces this file with location.cjs.ts (see scripts/build.mjs).

const isNode =
  typeof (globalThis as { process?: { versions?: { node?: string } } }).process?.versions
    ?.node === "string";

// In Node, the two built-ins initSync() needs, loaded when the module is (an ES module has no
// `require`); browsers never load them.
const node = isNode ? { fs: await import("node:fs"), url: await import("node:url") } : null;

/** The URL of the v4a.wasm file shipped with the package. */
export function defaultWasmUrl(): URL {
  return new URL("../v4a.wasm", import.meta.url);
}

/** Reads the shipped v4a.wasm synchronously (Node only). */
export function readDefaultWasmSync(): Uint8Array<ArrayBuffer> {
  if (node === null) {
    throw new Error(
      "initSync() without arguments reads v4a.wasm from disk, which only Node can do: in a " +
        "browser, await init() (or pass the bytes or a WebAssembly.Module to initSync())",
    );
  }
  return node.fs.readFileSync(node.url.fileURLToPath(defaultWasmUrl()));
}
