// Every shared vector of tests/vectors/ through the package: the result is rendered in the
// canonical outcome form (test/support/outcome.mjs, tests/vectors/README.md) and compared
// byte for byte with the case's `outcome` file, the after-state byte for byte with `after/`,
// as the Rust, C, Go and C# runners do. V4A_VECTORS_DIR overrides the folder;
// V4A_VECTOR=<part of a name> runs only the matching cases.

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { apply, applyPatch, applyPatchWithBases, initSync } from "../dist/esm/index.js";
import { esc, lineDiff, loadCase, render, sameBytes, show, thousandths, treeProblems } from "./support/outcome.mjs";

initSync();

/** The smallest number of vectors the suite may hold (as the other runners). */
const MIN_VECTORS = 150;

const vectors = process.env.V4A_VECTORS_DIR
  ? resolve(process.env.V4A_VECTORS_DIR)
  : fileURLToPath(new URL("../../../tests/vectors/", import.meta.url));
const only = process.env.V4A_VECTOR ?? "";
const all = readdirSync(vectors, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();
const cases = all.filter((name) => name.includes(only));

const encoder = new TextEncoder();

/** Runs a case through the package: `{ error }`, `{ single }` or `{ files, after }`. */
function run(c) {
  try {
    if (c.mode !== null) {
      // The single-file API; before/ holds at most one file, the source (none = empty).
      if (c.before.size > 1) throw new Error("bad vector: a mode case has at most one file in before/");
      const source = c.before.size === 1 ? [...c.before.values()][0] : new Uint8Array(0);
      return { single: apply(source, c.patch, { ...c.options, mode: c.mode }) };
    }
    const source = (path) => c.before.get(path);
    const result =
      c.base === null
        ? applyPatch(c.patch, source, c.options)
        : applyPatchWithBases(c.patch, source, (path) => c.base.get(path), c.options);
    const after = new Map(c.before);
    for (const f of result.files) {
      const bytes = encoder.encode(f.result.text);
      if (f.kind === "delete") after.delete(f.path);
      else if (f.kind === "update" && f.moveTo !== null && f.moveTo !== f.path) {
        after.delete(f.path);
        after.set(f.moveTo, bytes);
      } else after.set(f.path, bytes);
    }
    return { files: result.files, after };
  } catch (error) {
    return { error };
  }
}

/** The problems of one case (none when it passes). */
function problemsOf(c) {
  const outcome = run(c);
  const problems = [];
  const got = encoder.encode(render(outcome));
  if (!sameBytes(got, c.outcome)) problems.push(lineDiff(c.outcome, got));
  if ("error" in outcome) {
    if (c.hasAfter) problems.push("after/ exists, but the patch failed");
    if (outcome.error?.name !== "V4AError") problems.push(`not a V4AError: ${outcome.error?.stack ?? outcome.error}`);
  } else if (c.mode !== null) {
    if (c.after.size > 1) problems.push("a mode case has at most one file in after/");
    const want = c.after.size === 1 ? [...c.after.values()][0] : new Uint8Array(0);
    const text = encoder.encode(outcome.single.text);
    if (!sameBytes(want, text)) {
      problems.push(`text differs from after/:\n    expected: ${show(want)}\n    actual:   ${show(text)}`);
    }
  } else {
    problems.push(...treeProblems(c.after, outcome.after));
  }
  return problems;
}

test("the shared vectors are found", () => {
  assert.ok(only !== "" || all.length >= MIN_VECTORS, `only ${all.length} cases in ${vectors}`);
  assert.ok(cases.length > 0, `no case of ${vectors} matches V4A_VECTOR=${only}`);
});

for (const name of cases) {
  test(`vector ${name}`, () => {
    const problems = problemsOf(loadCase(join(vectors, name)));
    if (problems.length > 0) assert.fail(`--- ${name}\n${problems.join("\n")}`);
  });
}

// The runner itself: a malformed folder is refused, a wrong outcome or after-state fails.
test("the runner refuses malformed vectors and catches a wrong outcome", (t) => {
  const root = mkdtempSync(join(tmpdir(), "v4a-vectors-"));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const write = (rel, text) => {
    const path = join(root, rel);
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, text);
  };
  write("mode", "update\n");
  write("patch", "@@\n-a\n+b\n");
  write("before/f", "a\n");
  write("after/f", "b\n");
  const good =
    "status: OK\ntext: 2 bytes\nfuzz: 0\n" +
    "hunk 1: old=1,1 new=1,1 level=exact fuzz=0 candidates=1 patch_line=1 flags=none line_levels=exact\n";
  write("outcome", good);
  assert.deepEqual(problemsOf(loadCase(root)), []);

  write("outcome", good.replace("candidates=1", "candidates=2"));
  const [diff] = problemsOf(loadCase(root));
  assert.match(diff, /outcome differs at line 4 \(- the outcome file, \+ this run\):/);
  assert.match(diff, /\n    -hunk 1: .*candidates=2/);
  assert.match(diff, /\n    \+hunk 1: .*candidates=1/);

  write("outcome", good);
  write("after/f", "b\r\n");
  assert.match(problemsOf(loadCase(root)).join("\n"), /text differs from after\//);

  write("expect", "fuzz: 0\n");
  assert.throws(
    () => loadCase(root),
    {
      message:
        'bad vector: unknown entry "expect" (old `error`/`expect` checks are converted with V4A_BLESS=1 cargo test -p v4a --test vectors)',
    },
  );
  rmSync(join(root, "expect"));
  rmSync(join(root, "outcome"));
  assert.throws(() => loadCase(root), /missing outcome file/);
});

test("the canonical form: escapes, text blocks, similarity in thousandths", () => {
  assert.equal(esc("a\\b\n\r\t\x00\x1f\x7f é€😀"), "a\\\\b\\n\\r\\t\\x00\\x1f\\x7f é€😀");
  // floor(s * 1000 + 0.5) in binary64, as Rust, C, Go and C# compute it.
  for (const [s, want] of [
    [0.95, "0.950"],
    [0.0005, "0.001"],
    [1, "1.000"],
    [0.1234, "0.123"],
    [0.9995, "1.000"],
    [0.8125, "0.813"],
    [0.0015, "0.002"],
    [2 / 3, "0.667"],
    [0, "0.000"],
  ]) {
    assert.equal(thousandths(s), want, `similarity ${s}`);
  }
  const diagnostics = {
    patchLine: 3,
    hunk: 1,
    closest: { start: 2, end: 4, similarity: 0.8125 },
    byteOffset: 0,
    index: null,
    path: "a\tb.txt",
    input: "source",
    suggestion: "@@ x\n",
    correctedHunk: "@@\n-a\r\n\n",
    candidates: [2, 5],
  };
  const err = Object.assign(new Error("two\nlines\n"), { name: "V4AError", code: "AMBIGUOUS", diagnostics });
  assert.equal(
    render({ error: err }),
    "status: AMBIGUOUS\nmessage:\n| two\n| lines\n|\npath: a\\tb.txt\npatch_line: 3\nhunk: 1\n" +
      "byte_offset: 0\ninput: source\ncandidates: 2,5\nsuggestion:\n| @@ x\n|\n" +
      "closest: 2-4 similarity=0.813\ncorrected_hunk:\n| @@\n| -a\\r\n|\n|\n",
  );
  const none = { ...diagnostics, patchLine: null, hunk: null, closest: null, byteOffset: null };
  Object.assign(none, { path: null, input: null, suggestion: null, correctedHunk: null, candidates: [] });
  assert.equal(render({ error: Object.assign(err, { diagnostics: none }) }), "status: AMBIGUOUS\nmessage:\n| two\n| lines\n|\n");
});

test("the runner compares the after-state byte for byte", () => {
  const tree = (entries) => new Map(entries.map(([k, v]) => [k, new TextEncoder().encode(v)]));
  assert.deepEqual(treeProblems(tree([["a", "x\n"]]), tree([["a", "x\n"]])), []);
  assert.match(treeProblems(tree([["a", "x\n"]]), tree([["a", "x\r\n"]]))[0], /^a differs from after\//);
  assert.match(treeProblems(tree([["a", ""]]), tree([]))[0], /^a: expected in after\/, missing/);
  assert.match(treeProblems(tree([]), tree([["b", ""]]))[0], /^b: present in the result, not in after\//);
});
