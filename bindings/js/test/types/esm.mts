// Compiled (not run) by test.sh: the ESM entries' types as a TypeScript user sees them.
import { init, apply, applyPatch, V4AError, type ApplyResult, type DiffLine, type Level } from "v4a";
import V4A, { type ApplyDiffResult } from "v4a/compat";

await init();
const r: ApplyResult = apply("a\n", "@@\n-a\n+b\n", { mode: "update", diff: "full", refine: true });
const lines: DiffLine[] | null = r.diff;
const level: Level | undefined = r.hunks[0]?.level;
const files = applyPatch("*** Begin Patch\n*** End Patch\n", new Map<string, string>(), { maxFuzz: null });
const seed: ApplyDiffResult = V4A.apply("a", "@@\n-a\n+b", "update");
try {
  apply("x", "y");
} catch (e) {
  if (e instanceof V4AError) {
    const candidates: number[] = e.diagnostics.candidates;
    const name: string = e.code;
    void candidates, name;
  }
}
// @ts-expect-error: an unknown level is a type error
apply("a", "b", { maxLevel: "loose" });
void lines, level, files, seed;
