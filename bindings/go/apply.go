package v4a

/*
#include "v4a_go.h"
*/
import "C"

import (
	"runtime"
	"strconv"
	"strings"
)

// Mode says what a single-file Apply does with its diff.
type Mode uint32

// The modes of Apply (the "mode" field of the one-file-per-call tool).
const (
	// ModeUpdate applies the diff's hunks to the source.
	ModeUpdate Mode = C.V4A_MODE_UPDATE
	// ModeCreate builds a new file from the diff's "+" lines; the source is ignored.
	ModeCreate Mode = C.V4A_MODE_CREATE
	// ModeDelete returns empty text and lists every source line as removed; the diff must be
	// empty or a "*** Delete File:" header.
	ModeDelete Mode = C.V4A_MODE_DELETE
	// ModeMove applies edits like ModeUpdate and reports the destination
	// (Result.Destination).
	ModeMove Mode = C.V4A_MODE_MOVE
)

// modeNames are the names v4a_apply_mode_name takes, indexed by mode. The C ABI has no getter
// for them: TestHeaderCoverage checks them against the V4A_MODE_* constants and TestModes
// against the library's v4a_apply_mode_name.
var modeNames = [...]string{"update", "create", "delete", "move"}

// String returns "update", "create", "delete" or "move" ("unknown" otherwise).
func (m Mode) String() string {
	if int(m) < len(modeNames) {
		return modeNames[m]
	}
	return "unknown"
}

// ParseMode returns the mode named name ("update", "create", "delete" or "move"); any
// other name is an *Error with CodeUnsupportedMode, never a silent update.
func ParseMode(name string) (Mode, error) {
	for i, n := range modeNames {
		if n == name {
			return Mode(i), nil
		}
	}
	return 0, statusError(CodeUnsupportedMode,
		"unsupported mode "+strconv.Quote(name)+": expected update, create, delete or move")
}

// Result is a successful apply to one file, copied into Go memory: the new text, the
// original source, where each hunk landed, and the change.
type Result struct {
	// Text is the new text (empty for a deleted file).
	Text string
	// Source is the original source, unchanged (empty for an added file): rolling back
	// writes this one field.
	Source string
	// Path is the file's path as written in the patch ("" for a bare diff).
	Path string
	// Destination is the "*** Move to:" destination as written in the patch ("" without
	// one).
	Destination string
	// Fuzz is the total fuzz of the file: the sum of its hunks'.
	Fuzz int
	// Hunks holds one report per hunk, in patch order (none for an added or deleted file).
	Hunks []HunkReport
	// Changes is the edit script: every run of changed lines, in file order.
	Changes []Change
	// Diff is the structured line diff, when Options.Diff asked for one (else nil): equal,
	// deleted and added lines with their line numbers, hunk and text, and character-level
	// segments when Options.Refine is set.
	Diff []DiffLine
}

// Changed reports whether the new text differs from the source.
func (r *Result) Changed() bool { return r.Text != r.Source }

// HunkReport says where one hunk landed and how well it matched.
type HunkReport struct {
	// OldStart is the first line of the original text the hunk covers (1-based). For a pure
	// insertion (OldLen 0), the line before which the new lines were inserted.
	OldStart int
	// OldLen is the number of original lines the hunk covers (context and removed).
	OldLen int
	// NewStart is the first line of the hunk in the new text (1-based).
	NewStart int
	// NewLen is the number of lines the hunk occupies in the new text (context and added).
	NewLen int
	// Level is the level its old side matched at.
	Level Level
	// LineLevels holds, for each old-side line (context and removed, in order), the
	// strictest level it matches at. For an already-applied hunk, the levels of its new
	// side.
	LineLevels []Level
	// Fuzz is the hunk's fuzz: its level's, its anchors', and 1000 for an end-of-file hunk
	// found elsewhere.
	Fuzz int
	// Candidates is the number of candidate places at the deciding level (more than 1 with
	// Options.FirstMatch, or when the patch makes the same edit in as many hunks as it has
	// places, which then take one place each in file order).
	Candidates int
	// Reindented: the added lines were re-indented to the file's indentation.
	Reindented bool
	// AlreadyApplied: the change was already present; nothing was changed.
	AlreadyApplied bool
	// EndOfFile: the hunk was placed at the end of the file.
	EndOfFile bool
	// OutOfOrder: the hunk was found before the previous hunk.
	OutOfOrder bool
	// Merged: the hunk was located in the base (ApplyWithBase, ApplyPatchWithBases) and
	// carried into the current text by a three-way merge; the ranges are in the current text.
	Merged bool
	// AnchorIgnored: the hunk's "@@" anchors did not help (not found, or found more than
	// once) and were set aside; its old side is unique where a hunk without anchors is
	// searched (200 fuzz).
	AnchorIgnored bool
	// ContextRelaxed: the hunk was found only with some context lines relaxed: they differ
	// from the file (whose lines are kept), every "-" line matches, and the place is unique
	// (300 fuzz per relaxed line).
	ContextRelaxed bool
	// PatchLine is the 1-based patch line where the hunk starts.
	PatchLine int
}

// DiffKind is the kind of a structured diff line or segment.
type DiffKind uint8

// The kinds of diff lines and segments.
const (
	// DiffEqual: unchanged.
	DiffEqual DiffKind = C.V4A_DIFF_EQUAL
	// DiffDelete: removed (old side only).
	DiffDelete DiffKind = C.V4A_DIFF_DELETE
	// DiffAdd: added (new side only).
	DiffAdd DiffKind = C.V4A_DIFF_ADD
)

// String returns "equal", "delete" or "add".
func (k DiffKind) String() string {
	switch k {
	case DiffEqual:
		return "equal"
	case DiffDelete:
		return "delete"
	case DiffAdd:
		return "add"
	}
	return "unknown"
}

// DiffLine is one entry of the structured line diff.
type DiffLine struct {
	// Kind is DiffEqual, DiffDelete or DiffAdd.
	Kind DiffKind
	// OldLine is the 1-based line in the original text; 0 for an added line.
	OldLine int
	// NewLine is the 1-based line in the new text; 0 for a deleted line.
	NewLine int
	// Hunk is the 1-based hunk the line belongs to (changed lines and the context lines of a
	// hunk); 0 for none.
	Hunk int
	// Text is the line's text, terminator excluded.
	Text string
	// Segments are the character-level changes within Text, when Options.Refine asked for
	// them and the line is paired with a rewrite of itself; nil otherwise.
	Segments []Segment
	// Count is set by RunsDiff only: the number of lines the entry stands for, 1 except for
	// an equal entry, which is a whole run of equal lines (of one hunk, or of none): original
	// lines OldLine to OldLine+Count-1, new lines from NewLine, and Text their text from the
	// first line's start to the last line's end, the terminators between them included (LF,
	// CRLF or lone CR, as in the file), the last one's excluded. 0 in the other styles: one
	// line.
	// ExpandRuns splits the runs into lines.
	Count int
}

// ExpandRuns returns the lines of a RunsDiff diff as FullDiff gives them: each run of equal
// lines split at its terminators (LF, CRLF, lone CR) into one DiffLine per line with
// consecutive line numbers, every entry with Count 0. The texts are substrings of the runs'.
func ExpandRuns(diff []DiffLine) []DiffLine {
	n := 0
	for i := range diff {
		n += max(diff[i].Count, 1)
	}
	out := make([]DiffLine, 0, n)
	for _, d := range diff {
		count := d.Count
		d.Count = 0
		rest := d.Text
		for j := 0; j < max(count, 1); j++ {
			line := d
			line.Text, rest = splitLine(rest)
			if j > 0 {
				line.OldLine, line.NewLine = next(d.OldLine, j), next(d.NewLine, j)
			}
			out = append(out, line)
		}
	}
	return out
}

// splitLine returns the first line of text (terminator excluded) and the text after its
// terminator (LF, CRLF or lone CR).
func splitLine(text string) (string, string) {
	i := strings.IndexAny(text, "\r\n")
	if i < 0 {
		return text, ""
	}
	if strings.HasPrefix(text[i:], "\r\n") {
		return text[:i], text[i+2:]
	}
	return text[:i], text[i+1:]
}

// next is line number n moved on by j, 0 (absent) staying 0.
func next(n, j int) int {
	if n == 0 {
		return 0
	}
	return n + j
}

// Segment is a character-level change of part of a line: Text[Start:End] of its DiffLine.
// Boundaries fall on grapheme clusters.
type Segment struct {
	// Kind is DiffEqual, DiffDelete or DiffAdd.
	Kind DiffKind
	// Start is the first byte offset in the line's text.
	Start int
	// End is the byte offset one past the segment.
	End int
}

// Change is a run of changed lines of the edit script: OldLen original lines from OldStart
// were replaced by NewLen new lines from NewStart (1-based, BOM excluded).
type Change struct {
	// OldStart is the first removed line; for a pure insertion, the line before which lines
	// were added.
	OldStart int
	// OldLen is the number of removed lines.
	OldLen int
	// NewStart is the first added line; for a pure deletion, the line the removed lines
	// would have preceded.
	NewStart int
	// NewLen is the number of added lines.
	NewLen int
	// Hunk is the 1-based hunk that made the change.
	Hunk int
}

// Apply applies a single-file diff to source and returns the new text with its reports.
//
// diff is a bare diff (hunks only) or a "*** Begin Patch" envelope naming exactly one file
// whose operation agrees with mode. opts may be nil for the defaults. On failure the error
// is an *Error; its Message is written for the model that produced the diff.
//
// Everything is copied into Go memory and the native result is freed before Apply returns.
// Apply may be called from any number of goroutines at once.
func Apply(source, diff string, mode Mode, opts *Options) (*Result, error) {
	sp, sl := strIn(source)
	dp, dl := strIn(diff)
	h, status, v, diffOpts, err := applyIn(sp, sl, dp, dl, mode, opts)
	if err != nil {
		return nil, err
	}
	return finish(h, status, &v, source, true, diffOpts)
}

// applyIn calls v4a_go_apply on (pointer, length) inputs and returns the live result (the
// caller frees it), its status, its views and the options of its structured diff (nil for
// none; see splitDiff); err is set only when opts is invalid (and then nothing was called).
func applyIn(sp *C.uint8_t, sl C.size_t, dp *C.uint8_t, dl C.size_t, mode Mode, opts *Options) (*C.v4a_result, C.v4a_status, C.v4a_go_views, *C.v4a_options, error) {
	var copts C.v4a_options
	var v C.v4a_go_views
	co, err := opts.toC(&copts)
	if err != nil {
		return nil, 0, v, nil, err
	}
	co, diffOpts := splitDiff(co)
	var h *C.v4a_result
	status := C.v4a_go_apply(sp, sl, dp, dl, C.uint32_t(mode), co, &h, &v)
	runtime.KeepAlive(sp)
	runtime.KeepAlive(dp)
	return h, status, v, diffOpts, nil
}

// ApplyBytes is Apply for byte slices (file contents as read from disk). Inputs that are
// not UTF-8 fail with ErrInvalidUTF8 and the offset of the first invalid byte. The inputs
// are only read during the call.
func ApplyBytes(source, diff []byte, mode Mode, opts *Options) (*Result, error) {
	sp, sl := bytesIn(source)
	dp, dl := bytesIn(diff)
	h, status, v, diffOpts, err := applyIn(sp, sl, dp, dl, mode, opts)
	if err != nil {
		return nil, err
	}
	return finish(h, status, &v, "", false, diffOpts)
}

// ApplyModeName is Apply with the mode given by name, as the one-file-per-call tool sends
// it ("update", "create", "delete" or "move"); any other name fails with
// ErrUnsupportedMode and a message for the model that names the valid modes.
func ApplyModeName(source, diff, mode string, opts *Options) (*Result, error) {
	sp, sl := strIn(source)
	dp, dl := strIn(diff)
	mp, ml := strIn(mode)
	var copts C.v4a_options
	co, err := opts.toC(&copts)
	if err != nil {
		return nil, err
	}
	co, diffOpts := splitDiff(co)
	var h *C.v4a_result
	var v C.v4a_go_views
	status := C.v4a_go_apply_mode_name(sp, sl, dp, dl, mp, ml, co, &h, &v)
	runtime.KeepAlive(sp)
	runtime.KeepAlive(dp)
	runtime.KeepAlive(mp)
	return finish(h, status, &v, source, true, diffOpts)
}

// finish turns a single-file result handle into a *Result or an *Error, and frees it; with
// diffOpts (see splitDiff) it reads the structured diff as columns first.
func finish(h *C.v4a_result, status C.v4a_status, v *C.v4a_go_views, source string,
	reuse bool, diffOpts *C.v4a_options) (*Result, error) {
	if h == nil {
		return nil, statusError(Code(status), "")
	}
	if status != C.V4A_STATUS_OK {
		err := errorFrom(v.error, status)
		C.v4a_result_free(h)
		return nil, err
	}
	r := resultFrom(v, source, reuse)
	if diffOpts != nil {
		lines, err := linesFrom(h, diffOpts, r)
		if err != nil {
			C.v4a_result_free(h)
			return nil, err
		}
		r.Diff = lines
	}
	C.v4a_result_free(h)
	return r, nil
}

// resultFrom copies every view of a successful result into Go memory. input is the source
// the caller passed (as a string) when reuse is true.
func resultFrom(v *C.v4a_go_views, input string, reuse bool) *Result {
	r := &Result{
		Text: goString(v.text),
		Fuzz: int(v.fuzz),
	}
	if reuse && int(v.source.len) == len(input) {
		r.Source = input
	} else {
		r.Source = goString(v.source)
	}
	r.Path = goString(v.path)
	r.Destination = goString(v.destination)

	if hunks := viewSlice(v.hunks.ptr, v.hunks.len); len(hunks) > 0 {
		total := 0
		for i := range hunks {
			total += int(hunks[i].line_levels.len)
		}
		levels := make([]Level, total)
		r.Hunks = make([]HunkReport, len(hunks))
		at := 0
		for i := range hunks {
			h := &hunks[i]
			lv := viewSlice(h.line_levels.ptr, h.line_levels.len)
			mine := levels[at : at+len(lv) : at+len(lv)]
			for k, l := range lv {
				mine[k] = Level(l)
			}
			at += len(lv)
			r.Hunks[i] = HunkReport{
				OldStart:       int(h.old_start),
				OldLen:         int(h.old_len),
				NewStart:       int(h.new_start),
				NewLen:         int(h.new_len),
				Level:          Level(h.level),
				LineLevels:     mine,
				Fuzz:           int(h.fuzz),
				Candidates:     int(h.candidates),
				Reindented:     h.flags&C.V4A_HUNK_REINDENTED != 0,
				AlreadyApplied: h.flags&C.V4A_HUNK_ALREADY_APPLIED != 0,
				EndOfFile:      h.flags&C.V4A_HUNK_END_OF_FILE != 0,
				OutOfOrder:     h.flags&C.V4A_HUNK_OUT_OF_ORDER != 0,
				Merged:         h.flags&C.V4A_HUNK_MERGED != 0,
				AnchorIgnored:  h.flags&C.V4A_HUNK_ANCHOR_IGNORED != 0,
				ContextRelaxed: h.flags&C.V4A_HUNK_CONTEXT_RELAXED != 0,
				PatchLine:      int(h.patch_line),
			}
		}
	}

	if changes := viewSlice(v.changes.ptr, v.changes.len); len(changes) > 0 {
		r.Changes = make([]Change, len(changes))
		for i := range changes {
			c := &changes[i]
			r.Changes[i] = Change{
				OldStart: int(c.old_start),
				OldLen:   int(c.old_len),
				NewStart: int(c.new_start),
				NewLen:   int(c.new_len),
				Hunk:     int(c.hunk),
			}
		}
	}

	if lines := viewSlice(v.diff.ptr, v.diff.len); len(lines) > 0 {
		var segs []Segment
		if cs := viewSlice(v.segments.ptr, v.segments.len); len(cs) > 0 {
			segs = make([]Segment, len(cs))
			for i := range cs {
				segs[i] = Segment{
					Kind:  DiffKind(cs[i].kind),
					Start: int(cs[i].start),
					End:   int(cs[i].end),
				}
			}
		}
		// All line texts in one allocation, each line a substring of it.
		total := 0
		for i := range lines {
			total += int(lines[i].text.len)
		}
		var all strings.Builder
		all.Grow(total)
		for i := range lines {
			if t := lines[i].text; t.len > 0 {
				all.Write(viewSlice((*byte)(t.ptr), t.len))
			}
		}
		text := all.String()
		r.Diff = make([]DiffLine, len(lines))
		at := 0
		for i := range lines {
			l := &lines[i]
			n := int(l.text.len)
			d := DiffLine{
				Kind:    DiffKind(l.kind),
				OldLine: int(l.old_line),
				NewLine: int(l.new_line),
				Hunk:    int(l.hunk),
				Text:    text[at : at+n],
			}
			at += n
			if s, c := int(l.segment_start), int(l.segment_count); c > 0 && s+c <= len(segs) {
				d.Segments = segs[s : s+c : s+c]
			}
			r.Diff[i] = d
		}
	}
	return r
}
