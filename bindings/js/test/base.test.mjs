// Base-aware apply: the diff was written against the text the model saw (the base), and the
// file has changed since. Single file and multi-file: a merge, a base equal to the source, a
// conflict with its message, an empty base, bad inputs, only the Updates' bases asked for.

import { test } from "node:test";
import assert from "node:assert/strict";

import * as v4a from "../dist/esm/index.js";

await v4a.init();

const { apply, applyWithBase, applyPatch, applyPatchWithBases, V4AError } = v4a;

const BASE_X = "def f():\n    x = 1\n    return x\n";
const CURRENT_X = "def f():\n    x = 10\n    return x\n";
const DIFF_X = "@@ def f():\n-    x = 1\n+    x = 2\n";

function throwsCode(fn, code) {
  let caught;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  assert.ok(caught instanceof V4AError, `expected a V4AError ${code}, got ${caught}`);
  assert.equal(caught.code, code, caught.message);
  return caught;
}

test("single file: merge, base = source, conflict, empty base, bad inputs", () => {
  // The hunk's lines now occur twice: ambiguous without the base, placed with it.
  const base = "// header\nfn a() {\n    run(1);\n}\n";
  const current = "fn b() {\n    run(1);\n}\n// header\nfn a() {\n    run(1);\n}\n";
  const diff = "-    run(1);\n+    run(2);\n";
  throwsCode(() => apply(current, diff), "AMBIGUOUS");
  let r = applyWithBase(current, base, diff);
  assert.equal(r.text, "fn b() {\n    run(1);\n}\n// header\nfn a() {\n    run(2);\n}\n");
  assert.equal(r.source, current);
  assert.equal(r.hunks.length, 1);
  const h = r.hunks[0];
  assert.deepEqual(
    [h.merged, h.oldStart, h.oldLen, h.reindented, h.alreadyApplied, h.endOfFile, h.outOfOrder],
    [true, 6, 1, false, false, false, false],
  );

  // Drift above the hunk, as bytes and with a full diff: the ranges in the current text.
  const enc = (s) => new TextEncoder().encode(s);
  r = applyWithBase(enc(`import os\n${BASE_X}`), enc(BASE_X), enc(DIFF_X), { diff: "full" });
  assert.equal(r.text, "import os\ndef f():\n    x = 2\n    return x\n");
  assert.equal(r.hunks[0].merged, true);
  assert.equal(r.hunks[0].oldStart, 3);
  assert.equal(r.diff.length, 5);

  // A base equal to the source: exactly the plain apply.
  assert.deepEqual(applyWithBase(BASE_X, BASE_X, DIFF_X), apply(BASE_X, DIFF_X));
  assert.equal(applyWithBase(BASE_X, BASE_X, DIFF_X).hunks[0].merged, false);

  const e = throwsCode(() => applyWithBase(CURRENT_X, BASE_X, DIFF_X), "CONFLICT");
  assert.equal(e.status, 18);
  assert.equal(
    e.message,
    "hunk 1 (patch line 1) conflicts with a change made to the file since the model read it: " +
      "the lines it changes were also changed in the current file.\n" +
      "What the model saw (line 2):\n  |    x = 1\n" +
      "What the file has now (line 2):\n  |    x = 10\n" +
      "What the patch wanted (line 2):\n  |    x = 2\n" +
      "Resend the hunk against the current lines shown above.",
  );
  assert.deepEqual(e.diagnostics.candidates, [2]);

  // An empty base is a base: the line the file gained and the added line meet at one place.
  assert.equal(apply("top\n", "@@\n+added\n").text, "top\nadded\n");
  throwsCode(() => applyWithBase("top\n", "", "@@\n+added\n"), "CONFLICT");

  const bad = throwsCode(
    () => applyWithBase("a\n", new Uint8Array([0x61, 0x0a, 0xc3, 0x0a]), "@@\n-a\n+b\n"),
    "INVALID_UTF8",
  );
  assert.equal(bad.diagnostics.input, "base");
  assert.equal(bad.diagnostics.byteOffset, 2);
  throwsCode(() => applyWithBase("a\n", "a\uD800\n", "@@\n-a\n+b\n"), "INVALID_UTF8");
  const mode = throwsCode(() => applyWithBase("a\n", "a\n", "@@\n-a\n+b\n", { mode: "frob" }), "UNSUPPORTED_MODE");
  assert.match(mode.message, /update, create, delete or move/);
  assert.equal(applyWithBase("", new Uint8Array([0xff]), "+new\n", { mode: "create" }).text, "new\n");
});

test("multi-file: merged files, unknown bases, a conflict fails the whole patch", () => {
  const patch =
    `*** Begin Patch\n*** Update File: a.py\n${DIFF_X}` +
    "*** Add File: new.txt\n+new\n*** Delete File: gone.txt\n" +
    "*** Update File: b.txt\n@@\n-old\n+new\n*** End Patch\n";
  const files = { "a.py": `import os\n${BASE_X}`, "gone.txt": "bye\n", "b.txt": "old\n" };
  const asked = [];
  const bases = (path) => {
    asked.push(path);
    return path === "a.py" ? BASE_X : undefined;
  };
  const r = applyPatchWithBases(v4a.parsePatch(patch), files, bases);
  assert.deepEqual(asked, ["a.py", "b.txt"]);
  assert.equal(r.files.length, 4);
  assert.equal(r.files[0].result.text, "import os\ndef f():\n    x = 2\n    return x\n");
  assert.equal(r.files[0].result.hunks[0].merged, true);
  assert.equal(r.files[0].result.hunks[0].oldStart, 3);
  assert.equal(r.files[3].result.text, "new\n");
  assert.equal(r.files[3].result.hunks[0].merged, false);
  assert.equal(r.summary, "Success. Updated the following files:\nM a.py\nA new.txt\nD gone.txt\nM b.txt\n");

  // No known base: exactly applyPatch.
  assert.deepEqual(applyPatchWithBases(patch, files, new Map()), applyPatch(patch, files));

  const conflict = { ...files, "a.py": CURRENT_X };
  const e = throwsCode(() => applyPatchWithBases(patch, conflict, { "a.py": BASE_X }), "CONFLICT");
  assert.equal(e.diagnostics.path, "a.py");

  const bad = throwsCode(
    () => applyPatchWithBases(patch, files, { "b.txt": new Uint8Array([0xff]) }),
    "INVALID_UTF8",
  );
  assert.equal(bad.diagnostics.input, "base");
  assert.equal(bad.diagnostics.path, "b.txt");
  assert.throws(() => applyPatchWithBases(patch, files, 42), /sources must be/);
});
