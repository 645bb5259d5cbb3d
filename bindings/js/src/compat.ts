// A drop-in for the seed engine's API (`V4A.apply`, `V4A.refine`), over the v4a engine.
// Where the seed engine guesses or loses bytes, this keeps v4a's behaviour: an ambiguous or
// missing context is an error (a V4AError), CRLF and a BOM are kept, unknown modes are
// refused. Every difference is listed in the package README.

import {
  applyShaped,
  initSync,
  isReady,
  refineLines,
  type LinePair,
  type RefinedSegment,
} from "./index.js";

export { V4AError, init, initSync } from "./index.js";

/** Diff application mode selector. */
export type ApplyDiffMode = "create" | "delete" | "move" | "update";
/** Diff line type for mutation operations. */
export type DiffMutationType = "add" | "delete";
/** All diff line operation types. */
export type DiffLineType = DiffMutationType | "equal";

/** Intra-line segment in a refined diff. */
export type CharSegment = {
  /** Operation type for this segment. */
  type: DiffLineType;
  /** Segment content. */
  value: string;
};

/** Single line in the structured diff. */
export type DiffLine = {
  /** Operation type for this line. */
  type: DiffLineType;
  /** Line content without its terminator. */
  value: string;
  /** Source line number (1-based) or null for an added line. */
  oldLine: number | null;
  /** Result line number (1-based) or null for a deleted line. */
  newLine: number | null;
  /** Intra-line grapheme segments, after `refine`. */
  segments?: CharSegment[];
};

/** Result from applying a diff. */
export type ApplyDiffResult = {
  /** Patched output text. */
  text: string;
  /** Structured line-by-line diff entries (every line of the file). */
  diff: DiffLine[];
  /** Original source text before patching, byte for byte. */
  source: string;
};

function ready(): void {
  // Node loads the shipped v4a.wasm synchronously on first use; a browser must
  // `await init()` once first (synchronous compilation is limited there).
  if (!isReady()) initSync();
}

/** The refinement of one block of deleted lines followed by added lines, by the engine. */
function refineBlock(deleted: DiffLine[], added: DiffLine[]): DiffLine[] {
  const values = (lines: DiffLine[]) => lines.map((l) => l.value);
  // Only strings can be refined; a block with anything else passes unrefined.
  if ([...deleted, ...added].some((l) => typeof l.value !== "string")) return [...deleted, ...added];
  let pairs: LinePair[];
  try {
    pairs = refineLines(values(deleted), values(added));
  } catch {
    // A lone surrogate (not Unicode text) cannot be refined: the lines pass as they are.
    return [...deleted, ...added];
  }
  const withSegments = (line: DiffLine, segments: RefinedSegment[]): DiffLine => ({
    ...line,
    segments: segments.map((s) => ({ type: s.kind, value: line.value.slice(s.start, s.end) })),
  });
  const del = [...deleted];
  const add = [...added];
  for (const p of pairs) {
    del[p.deleted] = withSegments(deleted[p.deleted]!, p.deletedSegments);
    add[p.added] = withSegments(added[p.added]!, p.addedSegments);
  }
  return [...del, ...add];
}

/**
 * V4A context-anchored diff applicator: the seed engine's API over the v4a engine.
 */
export class V4A {
  /**
   * Applies a V4A diff to `sourceText`. Throws a V4AError (with the message for the model)
   * when the diff does not apply: context or an anchor not found, an ambiguous match, a
   * syntax error, an unknown mode.
   */
  static apply(sourceText: string, diffText: string, mode: ApplyDiffMode = "update"): ApplyDiffResult {
    ready();
    // The diff's entries are built in this shape straight from the engine's columns.
    const result = applyShaped(sourceText ?? "", diffText ?? "", { mode, diff: "full" }, "seed");
    const diff = (result.diff ?? []) as unknown as DiffLine[];
    return { text: result.text, diff, source: result.source };
  }

  /**
   * Attaches character-level segments to each changed line of a line diff: every run of
   * deleted lines followed by added lines is refined by the engine (grapheme-aware). Other
   * lines pass through untouched; a non-array gives `[]`.
   */
  static refine(diffLines: DiffLine[]): DiffLine[] {
    if (!Array.isArray(diffLines)) return [];
    ready();
    const refined: DiffLine[] = [];
    let i = 0;
    while (i < diffLines.length) {
      const deleteStart = i;
      while (diffLines[i]?.type === "delete") i++;
      const addStart = i;
      while (diffLines[i]?.type === "add") i++;
      const deleted = diffLines.slice(deleteStart, addStart);
      const added = diffLines.slice(addStart, i);
      if (deleted.length > 0 && added.length > 0) refined.push(...refineBlock(deleted, added));
      else if (deleted.length > 0 || added.length > 0) refined.push(...deleted, ...added);
      else {
        refined.push(diffLines[i]!);
        i++;
      }
    }
    return refined;
  }
}

export default V4A;
