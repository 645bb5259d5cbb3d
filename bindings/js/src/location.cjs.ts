// Where the CommonJS build finds v4a.wasm: beside dist/, relative to this file. Replaces
// location.ts in the CommonJS build (see scripts/build.mjs).

declare const __dirname: string;
declare function require(id: string): unknown;

function wasmPath(): string {
  const path = require("node:path") as { join(...parts: string[]): string };
  return path.join(__dirname, "..", "v4a.wasm");
}

/** The URL of the v4a.wasm file shipped with the package. */
export function defaultWasmUrl(): URL {
  const url = require("node:url") as { pathToFileURL(p: string): URL };
  return url.pathToFileURL(wasmPath());
}

/** Reads the shipped v4a.wasm synchronously. */
export function readDefaultWasmSync(): Uint8Array<ArrayBuffer> {
  const fs = require("node:fs") as { readFileSync(p: string): Uint8Array<ArrayBuffer> };
  return fs.readFileSync(wasmPath());
}
