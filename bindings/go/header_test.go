package v4a

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The binding covers include/v4a.h: every status has its Code name and sentinel, every
// function and every constant of a kind the API exposes is used by the Go code. A function
// or constant added to the C ABI fails this test until the binding exposes it.
func TestHeaderCoverage(t *testing.T) {
	header, err := os.ReadFile(filepath.Join("..", "..", "include", "v4a.h"))
	if err != nil {
		t.Fatal(err)
	}
	var sources strings.Builder
	files, _ := filepath.Glob("*.go")
	hfiles, _ := filepath.Glob("*.h")
	for _, f := range append(files, hfiles...) {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sources.Write(b)
	}
	src := sources.String()

	statuses := regexp.MustCompile(`(?m)^#define V4A_STATUS_([A-Z0-9_]+) (\d+)$`).FindAllStringSubmatch(string(header), -1)
	if len(statuses) < 17 {
		t.Fatalf("found %d statuses in v4a.h", len(statuses))
	}
	for _, m := range statuses {
		n, _ := strconv.Atoi(m[2])
		if Code(n).String() != m[1] {
			t.Errorf("V4A_STATUS_%s = %d: Code(%d) is %q", m[1], n, n, Code(n))
		}
		if n != 0 && sentinelOf(Code(n)) == ErrUnknown {
			t.Errorf("V4A_STATUS_%s has no sentinel", m[1])
		}
	}

	// The level and mode names (the binding's Level.String, from the library, and its
	// modeNames table) are the constants' names in lower case.
	for _, m := range regexp.MustCompile(`(?m)^#define V4A_(LEVEL|MODE)_([A-Z0-9_]+) (\d+)$`).FindAllStringSubmatch(string(header), -1) {
		n, _ := strconv.Atoi(m[3])
		got := Mode(n).String()
		if m[1] == "LEVEL" {
			got = Level(n).String()
		}
		if want := strings.ToLower(m[2]); got != want {
			t.Errorf("V4A_%s_%s = %d: the binding names it %q", m[1], m[2], n, got)
		}
	}

	constants := regexp.MustCompile(`(?m)^#define (V4A_(?:MODE|LEVEL|LINE_ENDING|DIFF_STYLE|DIFF|HUNK|OP|PATH|FLAVOR|SHAPE|NO)_[A-Z0-9_]+) `).FindAllStringSubmatch(string(header), -1)
	if len(constants) < 30 {
		t.Fatalf("found %d constants in v4a.h", len(constants))
	}
	for _, m := range constants {
		if !regexp.MustCompile(`\b` + m[1] + `\b`).MatchString(src) {
			t.Errorf("%s is not used by the binding", m[1])
		}
	}

	// Functions the binding does not call, and why.
	unused := map[string]string{
		"v4a_test_panic":              "test-only export of the test-panic feature",
		"v4a_patch_status":            "the binding uses the status v4a_patch_parse returns",
		"v4a_result_set_status":       "the binding uses the status v4a_patch_apply returns",
		"v4a_text_status":             "the binding uses the status each text-making call returns",
		"v4a_workspace_result_status": "the binding uses the status v4a_workspace_apply returns",
		"v4a_refinement_status":       "the binding uses the status v4a_refine_lines returns",
	}
	functions := regexp.MustCompile(`(?m)^[a-z0-9_ ]+[ *](v4a_[a-z_0-9]+)\(`).FindAllStringSubmatch(string(header), -1)
	if len(functions) < 45 {
		t.Fatalf("found %d functions in v4a.h", len(functions))
	}
	for _, m := range functions {
		if _, ok := unused[m[1]]; ok {
			continue
		}
		if !regexp.MustCompile(`\b` + m[1] + `\(`).MatchString(src) {
			t.Errorf("%s is not called by the binding", m[1])
		}
	}
}
