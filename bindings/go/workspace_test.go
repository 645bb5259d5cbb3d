package v4a

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// tree is every file under dir (links followed, so a link out of the root shows what it
// points to), as path -> content.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	var walk func(rel string)
	walk = func(rel string) {
		entries, err := os.ReadDir(filepath.Join(dir, rel))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			p := filepath.Join(rel, e.Name())
			full := filepath.Join(dir, p)
			st, err := os.Stat(full)
			if err != nil {
				t.Fatal(err)
			}
			if st.IsDir() {
				out[p+"/"] = ""
				walk(p)
				continue
			}
			b, err := os.ReadFile(full)
			if err != nil {
				t.Fatal(err)
			}
			out[p] = string(b)
		}
	}
	walk("")
	return out
}

func sameTree(t *testing.T, what string, want, got map[string]string) {
	t.Helper()
	var diff []string
	for k, v := range want {
		if g, ok := got[k]; !ok || g != v {
			diff = append(diff, k)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			diff = append(diff, k)
		}
	}
	sort.Strings(diff)
	if len(diff) > 0 {
		t.Errorf("%s changed %v", what, diff)
	}
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func parsed(t *testing.T, text string) *Patch {
	t.Helper()
	p, err := ParsePatch(text)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

func TestApplyToDir(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "src/app.py"), "x = 1\ny = 2\n")
	writeFile(t, filepath.Join(dir, "old.txt"), "bye\n")
	p := parsed(t, "*** Begin Patch\n*** Add File: docs/new.md\n+# Title\n"+
		"*** Update File: src/app.py\n*** Move to: src/main.py\n@@\n-x = 1\n+x = 10\n"+
		"*** Delete File: old.txt\n*** End Patch\n")

	// A dry run writes nothing and says what would happen.
	before := tree(t, dir)
	preview, err := ApplyToDir(dir, p, &DirOptions{DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if preview.Written || len(preview.Files) != 3 || preview.Files[1].Change != ChangeMoved {
		t.Fatalf("preview = %+v", preview)
	}
	sameTree(t, "a dry run", before, tree(t, dir))

	opts := DefaultOptions()
	opts.Diff = FullDiff()
	res, err := ApplyToDir(dir, p, &DirOptions{Engine: opts})
	if err != nil {
		t.Fatal(err)
	}
	want := "Success. Updated the following files:\nA docs/new.md\nM src/main.py\nD old.txt\n"
	if !res.Written || res.Summary != want || res.Recovery != RecoveryNone || len(res.Notes) != 0 {
		t.Errorf("result = %+v", res)
	}
	if len(res.Files) != 3 {
		t.Fatalf("%d files", len(res.Files))
	}
	f := res.Files[1]
	if f.Kind != OpUpdate || f.Change != ChangeMoved || f.Path != "src/app.py" || f.MoveTo != "src/main.py" ||
		f.SourceKey != "src/app.py" || f.TargetKey != "src/main.py" || f.Result.Text != "x = 10\ny = 2\n" ||
		f.Result.Source != "x = 1\ny = 2\n" || len(f.Result.Diff) != 3 || f.Change.String() != "moved" {
		t.Errorf("file 1 = %+v", f)
	}
	if res.Files[0].Change != ChangeAdded || res.Files[2].Change != ChangeDeleted || res.Files[2].TargetKey != "" {
		t.Errorf("files = %+v", res.Files)
	}
	got := tree(t, dir)
	sameTree(t, "the apply", map[string]string{
		"docs/": "", "docs/new.md": "# Title\n", "src/": "", "src/main.py": "x = 10\ny = 2\n",
	}, got)

	// The same patch again: the moved file is gone, so nothing is written.
	before = tree(t, dir)
	_, err = ApplyToDir(dir, p, nil)
	var de *DirError
	if !errors.As(err, &de) || de.Kind != FailurePatch || de.NeedsRecovery {
		t.Fatalf("second apply: %v", err)
	}
	sameTree(t, "a failed apply", before, tree(t, dir))
}

func TestApplyToDirRefusesEscapes(t *testing.T) {
	top := t.TempDir()
	dir := filepath.Join(top, "root")
	outside := filepath.Join(top, "outside")
	writeFile(t, filepath.Join(dir, "a.txt"), "a\n")
	writeFile(t, filepath.Join(outside, "victim.txt"), "precious\n")
	writeFile(t, filepath.Join(dir, ".git/config"), "[core]\n")
	if err := os.Symlink("../outside", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "abs")); err != nil {
		t.Fatal(err)
	}
	const edit = "*** Update File: a.txt\n@@\n-a\n+b\n"
	attacks := []string{
		"*** Add File: link/victim.txt\n+owned\n",
		"*** Add File: nosuchdir/../link/victim.txt\n+owned\n",
		"*** Add File: q/w/../../abs/new.sh\n+owned\n",
		"*** Delete File: link/victim.txt\n",
		"*** Add File: ../outside/new.txt\n+owned\n",
		"*** Add File: " + outside + "/new.txt\n+owned\n",
		"*** Update File: .git/config\n@@\n [core]\n+\tfsmonitor = evil\n",
	}
	for _, a := range attacks {
		before := tree(t, top)
		p := parsed(t, "*** Begin Patch\n"+edit+a+"*** End Patch\n")
		res, err := ApplyToDir(dir, p, nil)
		var e *Error
		if res != nil || !errors.Is(err, ErrUnsafePath) || !errors.As(err, &e) || e.Message == "" {
			t.Errorf("%q: %v, %v", a, res, err)
		}
		sameTree(t, a, before, tree(t, top))
	}
	// A move through a link out of the root.
	before := tree(t, top)
	p := parsed(t, "*** Begin Patch\n*** Update File: a.txt\n*** Move to: zz/../link/victim.txt\n@@\n-a\n+b\n*** End Patch\n")
	if _, err := ApplyToDir(dir, p, nil); !errors.Is(err, ErrUnsafePath) {
		t.Errorf("move through a link: %v", err)
	}
	sameTree(t, "a move through a link", before, tree(t, top))
	if _, err := os.Lstat(filepath.Join(dir, ".v4a")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf(".v4a left behind: %v", err)
	}
}

func TestApplyToDirErrorsAndOptions(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "a.txt"), "one\ntwo\n")
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	add := parsed(t, "*** Begin Patch\n*** Add File: a.txt\n+new\n*** End Patch\n")
	if _, err := ApplyToDir(dir, add, nil); !errors.Is(err, ErrFileExists) {
		t.Errorf("add onto a file: %v", err)
	}
	if _, err := ApplyToDir(dir, add, &DirOptions{AllowOverwrite: true}); err != nil {
		t.Errorf("allowed overwrite: %v", err)
	}
	writeFile(t, filepath.Join(dir, "a.txt"), "zero\none\ntwo\n")

	// Base-aware: the model saw "one\ntwo\n"; a line was added since.
	upd := parsed(t, "*** Begin Patch\n*** Update File: a.txt\n@@\n one\n-two\n+2\n*** End Patch\n")
	if _, err := ApplyToDir(dir, upd, &DirOptions{Bases: SourceMap{"a.txt": "one\ntwo\n"}}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.txt")); string(b) != "zero\none\n2\n" {
		t.Errorf("a.txt = %q", b)
	}

	// A directory where the patch needs a file: CodeIOError, kind path conflict.
	conflict := parsed(t, "*** Begin Patch\n*** Update File: sub\n@@\n-a\n+b\n*** End Patch\n")
	_, err := ApplyToDir(dir, conflict, nil)
	var de *DirError
	if !errors.As(err, &de) || de.Kind != FailurePathConflict || de.Err.Code != CodeIOError ||
		!errors.Is(err, ErrPathConflict) || !errors.Is(err, ErrIOError) || errors.Is(err, ErrReadOnly) ||
		de.Err.Path != "sub" || CodeIOError.String() != "IO_ERROR" {
		t.Errorf("path conflict: %#v", err)
	}

	// A missing directory.
	missing := filepath.Join(dir, "no-such-dir")
	_, err = ApplyToDir(missing, upd, nil)
	if !errors.As(err, &de) || de.Kind != FailureIO || !strings.Contains(err.Error(), "no-such-dir") {
		t.Errorf("missing dir: %v", err)
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("the missing directory was created")
	}
	if _, err := ApplyToDir("", upd, nil); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("empty dir: %v", err)
	}
	if _, err := ApplyToDir(dir, upd, &DirOptions{LockWait: -1}); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("negative lock wait: %v", err)
	}
	bad := Options{}
	if _, err := ApplyToDir(dir, upd, &DirOptions{Engine: &bad}); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("zero engine options: %v", err)
	}
	if _, err := ApplyToDir(dir, nil, nil); !errors.Is(err, ErrNullArgument) {
		t.Errorf("nil patch: %v", err)
	}
	closed, _ := ParsePatch("*** Begin Patch\n*** Delete File: a.txt\n*** End Patch\n")
	closed.Close()
	if _, err := ApplyToDir(dir, closed, nil); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("closed patch: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "a.txt")); err != nil {
		t.Error("a.txt was removed")
	}
}

func TestRecoverDir(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "a.txt"), "a\n")
	res, err := RecoverDir(dir)
	if err != nil || res.Recovery != RecoveryNone || len(res.Files) != 0 || len(res.Recovered) != 0 {
		t.Fatalf("RecoverDir = %+v, %v", res, err)
	}
	// A torn journal was never in force: a dry run refuses to go past it, recovery removes it.
	writeFile(t, filepath.Join(dir, ".v4a/journal"), "torn")
	p := parsed(t, "*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+b\n*** End Patch\n")
	if _, err := ApplyToDir(dir, p, &DirOptions{DryRun: true}); !errors.Is(err, ErrLocked) {
		t.Errorf("preview past a journal: %v", err)
	}
	if res, err = RecoverDir(dir); err != nil || res.Recovery != RecoveryNone {
		t.Errorf("RecoverDir = %+v, %v", res, err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".v4a/journal")); err == nil {
		t.Error("the torn journal is still there")
	}
	if _, err := RecoverDir(filepath.Join(dir, "missing")); !errors.Is(err, ErrIOError) {
		t.Errorf("RecoverDir(missing) = %v", err)
	}
}
