//go:build !cgo

package v4a

// This package is a cgo binding to the C library libv4a: it cannot be built with cgo
// disabled (CGO_ENABLED=0, or cross-compiling without a C cross-compiler). This file is the
// only one compiled then, and its one line fails the build with an error that names the fix:
//
//	undefined: v4a_needs_cgo__set_CGO_ENABLED_1_with_a_C_compiler_and_install_libv4a_see_README
//
// Build with CGO_ENABLED=1 and a C compiler (gcc or clang), with libv4a installed where
// pkg-config finds it (link_pkgconfig.go).
var _ = v4a_needs_cgo__set_CGO_ENABLED_1_with_a_C_compiler_and_install_libv4a_see_README
