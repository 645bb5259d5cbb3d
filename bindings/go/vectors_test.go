//go:build v4a_intree

package v4a

// Runs every shared test vector of tests/vectors/ through the Go API, with the semantics of
// the Rust runner (tests/vectors.rs; the format is described in tests/vectors/README.md):
// `mode` cases through ParseMode + ApplyBytes, the others through ParsePatch + ApplyPatch
// over a SourceMap, with the `options`, `expect` and `error` checks and the whole
// after-state compared byte for byte. Every successful case is also checked against the
// library's own unified diff rendering, with a full refined structured diff, and with the
// caller's source copied instead of shared.
//
// V4A_VECTORS_DIR overrides the folder; V4A_VECTOR=<substring> runs the matching cases only.

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// minVectors is the smallest number of vectors the suite may hold (as the Rust runner).
const minVectors = 150

func vectorsDir(t testing.TB) string {
	if d := os.Getenv("V4A_VECTORS_DIR"); d != "" {
		return d
	}
	d, err := filepath.Abs(filepath.Join("..", "..", "tests", "vectors"))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

type vectorCase struct {
	name    string
	patch   []byte
	before  map[string][]byte
	after   map[string][]byte // nil when an error is expected
	status  string            // the expected error's status name
	checks  [][2]string       // error checks
	mode    string            // "" for a multi-file case
	hasMode bool
	options *Options
	expect  []string
}

// readTree reads every file under root, keyed by its path relative to root with "/".
func readTree(root string) (map[string][]byte, error) {
	out := map[string][]byte{}
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		return out, nil
	}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out[filepath.ToSlash(rel)] = b
		return nil
	})
	return out, err
}

// nonEmptyLines are the non-blank lines of a small text file, without terminators.
func nonEmptyLines(b []byte) []string {
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		l = strings.TrimSuffix(l, "\r")
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}

func buildOptions(lines []string) (*Options, error) {
	o := DefaultOptions()
	for _, l := range lines {
		k, v, ok := strings.Cut(l, "=")
		if !ok {
			return nil, fmt.Errorf("bad option line %q", l)
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		var err error
		switch k {
		case "max_level":
			o.MaxLevel, err = ParseLevel(v)
		case "max_fuzz":
			o.MaxFuzz, err = strconv.Atoi(v)
		case "first_match":
			o.FirstMatch, err = strconv.ParseBool(v)
		case "already_applied_error":
			o.AlreadyAppliedIsError, err = strconv.ParseBool(v)
		case "ensure_final_newline":
			o.EnsureFinalNewline, err = strconv.ParseBool(v)
		case "add_file_line_ending":
			switch v {
			case "lf":
				o.AddFileLineEnding = LF
			case "crlf":
				o.AddFileLineEnding = CRLF
			default:
				err = fmt.Errorf("bad line ending %q", v)
			}
		default:
			err = fmt.Errorf("unknown option %q", k)
		}
		if err != nil {
			return nil, fmt.Errorf("option %s: %v", k, err)
		}
	}
	return o, nil
}

func loadCase(dir string) (*vectorCase, error) {
	c := &vectorCase{name: filepath.Base(dir)}
	known := map[string]bool{"patch": true, "before": true, "after": true, "error": true,
		"mode": true, "options": true, "expect": true}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if !known[e.Name()] {
			return nil, fmt.Errorf("unknown entry %q", e.Name())
		}
	}
	if c.patch, err = os.ReadFile(filepath.Join(dir, "patch")); err != nil {
		return nil, fmt.Errorf("missing patch file: %v", err)
	}
	if c.before, err = readTree(filepath.Join(dir, "before")); err != nil {
		return nil, err
	}
	if b, err := os.ReadFile(filepath.Join(dir, "error")); err == nil {
		lines := nonEmptyLines(b)
		if len(lines) == 0 {
			return nil, errors.New("error file is empty")
		}
		c.status = strings.TrimSpace(lines[0])
		for _, l := range lines[1:] {
			k, v, ok := strings.Cut(l, ": ")
			if !ok {
				return nil, fmt.Errorf("bad error check %q", l)
			}
			c.checks = append(c.checks, [2]string{k, v})
		}
	} else if c.after, err = readTree(filepath.Join(dir, "after")); err != nil {
		return nil, err
	}
	if b, err := os.ReadFile(filepath.Join(dir, "mode")); err == nil {
		c.mode, c.hasMode = strings.TrimSpace(string(b)), true
	}
	var optLines []string
	if b, err := os.ReadFile(filepath.Join(dir, "options")); err == nil {
		optLines = nonEmptyLines(b)
	}
	if c.options, err = buildOptions(optLines); err != nil {
		return nil, err
	}
	if b, err := os.ReadFile(filepath.Join(dir, "expect")); err == nil {
		c.expect = nonEmptyLines(b)
	}
	return c, nil
}

// applied is one updated file's result with the paths that name it.
type applied struct {
	keys []string
	r    *Result
}

type produced struct {
	files   map[string][]byte
	applied []applied
}

func firstBefore(c *vectorCase) []byte {
	keys := make([]string, 0, len(c.before))
	for k := range c.before {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if len(keys) == 0 {
		return nil
	}
	return c.before[keys[0]]
}

func runSingle(c *vectorCase, opts *Options) (*produced, error) {
	mode, err := ParseMode(c.mode)
	if err != nil {
		return nil, err
	}
	r, err := ApplyBytes(firstBefore(c), c.patch, mode, opts)
	if err != nil {
		return nil, err
	}
	p := &produced{files: map[string][]byte{}, applied: []applied{{r: r}}}
	if r.Text != "" {
		p.files["<text>"] = []byte(r.Text)
	}
	return p, nil
}

func sourcesOf(c *vectorCase) (SourceMap, error) {
	m := SourceMap{}
	for k, v := range c.before {
		if !utf8.Valid(v) {
			return nil, fmt.Errorf("vector error: before/%s must be UTF-8 in a multi-file case", k)
		}
		m[k] = string(v)
	}
	return m, nil
}

func runMulti(c *vectorCase, opts *Options) (*produced, error, error) {
	if !utf8.Valid(c.patch) {
		return nil, nil, errors.New("vector error: a multi-file patch must be UTF-8")
	}
	sources, err := sourcesOf(c)
	if err != nil {
		return nil, nil, err
	}
	patch, err := ParsePatch(string(c.patch))
	if err != nil {
		return nil, err, nil
	}
	res, err := ApplyPatch(patch, sources, opts)
	if err != nil {
		return nil, err, nil
	}
	p := &produced{files: map[string][]byte{}}
	for k, v := range c.before {
		p.files[k] = v
	}
	for _, f := range res.Files {
		keys := []string{f.Path}
		switch f.Kind {
		case OpAdd:
			p.files[f.Path] = []byte(f.Result.Text)
		case OpDelete:
			delete(p.files, f.Path)
		case OpUpdate:
			if f.MoveTo != "" && f.MoveTo != f.Path {
				delete(p.files, f.Path)
				p.files[f.MoveTo] = []byte(f.Result.Text)
				keys = append(keys, f.MoveTo)
			} else {
				p.files[f.Path] = []byte(f.Result.Text)
			}
			p.applied = append(p.applied, applied{keys: keys, r: f.Result})
		}
	}
	return p, nil, nil
}

func checkError(c *vectorCase, err error) []string {
	var problems []string
	var e *Error
	if !errors.As(err, &e) {
		return []string{fmt.Sprintf("error is %T, not *v4a.Error: %v", err, err)}
	}
	if e.Code.String() != c.status {
		problems = append(problems, fmt.Sprintf("status: expected %s, got %s", c.status, e.Code))
	}
	for _, s := range sentinels[1:] {
		want := s.(*sentinel).name == c.status
		if errors.Is(err, s) != want {
			problems = append(problems, fmt.Sprintf("errors.Is(err, %v) = %v", s, !want))
		}
	}
	for _, ch := range c.checks {
		k, v := ch[0], ch[1]
		var ok bool
		switch k {
		case "contains":
			ok = strings.Contains(e.Message, v)
		case "line":
			ok = strconv.Itoa(e.Line) == v
		case "hunk":
			ok = strconv.Itoa(e.Hunk) == v
		case "path":
			ok = e.Path == v
		case "candidates":
			var want []int
			for _, x := range strings.Split(v, ",") {
				if n, err := strconv.Atoi(strings.TrimSpace(x)); err == nil {
					want = append(want, n)
				}
			}
			ok = reflect.DeepEqual(want, e.Candidates)
		case "offset":
			ok = strconv.FormatInt(e.ByteOffset, 10) == v
		case "suggestion":
			ok = e.Suggestion != "" && strings.Contains(e.Suggestion, v)
		case "corrected":
			ok = e.CorrectedHunk != "" && strings.Contains(e.CorrectedHunk, v)
		default:
			problems = append(problems, "unknown error check "+k)
			continue
		}
		if !ok {
			problems = append(problems, fmt.Sprintf("check failed: `%s: %s`", k, v))
		}
	}
	if len(problems) > 0 {
		problems = append(problems, fmt.Sprintf("error: %s %q line=%d hunk=%d path=%q candidates=%v offset=%d",
			e.Code, e.Message, e.Line, e.Hunk, e.Path, e.Candidates, e.ByteOffset))
	}
	return problems
}

func hunkFlags(h HunkReport) string {
	var f []string
	if h.Reindented {
		f = append(f, "reindented")
	}
	if h.AlreadyApplied {
		f = append(f, "already_applied")
	}
	if h.EndOfFile {
		f = append(f, "end_of_file")
	}
	if h.OutOfOrder {
		f = append(f, "out_of_order")
	}
	sort.Strings(f)
	if len(f) == 0 {
		return "none"
	}
	return strings.Join(f, ",")
}

func normalizeFlags(s string) string {
	if s == "none" {
		return s
	}
	parts := strings.Split(s, ",")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

// checkExpect checks one `expect` line.
func checkExpect(line string, p *produced) string {
	lhs, rhs, ok := strings.Cut(line, ":")
	if !ok {
		return "bad expect line " + line
	}
	rhs = strings.TrimSpace(rhs)
	words := strings.Fields(lhs)
	var path string
	switch {
	case len(words) == 2 && words[0] == "fuzz":
		path, words = words[1], words[:1]
	case len(words) > 0 && (words[0] == "fuzz" || words[0] == "hunks" || words[0] == "hunk"):
	case len(words) > 1:
		path, words = words[0], words[1:]
	}
	var r *Result
	for _, a := range p.applied {
		if path == "" {
			r = a.r
			break
		}
		for _, k := range a.keys {
			if k == path {
				r = a.r
			}
		}
		if r != nil {
			break
		}
	}
	if r == nil {
		return fmt.Sprintf("expect %q: no updated file %q in the result", line, path)
	}
	switch {
	case len(words) == 1 && words[0] == "fuzz":
		if strconv.Itoa(r.Fuzz) != rhs {
			return fmt.Sprintf("fuzz: expected %s, got %d", rhs, r.Fuzz)
		}
	case len(words) == 1 && words[0] == "hunks":
		if strconv.Itoa(len(r.Hunks)) != rhs {
			return fmt.Sprintf("hunks: expected %s, got %d", rhs, len(r.Hunks))
		}
	case len(words) == 3 && words[0] == "hunk":
		n, err := strconv.Atoi(words[1])
		if err != nil || n < 1 {
			return "bad hunk number in " + line
		}
		if n > len(r.Hunks) {
			return fmt.Sprintf("hunk %d: the result has only %d hunk reports", n, len(r.Hunks))
		}
		h := r.Hunks[n-1]
		var got string
		switch words[2] {
		case "level":
			got = h.Level.String()
		case "flags":
			got, rhs = hunkFlags(h), normalizeFlags(rhs)
		case "old":
			got = fmt.Sprintf("%d,%d", h.OldStart, h.OldLen)
		case "new":
			got = fmt.Sprintf("%d,%d", h.NewStart, h.NewLen)
		default:
			return "unknown hunk check in " + line
		}
		if got != rhs {
			return fmt.Sprintf("%s: expected %s, got %s", strings.TrimSpace(lhs), rhs, got)
		}
	default:
		return "unknown expect line " + line
	}
	return ""
}

func show(b []byte) string {
	if len(b) > 400 {
		return strconv.Quote(string(b[:400])) + fmt.Sprintf("... (%d bytes)", len(b))
	}
	return strconv.Quote(string(b))
}

// runVector runs one case and returns its problems (none when it passes).
func runVector(c *vectorCase) []string {
	var p *produced
	var err error
	if c.hasMode {
		p, err = runSingle(c, c.options)
	} else {
		var bad error
		p, err, bad = runMulti(c, c.options)
		if bad != nil {
			return []string{bad.Error()}
		}
	}
	var problems []string
	switch {
	case c.after == nil && err != nil:
		problems = checkError(c, err)
	case c.after == nil:
		problems = append(problems, "expected error "+c.status+", but the patch applied")
		for k, v := range p.files {
			problems = append(problems, fmt.Sprintf("  produced %s: %s", k, show(v)))
		}
	case err != nil:
		problems = append(problems, fmt.Sprintf("expected success, got %#v: %v", err, err))
	default:
		if c.hasMode {
			var want []byte
			for _, v := range c.after {
				want = v
			}
			got := p.files["<text>"]
			if !bytes.Equal(want, got) {
				problems = append(problems, "text differs:\n    expected: "+show(want)+"\n    actual:   "+show(got))
			}
		} else {
			paths := map[string]bool{}
			for k := range c.after {
				paths[k] = true
			}
			for k := range p.files {
				paths[k] = true
			}
			for k := range paths {
				w, inW := c.after[k]
				g, inG := p.files[k]
				switch {
				case inW && inG && !bytes.Equal(w, g):
					problems = append(problems, k+" differs:\n    expected: "+show(w)+"\n    actual:   "+show(g))
				case inW && !inG:
					problems = append(problems, k+": expected in after/, missing from the result")
				case !inW && inG:
					problems = append(problems, k+": present in the result, not expected: "+show(g))
				}
			}
		}
		for _, e := range c.expect {
			if msg := checkExpect(e, p); msg != "" {
				problems = append(problems, msg)
			}
		}
		if len(problems) == 0 {
			problems = append(problems, crossCheck(c, p)...)
		}
	}
	return problems
}

var unifiedContexts = []int{0, 1, 3, 5}

// crossCheck compares a successful case's results with the library's own unified diff,
// with a full refined structured diff, and with the source copied rather than shared.
func crossCheck(c *vectorCase, p *produced) []string {
	var problems []string
	var results []*Result
	var native [][]string
	full := *c.options
	full.Diff, full.Refine = FullDiff(), true
	var fullResults []*Result
	if c.hasMode {
		mode, _ := ParseMode(c.mode)
		n, err := nativeApplyUnified(firstBefore(c), c.patch, mode, c.options, unifiedContexts)
		if err != nil {
			return []string{"native unified diff: " + err.Error()}
		}
		native = [][]string{n}
		results = []*Result{p.applied[0].r}
		r, err := ApplyBytes(firstBefore(c), c.patch, mode, &full)
		if err != nil {
			return []string{"apply with a full diff: " + err.Error()}
		}
		fullResults = []*Result{r}
	} else {
		sources, _ := sourcesOf(c)
		patch, err := ParsePatch(string(c.patch))
		if err != nil {
			return []string{err.Error()}
		}
		if native, err = nativePatchUnified(patch, sources, c.options, unifiedContexts); err != nil {
			return []string{"native unified diff: " + err.Error()}
		}
		res, err := ApplyPatch(patch, sources, c.options)
		if err != nil {
			return []string{err.Error()}
		}
		copied, err := applyPatch(patch, sources, c.options, false)
		if err != nil {
			return []string{err.Error()}
		}
		if !reflect.DeepEqual(res, copied) {
			problems = append(problems, "results differ when the sources are copied instead of shared")
		}
		fres, err := ApplyPatch(patch, sources, &full)
		if err != nil {
			return []string{"apply with a full diff: " + err.Error()}
		}
		for i := range res.Files {
			results = append(results, res.Files[i].Result)
			fullResults = append(fullResults, fres.Files[i].Result)
		}
	}
	for i, r := range results {
		for k, ctx := range unifiedContexts {
			if got := r.UnifiedDiff(ctx); got != native[i][k] {
				problems = append(problems, fmt.Sprintf("file %d: UnifiedDiff(%d) differs from the library's:\n    library: %q\n    go:      %q",
					i, ctx, native[i][k], got))
			}
		}
		problems = append(problems, checkFullDiff(fullResults[i], r)...)
	}
	return problems
}

// checkFullDiff checks a full structured diff against the texts: the equal and deleted lines
// are the source's lines, the equal and added lines the new text's, line numbers count up,
// and segments tile their line.
func checkFullDiff(r, plain *Result) []string {
	var problems []string
	if r.Text != plain.Text || r.Fuzz != plain.Fuzz || !reflect.DeepEqual(r.Hunks, plain.Hunks) {
		problems = append(problems, "a full diff changed the result")
	}
	if plain.Diff != nil {
		problems = append(problems, "Diff() is not nil without Options.Diff")
	}
	old := splitLines(strings.TrimPrefix(r.Source, bom)).text
	nw := splitLines(strings.TrimPrefix(r.Text, bom)).text
	var gotOld, gotNew []string
	for _, d := range r.Diff {
		if d.Kind != DiffAdd {
			if d.OldLine != len(gotOld)+1 {
				problems = append(problems, fmt.Sprintf("old line %d out of sequence", d.OldLine))
			}
			gotOld = append(gotOld, d.Text)
		}
		if d.Kind != DiffDelete {
			if d.NewLine != len(gotNew)+1 {
				problems = append(problems, fmt.Sprintf("new line %d out of sequence", d.NewLine))
			}
			gotNew = append(gotNew, d.Text)
		}
		if (d.Kind == DiffAdd) != (d.OldLine == 0) || (d.Kind == DiffDelete) != (d.NewLine == 0) {
			problems = append(problems, fmt.Sprintf("%s line with old %d new %d", d.Kind, d.OldLine, d.NewLine))
		}
		if len(d.Segments) > 0 {
			if d.Kind == DiffEqual {
				problems = append(problems, "segments on an equal line")
			}
			at := 0
			for _, s := range d.Segments {
				if s.Start != at || s.End < s.Start || (s.Kind != DiffEqual && s.Kind != d.Kind) {
					problems = append(problems, fmt.Sprintf("segments %v do not tile %q", d.Segments, d.Text))
					break
				}
				at = s.End
			}
			if at != len(d.Text) {
				problems = append(problems, fmt.Sprintf("segments %v do not cover %q", d.Segments, d.Text))
			}
		}
	}
	if !reflect.DeepEqual(nilIfEmpty(gotOld), nilIfEmpty(old)) {
		problems = append(problems, fmt.Sprintf("equal+delete lines %q are not the source lines %q", gotOld, old))
	}
	if !reflect.DeepEqual(nilIfEmpty(gotNew), nilIfEmpty(nw)) {
		problems = append(problems, fmt.Sprintf("equal+add lines %q are not the new lines %q", gotNew, nw))
	}
	return problems
}

func nilIfEmpty(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}

func TestVectors(t *testing.T) {
	dir := vectorsDir(t)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatalf("cannot read the shared vectors: %v", err)
	}
	filter := os.Getenv("V4A_VECTOR")
	passed, failed, total := 0, 0, 0
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		total++
		name := e.Name()
		if filter != "" && !strings.Contains(name, filter) {
			continue
		}
		c, err := loadCase(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("%s: bad vector: %v", name, err)
			failed++
			continue
		}
		if problems := runVector(c); len(problems) > 0 {
			t.Errorf("--- %s\n  %s", name, strings.Join(problems, "\n  "))
			failed++
		} else {
			passed++
		}
	}
	if filter == "" && total < minVectors {
		t.Errorf("tests/vectors holds %d cases; at least %d are required", total, minVectors)
	}
	if passed == 0 && filter == "" {
		t.Fatal("no vectors ran")
	}
	t.Logf("shared vectors: %d passed, %d failed", passed, failed)
}
