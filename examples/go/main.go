// Command apply_patch is a tour of the v4a Go binding: apply a single-file diff and print
// the structured diff with its character-level changes, show the diagnostic of a patch that
// does not apply (written for the model), then apply a multi-file patch atomically over
// sources held in memory, and get a tool definition for a model API.
//
// It links an installed libv4a found with pkg-config, as every program using the binding
// does (see the README's Go section); from a build of this repository:
//
//	PKG_CONFIG_PATH=$PREFIX/lib/pkgconfig LD_LIBRARY_PATH=$PREFIX/lib go run .
//
// (bindings/go/test.sh installs the library it builds into target/go-v4a-install and runs
// this example against it.)
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"

	v4a "github.com/v4a-dev/v4a/bindings/go"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}

func run() error {
	if err := singleFile(); err != nil {
		return err
	}
	ambiguity()
	if err := multiFile(); err != nil {
		return err
	}
	return toolKit()
}

// diffLine renders one structured diff line, its changed characters in [-...-] and {+...+}.
func diffLine(l v4a.DiffLine) string {
	mark := map[v4a.DiffKind]string{v4a.DiffEqual: " ", v4a.DiffDelete: "-", v4a.DiffAdd: "+"}[l.Kind]
	text := l.Text
	if len(l.Segments) > 0 {
		var b strings.Builder
		for _, s := range l.Segments {
			part := l.Text[s.Start:s.End]
			switch s.Kind {
			case v4a.DiffDelete:
				part = "[-" + part + "-]"
			case v4a.DiffAdd:
				part = "{+" + part + "+}"
			}
			b.WriteString(part)
		}
		text = b.String()
	}
	return fmt.Sprintf("%s %3d %3d  %s", mark, l.OldLine, l.NewLine, text)
}

func singleFile() error {
	source := "def total(items):\n    result = 0\n    for item in items:\n        result += item.price\n    return result\n"
	diff := "@@ def total(items):\n     for item in items:\n-        result += item.price\n+        result += item.price * item.quantity\n"
	opts := v4a.DefaultOptions() // the library's defaults; set the fields you need
	opts.Diff, opts.Refine = v4a.ChangesDiff(1), true
	r, err := v4a.Apply(source, diff, v4a.ModeUpdate, opts)
	if err != nil {
		return err
	}
	fmt.Printf("== single file (fuzz %d)\n", r.Fuzz)
	for _, l := range r.Diff {
		fmt.Println(diffLine(l))
	}
	fmt.Print("== new text\n", r.Text)
	fmt.Print("== unified diff\n", r.UnifiedDiff(1))
	return nil
}

func ambiguity() {
	source := "def save(self):\n    self.dirty = False\n    return self\ndef load(self):\n    self.dirty = False\n    return self\n"
	_, err := v4a.Apply(source, "@@\n-    self.dirty = False\n+    self.dirty = True\n", v4a.ModeUpdate, nil)
	var e *v4a.Error
	if errors.As(err, &e) && errors.Is(err, v4a.ErrAmbiguous) {
		fmt.Printf("== %s (%s), hunk %d, candidates: %v\n", e.Code, e.Code.Category(), e.Hunk, e.Candidates)
		fmt.Println(e.Message) // send this back to the model as the tool result
	}
}

func multiFile() error {
	patch, err := v4a.ParsePatch("*** Begin Patch\n" +
		"*** Update File: src/app.txt\n*** Move to: src/main.txt\n@@\n-hello\n+hello, world\n" +
		"*** Add File: NOTES.md\n+# Notes\n" +
		"*** Delete File: old.txt\n" +
		"*** End Patch\n")
	if err != nil {
		return err
	}
	defer patch.Close() // frees the native patch
	for _, op := range patch.Ops {
		if !op.PathClass.Safe() || (op.MoveTo != "" && !op.MoveToClass.Safe()) {
			return fmt.Errorf("refusing to write %s", op.Path)
		}
	}
	files := v4a.SourceMap{"src/app.txt": "hello\n", "old.txt": "obsolete\n"}
	result, err := v4a.ApplyPatch(patch, files, nil)
	if err != nil {
		return err
	}
	for _, f := range result.Files {
		name := f.Path
		if f.MoveTo != "" {
			name += " -> " + f.MoveTo
		}
		fmt.Printf("== %s %s: %d bytes\n", f.Kind, name, len(f.Result.Text))
	}
	fmt.Print(result.Summary)
	return nil
}

func toolKit() error {
	schema, err := v4a.ToolSchema(v4a.FlavorOpenAIChat, v4a.ShapeFile)
	if err != nil {
		return err
	}
	var tool map[string]any
	if err := json.Unmarshal([]byte(schema), &tool); err != nil {
		return err
	}
	keys := make([]string, 0, len(tool))
	for k := range tool {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Printf("== tool definition (OpenAI, one file per call): keys %v\n", keys)
	fmt.Printf("== instructions mention the envelope: %v\n", strings.Contains(v4a.Instructions(), "*** Begin Patch"))
	return nil
}
