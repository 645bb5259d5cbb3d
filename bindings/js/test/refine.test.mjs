// Refinement as a call of its own (`refineLines`), its limits in the apply options
// (`refineLimits`), and the structured diff read from the engine's columns: each checked
// against apply's own diff, so the two ways to ask cannot disagree.

import { test } from "node:test";
import assert from "node:assert/strict";

import * as v4a from "../dist/esm/index.js";

await v4a.init();
const { apply, applyPatch, refineLines, V4AError } = v4a;

const pieces = (text, segments) => segments.map((s) => [s.kind, text.slice(s.start, s.end)]);

test("refineLines pairs similar lines and gives UTF-16 segments", () => {
  const deleted = ["let x = 1;", "const 😀 = 'é a';"];
  const added = ["let x = 2;", "unrelated();", "const 😀 = 'é b';"];
  const pairs = refineLines(deleted, added);
  assert.deepEqual(pairs.map((p) => [p.deleted, p.added]), [[0, 0], [1, 2]]);
  assert.deepEqual(pieces(added[0], pairs[0].addedSegments), [["equal", "let x = "], ["add", "2"], ["equal", ";"]]);
  assert.deepEqual(pieces(deleted[1], pairs[1].deletedSegments), [
    ["equal", "const 😀 = 'é "],
    ["delete", "a"],
    ["equal", "';"],
  ]);
  // Segments cover the line, in UTF-16 indices (😀 is two units).
  const last = pairs[1].addedSegments.at(-1);
  assert.equal(last.end, added[2].length);
});

test("refineLines agrees with apply's refined diff", () => {
  const source = "alpha beta\ngamma delta\nkeep\n";
  const patch = "@@\n-alpha beta\n-gamma delta\n+alpha BETA\n+new line\n+gamma delta!\n keep\n";
  const r = apply(source, patch, { diff: "full", refine: true });
  const del = r.diff.filter((l) => l.kind === "delete");
  const add = r.diff.filter((l) => l.kind === "add");
  const pairs = refineLines(del.map((l) => l.text), add.map((l) => l.text));
  assert.equal(pairs.length, 2);
  for (const p of pairs) {
    assert.deepEqual(p.deletedSegments, del[p.deleted].segments);
    assert.deepEqual(p.addedSegments, add[p.added].segments);
  }
  assert.deepEqual(add[1].segments, [], "the unpaired line has no segments");
});

test("refineLines edge cases and refusals", () => {
  assert.deepEqual(refineLines([], []), []);
  assert.deepEqual(refineLines(["a b c"], []), []);
  assert.deepEqual(refineLines(["abc"], ["xyz"]), [], "dissimilar lines stay unpaired");
  assert.throws(() => refineLines(["\ud800"], ["a"]), (e) => e instanceof V4AError && e.code === "INVALID_UTF8");
  assert.throws(() => refineLines("a", ["a"]), V4AError);
  assert.throws(() => refineLines([1], ["a"]), V4AError);
  assert.throws(() => refineLines(["a"], ["a"], { maxCost: -1 }), V4AError);
  assert.throws(() => refineLines(["a"], ["a"], { nope: 1 }), /unknown refine limit/);
  // Zero limits: nothing refined, no error.
  assert.deepEqual(refineLines(["let x = 1;"], ["let x = 2;"], { maxGraphemes: 0 }), []);
});

test("refineLimits reach apply and applyPatch", () => {
  const old = `x = ${"a".repeat(300)};`;
  const neu = `x = ${"a".repeat(299)}b;`;
  const diff = `@@\n-${old}\n+${neu}\n`;
  const counts = (o) => apply(`${old}\n`, diff, { diff: "full", refine: true, ...o }).diff.map((l) => l.segments.length);
  assert.ok(counts({}).every((n) => n > 1));
  assert.deepEqual(counts({ refineLimits: { maxGraphemes: 100 } }), [0, 0]);
  assert.deepEqual(counts({ refineLimits: { maxCost: 0 } }), [0, 0]);
  const patch = `*** Begin Patch\n*** Update File: f\n${diff}*** End Patch\n`;
  const set = applyPatch(patch, { f: `${old}\n` }, { diff: "full", refine: true, refineLimits: { maxGraphemes: 100 } });
  assert.deepEqual(set.files[0].result.diff.map((l) => l.segments.length), [0, 0]);
  assert.throws(() => apply("a\n", "@@\n-a\n+b\n", { refineLimits: { maxCost: 1.5 } }), V4AError);
});

test("the diff from columns: texts are slices of the strings, with a BOM, CRLF and astral lines", () => {
  const source = "\ufeff😀 one\r\ntwo\r\nthree é\r\n";
  const r = apply(source, "@@\n 😀 one\n-two\n+2 ✓\n three é\n", { diff: "full", refine: true });
  assert.deepEqual(
    r.diff.map((l) => [l.kind, l.oldLine, l.newLine, l.hunk, l.text]),
    [
      ["equal", 1, 1, 1, "😀 one"],
      ["delete", 2, null, 1, "two"],
      ["add", null, 2, 1, "2 ✓"],
      ["equal", 3, 3, 1, "three é"],
    ],
  );
  const changes = apply(source, "@@\n 😀 one\n-two\n+2 ✓\n three é\n", { diff: "changes", diffContext: 0 });
  assert.deepEqual(changes.diff.map((l) => l.text), ["two", "2 ✓"]);
  // Bytes in, bytes' source decoded: the same diff.
  const bytes = apply(new TextEncoder().encode(source), "@@\n 😀 one\n-two\n+2 ✓\n three é\n", { diff: "full" });
  assert.deepEqual(bytes.diff.map((l) => l.text), r.diff.map((l) => l.text));
});
