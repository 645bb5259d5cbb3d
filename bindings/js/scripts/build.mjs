// Builds the package: the engine for wasm32 (cargo, profile `wasm`), then the ES-module and
// CommonJS builds with tsc. The CommonJS build compiles the same sources with
// src/location.cjs.ts in place of src/location.ts (the only file that differs: how v4a.wasm
// is found). `--skip-cargo` reuses the .wasm already built.

import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const here = dirname(dirname(fileURLToPath(import.meta.url)));
const root = join(here, "..", "..");
const dist = join(here, "dist");
const tsc = join(here, "node_modules", "typescript", "bin", "tsc");
const run = (cmd, args, cwd = here) => execFileSync(cmd, args, { cwd, stdio: "inherit" });

const wasmOut = join(root, "target", "wasm32-unknown-unknown", "wasm", "v4a.wasm");
// WebAssembly SIMD (simd128): the memchr crate's line and substring searches, which the
// engine runs over every line of the source, use 16-byte vectors instead of 4-byte words
// (W1 apply about 2x faster in Node, bindings/js/README.md). Every runtime the package
// supports has it (Node >= 16.4, Chrome 91, Firefox 89, Safari 16.4). A RUSTFLAGS variable
// in the environment replaces this setting (cargo's rule): keep +simd128 in it.
const wasmFlags = 'target.wasm32-unknown-unknown.rustflags=["-Ctarget-feature=+simd128"]';
const cargo = (features) =>
  run(
    "cargo",
    [
      "build",
      "--locked",
      "-p",
      "libv4a",
      "--profile",
      "wasm",
      "--target",
      "wasm32-unknown-unknown",
      "--config",
      wasmFlags,
      ...features,
    ],
    root,
  );
const skipCargo = process.argv.includes("--skip-cargo");
const testDir = join(here, "test-output", "wasm");
mkdirSync(testDir, { recursive: true });
if (!skipCargo) {
  // For the tests only: a build whose `v4a_test_panic` export panics inside the engine, to
  // check that the trap becomes an INTERNAL error and the module is reloaded. Built first:
  // both builds write the same file, and the one shipped is the second.
  // The feature lives in crates/ffi (libv4a only packages it).
  cargo(["--features", "v4a-ffi/test-panic"]);
  cpSync(wasmOut, join(testDir, "v4a-test-panic.wasm"));
  cargo([]);
}

rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
cpSync(wasmOut, join(dist, "v4a.wasm"));
const bytes = readFileSync(wasmOut);
console.log(
  `v4a.wasm: ${bytes.length} bytes raw, ${gzipSync(bytes, { level: 9 }).length} bytes gzip -9`,
);

run(process.execPath, [tsc, "-p", "tsconfig.json"]);

const cjsSrc = join(here, "build", "cjs-src");
rmSync(cjsSrc, { recursive: true, force: true });
mkdirSync(cjsSrc, { recursive: true });
for (const name of readdirSync(join(here, "src"))) {
  if (name === "location.ts" || !name.endsWith(".ts")) continue;
  cpSync(join(here, "src", name), join(cjsSrc, name === "location.cjs.ts" ? "location.ts" : name));
}
run(process.execPath, [tsc, "-p", "tsconfig.cjs.json"]);
writeFileSync(join(dist, "cjs", "package.json"), '{ "type": "commonjs" }\n');
rmSync(join(here, "build"), { recursive: true, force: true });
