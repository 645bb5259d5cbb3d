// Package v4a applies V4A patches — the anchored, line-number-free edit format that language
// models emit through tool calls ("*** Begin Patch" … "*** End Patch") — to text held in
// memory, and returns the patched text with a structured account of every change. It never
// touches the disk.
//
// The edit lands where the model meant, or not at all: a hunk that could match two places is
// an ErrAmbiguous error listing both places and the anchor that would disambiguate it. Every
// byte the patch did not mean to change survives (line terminators, the BOM, the final
// newline, indentation style, typography). Errors are written for the model: send
// err.Error() back as the tool result.
//
// # Single file
//
//	r, err := v4a.Apply(source, diff, v4a.ModeUpdate, nil)
//	if err != nil {
//		return err.Error() // for the model
//	}
//	_ = r.Text   // the new text; r.Source is the original, for rollback
//	_ = r.Hunks  // where each hunk landed, at which match level, with how much fuzz
//
// Options (nil, or the zero value, is the default) choose the loosest match level, a fuzz
// limit, a structured line diff (Result.Diff) with character-level segments, and more.
//
// # Multi-file patches
//
// ParsePatch returns the operations (check Op.PathClass before writing anything), and
// ApplyPatch applies them atomically over sources you supply — a SourceMap, a SourceFunc
// reading files, anything implementing Sources — returning every file's result or one
// error. Writing the files is up to you.
//
// # Errors
//
// Every failure is an *Error with a stable Code and structured diagnostics (patch line,
// hunk, path, candidate lines, suggested fix, corrected hunk). Match categories with
// errors.Is and the sentinels (ErrAmbiguous, ErrContextNotFound, ...).
//
// # Memory and goroutines
//
// This package is a thin layer over the C ABI of the Rust library (include/v4a.h). Every
// call copies its results into Go memory and frees the native result before it returns:
// there is nothing to close and no finalizer. Inputs are read in place during the call,
// never kept. Every function may be called from any number of goroutines at once.
//
// # Building
//
// By default the package links the static library built in the repository:
//
//	cargo build --release   # in the repository root, once (and after every change)
//
// With the build tag v4a_system it links an installed library found with pkg-config
// instead (go build -tags v4a_system). See the README's Go section.
package v4a
