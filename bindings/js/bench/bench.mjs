// The JS benchmark: apply from Node through the package (and through the compat entry) on
// the workloads of benches/support/workloads.rs, each as a ratio to the native Rust call
// measured in the same run (bench/native). Prints a table; run `npm run build` first.
//
// W1: 1,000-line file, one hunk; W2: 100,000-line file, one hunk; W6: 20,000 identical
// lines and one distinct, a 400-line hunk (the worst case of the search). "none" is the
// apply alone, "full" adds the structured diff of every line, "runs" the compact full diff
// (each run of equal lines one entry).
//
// Two rows per workload split the Node call into its parts: "engine alone" is the module's
// raw apply export on inputs already in its memory (no strings, no result read), "string
// floor" what any binding that takes and returns JS strings pays with no engine at all
// (the source and patch encoded to UTF-8, the result text decoded as the package decodes it;
// for "full", also one DiffLine-shaped object per line of the diff). Their ratios to the
// native call show how much of the target the boundary alone uses.
//
// V4A_SEED=/path/to/index.js (an ES module whose default export is the seed engine's V4A
// class, e.g. its sources compiled with tsc) adds the seed engine, run in the same process.

import { execFileSync, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Buffer } from "node:buffer";

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
const child = spawn(join(root, "target", "js-bench", "release", "v4a-js-native-baseline"), [dir], {
  stdio: ["pipe", "pipe", "inherit"],
});
const replies = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
const reply = async () => (await replies.next()).value;
if ((await reply()) !== "ready") throw new Error("the native baseline did not start");
/** Wall-clock ns of `n` native calls, measured by the helper. */
async function nativeBatch(id, style, n) {
  child.stdin.write(`${id} ${style} ${n}\n`);
  return Number(await reply());
}

initSync();
const seed = process.env.V4A_SEED ? (await import(process.env.V4A_SEED)).default : null;

/**
 * Median ns per call of the JS call and of the native call, in 9 rounds that alternate a
 * batch of each (about 60 ms per batch), so both see the same machine load.
 */
async function compare(id, style, fn) {
  const t0 = process.hrtime.bigint();
  fn();
  const once = Math.max(1, Number(process.hrtime.bigint() - t0));
  const n = Math.max(1, Math.round(60e6 / once));
  const probe = (await nativeBatch(id, style, 1)) || 1;
  const nNative = Math.max(1, Math.round(60e6 / probe));
  const js = [];
  const native = [];
  for (let round = 0; round < 9; round++) {
    native.push((await nativeBatch(id, style, nNative)) / nNative);
    const t = process.hrtime.bigint();
    for (let i = 0; i < n; i++) fn();
    js.push(Number(process.hrtime.bigint() - t) / n);
  }
  const median = (xs) => xs.sort((a, b) => a - b)[4];
  return { js: median(js), native: median(native) };
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
    apply(source, diff, { diff: "runs" });
    V4A.apply(source, diff);
  }
}

/** The raw apply export of a second instance of the package's module, on `source` and `diff`. */
function engineAlone(source, diff) {
  const e = new WebAssembly.Instance(
    new WebAssembly.Module(readFileSync(join(here, "..", "dist", "v4a.wasm"))),
    {},
  ).exports;
  const put = (bytes) => {
    const ptr = e.v4a_wasm_alloc(bytes.length);
    new Uint8Array(e.memory.buffer).set(bytes, ptr);
    return [ptr, bytes.length];
  };
  const enc = new TextEncoder();
  const [sp, sl] = put(enc.encode(source));
  const [dp, dl] = put(enc.encode(diff));
  const [mp, ml] = put(enc.encode("update"));
  const out = e.v4a_wasm_alloc(8);
  return () => {
    const status = e.v4a_apply_mode_name(sp, sl, dp, dl, mp, ml, 0, out);
    if (status !== 0) throw new Error(`engine alone: status ${status}`);
    e.v4a_result_free(new DataView(e.memory.buffer).getUint32(out, true));
  };
}

/**
 * The strings' round trip without the engine: `source` and `diff` encoded into a buffer (as
 * the package copies them into the module), the result's text decoded from its bytes (latin1
 * when all ASCII, as the package does in Node, else TextDecoder) and, with `lines`, one object
 * of DiffLine's shape per line, its text a slice of the result.
 */
function stringFloor(source, diff, text, lines) {
  const enc = new TextEncoder();
  const dec = new TextDecoder("utf-8", { ignoreBOM: true });
  const into = new Uint8Array(3 * (source.length + diff.length));
  const bytes = Buffer.from(enc.encode(text));
  const ascii = bytes.every((b) => b < 0x80);
  const starts = [];
  for (let at = 0, i = 0; i < lines; i++) {
    starts.push(at);
    const nl = text.indexOf("\n", at);
    at = nl < 0 ? text.length : nl + 1;
  }
  return () => {
    enc.encodeInto(source, into);
    enc.encodeInto(diff, into.subarray(source.length));
    const t = ascii ? bytes.toString("latin1", 0, bytes.length) : dec.decode(bytes);
    if (lines > 0) {
      const out = new Array(lines);
      for (let i = 0; i < lines; i++) {
        const at = starts[i];
        out[i] = { kind: "equal", hunk: null, oldLine: i + 1, newLine: i + 1, text: t.slice(at, at + 8), segments: [] };
      }
      return out;
    }
    return t;
  };
}

const fmt = (ns) => (ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : `${(ns / 1e3).toFixed(1)} µs`);
const rows = [];
const row = (id, call, { js, native }) => {
  const r = [id, call, fmt(native), fmt(js), (js / native).toFixed(2)];
  r.js = js;
  r.native = native;
  rows.push(r);
};
for (const id of ["W1", "W2", "W6"]) {
  const source = readFileSync(join(dir, `${id}.source`), "utf8");
  const diff = readFileSync(join(dir, `${id}.diff`), "utf8");
  for (const style of ["none", "full", "runs"]) {
    row(id, `apply, diff ${style}`, await compare(id, style, () => apply(source, diff, { diff: style })));
  }
  row(id, "engine alone (raw export, diff none)", await compare(id, "none", engineAlone(source, diff)));
  const applied = apply(source, diff, { diff: "full" });
  row(id, "string floor (diff none)", await compare(id, "none", stringFloor(source, diff, applied.text, 0)));
  row(id, "string floor (diff full)", await compare(id, "full", stringFloor(source, diff, applied.text, applied.diff.length)));
  row(id, "compat V4A.apply (full diff)", await compare(id, "full", () => V4A.apply(source, diff)));
  if (seed !== null) {
    try {
      row(id, "seed engine V4A.apply", await compare(id, "full", () => seed.apply(source, diff)));
    } catch (e) {
      rows.push([id, "seed engine V4A.apply", "-", `fails: ${String(e.message).slice(0, 40)}`, "-"]);
    }
  }
}
child.stdin.end();
rmSync(dir, { recursive: true, force: true });

// The cost of the full structured diff, per workload: the call with it over the call without
// it, natively (apply + the columns) and in Node (apply + the DiffLine objects).
const diffCost = [];
for (const id of ["W1", "W2", "W6"]) {
  const none = rows.find((r) => r[0] === id && r[1] === "apply, diff none");
  for (const style of ["full", "runs"]) {
    const with_ = rows.find((r) => r[0] === id && r[1] === `apply, diff ${style}`);
    if (none && with_) diffCost.push([`${id} ${style}`, with_.native / none.native, with_.js / none.js]);
  }
}

const header = ["workload", "call", "native (Rust)", "Node (wasm)", "ratio"];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (r) => r.map((c, i) => c.padEnd(widths[i])).join("  ");
console.log(line(header));
for (const r of rows) console.log(line(r));
console.log("\nfull structured diff (full, runs) over the apply alone (target <= 1.5):");
for (const [id, native, js] of diffCost) {
  console.log(`  ${id}  native ${native.toFixed(2)}x  Node ${js.toFixed(2)}x`);
}
console.log(`\nNode ${process.version}; WebAssembly memory after the run: ${(memorySize() / 2 ** 20).toFixed(0)} MiB`);
