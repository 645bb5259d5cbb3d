// Where the ES-module build finds v4a.wasm: beside dist/, relative to this module's URL.
// The CommonJS build replaces this file with location.cjs.ts (see scripts/build.mjs).

/** The URL of the v4a.wasm file shipped with the package. */
export function defaultWasmUrl(): URL {
  return new URL("../v4a.wasm", import.meta.url);
}

/**
 * Reads the shipped v4a.wasm synchronously (Node only). The ES-module build has no `require`,
 * so it needs `process.getBuiltinModule` (Node ≥ 20.16 / 22.3).
 */
export function readDefaultWasmSync(): Uint8Array<ArrayBuffer> {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } })
    .process;
  if (typeof proc?.getBuiltinModule !== "function") {
    throw new Error(
      "initSync() without arguments reads v4a.wasm from disk, which this ES-module build can do " +
        "only on Node >= 20.16 (process.getBuiltinModule); pass the bytes or a " +
        "WebAssembly.Module to initSync(), or await init()",
    );
  }
  const fs = proc.getBuiltinModule("node:fs") as { readFileSync(p: string): Uint8Array<ArrayBuffer> };
  const url = proc.getBuiltinModule("node:url") as { fileURLToPath(u: URL): string };
  return fs.readFileSync(url.fileURLToPath(defaultWasmUrl()));
}
