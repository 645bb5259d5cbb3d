// A panic inside the engine (a bug) aborts in WebAssembly: the trap must become a V4AError
// INTERNAL, the module must be reloaded, and the next call must work. Uses the build with
// the `test-panic` export that scripts/build.mjs writes to test-output/wasm/.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { apply, initSync, memorySize, V4AError } from "../dist/esm/index.js";
import { call } from "../dist/esm/engine.js";

const file = fileURLToPath(new URL("../test-output/wasm/v4a-test-panic.wasm", import.meta.url));

test("a trap in the engine is an INTERNAL error, and the engine is reloaded", () => {
  assert.ok(existsSync(file), `${file} is missing: run node scripts/build.mjs`);
  initSync(new WebAssembly.Module(readFileSync(file)));
  const big = "x\n".repeat(1_000_000);
  assert.equal(apply(big, "@@\n-x\n+y\n", { firstMatch: true }).text.length, big.length);
  const grown = memorySize();
  let caught;
  try {
    call("v4a_test_panic");
  } catch (e) {
    caught = e;
  }
  assert.ok(caught instanceof V4AError, String(caught));
  assert.equal(caught.code, "INTERNAL");
  assert.match(caught.message, /bug in v4a/);
  assert.ok(memorySize() < grown, "a fresh instance, with fresh memory");
  assert.equal(apply("a\n", "@@\n-a\n+b\n").text, "b\n");
  // Back to the shipped build for whatever runs next in this process.
  initSync(new WebAssembly.Module(readFileSync(new URL("../dist/v4a.wasm", import.meta.url))));
  assert.equal(apply("a\n", "@@\n-a\n+c\n").text, "c\n");
});
