package v4a

/*
#include "v4a_go.h"
*/
import "C"

import (
	"errors"
	"io/fs"
	"runtime"
	"sync"
	"unsafe"
)

// OpKind is the kind of a file operation of a patch.
type OpKind uint8

// The file operations.
const (
	// OpAdd is "*** Add File": a new file from the "+" lines.
	OpAdd OpKind = C.V4A_OP_ADD
	// OpDelete is "*** Delete File".
	OpDelete OpKind = C.V4A_OP_DELETE
	// OpUpdate is "*** Update File", with an optional "*** Move to:" (a move is an update
	// with a MoveTo).
	OpUpdate OpKind = C.V4A_OP_UPDATE
)

// String returns "add", "delete" or "update".
func (k OpKind) String() string {
	switch k {
	case OpAdd:
		return "add"
	case OpDelete:
		return "delete"
	case OpUpdate:
		return "update"
	}
	return "unknown"
}

// PathClass classifies a path as written in a patch, so that a caller can refuse to write
// outside its workspace. Only PathRelative is safe to join to a root directory.
type PathClass uint8

// The path classes.
const (
	// PathRelative: relative, and stays inside the root ("src/a.rs", "a/../b").
	PathRelative PathClass = C.V4A_PATH_RELATIVE
	// PathAbsolute: absolute ("/etc/passwd", `\\server\share`).
	PathAbsolute PathClass = C.V4A_PATH_ABSOLUTE
	// PathParentEscape: relative but climbs out of the root with "..".
	PathParentEscape PathClass = C.V4A_PATH_PARENT_ESCAPE
	// PathEmpty: empty or only whitespace (also the MoveToClass of an operation without a
	// move).
	PathEmpty PathClass = C.V4A_PATH_EMPTY
	// PathNUL: contains a NUL byte.
	PathNUL PathClass = C.V4A_PATH_NUL
	// PathDrivePrefix: starts with a Windows drive prefix ("C:").
	PathDrivePrefix PathClass = C.V4A_PATH_DRIVE_PREFIX
)

// String returns "relative", "absolute", "parent_escape", "empty", "nul" or
// "drive_prefix".
func (c PathClass) String() string {
	switch c {
	case PathRelative:
		return "relative"
	case PathAbsolute:
		return "absolute"
	case PathParentEscape:
		return "parent_escape"
	case PathEmpty:
		return "empty"
	case PathNUL:
		return "nul"
	case PathDrivePrefix:
		return "drive_prefix"
	}
	return "unknown"
}

// Safe reports whether the path may be written under a root directory (PathRelative).
func (c PathClass) Safe() bool { return c == PathRelative }

// ClassifyPath classifies a path as written in a patch: relative and inside the root,
// absolute, escaping with "..", empty, containing NUL, or with a drive prefix. A path that
// is not UTF-8 is an *Error with CodeInvalidUTF8.
func ClassifyPath(path string) (PathClass, error) {
	p, n := strIn(path)
	var class C.uint32_t
	status := C.v4a_classify_path(p, n, &class)
	runtime.KeepAlive(p)
	if status != C.V4A_STATUS_OK {
		return 0, statusError(Code(status), "the path is not valid UTF-8")
	}
	return PathClass(class), nil
}

// Op is one file operation of a parsed patch.
type Op struct {
	// Kind is OpAdd, OpDelete or OpUpdate.
	Kind OpKind
	// Path is the file's path exactly as written ("" for a bare diff).
	Path string
	// MoveTo is the "*** Move to:" destination exactly as written ("" without one).
	MoveTo string
	// PathClass is the class of Path: refuse to write anything but PathRelative outside a
	// sandbox.
	PathClass PathClass
	// MoveToClass is the class of MoveTo (PathEmpty without one).
	MoveToClass PathClass
	// PatchLine is the 1-based patch line of the operation's header.
	PatchLine int
	// Hunks is the number of hunks (1 for an Add File, 0 for a Delete File).
	Hunks int
}

// Patch is a parsed multi-file patch: its operations, in patch order, and the native patch
// they were read from, which ApplyPatch and Reverse apply without parsing the text again.
//
// A Patch holds native memory: call Close when done with it (as C#'s Patch is disposed).
// Close is idempotent and safe while other goroutines still apply the patch (it waits for
// them); after Close, ApplyPatch and Reverse fail with ErrInvalidArgument, while Ops and
// Text stay readable. A Patch that is never closed is freed by a finalizer once it is
// unreachable, as a SafeHandle is, at a time the garbage collector chooses. A Patch may be
// applied from many goroutines at once.
type Patch struct {
	// Ops are the file operations in patch order.
	Ops []Op

	text string
	mu   sync.RWMutex // held for reading while h is used, for writing by Close
	h    *C.v4a_patch // nil once closed
}

// Text returns the patch text as it was parsed.
func (p *Patch) Text() string { return p.text }

// Close frees the native patch. It is idempotent, and waits for the ApplyPatch and Reverse
// calls that use the patch to return, so it must not be called from the Sources of one of
// them (nor may those Sources apply the same patch again). It always returns nil (it
// implements io.Closer).
func (p *Patch) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.h != nil {
		C.v4a_patch_free(p.h)
		p.h = nil
		runtime.SetFinalizer(p, nil)
	}
	return nil
}

// ParsePatch parses a patch ("*** Begin Patch" ... "*** End Patch", or a bare diff) into
// its file operations, accepting what models really send (CRLF, heredoc and Markdown
// wrappers, git headers where a file header may stand). A patch that does not parse is an
// *Error (ErrPatchSyntax or ErrTruncatedPatch with Line, ...). Close the Patch when done.
func ParsePatch(text string) (*Patch, error) { return parse(text, false) }

// ParsePatchStrict is ParsePatch accepting only the canonical form: the envelope, LF line
// endings, markers written exactly, no wrappers (what Grammar describes).
func ParsePatchStrict(text string) (*Patch, error) { return parse(text, true) }

func parse(text string, strict bool) (*Patch, error) {
	tp, tn := strIn(text)
	var h *C.v4a_patch
	var status C.v4a_status
	if strict {
		status = C.v4a_patch_parse_strict(tp, tn, &h)
	} else {
		status = C.v4a_patch_parse(tp, tn, &h)
	}
	runtime.KeepAlive(tp)
	if h == nil {
		return nil, statusError(Code(status), "")
	}
	if status != C.V4A_STATUS_OK {
		err := errorFrom(C.v4a_patch_error(h), status)
		C.v4a_patch_free(h)
		return nil, err
	}
	view := C.v4a_patch_ops(h)
	ops := viewSlice(view.ptr, view.len)
	p := &Patch{Ops: make([]Op, len(ops)), text: text, h: h}
	for i := range ops {
		o := &ops[i]
		p.Ops[i] = Op{
			Kind:        OpKind(o.kind),
			Path:        goString(o.path),
			MoveTo:      goString(o.move_to),
			PathClass:   PathClass(o.path_class),
			MoveToClass: PathClass(o.move_to_class),
			PatchLine:   int(o.patch_line),
			Hunks:       int(o.hunk_count),
		}
	}
	runtime.SetFinalizer(p, (*Patch).Close)
	return p, nil
}

// Sources supplies the current text of the files a patch reads (its Update and Delete
// operations). Use a SourceMap, a SourceFunc, or any type with this method.
type Sources interface {
	// Source returns the current text of the file at path (exactly as written in the
	// patch). For a file that does not exist it returns an error that wraps
	// fs.ErrNotExist: the patch then fails with ErrMissingSource if it reads the file. Any
	// other error stops ApplyPatch and is returned as is.
	Source(path string) (string, error)
}

// SourceMap is Sources held in a map from path (as written in the patch) to text.
type SourceMap map[string]string

// Source returns the text of path, or fs.ErrNotExist.
func (m SourceMap) Source(path string) (string, error) {
	if s, ok := m[path]; ok {
		return s, nil
	}
	return "", fs.ErrNotExist
}

// SourceFunc is Sources as a lookup function, for example one reading files under a root
// directory (os.ReadFile's errors wrap fs.ErrNotExist for a missing file).
type SourceFunc func(path string) (string, error)

// Source calls f(path).
func (f SourceFunc) Source(path string) (string, error) { return f(path) }

// PatchResult holds the result of every file operation of a patch that applied.
type PatchResult struct {
	// Files holds one result per file operation, in patch order.
	Files []FileResult
	// Summary is the summary other engines print, which models know: "Success. Updated the
	// following files:" then one "A path", "M path" or "D path" line per operation (a
	// move is "M destination").
	Summary string
}

// FileResult is the result of one file operation.
type FileResult struct {
	// Kind is OpAdd, OpDelete or OpUpdate.
	Kind OpKind
	// Path is the path as written in the patch.
	Path string
	// MoveTo is the destination when the file moves to another path ("" otherwise): write
	// the new text there and remove Path.
	MoveTo string
	// Result is the file's new text, original source and reports.
	Result *Result
}

// sourcesFor looks up the source of every operation that reads one (aligned with ops) and
// pins them for the C call. inputs holds the strings, kept alive by the caller.
func sourcesFor(h *C.v4a_patch, sources Sources, pin *runtime.Pinner) ([]C.v4a_source, []string, error) {
	return textsFor(h, sources, pin, func(k OpKind) bool { return k != OpAdd })
}

// textsFor asks texts for the path of every operation whose kind wants one (nil texts: none;
// a text that is not known, an error wrapping fs.ErrNotExist: absent) and pins them for the
// C call, aligned with the operations. The strings come back too, for the caller to keep
// alive.
func textsFor(h *C.v4a_patch, texts Sources, pin *runtime.Pinner, wants func(OpKind) bool) ([]C.v4a_source, []string, error) {
	view := C.v4a_patch_ops(h)
	ops := viewSlice(view.ptr, view.len)
	srcs := make([]C.v4a_source, len(ops))
	strs := make([]string, len(ops))
	for i := range ops {
		if texts == nil || !wants(OpKind(ops[i].kind)) {
			continue
		}
		text, err := texts.Source(goString(ops[i].path))
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			return nil, nil, err
		}
		strs[i] = text
		srcs[i].present = 1
		if len(text) > 0 {
			data := unsafe.StringData(text)
			pin.Pin(data)
			srcs[i].ptr = (*C.uint8_t)(unsafe.Pointer(data))
			srcs[i].len = C.size_t(len(text))
		}
	}
	return srcs, strs, nil
}

// withSources looks up the sources of p's native patch, then calls fn; the patch stays open
// and the sources pinned and alive during fn.
func withSources(p *Patch, sources Sources, fn func(h *C.v4a_patch, srcs *C.v4a_source, n C.size_t, inputs []string) error) error {
	if p == nil {
		return statusError(CodeNullArgument, "the patch is nil: parse it with ParsePatch")
	}
	p.mu.RLock()
	defer p.mu.RUnlock()
	if p.h == nil {
		return statusError(CodeInvalidArgument, "the patch is closed: parse it again (Close frees it)")
	}
	var pin runtime.Pinner
	defer pin.Unpin()
	srcs, inputs, err := sourcesFor(p.h, sources, &pin)
	if err != nil {
		return err
	}
	var first *C.v4a_source
	if len(srcs) > 0 {
		first = &srcs[0]
	}
	err = fn(p.h, first, C.size_t(len(srcs)), inputs)
	runtime.KeepAlive(srcs)
	runtime.KeepAlive(inputs)
	return err
}

// ApplyPatch applies every operation of a parsed patch, atomically: either every file's
// result comes back, or one *Error (whose Path names the file) and nothing else. sources
// supplies the files the patch reads (nil: none exist); opts may be nil for the defaults.
//
// Nothing is written anywhere: write each FileResult yourself (Add: create Path; Delete:
// remove Path; Update: write Result.Text to MoveTo when set, removing Path, else to Path).
func ApplyPatch(p *Patch, sources Sources, opts *Options) (*PatchResult, error) {
	return applyPatch(p, sources, opts, true)
}

// applyPatch is ApplyPatch; share says whether a result's Source may share the string the
// Sources returned (the library returns the source unchanged) instead of a copy of the
// library's view. Tests compare the two.
func applyPatch(p *Patch, sources Sources, opts *Options, share bool) (*PatchResult, error) {
	var out *PatchResult
	err := withSources(p, sources, func(h *C.v4a_patch, srcs *C.v4a_source, n C.size_t, inputs []string) error {
		var copts C.v4a_options
		co, err := opts.toC(&copts)
		if err != nil {
			return err
		}
		co, diffOpts := splitDiff(co)
		var set *C.v4a_result_set
		status := C.v4a_patch_apply(h, srcs, n, co, &set)
		out, err = patchResultFrom(set, status, inputs, share, diffOpts)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// patchResultFrom turns a result set handle into a *PatchResult or an *Error, and frees it.
// inputs are the sources the Sources returned, aligned with the operations; with diffOpts
// (see splitDiff) each file's structured diff is read as columns.
func patchResultFrom(set *C.v4a_result_set, status C.v4a_status, inputs []string, share bool, diffOpts *C.v4a_options) (*PatchResult, error) {
	if set == nil {
		return nil, statusError(Code(status), "")
	}
	defer C.v4a_result_set_free(set)
	if status != C.V4A_STATUS_OK {
		return nil, errorFrom(C.v4a_result_set_error(set), status)
	}
	view := C.v4a_result_set_files(set)
	files := viewSlice(view.ptr, view.len)
	out := &PatchResult{
		Files:   make([]FileResult, len(files)),
		Summary: goString(C.v4a_result_set_summary(set)),
	}
	var v C.v4a_go_views
	for i := range files {
		f := &files[i]
		C.v4a_go_read(f.result, &v)
		input := ""
		if i < len(inputs) {
			input = inputs[i]
		}
		r := resultFrom(&v, input, share)
		if diffOpts != nil {
			lines, err := linesFrom(f.result, diffOpts, r)
			if err != nil {
				return nil, err
			}
			r.Diff = lines
		}
		out.Files[i] = FileResult{
			Kind:   OpKind(f.kind),
			Path:   goString(f.path),
			MoveTo: goString(f.move_to),
			Result: r,
		}
	}
	return out, nil
}

// Reverse writes the patch that undoes p, given the sources p applies to: Add and Delete
// swapped, moves back, each update's change inverted, operations in reverse order. If p
// does not apply to the sources, Reverse fails with the same error ApplyPatch would.
func Reverse(p *Patch, sources Sources, opts *Options) (string, error) {
	var out string
	err := withSources(p, sources, func(h *C.v4a_patch, srcs *C.v4a_source, n C.size_t, _ []string) error {
		var copts C.v4a_options
		co, err := opts.toC(&copts)
		if err != nil {
			return err
		}
		var t *C.v4a_text
		status := C.v4a_patch_reverse(h, srcs, n, co, &t)
		out, err = textResult(t, status)
		return err
	})
	return out, err
}
