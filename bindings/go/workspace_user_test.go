//go:build linux

package v4a

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// The unprivileged user the helper runs as (Debian's nobody / nogroup).
const userID, groupID = 65534, 65534

// userCases are the refused applies of TestApplyToDirReadOnlyAsUser: a patch, the failure
// kind, and what the message must say.
var userCases = []struct {
	name, patch string
	kind        FailureKind
	says        string
}{
	{"read-only file", "*** Begin Patch\n*** Update File: ro.txt\n@@\n-ro\n+RO\n*** End Patch\n",
		FailureReadOnly, "ro.txt (patch line 2) is read-only (mode 0444)"},
	{"delete of a read-only file", "*** Begin Patch\n*** Delete File: ro.txt\n*** End Patch\n",
		FailureReadOnly, "is read-only (mode 0444)"},
	{"read-only directory", "*** Begin Patch\n*** Update File: rodir/f.txt\n@@\n-f\n+F\n*** End Patch\n",
		FailureIO, "cannot create a temporary file in the directory rodir for rodir/f.txt: Permission denied"},
	{"a writable file, then a read-only directory",
		"*** Begin Patch\n*** Update File: free.txt\n@@\n-w\n+W\n*** Add File: rodir/new.txt\n+new\n*** End Patch\n",
		FailureIO, "rodir/new.txt"},
}

// TestApplyToDirReadOnlyAsUser: as root, makes a tree owned by nobody (a 0444 file, a 0555
// directory), then runs this test binary as nobody (TestApplyToDirReadOnlyUserHelper) for
// each refused apply; after each, the tree is byte for byte what it was.
func TestApplyToDirReadOnlyAsUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("skipped: needs root (to make files owned by uid 65534 and run as it)")
	}
	top, err := os.MkdirTemp("", "v4a-go-user-")
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = os.Chmod(filepath.Join(top, "root", "rodir"), 0o755)
		_ = os.RemoveAll(top)
	}()
	if err := os.Chmod(top, 0o755); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(top, "root")
	own := func(p string, mode os.FileMode) {
		t.Helper()
		if err := os.Chown(p, userID, groupID); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{root, filepath.Join(root, "rodir")} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		own(d, 0o755)
	}
	for p, text := range map[string]string{"ro.txt": "ro\n", "free.txt": "w\n", "rodir/f.txt": "f\n"} {
		writeFile(t, filepath.Join(root, p), text)
		own(filepath.Join(root, p), 0o644)
	}
	own(filepath.Join(root, "ro.txt"), 0o444)
	own(filepath.Join(root, "rodir"), 0o555)
	// The test binary, where the user can run it (the build directory is root's own).
	bin := filepath.Join(top, "v4a.test")
	copyFile(t, os.Args[0], bin)
	before := tree(t, root)
	for i, c := range userCases {
		cmd := exec.Command(bin, "-test.run=^TestApplyToDirReadOnlyUserHelper$", "-test.v")
		cmd.Env = append(os.Environ(), "V4A_GO_USER_ROOT="+root, "V4A_GO_USER_CASE="+string(rune('0'+i)))
		cmd.Dir = top
		cmd.SysProcAttr = &syscall.SysProcAttr{
			Credential: &syscall.Credential{Uid: userID, Gid: groupID, Groups: []uint32{}},
		}
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS: TestApplyToDirReadOnlyUserHelper") {
			t.Errorf("%s, as uid %d: %v\n%s", c.name, userID, err, out)
		}
		sameTree(t, c.name, before, tree(t, root))
		if _, err := os.Lstat(filepath.Join(root, ".v4a")); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: .v4a left behind (%v)", c.name, err)
		}
	}
}

// TestApplyToDirReadOnlyUserHelper is one refused apply of TestApplyToDirReadOnlyAsUser, run
// by it as the unprivileged user; on its own it skips.
func TestApplyToDirReadOnlyUserHelper(t *testing.T) {
	root := os.Getenv("V4A_GO_USER_ROOT")
	which := os.Getenv("V4A_GO_USER_CASE")
	if root == "" || len(which) != 1 || int(which[0]-'0') >= len(userCases) {
		t.Skip("run by TestApplyToDirReadOnlyAsUser as an unprivileged user")
	}
	if os.Geteuid() != userID {
		t.Fatalf("runs as uid %d, not %d", os.Geteuid(), userID)
	}
	c := userCases[which[0]-'0']
	res, err := ApplyToDir(root, parsed(t, c.patch), nil)
	var de *DirError
	if !errors.As(err, &de) {
		t.Fatalf("%s: want a *DirError, got %v (result %+v)", c.name, err, res)
	}
	if de.Err.Code != CodeIOError || de.Kind != c.kind || de.NeedsRecovery {
		t.Errorf("%s: code %v, kind %v, needs recovery %v", c.name, de.Err.Code, de.Kind, de.NeedsRecovery)
	}
	if errors.Is(err, ErrReadOnly) != (c.kind == FailureReadOnly) {
		t.Errorf("%s: errors.Is(err, ErrReadOnly) = %v", c.name, errors.Is(err, ErrReadOnly))
	}
	if !strings.Contains(de.Err.Message, c.says) {
		t.Errorf("%s: message %q lacks %q", c.name, de.Err.Message, c.says)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	src, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
}
