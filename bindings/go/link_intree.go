//go:build cgo && v4a_intree

package v4a

// Linking with the build tag v4a_intree (this repository's tests, bindings/go/test.sh):
// statically, against the library that `cargo build --release` writes to target/release in
// this repository, with the header from include/. Build it first:
//
//	cargo build --release        # in the repository root
//	go test -tags v4a_intree ./...
//
// The static library is Rust code and needs the native libraries of Rust's standard library
// (`rustc --print native-static-libs`).

/*
#cgo CFLAGS: -I${SRCDIR}/../../include
#cgo linux LDFLAGS: ${SRCDIR}/../../target/release/libv4a.a -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc
#cgo darwin LDFLAGS: ${SRCDIR}/../../target/release/libv4a.a -lSystem -lc -lm
#cgo !linux,!darwin LDFLAGS: ${SRCDIR}/../../target/release/libv4a.a -lpthread -lm
*/
import "C"
