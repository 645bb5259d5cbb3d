package v4a

/*
#include "v4a_go.h"
*/
import "C"

import (
	"math"
	"strconv"
	"strings"
)

// Level is a match level: how loosely a patch line may equal a file line. Levels are
// ordered from strict to loose; a looser level adds to the hunk's fuzz. A Level is its
// V4A_LEVEL_* number of the C ABI (LevelExact is 0), the same number in every language.
type Level uint8

// The match levels, strictest first.
const (
	// LevelExact: bytes equal (line terminator excluded). Fuzz 0.
	LevelExact Level = C.V4A_LEVEL_EXACT
	// LevelTrimEnd: equal after removing trailing whitespace. Fuzz 1.
	LevelTrimEnd Level = C.V4A_LEVEL_TRIM_END
	// LevelTrim: equal after removing leading and trailing whitespace. Fuzz 10.
	LevelTrim Level = C.V4A_LEVEL_TRIM
	// LevelCollapse: trimmed, every internal whitespace run one space. Fuzz 50.
	LevelCollapse Level = C.V4A_LEVEL_COLLAPSE
	// LevelFold: collapsed after Unicode folding (NFKC, quotes, dashes, spaces, zero-width
	// characters). Fuzz 100.
	LevelFold Level = C.V4A_LEVEL_FOLD
)

// levelNames are the library's names of the levels (v4a_level_str), read once.
var levelNames = func() [LevelFold + 1]string {
	_ = abiChecked
	var names [LevelFold + 1]string
	for l := range names {
		names[l] = cString(C.v4a_level_str(C.uint32_t(l)))
	}
	return names
}()

// String returns the level's stable name, as the library names it (v4a_level_str):
// "exact", "trim_end", "trim", "collapse" or "fold" ("unknown" for a number that names no
// level).
func (l Level) String() string {
	if l <= LevelFold {
		return levelNames[l]
	}
	return "unknown"
}

// levelFuzz is the fuzz a match at each level adds. The C ABI has no getter for it:
// TestLevelFuzz checks this table against the fuzz the library reports for a match at each
// level.
var levelFuzz = [LevelFold + 1]int{0, 1, 10, 50, 100}

// Fuzz returns the fuzz a match at this level adds (0, 1, 10, 50, 100); 0 for a number that
// names no level.
func (l Level) Fuzz() int {
	if l <= LevelFold {
		return levelFuzz[l]
	}
	return 0
}

// ParseLevel returns the level named name ("exact", "trim_end", "trim", "collapse",
// "fold"), or an *Error with CodeInvalidArgument.
func ParseLevel(name string) (Level, error) {
	for l, n := range levelNames {
		if n == name {
			return Level(l), nil
		}
	}
	return 0, statusError(CodeInvalidArgument, "unknown match level "+strconv.Quote(name)+
		": expected "+strings.Join(levelNames[:LevelFold], ", ")+" or "+levelNames[LevelFold])
}

// checkLevel refuses numbers that name no level.
func checkLevel(l Level, what string) error {
	if l > LevelFold {
		return statusError(CodeInvalidArgument, what+" is "+strconv.Itoa(int(l))+
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

// RunsDiff is the DiffStyle that lists every line of the file as FullDiff does, but each run
// of equal lines (of one hunk, or of none) as one DiffLine whose Count is its number of lines:
// the cheap full diff. ExpandRuns turns it into the FullDiff lines.
func RunsDiff() DiffStyle { return DiffStyle{style: C.V4A_DIFF_STYLE_RUNS} }

// DefaultDiffContext is the customary number of unchanged lines shown before and after each
// change: the library's V4A_DEFAULT_DIFF_CONTEXT, for ChangesDiff and Result.UnifiedDiff.
const DefaultDiffContext = C.V4A_DEFAULT_DIFF_CONTEXT

// ChangesDiff is the DiffStyle that lists the changed lines with context unchanged lines
// around each change (0 for none; DefaultDiffContext is customary).
func ChangesDiff(context int) DiffStyle {
	return DiffStyle{style: C.V4A_DIFF_STYLE_CHANGES, context: clampU32(context)}
}

// String returns "none", "full", "runs" or "changes(N)".
func (d DiffStyle) String() string {
	switch d.style {
	case C.V4A_DIFF_STYLE_FULL:
		return "full"
	case C.V4A_DIFF_STYLE_RUNS:
		return "runs"
	case C.V4A_DIFF_STYLE_CHANGES:
		return "changes(" + strconv.FormatUint(uint64(d.context), 10) + ")"
	}
	return "none"
}

// NoFuzzLimit is the Options.MaxFuzz that accepts any total fuzz (the default).
const NoFuzzLimit = -1

// Options tune how patches are applied. Start from DefaultOptions, which holds the
// library's defaults (v4a_options_init), and set the fields you need; a nil *Options is the
// defaults too:
//
//	opts := v4a.DefaultOptions()
//	opts.MaxLevel = v4a.LevelExact // strict mode
//	opts.Diff = v4a.ChangesDiff(v4a.DefaultDiffContext)
//
// Every field means what it says, zero included: MaxLevel 0 is LevelExact and MaxFuzz 0
// accepts no fuzz. An Options not made by DefaultOptions has SearchBudget 0, which the
// library refuses (ErrInvalidArgument, saying to start from DefaultOptions).
type Options struct {
	// MaxLevel is the loosest match level tried: LevelExact is strict mode. Default
	// LevelFold (every level).
	MaxLevel Level
	// MaxFuzz is the largest total fuzz accepted for one file (ErrFuzzLimit above it): 0
	// accepts only matches without fuzz, NoFuzzLimit any (the default). Other negative
	// values are ErrInvalidArgument.
	MaxFuzz int
	// FirstMatch takes the first candidate instead of failing with ErrAmbiguous (older
	// engines' behaviour). Default false.
	FirstMatch bool
	// AlreadyAppliedIsError reports a hunk whose change is already present as
	// ErrAlreadyApplied instead of a no-op. Default false.
	AlreadyAppliedIsError bool
	// EnsureFinalNewline always ends the new text with a line terminator. Default false
	// (the file's final-newline state is kept).
	EnsureFinalNewline bool
	// AddFileLineEnding is the terminator "*** Add File" and ModeCreate write. Default LF.
	AddFileLineEnding LineEnding
	// Diff chooses the structured line diff of Result.Diff. Default none (the zero
	// DiffStyle).
	Diff DiffStyle
	// Refine adds character-level segments to the changed lines of the structured diff.
	// Default false.
	Refine bool
	// RefineLimits bound that refinement (the limits RefineLines takes). Default
	// DefaultOptions().RefineLimits.
	RefineLimits RefineLimits
	// SearchBudget bounds the search work per file, in line comparisons (ErrSearchBudget
	// above it); it must be greater than 0. Default 200,000,000.
	SearchBudget uint64
}

// defaultOptions is v4a_options_init's struct, read once.
var defaultOptions = func() C.v4a_options {
	_ = abiChecked
	var o C.v4a_options
	C.v4a_options_init(&o)
	return o
}()

// DefaultOptions returns the library's default options (v4a_options_init), a new value the
// caller may change.
func DefaultOptions() *Options {
	d := &defaultOptions
	o := &Options{
		MaxLevel:              Level(d.max_level),
		MaxFuzz:               NoFuzzLimit,
		FirstMatch:            d.first_match != 0,
		AlreadyAppliedIsError: d.already_applied_is_error != 0,
		EnsureFinalNewline:    d.ensure_final_newline != 0,
		AddFileLineEnding:     LineEnding(d.add_file_line_ending),
		Diff:                  DiffStyle{style: uint8(d.diff_style)},
		Refine:                d.refine != 0,
		RefineLimits: RefineLimits{
			MaxGraphemes: uint64(d.refine_max_graphemes),
			MaxCost:      uint64(d.refine_max_cost),
			MaxPairLines: uint64(d.refine_max_pair_lines),
		},
		SearchBudget: uint64(d.search_budget),
	}
	if d.max_fuzz != C.V4A_NO_FUZZ_LIMIT {
		o.MaxFuzz = int(d.max_fuzz)
	}
	if o.Diff.style == C.V4A_DIFF_STYLE_CHANGES {
		o.Diff.context = uint32(d.diff_context)
	}
	return o
}

// toC converts Options to the C struct; nil stays nil (the library's defaults). A field out
// of its range is an *Error with CodeInvalidArgument.
func (o *Options) toC(out *C.v4a_options) (*C.v4a_options, error) {
	if o == nil {
		return nil, nil
	}
	if err := checkLevel(o.MaxLevel, "Options.MaxLevel"); err != nil {
		return nil, err
	}
	if o.MaxFuzz < NoFuzzLimit {
		return nil, statusError(CodeInvalidArgument, "Options.MaxFuzz is "+
			strconv.Itoa(o.MaxFuzz)+": expected a fuzz of 0 or more, or NoFuzzLimit")
	}
	if o.AddFileLineEnding > CRLF {
		return nil, statusError(CodeInvalidArgument, "Options.AddFileLineEnding is "+
			strconv.Itoa(int(o.AddFileLineEnding))+": expected LF or CRLF")
	}
	if o.SearchBudget == 0 {
		return nil, statusError(CodeInvalidArgument, "Options.SearchBudget is 0: start from "+
			"v4a.DefaultOptions() (the library's defaults) and set the fields you need")
	}
	*out = defaultOptions
	out.max_level = C.uint32_t(o.MaxLevel)
	out.max_fuzz = C.V4A_NO_FUZZ_LIMIT
	if o.MaxFuzz != NoFuzzLimit {
		// A limit of MaxUint32 or more is no limit in practice, as V4A_NO_FUZZ_LIMIT is.
		out.max_fuzz = C.uint32_t(clampU32(o.MaxFuzz))
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
	out.refine_max_graphemes = C.uint64_t(o.RefineLimits.MaxGraphemes)
	out.refine_max_cost = C.uint64_t(o.RefineLimits.MaxCost)
	out.refine_max_pair_lines = C.uint64_t(o.RefineLimits.MaxPairLines)
	out.search_budget = C.uint64_t(o.SearchBudget)
	return out, nil
}

// GenerateOptions tune MakePatch and MakeMovePatch. Start from DefaultGenerateOptions (the
// library's defaults, v4a_generate_options_init); nil is the defaults too. Zero means zero.
type GenerateOptions struct {
	// Context is the number of unchanged lines shown before and after each change.
	// Default 3.
	Context int
	// MaxContext is the most context a hunk may grow to while it is made unique. Default
	// 50.
	MaxContext int
}

var defaultGenerateOptions = func() C.v4a_generate_options {
	_ = abiChecked
	var o C.v4a_generate_options
	C.v4a_generate_options_init(&o)
	return o
}()

// DefaultGenerateOptions returns the library's default generate options
// (v4a_generate_options_init), a new value the caller may change.
func DefaultGenerateOptions() *GenerateOptions {
	return &GenerateOptions{
		Context:    int(defaultGenerateOptions.context),
		MaxContext: int(defaultGenerateOptions.max_context),
	}
}

// toC converts GenerateOptions to the C struct; nil stays nil (the library's defaults). A
// negative count is an *Error with CodeInvalidArgument.
func (o *GenerateOptions) toC(out *C.v4a_generate_options) (*C.v4a_generate_options, error) {
	if o == nil {
		return nil, nil
	}
	if o.Context < 0 || o.MaxContext < 0 {
		return nil, statusError(CodeInvalidArgument, "GenerateOptions.Context is "+
			strconv.Itoa(o.Context)+" and MaxContext "+strconv.Itoa(o.MaxContext)+
			": expected 0 or more lines")
	}
	*out = defaultGenerateOptions
	out.context = C.uint32_t(clampU32(o.Context))
	out.max_context = C.uint32_t(clampU32(o.MaxContext))
	return out, nil
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
