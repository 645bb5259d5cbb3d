package v4a

/*
#include "v4a_go.h"
*/
import "C"

import "strconv"

// ABIVersion is the version of the C ABI this binding was written against. The build fails
// if include/v4a.h declares another (a check in v4a_go.h), and the package panics at
// initialisation if the loaded library reports another (LibraryABIVersion).
const ABIVersion = 2

// Version returns the version of the loaded v4a library ("0.1.0").
func Version() string { return cString(C.v4a_version()) }

// LibraryABIVersion returns the ABI version of the loaded library.
func LibraryABIVersion() int { return int(C.v4a_abi_version()) }

// abiChecked is true once the loaded library's ABI version has been checked. Every
// package-level value that calls into the library depends on it, so the check runs first.
var abiChecked = checkABI()

func checkABI() bool {
	if got := LibraryABIVersion(); got != ABIVersion {
		panic("v4a: the loaded library has C ABI version " + strconv.Itoa(got) +
			", but this Go binding needs version " + strconv.Itoa(ABIVersion) +
			": link the matching library (cargo build --release) or update the binding")
	}
	return true
}
