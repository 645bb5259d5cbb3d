// Every shared vector of tests/vectors/ through the package, compared byte for byte with the
// other languages' expectations (see test/support/outcome.mjs). V4A_VECTOR=<part of a name>
// runs only the matching cases.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import { apply, applyPatch, initSync } from "../dist/esm/index.js";
import { compare, readExpectation } from "./support/outcome.mjs";
import { readTree } from "./support/tree.mjs";

initSync();

const vectors = fileURLToPath(new URL("../../../tests/vectors/", import.meta.url));
const only = process.env.V4A_VECTOR ?? "";
const cases = readdirSync(vectors, { withFileTypes: true })
  .filter((e) => e.isDirectory() && e.name.includes(only))
  .map((e) => e.name)
  .sort();

const encoder = new TextEncoder();

const OPTION_KEYS = {
  max_level: (v) => ["maxLevel", v],
  max_fuzz: (v) => ["maxFuzz", Number(v)],
  first_match: (v) => ["firstMatch", v === "true"],
  already_applied_error: (v) => ["alreadyAppliedIsError", v === "true"],
  ensure_final_newline: (v) => ["ensureFinalNewline", v === "true"],
  add_file_line_ending: (v) => ["addFileLineEnding", v],
};

function readOptions(dir) {
  const file = join(dir, "options");
  if (!existsSync(file)) return undefined;
  const options = {};
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const trimmed = line.trim();
    if (trimmed === "") continue;
    const [key, value] = trimmed.split("=").map((s) => s.trim());
    const map = OPTION_KEYS[key];
    if (map === undefined || value === undefined) throw new Error(`unknown option line ${line}`);
    const [name, v] = map(value);
    options[name] = v;
  }
  return options;
}

function outcomeOf(run) {
  try {
    return run();
  } catch (error) {
    return { error };
  }
}

function runCase(dir) {
  const patch = new Uint8Array(readFileSync(join(dir, "patch")));
  const before = readTree(join(dir, "before"));
  const options = readOptions(dir);
  const modeFile = join(dir, "mode");
  if (existsSync(modeFile)) {
    const mode = readFileSync(modeFile, "utf8").trim();
    assert.ok(before.size <= 1, "a mode case has at most one file in before/");
    const source = before.size === 1 ? [...before.values()][0] : new Uint8Array(0);
    return outcomeOf(() => {
      const result = apply(source, patch, { ...options, mode });
      const files = new Map();
      const text = encoder.encode(result.text);
      const expectedName = existsSync(join(dir, "after")) ? readdirSync(join(dir, "after"))[0] : undefined;
      // File names do not matter in a mode case: the one result is compared with the one
      // file of after/ (none = empty text).
      if (expectedName !== undefined) files.set(expectedName, text);
      else if (text.length > 0) files.set("(text)", text);
      return { files, applied: [{ keys: [], result }] };
    });
  }
  return outcomeOf(() => {
    const result = applyPatch(patch, (path) => before.get(path), options);
    const files = new Map(before);
    const applied = [];
    for (const f of result.files) {
      const bytes = encoder.encode(f.result.text);
      const keys = [f.path];
      if (f.kind === "add") files.set(f.path, bytes);
      else if (f.kind === "delete") files.delete(f.path);
      else if (f.moveTo !== null && f.moveTo !== f.path) {
        files.delete(f.path);
        files.set(f.moveTo, bytes);
        keys.push(f.moveTo);
      } else files.set(f.path, bytes);
      if (f.kind === "update") applied.push({ keys, result: f.result });
    }
    return { files, applied };
  });
}

test("the shared vectors are found", () => {
  assert.ok(only !== "" || cases.length > 300, `only ${cases.length} cases in ${vectors}`);
});

for (const name of cases) {
  test(`vector ${name}`, () => {
    const dir = join(vectors, name);
    const problems = compare(readExpectation(dir), runCase(dir));
    assert.deepEqual(problems, [], `${name}:\n${problems.join("\n")}`);
  });
}
