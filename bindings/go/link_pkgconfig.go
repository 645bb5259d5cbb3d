//go:build cgo && !v4a_intree

package v4a

// Default linking: against an installed libv4a, found with pkg-config (the convention of cgo
// bindings to C libraries). Install the library once (see the README's Go section):
//
//	cmake -S . -B build && cmake --build build && cmake --install build --prefix /usr/local
//
// then build as usual. When the prefix is not one pkg-config searches, point it there, and
// make the shared library visible to the dynamic loader:
//
//	export PKG_CONFIG_PATH=$PREFIX/lib/pkgconfig
//	export LD_LIBRARY_PATH=$PREFIX/lib   # or an rpath: CGO_LDFLAGS=-Wl,-rpath,$PREFIX/lib
//
// A missing library fails the build with pkg-config's "Package v4a was not found in the
// pkg-config search path". The repository's own tests link the in-tree build instead (the
// build tag v4a_intree, link_intree.go).

/*
#cgo pkg-config: v4a
*/
import "C"
