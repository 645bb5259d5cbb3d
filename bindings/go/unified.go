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
// context lines of context, for logs and review; "" when nothing changed.
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
	var cp *C.v4a_change
	if len(changes) > 0 {
		cp = &changes[0]
	}
	sp, sn := strIn(r.Source)
	tp, tn := strIn(r.Text)
	pp, pn := strIn(r.Path)
	dp, dn := strIn(r.Destination)
	var t *C.v4a_text
	status := C.v4a_unified_diff(sp, sn, tp, tn, pp, pn, dp, dn, cp, C.size_t(len(changes)), C.uint32_t(ctx), &t)
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
