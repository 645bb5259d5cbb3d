package v4a_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	v4a "github.com/v4a-dev/v4a/bindings/go"
)

func Example() {
	source := "def f():\n    return 1\n"
	diff := "@@ def f():\n-    return 1\n+    return 2\n"
	r, err := v4a.Apply(source, diff, v4a.ModeUpdate, nil)
	if err != nil {
		// err.Error() is written for the model: send it back as the tool result.
		fmt.Println(err)
		return
	}
	fmt.Print(r.Text)
	// Output:
	// def f():
	//     return 2
}

func ExampleApply() {
	source := "class App:\n    def run(self):\n        x = 1\n        y = 2\n"
	diff := "@@ class App\n@@     def run(self):\n         x = 1\n-        y = 2\n+        y = 3\n"
	opts := v4a.DefaultOptions() // the library's defaults; change the fields you need
	opts.Diff = v4a.ChangesDiff(1)
	r, err := v4a.Apply(source, diff, v4a.ModeUpdate, opts)
	if err != nil {
		panic(err)
	}
	for _, h := range r.Hunks {
		fmt.Printf("hunk at lines %d-%d, %s, fuzz %d\n", h.OldStart, h.OldStart+h.OldLen-1, h.Level, h.Fuzz)
	}
	for _, l := range r.Diff {
		fmt.Printf("%-6s old %d new %d %q\n", l.Kind, l.OldLine, l.NewLine, l.Text)
	}
	// Output:
	// hunk at lines 3-4, exact, fuzz 0
	// equal  old 3 new 3 "        x = 1"
	// delete old 4 new 0 "        y = 2"
	// add    old 0 new 4 "        y = 3"
}

func ExampleResult_UnifiedDiff() {
	r, err := v4a.Apply("a\nb\nc\n", "@@\n a\n-b\n+B\n", v4a.ModeUpdate, nil)
	if err != nil {
		panic(err)
	}
	fmt.Print(r.UnifiedDiff(1))
	// Output:
	// --- a
	// +++ b
	// @@ -1,3 +1,3 @@
	//  a
	// -b
	// +B
	//  c
}

func ExampleDiffLine_segments() {
	opts := v4a.DefaultOptions()
	opts.Diff, opts.Refine = v4a.ChangesDiff(0), true
	r, err := v4a.Apply("total += price\n", "@@\n-total += price\n+total += price * qty\n", v4a.ModeUpdate, opts)
	if err != nil {
		panic(err)
	}
	added := r.Diff[1]
	for _, s := range added.Segments {
		fmt.Printf("%s %q\n", s.Kind, added.Text[s.Start:s.End])
	}
	// Output:
	// equal "total += price"
	// add " * qty"
}

func ExampleApplyPatch() {
	patch, err := v4a.ParsePatch("*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+two\n*** Delete File: old.txt\n*** End Patch\n")
	if err != nil {
		panic(err)
	}
	defer patch.Close() // frees the native patch
	for _, op := range patch.Ops {
		fmt.Println(op.Kind, op.Path, op.PathClass.Safe())
	}
	files := v4a.SourceMap{"a.txt": "one\n", "old.txt": "bye\n"}
	result, err := v4a.ApplyPatch(patch, files, nil)
	if err != nil {
		panic(err)
	}
	fmt.Print(result.Summary)
	fmt.Printf("%q\n", result.Files[0].Result.Text)
	// Output:
	// update a.txt true
	// delete old.txt true
	// Success. Updated the following files:
	// M a.txt
	// D old.txt
	// "two\n"
}

func ExampleSourceFunc() {
	root, err := os.MkdirTemp("", "v4a-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(root)
	if err := os.WriteFile(filepath.Join(root, "notes.txt"), []byte("draft\n"), 0o644); err != nil {
		panic(err)
	}
	// Read the files a patch needs from a directory, refusing paths that leave it.
	readFile := v4a.SourceFunc(func(path string) (string, error) {
		if class, err := v4a.ClassifyPath(path); err != nil || !class.Safe() {
			return "", fmt.Errorf("refusing %q", path)
		}
		b, err := os.ReadFile(filepath.Join(root, path)) // a missing file wraps fs.ErrNotExist
		return string(b), err
	})
	patch, err := v4a.ParsePatch("*** Begin Patch\n*** Update File: notes.txt\n@@\n-draft\n+final\n*** End Patch\n")
	if err != nil {
		panic(err)
	}
	defer patch.Close()
	result, err := v4a.ApplyPatch(patch, readFile, nil)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s: %q -> %q\n", result.Files[0].Path, result.Files[0].Result.Source, result.Files[0].Result.Text)

	_, err = v4a.ApplyPatch(patch, v4a.SourceFunc(func(string) (string, error) { return "", os.ErrNotExist }), nil)
	fmt.Println(errors.Is(err, v4a.ErrMissingSource))
	// Output:
	// notes.txt: "draft\n" -> "final\n"
	// true
}

func ExampleError() {
	source := "def save(self):\n    self.dirty = False\ndef load(self):\n    self.dirty = False\n"
	_, err := v4a.Apply(source, "@@\n-    self.dirty = False\n+    self.dirty = True\n", v4a.ModeUpdate, nil)
	var e *v4a.Error
	if errors.As(err, &e) {
		fmt.Println(e.Code, errors.Is(err, v4a.ErrAmbiguous))
		fmt.Println("hunk", e.Hunk, "patch line", e.Line, "candidates", e.Candidates)
		fmt.Println("suggestion:", e.Suggestion)
	}
	// Output:
	// AMBIGUOUS true
	// hunk 1 patch line 1 candidates [2 4]
	// suggestion: @@ def save(self):
}

func ExampleMakePatch() {
	patch, err := v4a.MakePatch("a\nb\nc\n", "a\nB\nc\n", "x.txt", &v4a.GenerateOptions{Context: 1, MaxContext: 50})
	if err != nil {
		panic(err)
	}
	fmt.Print(patch)
	// Output:
	// *** Begin Patch
	// *** Update File: x.txt
	// @@
	//  a
	// -b
	// +B
	//  c
	// *** End Patch
}

func ExampleToolSchema() {
	schema, err := v4a.ToolSchema(v4a.FlavorAnthropic, v4a.ShapeInput)
	if err != nil {
		panic(err)
	}
	var tool struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal([]byte(schema), &tool); err != nil {
		panic(err)
	}
	fmt.Println(tool.Name)
	// Output:
	// apply_patch
}

func ExampleClassifyPath() {
	for _, p := range []string{"src/app.py", "../etc/passwd", "/tmp/x"} {
		class, _ := v4a.ClassifyPath(p)
		fmt.Println(p, class, class.Safe())
	}
	// Output:
	// src/app.py relative true
	// ../etc/passwd parent_escape false
	// /tmp/x absolute false
}
