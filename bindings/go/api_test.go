//go:build v4a_intree

package v4a

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"
)

func mustApply(t *testing.T, source, diff string, mode Mode, opts *Options) *Result {
	t.Helper()
	r, err := Apply(source, diff, mode, opts)
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	return r
}

// opts is DefaultOptions changed by set.
func opts(set func(o *Options)) *Options {
	o := DefaultOptions()
	set(o)
	return o
}

func asError(t *testing.T, err error) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("expected a *v4a.Error, got %T: %v", err, err)
	}
	return e
}

func TestApplyResultFields(t *testing.T) {
	source := "class App:\n    def run(self):\n        x = 1\n        y = 2\n"
	diff := "@@ class App\n@@     def run(self):\n         x = 1\n-        y = 2\n+        y = 3\n"
	r := mustApply(t, source, diff, ModeUpdate, opts(func(o *Options) { o.Diff = ChangesDiff(1) }))
	if want := strings.Replace(source, "y = 2", "y = 3", 1); r.Text != want {
		t.Errorf("Text = %q, want %q", r.Text, want)
	}
	if r.Source != source || r.Path != "" || r.Destination != "" || r.Fuzz != 0 || !r.Changed() {
		t.Errorf("unexpected fields: %+v", r)
	}
	wantHunks := []HunkReport{{
		OldStart: 3, OldLen: 2, NewStart: 3, NewLen: 2, Level: LevelExact,
		LineLevels: []Level{LevelExact, LevelExact}, Fuzz: 0, Candidates: 1, PatchLine: 1,
	}}
	if !reflect.DeepEqual(r.Hunks, wantHunks) {
		t.Errorf("Hunks = %+v, want %+v", r.Hunks, wantHunks)
	}
	wantChanges := []Change{{OldStart: 4, OldLen: 1, NewStart: 4, NewLen: 1, Hunk: 1}}
	if !reflect.DeepEqual(r.Changes, wantChanges) {
		t.Errorf("Changes = %+v, want %+v", r.Changes, wantChanges)
	}
	wantDiff := []DiffLine{
		{Kind: DiffEqual, OldLine: 3, NewLine: 3, Hunk: 1, Text: "        x = 1"},
		{Kind: DiffDelete, OldLine: 4, Hunk: 1, Text: "        y = 2"},
		{Kind: DiffAdd, NewLine: 4, Hunk: 1, Text: "        y = 3"},
	}
	if !reflect.DeepEqual(r.Diff, wantDiff) {
		t.Errorf("Diff() = %+v, want %+v", r.Diff, wantDiff)
	}
	wantUnified := "--- a\n+++ b\n@@ -2,3 +2,3 @@\n     def run(self):\n         x = 1\n-        y = 2\n+        y = 3\n"
	if got := r.UnifiedDiff(2); got != wantUnified {
		t.Errorf("UnifiedDiff(2) = %q, want %q", got, wantUnified)
	}
}

// UnifiedDiff renders exactly as the library does (every shared vector checks this too).
func TestUnifiedDiffAgreesWithLibrary(t *testing.T) {
	for _, tc := range []struct{ source, diff string }{
		{"a\n", "@@\n-a\n+a\n"}, // a change to the same text: no diff
		{"\ufeffa\r\nb\rc", "@@\n-a\n+x\n b\n-c\n+d\n"},
		{"1\n2\n3\n4\n5\n6\n7\n8\n9\n", "@@\n-2\n+two\n@@\n-8\n+eight\n"},
		{"x\n", "@@\n-x\n"},
	} {
		r := mustApply(t, tc.source, tc.diff, ModeUpdate, nil)
		contexts := []int{0, 1, 2, 3, 10}
		want, err := nativeApplyUnified([]byte(tc.source), []byte(tc.diff), ModeUpdate, nil, contexts)
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range contexts {
			if got := r.UnifiedDiff(c); got != want[i] {
				t.Errorf("%q: UnifiedDiff(%d) = %q, the library renders %q", tc.diff, c, got, want[i])
			}
		}
	}
	if r := mustApply(t, "a\n", "@@\n-a\n+a\n", ModeUpdate, nil); r.UnifiedDiff(DefaultDiffContext) != "" || r.Changed() {
		t.Errorf("an unchanged text has a diff: %q", r.UnifiedDiff(DefaultDiffContext))
	}
}

func TestRefinedSegments(t *testing.T) {
	r := mustApply(t, "ok 👍🏽 fine\n", "@@\n-ok 👍🏽 fine\n+ok 👍🏿 fine\n", ModeUpdate,
		opts(func(o *Options) { o.Diff, o.Refine = ChangesDiff(0), true }))
	if len(r.Diff) != 2 {
		t.Fatalf("Diff() = %+v", r.Diff)
	}
	added := r.Diff[1]
	var got []string
	for _, s := range added.Segments {
		got = append(got, s.Kind.String()+":"+added.Text[s.Start:s.End])
	}
	want := []string{"equal:ok ", "add:👍🏿", "equal: fine"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("segments = %q, want %q", got, want)
	}
	deleted := r.Diff[0]
	if deleted.Kind != DiffDelete || len(deleted.Segments) != 3 || deleted.Segments[1].Kind != DiffDelete {
		t.Errorf("deleted line = %+v", deleted)
	}
}

func TestApplyVariantsAgree(t *testing.T) {
	source, diff := "a\nb\nc\n", "@@\n a\n-b\n+B\n"
	want := mustApply(t, source, diff, ModeUpdate, nil)
	rb, err := ApplyBytes([]byte(source), []byte(diff), ModeUpdate, nil)
	if err != nil {
		t.Fatal(err)
	}
	rn, err := ApplyModeName(source, diff, "update", nil)
	if err != nil {
		t.Fatal(err)
	}
	for name, r := range map[string]*Result{"ApplyBytes": rb, "ApplyModeName": rn} {
		if !reflect.DeepEqual(r, want) {
			t.Errorf("%s = %+v, want %+v", name, r, want)
		}
	}
	// DefaultOptions is the default behaviour, as nil is.
	rz := mustApply(t, source, diff, ModeUpdate, DefaultOptions())
	if !reflect.DeepEqual(rz, want) {
		t.Errorf("DefaultOptions() = %+v, want %+v", rz, want)
	}
}

// DefaultOptions is the library's v4a_options_init, field by field; an Options not made from
// it is refused with a message that says so, never applied with a zero budget.
func TestDefaultOptions(t *testing.T) {
	want := &Options{MaxLevel: LevelFold, MaxFuzz: NoFuzzLimit, AddFileLineEnding: LF, SearchBudget: 200_000_000,
		RefineLimits: RefineLimits{MaxGraphemes: 200_000, MaxCost: 8_000_000, MaxPairLines: 200}}
	if got := DefaultOptions(); !reflect.DeepEqual(got, want) {
		t.Errorf("DefaultOptions() = %+v, want %+v", got, want)
	}
	if DefaultOptions() == DefaultOptions() {
		t.Error("DefaultOptions returns a shared value")
	}
	// DefaultDiffContext is the header's V4A_DEFAULT_DIFF_CONTEXT, the context
	// v4a_options_init stores.
	if got := uint32(defaultOptions.diff_context); got != DefaultDiffContext {
		t.Errorf("v4a_options_init's diff_context is %d, DefaultDiffContext %d", got, DefaultDiffContext)
	}
	_, err := Apply("a\n", "@@\n-a\n+b\n", ModeUpdate, &Options{FirstMatch: true})
	if e := asError(t, err); e.Code != CodeInvalidArgument || !strings.Contains(e.Message, "v4a.DefaultOptions()") {
		t.Errorf("&Options{FirstMatch: true}: %v", err)
	}
	// MaxFuzz 0 accepts no fuzz (it is not "no limit"); NoFuzzLimit accepts any.
	if _, err := Apply("  a\n", "@@\n-a\n+b\n", ModeUpdate, opts(func(o *Options) { o.MaxFuzz = 0 })); !errors.Is(err, ErrFuzzLimit) {
		t.Errorf("MaxFuzz 0: %v", err)
	}
	if r := mustApply(t, "  a\n", "@@\n-a\n+b\n", ModeUpdate, opts(func(o *Options) { o.MaxFuzz = NoFuzzLimit })); r.Fuzz != 10 {
		t.Errorf("NoFuzzLimit: %+v", r)
	}
	if _, err := Apply("a\n", "@@\n-a\n+b\n", ModeUpdate, opts(func(o *Options) { o.MaxFuzz = -2 })); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("MaxFuzz -2: %v", err)
	}
	// LevelExact is 0, as V4A_LEVEL_EXACT: a zero MaxLevel is strict mode.
	if _, err := Apply("  a\n", "@@\n-a\n+b\n", ModeUpdate, opts(func(o *Options) { o.MaxLevel = 0 })); !errors.Is(err, ErrContextNotFound) {
		t.Errorf("MaxLevel 0: %v", err)
	}
	if got, want := DefaultGenerateOptions(), (&GenerateOptions{Context: 3, MaxContext: 50}); !reflect.DeepEqual(got, want) {
		t.Errorf("DefaultGenerateOptions() = %+v, want %+v", got, want)
	}
	if _, err := MakePatch("a\n", "b\n", "x", &GenerateOptions{Context: -1}); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("Context -1: %v", err)
	}
}

// The fuzz of each level (a table: the C ABI has no getter for it) is the fuzz the library
// reports for a hunk that matches at that level and no stricter one.
func TestLevelFuzz(t *testing.T) {
	sources := map[Level]string{
		LevelExact:    "a - b\n",
		LevelTrimEnd:  "a - b  \n",
		LevelTrim:     "  a - b\n",
		LevelCollapse: "a  -  b\n",
		LevelFold:     "a \u2013 b\n",
	}
	for l := LevelExact; l <= LevelFold; l++ {
		r := mustApply(t, sources[l], "@@\n-a - b\n+y\n", ModeUpdate, nil)
		if r.Hunks[0].Level != l || r.Hunks[0].Fuzz != l.Fuzz() {
			t.Errorf("%v: the hunk matched at %v with fuzz %d; Level.Fuzz says %d", l, r.Hunks[0].Level, r.Hunks[0].Fuzz, l.Fuzz())
		}
	}
	if Level(9).Fuzz() != 0 || Level(9).String() != "unknown" {
		t.Errorf("Level(9): %d %q", Level(9).Fuzz(), Level(9))
	}
}

func TestModes(t *testing.T) {
	for _, tc := range []struct {
		mode       Mode
		source     string
		diff       string
		text, dest string
	}{
		{ModeCreate, "ignored\n", "@@\n+new\n+file\n", "new\nfile\n", ""},
		{ModeDelete, "gone\n", "", "", ""},
		{ModeMove, "a\n", "*** Begin Patch\n*** Update File: x.txt\n*** Move to: y.txt\n@@\n-a\n+b\n*** End Patch\n", "b\n", "y.txt"},
	} {
		r := mustApply(t, tc.source, tc.diff, tc.mode, nil)
		if r.Text != tc.text || r.Destination != tc.dest {
			t.Errorf("%v: Text %q Destination %q, want %q %q", tc.mode, r.Text, r.Destination, tc.text, tc.dest)
		}
		if m, err := ParseMode(tc.mode.String()); err != nil || m != tc.mode {
			t.Errorf("ParseMode(%q) = %v, %v", tc.mode.String(), m, err)
		}
		// The names are a table (the C ABI has no getter for them): the library's
		// v4a_apply_mode_name takes each name for the same mode.
		if byName, err := ApplyModeName(tc.source, tc.diff, tc.mode.String(), nil); err != nil || !reflect.DeepEqual(byName, r) {
			t.Errorf("ApplyModeName(%q) = %+v, %v; Apply(%d) = %+v", tc.mode, byName, err, tc.mode, r)
		}
	}
	if len(modeNames) != int(ModeMove)+1 {
		t.Errorf("%d mode names for %d modes", len(modeNames), int(ModeMove)+1)
	}
	// A name outside the table is refused by ParseMode exactly as the library refuses it.
	for _, name := range []string{"rename", "Update", "", "update "} {
		_, lib := ApplyModeName("a\n", "@@\n-a\n+b\n", name, nil)
		_, parse := ParseMode(name)
		if !errors.Is(lib, ErrUnsupportedMode) || parse == nil || parse.Error() != lib.Error() {
			t.Errorf("mode %q: ParseMode says %v, the library %v", name, parse, lib)
		}
	}
	r := mustApply(t, "a\n", "*** Begin Patch\n*** Update File: x.txt\n*** Move to: y.txt\n@@\n-a\n+b\n*** End Patch\n", ModeMove, nil)
	if r.Path != "x.txt" {
		t.Errorf("Path = %q", r.Path)
	}
	if got, want := r.UnifiedDiff(DefaultDiffContext), "--- a/x.txt\n+++ b/y.txt\n@@ -1 +1 @@\n-a\n+b\n"; got != want {
		t.Errorf("UnifiedDiff = %q, want %q", got, want)
	}
}

func TestErrorFields(t *testing.T) {
	t.Run("ambiguous", func(t *testing.T) {
		_, err := Apply("def a():\n    x = 1\ndef b():\n    x = 1\n", "@@\n-    x = 1\n+    x = 2\n", ModeUpdate, nil)
		e := asError(t, err)
		if e.Code != CodeAmbiguous || e.Line != 1 || e.Hunk != 1 || e.Path != "" ||
			!reflect.DeepEqual(e.Candidates, []int{2, 4}) || e.Suggestion != "@@ def a():" ||
			e.CorrectedHunk != "" || e.Closest != nil || e.ByteOffset != -1 {
			t.Errorf("unexpected error fields: %#v", e)
		}
		if !strings.HasPrefix(e.Message, "hunk 1 (patch line 1) matches 2 places in the file: lines 2 and 4.") ||
			err.Error() != e.Message {
			t.Errorf("message = %q", e.Message)
		}
		if !errors.Is(err, ErrAmbiguous) || errors.Is(err, ErrContextNotFound) || errors.Is(err, ErrUnknown) {
			t.Error("errors.Is does not single out ErrAmbiguous")
		}
		wrapped := fmt.Errorf("patching: %w", err)
		if !errors.Is(wrapped, ErrAmbiguous) || asError(t, wrapped) != e {
			t.Error("a wrapped error loses its category")
		}
	})
	t.Run("context not found", func(t *testing.T) {
		_, err := Apply("one\ntwo\nthree\n", "@@\n one\n-tw0\n+2\n", ModeUpdate, nil)
		e := asError(t, err)
		if e.Code != CodeContextNotFound || e.Line != 1 || e.Hunk != 1 ||
			e.CorrectedHunk != "@@\n one\n-two\n+2\n" ||
			!reflect.DeepEqual(e.Closest, &Region{StartLine: 1, EndLine: 2, Similarity: 0.75}) {
			t.Errorf("unexpected error fields: %#v", e)
		}
		if !errors.Is(err, ErrContextNotFound) {
			t.Error("errors.Is(err, ErrContextNotFound) is false")
		}
	})
	t.Run("multi-file path", func(t *testing.T) {
		p, err := ParsePatch("*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+two\n*** Update File: b.txt\n@@\n-nothing\n+x\n*** End Patch\n")
		if err != nil {
			t.Fatal(err)
		}
		_, err = ApplyPatch(p, SourceMap{"a.txt": "one\n", "b.txt": "else\n"}, nil)
		e := asError(t, err)
		if e.Code != CodeContextNotFound || e.Path != "b.txt" || e.Hunk != 1 || e.Line != 7 {
			t.Errorf("unexpected error fields: %#v", e)
		}
	})
}

func TestSentinelsAndCodes(t *testing.T) {
	for c := CodeInvalidArgument; c <= CodeIOError; c++ {
		err := error(&Error{Code: c, Message: "x"})
		for d := CodeInvalidArgument; d <= CodeIOError; d++ {
			if got := errors.Is(err, sentinelOf(d)); got != (c == d) {
				t.Errorf("errors.Is(code %v, sentinel of %v) = %v", c, d, got)
			}
		}
		if errors.Is(err, ErrUnknown) {
			t.Errorf("code %v matches ErrUnknown", c)
		}
		if c.Category() == "" || c.Category() == "unknown status" {
			t.Errorf("Code(%d).Category() = %q", c, c.Category())
		}
	}
	if CodeOK.String() != "OK" || len(codeNames) != int(CodeIOError)+1 {
		t.Errorf("CodeOK = %q; the library names %d codes", CodeOK.String(), len(codeNames))
	}
	// A code this binding does not know (a newer library) maps to the generic sentinel.
	unknown := &Error{Code: 99, Message: "from the future"}
	if !errors.Is(unknown, ErrUnknown) || errors.Is(unknown, ErrInternal) ||
		unknown.Code.String() != "UNKNOWN" || Code(1<<31).String() != "UNKNOWN" {
		t.Error("an unknown code is not generic")
	}
	if errors.Is(&Error{Code: CodeOK}, ErrUnknown) != true {
		t.Error("an *Error with CodeOK (never produced) should be generic")
	}
	if ErrAmbiguous.Error() != "v4a: AMBIGUOUS" || ErrUnknown.Error() != "v4a: unknown error" {
		t.Errorf("sentinel texts: %q %q", ErrAmbiguous, ErrUnknown)
	}
	for l := LevelExact; l <= LevelFold; l++ {
		if p, err := ParseLevel(l.String()); err != nil || p != l {
			t.Errorf("ParseLevel(%q) = %v, %v", l, p, err)
		}
	}
	if _, err := ParseLevel("loose"); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("ParseLevel(loose) = %v", err)
	}
}

// A call that stores no handle (a caught panic) still returns a typed error.
func TestInternalWithoutHandle(t *testing.T) {
	r, err := finishStatus(uint32(CodeInternal))
	if r != nil || !errors.Is(err, ErrInternal) || !strings.Contains(err.Error(), "please report it") {
		t.Errorf("finish(nil, INTERNAL) = %v, %v", r, err)
	}
}

func TestBadInputs(t *testing.T) {
	cases := []struct {
		name   string
		apply  func() (*Result, error)
		code   Code
		offset int64
		input  string
		msg    string
	}{
		{"invalid UTF-8 source", func() (*Result, error) {
			return ApplyBytes([]byte("ab\xffc\n"), []byte("@@\n-a\n+b\n"), ModeUpdate, nil)
		}, CodeInvalidUTF8, 2, "source", "the source is not valid UTF-8: invalid byte at offset 2"},
		{"invalid UTF-8 diff", func() (*Result, error) {
			return ApplyBytes([]byte("a\n"), []byte("@@\n-a\n+\xfe\n"), ModeUpdate, nil)
		}, CodeInvalidUTF8, 7, "patch", "the patch is not valid UTF-8: invalid byte at offset 7"},
		{"invalid UTF-8 in a Go string", func() (*Result, error) {
			return Apply("a\n\xc3", "@@\n-a\n+b\n", ModeUpdate, nil)
		}, CodeInvalidUTF8, 2, "source", "the source is not valid UTF-8: invalid byte at offset 2"},
		{"empty inputs", func() (*Result, error) { return Apply("", "", ModeUpdate, nil) },
			CodePatchSyntax, -1, "", "the patch is empty: expected \"*** Begin Patch\" or a hunk"},
		{"empty byte slices", func() (*Result, error) { return ApplyBytes(nil, []byte{}, ModeCreate, nil) },
			CodePatchSyntax, -1, "", "the patch is empty: expected \"*** Begin Patch\" or a hunk"},
		{"mode out of range", func() (*Result, error) { return Apply("a\n", "@@\n-a\n+b\n", Mode(9), nil) },
			CodeUnsupportedMode, -1, "", "mode is 9: expected V4A_MODE_UPDATE (0), V4A_MODE_CREATE (1), V4A_MODE_DELETE (2) or V4A_MODE_MOVE (3)"},
		{"mode name", func() (*Result, error) { return ApplyModeName("a\n", "@@\n-a\n+b\n", "rename", nil) },
			CodeUnsupportedMode, -1, "", "unsupported mode \"rename\": expected update, create, delete or move"},
		{"level out of range", func() (*Result, error) {
			return Apply("a\n", "@@\n-a\n+b\n", ModeUpdate, opts(func(o *Options) { o.MaxLevel = 9 }))
		}, CodeInvalidArgument, -1, "", "Options.MaxLevel is 9: expected LevelExact, LevelTrimEnd, LevelTrim, LevelCollapse or LevelFold"},
		{"line ending out of range", func() (*Result, error) {
			return Apply("a\n", "@@\n-a\n+b\n", ModeUpdate, opts(func(o *Options) { o.AddFileLineEnding = 7 }))
		}, CodeInvalidArgument, -1, "", "Options.AddFileLineEnding is 7: expected LF or CRLF"},
		{"multi-file patch to the single-file call", func() (*Result, error) {
			return Apply("a\n", "*** Begin Patch\n*** Update File: x\n@@\n-a\n+b\n*** Update File: y\n@@\n-a\n+b\n*** End Patch\n", ModeUpdate, nil)
		}, CodeInvalidArgument, -1, "", "the patch names 2 files, but the single-file call applies one; use the multi-file API (parse the patch, then apply it) for patches with several files"},
		{"fuzz limit", func() (*Result, error) {
			return Apply("  a\n", "@@\n-a\n+b\n", ModeUpdate, opts(func(o *Options) { o.MaxFuzz = 0 }))
		}, CodeFuzzLimit, -1, "", ""},
		{"strict mode", func() (*Result, error) {
			return Apply("  a\n", "@@\n-a\n+b\n", ModeUpdate, opts(func(o *Options) { o.MaxLevel = LevelExact }))
		}, CodeContextNotFound, -1, "", ""},
		{"search budget", func() (*Result, error) {
			return Apply(strings.Repeat("x\n", 1000)+"y\n", "@@\n x\n-y\n+z\n", ModeUpdate, opts(func(o *Options) { o.SearchBudget = 10 }))
		}, CodeSearchBudget, -1, "", ""},
		{"already applied as an error", func() (*Result, error) {
			return Apply("b\n", "@@\n-a\n+b\n", ModeUpdate, opts(func(o *Options) { o.AlreadyAppliedIsError = true }))
		}, CodeAlreadyApplied, -1, "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, err := tc.apply()
			if r != nil {
				t.Fatalf("expected an error, got %+v", r)
			}
			e := asError(t, err)
			if e.Code != tc.code || e.ByteOffset != tc.offset || e.Input != tc.input ||
				(tc.msg != "" && e.Message != tc.msg) || e.Message == "" {
				t.Errorf("got %#v, want code %v offset %d input %q message %q", e, tc.code, tc.offset, tc.input, tc.msg)
			}
			if !errors.Is(err, sentinelOf(tc.code)) {
				t.Errorf("errors.Is(err, %v) is false", sentinelOf(tc.code))
			}
		})
	}
	// Options that succeed: the fuzz allowed, the same apply without limits.
	if r := mustApply(t, "  a\n", "@@\n-a\n+b\n", ModeUpdate, opts(func(o *Options) { o.MaxFuzz = 10 })); r.Text != "  b\n" || r.Fuzz != 10 {
		t.Errorf("MaxFuzz 10: %+v", r)
	}
	if r := mustApply(t, "b\n", "@@\n-a\n+b\n", ModeUpdate, nil); r.Changed() || !r.Hunks[0].AlreadyApplied {
		t.Errorf("already applied: %+v", r)
	}
	if r := mustApply(t, "", "@@\n+a\n", ModeUpdate, nil); r.Text != "a\n" || r.Source != "" {
		t.Errorf("insert into an empty source: %+v", r)
	}
	if r := mustApply(t, "x", "@@\n+a\n", ModeCreate, opts(func(o *Options) { o.AddFileLineEnding = CRLF })); r.Text != "a\r\n" {
		t.Errorf("create with CRLF: %q", r.Text)
	}
	if r := mustApply(t, "a\nb", "@@\n-a\n+c\n", ModeUpdate, opts(func(o *Options) { o.EnsureFinalNewline = true })); r.Text != "c\nb\n" {
		t.Errorf("ensure final newline: %q", r.Text)
	}
	// Invalid UTF-8 everywhere else.
	if _, err := ParsePatch("*** Begin Patch\n*** Delete File: \xff\n*** End Patch\n"); !errors.Is(err, ErrInvalidUTF8) {
		t.Errorf("ParsePatch: %v", err)
	}
	if _, err := ClassifyPath("a\xff"); !errors.Is(err, ErrInvalidUTF8) {
		t.Errorf("ClassifyPath: %v", err)
	}
	if _, err := MakePatch("a\n", "\xff\n", "x", nil); !errors.Is(err, ErrInvalidUTF8) {
		t.Errorf("MakePatch: %v", err)
	}
	p, _ := ParsePatch("*** Begin Patch\n*** Update File: a\n@@\n-a\n+b\n*** End Patch\n")
	_, err := ApplyPatch(p, SourceMap{"a": "a\n\xff"}, nil)
	if e := asError(t, err); e.Code != CodeInvalidUTF8 || e.Path != "a" || e.ByteOffset != 2 {
		t.Errorf("ApplyPatch with an invalid source: %#v", e)
	}
	if _, err := ApplyPatch(nil, nil, nil); !errors.Is(err, ErrNullArgument) {
		t.Errorf("ApplyPatch(nil): %v", err)
	}
	if _, err := Normalize("x", LevelFold+1); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("Normalize(level 5): %v", err)
	}
	if got, err := Normalize(" x ", 0); err != nil || got != " x " {
		t.Errorf("Normalize(level 0, LevelExact) = %q, %v", got, err)
	}
}

func TestHugeInput(t *testing.T) {
	if testing.Short() {
		t.Skip("huge input skipped in -short mode")
	}
	const n = 1_200_000 // about 70 MB
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "line %07d of a rather large generated file, padded.......\n", i)
	}
	source := b.String()
	at := n - 10
	diff := fmt.Sprintf("@@\n line %07d of a rather large generated file, padded.......\n-line %07d of a rather large generated file, padded.......\n+changed\n", at-1, at)
	r := mustApply(t, source, diff, ModeUpdate, nil)
	old := fmt.Sprintf("line %07d of a rather large generated file, padded.......\n", at)
	if want := strings.Replace(source, old, "changed\n", 1); r.Text != want {
		t.Fatalf("the text of a %d MB source differs", len(source)>>20)
	}
	if r.Hunks[0].OldStart != at || len(r.Changes) != 1 {
		t.Errorf("hunk at %d, want %d", r.Hunks[0].OldStart, at+1)
	}
	// One line of 16 MB.
	long := strings.Repeat("0123456789abcdef", 1<<20)
	r = mustApply(t, "head\n"+long+"\n", "@@\n-head\n+HEAD\n", ModeUpdate, opts(func(o *Options) { o.Diff = FullDiff() }))
	if r.Text != "HEAD\n"+long+"\n" || r.Diff[2].Text != long {
		t.Error("a 16 MB line did not come back intact")
	}
}

func TestConcurrentApply(t *testing.T) {
	const goroutines, rounds = 64, 40
	patch, err := ParsePatch("*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+two\n*** Add File: b.txt\n+new\n*** End Patch\n")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, goroutines)
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < rounds; i++ {
				lines := make([]string, 50)
				for k := range lines {
					lines[k] = fmt.Sprintf("g%d line %d", g, k)
				}
				source := strings.Join(lines, "\n") + "\n"
				diff := fmt.Sprintf("@@\n g%d line 24\n-g%d line 25\n+g%d changed %d\n", g, g, g, i)
				r, err := Apply(source, diff, ModeUpdate, opts(func(o *Options) { o.Diff, o.Refine = ChangesDiff(1), true }))
				if err != nil {
					errs <- err
					return
				}
				want := strings.Replace(source, fmt.Sprintf("g%d line 25\n", g), fmt.Sprintf("g%d changed %d\n", g, i), 1)
				if r.Text != want || len(r.Diff) != 4 || r.Hunks[0].OldStart != 25 {
					errs <- fmt.Errorf("goroutine %d round %d: wrong result %+v", g, i, r)
					return
				}
				pr, err := ApplyPatch(patch, SourceMap{"a.txt": fmt.Sprintf("one\n%d\n", g)}, nil)
				if err != nil {
					errs <- err
					return
				}
				if pr.Files[0].Result.Text != fmt.Sprintf("two\n%d\n", g) || pr.Files[1].Result.Text != "new\n" {
					errs <- fmt.Errorf("goroutine %d: wrong patch result", g)
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestMultiFile(t *testing.T) {
	text := "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+two\n*** Delete File: old.txt\n" +
		"*** Add File: docs/new.md\n+# Title\n*** Update File: src/x.go\n*** Move to: src/y.go\n@@\n-x\n+y\n*** End Patch\n"
	p, err := ParsePatch(text)
	if err != nil {
		t.Fatal(err)
	}
	wantOps := []Op{
		{Kind: OpUpdate, Path: "a.txt", PathClass: PathRelative, MoveToClass: PathEmpty, PatchLine: 2, Hunks: 1},
		{Kind: OpDelete, Path: "old.txt", PathClass: PathRelative, MoveToClass: PathEmpty, PatchLine: 6, Hunks: 0},
		{Kind: OpAdd, Path: "docs/new.md", PathClass: PathRelative, MoveToClass: PathEmpty, PatchLine: 7, Hunks: 1},
		{Kind: OpUpdate, Path: "src/x.go", MoveTo: "src/y.go", PathClass: PathRelative, MoveToClass: PathRelative, PatchLine: 9, Hunks: 1},
	}
	if !reflect.DeepEqual(p.Ops, wantOps) || p.Text() != text {
		t.Fatalf("Ops = %+v", p.Ops)
	}
	files := SourceMap{"a.txt": "one\n", "old.txt": "bye\n", "src/x.go": "x\n"}
	res, err := ApplyPatch(p, files, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := "Success. Updated the following files:\nM a.txt\nD old.txt\nA docs/new.md\nM src/y.go\n"; res.Summary != want {
		t.Errorf("Summary = %q, want %q", res.Summary, want)
	}
	type short struct {
		Kind                       OpKind
		Path, MoveTo, Text, Source string
	}
	var got []short
	for _, f := range res.Files {
		got = append(got, short{f.Kind, f.Path, f.MoveTo, f.Result.Text, f.Result.Source})
	}
	want := []short{
		{OpUpdate, "a.txt", "", "two\n", "one\n"},
		{OpDelete, "old.txt", "", "", "bye\n"},
		{OpAdd, "docs/new.md", "", "# Title\n", ""},
		{OpUpdate, "src/x.go", "src/y.go", "y\n", "x\n"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("files = %+v\nwant %+v", got, want)
	}
	if u := res.Files[1].Result.UnifiedDiff(DefaultDiffContext); u != "--- a/old.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-bye\n" {
		t.Errorf("delete diff = %q", u)
	}
	if u := res.Files[2].Result.UnifiedDiff(DefaultDiffContext); u != "--- /dev/null\n+++ b/docs/new.md\n@@ -0,0 +1 @@\n+# Title\n" {
		t.Errorf("add diff = %q", u)
	}

	// The same through a lookup function over a file system.
	fsys := fstest.MapFS{"a.txt": {Data: []byte("one\n")}, "old.txt": {Data: []byte("bye\n")}, "src/x.go": {Data: []byte("x\n")}}
	var looked []string
	lookup := SourceFunc(func(path string) (string, error) {
		looked = append(looked, path)
		b, err := fs.ReadFile(fsys, path)
		return string(b), err
	})
	res2, err := ApplyPatch(p, lookup, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(res, res2) {
		t.Error("SourceFunc and SourceMap give different results")
	}
	if !reflect.DeepEqual(looked, []string{"a.txt", "old.txt", "src/x.go"}) {
		t.Errorf("looked up %q (Add File must not be read)", looked)
	}

	// A missing file, an I/O error, and no sources at all.
	_, err = ApplyPatch(p, SourceMap{"a.txt": "one\n"}, nil)
	if e := asError(t, err); e.Code != CodeMissingSource || e.Path != "old.txt" || e.Line != 6 {
		t.Errorf("missing source: %#v", e)
	}
	ioErr := errors.New("disk on fire")
	_, err = ApplyPatch(p, SourceFunc(func(string) (string, error) { return "", ioErr }), nil)
	if err != ioErr {
		t.Errorf("a lookup error must come back as is, got %v", err)
	}
	_, err = ApplyPatch(p, nil, nil)
	if e := asError(t, err); e.Code != CodeMissingSource || e.Path != "a.txt" {
		t.Errorf("nil sources: %#v", e)
	}
	// Atomic: one failing file, one error, no results.
	res, err = ApplyPatch(p, SourceMap{"a.txt": "zero\n", "old.txt": "bye\n", "src/x.go": "x\n"}, nil)
	if res != nil || !errors.Is(err, ErrContextNotFound) || asError(t, err).Path != "a.txt" {
		t.Errorf("a failing file: %v, %v", res, err)
	}

	// Parse errors, the strict parser, duplicates.
	for _, tc := range []struct {
		text   string
		strict bool
		code   Code
		line   int
	}{
		{"*** Begin Patch\n*** Delete File: x\n", false, CodeTruncatedPatch, 2},
		{"*** Begin Patch\n*** Update File: x\n@@\n?bad\n*** End Patch\n", false, CodePatchSyntax, 4},
		{"*** Begin Patch\n*** Delete File: x\n*** Delete File: x\n*** End Patch\n", false, CodeDuplicatePath, 3},
		{"*** Begin Patch\r\n*** Delete File: x\r\n*** End Patch\r\n", true, CodePatchSyntax, 1},
		{"", false, CodePatchSyntax, 1},
	} {
		parse := ParsePatch
		if tc.strict {
			parse = ParsePatchStrict
		}
		_, err := parse(tc.text)
		if e := asError(t, err); e.Code != tc.code || e.Line != tc.line {
			t.Errorf("parse %q: %#v, want %v at line %d", tc.text, e, tc.code, tc.line)
		}
	}
	if _, err := ParsePatch("*** Begin Patch\r\n*** Delete File: x\r\n*** End Patch\r\n"); err != nil {
		t.Errorf("the lenient parser refuses CRLF: %v", err)
	}
	sp, err := ParsePatchStrict("*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+two\n*** End Patch\n")
	if err != nil {
		t.Fatal(err)
	}
	if r, err := ApplyPatch(sp, files, nil); err != nil || r.Files[0].Result.Text != "two\n" {
		t.Errorf("strict patch: %v, %v", r, err)
	}
	// An empty patch (no operation) is an error, not a success that changes nothing.
	_, err = ParsePatch("*** Begin Patch\n*** End Patch\n")
	if e := asError(t, err); e.Code != CodePatchSyntax || e.Line != 2 || !strings.Contains(e.Message, "no file operations") {
		t.Errorf("empty patch: %#v", e)
	}
}

func TestGenerateAndReverse(t *testing.T) {
	old := "fn a() {\n    1\n}\nfn b() {\n    1\n}\n"
	new := "fn a() {\n    1\n}\nfn b() {\n    2\n}\n"
	patch, err := MakePatch(old, new, "src/lib.rs", nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := ParsePatch(patch)
	if err != nil {
		t.Fatal(err)
	}
	res, err := ApplyPatch(p, SourceMap{"src/lib.rs": old}, nil)
	if err != nil || res.Files[0].Result.Text != new {
		t.Fatalf("the generated patch does not apply back: %v\n%s", err, patch)
	}
	back, err := Reverse(p, SourceMap{"src/lib.rs": old}, nil)
	if err != nil {
		t.Fatal(err)
	}
	bp, err := ParsePatch(back)
	if err != nil {
		t.Fatal(err)
	}
	undone, err := ApplyPatch(bp, SourceMap{"src/lib.rs": new}, nil)
	if err != nil || undone.Files[0].Result.Text != old {
		t.Errorf("the reverse patch does not undo: %v\n%s", err, back)
	}
	if _, err := Reverse(p, SourceMap{"src/lib.rs": "other\n"}, nil); !errors.Is(err, ErrContextNotFound) {
		t.Errorf("Reverse over the wrong source: %v", err)
	}

	for _, tc := range []struct {
		name, got, want string
	}{
		{"context 0", must(MakePatch("a\nb\nc\n", "a\nB\nc\n", "x", &GenerateOptions{Context: 0, MaxContext: 50})),
			"*** Begin Patch\n*** Update File: x\n@@\n-b\n+B\n*** End Patch\n"},
		{"identical", must(MakePatch("a\n", "a\n", "x", nil)), "*** Begin Patch\n*** End Patch\n"},
		{"move", must(MakeMovePatch("a\n", "b\n", "x", "y", nil)),
			"*** Begin Patch\n*** Update File: x\n*** Move to: y\n@@\n-a\n+b\n*** End Patch\n"},
		{"add", must(MakeAddPatch("x", "a\nb")),
			"*** Begin Patch\n*** Add File: x\n+a\n+b\n\\ No newline at end of file\n*** End Patch\n"},
		{"delete", must(MakeDeletePatch("x")), "*** Begin Patch\n*** Delete File: x\n*** End Patch\n"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, tc.got, tc.want)
		}
	}
	if _, err := MakePatch("a\n", "\ufeffa\n", "x", nil); !errors.Is(err, ErrInvalidArgument) ||
		!strings.Contains(err.Error(), "byte order mark") {
		t.Errorf("a BOM change: %v", err)
	}

	want := map[Level]string{
		LevelExact:    "  “Hi”\t —  there…  ",
		LevelTrimEnd:  "  “Hi”\t —  there…",
		LevelTrim:     "“Hi”\t —  there…",
		LevelCollapse: "“Hi” — there…",
		LevelFold:     "\"Hi\" - there...",
	}
	for l, w := range want {
		if got := must(Normalize("  “Hi”\t —  there…  ", l)); got != w {
			t.Errorf("Normalize(%v) = %q, want %q", l, got, w)
		}
	}
}

func must(s string, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	return s
}

func TestClassifyPath(t *testing.T) {
	for path, want := range map[string]PathClass{
		"src/a.rs": PathRelative, "a/../b": PathRelative, "/etc/passwd": PathAbsolute,
		`\\server\share`: PathAbsolute, "../x": PathParentEscape, "": PathEmpty, "  ": PathEmpty,
		"a\x00b": PathNUL, `C:\x`: PathDrivePrefix,
	} {
		got, err := ClassifyPath(path)
		if err != nil || got != want {
			t.Errorf("ClassifyPath(%q) = %v, %v; want %v", path, got, err, want)
		}
		if got.Safe() != (want == PathRelative) {
			t.Errorf("%v.Safe() = %v", got, got.Safe())
		}
	}
}

func TestToolKit(t *testing.T) {
	root := filepath.Join("..", "..", "tools")
	flavors := map[Flavor]string{FlavorOpenAIChat: "openai-chat",
		FlavorOpenAIResponses: "openai-responses", FlavorOpenAIResponsesCustom: "openai-responses-custom",
		FlavorAnthropic: "anthropic", FlavorMCP: "mcp"}
	shapes := map[Shape]string{ShapeInput: "input", ShapeFile: "file"}
	for f, fname := range flavors {
		for s, sname := range shapes {
			got, err := ToolSchema(f, s)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join(root, fname+"-"+sname+".json"))
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) || !json.Valid([]byte(got)) {
				t.Errorf("ToolSchema(%s, %s) differs from tools/%s-%s.json", fname, sname, fname, sname)
			}
		}
	}
	if _, err := ToolSchema(9, ShapeInput); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("ToolSchema(9): %v", err)
	}
	if _, err := ToolSchema(FlavorMCP, 7); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("ToolSchema(shape 7): %v", err)
	}
	for name, got := range map[string]string{"v4a.lark": Grammar(), "file-diff.lark": FileGrammar(),
		"instructions.md": Instructions()} {
		want, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		if got != string(want) {
			t.Errorf("the embedded %s differs from tools/%s", name, name)
		}
	}
}

func TestVersionsAndLayout(t *testing.T) {
	if headerABIVersion != ABIVersion || LibraryABIVersion() != ABIVersion {
		t.Errorf("ABI versions: header %d, binding %d, library %d", headerABIVersion, ABIVersion, LibraryABIVersion())
	}
	// Go's build cache does not see include/v4a.h: a package compiled against another
	// version of it would still be used.
	header, err := os.ReadFile(filepath.Join("..", "..", "include", "v4a.h"))
	if err != nil {
		t.Fatal(err)
	}
	if m := regexp.MustCompile(`(?m)^#define V4A_ABI_VERSION (\d+)$`).FindSubmatch(header); m == nil ||
		string(m[1]) != fmt.Sprint(headerABIVersion) {
		t.Errorf("include/v4a.h declares ABI version %s, but the package was compiled against %d: "+
			"run go clean -cache (Go does not track the header)", m, headerABIVersion)
	}
	cargo, err := os.ReadFile(filepath.Join("..", "..", "Cargo.toml"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^version = "([^"]+)"`).FindSubmatch(cargo)
	if m == nil || Version() != string(m[1]) {
		t.Errorf("Version() = %q, Cargo.toml says %q", Version(), m)
	}
	for _, c := range layoutChecks() {
		if c.goValue != c.cValue || c.goValue != c.pinnedSize {
			t.Errorf("%s: Go %d, C %d, pinned %d", c.name, c.goValue, c.cValue, c.pinnedSize)
		}
	}
}

// Apply is thin: a handful of allocations, whatever the size of the file.
func TestApplyAllocations(t *testing.T) {
	source := strings.Repeat("line\n", 500) + "target\n" + strings.Repeat("line\n", 500)
	diff := "@@\n-target\n+changed\n"
	allocs := testing.AllocsPerRun(50, func() {
		if _, err := Apply(source, diff, ModeUpdate, nil); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 8 {
		t.Errorf("Apply allocates %.0f times per call; expected at most 8", allocs)
	}
}

// A Patch holds its native patch until Close: applies after Close fail with a message, Close
// is idempotent, and Close waits for the applies running on other goroutines.
func TestPatchClose(t *testing.T) {
	p, err := ParsePatch("*** Begin Patch\n*** Update File: a\n@@\n-x\n+y\n*** End Patch\n")
	if err != nil {
		t.Fatal(err)
	}
	src := SourceMap{"a": "x\n"}
	var wg sync.WaitGroup
	var closed atomic.Bool
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				wasClosed := closed.Load()
				r, err := ApplyPatch(p, src, nil)
				switch {
				case err == nil && r.Files[0].Result.Text != "y\n":
					t.Errorf("text %q", r.Files[0].Result.Text)
				case err != nil && (!errors.Is(err, ErrInvalidArgument) || !strings.Contains(err.Error(), "closed")):
					t.Errorf("after Close: %v", err)
				case err == nil && wasClosed:
					t.Error("applied after Close returned")
				}
			}
		}()
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	closed.Store(true)
	wg.Wait()
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := Reverse(p, src, nil); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("Reverse after Close: %v", err)
	}
	if len(p.Ops) != 1 || p.Ops[0].Path != "a" {
		t.Errorf("Ops after Close: %+v", p.Ops)
	}
}
