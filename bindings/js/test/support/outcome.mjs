// The expected outcome of a shared vector (tests/vectors/README.md) and its comparison with
// what the package produced. The only module that knows the expectation files' format
// (`error`, `expect`, `after/`), so a change of format is a change here only.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { readTree } from "./tree.mjs";

const LEVELS = ["exact", "trim_end", "trim", "collapse", "fold"];
const FLAGS = ["reindented", "already_applied", "end_of_file", "out_of_order"];

function lines(text) {
  return text
    .split("\n")
    .map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l))
    .filter((l) => l.trim() !== "");
}

function number(s, line) {
  if (!/^\s*\d+\s*$/.test(s)) throw new Error(`malformed number in ${JSON.stringify(line)}`);
  return Number(s);
}

function parseExpectLine(line) {
  const colon = line.indexOf(":");
  if (colon < 0) throw new Error(`expect line without ':': ${JSON.stringify(line)}`);
  const rhs = line.slice(colon + 1).trim();
  let words = line.slice(0, colon).trim().split(/\s+/);
  if (words[0] === "fuzz") {
    if (words.length > 2) throw new Error(`malformed ${JSON.stringify(line)}`);
    return { path: words[1] ?? null, check: "fuzz", value: number(rhs, line) };
  }
  let path = null;
  if (words[0] !== "hunks" && words[0] !== "hunk") [path, ...words] = words;
  if (words.length === 1 && words[0] === "hunks") {
    return { path, check: "hunks", value: number(rhs, line) };
  }
  if (words.length === 3 && words[0] === "hunk") {
    const index = number(words[1], line);
    if (index === 0) throw new Error(`hunk numbers are 1-based: ${JSON.stringify(line)}`);
    const what = words[2];
    if (what === "level") {
      if (!LEVELS.includes(rhs)) throw new Error(`unknown level in ${JSON.stringify(line)}`);
      return { path, check: "level", index, value: rhs };
    }
    if (what === "flags") {
      const set = rhs === "none" ? [] : rhs.split(",").map((f) => f.trim());
      for (const f of set) {
        if (!FLAGS.includes(f)) throw new Error(`unknown flag ${f} in ${JSON.stringify(line)}`);
      }
      return { path, check: "flags", index, value: set.sort().join(",") };
    }
    if (what === "old" || what === "new") {
      const [s, l] = rhs.split(",");
      if (l === undefined) throw new Error(`expected START,LEN in ${JSON.stringify(line)}`);
      return { path, check: what, index, value: `${number(s, line)},${number(l, line)}` };
    }
  }
  throw new Error(`unknown expect line ${JSON.stringify(line)}`);
}

const ERROR_CHECKS = ["contains", "line", "hunk", "path", "candidates", "offset", "suggestion", "corrected"];

/**
 * Reads what a case expects: `{ error: { status, checks } }` or
 * `{ files: Map<path, Uint8Array>, expect: [...] }`.
 */
export function readExpectation(dir) {
  const errorFile = join(dir, "error");
  if (existsSync(errorFile)) {
    const [status, ...rest] = lines(readFileSync(errorFile, "utf8"));
    const checks = rest.map((line) => {
      const colon = line.indexOf(":");
      const key = line.slice(0, colon).trim();
      if (colon < 0 || !ERROR_CHECKS.includes(key)) {
        throw new Error(`unknown error check ${JSON.stringify(line)}`);
      }
      return { key, value: line.slice(colon + 1).trim() };
    });
    return { error: { status: status.trim(), checks } };
  }
  const expectFile = join(dir, "expect");
  const expect = existsSync(expectFile)
    ? lines(readFileSync(expectFile, "utf8")).map(parseExpectLine)
    : [];
  return { files: readTree(join(dir, "after")), expect };
}

function errorProblems(spec, err) {
  if (err?.name !== "V4AError") return [`expected a V4AError, got ${err?.stack ?? err}`];
  const d = err.diagnostics;
  const problems = [];
  if (err.code !== spec.status) problems.push(`status: expected ${spec.status}, got ${err.code}`);
  for (const { key, value } of spec.checks) {
    const fail = (got) => problems.push(`${key}: expected ${JSON.stringify(value)}, got ${JSON.stringify(got)}`);
    switch (key) {
      case "contains":
        if (!err.message.includes(value)) fail(err.message);
        break;
      case "line":
        if (d.patchLine !== Number(value)) fail(d.patchLine);
        break;
      case "hunk":
        if (d.hunk !== Number(value)) fail(d.hunk);
        break;
      case "path":
        if (d.path !== value) fail(d.path);
        break;
      case "candidates":
        if (d.candidates.join(",") !== value.split(",").map((s) => s.trim()).join(",")) fail(d.candidates);
        break;
      case "offset":
        if (d.byteOffset !== Number(value)) fail(d.byteOffset);
        break;
      case "suggestion":
        if (!(d.suggestion ?? "").includes(value)) fail(d.suggestion);
        break;
      case "corrected":
        if (!(d.correctedHunk ?? "").includes(value)) fail(d.correctedHunk);
        break;
    }
  }
  return problems;
}

function flagsOf(h) {
  return [
    h.reindented && "reindented",
    h.alreadyApplied && "already_applied",
    h.endOfFile && "end_of_file",
    h.outOfOrder && "out_of_order",
  ]
    .filter(Boolean)
    .sort()
    .join(",");
}

function expectProblem(e, applied) {
  const entry = e.path === null ? applied[0] : applied.find(({ keys }) => keys.includes(e.path));
  if (entry === undefined) return `expect ${e.check}: no updated file ${e.path} in the result`;
  const r = entry.result;
  if (e.check === "fuzz") return r.fuzz === e.value ? null : `fuzz: expected ${e.value}, got ${r.fuzz}`;
  if (e.check === "hunks") {
    return r.hunks.length === e.value ? null : `hunks: expected ${e.value}, got ${r.hunks.length}`;
  }
  const h = r.hunks[e.index - 1];
  if (h === undefined) return `hunk ${e.index}: only ${r.hunks.length} hunk reports`;
  const got = {
    level: h.level,
    flags: flagsOf(h),
    old: `${h.oldStart},${h.oldLen}`,
    new: `${h.newStart},${h.newLen}`,
  }[e.check];
  return got === e.value ? null : `hunk ${e.index} ${e.check}: expected ${e.value}, got ${got}`;
}

const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * Compares an outcome with the expectation; returns the problems (empty when it agrees).
 * `outcome` is `{ error }` (a thrown value) or `{ files: Map<path, Uint8Array>, applied:
 * [{ keys: [path, ...], result }] }` (the after-state and each Update file's result).
 */
export function compare(expected, outcome) {
  if (expected.error) {
    if (!("error" in outcome)) return [`expected ${expected.error.status}, but the patch applied`];
    return errorProblems(expected.error, outcome.error);
  }
  if ("error" in outcome) {
    const e = outcome.error;
    return [`expected success, got ${e?.code ?? ""} ${e?.message ?? e}`];
  }
  const problems = [];
  const want = [...expected.files.keys()].sort();
  const got = [...outcome.files.keys()].sort();
  if (!same(want, got)) problems.push(`files: expected [${want}], got [${got}]`);
  for (const path of want) {
    const w = expected.files.get(path);
    const g = outcome.files.get(path);
    if (g !== undefined && !same([...w], [...g])) {
      problems.push(
        `${path}: bytes differ\n  expected ${JSON.stringify(Buffer.from(w).toString("latin1"))}\n` +
          `  got      ${JSON.stringify(Buffer.from(g).toString("latin1"))}`,
      );
    }
  }
  for (const e of expected.expect) {
    const p = expectProblem(e, outcome.applied);
    if (p !== null) problems.push(p);
  }
  return problems;
}
