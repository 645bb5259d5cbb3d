package v4a

/*
#include "v4a_go.h"
*/
import "C"

// Code is a stable status code: the same number in Rust, C, Go and C#, never renumbered.
type Code uint32

// The status codes: the V4A_STATUS_* constants of the C ABI (TestHeaderCoverage checks that
// every one of include/v4a.h has its Code and sentinel).
const (
	// CodeOK is success; an *Error never carries it.
	CodeOK Code = C.V4A_STATUS_OK
	// CodeInvalidArgument: an argument is out of range or inconsistent (a multi-file patch
	// given to Apply, an unknown level or flavour, ...).
	CodeInvalidArgument Code = C.V4A_STATUS_INVALID_ARGUMENT
	// CodeNullArgument: a required pointer was NULL (not reachable from Go).
	CodeNullArgument Code = C.V4A_STATUS_NULL_ARGUMENT
	// CodeInvalidUTF8: an input is not UTF-8; Error.ByteOffset is the first invalid byte
	// and Error.Input names the input.
	CodeInvalidUTF8 Code = C.V4A_STATUS_INVALID_UTF8
	// CodePatchSyntax: the patch does not follow the V4A grammar; Error.Line is the line.
	CodePatchSyntax Code = C.V4A_STATUS_PATCH_SYNTAX
	// CodeTruncatedPatch: the patch starts with "*** Begin Patch" but has no
	// "*** End Patch".
	CodeTruncatedPatch Code = C.V4A_STATUS_TRUNCATED_PATCH
	// CodeUnsupportedMode: the mode is not update, create, delete or move.
	CodeUnsupportedMode Code = C.V4A_STATUS_UNSUPPORTED_MODE
	// CodeContextNotFound: a hunk's old side is nowhere in the file; the error has the
	// closest region and a corrected hunk.
	CodeContextNotFound Code = C.V4A_STATUS_CONTEXT_NOT_FOUND
	// CodeAnchorNotFound: an "@@" anchor line is nowhere in the file.
	CodeAnchorNotFound Code = C.V4A_STATUS_ANCHOR_NOT_FOUND
	// CodeAmbiguous: a hunk or anchor matches several places; the error lists every
	// candidate and a fix.
	CodeAmbiguous Code = C.V4A_STATUS_AMBIGUOUS
	// CodeOverlappingHunks: two hunks change the same lines.
	CodeOverlappingHunks Code = C.V4A_STATUS_OVERLAPPING_HUNKS
	// CodeAlreadyApplied: the change is already there (an error only with
	// Options.AlreadyAppliedIsError).
	CodeAlreadyApplied Code = C.V4A_STATUS_ALREADY_APPLIED
	// CodeFuzzLimit: the total fuzz exceeds Options.MaxFuzz.
	CodeFuzzLimit Code = C.V4A_STATUS_FUZZ_LIMIT
	// CodeSearchBudget: locating a hunk exceeded Options.SearchBudget.
	CodeSearchBudget Code = C.V4A_STATUS_SEARCH_BUDGET
	// CodeMissingSource: an operation reads a file the Sources do not have.
	CodeMissingSource Code = C.V4A_STATUS_MISSING_SOURCE
	// CodeDuplicatePath: two operations of one patch touch the same path.
	CodeDuplicatePath Code = C.V4A_STATUS_DUPLICATE_PATH
	// CodeInternal: a bug in v4a (a panic caught at the C boundary). Please report it.
	CodeInternal Code = C.V4A_STATUS_INTERNAL
	// CodeFileExists: an Add File or Move to names a file that already exists.
	CodeFileExists Code = C.V4A_STATUS_FILE_EXISTS
	// CodeConflict: base-aware apply: a hunk changes lines the current text also changed.
	CodeConflict Code = C.V4A_STATUS_CONFLICT
	// CodeChangedOnDisk: a file changed on disk after it was read; nothing was written.
	CodeChangedOnDisk Code = C.V4A_STATUS_CHANGED_ON_DISK
	// CodeUnsafePath: a path leaves the root or names version-control metadata.
	CodeUnsafePath Code = C.V4A_STATUS_UNSAFE_PATH
	// CodeLocked: another apply holds the root's lock.
	CodeLocked Code = C.V4A_STATUS_LOCKED
	// CodeInconsistentIndentation: the matched lines admit no consistent indentation map.
	CodeInconsistentIndentation Code = C.V4A_STATUS_INCONSISTENT_INDENTATION
	// CodeIOError: workspace layer (ApplyToDir): the operating system refused a read or a
	// write, a path needed as a file is a directory (or the reverse), or a read-only file
	// would be changed; DirError.Kind says which.
	CodeIOError Code = C.V4A_STATUS_IO_ERROR
)

// codeNames are the library's names of the codes it knows (v4a_status_str), indexed by
// code, read once: every code up to the first the library calls "UNKNOWN".
var codeNames = func() []string {
	_ = abiChecked
	var names []string
	for c := 0; c < 1<<16; c++ {
		n := cString(C.v4a_status_str(C.v4a_status(c)))
		if n == "UNKNOWN" || n == "" {
			return names
		}
		names = append(names, n)
	}
	return names
}()

// String returns the stable name of the code as the library names it (v4a_status_str:
// "AMBIGUOUS"), or "UNKNOWN" for a code the library does not know.
func (c Code) String() string {
	if uint64(c) < uint64(len(codeNames)) {
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
	name string // the library's name of the code
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
	// ErrIOError matches CodeIOError.
	ErrIOError error = newSentinel(CodeIOError)
	// ErrUnknown matches an *Error whose code this binding does not know (a newer library).
	ErrUnknown error = &sentinel{code: codeUnknown, name: "UNKNOWN"}
)

// sentinels indexes the sentinels by their code (nil for CodeOK and codes without one).
var sentinels = func() []error {
	var m []error
	for _, e := range []error{
		ErrInvalidArgument, ErrNullArgument, ErrInvalidUTF8, ErrPatchSyntax, ErrTruncatedPatch,
		ErrUnsupportedMode, ErrContextNotFound, ErrAnchorNotFound, ErrAmbiguous,
		ErrOverlappingHunks, ErrAlreadyApplied, ErrFuzzLimit, ErrSearchBudget, ErrMissingSource,
		ErrDuplicatePath, ErrInternal, ErrFileExists, ErrConflict, ErrChangedOnDisk,
		ErrUnsafePath, ErrLocked, ErrInconsistentIndentation, ErrIOError,
	} {
		c := int(e.(*sentinel).code)
		for len(m) <= c {
			m = append(m, nil)
		}
		m[c] = e
	}
	return m
}()

// sentinelOf is the sentinel of a code; ErrUnknown for a code without one.
func sentinelOf(c Code) error {
	if uint64(c) < uint64(len(sentinels)) && sentinels[c] != nil {
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
