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
// Options choose the loosest match level, a fuzz limit, a structured line diff
// (Result.Diff) with character-level segments, and more. nil is the library's defaults;
// to change them, start from DefaultOptions (every field then means what it says, zero
// included: MaxLevel 0 is LevelExact, MaxFuzz 0 accepts no fuzz):
//
//	opts := v4a.DefaultOptions()
//	opts.MaxLevel = v4a.LevelExact
//	r, err = v4a.Apply(source, diff, v4a.ModeUpdate, opts)
//
// # Multi-file patches
//
// ParsePatch returns the operations (check Op.PathClass before writing anything), and
// ApplyPatch applies them atomically over sources you supply — a SourceMap, a SourceFunc
// reading files, anything implementing Sources — returning every file's result or one
// error. Writing the files is up to you. A Patch holds the native parsed patch: Close it
// when done (a finalizer frees a Patch that is never closed).
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
// call copies its results into Go memory and frees the native result before it returns;
// the one value that holds native memory is a Patch (Close). Inputs are read in place
// during the call, never kept. Every function may be called from any number of goroutines
// at once.
//
// # Building
//
// The package is a cgo binding: it needs CGO_ENABLED=1, a C compiler, and libv4a installed
// where pkg-config finds it (its v4a.pc, the header and the shared library, as
// `cmake --install` puts them):
//
//	go get github.com/v4a-dev/v4a/bindings/go
//	export PKG_CONFIG_PATH=$PREFIX/lib/pkgconfig   # when $PREFIX is not searched already
//	export LD_LIBRARY_PATH=$PREFIX/lib             # or an rpath, when the loader does not search it
//
// Without cgo the build stops at an identifier that says so; without the library,
// pkg-config says "Package v4a was not found". Inside the repository, the build tag
// v4a_intree links the static library of `cargo build --release` instead: the package's
// tests need it (go test -tags v4a_intree). See the README's Go section.
package v4a
