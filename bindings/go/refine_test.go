package v4a

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func pieces(line string, segs []Segment) [][2]string {
	out := make([][2]string, len(segs))
	for i, s := range segs {
		out[i] = [2]string{s.Kind.String(), line[s.Start:s.End]}
	}
	return out
}

func TestRefineLinesPairsAndSegments(t *testing.T) {
	deleted := []string{"let x = 1;", "fn main() {}"}
	added := []string{"unrelated();", "let x = 22;"}
	pairs, err := RefineLines(deleted, added, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(pairs) != 1 || pairs[0].Deleted != 0 || pairs[0].Added != 1 {
		t.Fatalf("pairs %+v", pairs)
	}
	want := [][2]string{{"equal", "let x = "}, {"add", "22"}, {"equal", ";"}}
	if got := pieces(added[1], pairs[0].AddedSegments); !reflect.DeepEqual(got, want) {
		t.Fatalf("added segments %v, want %v", got, want)
	}
	// Byte offsets past multi-byte characters.
	pairs, err = RefineLines([]string{"é 😀 a"}, []string{"é 😀 b"}, nil)
	if err != nil || len(pairs) != 1 {
		t.Fatalf("%v %v", pairs, err)
	}
	if got := pieces("é 😀 a", pairs[0].DeletedSegments); got[1] != [2]string{"delete", "a"} {
		t.Fatalf("%v", got)
	}
}

func TestRefineLinesAgreesWithApply(t *testing.T) {
	opts := DefaultOptions()
	opts.Diff = FullDiff()
	opts.Refine = true
	r, err := Apply("alpha beta\ngamma delta\nkeep\n",
		"@@\n-alpha beta\n-gamma delta\n+alpha BETA\n+new line\n+gamma delta!\n keep\n", ModeUpdate, opts)
	if err != nil {
		t.Fatal(err)
	}
	var del, add []DiffLine
	for _, d := range r.Diff {
		switch d.Kind {
		case DiffDelete:
			del = append(del, d)
		case DiffAdd:
			add = append(add, d)
		}
	}
	text := func(ls []DiffLine) []string {
		out := make([]string, len(ls))
		for i, l := range ls {
			out[i] = l.Text
		}
		return out
	}
	pairs, err := RefineLines(text(del), text(add), nil)
	if err != nil || len(pairs) != 2 {
		t.Fatalf("%v %v", pairs, err)
	}
	for _, p := range pairs {
		if !reflect.DeepEqual(p.DeletedSegments, del[p.Deleted].Segments) ||
			!reflect.DeepEqual(p.AddedSegments, add[p.Added].Segments) {
			t.Fatalf("pair %+v disagrees with apply's diff %+v %+v", p, del[p.Deleted], add[p.Added])
		}
	}
}

func TestRefineLimits(t *testing.T) {
	d := DefaultOptions().RefineLimits
	if d != (RefineLimits{MaxGraphemes: 200_000, MaxCost: 8_000_000, MaxPairLines: 200}) {
		t.Fatalf("defaults %+v", d)
	}
	old := "x = " + strings.Repeat("a", 300) + ";"
	neu := "x = " + strings.Repeat("a", 299) + "b;"
	counts := func(l RefineLimits) []int {
		opts := DefaultOptions()
		opts.Diff = FullDiff()
		opts.Refine = true
		opts.RefineLimits = l
		r, err := Apply(old+"\n", "@@\n-"+old+"\n+"+neu+"\n", ModeUpdate, opts)
		if err != nil {
			t.Fatal(err)
		}
		out := []int{}
		for _, l := range r.Diff {
			out = append(out, len(l.Segments))
		}
		return out
	}
	if c := counts(d); c[0] < 2 || c[1] < 2 {
		t.Fatalf("defaults refine: %v", c)
	}
	short := d
	short.MaxGraphemes = 100
	if c := counts(short); !reflect.DeepEqual(c, []int{0, 0}) {
		t.Fatalf("a 100-cluster limit: %v", c)
	}
	pairs, err := RefineLines([]string{"let x = 1;"}, []string{"let x = 2;"}, &RefineLimits{})
	if err != nil || len(pairs) != 0 {
		t.Fatalf("zero limits refine nothing: %v %v", pairs, err)
	}
}

func TestRefineLinesRefusals(t *testing.T) {
	_, err := RefineLines([]string{"a"}, []string{"ok", "\xff"}, nil)
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeInvalidUTF8 || !strings.Contains(e.Message, "added[1]") {
		t.Fatalf("%v", err)
	}
	if !errors.Is(err, ErrInvalidUTF8) {
		t.Fatalf("%v is not ErrInvalidUTF8", err)
	}
	pairs, err := RefineLines(nil, nil, nil)
	if err != nil || len(pairs) != 0 {
		t.Fatalf("%v %v", pairs, err)
	}
	pairs, err = RefineLines([]string{""}, []string{""}, nil)
	if err != nil {
		t.Fatal(err)
	}
	_ = pairs
}
