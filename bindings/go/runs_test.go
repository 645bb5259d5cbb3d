package v4a

import (
	"math/rand"
	"reflect"
	"strings"
	"testing"
)

// checkRuns applies diff to source with RunsDiff and with FullDiff (both refined): the runs,
// expanded, are the full lines entry for entry; only equal entries count more than 1, no two
// runs of the same hunk touch, and the counts add up to the file's lines.
func checkRuns(t *testing.T, source, diff string, mode Mode) []DiffLine {
	t.Helper()
	get := func(style DiffStyle) []DiffLine {
		o := DefaultOptions()
		o.Diff, o.Refine = style, true
		r, err := Apply(source, diff, mode, o)
		if err != nil {
			t.Fatalf("Apply(%q, %q): %v", source, diff, err)
		}
		return r.Diff
	}
	full, runs := get(FullDiff()), get(RunsDiff())
	if got := ExpandRuns(runs); !reflect.DeepEqual(got, full) && (len(got) != 0 || len(full) != 0) {
		t.Fatalf("%q %q: expanded runs\n%+v\nfull\n%+v", source, diff, got, full)
	}
	old := 0
	for i, d := range runs {
		if d.Count < 1 || (d.Kind != DiffEqual && d.Count != 1) {
			t.Errorf("%q: entry %d (%v) counts %d", source, i, d.Kind, d.Count)
		}
		if i > 0 && d.Kind == DiffEqual && runs[i-1].Kind == DiffEqual && d.Hunk == runs[i-1].Hunk {
			t.Errorf("%q: runs %d and %d touch", source, i-1, i)
		}
		if d.Kind != DiffAdd {
			old += d.Count
		}
	}
	want := 0
	for _, d := range full {
		if d.Kind != DiffAdd {
			want++
		}
	}
	if old != want {
		t.Errorf("%q: the runs count %d original lines, the full diff %d", source, old, want)
	}
	return runs
}

func TestRunsAreOneEntryEach(t *testing.T) {
	runs := checkRuns(t, "a\r\nb\r\nc\r\nd\r\ne\r\nf\r\ng\r\nh\r\n", "@@\n-g\n+G\n", ModeUpdate)
	first := DiffLine{Kind: DiffEqual, OldLine: 1, NewLine: 1, Text: "a\r\nb\r\nc\r\nd\r\ne\r\nf", Count: 6}
	if len(runs) != 4 || !reflect.DeepEqual(runs[0], first) || runs[3].OldLine != 8 || runs[3].Count != 1 {
		t.Fatalf("runs = %+v", runs)
	}
	if RunsDiff().String() != "runs" {
		t.Errorf("RunsDiff().String() = %q", RunsDiff().String())
	}
}

func TestRunsAtTheEdges(t *testing.T) {
	cases := [][2]string{
		{"a\nb\nc\nd\n", "a\nb\nX\nd\n"},
		{"a\rb\rc\rd\r", "a\rb\rc\rY\r"},
		{"a\nb\r\nc\rd\ne", "a\nb\r\nc\rd\nf"},
		{"\ufeffa\nb\nc\n", "\ufeffa\nb\nc\nd\n"},
		{"\ufeffa\nb", "\ufeffZ\nb"},
		{"one\ntwo\nthree", "one\ntwo\nthree\nfour"},
		{"", "new\nlines\n"},
		{"gone\nall\n", ""},
		{"\n\n\n\n", "\n\nx\n\n"},
		{"é\nü 🎉\r\nß\n", "é\nü 🎉\r\nss\n"},
	}
	checked := 0
	for _, c := range cases {
		patch, err := MakePatch(c[0], c[1], "f", nil)
		if err != nil {
			continue
		}
		checked++
		checkRuns(t, c[0], patch, ModeUpdate)
	}
	if checked < 8 {
		t.Errorf("%d cases made a patch", checked)
	}
	checkRuns(t, "", "+a\n+b\n", ModeCreate)
	checkRuns(t, "a\nb\n", "", ModeDelete)
}

func TestRunsOfRandomEdits(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for round := 0; round < 300; round++ {
		eol := []string{"\n", "\r\n", "\r"}[rng.Intn(3)]
		n := 1 + rng.Intn(40)
		lines := make([]string, n)
		for i := range lines {
			lines[i] = "line " + strings.Repeat("é", i%3) + string(rune('a'+i%26))
		}
		old := append([]string(nil), lines...)
		for e := rng.Intn(4); e >= 0; e-- {
			at := rng.Intn(len(lines) + 1)
			del := min(rng.Intn(3), len(lines)-at)
			var add []string
			for k := rng.Intn(3); k > 0; k-- {
				add = append(add, "added "+strings.Repeat("x", round%5+k))
			}
			lines = append(lines[:at], append(add, lines[at+del:]...)...)
		}
		bom, final := "", ""
		if rng.Intn(2) == 1 {
			bom = "\ufeff"
		}
		if rng.Intn(2) == 1 {
			final = eol
		}
		join := func(l []string) string {
			if len(l) == 0 {
				return bom
			}
			return bom + strings.Join(l, eol) + final
		}
		a, b := join(old), join(lines)
		if a == b {
			continue
		}
		patch, err := MakePatch(a, b, "f", nil)
		if err != nil {
			continue
		}
		checkRuns(t, a, patch, ModeUpdate)
	}
}
