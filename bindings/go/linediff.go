package v4a

// The structured diff read as columns (v4a_result_line_diff): the apply itself computes no
// diff, and each DiffLine's Text is a substring of the Result's Text or Source, so no line is
// copied on either side of the boundary.

/*
#include "v4a_go.h"
*/
import "C"

import "unsafe"

// splitDiff takes the structured diff out of the apply's options: when co asks for one, the
// apply runs with V4A_DIFF_STYLE_NONE and the second result keeps the full options for
// v4a_result_line_diff; otherwise it is nil.
func splitDiff(co *C.v4a_options) (*C.v4a_options, *C.v4a_options) {
	if co == nil || co.diff_style == C.V4A_DIFF_STYLE_NONE {
		return co, nil
	}
	// Allocated only here: an apply without a diff stays at its few allocations.
	diff := new(C.v4a_options)
	*diff = *co
	co.diff_style = C.V4A_DIFF_STYLE_NONE
	return co, diff
}

// linesFrom reads the structured diff of the live result h (in the style diffOpts asks for)
// into DiffLines whose texts are substrings of r.Text and r.Source.
func linesFrom(h *C.v4a_result, diffOpts *C.v4a_options, r *Result) ([]DiffLine, error) {
	var d *C.v4a_line_diff
	status := C.v4a_result_line_diff(h, diffOpts, C.V4A_UNITS_BYTES, &d)
	if d == nil {
		return nil, statusError(Code(status), "v4a_result_line_diff")
	}
	defer C.v4a_line_diff_free(d)
	if status != C.V4A_STATUS_OK {
		return nil, errorFrom(C.v4a_line_diff_error(d), status)
	}
	c := C.v4a_line_diff_columns(d)
	n := int(c.len)
	if n == 0 {
		return nil, nil
	}
	kinds := unsafe.Slice((*uint8)(unsafe.Pointer(c.kinds)), n)
	oldLines := unsafe.Slice((*uint32)(unsafe.Pointer(c.old_lines)), n)
	newLines := unsafe.Slice((*uint32)(unsafe.Pointer(c.new_lines)), n)
	hunks := unsafe.Slice((*uint32)(unsafe.Pointer(c.hunks)), n)
	starts := unsafe.Slice((*uintptr)(unsafe.Pointer(c.starts)), n)
	ends := unsafe.Slice((*uintptr)(unsafe.Pointer(c.ends)), n)
	segStarts := unsafe.Slice((*uint32)(unsafe.Pointer(c.segment_starts)), n)
	segCounts := unsafe.Slice((*uint32)(unsafe.Pointer(c.segment_counts)), n)
	var counts []uint32
	if diffOpts.diff_style == C.V4A_DIFF_STYLE_RUNS {
		counts = unsafe.Slice((*uint32)(unsafe.Pointer(c.counts)), n)
	}
	var segs []Segment
	if cs := viewSlice(c.segments.ptr, c.segments.len); len(cs) > 0 {
		segs = make([]Segment, len(cs))
		for i := range cs {
			segs[i] = Segment{Kind: DiffKind(cs[i].kind), Start: int(cs[i].start), End: int(cs[i].end)}
		}
	}
	lines := make([]DiffLine, n)
	for i := 0; i < n; i++ {
		base := r.Source
		if DiffKind(kinds[i]) == DiffAdd {
			base = r.Text
		}
		s, e := int(starts[i]), int(ends[i])
		if s > e || e > len(base) {
			return nil, statusError(CodeInternal, "a diff line lies outside its text")
		}
		l := DiffLine{
			Kind:    DiffKind(kinds[i]),
			OldLine: int(oldLines[i]),
			NewLine: int(newLines[i]),
			Hunk:    int(hunks[i]),
			Text:    base[s:e],
		}
		if s0, k := int(segStarts[i]), int(segCounts[i]); k > 0 && s0+k <= len(segs) {
			l.Segments = segs[s0 : s0+k : s0+k]
		}
		if counts != nil {
			l.Count = int(counts[i])
		}
		lines[i] = l
	}
	return lines, nil
}
