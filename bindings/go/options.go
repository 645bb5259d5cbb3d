package v4a

/*
#include "v4a_go.h"
*/
import "C"

import (
	"math"
	"strconv"
)

// Level is a match level: how loosely a patch line may equal a file line. Levels are
// ordered from strict to loose; a looser level adds to the hunk's fuzz.
//
// The zero Level is not a level: in Options it means "the default" (LevelFold). A Level is
// its V4A_LEVEL_* value plus one.
type Level uint8

// The match levels, strictest first.
const (
	// LevelExact: bytes equal (line terminator excluded). Fuzz 0.
	LevelExact Level = C.V4A_LEVEL_EXACT + 1
	// LevelTrimEnd: equal after removing trailing whitespace. Fuzz 1.
	LevelTrimEnd Level = C.V4A_LEVEL_TRIM_END + 1
	// LevelTrim: equal after removing leading and trailing whitespace. Fuzz 10.
	LevelTrim Level = C.V4A_LEVEL_TRIM + 1
	// LevelCollapse: trimmed, every internal whitespace run one space. Fuzz 50.
	LevelCollapse Level = C.V4A_LEVEL_COLLAPSE + 1
	// LevelFold: collapsed after Unicode folding (NFKC, quotes, dashes, spaces, zero-width
	// characters). Fuzz 100.
	LevelFold Level = C.V4A_LEVEL_FOLD + 1
)

var levelNames = [...]string{"", "exact", "trim_end", "trim", "collapse", "fold"}

// String returns the level's stable name: "exact", "trim_end", "trim", "collapse" or
// "fold" ("default" for the zero Level, "unknown" otherwise).
func (l Level) String() string {
	switch {
	case l == 0:
		return "default"
	case int(l) < len(levelNames):
		return levelNames[l]
	}
	return "unknown"
}

// Fuzz returns the fuzz a match at this level adds (0, 1, 10, 50, 100); 0 for an unknown
// level.
func (l Level) Fuzz() int {
	switch l {
	case LevelTrimEnd:
		return 1
	case LevelTrim:
		return 10
	case LevelCollapse:
		return 50
	case LevelFold:
		return 100
	}
	return 0
}

// ParseLevel returns the level named name ("exact", "trim_end", "trim", "collapse",
// "fold"), or an *Error with CodeInvalidArgument.
func ParseLevel(name string) (Level, error) {
	for i, n := range levelNames {
		if i > 0 && n == name {
			return Level(i), nil
		}
	}
	return 0, statusError(CodeInvalidArgument,
		"unknown match level "+strconv.Quote(name)+": expected exact, trim_end, trim, collapse or fold")
}

// levelFromC converts a V4A_LEVEL_* value.
func levelFromC(v C.uint32_t) Level { return Level(v + 1) }

// levelToC converts a Level (not the zero Level) to its V4A_LEVEL_* value.
func levelToC(l Level) C.uint32_t { return C.uint32_t(l) - 1 }

// checkLevel refuses the zero Level and levels that name no constant.
func checkLevel(l Level) error {
	if l < LevelExact || l > LevelFold {
		return statusError(CodeInvalidArgument, "level is "+strconv.Itoa(int(l))+
			": expected LevelExact, LevelTrimEnd, LevelTrim, LevelCollapse or LevelFold")
	}
	return nil
}

// LineEnding is the line terminator that "*** Add File" (and ModeCreate) writes.
type LineEnding uint8

// The line endings of Options.AddFileLineEnding.
const (
	// LF writes "\n" (the default).
	LF LineEnding = C.V4A_LINE_ENDING_LF
	// CRLF writes "\r\n".
	CRLF LineEnding = C.V4A_LINE_ENDING_CRLF
)

// String returns "lf" or "crlf".
func (e LineEnding) String() string {
	switch e {
	case LF:
		return "lf"
	case CRLF:
		return "crlf"
	}
	return "unknown"
}

// DiffStyle chooses the structured line diff that Result.Diff returns. The zero DiffStyle
// computes none (the cheapest); use FullDiff or ChangesDiff.
type DiffStyle struct {
	style   uint8 // a V4A_DIFF_STYLE_* value
	context uint32
}

// The zero DiffStyle is V4A_DIFF_STYLE_NONE (this fails to compile otherwise).
var _ = [1]struct{}{}[C.V4A_DIFF_STYLE_NONE]

// FullDiff is the DiffStyle that lists every line of the file.
func FullDiff() DiffStyle { return DiffStyle{style: C.V4A_DIFF_STYLE_FULL} }

// ChangesDiff is the DiffStyle that lists the changed lines with context unchanged lines
// around each change (0 for none; 3 is customary).
func ChangesDiff(context int) DiffStyle {
	return DiffStyle{style: C.V4A_DIFF_STYLE_CHANGES, context: clampU32(context)}
}

// String returns "none", "full" or "changes(N)".
func (d DiffStyle) String() string {
	switch d.style {
	case C.V4A_DIFF_STYLE_FULL:
		return "full"
	case C.V4A_DIFF_STYLE_CHANGES:
		return "changes(" + strconv.FormatUint(uint64(d.context), 10) + ")"
	}
	return "none"
}

// NoFuzz is the Options.MaxFuzz that accepts only matches without fuzz.
const NoFuzz = -1

// Options tune how patches are applied. The zero value (and a nil *Options) is the default
// behaviour, so set only the fields you need:
//
//	opts := &v4a.Options{MaxLevel: v4a.LevelExact, Diff: v4a.ChangesDiff(3), Refine: true}
type Options struct {
	// MaxLevel is the loosest match level tried: LevelExact is strict mode. The zero value
	// means LevelFold (every level).
	MaxLevel Level
	// MaxFuzz is the largest total fuzz accepted for one file (ErrFuzzLimit above it). 0
	// means no limit (the default); NoFuzz (any negative value) accepts no fuzz at all.
	MaxFuzz int
	// FirstMatch takes the first candidate instead of failing with ErrAmbiguous (older
	// engines' behaviour).
	FirstMatch bool
	// AlreadyAppliedIsError reports a hunk whose change is already present as
	// ErrAlreadyApplied instead of a no-op.
	AlreadyAppliedIsError bool
	// EnsureFinalNewline always ends the new text with a line terminator (by default the
	// file's final-newline state is kept).
	EnsureFinalNewline bool
	// AddFileLineEnding is the terminator "*** Add File" and ModeCreate write (LF by
	// default).
	AddFileLineEnding LineEnding
	// Diff chooses the structured line diff of Result.Diff (none by default).
	Diff DiffStyle
	// Refine adds character-level segments to the changed lines of the structured diff.
	Refine bool
	// SearchBudget bounds the search work per file, in line comparisons (ErrSearchBudget
	// above it). 0 means the default, 200,000,000.
	SearchBudget uint64
}

// defaultOptions is v4a_options_init's struct, read once.
var defaultOptions = func() C.v4a_options {
	_ = abiChecked
	var o C.v4a_options
	C.v4a_options_init(&o)
	return o
}()

// toC converts Options to the C struct; nil stays nil (the library's defaults). A level or
// line ending that names no constant is an *Error with CodeInvalidArgument.
func (o *Options) toC(out *C.v4a_options) (*C.v4a_options, error) {
	if o == nil {
		return nil, nil
	}
	if o.MaxLevel > LevelFold {
		return nil, statusError(CodeInvalidArgument, "Options.MaxLevel is "+
			strconv.Itoa(int(o.MaxLevel))+": expected LevelExact ... LevelFold (or 0 for the default)")
	}
	if o.AddFileLineEnding > CRLF {
		return nil, statusError(CodeInvalidArgument, "Options.AddFileLineEnding is "+
			strconv.Itoa(int(o.AddFileLineEnding))+": expected LF or CRLF")
	}
	*out = defaultOptions
	if o.MaxLevel != 0 {
		out.max_level = levelToC(o.MaxLevel)
	}
	switch {
	case o.MaxFuzz < 0:
		out.max_fuzz = 0
	case o.MaxFuzz > 0:
		out.max_fuzz = C.uint32_t(clampU32(o.MaxFuzz)) // MaxUint32 is V4A_NO_FUZZ_LIMIT
	}
	out.first_match = cBool(o.FirstMatch)
	out.already_applied_is_error = cBool(o.AlreadyAppliedIsError)
	out.ensure_final_newline = cBool(o.EnsureFinalNewline)
	out.add_file_line_ending = C.uint32_t(o.AddFileLineEnding)
	out.diff_style = C.uint32_t(o.Diff.style)
	if o.Diff.style == C.V4A_DIFF_STYLE_CHANGES {
		out.diff_context = C.uint32_t(o.Diff.context)
	}
	out.refine = cBool(o.Refine)
	if o.SearchBudget != 0 {
		out.search_budget = C.uint64_t(o.SearchBudget)
	}
	return out, nil
}

// GenerateOptions tune MakePatch and MakeMovePatch. The zero value (and nil) is the
// default.
type GenerateOptions struct {
	// Context is the number of unchanged lines shown before and after each change. 0 means
	// the default, 3; a negative value means none.
	Context int
	// MaxContext is the most context a hunk may grow to while it is made unique. 0 means
	// the default, 50; a negative value means none.
	MaxContext int
}

var defaultGenerateOptions = func() C.v4a_generate_options {
	_ = abiChecked
	var o C.v4a_generate_options
	C.v4a_generate_options_init(&o)
	return o
}()

func (o *GenerateOptions) toC(out *C.v4a_generate_options) *C.v4a_generate_options {
	if o == nil {
		return nil
	}
	*out = defaultGenerateOptions
	if o.Context != 0 {
		out.context = C.uint32_t(clampU32(o.Context))
	}
	if o.MaxContext != 0 {
		out.max_context = C.uint32_t(clampU32(o.MaxContext))
	}
	return out
}

func cBool(b bool) C.uint32_t {
	if b {
		return 1
	}
	return 0
}

// clampU32 maps an int to 0..MaxUint32 (negative values to 0).
func clampU32(n int) uint32 {
	switch {
	case n < 0:
		return 0
	case uint64(n) > math.MaxUint32:
		return math.MaxUint32
	}
	return uint32(n)
}
