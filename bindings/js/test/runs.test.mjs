// The compact full diff (`diff: "runs"`): each run of equal lines is one entry with its count;
// expanded with `expandRuns` it is the `diff: "full"` diff entry for entry (with segments), on
// random edits and at the edges: CRLF, lone CR, a BOM, no final newline, empty files, add-only,
// delete-all, astral characters (UTF-16 offsets).

import { test } from "node:test";
import assert from "node:assert/strict";

import * as v4a from "../dist/esm/index.js";

await v4a.init();

const { apply, expandRuns, makePatch } = v4a;

/** Checks the runs diff of applying `patch` to `source` against the full one. */
function checkRuns(source, patch, options = {}) {
  const full = apply(source, patch, { ...options, diff: "full", refine: true }).diff;
  const runs = apply(source, patch, { ...options, diff: "runs", refine: true }).diff;
  assert.deepEqual(expandRuns(runs), full);
  for (let i = 0; i < runs.length; i++) {
    const d = runs[i];
    assert.ok(Number.isInteger(d.count) && d.count >= 1, `entry ${i}: count ${d.count}`);
    if (d.kind !== "equal") assert.equal(d.count, 1);
    const prev = runs[i - 1];
    if (d.kind === "equal" && prev?.kind === "equal") {
      assert.notEqual(d.hunk, prev.hunk, `runs ${i - 1} and ${i} touch`);
    }
  }
  assert.equal(
    runs.reduce((n, d) => n + (d.kind === "add" ? 0 : d.count), 0),
    full.filter((d) => d.kind !== "add").length,
  );
  assert.ok(full.every((d) => !("count" in d)), "a full diff has no counts");
  return runs;
}

test("a run is one entry: its count, its lines and its text", () => {
  const source = "a\r\nb\r\nc\r\nd\r\ne\r\nf\r\ng\r\nh\r\n";
  const runs = checkRuns(source, "@@\n-g\n+G\n");
  assert.deepEqual(runs[0], {
    kind: "equal", hunk: null, oldLine: 1, newLine: 1, text: "a\r\nb\r\nc\r\nd\r\ne\r\nf",
    segments: [], count: 6,
  });
  assert.deepEqual(runs.map((d) => [d.kind, d.count]), [["equal", 6], ["delete", 1], ["add", 1], ["equal", 1]]);
  assert.equal(runs[3].oldLine, 8);
});

test("runs at the edges expand into the full diff", () => {
  const cases = [
    ["a\nb\nc\nd\n", "a\nb\nX\nd\n"],
    ["a\rb\rc\rd\r", "a\rb\rc\rY\r"],
    ["a\nb\r\nc\rd\ne", "a\nb\r\nc\rd\nf"],
    ["\ufeffa\nb\nc\n", "\ufeffa\nb\nc\nd\n"],
    ["\ufeffa\nb", "\ufeffZ\nb"],
    ["one\ntwo\nthree", "one\ntwo\nthree\nfour"],
    ["", "new\nlines\n"],
    ["gone\nall\n", ""],
    ["\n\n\n\n", "\n\nx\n\n"],
    ["😀 é\nü 🎉\r\nß\n", "😀 é\nü 🎉\r\nss\n"],
  ];
  let checked = 0;
  for (const [old, now] of cases) {
    let patch;
    try {
      patch = makePatch(old, now, "f");
    } catch {
      continue;
    }
    checked++;
    assert.equal(apply(old, patch).text, now);
    checkRuns(old, patch);
  }
  assert.ok(checked >= 8, `${checked} cases made a patch`);
  // Created from nothing (add-only), deleted (delete-all).
  checkRuns("", "+a\n+b\n", { mode: "create" });
  checkRuns("a\nb\n", "", { mode: "delete" });
});

test("random edits: runs expand into the full diff", () => {
  let seed = 12345;
  const rand = (n) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  for (let round = 0; round < 300; round++) {
    const eol = ["\n", "\r\n", "\r"][rand(3)];
    const n = 1 + rand(40);
    const lines = Array.from({ length: n }, (_, i) => `line ${i} ${"é😀".repeat(i % 3)}`);
    const old = lines.slice();
    for (let e = rand(4); e >= 0; e--) {
      const at = rand(lines.length + 1);
      const del = Math.min(rand(3), lines.length - at);
      const add = Array.from({ length: rand(3) }, (_, k) => `added ${round}.${e}.${k}`);
      lines.splice(at, del, ...add);
    }
    const bom = rand(2) ? "\ufeff" : "";
    const final = rand(2) ? eol : "";
    const join = (l) => (l.length ? bom + l.join(eol) + final : bom);
    const [a, b] = [join(old), join(lines)];
    if (a === b) continue;
    let patch;
    try {
      patch = makePatch(a, b, "f");
    } catch {
      continue;
    }
    checkRuns(a, patch);
  }
});
