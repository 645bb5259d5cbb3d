// v4a for JavaScript: the engine in WebAssembly behind plain synchronous functions. Inputs
// are strings (UTF-16, encoded to UTF-8 at the boundary; a lone surrogate is refused) or
// bytes; every result is copied out of the module and its handle freed before returning, so
// nothing here needs to be freed by the caller.

import {
  Arena,
  SIZE,
  call,
  callView,
  cString,
  decode,
  mem,
  readError,
  scratchPtr,
  setU32,
  setU64,
  u32,
  viewString,
  viewU32s,
  wasm,
  type Input,
} from "./engine.js";
import { V4AError } from "./errors.js";
import { writeRefineLimits, type RefineLimits } from "./refine.js";

export { init, initSync, isReady, memorySize, ABI_VERSION, type WasmInput, type Input } from "./engine.js";
export { refineLines, type LinePair, type RefineLimits, type RefinedSegment } from "./refine.js";
export { V4AError, statusName, STATUS_NAMES, type Diagnostics, type StatusName } from "./errors.js";

/** The single-file modes: the `mode` field of the one-file-per-call tool. */
export type Mode = "update" | "create" | "delete" | "move";
/** Match levels, strictest first (fuzz 0, 1, 10, 50, 100). */
export type Level = "exact" | "trim_end" | "trim" | "collapse" | "fold";
/** The kind of a diff line or segment. */
export type DiffKind = "equal" | "delete" | "add";
/** The class of a path as written in a patch; only `"relative"` is safe to write under a root. */
export type PathClass =
  | "relative"
  | "absolute"
  | "parent_escape"
  | "empty"
  | "nul"
  | "drive_prefix";
/** A file operation of a patch. */
export type OpKind = "add" | "delete" | "update";

/** The levels in C ABI order (`V4A_LEVEL_*`). */
export const LEVELS: readonly Level[] = ["exact", "trim_end", "trim", "collapse", "fold"];
const KINDS: readonly DiffKind[] = ["equal", "delete", "add"];
const PATH_CLASSES: readonly PathClass[] = [
  "relative",
  "absolute",
  "parent_escape",
  "empty",
  "nul",
  "drive_prefix",
];
const OP_KINDS: readonly OpKind[] = ["add", "delete", "update"];

/** Options for applying patches; anything left out is the engine's default. */
export interface ApplyOptions {
  /** The loosest match level tried (default `"fold"`; `"exact"` is strict mode). */
  maxLevel?: Level;
  /** The largest total fuzz accepted for one file (`FUZZ_LIMIT` above); `null`: no limit. */
  maxFuzz?: number | null;
  /** Take the first candidate instead of failing with `AMBIGUOUS` (older engines' way). */
  firstMatch?: boolean;
  /** An already-applied hunk is an `ALREADY_APPLIED` error instead of a no-op. */
  alreadyAppliedIsError?: boolean;
  /** The new text always ends with a line terminator. */
  ensureFinalNewline?: boolean;
  /** The terminator `*** Add File` (and mode create) writes (default `"lf"`). */
  addFileLineEnding?: "lf" | "crlf";
  /**
   * Which structured line diff to compute: `"none"` (default, the cheapest), `"full"` (every
   * line), `"changes"` (changed lines with `diffContext` lines of context) or `"runs"` (every
   * line, but each run of equal lines as one entry with its {@link DiffLine.count}: the cheap
   * full diff; {@link expandRuns} turns it into the `"full"` one).
   */
  diff?: "none" | "full" | "changes" | "runs";
  /** Context lines around each change for `diff: "changes"` (default {@link defaultDiffContext}, 3). */
  diffContext?: number;
  /** Add character-level segments to the changed lines of the structured diff. */
  refine?: boolean;
  /** The limits of that refinement (the same `refineLines` takes); defaults when left out. */
  refineLimits?: RefineLimits;
  /** Upper bound on search work per file, in line comparisons (default 200,000,000). */
  searchBudget?: number | bigint;
}

/** Options of the single-file `apply`. */
export interface SingleApplyOptions extends ApplyOptions {
  /**
   * `"update"` (default), `"create"`, `"delete"` or `"move"`; any other name is refused with
   * `UNSUPPORTED_MODE` and a message naming the valid modes.
   */
  mode?: Mode | string;
}

/** Options for generating patches. */
export interface GenerateOptions {
  /** Unchanged lines shown before and after each change (default 3). */
  context?: number;
  /** The most context a hunk may grow to while it is made unique (default 50). */
  maxContext?: number;
}

/** Where one hunk landed and how well it matched. Lines are 1-based. */
export interface HunkReport {
  /** First original line the hunk covers (for a pure insertion, the line before which). */
  oldStart: number;
  /** Original lines covered (context and removed). */
  oldLen: number;
  /** First line of the hunk in the new text. */
  newStart: number;
  /** Lines the hunk occupies in the new text (context and added). */
  newLen: number;
  /** The level its old side matched at. */
  level: Level;
  /** Its fuzz: its level's, its anchors', and 1000 for an end-of-file hunk found elsewhere. */
  fuzz: number;
  /** Candidate places considered at the deciding level. */
  candidates: number;
  /** Added lines were re-indented to the file's indentation. */
  reindented: boolean;
  /** The change was already present; nothing was changed. */
  alreadyApplied: boolean;
  /** Placed at the end of the file. */
  endOfFile: boolean;
  /** Found before the previous hunk. */
  outOfOrder: boolean;
  /**
   * Located in the base and carried into the current text by a three-way merge
   * (`applyWithBase`, `applyPatchWithBases`); the ranges are in the current text.
   */
  merged: boolean;
  /**
   * The hunk's `@@` anchors did not help (not found, or found more than once) and were set
   * aside; its old side is unique where a hunk without anchors is searched (200 fuzz).
   */
  anchorIgnored: boolean;
  /**
   * Found only with some context lines relaxed: they differ from the file (whose lines are
   * kept), every `-` line matches, and the place is unique (300 fuzz per relaxed line).
   */
  contextRelaxed: boolean;
  /** 1-based patch line where the hunk starts. */
  patchLine: number;
  /** For each old-side line, the strictest level it matches at. */
  lineLevels: Level[];
}

/** A character-level change of part of a line: UTF-16 indices into `DiffLine.text`. */
export interface Segment {
  kind: DiffKind;
  /** Start index (UTF-16 code units, at a grapheme boundary). */
  start: number;
  /** End index, exclusive. */
  end: number;
}

/** One entry of the structured line diff. */
export interface DiffLine {
  kind: DiffKind;
  /** 1-based number of the hunk the line belongs to; null for none. */
  hunk: number | null;
  /** 1-based line in the original text; null for an added line. */
  oldLine: number | null;
  /** 1-based line in the new text; null for a deleted line. */
  newLine: number | null;
  /** The line's text, terminator excluded. */
  text: string;
  /** Character-level segments (with `refine: true`, for paired changed lines); else empty. */
  segments: Segment[];
  /**
   * With `diff: "runs"` only: the number of lines the entry stands for, 1 except for an equal
   * entry, which is a whole run of equal lines (of one hunk, or of none): old lines `oldLine`
   * to `oldLine + count - 1`, new lines from `newLine`, and `text` their text from the first
   * line's start to the last line's end — the terminators between them included (LF, CRLF or
   * lone CR, as in the file), the last one's excluded, no BOM. Absent in the other styles.
   */
  count?: number;
}

/** A run of changed lines: `oldLen` lines from `oldStart` replaced by `newLen` from `newStart`. */
export interface Change {
  oldStart: number;
  oldLen: number;
  newStart: number;
  newLen: number;
  /** 1-based number of the hunk that made the change. */
  hunk: number;
}

/** The outcome of a successful single-file apply (or of one file of a patch). */
export class ApplyResult {
  /** The new text (empty for a deleted file). */
  readonly text: string;
  /** The original source, unchanged (empty for an added file): rolling back is this. */
  readonly source: string;
  /** The file's path as written in the patch; null for a bare diff. */
  readonly path: string | null;
  /** The `*** Move to:` destination as written; null without one. */
  readonly destination: string | null;
  /** The total fuzz of the file. */
  readonly fuzz: number;
  /** One report per hunk, in patch order. */
  readonly hunks: HunkReport[];
  /** The structured line diff, when `diff` asked for one; else null. */
  readonly diff: DiffLine[] | null;
  /** The edit script: every run of changed lines, in file order. */
  readonly changes: Change[];

  /** @internal */
  constructor(parts: {
    text: string;
    source: string;
    path: string | null;
    destination: string | null;
    fuzz: number;
    hunks: HunkReport[];
    diff: DiffLine[] | null;
    changes: Change[];
  }) {
    this.text = parts.text;
    this.source = parts.source;
    this.path = parts.path;
    this.destination = parts.destination;
    this.fuzz = parts.fuzz;
    this.hunks = parts.hunks;
    this.diff = parts.diff;
    this.changes = parts.changes;
  }

  /** Whether the text differs from the source. */
  get changed(): boolean {
    return this.text !== this.source;
  }

  /**
   * The change as a unified diff (`---`/`+++`/`@@ -a,b +c,d @@`) with `context` lines of
   * context (by default the engine's, {@link defaultDiffContext}); empty when nothing changed.
   */
  unifiedDiff(context?: number): string {
    if (context === undefined) context = defaultDiffContext();
    checkCount("context", context);
    const arena = new Arena();
    try {
      const [sp, sl] = arena.input(this.source, "source");
      const [tp, tl] = arena.input(this.text, "text");
      const [pp, pl] = this.path === null ? [0, 0] : arena.input(this.path, "path");
      const [dp, dl] =
        this.destination === null ? [0, 0] : arena.input(this.destination, "destination");
      const changes = arena.alloc(this.changes.length * SIZE.change);
      this.changes.forEach((c, i) => {
        const at = changes + i * SIZE.change;
        setU32(at, c.oldStart);
        setU32(at + 4, c.oldLen);
        setU32(at + 8, c.newStart);
        setU32(at + 12, c.newLen);
        setU32(at + 16, c.hunk);
      });
      // v4a_unified_diff_input: four views, the edit script, the context, a reserved 0.
      const input = arena.alloc(SIZE.unifiedDiffInput);
      [sp, sl, tp, tl, pp, pl, dp, dl, changes, this.changes.length, context, 0].forEach(
        (v, i) => setU32(input + 4 * i, v),
      );
      return textCall("v4a_unified_diff", [input]);
    } finally {
      arena.free();
    }
  }
}

/** One file operation of a parsed patch. */
export interface PatchOp {
  kind: OpKind;
  /** The path exactly as written (empty for a bare diff). */
  path: string;
  /** The `*** Move to:` destination as written; null without one. */
  moveTo: string | null;
  /** The class of `path`: refuse to write anything but `"relative"` outside a sandbox. */
  pathClass: PathClass;
  /** The class of `moveTo`; null without one. */
  moveToClass: PathClass | null;
  /** 1-based patch line of the operation's header. */
  patchLine: number;
  /** Number of hunks (1 for an Add File, 0 for a Delete File). */
  hunkCount: number;
}

/** A parsed patch: its text and its file operations. Apply it with `applyPatch`. */
export class Patch {
  /** The patch text as given. */
  readonly text: Input;
  /** Whether it was parsed in the canonical form only. */
  readonly strict: boolean;
  /** The file operations, in patch order. */
  readonly ops: PatchOp[];

  /** @internal */
  constructor(text: Input, strict: boolean, ops: PatchOp[]) {
    this.text = text;
    this.strict = strict;
    this.ops = ops;
  }
}

/**
 * Where `applyPatch` reads the files: a record or Map from path (as written in the patch) to
 * text, or a function of the path. An absent entry, `undefined` or `null` is a file that does
 * not exist (`MISSING_SOURCE` if an operation reads it).
 */
export type Sources =
  | Readonly<Record<string, Input>>
  | ReadonlyMap<string, Input>
  | ((path: string) => Input | null | undefined);

/** The result of one file operation of a patch. */
export interface FileResult {
  kind: OpKind;
  /** The path as written in the patch. */
  path: string;
  /** The destination when the file moves to another path (write there, remove `path`). */
  moveTo: string | null;
  /** The file's result: new text, original source, reports. */
  result: ApplyResult;
}

/** The results of every operation of a patch (nothing is ever partially applied). */
export interface PatchResult {
  /** One result per file operation, in patch order. */
  files: FileResult[];
  /** The summary other engines print (`Success. Updated the following files:` ...). */
  summary: string;
}

// ---- the calls -------------------------------------------------------------------------

const OUT = 40; // scratch offset of the out-pointer slot

function outSlot(): number {
  const at = scratchPtr() + OUT;
  setU32(at, 0);
  return at;
}

function invalid(message: string): V4AError {
  return new V4AError(1, message);
}

function checkCount(what: string, value: unknown): asserts value is number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > 0xffffffff) {
    throw invalid(`${what} is ${String(value)}: expected an integer from 0 to 4294967295`);
  }
}

function checkBool(what: string, value: unknown): asserts value is boolean {
  if (typeof value !== "boolean") {
    throw invalid(`${what} is ${String(value)}: expected true or false`);
  }
}

function pick<T extends string>(what: string, value: unknown, all: readonly T[]): number {
  const index = all.indexOf(value as T);
  if (index < 0) {
    throw invalid(`${what} is ${JSON.stringify(value)}: expected one of ${all.join(", ")}`);
  }
  return index;
}

const OPTION_KEYS = new Set([
  "mode",
  "maxLevel",
  "maxFuzz",
  "firstMatch",
  "alreadyAppliedIsError",
  "ensureFinalNewline",
  "addFileLineEnding",
  "diff",
  "diffContext",
  "refine",
  "refineLimits",
  "searchBudget",
]);

/** Writes a `v4a_options` for `options` into the arena (0: the defaults). */
function writeOptions(arena: Arena, options: ApplyOptions | undefined): number {
  if (options === undefined) return 0;
  if (options === null || typeof options !== "object") {
    throw invalid("options must be an object");
  }
  for (const key of Object.keys(options)) {
    if (!OPTION_KEYS.has(key)) throw invalid(`unknown option ${JSON.stringify(key)}`);
  }
  const at = arena.alloc(SIZE.options);
  call("v4a_options_init", at);
  const o = options;
  if (o.maxLevel !== undefined) setU32(at + 4, pick("maxLevel", o.maxLevel, LEVELS));
  if (o.maxFuzz !== undefined) {
    if (o.maxFuzz === null || o.maxFuzz === Infinity) {
      setU32(at + 8, 0xffffffff);
    } else {
      checkCount("maxFuzz", o.maxFuzz);
      if (o.maxFuzz === 0xffffffff) throw invalid("maxFuzz: use null for no limit");
      setU32(at + 8, o.maxFuzz);
    }
  }
  const flags: Array<[keyof ApplyOptions, number]> = [
    ["firstMatch", 12],
    ["alreadyAppliedIsError", 16],
    ["ensureFinalNewline", 20],
    ["refine", 36],
  ];
  for (const [key, offset] of flags) {
    const value = o[key];
    if (value !== undefined) {
      checkBool(key, value);
      setU32(at + offset, value ? 1 : 0);
    }
  }
  if (o.addFileLineEnding !== undefined) {
    setU32(at + 24, pick("addFileLineEnding", o.addFileLineEnding, ["lf", "crlf"]));
  }
  if (o.diff !== undefined) setU32(at + 28, pick("diff", o.diff, ["none", "full", "changes", "runs"]));
  if (o.diffContext !== undefined) {
    checkCount("diffContext", o.diffContext);
    setU32(at + 32, o.diffContext);
  }
  if (o.searchBudget !== undefined) {
    const b = o.searchBudget;
    const ok =
      typeof b === "bigint"
        ? b > 0n && b < 2n ** 64n
        : typeof b === "number" && Number.isSafeInteger(b) && b > 0;
    if (!ok) throw invalid(`searchBudget is ${String(b)}: expected a positive integer`);
    setU64(at + 40, BigInt(b));
  }
  writeRefineLimits(at, o.refineLimits);
  return at;
}

/**
 * The options of an apply and of its structured diff: `[apply, diff]`. The apply itself never
 * computes the diff (its `diff_style` is none); when one is asked for, `diff` (else 0) is the
 * full options, given to `v4a_result_line_diff`, which hands it back as columns.
 */
function writeApplyOptions(arena: Arena, options: ApplyOptions | undefined): [number, number] {
  const at = writeOptions(arena, options);
  if (at === 0 || u32(at + 28) === 0) return [at, 0];
  const applyAt = arena.alloc(SIZE.options);
  mem().copyWithin(applyAt, at, at + SIZE.options);
  setU32(applyAt + 28, 0);
  return [applyAt, at];
}

function writeGenerateOptions(arena: Arena, options: GenerateOptions | undefined): number {
  if (options === undefined) return 0;
  for (const key of Object.keys(options)) {
    if (key !== "context" && key !== "maxContext") {
      throw invalid(`unknown option ${JSON.stringify(key)}`);
    }
  }
  const at = arena.alloc(SIZE.generateOptions);
  call("v4a_generate_options_init", at);
  if (options.context !== undefined) {
    checkCount("context", options.context);
    setU32(at + 4, options.context);
  }
  if (options.maxContext !== undefined) {
    checkCount("maxContext", options.maxContext);
    setU32(at + 8, options.maxContext);
  }
  return at;
}

/** Calls an export that stores a `v4a_text` in its last (out) argument; returns the text. */
function textCall(name: string, args: number[]): string {
  const out = outSlot();
  const status = call(name, ...args, out);
  const handle = u32(out);
  if (handle === 0) throw new V4AError(status || 16, `v4a: ${name} returned no text`);
  try {
    if (status !== 0) throw readError(call("v4a_text_error", handle), status);
    const view = callView("v4a_text_bytes", handle);
    return decode(u32(view), u32(view + 4));
  } finally {
    call("v4a_text_free", handle);
  }
}

const NO_SEGMENTS: Segment[] = Object.freeze([]) as unknown as Segment[];

/**
 * How the structured diff's lines are built: `"line"`, the {@link DiffLine} objects; `"seed"`,
 * the compat entry's `{ type, value, oldLine, newLine }` entries, built straight from the
 * columns (no DiffLine is made only to be copied into another object).
 * @internal
 */
export type RowShape = "line" | "seed";

/**
 * The structured diff of a live result, from `v4a_result_line_diff` with UTF-16 offsets:
 * columns (a few typed arrays) read in one pass, each line's text a slice of the `text` or
 * `source` string the result already has, so no line is copied or decoded twice.
 */
function copyDiff(
  handle: number,
  diffOptions: number,
  text: string,
  source: string,
  shape: RowShape,
): DiffLine[] {
  const out = outSlot();
  const status = call("v4a_result_line_diff", handle, diffOptions, 1, out);
  const diff = u32(out);
  if (diff === 0) throw new V4AError(status || 16, "v4a: v4a_result_line_diff returned no diff");
  try {
    if (status !== 0) throw readError(call("v4a_line_diff_error", diff), status);
    const at = scratchPtr() + 64; // the columns' place in the scratch buffer (engine.ts)
    call("v4a_line_diff_columns", at, diff);
    const count = u32(at);
    if (count === 0) return [];
    const buf = mem().buffer;
    const columns: Columns = {
      kinds: new Uint8Array(buf, u32(at + 4), count),
      oldLines: new Uint32Array(buf, u32(at + 8), count),
      newLines: new Uint32Array(buf, u32(at + 12), count),
      hunks: new Uint32Array(buf, u32(at + 16), count),
      starts: new Uint32Array(buf, u32(at + 20), count),
      ends: new Uint32Array(buf, u32(at + 24), count),
      segStarts: new Uint32Array(buf, u32(at + 28), count),
      segCounts: new Uint32Array(buf, u32(at + 32), count),
      segPtr: u32(at + 36),
    };
    if (u32(diffOptions + 28) === 3 && shape === "line") {
      const counts = new Uint32Array(buf, u32(at + 44), count);
      return lineRows(columns, count, text, source, counts);
    }
    return shape === "seed"
      ? (seedRows(columns, count, text, source) as unknown as DiffLine[])
      : lineRows(columns, count, text, source);
  } finally {
    call("v4a_line_diff_free", diff);
  }
}

/** The columns of a `v4a_diff_columns`, as views of the module's memory (valid until freed). */
interface Columns {
  kinds: Uint8Array;
  oldLines: Uint32Array;
  newLines: Uint32Array;
  hunks: Uint32Array;
  starts: Uint32Array;
  ends: Uint32Array;
  segStarts: Uint32Array;
  segCounts: Uint32Array;
  segPtr: number;
}

/**
 * The entries of a diff as DiffLines; `counts`, for a `"runs"` diff: each entry's `count`
 * (absent otherwise, not undefined).
 */
function lineRows(
  c: Columns,
  count: number,
  text: string,
  source: string,
  counts?: Uint32Array,
): DiffLine[] {
  const { kinds, oldLines, newLines, hunks, starts, ends, segCounts } = c;
  const lines = new Array<DiffLine>(count);
  for (let i = 0; i < count; i++) {
    const kind = kinds[i]!;
    const segCount = segCounts[i]!;
    const line: DiffLine = {
      kind: KINDS[kind] ?? "equal",
      hunk: hunks[i]! || null,
      oldLine: oldLines[i]! || null,
      newLine: newLines[i]! || null,
      text: (kind === 2 ? text : source).slice(starts[i]!, ends[i]!),
      segments: segCount === 0 ? NO_SEGMENTS : readSegments(c, i, segCount),
    };
    if (counts !== undefined) line.count = counts[i]!;
    lines[i] = line;
  }
  return lines;
}

/**
 * The lines of a `diff: "runs"` diff, as `diff: "full"` gives them: each run of equal lines
 * split at its terminators (LF, CRLF, lone CR) into one entry per line with consecutive line
 * numbers; the other entries as they are (without `count`). A diff without counts comes back
 * as it is.
 */
export function expandRuns(diff: readonly DiffLine[]): DiffLine[] {
  const out: DiffLine[] = [];
  for (const d of diff) {
    const { count, ...line } = d;
    if (count === undefined || count <= 1) {
      out.push(count === undefined ? d : line);
      continue;
    }
    const texts = d.text.split(/\r\n|\r|\n/);
    for (let j = 0; j < count; j++) {
      out.push({
        ...line,
        oldLine: d.oldLine === null ? null : d.oldLine + j,
        newLine: d.newLine === null ? null : d.newLine + j,
        text: texts[j] ?? "",
      });
    }
  }
  return out;
}

function readSegments(c: Columns, i: number, segCount: number): Segment[] {
  const segments = new Array<Segment>(segCount);
  const first = c.segStarts[i]!;
  for (let k = 0; k < segCount; k++) {
    const sat = c.segPtr + (first + k) * SIZE.segment;
    segments[k] = { kind: KINDS[u32(sat)] ?? "equal", start: u32(sat + 8), end: u32(sat + 12) };
  }
  return segments;
}

/** The entries of the compat entry's `diff` (the seed engine's shape); segments are not read. */
interface SeedRow {
  type: DiffKind;
  value: string;
  oldLine: number | null;
  newLine: number | null;
}

function seedRows(c: Columns, count: number, text: string, source: string): SeedRow[] {
  const { kinds, oldLines, newLines, starts, ends } = c;
  const rows = new Array<SeedRow>(count);
  for (let i = 0; i < count; i++) {
    const kind = kinds[i]!;
    rows[i] = {
      type: KINDS[kind] ?? "equal",
      value: (kind === 2 ? text : source).slice(starts[i]!, ends[i]!),
      oldLine: oldLines[i]! || null,
      newLine: newLines[i]! || null,
    };
  }
  return rows;
}

/** Copies a successful `v4a_result` (a live handle) into an ApplyResult. */
function copyResult(
  handle: number,
  diffOptions: number,
  knownSource?: string,
  shape: RowShape = "line",
): ApplyResult {
  let view = callView("v4a_result_text", handle);
  const textPtr = u32(view);
  const textLen = u32(view + 4);
  const text = decode(textPtr, textLen);
  // The source comes back unchanged: the caller's string, when it gave one, is it.
  const source =
    knownSource ?? viewString(callView("v4a_result_source", handle)) ?? "";
  const path = viewString(callView("v4a_result_path", handle));
  const destination = viewString(callView("v4a_result_destination", handle));
  const fuzz = call("v4a_result_fuzz", handle);

  view = callView("v4a_result_hunks", handle);
  const hunkPtr = u32(view);
  const hunkCount = u32(view + 4);
  const hunks: HunkReport[] = [];
  for (let i = 0; i < hunkCount; i++) {
    const at = hunkPtr + i * SIZE.hunk;
    const flags = u32(at + 28);
    hunks.push({
      oldStart: u32(at),
      oldLen: u32(at + 4),
      newStart: u32(at + 8),
      newLen: u32(at + 12),
      level: LEVELS[u32(at + 16)] ?? "fold",
      fuzz: u32(at + 20),
      candidates: u32(at + 24),
      reindented: (flags & 1) !== 0,
      alreadyApplied: (flags & 2) !== 0,
      endOfFile: (flags & 4) !== 0,
      outOfOrder: (flags & 8) !== 0,
      merged: (flags & 16) !== 0,
      anchorIgnored: (flags & 32) !== 0,
      contextRelaxed: (flags & 64) !== 0,
      patchLine: u32(at + 32),
      lineLevels: viewU32s(at + 40).map((l) => LEVELS[l] ?? "fold"),
    });
  }

  view = callView("v4a_result_changes", handle);
  const changePtr = u32(view);
  const changeCount = u32(view + 4);
  const changes: Change[] = [];
  for (let i = 0; i < changeCount; i++) {
    const at = changePtr + i * SIZE.change;
    changes.push({
      oldStart: u32(at),
      oldLen: u32(at + 4),
      newStart: u32(at + 8),
      newLen: u32(at + 12),
      hunk: u32(at + 16),
    });
  }

  const diff = diffOptions !== 0 ? copyDiff(handle, diffOptions, text, source, shape) : null;
  return new ApplyResult({ text, source, path, destination, fuzz, hunks, diff, changes });
}


/**
 * Applies a single-file diff to `source`: a bare diff (hunks only) or a `*** Begin Patch`
 * envelope naming exactly one file whose operation agrees with the mode. Throws a V4AError
 * when the patch does not apply (its message is written for the model that made the patch).
 */
export function apply(source: Input, diff: Input, options?: SingleApplyOptions): ApplyResult {
  return applyShaped(source, diff, options, "line");
}

/**
 * `apply` whose structured diff is made of rows of `shape` (the compat entry's `"seed"`
 * entries are built straight from the columns).
 * @internal
 */
export function applyShaped(
  source: Input,
  diff: Input,
  options: SingleApplyOptions | undefined,
  shape: RowShape,
): ApplyResult {
  return applyOne("v4a_apply", source, options, shape, (arena, mode) => {
    const [sp, sl] = arena.input(source, "source");
    const [dp, dl] = arena.input(diff, "patch");
    const [mp, ml] = arena.input(mode, "mode");
    return (opts, out) => call("v4a_apply_mode_name", sp, sl, dp, dl, mp, ml, opts, out);
  });
}

/**
 * A one-file apply: takes `mode` out of `options`, lets `inputs` write the texts into the
 * arena (in the order their errors are reported) and return the native call, writes the
 * options, makes the call and copies its result (the source is the caller's string when it
 * is one and the mode reads it). `name` names the C function in the message of a result that
 * did not come.
 */
function applyOne(
  name: string,
  source: Input,
  options: SingleApplyOptions | undefined,
  shape: RowShape,
  inputs: (arena: Arena, mode: string) => (opts: number, out: number) => number,
): ApplyResult {
  wasm();
  const arena = new Arena();
  let handle = 0;
  try {
    const { mode = "update", ...rest } = options ?? {};
    if (typeof mode !== "string") throw invalid("mode must be a string");
    const native = inputs(arena, mode);
    const [opts, diffOpts] = writeApplyOptions(arena, options === undefined ? undefined : rest);
    const out = outSlot();
    const status = native(opts, out);
    handle = u32(out);
    if (handle === 0) throw new V4AError(status || 16, `v4a: ${name} returned no result`);
    if (status !== 0) throw readError(call("v4a_result_error", handle), status);
    return copyResult(
      handle,
      diffOpts,
      typeof source === "string" && mode !== "create" ? source : undefined,
      shape,
    );
  } finally {
    if (handle !== 0) call("v4a_result_free", handle);
    arena.free();
  }
}

/** The C ABI codes of the modes (`V4A_MODE_*`). */
const MODE_CODES: Readonly<Record<string, number>> = { update: 0, create: 1, delete: 2, move: 3 };

/**
 * `apply` for a diff written against `base`, the text the model saw (what the read tool
 * returned), applied to `source`, the text as it is now. The hunks are located in the base
 * and the change carried into the source by a three-way merge (those hunks report `merged`,
 * with their ranges in the source); when the base equals the source, the result is exactly
 * `apply`'s. A hunk whose lines the source also changed since the base throws a V4AError
 * `CONFLICT` whose message shows the three versions and says how to resend the hunk. An empty
 * base is a base (the model saw an empty file): without one, call `apply`.
 */
export function applyWithBase(
  source: Input,
  base: Input,
  diff: Input,
  options?: SingleApplyOptions,
): ApplyResult {
  return applyOne("v4a_apply_with_base", source, options, "line", (arena, mode) => {
    const [sp, sl] = arena.input(source, "source");
    const [bp, bl] = arena.input(base, "base");
    const [dp, dl] = arena.input(diff, "patch");
    const known = Object.prototype.hasOwnProperty.call(MODE_CODES, mode);
    const code = known ? MODE_CODES[mode] : undefined;
    if (code === undefined) {
      // An unknown mode name: the library's own refusal and message (it names the valid modes).
      return (opts, out) => {
        const [mp, ml] = arena.input(mode, "mode");
        return call("v4a_apply_mode_name", sp, sl, dp, dl, mp, ml, opts, out);
      };
    }
    return (opts, out) => call("v4a_apply_with_base", sp, sl, bp, bl, dp, dl, code, opts, out);
  });
}

/** Parses a patch into its file operations (`strict`: the canonical form only). */
export function parsePatch(text: Input, options?: { strict?: boolean }): Patch {
  const strict = options?.strict ?? false;
  checkBool("strict", strict);
  return withPatch(text, strict, (_handle, ops) => new Patch(text, strict, ops));
}

function withPatch<T>(
  text: Input,
  strict: boolean,
  body: (handle: number, ops: PatchOp[], arena: Arena) => T,
): T {
  wasm();
  const arena = new Arena();
  let handle = 0;
  try {
    const [pp, pl] = arena.input(text, "patch");
    const out = outSlot();
    const status = call(strict ? "v4a_patch_parse_strict" : "v4a_patch_parse", pp, pl, out);
    handle = u32(out);
    if (handle === 0) throw new V4AError(status || 16, "v4a: v4a_patch_parse returned no patch");
    if (status !== 0) throw readError(call("v4a_patch_error", handle), status);
    const view = callView("v4a_patch_ops", handle);
    const opsPtr = u32(view);
    const count = u32(view + 4);
    const ops: PatchOp[] = [];
    for (let i = 0; i < count; i++) {
      const at = opsPtr + i * SIZE.op;
      const moveTo = viewString(at + 32);
      ops.push({
        kind: OP_KINDS[u32(at)] ?? "update",
        pathClass: PATH_CLASSES[u32(at + 4)] ?? "empty",
        moveToClass: moveTo === null ? null : (PATH_CLASSES[u32(at + 8)] ?? "empty"),
        patchLine: u32(at + 12),
        hunkCount: u32(at + 16),
        path: viewString(at + 24) ?? "",
        moveTo,
      });
    }
    return body(handle, ops, arena);
  } finally {
    if (handle !== 0) call("v4a_patch_free", handle);
    arena.free();
  }
}

function lookup(sources: Sources, path: string): Input | null | undefined {
  if (typeof sources === "function") return sources(path);
  if (sources instanceof Map) return sources.get(path);
  if (sources === null || typeof sources !== "object") {
    throw invalid("sources must be an object, a Map or a function");
  }
  const record = sources as Readonly<Record<string, Input>>;
  return Object.prototype.hasOwnProperty.call(record, path) ? record[path] : undefined;
}

/** Writes the `v4a_source` array of `ops` (Add File entries are not read). */
function writeSources(arena: Arena, ops: PatchOp[], sources: Sources): number {
  const values = ops.map((op) => (op.kind === "add" ? null : lookup(sources, op.path)));
  const at = arena.alloc(ops.length * SIZE.source);
  values.forEach((value, i) => {
    const entry = at + i * SIZE.source;
    const [ptr, len] = value === null || value === undefined ? [0, 0] : arena.input(value, "source");
    setU32(entry, ptr);
    setU32(entry + 4, len);
    setU32(entry + 8, value === null || value === undefined ? 0 : 1);
    setU32(entry + 12, 0);
  });
  return at;
}

/**
 * Applies every operation of a patch (a `Patch` or its text), atomically: either every file's
 * result comes back or one V4AError is thrown. `sources` gives the current text of each file
 * an Update or Delete reads. Nothing is written anywhere: write the results yourself.
 */
export function applyPatch(
  patch: Patch | Input,
  sources: Sources,
  options?: ApplyOptions,
): PatchResult {
  const [text, strict] = patch instanceof Patch ? [patch.text, patch.strict] : [patch, false];
  return withPatch(text, strict, (patchHandle, ops, arena) => {
    const sourcesPtr = writeSources(arena, ops, sources);
    const [opts, diffOpts] = writeApplyOptions(arena, options);
    const out = outSlot();
    const status = call("v4a_patch_apply", patchHandle, sourcesPtr, ops.length, opts, out);
    return readResultSet(out, status, diffOpts);
  });
}

/**
 * `applyPatch` for a patch written against `bases`, the texts the model saw, applied to
 * `sources`, the texts as they are now; atomically. `bases` (like `sources`: a record, a Map
 * or a function) is asked for the base of each Update's path; an absent entry, `undefined` or
 * `null` is an unknown base (that file is applied as by `applyPatch`). Files with a base are
 * merged as `applyWithBase` does; a conflict in any file throws `CONFLICT` (its
 * `diagnostics.path` names the file) and nothing is applied.
 */
export function applyPatchWithBases(
  patch: Patch | Input,
  sources: Sources,
  bases: Sources,
  options?: ApplyOptions,
): PatchResult {
  const [text, strict] = patch instanceof Patch ? [patch.text, patch.strict] : [patch, false];
  return withPatch(text, strict, (patchHandle, ops, arena) => {
    const sourcesPtr = writeSources(arena, ops, sources);
    const basesPtr = writeBases(arena, ops, bases);
    const [opts, diffOpts] = writeApplyOptions(arena, options);
    const out = outSlot();
    const status = call(
      "v4a_patch_apply_with_bases",
      patchHandle,
      sourcesPtr,
      ops.length,
      basesPtr,
      ops.length,
      opts,
      out,
    );
    return readResultSet(out, status, diffOpts);
  });
}

/** Writes the `v4a_source` array of the bases of `ops` (only Update entries are asked for). */
function writeBases(arena: Arena, ops: PatchOp[], bases: Sources): number {
  const values = ops.map((op) => (op.kind === "update" ? lookup(bases, op.path) : null));
  const at = arena.alloc(ops.length * SIZE.source);
  values.forEach((value, i) => {
    const entry = at + i * SIZE.source;
    const known = value !== null && value !== undefined;
    const [ptr, len] = known ? arena.input(value, "base") : [0, 0];
    setU32(entry, ptr);
    setU32(entry + 4, len);
    setU32(entry + 8, known ? 1 : 0);
    setU32(entry + 12, 0);
  });
  return at;
}

/** Copies the result set stored at `out` into a PatchResult (or throws its error), and frees it. */
function readResultSet(out: number, status: number, diffOptions: number): PatchResult {
  const set = u32(out);
  if (set === 0) throw new V4AError(status || 16, "v4a: v4a_patch_apply returned no result");
  try {
    if (status !== 0) throw readError(call("v4a_result_set_error", set), status);
    const view = callView("v4a_result_set_files", set);
    const filesPtr = u32(view);
    const count = u32(view + 4);
    const files: FileResult[] = [];
    for (let i = 0; i < count; i++) {
      const at = filesPtr + i * SIZE.fileResult;
      files.push({
        kind: OP_KINDS[u32(at)] ?? "update",
        path: viewString(at + 8) ?? "",
        moveTo: viewString(at + 16),
        result: copyResult(u32(at + 24), diffOptions),
      });
    }
    const summary = viewString(callView("v4a_result_set_summary", set)) ?? "";
    return { files, summary };
  } finally {
    call("v4a_result_set_free", set);
  }
}

/**
 * Writes the patch that undoes `patch`, given the sources it applies to: Add and Delete
 * swapped, moves back, each update inverted, operations in reverse order.
 */
export function reversePatch(
  patch: Patch | Input,
  sources: Sources,
  options?: ApplyOptions,
): string {
  const [text, strict] = patch instanceof Patch ? [patch.text, patch.strict] : [patch, false];
  return withPatch(text, strict, (patchHandle, ops, arena) => {
    const sourcesPtr = writeSources(arena, ops, sources);
    const opts = writeOptions(arena, options);
    return textCall("v4a_patch_reverse", [patchHandle, sourcesPtr, ops.length, opts]);
  });
}

function withArena<T>(body: (arena: Arena) => T): T {
  wasm();
  const arena = new Arena();
  try {
    return body(arena);
  } finally {
    arena.free();
  }
}

/**
 * Writes a V4A patch (`*** Update File:` envelope) that turns `oldText` into `newText`, each
 * hunk made unique with context or an `@@` anchor. Applying it to `oldText` gives `newText`
 * exactly. Differences a patch cannot express (a changed line terminator, a BOM) are refused.
 */
export function makePatch(
  oldText: Input,
  newText: Input,
  path: string,
  options?: GenerateOptions,
): string {
  return withArena((arena) => {
    const [op, ol] = arena.input(oldText, "old text");
    const [np, nl] = arena.input(newText, "new text");
    const [pp, pl] = arena.input(path, "path");
    return textCall("v4a_make_patch", [op, ol, np, nl, pp, pl, writeGenerateOptions(arena, options)]);
  });
}

/** `makePatch` for a file that also moves to `destination` (`*** Move to:`). */
export function makeMovePatch(
  oldText: Input,
  newText: Input,
  path: string,
  destination: string,
  options?: GenerateOptions,
): string {
  return withArena((arena) => {
    const [op, ol] = arena.input(oldText, "old text");
    const [np, nl] = arena.input(newText, "new text");
    const [pp, pl] = arena.input(path, "path");
    const [dp, dl] = arena.input(destination, "destination");
    const opts = writeGenerateOptions(arena, options);
    return textCall("v4a_make_move_patch", [op, ol, np, nl, pp, pl, dp, dl, opts]);
  });
}

/** A patch that adds `path` with `text`. */
export function makeAddPatch(path: string, text: Input): string {
  return withArena((arena) => {
    const [pp, pl] = arena.input(path, "path");
    const [tp, tl] = arena.input(text, "text");
    return textCall("v4a_make_add_patch", [pp, pl, tp, tl]);
  });
}

/** A patch that deletes `path`. */
export function makeDeletePatch(path: string): string {
  return withArena((arena) => {
    const [pp, pl] = arena.input(path, "path");
    return textCall("v4a_make_delete_patch", [pp, pl]);
  });
}

/** The form of `line` that the match level compares (for showing why two lines match). */
export function normalize(line: string, level: Level): string {
  return withArena((arena) => {
    const index = pick("level", level, LEVELS);
    const [lp, ll] = arena.input(line, "line");
    return textCall("v4a_normalize", [lp, ll, index]);
  });
}

/** Classifies a path as written in a patch; only `"relative"` is safe to write under a root. */
export function classifyPath(path: string): PathClass {
  return withArena((arena) => {
    const [pp, pl] = arena.input(path, "path");
    const out = outSlot();
    const status = call("v4a_classify_path", pp, pl, out);
    if (status !== 0) throw new V4AError(status, `v4a: classify_path failed (status ${status})`);
    return PATH_CLASSES[u32(out)] ?? "empty";
  });
}

// ---- the tool-calling kit --------------------------------------------------------------

/**
 * Tool flavours: OpenAI function calling in the Chat Completions or the Responses layout, an
 * OpenAI custom tool of the Responses API (Lark grammar), Anthropic, MCP.
 */
export type Flavor =
  | "openai_chat"
  | "openai_responses"
  | "openai_responses_custom"
  | "anthropic"
  | "mcp";
/** Tool shapes: the whole patch per call (`apply_patch`), or one file per call (`patch_file`). */
export type Shape = "input" | "file";
// Indexed by the C numbers (V4A_FLAVOR_*).
const FLAVORS: readonly Flavor[] = [
  "openai_chat",
  "openai_responses_custom",
  "anthropic",
  "mcp",
  "openai_responses",
];
const SHAPES: readonly Shape[] = ["input", "file"];

function staticView(name: string): string {
  wasm();
  return viewString(callView(name)) ?? "";
}

/** The tool definition (JSON text) of a flavour and shape. */
export function toolSchema(flavor: Flavor, shape: Shape = "input"): string {
  wasm();
  const f = pick("flavor", flavor, FLAVORS);
  const s = pick("shape", shape, SHAPES);
  // The view comes back by value ({NULL, 0} for a flavour or shape the library lacks).
  const view = viewString(callView("v4a_tool_schema", f, s));
  if (view === null) throw new V4AError(1, `v4a: no tool schema for ${flavor}/${shape}`);
  return view;
}

/** The Lark grammar of a whole patch in the canonical form. */
export function grammar(): string {
  return staticView("v4a_grammar");
}

/** The Lark grammar of one file's section without the envelope (one-file-per-call tool). */
export function fileGrammar(): string {
  return staticView("v4a_file_grammar");
}

/** The model instructions for the system prompt of an agent that has one of the tools. */
export function instructions(): string {
  return staticView("v4a_instructions");
}

/**
 * The customary context of a diff, as the engine says (`V4A_DEFAULT_DIFF_CONTEXT`, 3): the
 * default `diffContext` and the context of `unifiedDiff()`.
 */
export function defaultDiffContext(): number {
  wasm();
  const arena = new Arena();
  try {
    const at = arena.alloc(SIZE.options);
    call("v4a_options_init", at);
    return u32(at + 32); // v4a_options.diff_context
  } finally {
    arena.free();
  }
}

/** The version of the loaded engine (`"0.1.0"`). */
export function version(): string {
  wasm();
  return cString(call("v4a_version"));
}

/** The ABI version of the loaded engine. */
export function abiVersion(): number {
  wasm();
  return call("v4a_abi_version");
}
