//go:build v4a_intree

package v4a

// Runs every shared test vector of tests/vectors/ through the Go API, with the semantics of
// the Rust runner (tests/vectors.rs; the format is described in tests/vectors/README.md):
// `mode` cases through ParseMode + ApplyBytes, the others through ParsePatch + ApplyPatch
// over a SourceMap (ApplyPatchWithBases with the files of base/ when the case has base/),
// with the case's `options`. The outcome is rendered in the canonical form
// and compared byte for byte with the `outcome` file, the whole after-state with `after/`. Every successful case is also checked against the
// library's own unified diff rendering, with a full refined structured diff, and with the
// caller's source copied instead of shared.
//
// V4A_VECTORS_DIR overrides the folder; V4A_VECTOR=<substring> runs the matching cases only.

import (
	"bytes"
	"errors"
	"fmt"
	"math"
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
	name     string
	patch    []byte
	before   map[string][]byte
	base     map[string][]byte // base/: the files as the model saw them; nil without base/
	after    map[string][]byte // nil when the outcome is an error
	hasAfter bool
	outcome  string
	mode     string // "" for a multi-file case
	hasMode  bool
	options  *Options
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

// buildOptions reads the `options` file (the input of a case): key=value lines.
func buildOptions(text string) (*Options, error) {
	o := DefaultOptions()
	for _, l := range strings.Split(text, "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
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
	known := map[string]bool{"patch": true, "before": true, "base": true, "after": true,
		"mode": true, "options": true, "outcome": true}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if !known[e.Name()] {
			return nil, fmt.Errorf("unknown entry %q (old `error`/`expect` checks are converted with V4A_BLESS=1 cargo test -p v4a --test vectors)", e.Name())
		}
	}
	if c.patch, err = os.ReadFile(filepath.Join(dir, "patch")); err != nil {
		return nil, fmt.Errorf("missing patch file: %v", err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "outcome"))
	if err != nil {
		return nil, fmt.Errorf("missing outcome file (bless it with V4A_BLESS=1 cargo test -p v4a --test vectors): %v", err)
	}
	c.outcome = string(b)
	if c.before, err = readTree(filepath.Join(dir, "before")); err != nil {
		return nil, err
	}
	if fi, err := os.Stat(filepath.Join(dir, "after")); err == nil && fi.IsDir() {
		c.hasAfter = true
	}
	if strings.HasPrefix(c.outcome, "status: OK\n") {
		if c.after, err = readTree(filepath.Join(dir, "after")); err != nil {
			return nil, err
		}
	}
	if b, err := os.ReadFile(filepath.Join(dir, "mode")); err == nil {
		c.mode, c.hasMode = strings.TrimSpace(string(b)), true
	}
	if fi, err := os.Stat(filepath.Join(dir, "base")); err == nil && fi.IsDir() {
		if c.hasMode {
			return nil, errors.New("a `mode` case has no base/")
		}
		if c.base, err = readTree(filepath.Join(dir, "base")); err != nil {
			return nil, err
		}
	}
	b, _ = os.ReadFile(filepath.Join(dir, "options"))
	if c.options, err = buildOptions(string(b)); err != nil {
		return nil, err
	}
	return c, nil
}

// fileResult is one file result: its operation (nil in a mode case) and its Result.
type fileResult struct {
	op *FileResult
	r  *Result
}

type produced struct {
	files   map[string][]byte
	results []fileResult
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
	p := &produced{files: map[string][]byte{}, results: []fileResult{{r: r}}}
	if r.Text != "" {
		p.files["<text>"] = []byte(r.Text)
	}
	return p, nil
}

func sourcesOf(c *vectorCase) (SourceMap, error) {
	return textsOf(c.before, "before")
}

func textsOf(files map[string][]byte, dir string) (SourceMap, error) {
	m := SourceMap{}
	for k, v := range files {
		if !utf8.Valid(v) {
			return nil, fmt.Errorf("vector error: %s/%s must be UTF-8 in a multi-file case", dir, k)
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
	var res *PatchResult
	if c.base == nil {
		res, err = ApplyPatch(patch, sources, opts)
	} else {
		bases, berr := textsOf(c.base, "base")
		if berr != nil {
			return nil, nil, berr
		}
		res, err = ApplyPatchWithBases(patch, sources, bases, opts)
	}
	if err != nil {
		return nil, err, nil
	}
	p := &produced{files: map[string][]byte{}}
	for k, v := range c.before {
		p.files[k] = v
	}
	for i := range res.Files {
		f := &res.Files[i]
		switch {
		case f.Kind == OpDelete:
			delete(p.files, f.Path)
		case f.Kind == OpUpdate && f.MoveTo != "" && f.MoveTo != f.Path:
			delete(p.files, f.Path)
			p.files[f.MoveTo] = []byte(f.Result.Text)
		default:
			p.files[f.Path] = []byte(f.Result.Text)
		}
		p.results = append(p.results, fileResult{op: f, r: f.Result})
	}
	return p, nil, nil
}

// ---------------------------------------------------------------------------------------
// The canonical outcome (tests/vectors/README.md, "The outcome file")
// ---------------------------------------------------------------------------------------

// esc escapes a string for one line of an outcome file.
func esc(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\':
			b.WriteString(`\\`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\t':
			b.WriteString(`\t`)
		case c < 0x20 || c == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// block writes key: and one "| " line per "\n"-separated piece ("|" for an empty one).
func block(b *strings.Builder, key, text string) {
	b.WriteString(key + ":\n")
	for _, piece := range strings.Split(text, "\n") {
		if piece == "" {
			b.WriteString("|\n")
		} else {
			b.WriteString("| " + esc(piece) + "\n")
		}
	}
}

func renderError(b *strings.Builder, err error) {
	var e *Error
	if !errors.As(err, &e) {
		fmt.Fprintf(b, "status: (not a *v4a.Error: %v)\n", err)
		return
	}
	fmt.Fprintf(b, "status: %s\n", e.Code)
	block(b, "message", e.Message)
	if e.Path != "" {
		b.WriteString("path: " + esc(e.Path) + "\n")
	}
	if e.Line != 0 {
		fmt.Fprintf(b, "patch_line: %d\n", e.Line)
	}
	if e.Hunk != 0 {
		fmt.Fprintf(b, "hunk: %d\n", e.Hunk)
	}
	if e.ByteOffset >= 0 {
		fmt.Fprintf(b, "byte_offset: %d\n", e.ByteOffset)
	}
	if e.Input != "" {
		b.WriteString("input: " + esc(e.Input) + "\n")
	}
	if len(e.Candidates) > 0 {
		list := make([]string, len(e.Candidates))
		for i, c := range e.Candidates {
			list[i] = strconv.Itoa(c)
		}
		b.WriteString("candidates: " + strings.Join(list, ",") + "\n")
	}
	if e.Suggestion != "" {
		block(b, "suggestion", e.Suggestion)
	}
	if c := e.Closest; c != nil {
		// Thousandths, rounded the same way by every runner.
		milli := uint64(math.Floor(c.Similarity*1000 + 0.5))
		fmt.Fprintf(b, "closest: %d-%d similarity=%d.%03d\n", c.StartLine, c.EndLine, milli/1000, milli%1000)
	}
	if e.CorrectedHunk != "" {
		block(b, "corrected_hunk", e.CorrectedHunk)
	}
}

func noneOr(list []string) string {
	if len(list) == 0 {
		return "none"
	}
	return strings.Join(list, ",")
}

func renderHunks(b *strings.Builder, indent string, r *Result) {
	fmt.Fprintf(b, "%sfuzz: %d\n", indent, r.Fuzz)
	for i, h := range r.Hunks {
		var flags, levels []string
		for _, f := range []struct {
			on   bool
			name string
		}{{h.Reindented, "reindented"}, {h.AlreadyApplied, "already_applied"},
			{h.EndOfFile, "end_of_file"}, {h.OutOfOrder, "out_of_order"}, {h.Merged, "merged"},
			{h.AnchorIgnored, "anchor_ignored"}, {h.ContextRelaxed, "context_relaxed"}} {
			if f.on {
				flags = append(flags, f.name)
			}
		}
		for _, l := range h.LineLevels {
			levels = append(levels, l.String())
		}
		fmt.Fprintf(b, "%shunk %d: old=%d,%d new=%d,%d level=%s fuzz=%d candidates=%d patch_line=%d flags=%s line_levels=%s\n",
			indent, i+1, h.OldStart, h.OldLen, h.NewStart, h.NewLen, h.Level, h.Fuzz, h.Candidates,
			h.PatchLine, noneOr(flags), noneOr(levels))
	}
}

// render is the canonical outcome of a run.
func render(c *vectorCase, p *produced, err error) string {
	var b strings.Builder
	if err != nil {
		renderError(&b, err)
		return b.String()
	}
	b.WriteString("status: OK\n")
	if c.hasMode {
		fmt.Fprintf(&b, "text: %d bytes\n", len(p.results[0].r.Text))
		renderHunks(&b, "", p.results[0].r)
		return b.String()
	}
	for i, f := range p.results {
		fmt.Fprintf(&b, "op %d: %s %s", i+1, f.op.Kind, esc(f.op.Path))
		if f.op.MoveTo != "" {
			b.WriteString(" -> " + esc(f.op.MoveTo))
		}
		b.WriteString("\n")
		renderHunks(&b, "  ", f.r)
	}
	paths := make([]string, 0, len(p.files))
	for k := range p.files {
		paths = append(paths, k)
	}
	sort.Strings(paths)
	for _, k := range paths {
		fmt.Fprintf(&b, "file %s: %d bytes\n", esc(k), len(p.files[k]))
	}
	return b.String()
}

// lineDiff shows the lines between the common first and last lines of two outcomes.
func lineDiff(want, got string) string {
	w := strings.SplitAfter(want, "\n")
	g := strings.SplitAfter(got, "\n")
	pre := 0
	for pre < len(w) && pre < len(g) && w[pre] == g[pre] {
		pre++
	}
	suf := 0
	for suf < len(w)-pre && suf < len(g)-pre && w[len(w)-1-suf] == g[len(g)-1-suf] {
		suf++
	}
	var b strings.Builder
	fmt.Fprintf(&b, "outcome differs at line %d (- the outcome file, + this run):\n", pre+1)
	for _, l := range w[pre : len(w)-suf] {
		if l != "" {
			b.WriteString("    -" + l)
		}
	}
	for _, l := range g[pre : len(g)-suf] {
		if l != "" {
			b.WriteString("    +" + l)
		}
	}
	return b.String()
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
	if got := render(c, p, err); got != c.outcome {
		problems = append(problems, lineDiff(c.outcome, got))
	}
	switch {
	case err != nil && c.hasAfter:
		problems = append(problems, "after/ exists, but the patch failed")
	case err != nil:
	case c.hasMode:
		var want []byte
		for _, v := range c.after {
			want = v
		}
		if got := p.files["<text>"]; !bytes.Equal(want, got) {
			problems = append(problems, "text differs from after/:\n    expected: "+show(want)+"\n    actual:   "+show(got))
		}
	default:
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
				problems = append(problems, k+" differs from after/:\n    expected: "+show(w)+"\n    actual:   "+show(g))
			case inW && !inG:
				problems = append(problems, k+": expected in after/, missing from the result")
			case !inW && inG:
				problems = append(problems, k+": present in the result, not in after/: "+show(g))
			}
		}
	}
	// The cross-checks replay the plain apply: not for a case with bases.
	if err == nil && len(problems) == 0 && c.base == nil {
		problems = append(problems, crossCheck(c, p)...)
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
		results = []*Result{p.results[0].r}
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
