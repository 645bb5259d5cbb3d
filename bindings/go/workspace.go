package v4a

/*
#include "v4a_go.h"
*/
import "C"

import (
	"runtime"
	"strings"
	"time"
)

// DirOptions says how ApplyToDir treats the files it meets. The zero value (or nil) is the
// library's defaults: write, no overwriting, read-only files and version-control metadata
// refused, a lock wait of DefaultLockWait, the engine's default Options.
type DirOptions struct {
	// DryRun computes everything and makes every check an apply makes before writing
	// (paths, ErrFileExists, read-only files), then writes nothing (a preview).
	DryRun bool
	// AllowOverwrite lets "*** Add File" and "*** Move to" replace an existing file
	// (default: ErrFileExists).
	AllowOverwrite bool
	// AllowReadOnly lets read-only files be changed and removed (default: ErrReadOnly).
	AllowReadOnly bool
	// AllowVCS lets paths inside .git/, .hg/, .svn/ be written (default: ErrUnsafePath).
	AllowVCS bool
	// LockWait is how long to wait for another apply on the same directory to finish before
	// failing with ErrLocked; 0 is DefaultLockWait. At most about 49 days.
	LockWait time.Duration
	// Engine holds the engine's options (levels, fuzz, line endings, the structured diff);
	// nil for the defaults.
	Engine *Options
	// Bases are the texts the model saw (what the read tool returned), asked for by the path
	// of every Update operation; those files' hunks are located in their base and merged into
	// the file as it is now (base-aware apply: ErrConflict when a hunk touches lines changed
	// since). A base that is not known (fs.ErrNotExist) leaves its file to the plain apply.
	Bases Sources
}

// DefaultLockWait is the library's default DirOptions.LockWait.
const DefaultLockWait = time.Duration(C.V4A_DEFAULT_LOCK_WAIT_MS) * time.Millisecond

// FileChange is what ApplyToDir did to a file (in a dry run, what it would do).
type FileChange uint8

// The changes of a file.
const (
	// ChangeAdded: a new file was created (or, when allowed, an existing one replaced).
	ChangeAdded FileChange = C.V4A_CHANGE_ADDED
	// ChangeModified: the file's content changed in place.
	ChangeModified FileChange = C.V4A_CHANGE_MODIFIED
	// ChangeMoved: the file moved to its destination (with or without edits).
	ChangeMoved FileChange = C.V4A_CHANGE_MOVED
	// ChangeDeleted: the file was removed.
	ChangeDeleted FileChange = C.V4A_CHANGE_DELETED
	// ChangeUnchanged: nothing to do (every hunk already applied, or an Add whose file
	// already holds that text); the file was not written.
	ChangeUnchanged FileChange = C.V4A_CHANGE_UNCHANGED
)

// String returns "added", "modified", "moved", "deleted" or "unchanged".
func (c FileChange) String() string {
	switch c {
	case ChangeAdded:
		return "added"
	case ChangeModified:
		return "modified"
	case ChangeMoved:
		return "moved"
	case ChangeDeleted:
		return "deleted"
	case ChangeUnchanged:
		return "unchanged"
	}
	return "unknown"
}

// Recovery says what was done about an earlier apply that a crash interrupted.
type Recovery uint8

// The recoveries.
const (
	// RecoveryNone: there was no interrupted apply.
	RecoveryNone Recovery = C.V4A_RECOVERY_NONE
	// RecoveryUndone: it had not committed; every file is as it was before it.
	RecoveryUndone Recovery = C.V4A_RECOVERY_UNDONE
	// RecoveryFinished: it had committed; every file is new and its cleanup is finished.
	RecoveryFinished Recovery = C.V4A_RECOVERY_FINISHED
)

// DirFile is the outcome of one file operation of ApplyToDir.
type DirFile struct {
	// Kind is OpAdd, OpDelete or OpUpdate.
	Kind OpKind
	// Change is what happened to the file.
	Change FileChange
	// Binary is true for a file that is not UTF-8 text (deleted or moved as bytes; Result
	// holds no text).
	Binary bool
	// Path is the path as written in the patch; MoveTo its "*** Move to" ("" without one).
	Path, MoveTo string
	// SourceKey is the file the operation names, root-relative with ".", ".." and links
	// resolved: one key per file whatever the patch's spelling.
	SourceKey string
	// TargetKey is where the new text went, in the same form ("" for a deletion).
	TargetKey string
	// Result is the engine's result: the new text, the original source, the reports.
	Result *Result
}

// DirResult is the outcome of ApplyToDir or RecoverDir.
type DirResult struct {
	// Files holds one outcome per file operation, in patch order (none for RecoverDir).
	Files []DirFile
	// Summary is the summary other engines print, which models know ("Success. Updated the
	// following files:" then "A path", "M path", "D path" lines; unchanged files and hunks
	// already applied said as such; control characters in paths escaped). "" for RecoverDir.
	Summary string
	// Written is true when files were written (false for a dry run or when nothing changed).
	Written bool
	// Recovery is what was done about an earlier interrupted apply (ApplyToDir recovers one
	// first).
	Recovery Recovery
	// Recovered lists the files of the recovered apply.
	Recovered []string
	// Notes are attributes that could not be kept and cleanup the next call will finish.
	Notes []string
}

// FailureKind says which kind of failure a *DirError is.
type FailureKind uint8

// The kinds of failure.
const (
	// FailurePatch: the patch does not apply or the files refuse it; Err.Code says why
	// (ErrContextNotFound, ErrUnsafePath, ErrFileExists, ErrChangedOnDisk, ErrLocked, ...).
	FailurePatch FailureKind = C.V4A_FAILURE_PATCH
	// FailurePathConflict (CodeIOError): a path the patch needs as a file is a directory or
	// a special file, or a directory it needs is a file.
	FailurePathConflict FailureKind = C.V4A_FAILURE_PATH_CONFLICT
	// FailureReadOnly (CodeIOError): a file the patch would change is read-only and
	// DirOptions.AllowReadOnly is off.
	FailureReadOnly FailureKind = C.V4A_FAILURE_READ_ONLY
	// FailureIO (CodeIOError): the operating system refused a read or a write.
	FailureIO FailureKind = C.V4A_FAILURE_IO
)

// DirError is the error of ApplyToDir and RecoverDir: the *Error (errors.As and the
// sentinels see it through Unwrap), the kind of failure, and whether an interrupted apply
// is left for RecoverDir. Unless NeedsRecovery, nothing was changed on disk.
type DirError struct {
	// Err is the error, with its Code and the message written for the model.
	Err *Error
	// Kind is the kind of failure; errors.Is(err, ErrPathConflict) and
	// errors.Is(err, ErrReadOnly) match the two I/O kinds a caller can act on.
	Kind FailureKind
	// NeedsRecovery is true when a rollback could not finish and the intent journal was
	// kept: call RecoverDir (or ApplyToDir again, which recovers first).
	NeedsRecovery bool
}

// Error returns the message.
func (e *DirError) Error() string { return e.Err.Message }

// Unwrap returns the *Error.
func (e *DirError) Unwrap() error { return e.Err }

// Is matches ErrPathConflict and ErrReadOnly by the kind of failure.
func (e *DirError) Is(target error) bool {
	switch target {
	case ErrPathConflict:
		return e.Kind == FailurePathConflict
	case ErrReadOnly:
		return e.Kind == FailureReadOnly
	}
	return false
}

// The two kinds of CodeIOError a caller can act on (errors.Is(err, ErrIOError) matches them
// too).
var (
	// ErrPathConflict matches a *DirError of kind FailurePathConflict.
	ErrPathConflict error = &sentinel{code: codeUnknown - 1, name: "PATH_CONFLICT"}
	// ErrReadOnly matches a *DirError of kind FailureReadOnly.
	ErrReadOnly error = &sentinel{code: codeUnknown - 2, name: "READ_ONLY"}
)

// ApplyToDir applies a parsed patch to the files under dir, through the library's workspace
// layer: every path is resolved under dir through directory handles (a path that is
// absolute, climbs out with "..", goes through a symbolic link out of dir or names .git/
// is ErrUnsafePath), every result is computed in memory first, then the files are replaced
// in one crash-safe transaction (an intent journal in dir/.v4a/, gone when the call returns)
// under dir's lock; a file changed on disk since it was read is ErrChangedOnDisk. Either
// every file is written or none is. opts may be nil for the defaults.
//
// A failure is a *DirError wrapping an *Error (errors.Is(err, v4a.ErrUnsafePath) works);
// failures of the operating system have CodeIOError.
func ApplyToDir(dir string, p *Patch, opts *DirOptions) (*DirResult, error) {
	if p == nil {
		return nil, statusError(CodeNullArgument, "the patch is nil: parse it with ParsePatch")
	}
	if opts == nil {
		opts = &DirOptions{}
	}
	if opts.LockWait < 0 || opts.LockWait/time.Millisecond > 1<<32-1 {
		return nil, statusError(CodeInvalidArgument, "DirOptions.LockWait is "+opts.LockWait.String()+
			": expected 0 (the default) up to about 49 days")
	}
	p.mu.RLock()
	defer p.mu.RUnlock()
	if p.h == nil {
		return nil, statusError(CodeInvalidArgument, "the patch is closed: parse it again (Close frees it)")
	}
	var pin runtime.Pinner
	defer pin.Unpin()
	var copts C.v4a_options
	engine, err := opts.Engine.toC(&copts)
	if err != nil {
		return nil, err
	}
	var wo C.v4a_workspace_options
	C.v4a_workspace_options_init(&wo)
	wo.dry_run = cBool(opts.DryRun)
	wo.allow_overwrite = cBool(opts.AllowOverwrite)
	wo.allow_read_only = cBool(opts.AllowReadOnly)
	wo.allow_vcs = cBool(opts.AllowVCS)
	if opts.LockWait > 0 {
		wo.lock_wait_ms = C.uint32_t(opts.LockWait / time.Millisecond)
	}
	if engine != nil {
		pin.Pin(engine)
		wo.engine = engine
	}
	var bs []C.v4a_source
	var texts []string
	if opts.Bases != nil {
		if bs, texts, err = basesFor(p.h, opts.Bases, &pin); err != nil {
			return nil, err
		}
	}
	var first *C.v4a_source
	if len(bs) > 0 {
		first = &bs[0]
	}
	root := []byte(dir)
	rp, rn := bytesIn(root)
	var r *C.v4a_workspace_result
	status := C.v4a_workspace_apply(rp, rn, p.h, first, C.size_t(len(bs)), &wo, &r)
	runtime.KeepAlive(root)
	runtime.KeepAlive(bs)
	runtime.KeepAlive(texts)
	return dirResultFrom(r, status)
}

// RecoverDir finishes or undoes an apply to dir that a crash interrupted (v4a recover):
// after it, every file of that apply is all old or all new, and the journal and the lock
// are gone. DirResult.Recovery says what was done (RecoveryNone: nothing to recover).
func RecoverDir(dir string) (*DirResult, error) {
	root := []byte(dir)
	rp, rn := bytesIn(root)
	var r *C.v4a_workspace_result
	status := C.v4a_workspace_recover(rp, rn, &r)
	runtime.KeepAlive(root)
	return dirResultFrom(r, status)
}

// dirResultFrom copies a workspace result into Go memory and frees it.
func dirResultFrom(r *C.v4a_workspace_result, status C.v4a_status) (*DirResult, error) {
	if r == nil {
		return nil, statusError(Code(status), "")
	}
	defer C.v4a_workspace_result_free(r)
	if status != C.V4A_STATUS_OK {
		return nil, &DirError{
			Err:           errorFrom(C.v4a_workspace_result_error(r), status),
			Kind:          FailureKind(C.v4a_workspace_result_failure(r)),
			NeedsRecovery: C.v4a_workspace_result_needs_recovery(r) == 1,
		}
	}
	view := C.v4a_workspace_result_files(r)
	files := viewSlice(view.ptr, view.len)
	out := &DirResult{
		Files:    make([]DirFile, len(files)),
		Summary:  goString(C.v4a_workspace_result_summary(r)),
		Written:  C.v4a_workspace_result_written(r) == 1,
		Recovery: Recovery(C.v4a_workspace_result_recovery(r)),
	}
	if notes := goString(C.v4a_workspace_result_notes(r)); notes != "" {
		out.Notes = strings.Split(notes, "\n")
	}
	rec := C.v4a_workspace_result_recovered(r)
	for _, b := range viewSlice(rec.ptr, rec.len) {
		out.Recovered = append(out.Recovered, goString(b))
	}
	var v C.v4a_go_views
	for i := range files {
		f := &files[i]
		C.v4a_go_read(f.result, &v)
		out.Files[i] = DirFile{
			Kind:      OpKind(f.kind),
			Change:    FileChange(f.change),
			Binary:    f.binary == 1,
			Path:      goString(f.path),
			MoveTo:    goString(f.move_to),
			SourceKey: goString(f.source_key),
			TargetKey: goString(f.target_key),
			Result:    resultFrom(&v, "", false),
		}
	}
	return out, nil
}
