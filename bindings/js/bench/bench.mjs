// The JS benchmark: apply from Node through the package (and through the compat entry) on
// the workloads of benches/support/workloads.rs, each as a ratio to the native Rust call
// measured in the same run (bench/native). Prints a table; run `npm run build` first.
//
// W1: 1,000-line file, one hunk; W2: 100,000-line file, one hunk; W6: 20,000 identical
// lines and one distinct, a 400-line hunk (the worst case of the search). "none" is the
// apply alone, "full" adds the structured diff of every line.
//
// V4A_SEED=/path/to/index.js (an ES module whose default export is the seed engine's V4A
// class, e.g. its sources compiled with tsc) adds the seed engine, run in the same process.

import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import { apply, initSync, memorySize } from "../dist/esm/index.js";
import V4A from "../dist/esm/compat.js";

const here = fileURLToPath(new URL(".", import.meta.url));
const root = join(here, "..", "..", "..");
const native = join(here, "native");

copyFileSync(join(root, "Cargo.lock"), join(native, "Cargo.lock"));
execFileSync(
  "cargo",
  ["build", "--release", "--quiet", "--manifest-path", join(native, "Cargo.toml")],
  { stdio: "inherit", env: { ...process.env, CARGO_TARGET_DIR: join(root, "target", "js-bench") } },
);
const dir = mkdtempSync(join(tmpdir(), "v4a-js-bench-"));
const out = execFileSync(join(root, "target", "js-bench", "release", "v4a-js-native-baseline"), [dir]).toString();
const nativeNs = new Map(
  out
    .trim()
    .split("\n")
    .map((l) => l.split(" "))
    .map(([id, style, ns]) => [`${id} ${style}`, Number(ns)]),
);

initSync();
const seed = process.env.V4A_SEED ? (await import(process.env.V4A_SEED)).default : null;

/** Median ns per call of 9 batches, after a warm-up of at least 100 ms. */
function time(fn) {
  fn();
  let n = 0;
  const start = process.hrtime.bigint();
  while (process.hrtime.bigint() - start < 100_000_000n || n < 3) {
    fn();
    n++;
  }
  const perBatch = Math.max(1, Math.ceil(n / 4));
  const batches = [];
  for (let b = 0; b < 9; b++) {
    const t = process.hrtime.bigint();
    for (let i = 0; i < perBatch; i++) fn();
    batches.push(Number(process.hrtime.bigint() - t) / perBatch);
  }
  return batches.sort((a, b) => a - b)[4];
}

// Warm-up: every workload and call once for a while, so the WebAssembly code has been
// tiered up (optimised) before anything is measured.
for (const id of ["W1", "W2", "W6"]) {
  const source = readFileSync(join(dir, `${id}.source`), "utf8");
  const diff = readFileSync(join(dir, `${id}.diff`), "utf8");
  const start = Date.now();
  while (Date.now() - start < 400) {
    apply(source, diff);
    apply(source, diff, { diff: "full" });
    V4A.apply(source, diff);
  }
}

const fmt = (ns) => (ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : `${(ns / 1e3).toFixed(1)} µs`);
const rows = [];
for (const id of ["W1", "W2", "W6"]) {
  const source = readFileSync(join(dir, `${id}.source`), "utf8");
  const diff = readFileSync(join(dir, `${id}.diff`), "utf8");
  for (const style of ["none", "full"]) {
    const base = nativeNs.get(`${id} ${style}`);
    const js = time(() => apply(source, diff, { diff: style }));
    rows.push([id, `apply, diff ${style}`, fmt(base), fmt(js), (js / base).toFixed(2)]);
  }
  const compat = time(() => V4A.apply(source, diff));
  rows.push([id, "compat V4A.apply (full diff)", fmt(nativeNs.get(`${id} full`)), fmt(compat), (compat / nativeNs.get(`${id} full`)).toFixed(2)]);
  if (seed !== null) {
    let cell;
    try {
      const ns = time(() => seed.apply(source, diff));
      cell = [fmt(ns), (ns / nativeNs.get(`${id} full`)).toFixed(2)];
    } catch (e) {
      cell = [`fails: ${String(e.message).slice(0, 40)}`, "-"];
    }
    rows.push([id, "seed engine V4A.apply", fmt(nativeNs.get(`${id} full`)), ...cell]);
  }
}
rmSync(dir, { recursive: true, force: true });

const header = ["workload", "call", "native (Rust)", "Node (wasm)", "ratio"];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (r) => r.map((c, i) => c.padEnd(widths[i])).join("  ");
console.log(line(header));
for (const r of rows) console.log(line(r));
console.log(`\nNode ${process.version}; WebAssembly memory after the run: ${(memorySize() / 2 ** 20).toFixed(0)} MiB`);
