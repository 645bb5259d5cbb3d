//go:build !v4a_intree

package v4a

// The tests of this package are this repository's: they link the in-tree build and use the
// hooks of testhooks_intree.go. Without the build tag, this line fails with an error that
// names the command:
//
//	cargo build --release && go test -tags v4a_intree ./...   (or bash bindings/go/test.sh)
var _ = the_tests_link_the_in_tree_build__run_go_test_with_tags_v4a_intree_after_cargo_build_release
