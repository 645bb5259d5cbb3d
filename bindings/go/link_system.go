//go:build v4a_system

package v4a

// Linking with the build tag v4a_system: against an installed v4a (`cmake --install`), found
// with pkg-config (the shared library; set PKG_CONFIG_PATH to $PREFIX/lib/pkgconfig and make
// $PREFIX/lib visible to the dynamic loader, e.g. with LD_LIBRARY_PATH or an rpath).

/*
#cgo pkg-config: v4a
*/
import "C"
