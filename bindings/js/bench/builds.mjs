// Compares builds of v4a.wasm (for example the cargo profile's opt-levels) in one run: each
// build is loaded in a worker thread of its own, and the workloads of bench.mjs are timed
// through the package, alternating a batch of the native Rust call and a batch of each build
// in every round, so all of them see the same machine load. Prints the ratios to the native
// call and each build's size. Run `npm run build` first (the package's JS is shared; only the
// .wasm differs).
//
// Usage: node bench/builds.mjs NAME=BUILD [NAME=BUILD ...]
//   BUILD is a .wasm file (run with this package's JS) or a package folder (its own
//   dist/esm and dist/v4a.wasm: another version of the package, for a before/after).

import { execFileSync, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";
import { gzipSync } from "node:zlib";

const WORKLOADS = ["W1", "W2", "W6"];
const STYLES = ["none", "full"];
/** Rounds per measurement (V4A_BENCH_ROUNDS, default 9); the median is reported. */
const ROUNDS = Math.max(1, Number(process.env.V4A_BENCH_ROUNDS) || 9);

if (!isMainThread) {
  // A worker: one build, answering `{ id, style, n }` with the nanoseconds of n calls.
  const dist = workerData.wasm.endsWith(".wasm")
    ? new URL("../dist/", import.meta.url)
    : pathToFileURL(join(workerData.wasm, "dist") + "/");
  const { apply, initSync } = await import(new URL("esm/index.js", dist).href);
  const { default: V4A } = await import(new URL("esm/compat.js", dist).href);
  const wasmFile = workerData.wasm.endsWith(".wasm") ? workerData.wasm : new URL("v4a.wasm", dist);
  initSync(readFileSync(wasmFile));
  const cases = {};
  for (const id of WORKLOADS) {
    cases[id] = {
      source: readFileSync(join(workerData.dir, `${id}.source`), "utf8"),
      diff: readFileSync(join(workerData.dir, `${id}.diff`), "utf8"),
    };
  }
  const call = (id, style) => {
    const { source, diff } = cases[id];
    if (style === "compat") return V4A.apply(source, diff);
    return apply(source, diff, { diff: style });
  };
  for (const id of WORKLOADS) {
    const start = Date.now();
    while (Date.now() - start < 400) for (const s of [...STYLES, "compat"]) call(id, s);
  }
  parentPort.on("message", ({ id, style, n }) => {
    const t = process.hrtime.bigint();
    for (let i = 0; i < n; i++) call(id, style);
    parentPort.postMessage(Number(process.hrtime.bigint() - t));
  });
  parentPort.postMessage("ready");
} else {
  await main();
}

async function main() {
  const builds = process.argv.slice(2).map((arg) => {
    const eq = arg.indexOf("=");
    if (eq <= 0) throw new Error(`expected NAME=FILE.wasm or NAME=PACKAGE_DIR, got ${arg}`);
    return { name: arg.slice(0, eq), wasm: arg.slice(eq + 1) };
  });
  if (builds.length === 0) throw new Error("usage: node bench/builds.mjs NAME=BUILD ...");
  const here = fileURLToPath(new URL(".", import.meta.url));
  const root = join(here, "..", "..", "..");
  const native = join(here, "native");
  copyFileSync(join(root, "Cargo.lock"), join(native, "Cargo.lock"));
  execFileSync(
    "cargo",
    ["build", "--release", "--quiet", "--manifest-path", join(native, "Cargo.toml")],
    { stdio: "inherit", env: { ...process.env, CARGO_TARGET_DIR: join(root, "target", "js-bench") } },
  );
  const dir = mkdtempSync(join(tmpdir(), "v4a-js-builds-"));
  const child = spawn(join(root, "target", "js-bench", "release", "v4a-js-native-baseline"), [dir], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const replies = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const reply = async () => (await replies.next()).value;
  if ((await reply()) !== "ready") throw new Error("the native baseline did not start");
  const nativeBatch = async (id, style, n) => {
    child.stdin.write(`${id} ${style === "compat" ? "full" : style} ${n}\n`);
    return Number(await reply());
  };
  const workers = [];
  for (const b of builds) {
    const worker = new Worker(new URL(import.meta.url), { workerData: { wasm: b.wasm, dir } });
    const next = () => new Promise((resolve) => worker.once("message", resolve));
    if ((await next()) !== "ready") throw new Error(`${b.name}: the worker did not start`);
    workers.push((id, style, n) => {
      worker.postMessage({ id, style, n });
      return next();
    });
    b.worker = worker;
  }
  const rows = [];
  for (const id of WORKLOADS) {
    for (const style of [...STYLES, "compat"]) {
      rows.push([id, style, ...(await compare(id, style, nativeBatch, workers))]);
    }
  }
  child.stdin.end();
  for (const b of builds) await b.worker.terminate();
  rmSync(dir, { recursive: true, force: true });
  print(builds, rows);
}

/** Median ns per call: [native, ...builds], ROUNDS rounds alternating a ~60 ms batch of each. */
async function compare(id, style, nativeBatch, workers) {
  const sizes = [Math.max(1, Math.round(60e6 / ((await nativeBatch(id, style, 1)) || 1)))];
  for (const w of workers) sizes.push(Math.max(1, Math.round(60e6 / ((await w(id, style, 1)) || 1))));
  const runners = [nativeBatch, ...workers];
  const times = runners.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (let k = 0; k < runners.length; k++) {
      times[k].push((await runners[k](id, style, sizes[k])) / sizes[k]);
    }
  }
  return times.map((xs) => xs.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)]);
}

function print(builds, rows) {
  const fmt = (ns) => (ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : `${(ns / 1e3).toFixed(1)} µs`);
  const header = ["workload", "call", "native", ...builds.map((b) => b.name)];
  const table = rows.map(([id, style, nativeNs, ...js]) => [
    id,
    style === "compat" ? "compat V4A.apply" : `apply, diff ${style}`,
    fmt(nativeNs),
    ...js.map((ns) => `${fmt(ns)} (${(ns / nativeNs).toFixed(2)})`),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => r[i].length)));
  const line = (r) => r.map((c, i) => c.padEnd(widths[i])).join("  ");
  console.log(line(header));
  for (const r of table) console.log(line(r));
  console.log("\nsizes:");
  for (const b of builds) {
    const bytes = readFileSync(b.wasm.endsWith(".wasm") ? b.wasm : join(b.wasm, "dist", "v4a.wasm"));
    const gzip = gzipSync(bytes, { level: 9 }).length;
    console.log(`  ${b.name}: ${bytes.length} bytes raw, ${gzip} bytes gzip -9`);
  }
  console.log(`\nNode ${process.version}; in parentheses: the ratio to the native call`);
}
