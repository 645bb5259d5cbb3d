//go:build cgo && v4a_intree

package v4a

// Unexported hooks for this repository's tests, which cannot use cgo themselves (_test.go
// files may not import "C"): the native rendering of unified diffs, a native-only apply for
// the benchmark baseline, the header's constants and the C struct layouts. The build tag
// v4a_intree (the repository's test build) compiles them; a user's build never does.

/*
#include "v4a_go.h"

// Sizes and offsets as the C compiler lays the structs out, for the layout test.
static size_t v4a_go_layout(int i) {
	switch (i) {
	case 0: return sizeof(v4a_bytes);
	case 1: return sizeof(v4a_u32s);
	case 2: return sizeof(v4a_source);
	case 3: return sizeof(v4a_options);
	case 4: return sizeof(v4a_generate_options);
	case 5: return sizeof(v4a_error);
	case 6: return sizeof(v4a_segment);
	case 7: return sizeof(v4a_diff_line);
	case 8: return sizeof(v4a_hunk_report);
	case 9: return sizeof(v4a_change);
	case 10: return sizeof(v4a_op);
	case 11: return sizeof(v4a_file_result);
	case 12: return offsetof(v4a_options, search_budget);
	case 13: return offsetof(v4a_error, closest_similarity);
	case 14: return offsetof(v4a_error, message);
	case 15: return offsetof(v4a_error, candidates);
	case 16: return offsetof(v4a_diff_line, text);
	case 17: return offsetof(v4a_diff_line, segment_count);
	case 18: return offsetof(v4a_hunk_report, line_levels);
	case 19: return offsetof(v4a_op, move_to);
	case 20: return offsetof(v4a_file_result, result);
	case 21: return offsetof(v4a_source, present);
	case 22: return offsetof(v4a_segment, end);
	default: return 0;
	}
}

// Applies and frees, copying nothing: the benchmark's native baseline.
static v4a_status v4a_go_apply_only(const uint8_t *source, size_t source_len,
		const uint8_t *diff, size_t diff_len) {
	v4a_result *r = NULL;
	v4a_status s = v4a_apply(source, source_len, diff, diff_len, V4A_MODE_UPDATE, NULL, &r);
	v4a_result_free(r);
	return s;
}
*/
import "C"

import (
	"runtime"
	"unsafe"
)

// layoutCheck is one struct size or field offset: as Go sees the C struct (cgo), as the C
// compiler computes it, and as the C layout test pins it (tests/c/layout.h).
type layoutCheck struct {
	name       string
	goValue    uintptr
	cValue     uintptr
	pinnedSize uintptr
}

func layoutChecks() []layoutCheck {
	const p = unsafe.Sizeof(uintptr(0))
	c := func(i int) uintptr { return uintptr(C.v4a_go_layout(C.int(i))) }
	return []layoutCheck{
		{"sizeof(v4a_bytes)", unsafe.Sizeof(C.v4a_bytes{}), c(0), 2 * p},
		{"sizeof(v4a_u32s)", unsafe.Sizeof(C.v4a_u32s{}), c(1), 2 * p},
		{"sizeof(v4a_source)", unsafe.Sizeof(C.v4a_source{}), c(2), 2*p + 8},
		{"sizeof(v4a_options)", unsafe.Sizeof(C.v4a_options{}), c(3), 72},
		{"sizeof(v4a_generate_options)", unsafe.Sizeof(C.v4a_generate_options{}), c(4), 12},
		{"sizeof(v4a_error)", unsafe.Sizeof(C.v4a_error{}), c(5), 40 + 12*p},
		{"sizeof(v4a_segment)", unsafe.Sizeof(C.v4a_segment{}), c(6), 8 + 2*p},
		{"sizeof(v4a_diff_line)", unsafe.Sizeof(C.v4a_diff_line{}), c(7), 16 + 4*p},
		{"sizeof(v4a_hunk_report)", unsafe.Sizeof(C.v4a_hunk_report{}), c(8), 40 + 2*p},
		{"sizeof(v4a_change)", unsafe.Sizeof(C.v4a_change{}), c(9), 20},
		{"sizeof(v4a_op)", unsafe.Sizeof(C.v4a_op{}), c(10), 24 + 4*p},
		{"sizeof(v4a_file_result)", unsafe.Sizeof(C.v4a_file_result{}), c(11), 8 + 5*p},
		{"offsetof(v4a_options, search_budget)", unsafe.Offsetof(C.v4a_options{}.search_budget), c(12), 40},
		{"offsetof(v4a_error, closest_similarity)", unsafe.Offsetof(C.v4a_error{}.closest_similarity), c(13), 24},
		{"offsetof(v4a_error, message)", unsafe.Offsetof(C.v4a_error{}.message), c(14), 40},
		{"offsetof(v4a_error, candidates)", unsafe.Offsetof(C.v4a_error{}.candidates), c(15), 40 + 10*p},
		{"offsetof(v4a_diff_line, text)", unsafe.Offsetof(C.v4a_diff_line{}.text), c(16), 16},
		{"offsetof(v4a_diff_line, segment_count)", unsafe.Offsetof(C.v4a_diff_line{}.segment_count), c(17), 16 + 3*p},
		{"offsetof(v4a_hunk_report, line_levels)", unsafe.Offsetof(C.v4a_hunk_report{}.line_levels), c(18), 40},
		{"offsetof(v4a_op, move_to)", unsafe.Offsetof(C.v4a_op{}.move_to), c(19), 24 + 2*p},
		{"offsetof(v4a_file_result, result)", unsafe.Offsetof(C.v4a_file_result{}.result), c(20), 8 + 4*p},
		{"offsetof(v4a_source, present)", unsafe.Offsetof(C.v4a_source{}.present), c(21), 2 * p},
		{"offsetof(v4a_segment, end)", unsafe.Offsetof(C.v4a_segment{}.end), c(22), 8 + p},
	}
}

// headerABIVersion is V4A_ABI_VERSION as the header declares it.
const headerABIVersion = C.V4A_ABI_VERSION

// finishStatus runs the conversion of a call that stored no handle (CodeInternal).
func finishStatus(status uint32) (*Result, error) {
	return finish(nil, C.v4a_status(status), nil, "", false, nil)
}

// nativeApplyOnly applies with the default options and frees the result, copying nothing.
func nativeApplyOnly(source, diff string) Code {
	sp, sl := strIn(source)
	dp, dl := strIn(diff)
	s := C.v4a_go_apply_only(sp, sl, dp, dl)
	runtime.KeepAlive(sp)
	runtime.KeepAlive(dp)
	return Code(s)
}

// nativeApplyCopyText is Apply without the Go heap: it applies with the default options,
// reads every view as Apply does, copies the new text into buf (a buffer the caller reuses,
// at least as long as the text) and frees the result. It returns the text's length. The
// benchmark's measure of moving the bytes, apart from allocating them.
func nativeApplyCopyText(source, diff string, buf []byte) (int, Code) {
	sp, sl := strIn(source)
	dp, dl := strIn(diff)
	h, status, v, _, _ := applyIn(sp, sl, dp, dl, ModeUpdate, nil)
	n := copy(buf, viewSlice((*byte)(unsafe.Pointer(v.text.ptr)), v.text.len))
	C.v4a_result_free(h)
	return n, Code(status)
}

// nativeUnified renders a live result with v4a_result_unified_diff for each context.
func nativeUnified(r *C.v4a_result, contexts []int) []string {
	out := make([]string, len(contexts))
	for i, c := range contexts {
		var t *C.v4a_text
		status := C.v4a_result_unified_diff(r, C.uint32_t(c), &t)
		s, err := textResult(t, status)
		if err != nil {
			s = "error: " + err.Error()
		}
		out[i] = s
	}
	return out
}

// nativeApplyUnified applies like ApplyBytes and renders the unified diff natively for each
// context.
func nativeApplyUnified(source, diff []byte, mode Mode, opts *Options, contexts []int) ([]string, error) {
	sp, sl := bytesIn(source)
	dp, dl := bytesIn(diff)
	h, status, v, _, err := applyIn(sp, sl, dp, dl, mode, opts)
	if err != nil {
		return nil, err
	}
	if h == nil {
		return nil, statusError(Code(status), "")
	}
	defer C.v4a_result_free(h)
	if status != C.V4A_STATUS_OK {
		return nil, errorFrom(v.error, status)
	}
	return nativeUnified(h, contexts), nil
}

// nativePatchUnified applies like ApplyPatch and renders each file's unified diff natively
// for each context.
func nativePatchUnified(p *Patch, sources Sources, opts *Options, contexts []int) ([][]string, error) {
	var out [][]string
	err := withSources(p, sources, func(h *C.v4a_patch, srcs *C.v4a_source, n C.size_t, _ []string) error {
		var copts C.v4a_options
		co, err := opts.toC(&copts)
		if err != nil {
			return err
		}
		var set *C.v4a_result_set
		status := C.v4a_patch_apply(h, srcs, n, co, &set)
		if set == nil {
			return statusError(Code(status), "")
		}
		defer C.v4a_result_set_free(set)
		if status != C.V4A_STATUS_OK {
			return errorFrom(C.v4a_result_set_error(set), status)
		}
		view := C.v4a_result_set_files(set)
		files := viewSlice(view.ptr, view.len)
		for i := range files {
			out = append(out, nativeUnified(files[i].result, contexts))
		}
		return nil
	})
	return out, err
}
