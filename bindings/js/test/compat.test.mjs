// The compat entry (`v4a/compat`): the seed engine's API over v4a, and each place where it
// keeps v4a's behaviour instead of the seed engine's (README, "Differences").

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

// No init(): in Node the compat entry loads the engine synchronously on first use.
import V4A, { V4A as Named, V4AError } from "../dist/esm/compat.js";

const codeOf = (fn) => {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof V4AError, String(e));
    return e.code;
  }
  assert.fail("expected a V4AError");
};

test("apply returns { text, diff, source } with seed-shaped entries", () => {
  assert.equal(V4A, Named);
  const r = V4A.apply("aaa\nbbb\nccc", "@@\n aaa\n-bbb\n+BBB\n ccc");
  assert.deepEqual(r, {
    text: "aaa\nBBB\nccc",
    source: "aaa\nbbb\nccc",
    diff: [
      { type: "equal", value: "aaa", oldLine: 1, newLine: 1 },
      { type: "delete", value: "bbb", oldLine: 2, newLine: null },
      { type: "add", value: "BBB", oldLine: null, newLine: 2 },
      { type: "equal", value: "ccc", oldLine: 3, newLine: 3 },
    ],
  });
  assert.equal(V4A.apply("const x = 1", "@@\n-const x = 1\n+const x = 2", "update").text, "const x = 2");
});

test("envelopes, anchors, multi-hunk edits and the end-of-file marker", () => {
  const src = "function add(a, b) {\n  return a - b\n}\nfunction sub(a, b) {\n  return a + b\n}";
  const r = V4A.apply(
    src,
    "@@ function add(\n function add(a, b) {\n-  return a - b\n+  return a + b\n }\n" +
      "@@ function sub(\n function sub(a, b) {\n-  return a + b\n+  return a - b\n }",
  );
  assert.equal(r.text, "function add(a, b) {\n  return a + b\n}\nfunction sub(a, b) {\n  return a - b\n}");
  const env = V4A.apply("const x = 1", "*** Begin Patch\n*** Update File: /src/config.ts\n@@\n-const x = 1\n+const x = 2\n*** End Patch");
  assert.equal(env.text, "const x = 2");
  assert.equal(V4A.apply("aaa\nbbb\nccc", "@@ bbb\n bbb\n-ccc\n+CCC\n*** End of File").text, "aaa\nbbb\nCCC");
  assert.equal(V4A.apply("aaa\nbbb  ", "@@\n aaa\n-bbb\n+BBB").text, "aaa\nBBB");
});

test("create, delete and move modes", () => {
  const created = V4A.apply("", "+hello\n+world", "create");
  assert.equal(created.text, "hello\nworld\n", "v4a writes each added line with its terminator");
  assert.deepEqual(created.diff.map((l) => [l.type, l.oldLine, l.newLine]), [["add", null, 1], ["add", null, 2]]);
  const deleted = V4A.apply("aaa\nbbb\n", "*** Delete File: x", "delete");
  assert.equal(deleted.text, "");
  assert.equal(deleted.source, "aaa\nbbb\n");
  assert.deepEqual(deleted.diff, [
    { type: "delete", value: "aaa", oldLine: 1, newLine: null },
    { type: "delete", value: "bbb", oldLine: 2, newLine: null },
  ]);
  const moved = V4A.apply("aaa\nbbb", "@@\n aaa\n-bbb\n+BBB", "move");
  assert.equal(moved.text, "aaa\nBBB");
});

test("kept from v4a: CRLF and a BOM survive (the seed engine rewrites them)", () => {
  const r = V4A.apply("\ufeffa\r\nb\r\n", "@@\n a\n-b\n+B\n");
  assert.equal(r.text, "\ufeffa\r\nB\r\n");
  assert.equal(r.source, "\ufeffa\r\nb\r\n");
  assert.deepEqual(r.diff.map((l) => l.value), ["a", "b", "B"], "no BOM in a value, no empty last entry");
});

test("kept from v4a: the patch must agree with the mode; only the last line may be a padded end marker", () => {
  const moving = "*** Begin Patch\n*** Update File: a.ts\n*** Move to: b.ts\n@@\n-x\n+y\n*** End Patch";
  assert.equal(codeOf(() => V4A.apply("x\n", moving)), "INVALID_ARGUMENT");
  assert.equal(V4A.apply("x\n", moving, "move").text, "y\n");
  assert.equal(codeOf(() => V4A.apply("x\n", "*** Move to: b.ts", "move")), "PATCH_SYNTAX");
  const deleting = "*** Begin Patch\n*** Delete File: a.ts\n@@\n-x\n+y\n*** End Patch";
  assert.equal(codeOf(() => V4A.apply("x\n", deleting)), "PATCH_SYNTAX");
  // The last line, trimmed, ends the patch even when padded (models pad it).
  assert.equal(V4A.apply("x", "*** Begin Patch\n*** Update File: f\n@@\n-x\n+y\n  *** End Patch  ").text, "y");
  assert.equal(codeOf(() => V4A.apply("y", "  --- a/f  \n  +++ b/f  \n@@\n-y\n+z")), "CONTEXT_NOT_FOUND");
  assert.equal(codeOf(() => V4A.apply("x", "@@\n-x\n+y\n  \\ No newline at end of file")), "CONTEXT_NOT_FOUND");
});

test("kept from v4a: ambiguity, missing context and anchors, unknown modes are errors", () => {
  assert.equal(codeOf(() => V4A.apply("x\ny\nx\n", "@@\n-x\n+z")), "AMBIGUOUS");
  assert.equal(codeOf(() => V4A.apply("a\nb\n", "@@\n-c\n+d")), "CONTEXT_NOT_FOUND");
  assert.equal(codeOf(() => V4A.apply("a\nb\na\n", "@@ class Missing\n-a\n+A")), "ANCHOR_NOT_FOUND");
  assert.equal(codeOf(() => V4A.apply("a\n", "@@\n-a\n+b", "rename")), "UNSUPPORTED_MODE");
  assert.equal(codeOf(() => V4A.apply("a\n", "@@\n-a\n+\ud800")), "INVALID_UTF8");
});

test("refine attaches { type, value } segments to similar changed lines", () => {
  const r = V4A.apply("return a - b", "@@\n-return a - b\n+return a + b");
  const refined = V4A.refine(r.diff);
  assert.deepEqual(refined[0].segments, [
    { type: "equal", value: "return a " },
    { type: "delete", value: "-" },
    { type: "equal", value: " b" },
  ]);
  assert.deepEqual(refined[1].segments, [
    { type: "equal", value: "return a " },
    { type: "add", value: "+" },
    { type: "equal", value: " b" },
  ]);
  assert.equal(r.diff[0].segments, undefined, "refine returns new entries, the input is untouched");
  const grapheme = V4A.refine([
    { type: "delete", value: "café 👍🏽!", oldLine: 1, newLine: null },
    { type: "add", value: "café 👍🏿!", oldLine: null, newLine: 1 },
  ]);
  assert.deepEqual(grapheme[1].segments, [
    { type: "equal", value: "café " },
    { type: "add", value: "👍🏿" },
    { type: "equal", value: "!" },
  ]);
});

test("refine leaves equal lines, lone changes, dissimilar pairs and non-strings alone", () => {
  const lines = [
    { type: "equal", value: "same", oldLine: 1, newLine: 1 },
    { type: "add", value: "only added", oldLine: null, newLine: 2 },
    { type: "delete", value: "x1", oldLine: 2, newLine: null },
    { type: "add", value: "completely different", oldLine: null, newLine: 3 },
    { type: "delete", value: 123, oldLine: 3, newLine: null },
    { type: "add", value: null, oldLine: null, newLine: 4 },
  ];
  const refined = V4A.refine(lines);
  assert.equal(refined.length, lines.length);
  for (const line of refined) assert.equal(line.segments, undefined);
  assert.deepEqual(V4A.refine(null), []);
  assert.deepEqual(V4A.refine("nope"), []);
});

test("refine pairs the similar lines of an uneven block", () => {
  const refined = V4A.refine([
    { type: "delete", value: "let total = 0;", oldLine: 1, newLine: null },
    { type: "delete", value: "print()", oldLine: 2, newLine: null },
    { type: "add", value: "let total = 10;", oldLine: null, newLine: 1 },
  ]);
  assert.deepEqual(refined[0].segments, [{ type: "equal", value: "let total = 0;" }]);
  assert.equal(refined[1].segments, undefined);
  assert.deepEqual(refined[2].segments, [
    { type: "equal", value: "let total = " },
    { type: "add", value: "1" },
    { type: "equal", value: "0;" },
  ]);
});

test("the CommonJS compat entry works without init", () => {
  const cjs = fileURLToPath(new URL("../dist/cjs/compat.js", import.meta.url));
  const out = execFileSync(process.execPath, [
    "-e",
    `const V4A = require(${JSON.stringify(cjs)}).default; console.log(V4A.apply("a\\n", "@@\\n-a\\n+b").text === "b\\n")`,
  ]).toString();
  assert.equal(out, "true\n");
});
