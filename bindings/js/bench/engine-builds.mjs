// The engine alone, in several builds of v4a.wasm: the raw apply export on inputs already in
// the module's memory (no JS package, no encoding or decoding, no result read), each build's
// fastest batch of 25 rounds that alternate the builds. The minimum is the estimate that a
// loaded machine disturbs least, so this separates what a build's opt-level changes from the
// boundary costs that bench.mjs and builds.mjs include. The workloads are bench.mjs's (written
// by the native helper, bench/native, which is built if needed and then only asked to write).
//
// Usage: node bench/engine-builds.mjs NAME=FILE.wasm [NAME=FILE.wasm ...]

import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const builds = process.argv.slice(2).map((arg) => {
  const eq = arg.indexOf("=");
  if (eq <= 0) throw new Error(`expected NAME=FILE.wasm, got ${arg}`);
  return { name: arg.slice(0, eq), file: arg.slice(eq + 1) };
});
if (builds.length === 0) throw new Error("usage: node bench/engine-builds.mjs NAME=FILE.wasm ...");

const here = fileURLToPath(new URL(".", import.meta.url));
const root = join(here, "..", "..", "..");
const native = join(here, "native");
copyFileSync(join(root, "Cargo.lock"), join(native, "Cargo.lock"));
const targetDir = join(root, "target", "js-bench");
execFileSync("cargo", ["build", "--release", "--quiet", "--manifest-path", join(native, "Cargo.toml")], {
  stdio: "inherit",
  env: { ...process.env, CARGO_TARGET_DIR: targetDir },
});
const dir = mkdtempSync(join(tmpdir(), "v4a-js-engine-"));
// With stdin closed at once, the helper writes the workloads, prints `ready` and exits.
spawnSync(join(targetDir, "release", "v4a-js-native-baseline"), [dir], { input: "" });
const ids = ["W1", "W2", "W6"];
const cases = ids.map((id) => ({
  source: readFileSync(join(dir, `${id}.source`)),
  diff: readFileSync(join(dir, `${id}.diff`)),
}));
rmSync(dir, { recursive: true, force: true });

/** One closure per workload: a raw `v4a_apply_mode_name` call and the result's free. */
function rawCalls(file) {
  const e = new WebAssembly.Instance(new WebAssembly.Module(readFileSync(file)), {}).exports;
  return cases.map(({ source, diff }) => {
    const put = (bytes) => {
      const ptr = e.v4a_wasm_alloc(bytes.length);
      new Uint8Array(e.memory.buffer).set(bytes, ptr);
      return ptr;
    };
    const mode = new TextEncoder().encode("update");
    const [sp, dp, mp] = [put(source), put(diff), put(mode)];
    const out = e.v4a_wasm_alloc(8);
    return () => {
      const status = e.v4a_apply_mode_name(sp, source.length, dp, diff.length, mp, mode.length, 0, out);
      if (status !== 0) throw new Error(`${file}: status ${status}`);
      e.v4a_result_free(new DataView(e.memory.buffer).getUint32(out, true));
    };
  });
}

const calls = builds.map((b) => rawCalls(b.file));
const best = builds.map(() => ids.map(() => Infinity));
for (let round = 0; round < 25; round++) {
  calls.forEach((perCase, k) =>
    perCase.forEach((fn, c) => {
      const n = Math.max(5, Math.round(50 / (cases[c].source.length / 32768) ** 0.5));
      const t = process.hrtime.bigint();
      for (let i = 0; i < n; i++) fn();
      best[k][c] = Math.min(best[k][c], Number(process.hrtime.bigint() - t) / n);
    }),
  );
}
const fmt = (ns) => (ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : `${(ns / 1e3).toFixed(1)} µs`);
const width = Math.max(...builds.map((b) => b.name.length));
for (const [k, b] of builds.entries()) {
  const bytes = readFileSync(b.file);
  const sizes = `${bytes.length} B raw, ${gzipSync(bytes, { level: 9 }).length} B gzip -9`;
  console.log(`${b.name.padEnd(width)}  ${ids.map((id, c) => `${id} ${fmt(best[k][c])}`).join("  ")}  (${sizes})`);
}
