package v4a

import (
	"reflect"
	"testing"
)

// patchDiffs applies text to sources with ApplyPatch in style (refined) and returns each
// file's structured diff, by path.
func patchDiffs(t *testing.T, text string, sources SourceMap, style DiffStyle) map[string][]DiffLine {
	t.Helper()
	p, err := ParsePatch(text)
	if err != nil {
		t.Fatalf("ParsePatch: %v", err)
	}
	defer p.Close()
	o := DefaultOptions()
	o.Diff, o.Refine = style, true
	r, err := ApplyPatch(p, sources, o)
	if err != nil {
		t.Fatalf("ApplyPatch(%v): %v", style, err)
	}
	out := make(map[string][]DiffLine, len(r.Files))
	for _, f := range r.Files {
		out[f.Path] = f.Result.Diff
	}
	return out
}

// checkPatchRuns applies text with RunsDiff and with FullDiff: for every file, the lines of
// the RunsDiff result, expanded, are the FullDiff lines entry for entry (segments included),
// and only equal entries count more than 1. Returns both, by path.
func checkPatchRuns(t *testing.T, text string, sources SourceMap) (full, runs map[string][]DiffLine) {
	t.Helper()
	full, runs = patchDiffs(t, text, sources, FullDiff()), patchDiffs(t, text, sources, RunsDiff())
	if len(full) != len(runs) {
		t.Fatalf("%d files with FullDiff, %d with RunsDiff", len(full), len(runs))
	}
	for path, lines := range full {
		got := ExpandRuns(runs[path])
		if !reflect.DeepEqual(got, lines) {
			t.Errorf("%s: expanded runs\n%+v\nfull\n%+v", path, got, lines)
		}
		for i, d := range runs[path] {
			if d.Count > 1 && d.Kind != DiffEqual {
				t.Errorf("%s: entry %d (%v) counts %d", path, i, d.Kind, d.Count)
			}
		}
	}
	return full, runs
}

func TestApplyPatchRunsSingleFile(t *testing.T) {
	source := "a\r\nb\r\nc\r\nd\r\ne\r\nf\r\ng = 1\r\nh\r\ni\r\nj\r\n"
	full, runs := checkPatchRuns(t, "*** Begin Patch\n*** Update File: f.txt\n@@\n f\n-g = 1\n+g = 2\n h\n*** End Patch\n",
		SourceMap{"f.txt": source})
	lines := full["f.txt"]
	if len(lines) != 11 || lines[6].Kind != DiffDelete || lines[7].Kind != DiffAdd || lines[7].Text != "g = 2" {
		t.Fatalf("the full diff: %+v", lines)
	}
	if len(lines[6].Segments) == 0 || len(lines[7].Segments) == 0 {
		t.Errorf("the changed pair is refined: %+v %+v", lines[6], lines[7])
	}
	// Runs, not lines: the five equal lines before the hunk are one entry, and so are the two
	// after it (its context lines, f and h, are runs of their own: of the hunk).
	first := DiffLine{Kind: DiffEqual, OldLine: 1, NewLine: 1, Text: "a\r\nb\r\nc\r\nd\r\ne", Count: 5}
	if r := runs["f.txt"]; len(r) != 6 || !reflect.DeepEqual(r[0], first) || r[5].Count != 2 || r[5].Text != "i\r\nj" {
		t.Errorf("the runs: %+v", r)
	}
	// The single-file call agrees with the patch call.
	o := DefaultOptions()
	o.Diff, o.Refine = RunsDiff(), true
	r, err := Apply(source, "@@\n f\n-g = 1\n+g = 2\n h\n", ModeUpdate, o)
	if err != nil {
		t.Fatal(err)
	}
	if got := ExpandRuns(r.Diff); !reflect.DeepEqual(got, lines) {
		t.Errorf("Apply's runs, expanded\n%+v\nApplyPatch's full diff\n%+v", got, lines)
	}
}

func TestApplyPatchRunsMultiFile(t *testing.T) {
	sources := SourceMap{
		"one.txt":  "alpha\nbeta\ngamma\ndelta\nepsilon\nzeta\neta\ntheta\n",
		"two.txt":  "\ufeffx = 1\ry = 2\rz = 3",
		"old.go":   "package old\n\nfunc F() int { return 1 }\n",
		"gone.txt": "bye\nnow\n",
	}
	text := "*** Begin Patch\n" +
		"*** Update File: one.txt\n@@\n beta\n-gamma\n+GAMMA\n delta\n@@\n eta\n-theta\n+theta!\n" +
		"*** Update File: two.txt\n@@\n y = 2\n-z = 3\n+z = 4\n+w = 5\n" +
		"*** Update File: old.go\n*** Move to: new.go\n@@\n-package old\n+package new\n" +
		"*** Add File: added.txt\n+first\n+second\n" +
		"*** Delete File: gone.txt\n" +
		"*** End Patch\n"
	full, runs := checkPatchRuns(t, text, sources)
	if len(full) != 5 {
		t.Fatalf("files: %d", len(full))
	}
	counts := map[string]int{"one.txt": 10, "two.txt": 5, "old.go": 4, "added.txt": 2, "gone.txt": 2}
	for path, n := range counts {
		if len(full[path]) != n {
			t.Errorf("%s: %d lines, want %d: %+v", path, len(full[path]), n, full[path])
		}
	}
	// one.txt: alpha (outside the hunks), beta, -gamma, +GAMMA, delta, epsilon zeta (between
	// the hunks), eta, -theta, +theta!.
	if r := runs["one.txt"]; len(r) != 9 || r[5].Count != 2 || r[5].Text != "epsilon\nzeta" {
		t.Errorf("one.txt's runs: %+v", r)
	}
}
