// A shared vector of tests/vectors/ (format in tests/vectors/README.md): reading a case, and
// rendering what the package produced in the canonical outcome form, the same text the Rust
// runner (tests/vectors.rs) blesses and the C, Go and C# runners render. The only module that
// knows the vector format, so a change of format is a change here only.

import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { readTree } from "./tree.mjs";

/** The entries a vector folder may hold; anything else is refused. */
export const KNOWN_ENTRIES = ["patch", "before", "base", "after", "mode", "options", "outcome"];

const LEVELS = ["exact", "trim_end", "trim", "collapse", "fold"];

function bool(key, v) {
  if (v !== "true" && v !== "false") throw new Error(`bad vector: option ${key}: not a boolean: ${JSON.stringify(v)}`);
  return v === "true";
}

const OPTION_KEYS = {
  max_level: (v) => {
    if (!LEVELS.includes(v)) throw new Error(`bad vector: unknown level ${JSON.stringify(v)}`);
    return ["maxLevel", v];
  },
  max_fuzz: (v) => {
    if (!/^\d+$/.test(v)) throw new Error(`bad vector: option max_fuzz: not a number: ${JSON.stringify(v)}`);
    return ["maxFuzz", Number(v)];
  },
  first_match: (v) => ["firstMatch", bool("first_match", v)],
  already_applied_error: (v) => ["alreadyAppliedIsError", bool("already_applied_error", v)],
  ensure_final_newline: (v) => ["ensureFinalNewline", bool("ensure_final_newline", v)],
  add_file_line_ending: (v) => {
    if (v !== "lf" && v !== "crlf") throw new Error(`bad vector: bad line ending ${JSON.stringify(v)}`);
    return ["addFileLineEnding", v];
  },
};

/** The `options` file (`key=value` lines) as ApplyOptions; undefined without the file. */
function readOptions(dir) {
  const file = join(dir, "options");
  if (!existsSync(file)) return undefined;
  const options = {};
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    const eq = line.indexOf("=");
    if (eq < 0) throw new Error(`bad vector: bad option line ${JSON.stringify(line)}`);
    const key = line.slice(0, eq).trim();
    const map = OPTION_KEYS[key];
    if (map === undefined) throw new Error(`bad vector: unknown option ${JSON.stringify(key)}`);
    const [name, value] = map(line.slice(eq + 1).trim());
    options[name] = value;
  }
  return options;
}

/**
 * Reads one case: `{ name, patch, before, base, after, hasAfter, outcome, mode, options }`
 * (bytes as Uint8Array, trees as Map<path, Uint8Array>, `base` null without base/, `mode`
 * null for a multi-file case). Throws
 * on a malformed folder (an unknown entry, a missing `patch` or `outcome`, a bad option), with
 * the words of the other runners.
 */
export function loadCase(dir) {
  for (const entry of readdirSync(dir)) {
    if (!KNOWN_ENTRIES.includes(entry)) {
      throw new Error(
        `bad vector: unknown entry ${JSON.stringify(entry)} (old \`error\`/\`expect\` checks are converted with V4A_BLESS=1 cargo test -p v4a --test vectors)`,
      );
    }
  }
  const file = (name, missing) => {
    const path = join(dir, name);
    if (!existsSync(path) || !statSync(path).isFile()) throw new Error(`bad vector: ${missing}`);
    return new Uint8Array(readFileSync(path));
  };
  const patch = file("patch", "missing patch file");
  const outcome = file(
    "outcome",
    "missing outcome file (bless it with V4A_BLESS=1 cargo test -p v4a --test vectors)",
  );
  const afterDir = join(dir, "after");
  const baseDir = join(dir, "base");
  const modeFile = join(dir, "mode");
  const hasBase = existsSync(baseDir) && statSync(baseDir).isDirectory();
  if (hasBase && existsSync(modeFile)) throw new Error("bad vector: a `mode` case has no base/");
  return {
    name: dir.split(/[\\/]/).filter(Boolean).pop(),
    patch,
    before: readTree(join(dir, "before")),
    base: hasBase ? readTree(baseDir) : null,
    after: readTree(afterDir),
    hasAfter: existsSync(afterDir) && statSync(afterDir).isDirectory(),
    outcome,
    mode: existsSync(modeFile) ? readFileSync(modeFile, "utf8").trim() : null,
    options: readOptions(dir),
  };
}

// ---------------------------------------------------------------------------------------
// The canonical outcome (tests/vectors/README.md, "The outcome file")
// ---------------------------------------------------------------------------------------

const encoder = new TextEncoder();

/** The UTF-8 length of a string. */
export function byteLength(s) {
  return encoder.encode(s).length;
}

/** Escapes a string for one line of an outcome file. */
export function esc(s) {
  let out = "";
  for (const ch of s) {
    const c = ch.codePointAt(0);
    if (ch === "\\") out += "\\\\";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, "0")}`;
    else out += ch;
  }
  return out;
}

/** `key:` and one `| ` line per `\n`-separated piece (`|` for an empty one). */
function block(key, text) {
  let out = `${key}:\n`;
  for (const piece of text.split("\n")) out += piece === "" ? "|\n" : `| ${esc(piece)}\n`;
  return out;
}

/** A similarity in thousandths, rounded in binary64 as every runner does: `0.950`. */
export function thousandths(similarity) {
  const milli = Math.floor(similarity * 1000 + 0.5);
  return `${Math.floor(milli / 1000)}.${String(milli % 1000).padStart(3, "0")}`;
}

function renderError(err) {
  if (err?.name !== "V4AError") return `status: (not a V4AError: ${err?.stack ?? err})\n`;
  const d = err.diagnostics;
  let out = `status: ${err.code}\n`;
  out += block("message", err.message);
  if (d.path) out += `path: ${esc(d.path)}\n`;
  if (d.patchLine !== null) out += `patch_line: ${d.patchLine}\n`;
  if (d.hunk !== null) out += `hunk: ${d.hunk}\n`;
  if (d.byteOffset !== null) out += `byte_offset: ${d.byteOffset}\n`;
  if (d.input) out += `input: ${esc(d.input)}\n`;
  if (d.candidates.length > 0) out += `candidates: ${d.candidates.join(",")}\n`;
  if (d.suggestion) out += block("suggestion", d.suggestion);
  if (d.closest !== null) {
    out += `closest: ${d.closest.start}-${d.closest.end} similarity=${thousandths(d.closest.similarity)}\n`;
  }
  if (d.correctedHunk) out += block("corrected_hunk", d.correctedHunk);
  return out;
}

const noneOr = (list) => (list.length === 0 ? "none" : list.join(","));

function renderResult(indent, r) {
  let out = `${indent}fuzz: ${r.fuzz}\n`;
  r.hunks.forEach((h, i) => {
    const flags = [
      [h.reindented, "reindented"],
      [h.alreadyApplied, "already_applied"],
      [h.endOfFile, "end_of_file"],
      [h.outOfOrder, "out_of_order"],
      [h.merged, "merged"],
      [h.anchorIgnored, "anchor_ignored"],
      [h.contextRelaxed, "context_relaxed"],
    ]
      .filter(([on]) => on)
      .map(([, name]) => name);
    out +=
      `${indent}hunk ${i + 1}: old=${h.oldStart},${h.oldLen} new=${h.newStart},${h.newLen} ` +
      `level=${h.level} fuzz=${h.fuzz} candidates=${h.candidates} patch_line=${h.patchLine} ` +
      `flags=${noneOr(flags)} line_levels=${noneOr(h.lineLevels)}\n`;
  });
  return out;
}

/**
 * The canonical outcome of a run: `{ error }` (the thrown value), `{ text: ApplyResult }` (a
 * mode case) or `{ files: FileResult[], after: Map<path, Uint8Array> }` (a multi-file case).
 */
export function render(run) {
  if ("error" in run) return renderError(run.error);
  let out = "status: OK\n";
  if ("single" in run) {
    out += `text: ${byteLength(run.single.text)} bytes\n`;
    return out + renderResult("", run.single);
  }
  run.files.forEach((f, i) => {
    out += `op ${i + 1}: ${f.kind} ${esc(f.path)}`;
    if (f.moveTo !== null) out += ` -> ${esc(f.moveTo)}`;
    out += "\n" + renderResult("  ", f.result);
  });
  for (const path of sortedPaths(run.after)) out += `file ${esc(path)}: ${run.after.get(path).length} bytes\n`;
  return out;
}

/** The keys of a tree, sorted by their UTF-8 bytes (as Rust's BTreeMap and Go's sort). */
export function sortedPaths(tree) {
  return [...tree.keys()].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
}

// ---------------------------------------------------------------------------------------
// Showing differences
// ---------------------------------------------------------------------------------------

/** Splits after each `\n` (the last piece has none when the text does not end in one). */
function linesOf(text) {
  const out = text.split(/(?<=\n)/);
  return out.length === 1 && out[0] === "" ? [] : out;
}

/**
 * The lines that differ between the outcome file and this run (both bytes), with two lines
 * of context. Lines are compared as bytes (latin1 maps each byte to one code unit) and shown
 * as UTF-8.
 */
export function lineDiff(wantBytes, gotBytes) {
  const w = linesOf(Buffer.from(wantBytes).toString("latin1"));
  const g = linesOf(Buffer.from(gotBytes).toString("latin1"));
  let pre = 0;
  while (pre < w.length && pre < g.length && w[pre] === g[pre]) pre++;
  let suf = 0;
  while (suf < w.length - pre && suf < g.length - pre && w[w.length - 1 - suf] === g[g.length - 1 - suf]) suf++;
  let out = `  outcome differs at line ${pre + 1} (- the outcome file, + this run):\n`;
  const line = (mark, l) => {
    const shown = Buffer.from(l, "latin1").toString("utf8");
    out += `    ${mark}${shown.endsWith("\n") ? shown.slice(0, -1) : shown}\n`;
    if (!l.endsWith("\n")) out += "    \\ no final newline\n";
  };
  for (const l of w.slice(Math.max(0, pre - 2), pre)) line(" ", l);
  for (const l of w.slice(pre, w.length - suf)) line("-", l);
  for (const l of g.slice(pre, g.length - suf)) line("+", l);
  for (const l of w.slice(w.length - suf).slice(0, 2)) line(" ", l);
  return out;
}

/** Bytes as a quoted string, escaped, cut after 400 bytes. */
export function show(bytes) {
  const shown = Buffer.from(bytes.subarray(0, 400)).toString("utf8");
  const more = bytes.length > 400 ? `... (${bytes.length} bytes)` : "";
  return `"${esc(shown).replaceAll('"', '\\"')}"${more}`;
}

/** Whether two byte arrays are equal. */
export const sameBytes = (a, b) => a.length === b.length && Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;

/** The differences between an expected tree (after/) and the produced one, byte for byte. */
export function treeProblems(want, got) {
  const problems = [];
  const paths = sortedPaths(new Map([...want, ...got]));
  for (const path of paths) {
    const w = want.get(path);
    const g = got.get(path);
    if (w !== undefined && g !== undefined && !sameBytes(w, g)) {
      problems.push(`${path} differs from after/:\n    expected: ${show(w)}\n    actual:   ${show(g)}`);
    } else if (g === undefined) {
      problems.push(`${path}: expected in after/, missing from the result`);
    } else if (w === undefined) {
      problems.push(`${path}: present in the result, not in after/: ${show(g)}`);
    }
  }
  return problems;
}
