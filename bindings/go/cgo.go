package v4a

// The cgo layer: conversions between Go values and the views of the C ABI. The C glue (the
// ABI version check and the helpers) is in v4a_go.h, included by every cgo file.

/*
#include "v4a_go.h"
*/
import "C"

import (
	"unsafe"
)

// strIn is a Go string as a (pointer, length) input: (NULL, 0) when empty. The pointer is
// only read during the C call it is passed to.
func strIn(s string) (*C.uint8_t, C.size_t) {
	if len(s) == 0 {
		return nil, 0
	}
	return (*C.uint8_t)(unsafe.Pointer(unsafe.StringData(s))), C.size_t(len(s))
}

// bytesIn is a byte slice as a (pointer, length) input: (NULL, 0) when empty.
func bytesIn(b []byte) (*C.uint8_t, C.size_t) {
	if len(b) == 0 {
		return nil, 0
	}
	return (*C.uint8_t)(unsafe.Pointer(unsafe.SliceData(b))), C.size_t(len(b))
}

// goString copies a view into Go memory.
func goString(b C.v4a_bytes) string {
	if b.ptr == nil || b.len == 0 {
		return ""
	}
	return string(unsafe.Slice((*byte)(unsafe.Pointer(b.ptr)), int(b.len)))
}

// cString reads a static NUL-terminated string of the library.
func cString(p *C.char) string {
	if p == nil {
		return ""
	}
	return C.GoString(p)
}

// viewSlice is the C array {ptr, len} as a Go slice over C memory (valid while its handle
// lives; never kept).
func viewSlice[T any](ptr *T, n C.size_t) []T {
	if ptr == nil || n == 0 {
		return nil
	}
	return unsafe.Slice(ptr, int(n))
}
