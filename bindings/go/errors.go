package v4a

/*
#include "v4a_go.h"
*/
import "C"

// Code is a stable status code: the same number in Rust, C, Go and C#, never renumbered.
type Code uint32

// The status codes: the V4A_STATUS_* constants of the C ABI (TestHeaderCoverage checks every
// one against include/v4a.h).
const (
	// CodeOK is success; an *Error never carries it.
	CodeOK Code = 0
	// CodeInvalidArgument: an argument is out of range or inconsistent (a multi-file patch
	// given to Apply, an unknown level or flavour, ...).
	CodeInvalidArgument Code = 1
	// CodeNullArgument: a required pointer was NULL (not reachable from Go).
	CodeNullArgument Code = 2
	// CodeInvalidUTF8: an input is not UTF-8; Error.ByteOffset is the first invalid byte
	// and Error.Input names the input.
	CodeInvalidUTF8 Code = 3
	// CodePatchSyntax: the patch does not follow the V4A grammar; Error.Line is the line.
	CodePatchSyntax Code = 4
	// CodeTruncatedPatch: the patch starts with "*** Begin Patch" but has no
	// "*** End Patch".
	CodeTruncatedPatch Code = 5
	// CodeUnsupportedMode: the mode is not update, create, delete or move.
	CodeUnsupportedMode Code = 6
	// CodeContextNotFound: a hunk's old side is nowhere in the file; the error has the
	// closest region and a corrected hunk.
	CodeContextNotFound Code = 7
	// CodeAnchorNotFound: an "@@" anchor line is nowhere in the file.
	CodeAnchorNotFound Code = 8
	// CodeAmbiguous: a hunk or anchor matches several places; the error lists every
	// candidate and a fix.
	CodeAmbiguous Code = 9
	// CodeOverlappingHunks: two hunks change the same lines.
	CodeOverlappingHunks Code = 10
	// CodeAlreadyApplied: the change is already there (an error only with
	// Options.AlreadyAppliedIsError).
	CodeAlreadyApplied Code = 11
	// CodeFuzzLimit: the total fuzz exceeds Options.MaxFuzz.
	CodeFuzzLimit Code = 12
	// CodeSearchBudget: locating a hunk exceeded Options.SearchBudget.
	CodeSearchBudget Code = 13
	// CodeMissingSource: an operation reads a file the Sources do not have.
	CodeMissingSource Code = 14
	// CodeDuplicatePath: two operations of one patch touch the same path.
	CodeDuplicatePath Code = 15
	// CodeInternal: a bug in v4a (a panic caught at the C boundary). Please report it.
	CodeInternal Code = 16
	// CodeFileExists: an Add File or Move to names a file that already exists.
	CodeFileExists Code = 17
	// CodeConflict: base-aware apply: a hunk changes lines the current text also changed.
	CodeConflict Code = 18
	// CodeChangedOnDisk: a file changed on disk after it was read; nothing was written.
	CodeChangedOnDisk Code = 19
	// CodeUnsafePath: a path leaves the root or names version-control metadata.
	CodeUnsafePath Code = 20
	// CodeLocked: another apply holds the root's lock.
	CodeLocked Code = 21
	// CodeInconsistentIndentation: the matched lines admit no consistent indentation map.
	CodeInconsistentIndentation Code = 22
)

// codeNames are the stable names of the codes (v4a_status_str), indexed by code.
var codeNames = [...]string{
	"OK", "INVALID_ARGUMENT", "NULL_ARGUMENT", "INVALID_UTF8", "PATCH_SYNTAX",
	"TRUNCATED_PATCH", "UNSUPPORTED_MODE", "CONTEXT_NOT_FOUND", "ANCHOR_NOT_FOUND",
	"AMBIGUOUS", "OVERLAPPING_HUNKS", "ALREADY_APPLIED", "FUZZ_LIMIT", "SEARCH_BUDGET",
	"MISSING_SOURCE", "DUPLICATE_PATH", "INTERNAL", "FILE_EXISTS", "CONFLICT",
	"CHANGED_ON_DISK", "UNSAFE_PATH", "LOCKED", "INCONSISTENT_INDENTATION",
}

// String returns the stable name of the code ("AMBIGUOUS"), or "UNKNOWN" for a code this
// binding does not know.
func (c Code) String() string {
	if int(c) < len(codeNames) {
		return codeNames[c]
	}
	return "UNKNOWN"
}

// Category returns a one-line description of the code's category ("ambiguous match"), as
// the library words it.
func (c Code) Category() string {
	return cString(C.v4a_status_category(C.v4a_status(c)))
}

// Error is every failure v4a reports: a stable Code, a Message written for the model that
// produced the patch (ready to send back as the tool result), and structured diagnostics.
// Fields that do not apply are zero (ByteOffset is -1).
//
// Match it by category with errors.Is and the sentinels (errors.Is(err, v4a.ErrAmbiguous)),
// or read its fields with errors.As.
type Error struct {
	// Code is the stable status code.
	Code Code
	// Message is the message written for the model, with the fix when there is one.
	Message string
	// Line is the 1-based line of the patch text (as given) where the problem is; 0 when
	// absent.
	Line int
	// Hunk is the 1-based number of the failing hunk within its file operation; 0 when
	// absent.
	Hunk int
	// Path is the file of the failing operation, exactly as written in the patch; "" for a
	// bare diff or an error that concerns no file.
	Path string
	// Candidates are the 1-based file lines of every candidate place (ambiguity, overlap).
	Candidates []int
	// Suggestion is a concrete fix for an ambiguity: an anchor or context line that makes
	// the hunk unique.
	Suggestion string
	// CorrectedHunk is, for not-found errors, the hunk rewritten with the file's real lines,
	// ready to resend.
	CorrectedHunk string
	// Closest is, for not-found errors, the region of the file most like the hunk; nil when
	// absent.
	Closest *Region
	// ByteOffset is, for CodeInvalidUTF8, the offset of the first invalid byte in the input
	// named by Input; -1 when absent.
	ByteOffset int64
	// Input names the input at fault for CodeInvalidUTF8 ("source", "patch", ...).
	Input string
}

// Region is a range of lines of a file: the closest match of a hunk that was not found.
type Region struct {
	// StartLine is the first line (1-based).
	StartLine int
	// EndLine is the last line (1-based, inclusive).
	EndLine int
	// Similarity is how similar the region is to the hunk's old side, from 0 to 1.
	Similarity float64
}

// Error returns the message, written for the model that produced the patch.
func (e *Error) Error() string {
	return e.Message
}

// Is reports whether target is the sentinel of e's code (ErrUnknown for a code without
// one), so that errors.Is(err, v4a.ErrAmbiguous) works.
func (e *Error) Is(target error) bool {
	s, ok := target.(*sentinel)
	if !ok {
		return false
	}
	return s == sentinelOf(e.Code)
}

// sentinel is the type of the Err* values: a category of *Error, matched by errors.Is.
type sentinel struct {
	code Code
	name string
}

func (s *sentinel) Error() string {
	if s.code == codeUnknown {
		return "v4a: unknown error"
	}
	return "v4a: " + s.name
}

// codeUnknown marks ErrUnknown, which stands for every code without a sentinel.
const codeUnknown Code = ^Code(0)

func newSentinel(c Code) *sentinel { return &sentinel{code: c, name: c.String()} }

// Sentinels, one per status code: errors.Is(err, ErrAmbiguous) is true when err is (or
// wraps) an *Error with CodeAmbiguous.
var (
	// ErrInvalidArgument matches CodeInvalidArgument.
	ErrInvalidArgument error = newSentinel(CodeInvalidArgument)
	// ErrNullArgument matches CodeNullArgument.
	ErrNullArgument error = newSentinel(CodeNullArgument)
	// ErrInvalidUTF8 matches CodeInvalidUTF8.
	ErrInvalidUTF8 error = newSentinel(CodeInvalidUTF8)
	// ErrPatchSyntax matches CodePatchSyntax.
	ErrPatchSyntax error = newSentinel(CodePatchSyntax)
	// ErrTruncatedPatch matches CodeTruncatedPatch.
	ErrTruncatedPatch error = newSentinel(CodeTruncatedPatch)
	// ErrUnsupportedMode matches CodeUnsupportedMode.
	ErrUnsupportedMode error = newSentinel(CodeUnsupportedMode)
	// ErrContextNotFound matches CodeContextNotFound.
	ErrContextNotFound error = newSentinel(CodeContextNotFound)
	// ErrAnchorNotFound matches CodeAnchorNotFound.
	ErrAnchorNotFound error = newSentinel(CodeAnchorNotFound)
	// ErrAmbiguous matches CodeAmbiguous.
	ErrAmbiguous error = newSentinel(CodeAmbiguous)
	// ErrOverlappingHunks matches CodeOverlappingHunks.
	ErrOverlappingHunks error = newSentinel(CodeOverlappingHunks)
	// ErrAlreadyApplied matches CodeAlreadyApplied.
	ErrAlreadyApplied error = newSentinel(CodeAlreadyApplied)
	// ErrFuzzLimit matches CodeFuzzLimit.
	ErrFuzzLimit error = newSentinel(CodeFuzzLimit)
	// ErrSearchBudget matches CodeSearchBudget.
	ErrSearchBudget error = newSentinel(CodeSearchBudget)
	// ErrMissingSource matches CodeMissingSource.
	ErrMissingSource error = newSentinel(CodeMissingSource)
	// ErrDuplicatePath matches CodeDuplicatePath.
	ErrDuplicatePath error = newSentinel(CodeDuplicatePath)
	// ErrInternal matches CodeInternal.
	ErrInternal error = newSentinel(CodeInternal)
	// ErrFileExists matches CodeFileExists.
	ErrFileExists error = newSentinel(CodeFileExists)
	// ErrConflict matches CodeConflict.
	ErrConflict error = newSentinel(CodeConflict)
	// ErrChangedOnDisk matches CodeChangedOnDisk.
	ErrChangedOnDisk error = newSentinel(CodeChangedOnDisk)
	// ErrUnsafePath matches CodeUnsafePath.
	ErrUnsafePath error = newSentinel(CodeUnsafePath)
	// ErrLocked matches CodeLocked.
	ErrLocked error = newSentinel(CodeLocked)
	// ErrInconsistentIndentation matches CodeInconsistentIndentation.
	ErrInconsistentIndentation error = newSentinel(CodeInconsistentIndentation)
	// ErrUnknown matches an *Error whose code this binding does not know (a newer library).
	ErrUnknown error = &sentinel{code: codeUnknown, name: "UNKNOWN"}
)

var sentinels = [...]error{
	nil, ErrInvalidArgument, ErrNullArgument, ErrInvalidUTF8, ErrPatchSyntax,
	ErrTruncatedPatch, ErrUnsupportedMode, ErrContextNotFound, ErrAnchorNotFound, ErrAmbiguous,
	ErrOverlappingHunks, ErrAlreadyApplied, ErrFuzzLimit, ErrSearchBudget, ErrMissingSource,
	ErrDuplicatePath, ErrInternal, ErrFileExists, ErrConflict, ErrChangedOnDisk, ErrUnsafePath,
	ErrLocked, ErrInconsistentIndentation,
}

// sentinelOf is the sentinel of a code; ErrUnknown for a code without one.
func sentinelOf(c Code) error {
	if c != CodeOK && int(c) < len(sentinels) {
		return sentinels[c]
	}
	return ErrUnknown
}

// errorFrom copies a C error into Go memory. status is used when the error is NULL (a call
// that reports only a status).
func errorFrom(e *C.v4a_error, status C.v4a_status) *Error {
	if e == nil {
		return statusError(Code(status), "")
	}
	out := &Error{
		Code:          Code(e.status),
		Message:       goString(e.message),
		Line:          int(e.patch_line),
		Hunk:          int(e.hunk),
		Path:          goString(e.path),
		Suggestion:    goString(e.suggestion),
		CorrectedHunk: goString(e.corrected_hunk),
		Input:         goString(e.input),
		ByteOffset:    -1,
	}
	if e.byte_offset != C.V4A_NO_OFFSET {
		out.ByteOffset = int64(e.byte_offset)
	}
	if cands := viewSlice(e.candidates.ptr, e.candidates.len); len(cands) > 0 {
		out.Candidates = make([]int, len(cands))
		for i, c := range cands {
			out.Candidates[i] = int(c)
		}
	}
	if e.closest_start != 0 {
		out.Closest = &Region{
			StartLine:  int(e.closest_start),
			EndLine:    int(e.closest_end),
			Similarity: float64(e.closest_similarity),
		}
	}
	return out
}

// statusError is an *Error for a call that reports only a status code (or none at all).
func statusError(c Code, what string) *Error {
	msg := what
	switch {
	case c == CodeInternal:
		msg = "internal error in v4a (a panic was caught at the C boundary): please report it"
		if what != "" {
			msg += " (" + what + ")"
		}
	case msg == "":
		msg = c.String() + ": " + c.Category()
	}
	return &Error{Code: c, Message: msg, ByteOffset: -1}
}
