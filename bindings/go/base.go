package v4a

/*
#include "v4a_go.h"
*/
import "C"

import "runtime"

// ApplyWithBase is Apply for a diff written against base, the text the model saw (what the
// read tool returned), applied to source, the text as it is now.
//
// The hunks are located in base (the usual levels and rules apply there) and the change is
// carried into source by a three-way merge; those hunks report Merged, with their ranges in
// source. When base equals source, the result is exactly Apply's. A hunk whose lines were
// also changed in source since the base fails with ErrConflict; the *Error's Message shows
// the three versions of those lines and tells the model how to resend the hunk. A hunk not
// found in base is tried on source; when that fails too, the message says that the file
// changed since the model read it. An empty base is a base (the model saw an empty file):
// without one, call Apply. Modes create and delete do not use the base.
func ApplyWithBase(source, base, diff string, mode Mode, opts *Options) (*Result, error) {
	sp, sl := strIn(source)
	bp, bl := strIn(base)
	dp, dl := strIn(diff)
	var copts C.v4a_options
	co, err := opts.toC(&copts)
	if err != nil {
		return nil, err
	}
	co, diffOpts := splitDiff(co)
	var h *C.v4a_result
	var v C.v4a_go_views
	status := C.v4a_apply_with_base(sp, sl, bp, bl, dp, dl, C.uint32_t(mode), co, &h)
	if h != nil {
		C.v4a_go_read(h, &v)
	}
	runtime.KeepAlive(sp)
	runtime.KeepAlive(bp)
	runtime.KeepAlive(dp)
	return finish(h, status, &v, source, true, diffOpts)
}

// ApplyPatchWithBases is ApplyPatch for a patch written against bases, the texts the model
// saw, applied to sources, the texts as they are now; atomically.
//
// bases is asked for the base of every Update operation's path; a base that is not known
// (an error wrapping fs.ErrNotExist, or bases nil) leaves that file to the plain apply. Any
// other error stops the call and is returned as is. Files with a base are merged as
// ApplyWithBase does; a conflict in any file fails the whole patch with ErrConflict (the
// *Error's Path names the file) and nothing is applied.
func ApplyPatchWithBases(p *Patch, sources, bases Sources, opts *Options) (*PatchResult, error) {
	var out *PatchResult
	err := withSources(p, sources, func(h *C.v4a_patch, srcs *C.v4a_source, n C.size_t, inputs []string) error {
		var copts C.v4a_options
		co, err := opts.toC(&copts)
		if err != nil {
			return err
		}
		co, diffOpts := splitDiff(co)
		var pin runtime.Pinner
		defer pin.Unpin()
		bs, texts, err := basesFor(h, bases, &pin)
		if err != nil {
			return err
		}
		var first *C.v4a_source
		if len(bs) > 0 {
			first = &bs[0]
		}
		var set *C.v4a_result_set
		status := C.v4a_patch_apply_with_bases(h, srcs, n, first, C.size_t(len(bs)), co, &set)
		runtime.KeepAlive(bs)
		runtime.KeepAlive(texts)
		out, err = patchResultFrom(set, status, inputs, true, diffOpts)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// basesFor looks up the base of every Update operation (aligned with the operations; absent
// where unknown) and pins them for the C call. texts holds the strings, kept alive by the
// caller.
func basesFor(h *C.v4a_patch, bases Sources, pin *runtime.Pinner) ([]C.v4a_source, []string, error) {
	return textsFor(h, bases, pin, func(k OpKind) bool { return k == OpUpdate })
}
