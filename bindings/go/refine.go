package v4a

// Refinement as a call of its own: the character-level segments of any block of deleted and
// added lines (an editor's own diff, not only a patch's), and the limits of the refinement.

/*
#include <stdlib.h>
#include "v4a_go.h"
*/
import "C"

import "unsafe"

// RefineLimits bound the character-level refinement; past one, a pair of lines is shown as a
// whole-line change. Start from DefaultOptions().RefineLimits (the library's defaults).
type RefineLimits struct {
	// MaxGraphemes is the longest line, in grapheme clusters, whose pair is refined.
	// Default 200,000.
	MaxGraphemes uint64
	// MaxCost is the work budget of one pair, in estimated cluster comparisons. Default
	// 8,000,000.
	MaxCost uint64
	// MaxPairLines: blocks of more than MaxPairLines² deleted-times-added lines are paired by
	// position instead of by similarity. Default 200.
	MaxPairLines uint64
}

// LinePair is a deleted line paired with an added line by RefineLines, with the segments of
// both (byte offsets into the lines).
type LinePair struct {
	// Deleted is the index of the deleted line in the deleted slice.
	Deleted int
	// Added is the index of the added line in the added slice.
	Added int
	// DeletedSegments cover the deleted line (kinds DiffEqual and DiffDelete).
	DeletedSegments []Segment
	// AddedSegments cover the added line (kinds DiffEqual and DiffAdd).
	AddedSegments []Segment
}

// RefineLines refines a block of deleted lines replaced by added lines: it pairs the lines
// by similarity and diffs each pair at grapheme-cluster boundaries, within limits (nil: the
// defaults) — the segments Apply with Options.Refine gives the same block. Lines are given
// without their terminators; one that is not UTF-8 is ErrInvalidUTF8 naming it ("added[2]").
// Lines in no pair are whole-line changes.
func RefineLines(deleted, added []string, limits *RefineLimits) ([]LinePair, error) {
	opts := defaultOptions
	if limits != nil {
		opts.refine_max_graphemes = C.uint64_t(limits.MaxGraphemes)
		opts.refine_max_cost = C.uint64_t(limits.MaxCost)
		opts.refine_max_pair_lines = C.uint64_t(limits.MaxPairLines)
	}
	// The lines are copied into C memory: a C array may not hold pointers into Go memory.
	total := 1
	for _, l := range deleted {
		total += len(l)
	}
	for _, l := range added {
		total += len(l)
	}
	buf := unsafe.Slice((*byte)(C.malloc(C.size_t(total))), total)
	defer C.free(unsafe.Pointer(&buf[0]))
	at := 0
	views := func(lines []string) *C.v4a_bytes {
		if len(lines) == 0 {
			return nil
		}
		size := C.size_t(len(lines)) * C.size_t(unsafe.Sizeof(C.v4a_bytes{}))
		arr := unsafe.Slice((*C.v4a_bytes)(C.malloc(size)), len(lines))
		for i, l := range lines {
			n := copy(buf[at:], l)
			arr[i] = C.v4a_bytes{ptr: (*C.uint8_t)(unsafe.Pointer(&buf[at])), len: C.size_t(n)}
			if n == 0 {
				arr[i].ptr = nil
			}
			at += n
		}
		return &arr[0]
	}
	dp, ap := views(deleted), views(added)
	defer C.free(unsafe.Pointer(dp))
	defer C.free(unsafe.Pointer(ap))
	var r *C.v4a_refinement
	status := C.v4a_refine_lines(dp, C.size_t(len(deleted)), ap, C.size_t(len(added)), &opts,
		C.V4A_UNITS_BYTES, &r)
	if r == nil {
		return nil, statusError(Code(status), "v4a_refine_lines")
	}
	defer C.v4a_refinement_free(r)
	if status != C.V4A_STATUS_OK {
		return nil, errorFrom(C.v4a_refinement_error(r), status)
	}
	pv := C.v4a_refinement_pairs(r)
	sv := C.v4a_refinement_segments(r)
	cs := viewSlice(sv.ptr, sv.len)
	segs := make([]Segment, len(cs))
	for i := range cs {
		segs[i] = Segment{Kind: DiffKind(cs[i].kind), Start: int(cs[i].start), End: int(cs[i].end)}
	}
	part := func(start, count C.uint32_t) []Segment {
		s, c := int(start), int(count)
		if c == 0 || s+c > len(segs) {
			return nil
		}
		return segs[s : s+c : s+c]
	}
	cp := viewSlice(pv.ptr, pv.len)
	pairs := make([]LinePair, len(cp))
	for i := range cp {
		p := &cp[i]
		pairs[i] = LinePair{
			Deleted:         int(p.deleted),
			Added:           int(p.added),
			DeletedSegments: part(p.deleted_segment_start, p.deleted_segment_count),
			AddedSegments:   part(p.added_segment_start, p.added_segment_count),
		}
	}
	return pairs, nil
}
