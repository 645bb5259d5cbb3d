// The error every failing call throws: the engine's status, its name and category, the
// message written for the model that produced the patch, and the structured diagnostics.

/** The stable status names of the C ABI, indexed by code. */
export const STATUS_NAMES = [
  "OK",
  "INVALID_ARGUMENT",
  "NULL_ARGUMENT",
  "INVALID_UTF8",
  "PATCH_SYNTAX",
  "TRUNCATED_PATCH",
  "UNSUPPORTED_MODE",
  "CONTEXT_NOT_FOUND",
  "ANCHOR_NOT_FOUND",
  "AMBIGUOUS",
  "OVERLAPPING_HUNKS",
  "ALREADY_APPLIED",
  "FUZZ_LIMIT",
  "SEARCH_BUDGET",
  "MISSING_SOURCE",
  "DUPLICATE_PATH",
  "INTERNAL",
  "FILE_EXISTS",
  "CONFLICT",
  "CHANGED_ON_DISK",
  "UNSAFE_PATH",
  "LOCKED",
  "INCONSISTENT_INDENTATION",
] as const;

/** A status name (`"AMBIGUOUS"`), or `"UNKNOWN"` for a code this package does not know. */
export type StatusName = (typeof STATUS_NAMES)[number] | "UNKNOWN";

/** The structured diagnostics of an error; `null` (or `[]`) where a field does not apply. */
export interface Diagnostics {
  /** 1-based line of the patch text, as given, where the problem is. */
  patchLine: number | null;
  /** 1-based number of the failing hunk within its file operation. */
  hunk: number | null;
  /** For not-found errors: the closest region of the file (1-based lines, inclusive). */
  closest: { start: number; end: number; similarity: number } | null;
  /** For `INVALID_UTF8`: the offset of the first invalid byte of the input named by `input`. */
  byteOffset: number | null;
  /**
   * For a lone surrogate in a string input (refused by this package before the engine is
   * called): its UTF-16 index in that string.
   */
  index: number | null;
  /** The file the failing operation works on, as written in the patch. */
  path: string | null;
  /** For `INVALID_UTF8`: which input is at fault (`"source"`, `"patch"`, ...). */
  input: string | null;
  /** For ambiguity: a concrete fix (an anchor or context that makes the hunk unique). */
  suggestion: string | null;
  /** For not-found errors: the hunk rewritten with the file's real lines, ready to resend. */
  correctedHunk: string | null;
  /** For ambiguity and overlap: the 1-based file lines of every candidate place. */
  candidates: number[];
}

/** An empty set of diagnostics, for errors raised by this package itself. */
export function noDiagnostics(): Diagnostics {
  return {
    patchLine: null,
    hunk: null,
    closest: null,
    byteOffset: null,
    index: null,
    path: null,
    input: null,
    suggestion: null,
    correctedHunk: null,
    candidates: [],
  };
}

/** The one-line category of each status, as the engine words it. */
const CATEGORIES: Record<string, string> = {};

/** Records the engine's category of a status (read from the module at start-up). */
export function setCategory(name: string, category: string): void {
  CATEGORIES[name] = category;
}

/** The name of a status code. */
export function statusName(status: number): StatusName {
  return (STATUS_NAMES as readonly string[])[status] !== undefined
    ? STATUS_NAMES[status]!
    : "UNKNOWN";
}

/**
 * A call that did not succeed. `message` is written for the model that produced the patch
 * (send it back as the tool result); `status`, `code` and `diagnostics` are for programs.
 */
export class V4AError extends Error {
  /** The numeric status code of the C ABI (`9` for `AMBIGUOUS`). Stable. */
  readonly status: number;
  /** The status name (`"AMBIGUOUS"`). */
  readonly code: StatusName;
  /** A one-line description of the status's category (`"ambiguous match"`). */
  readonly category: string;
  /** The structured diagnostics. */
  readonly diagnostics: Diagnostics;

  constructor(status: number, message: string, diagnostics: Diagnostics = noDiagnostics()) {
    super(message);
    this.name = "V4AError";
    this.status = status;
    this.code = statusName(status);
    this.category = CATEGORIES[this.code] ?? "unknown status";
    this.diagnostics = diagnostics;
  }
}
