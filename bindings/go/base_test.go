//go:build v4a_intree

package v4a

import (
	"errors"
	"fmt"
	"io/fs"
	"reflect"
	"testing"
)

const (
	baseX    = "def f():\n    x = 1\n    return x\n"
	currentX = "def f():\n    x = 10\n    return x\n"
	diffX    = "@@ def f():\n-    x = 1\n+    x = 2\n"
)

// The hunk's lines now occur twice: ambiguous without the base, placed where the model saw
// them with it.
func TestApplyWithBaseMerges(t *testing.T) {
	base := "// header\nfn a() {\n    run(1);\n}\n"
	current := "fn b() {\n    run(1);\n}\n// header\nfn a() {\n    run(1);\n}\n"
	diff := "-    run(1);\n+    run(2);\n"
	if _, err := Apply(current, diff, ModeUpdate, nil); !errors.Is(err, ErrAmbiguous) {
		t.Fatalf("plain apply: %v, want ErrAmbiguous", err)
	}
	r, err := ApplyWithBase(current, base, diff, ModeUpdate, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := "fn b() {\n    run(1);\n}\n// header\nfn a() {\n    run(2);\n}\n"; r.Text != want {
		t.Fatalf("text %q, want %q", r.Text, want)
	}
	if r.Source != current {
		t.Fatalf("source %q", r.Source)
	}
	if len(r.Hunks) != 1 || !r.Hunks[0].Merged || r.Hunks[0].OldStart != 6 || r.Hunks[0].OldLen != 1 {
		t.Fatalf("hunks %+v", r.Hunks)
	}
	if r.Hunks[0].Reindented || r.Hunks[0].AlreadyApplied || r.Hunks[0].EndOfFile || r.Hunks[0].OutOfOrder {
		t.Fatalf("only Merged expected: %+v", r.Hunks[0])
	}

	// Drift above the hunk: carried down, the ranges in the current text.
	r, err = ApplyWithBase("import os\n"+baseX, baseX, diffX, ModeUpdate, opts(func(o *Options) { o.Diff = FullDiff() }))
	if err != nil {
		t.Fatal(err)
	}
	if want := "import os\ndef f():\n    x = 2\n    return x\n"; r.Text != want {
		t.Fatalf("text %q, want %q", r.Text, want)
	}
	if !r.Hunks[0].Merged || r.Hunks[0].OldStart != 3 || len(r.Diff) != 5 {
		t.Fatalf("hunk %+v, diff %d lines", r.Hunks[0], len(r.Diff))
	}
}

// A base equal to the source is exactly the plain apply.
func TestApplyWithBaseEqualToSourceIsApply(t *testing.T) {
	for _, mode := range []Mode{ModeUpdate, ModeMove} {
		diff := diffX
		if mode == ModeMove {
			diff = "*** Begin Patch\n*** Update File: a.py\n*** Move to: b.py\n" + diffX + "*** End Patch\n"
		}
		got, err := ApplyWithBase(baseX, baseX, diff, mode, nil)
		if err != nil {
			t.Fatal(err)
		}
		want, err := Apply(baseX, diff, mode, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%v: with base %+v\nplain %+v", mode, got, want)
		}
		if got.Hunks[0].Merged {
			t.Fatalf("%v: a base equal to the source merged", mode)
		}
	}
}

func TestApplyWithBaseConflict(t *testing.T) {
	_, err := ApplyWithBase(currentX, baseX, diffX, ModeUpdate, nil)
	if !errors.Is(err, ErrConflict) {
		t.Fatalf("%v, want ErrConflict", err)
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("%T is not an *Error", err)
	}
	want := "hunk 1 (patch line 1) conflicts with a change made to the file since the model read it: " +
		"the lines it changes were also changed in the current file.\n" +
		"What the model saw (line 2):\n  |    x = 1\n" +
		"What the file has now (line 2):\n  |    x = 10\n" +
		"What the patch wanted (line 2):\n  |    x = 2\n" +
		"Resend the hunk against the current lines shown above."
	if e.Code != CodeConflict || e.Message != want || !reflect.DeepEqual(e.Candidates, []int{2}) {
		t.Fatalf("%+v", e)
	}
	// An empty base is a base: the model saw an empty file, so a line the file gained since
	// and the added line meet at the same place, where the plain apply appends.
	if _, err := ApplyWithBase("top\n", "", "@@\n+added\n", ModeUpdate, nil); !errors.Is(err, ErrConflict) {
		t.Fatalf("empty base: %v, want ErrConflict", err)
	}
}

func TestApplyWithBaseBadInputs(t *testing.T) {
	_, err := ApplyWithBase("a\n", "a\n\xC3\n", "@@\n-a\n+b\n", ModeUpdate, nil)
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeInvalidUTF8 || e.Input != "base" || e.ByteOffset != 2 {
		t.Fatalf("%#v", err)
	}
	// Create mode reads neither text.
	r, err := ApplyWithBase("", "\xFF", "+new\n", ModeCreate, nil)
	if err != nil || r.Text != "new\n" {
		t.Fatalf("%v %+v", err, r)
	}
	if _, err := ApplyWithBase("a\n", "a\n", "@@\n-a\n+b\n", Mode(9), nil); !errors.Is(err, ErrUnsupportedMode) {
		t.Fatalf("%v, want ErrUnsupportedMode", err)
	}
	if _, err := ApplyWithBase("a\n", "a\n", "@@\n-a\n+b\n", ModeUpdate, opts(func(o *Options) { o.MaxFuzz = -2 })); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("%v, want ErrInvalidArgument", err)
	}
}

const basesPatch = "*** Begin Patch\n*** Update File: a.py\n" + diffX +
	"*** Add File: new.txt\n+new\n*** Delete File: gone.txt\n" +
	"*** Update File: b.txt\n@@\n-old\n+new\n*** End Patch\n"

func TestApplyPatchWithBases(t *testing.T) {
	p, err := ParsePatch(basesPatch)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	sources := SourceMap{"a.py": "import os\n" + baseX, "gone.txt": "bye\n", "b.txt": "old\n"}
	var asked []string
	bases := SourceFunc(func(path string) (string, error) {
		asked = append(asked, path)
		if path == "a.py" {
			return baseX, nil
		}
		return "", fs.ErrNotExist
	})
	r, err := ApplyPatchWithBases(p, sources, bases, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Only the Update operations' bases are asked for.
	if !reflect.DeepEqual(asked, []string{"a.py", "b.txt"}) {
		t.Fatalf("asked %q", asked)
	}
	if len(r.Files) != 4 {
		t.Fatalf("%d files", len(r.Files))
	}
	a, b := r.Files[0].Result, r.Files[3].Result
	if a.Text != "import os\ndef f():\n    x = 2\n    return x\n" || !a.Hunks[0].Merged || a.Hunks[0].OldStart != 3 {
		t.Fatalf("a.py: %+v", a)
	}
	if b.Text != "new\n" || b.Hunks[0].Merged {
		t.Fatalf("b.txt (no base): %+v", b)
	}
	if want := "Success. Updated the following files:\nM a.py\nA new.txt\nD gone.txt\nM b.txt\n"; r.Summary != want {
		t.Fatalf("summary %q", r.Summary)
	}

	// Without bases: exactly ApplyPatch (a.py's hunk is found in the current text too).
	plain, err := ApplyPatch(p, sources, nil)
	if err != nil {
		t.Fatal(err)
	}
	none, err := ApplyPatchWithBases(p, sources, nil, nil)
	if err != nil || !reflect.DeepEqual(none, plain) {
		t.Fatalf("%v\n%+v\n%+v", err, none, plain)
	}

	// A conflict in one file fails the whole patch.
	sources["a.py"] = currentX
	_, err = ApplyPatchWithBases(p, sources, bases, nil)
	var e *Error
	if !errors.Is(err, ErrConflict) || !errors.As(err, &e) || e.Path != "a.py" {
		t.Fatalf("%#v", err)
	}

	// A base that is not UTF-8, and a lookup error returned as is.
	sources["a.py"] = "import os\n" + baseX
	_, err = ApplyPatchWithBases(p, sources, SourceMap{"b.txt": "\xFF"}, nil)
	if !errors.As(err, &e) || e.Code != CodeInvalidUTF8 || e.Input != "base" || e.Path != "b.txt" {
		t.Fatalf("%#v", err)
	}
	boom := fmt.Errorf("disk on fire")
	_, err = ApplyPatchWithBases(p, sources, SourceFunc(func(string) (string, error) { return "", boom }), nil)
	if err != boom {
		t.Fatalf("%v, want the lookup's error", err)
	}
	if _, err := ApplyPatchWithBases(nil, sources, bases, nil); !errors.Is(err, ErrNullArgument) {
		t.Fatalf("%v, want ErrNullArgument", err)
	}
}
