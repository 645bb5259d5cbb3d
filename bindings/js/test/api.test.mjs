// The package's API: results and reports, errors and their diagnostics, the UTF-16 boundary,
// bytes kept exactly (CRLF, BOM, no final newline), multi-file patches, generation, the tool
// kit, option checking, and memory that does not grow with repeated calls.

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import * as v4a from "../dist/esm/index.js";

await v4a.init();

const { apply, applyPatch, V4AError } = v4a;

function throwsV4A(fn, code, check = () => {}) {
  let caught;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  assert.ok(caught instanceof V4AError, `expected a V4AError ${code}, got ${caught}`);
  assert.equal(caught.code, code, caught.message);
  assert.equal(caught.name, "V4AError");
  assert.ok(caught instanceof Error);
  check(caught);
  return caught;
}

test("apply returns the text, the source and a report per hunk", () => {
  const r = apply("a\nb\nc\n", "@@\n a\n-b\n+B\n c\n");
  assert.equal(r.text, "a\nB\nc\n");
  assert.equal(r.source, "a\nb\nc\n");
  assert.equal(r.changed, true);
  assert.equal(r.fuzz, 0);
  assert.equal(r.diff, null, "no structured diff unless asked");
  assert.deepEqual(r.hunks, [
    {
      oldStart: 1,
      oldLen: 3,
      newStart: 1,
      newLen: 3,
      level: "exact",
      fuzz: 0,
      candidates: 1,
      reindented: false,
      alreadyApplied: false,
      endOfFile: false,
      outOfOrder: false,
      merged: false,
      anchorIgnored: false,
      contextRelaxed: false,
      patchLine: 1,
      lineLevels: ["exact", "exact", "exact"],
    },
  ]);
  assert.deepEqual(r.changes, [{ oldStart: 2, oldLen: 1, newStart: 2, newLen: 1, hunk: 1 }]);
});

test("loose levels are reported with their fuzz", () => {
  const r = apply("  a  \nb\n", "@@\n a\n-b\n+c\n");
  assert.equal(r.text, "  a  \nc\n");
  assert.equal(r.hunks[0].level, "trim");
  assert.equal(r.fuzz, 10);
  assert.deepEqual(r.hunks[0].lineLevels, ["trim", "exact"]);
});

test("the full structured diff, and the changes-only diff with context", () => {
  const source = "1\n2\n3\n4\n5\n6\n7\n8\n";
  const patch = "@@\n 4\n-5\n+five\n 6\n";
  const full = apply(source, patch, { diff: "full" }).diff;
  assert.equal(full.length, 9);
  assert.deepEqual(full[4], { kind: "delete", hunk: 1, oldLine: 5, newLine: null, text: "5", segments: [] });
  assert.deepEqual(full[5], { kind: "add", hunk: 1, oldLine: null, newLine: 5, text: "five", segments: [] });
  assert.deepEqual(full[0], { kind: "equal", hunk: null, oldLine: 1, newLine: 1, text: "1", segments: [] });
  const changes = apply(source, patch, { diff: "changes", diffContext: 1 }).diff;
  assert.deepEqual(changes.map((l) => l.text), ["4", "5", "five", "6"]);
});

test("segments are UTF-16 indices into the line, also past astral characters", () => {
  const r = apply("😀 é a\n", "@@\n-😀 é a\n+😀 é b\n", { diff: "full", refine: true });
  const [del, add] = r.diff;
  const pieces = (line) => line.segments.map((s) => [s.kind, line.text.slice(s.start, s.end)]);
  assert.deepEqual(pieces(del), [["equal", "😀 é "], ["delete", "a"]]);
  assert.deepEqual(pieces(add), [["equal", "😀 é "], ["add", "b"]]);
  assert.equal(del.segments[1].start, 5, "😀 is two UTF-16 units, é one");
  const ascii = apply("let x = 1;\n", "@@\n-let x = 1;\n+let x = 22;\n", { diff: "full", refine: true });
  assert.deepEqual(ascii.diff[1].segments, [
    { kind: "equal", start: 0, end: 8 },
    { kind: "add", start: 8, end: 10 },
    { kind: "equal", start: 10, end: 11 },
  ]);
});

test("CRLF, a BOM and a missing final newline survive byte for byte", () => {
  const r = apply("\ufeffone\r\ntwo\r\nthree", "@@\n one\n-two\n+2\n three\n");
  assert.equal(r.text, "\ufeffone\r\n2\r\nthree");
  assert.equal(r.source, "\ufeffone\r\ntwo\r\nthree");
  const bytes = new TextEncoder().encode(r.text);
  assert.deepEqual([...bytes.slice(0, 3)], [0xef, 0xbb, 0xbf]);
  const diff = apply("\ufeffone\r\ntwo\r\n", "@@\n-two\n+2\n", { diff: "full" }).diff;
  assert.deepEqual(diff.map((l) => l.text), ["one", "two", "2"], "texts exclude the BOM and the terminator");
  const lone = apply("a\rb\rc\r", "@@\n a\n-b\n+B\n c\n");
  assert.equal(lone.text, "a\rB\rc\r");
});

test("bytes in, and invalid UTF-8 refused with the byte offset", () => {
  const r = apply(new TextEncoder().encode("x\ny\n"), new TextEncoder().encode("@@\n-y\n+z\n"));
  assert.equal(r.text, "x\nz\n");
  throwsV4A(() => apply(new Uint8Array([0x61, 0x0a, 0xff, 0x0a]), "@@\n-a\n+b\n"), "INVALID_UTF8", (e) => {
    assert.equal(e.diagnostics.byteOffset, 2);
    assert.equal(e.diagnostics.input, "source");
  });
  assert.throws(() => apply(42, "@@\n"), TypeError);
});

test("one bad byte anywhere in a long input is found (the module checks 64 bytes at a time)", () => {
  // The engine's UTF-8 check reads ASCII 64 bytes at a time with WebAssembly SIMD, in 4 KiB
  // chunks: a byte above 0x7F in any lane of any block, or in the tail after the last
  // block, must still reach the full validation.
  const patch = "@@\n-x\n+y\n";
  for (const size of [63, 64, 65, 200, 4096, 4161, 8300]) {
    for (const at of new Set([0, 1, 15, 16, 31, 47, 62, 63, size - 2, size - 1, 4095, 4096, 4097].filter((i) => i >= 0 && i < size - 2))) {
      for (const bad of [0x80, 0xff, 0xc3]) {
        const bytes = new Uint8Array(size).fill(0x61);
        bytes[size - 2] = 0x0a;
        bytes[size - 1] = 0x78;
        bytes[at] = bad;
        throwsV4A(() => apply(bytes, patch), "INVALID_UTF8", (e) => {
          assert.equal(e.diagnostics.byteOffset, at, `size ${size}, byte ${bad} at ${at}`);
        });
      }
      // A valid two-byte character there is text.
      const ok = new Uint8Array(size).fill(0x61);
      ok[size - 2] = 0x0a;
      ok[size - 1] = 0x78;
      if (at + 1 < size - 2) {
        ok[at] = 0xc3;
        ok[at + 1] = 0xa9;
        assert.ok(apply(ok, patch).text.endsWith("\ny"), `size ${size}, é at ${at}`);
      }
    }
  }
});

test("bytes beside a string are still validated", () => {
  // A Uint8Array input beside a string is checked as UTF-8 like any other.
  const bad = new Uint8Array([0x40, 0x40, 0x0a, 0x2d, 0x78, 0x0a, 0x2b, 0xc3, 0x0a]); // "+\xC3" truncated
  throwsV4A(() => apply("x\n", bad), "INVALID_UTF8", (e) => {
    assert.equal(e.diagnostics.input, "patch");
    assert.equal(e.diagnostics.byteOffset, 7);
  });
  throwsV4A(() => apply(new Uint8Array([0x78, 0x0a, 0xed, 0xa0, 0x80, 0x0a]), "@@\n-x\n+y\n"), "INVALID_UTF8", (e) => {
    assert.equal(e.diagnostics.input, "source"); // an encoded surrogate (ED A0 80) is not UTF-8
    assert.equal(e.diagnostics.byteOffset, 2);
  });
  // Create mode reads no source; multi-byte text goes through whole.
  assert.equal(apply(new Uint8Array([0xff]), "@@\n+é😀\n", { mode: "create" }).text, "é😀\n");
  assert.equal(apply("é\n😀\n", "@@\n-é\n+ü\n 😀\n").text, "ü\n😀\n");
});

test("a lone surrogate is refused, never replaced, wherever it is", () => {
  for (const [bad, index] of [["a\ud800b", 1], ["ab\udc00", 2], ["\udc00\ud800", 0], ["é\ud83d", 1]]) {
    throwsV4A(() => apply(`x\n${bad}\n`, "@@\n-x\n+y\n"), "INVALID_UTF8", (e) => {
      assert.equal(e.diagnostics.input, "source");
      assert.equal(e.diagnostics.index, index + 2);
      assert.equal(e.diagnostics.byteOffset, new TextEncoder().encode(`x\n${bad.slice(0, index)}`).length);
    });
  }
  throwsV4A(() => apply("x\n", "@@\n-x\n+\ud800\n"), "INVALID_UTF8", (e) => assert.equal(e.diagnostics.input, "patch"));
  throwsV4A(() => v4a.makePatch("a\n", "b\n", "f\udfff"), "INVALID_UTF8", (e) => assert.equal(e.diagnostics.input, "path"));
  throwsV4A(
    () => applyPatch("*** Begin Patch\n*** Update File: f\n@@\n-x\n+y\n*** End Patch\n", { f: "x\n\ud800" }),
    "INVALID_UTF8",
  );
  // A valid pair is text: it goes through.
  assert.equal(apply("x\n", "@@\n-x\n+\ud83d\ude00\n").text, "😀\n");
});

test("an ambiguous hunk is refused with every candidate and a fix", () => {
  const e = throwsV4A(() => apply("x = 1\ny\nx = 1\n", "@@\n-x = 1\n+x = 2\n"), "AMBIGUOUS");
  assert.equal(e.status, 9);
  assert.equal(e.category, "ambiguous match");
  assert.deepEqual(e.diagnostics.candidates, [1, 3]);
  assert.equal(e.diagnostics.hunk, 1);
  assert.equal(e.diagnostics.patchLine, 1);
  assert.ok(e.diagnostics.suggestion.length > 0);
  assert.match(e.message, /lines 1 and 3/);
  // The caller may opt into the older engines' guess.
  assert.equal(apply("x = 1\ny\nx = 1\n", "@@\n-x = 1\n+x = 2\n", { firstMatch: true }).text, "x = 2\ny\nx = 1\n");
});

test("context not found comes with the closest region and a corrected hunk", () => {
  const e = throwsV4A(
    () => apply("fn a() {\n  return 1;\n}\n", "@@\n fn a() {\n-  return 2;\n+  return 3;\n }\n"),
    "CONTEXT_NOT_FOUND",
  );
  assert.deepEqual(e.diagnostics.closest && [e.diagnostics.closest.start, e.diagnostics.closest.end], [1, 3]);
  assert.ok(e.diagnostics.closest.similarity > 0 && e.diagnostics.closest.similarity < 1);
  assert.match(e.diagnostics.correctedHunk, /return 1;/);
  // An anchor found nowhere is set aside when the hunk is unique without it; not otherwise.
  assert.ok(apply("a\n", "@@ nowhere\n-a\n+b\n").hunks[0].anchorIgnored);
  throwsV4A(() => apply("a\na\n", "@@ nowhere\n-a\n+b\n"), "ANCHOR_NOT_FOUND");
});

test("syntax errors, truncation and unknown modes", () => {
  throwsV4A(() => apply("a\n", "@@\n-a\n?b\n"), "PATCH_SYNTAX", (e) => assert.equal(e.diagnostics.patchLine, 3));
  throwsV4A(() => applyPatch("*** Begin Patch\n*** Add File: a\n+x\n", {}), "TRUNCATED_PATCH");
  throwsV4A(() => apply("a\n", "@@\n-a\n+b\n", { mode: "rename" }), "UNSUPPORTED_MODE", (e) =>
    assert.match(e.message, /update/),
  );
  assert.equal(apply("ignored", "+new\n", { mode: "create" }).text, "new\n");
  const del = apply("a\nb\n", "", { mode: "delete", diff: "full" });
  assert.equal(del.text, "");
  assert.deepEqual(del.diff.map((l) => [l.kind, l.text]), [["delete", "a"], ["delete", "b"]]);
});

test("options are checked: unknown keys and values are refused", () => {
  throwsV4A(() => apply("a\n", "@@\n-a\n+b\n", { maxlevel: "exact" }), "INVALID_ARGUMENT");
  throwsV4A(() => apply("a\n", "@@\n-a\n+b\n", { maxLevel: "loose" }), "INVALID_ARGUMENT");
  throwsV4A(() => apply("a\n", "@@\n-a\n+b\n", { maxFuzz: -1 }), "INVALID_ARGUMENT");
  throwsV4A(() => apply("a\n", "@@\n-a\n+b\n", { firstMatch: "yes" }), "INVALID_ARGUMENT");
  throwsV4A(() => apply("a\n", "@@\n-a\n+b\n", { searchBudget: 0 }), "INVALID_ARGUMENT");
  throwsV4A(() => apply(" a\n", "@@\n-a\n+b\n", { maxLevel: "exact" }), "CONTEXT_NOT_FOUND");
  throwsV4A(() => apply(" a\n", "@@\n-a\n+b\n", { maxFuzz: 5 }), "FUZZ_LIMIT");
  assert.equal(apply(" a\n", "@@\n-a\n+b\n", { maxFuzz: null }).text, " b\n");
  throwsV4A(() => apply("b\n", "@@\n-a\n+b\n", { alreadyAppliedIsError: true }), "ALREADY_APPLIED");
  assert.equal(apply("b\n", "@@\n-a\n+b\n").hunks[0].alreadyApplied, true);
  assert.equal(apply("a", "@@\n-a\n+b\n", { ensureFinalNewline: true }).text, "b\n");
  assert.equal(apply("", "+x\n+y\n", { mode: "create", addFileLineEnding: "crlf" }).text, "x\r\ny\r\n");
  throwsV4A(() => apply("a\nb\n", "@@\n-b\n+c\n", { searchBudget: 1n }), "SEARCH_BUDGET");
});

const MULTI =
  "*** Begin Patch\n*** Update File: src/a.txt\n@@\n-one\n+ONE\n*** Add File: b.txt\n+bee\n" +
  "*** Delete File: c.txt\n*** Update File: d.txt\n*** Move to: e.txt\n@@\n-dee\n+DEE\n*** End Patch\n";
const FILES = { "src/a.txt": "one\ntwo\n", "c.txt": "sea\n", "d.txt": "dee\n" };

test("multi-file patches over a record, a Map and a function agree", () => {
  const byRecord = applyPatch(MULTI, FILES);
  const byMap = applyPatch(MULTI, new Map(Object.entries(FILES)));
  const asked = [];
  const byFn = applyPatch(v4a.parsePatch(MULTI), (p) => (asked.push(p), FILES[p]));
  assert.deepEqual(asked, ["src/a.txt", "c.txt", "d.txt"], "Add File sources are not read");
  for (const r of [byRecord, byMap, byFn]) {
    assert.deepEqual(
      r.files.map((f) => [f.kind, f.path, f.moveTo, f.result.text]),
      [
        ["update", "src/a.txt", null, "ONE\ntwo\n"],
        ["add", "b.txt", null, "bee\n"],
        ["delete", "c.txt", null, ""],
        ["update", "d.txt", "e.txt", "DEE\n"],
      ],
    );
    assert.equal(r.summary, "Success. Updated the following files:\nM src/a.txt\nA b.txt\nD c.txt\nM e.txt\n");
  }
  assert.equal(byRecord.files[2].result.source, "sea\n");
});

test("parsePatch lists the operations with their path classes", () => {
  const p = v4a.parsePatch(MULTI);
  assert.deepEqual(
    p.ops.map((o) => [o.kind, o.path, o.moveTo, o.pathClass, o.moveToClass, o.patchLine, o.hunkCount]),
    [
      ["update", "src/a.txt", null, "relative", null, 2, 1],
      ["add", "b.txt", null, "relative", null, 6, 1],
      ["delete", "c.txt", null, "relative", null, 8, 0],
      ["update", "d.txt", "e.txt", "relative", "relative", 9, 1],
    ],
  );
  assert.equal(v4a.parsePatch("*** Begin Patch\n*** Delete File: ../x\n*** End Patch\n").ops[0].pathClass, "parent_escape");
  throwsV4A(() => v4a.parsePatch("*** Begin Patch\r\n*** Delete File: x\r\n*** End Patch\r\n", { strict: true }), "PATCH_SYNTAX");
  assert.equal(v4a.parsePatch("*** Begin Patch\r\n*** Delete File: x\r\n*** End Patch\r\n").ops.length, 1);
});

test("a multi-file patch is atomic: one failing file fails it all, naming the file", () => {
  throwsV4A(() => applyPatch(MULTI, { ...FILES, "d.txt": "other\n" }), "CONTEXT_NOT_FOUND", (e) =>
    assert.equal(e.diagnostics.path, "d.txt"),
  );
  throwsV4A(() => applyPatch(MULTI, { "src/a.txt": "one\n" }), "MISSING_SOURCE", (e) =>
    assert.equal(e.diagnostics.path, "c.txt"),
  );
  const boom = new Error("disk on fire");
  assert.throws(() => applyPatch(MULTI, () => { throw boom; }), (e) => e === boom);
  throwsV4A(() => applyPatch(MULTI, null), "INVALID_ARGUMENT");
});

test("reverse undoes a patch; generated patches apply back exactly", () => {
  const reverse = v4a.reversePatch(MULTI, FILES);
  const forward = applyPatch(MULTI, FILES);
  const after = { "src/a.txt": forward.files[0].result.text, "b.txt": "bee\n", "e.txt": "DEE\n" };
  const back = applyPatch(reverse, after);
  const state = {};
  for (const f of back.files) if (f.kind !== "delete") state[f.moveTo ?? f.path] = f.result.text;
  assert.deepEqual(state, FILES);

  const oldText = "a\nb\nc\nd\ne\nf\ng\nh\n\r\n";
  const newText = "a\nB\nc\nd\ne\nf\ng\nH\n\r\n";
  const patch = v4a.makePatch(oldText, newText, "f.txt", { context: 1 });
  assert.equal(applyPatch(patch, { "f.txt": oldText }).files[0].result.text, newText);
  const moved = v4a.makeMovePatch(oldText, newText, "f.txt", "g.txt");
  assert.equal(applyPatch(moved, { "f.txt": oldText }).files[0].moveTo, "g.txt");
  assert.equal(applyPatch(v4a.makeAddPatch("n.txt", "x\ny"), {}).files[0].result.text, "x\ny");
  assert.equal(applyPatch(v4a.makeDeletePatch("n.txt"), { "n.txt": "x" }).files[0].kind, "delete");
  throwsV4A(() => v4a.makePatch("a\n", "a\r\n", "f"), "INVALID_ARGUMENT");
  throwsV4A(() => v4a.makePatch("a\n", "b\n", "f", { context: -1 }), "INVALID_ARGUMENT");
});

test("unified rendering of a result", () => {
  const r = apply("a\nb\nc\n", "@@\n a\n-b\n+B\n c\n");
  assert.equal(r.unifiedDiff(0), "--- a\n+++ b\n@@ -2 +2 @@\n-b\n+B\n");
  const f = applyPatch("*** Begin Patch\n*** Update File: x.txt\n@@\n-é\n+è\n*** End Patch\n", { "x.txt": "é\n" });
  assert.equal(f.files[0].result.unifiedDiff(), "--- a/x.txt\n+++ b/x.txt\n@@ -1 +1 @@\n-é\n+è\n");
  assert.equal(apply("a\n", "@@\n-a\n+a\n").unifiedDiff(), "");
  // The default context is the engine's V4A_DEFAULT_DIFF_CONTEXT, as the header says.
  const header = readFileSync(fileURLToPath(new URL("../../../include/v4a.h", import.meta.url)), "utf8");
  const want = Number(/^#define V4A_DEFAULT_DIFF_CONTEXT (\d+)$/m.exec(header)[1]);
  assert.equal(v4a.defaultDiffContext(), want);
  const long = apply("1\n2\n3\n4\n5\n6\n7\n8\n9\n", "@@\n-5\n+five\n");
  assert.equal(long.unifiedDiff(), long.unifiedDiff(want));
  assert.notEqual(long.unifiedDiff(), long.unifiedDiff(want - 1));
});

test("the tool kit: schemas of every flavour and shape, grammars, instructions", () => {
  for (const flavor of ["openai_chat", "openai_responses", "openai_responses_custom", "anthropic", "mcp"]) {
    for (const shape of ["input", "file"]) {
      const schema = JSON.parse(v4a.toolSchema(flavor, shape));
      assert.match(JSON.stringify(schema), shape === "input" ? /apply_patch/ : /patch_file/);
    }
  }
  throwsV4A(() => v4a.toolSchema("gemini"), "INVALID_ARGUMENT");
  assert.match(v4a.grammar(), /Begin Patch/);
  assert.ok(v4a.fileGrammar().length > 0 && !v4a.fileGrammar().includes("Begin Patch\""));
  assert.match(v4a.instructions(), /\*\*\* Begin Patch/);
  assert.equal(v4a.normalize("  “a”   b ", "fold"), "\"a\" b");
  assert.equal(v4a.classifyPath("/etc/passwd"), "absolute");
  assert.equal(v4a.classifyPath("C:x"), "drive_prefix");
  assert.equal(v4a.version(), "0.1.0");
  assert.equal(v4a.abiVersion(), v4a.ABI_VERSION);
});

test("large inputs grow the memory and later calls still read it right", () => {
  const lines = Array.from({ length: 200_000 }, (_, i) => `line ${i} ✓`);
  const source = lines.join("\n") + "\n";
  const r = apply(source, "@@\n line 199998 ✓\n-line 199999 ✓\n+last ✓\n", { diff: "changes" });
  assert.equal(r.text, lines.slice(0, -1).join("\n") + "\nlast ✓\n");
  assert.equal(r.diff.at(-1).text, "last ✓");
  assert.equal(apply("a\n", "@@\n-a\n+b\n").text, "b\n");
});

test("repeated calls, failing or not, do not grow the memory", () => {
  const run = () => {
    apply("a\nb\n", "@@\n-a\n+A\n", { diff: "full", refine: true });
    try {
      apply("x\nx\n", "@@\n-x\n+y\n");
    } catch {}
    applyPatch(MULTI, FILES);
    v4a.makePatch("a\n", "b\n", "f");
  };
  for (let i = 0; i < 200; i++) run();
  const before = v4a.memorySize();
  for (let i = 0; i < 2000; i++) run();
  assert.equal(v4a.memorySize(), before, "2000 more rounds must not need more pages");
});

test("init is idempotent and the CommonJS build works with initSync", () => {
  return v4a.init().then(() => {
    const cjs = fileURLToPath(new URL("../dist/cjs/index.js", import.meta.url));
    const out = execFileSync(process.execPath, [
      "-e",
      `const v = require(${JSON.stringify(cjs)}); v.initSync(); ` +
        `try { v.apply("x\\nx\\n", "@@\\n-x\\n+y\\n") } catch (e) { console.log(e instanceof v.V4AError, e.code) }` +
        `; console.log(v.apply("a\\r\\n", "@@\\n-a\\n+b\\n").text === "b\\r\\n")`,
    ]).toString();
    assert.equal(out, "true AMBIGUOUS\ntrue\n");
  });
});

test("initSync takes the module's bytes", async () => {
  const { readFileSync } = await import("node:fs");
  const bytes = readFileSync(new URL("../dist/v4a.wasm", import.meta.url));
  v4a.initSync(new WebAssembly.Module(bytes));
  assert.equal(apply("a\n", "@@\n-a\n+b\n").text, "b\n");
  assert.throws(() => v4a.initSync(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])), /not a v4a.wasm/);
  assert.equal(apply("a\n", "@@\n-a\n+c\n").text, "c\n", "a refused module leaves the engine loaded");
});

test("large outputs come back exact whether ASCII (copied in Node) or not (UTF-8 decoded)", () => {
  // The module checks 64 bytes at a time: put one non-ASCII character at every kind of place
  // (first byte, chunk edges, the tail after the last whole chunk, the last byte).
  for (const total of [250, 256, 300, 1000, 4099]) {
    const places = [-1, 0, 1, 15, 16, 61, 62, 63, 64, 65, 127, 128, 191, total - 3, total - 1];
    for (const at of places) {
      for (const ch of ["é", "\u0080", "😀", "\u007f", "\ufeff"]) {
        const chars = Array.from({ length: total }, (_, i) => (i % 40 === 39 ? "\n" : "abcdefgh"[i % 8]));
        // `at` counts bytes of the output ("y\n" then the body); -1: no such character.
        if (at >= 2 && at - 2 < total && chars[at - 2] !== "\n") chars[at - 2] = ch;
        const body = chars.join("") + "\n";
        const source = at === 0 || at === 1 ? `x${ch}\n${body}` : `x\n${body}`;
        const first = source.slice(0, source.indexOf("\n"));
        const r = apply(source, `@@\n-${first}\n+y${first.slice(1)}\n`);
        assert.equal(r.text, `y${first.slice(1)}\n${body}`, `total ${total}, at ${at}, ${escape(ch)}`);
      }
    }
  }
  // A BOM at the start of a large output stays its first character.
  const big = "\ufeff" + "first\n" + "line\n".repeat(100);
  assert.equal(apply(big, "@@\n-first\n+FIRST\n").text, "\ufeffFIRST\n" + "line\n".repeat(100));
});
