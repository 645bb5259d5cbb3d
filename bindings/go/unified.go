package v4a

/*
#include "v4a_go.h"
*/
import "C"

import (
	"math"
	"runtime"
)

// UnifiedDiff renders the change as a unified diff ("---"/"+++"/"@@ -a,b +c,d @@") with
// context lines of context (DefaultDiffContext is customary), for logs and review; "" when
// nothing changed.
//
// The library renders it (v4a_unified_diff) from the result's Source, Text, Path,
// Destination and Changes, so it works after the native result is gone and reads exactly
// like the library's own rendering.
func (r *Result) UnifiedDiff(context int) string {
	if !r.Changed() {
		return ""
	}
	ctx := uint32(min(max(context, 0), math.MaxUint32))
	changes := make([]C.v4a_change, len(r.Changes))
	for i, c := range r.Changes {
		changes[i] = C.v4a_change{
			old_start: C.uint32_t(c.OldStart),
			old_len:   C.uint32_t(c.OldLen),
			new_start: C.uint32_t(c.NewStart),
			new_len:   C.uint32_t(c.NewLen),
			hunk:      C.uint32_t(c.Hunk),
		}
	}
	// The input struct holds pointers into Go memory: cgo lets C read them only while they
	// are pinned.
	var pins runtime.Pinner
	defer pins.Unpin()
	view := func(s string) C.v4a_bytes {
		p, n := strIn(s)
		if p != nil {
			pins.Pin(p)
		}
		return C.v4a_bytes{ptr: p, len: n}
	}
	input := C.v4a_unified_diff_input{
		source:      view(r.Source),
		text:        view(r.Text),
		path:        view(r.Path),
		destination: view(r.Destination),
		context:     C.uint32_t(ctx),
	}
	if len(changes) > 0 {
		pins.Pin(&changes[0])
		input.changes = C.v4a_changes{ptr: &changes[0], len: C.size_t(len(changes))}
	}
	var t *C.v4a_text
	status := C.v4a_unified_diff(&input, &t)
	runtime.KeepAlive(r)
	runtime.KeepAlive(changes)
	s, err := textResult(t, status)
	if err != nil {
		// Only reachable with a Result not made by this package (the parts came from the
		// library, so they are valid UTF-8 and consistent).
		return ""
	}
	return s
}
