// Refinement as a call of its own (`refineLines`): the character-level segments of any block
// of deleted and added lines, paired by the engine, for editors that diff their own buffers.
// Also the refinement limits of the options (`RefineLimits`), written here for both calls.

import { Arena, SIZE, call, readError, setU32, setU64, u32, wasm } from "./engine.js";
import { V4AError } from "./errors.js";

/** The kind of a segment (`"delete"` only on deleted lines, `"add"` only on added lines). */
type SegmentKind = "equal" | "delete" | "add";
const KINDS: readonly SegmentKind[] = ["equal", "delete", "add"];

/**
 * Limits of the character-level refinement; past one, a pair of lines is a whole-line change.
 * Anything left out is the engine's default.
 */
export interface RefineLimits {
  /** Longest line, in grapheme clusters, whose pair is refined (default 200,000). */
  maxGraphemes?: number;
  /** Work budget of one pair, in estimated cluster comparisons (default 8,000,000). */
  maxCost?: number;
  /**
   * Blocks of more than this many deleted times added lines (squared) are paired by position
   * instead of by similarity (default 200).
   */
  maxPairLines?: number;
}

/** A segment of a refined line: UTF-16 indices into the line. */
export interface RefinedSegment {
  kind: SegmentKind;
  /** Start index (UTF-16 code units, at a grapheme boundary). */
  start: number;
  /** End index, exclusive. */
  end: number;
}

/** A deleted line paired with an added line, and the segments of both. */
export interface LinePair {
  /** Index of the deleted line in `deleted`. */
  deleted: number;
  /** Index of the added line in `added`. */
  added: number;
  /** The deleted line's segments (kinds `"equal"` and `"delete"`), covering it. */
  deletedSegments: RefinedSegment[];
  /** The added line's segments (kinds `"equal"` and `"add"`), covering it. */
  addedSegments: RefinedSegment[];
}

const LIMIT_KEYS = new Set(["maxGraphemes", "maxCost", "maxPairLines"]);

/** Writes `limits` into the `v4a_options` at `at` (already initialised). */
export function writeRefineLimits(at: number, limits: RefineLimits | undefined): void {
  if (limits === undefined) return;
  if (limits === null || typeof limits !== "object") {
    throw new V4AError(1, "refineLimits must be an object");
  }
  for (const key of Object.keys(limits)) {
    if (!LIMIT_KEYS.has(key)) throw new V4AError(1, `unknown refine limit ${JSON.stringify(key)}`);
  }
  const fields: Array<[keyof RefineLimits, number]> = [
    ["maxGraphemes", 48],
    ["maxCost", 56],
    ["maxPairLines", 64],
  ];
  for (const [key, offset] of fields) {
    const value = limits[key];
    if (value === undefined) continue;
    if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
      throw new V4AError(1, `refineLimits.${key} is ${String(value)}: expected an integer >= 0`);
    }
    setU64(at + offset, BigInt(value));
  }
}

/** Reads `count` segments from `ptr` (an array of `v4a_segment`). */
function readSegments(ptr: number, first: number, count: number): RefinedSegment[] {
  const out = new Array<RefinedSegment>(count);
  for (let s = 0; s < count; s++) {
    const at = ptr + (first + s) * SIZE.segment;
    out[s] = { kind: KINDS[u32(at)] ?? "equal", start: u32(at + 8), end: u32(at + 12) };
  }
  return out;
}

/**
 * Refines a block of deleted lines replaced by added lines, from any line diff (an editor's
 * own, not only a patch's): pairs the lines by similarity and diffs each pair at grapheme
 * boundaries, within `limits` — the segments `apply` with `refine: true` shows for the same
 * block. Lines are given without terminators; a lone surrogate is refused (INVALID_UTF8).
 * Lines in no pair are whole-line changes.
 */
export function refineLines(
  deleted: readonly string[],
  added: readonly string[],
  limits?: RefineLimits,
): LinePair[] {
  wasm();
  if (!Array.isArray(deleted) || !Array.isArray(added)) {
    throw new V4AError(1, "deleted and added must be arrays of strings");
  }
  const arena = new Arena();
  let handle = 0;
  try {
    const lines = (side: string, values: readonly string[]): number => {
      const at = arena.alloc(values.length * SIZE.bytes);
      values.forEach((v, i) => {
        if (typeof v !== "string") throw new V4AError(1, `${side}[${i}] must be a string`);
        const [ptr, len] = arena.input(v, `${side}[${i}]`);
        setU32(at + i * SIZE.bytes, ptr);
        setU32(at + i * SIZE.bytes + 4, len);
      });
      return at;
    };
    const dp = lines("deleted", deleted);
    const ap = lines("added", added);
    const opts = arena.alloc(SIZE.options);
    call("v4a_options_init", opts);
    writeRefineLimits(opts, limits);
    const out = arena.alloc(4);
    const status = call("v4a_refine_lines", dp, deleted.length, ap, added.length, opts, 1, out);
    handle = u32(out);
    if (handle === 0) throw new V4AError(status || 16, "v4a: v4a_refine_lines returned no refinement");
    if (status !== 0) throw readError(call("v4a_refinement_error", handle), status);
    const view = arena.alloc(8);
    call("v4a_refinement_segments", view, handle);
    const segPtr = u32(view);
    call("v4a_refinement_pairs", view, handle);
    const pairPtr = u32(view);
    const count = u32(view + 4);
    const pairs = new Array<LinePair>(count);
    for (let i = 0; i < count; i++) {
      const at = pairPtr + i * SIZE.linePair;
      pairs[i] = {
        deleted: u32(at),
        added: u32(at + 4),
        deletedSegments: readSegments(segPtr, u32(at + 8), u32(at + 12)),
        addedSegments: readSegments(segPtr, u32(at + 16), u32(at + 20)),
      };
    }
    return pairs;
  } finally {
    if (handle !== 0) call("v4a_refinement_free", handle);
    arena.free();
  }
}
