// The workspace layer is implemented on Unix-like systems only (elsewhere every call fails).
#![cfg(unix)]

//! The promises of the workspace layer, each attacked through the library: escapes, aliases,
//! version-control metadata, overwrites, read-only files, binary files, identity, the lock,
//! faithful attributes and leftovers.

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;
use std::time::Duration;

use v4a::Status;
use v4a_workspace::{Error, FileChange, Workspace, WorkspaceOptions};

fn patch(text: &str) -> v4a::Patch {
    v4a::Patch::parse(text).expect("the test patch parses")
}

fn env(body: &str) -> v4a::Patch {
    patch(&format!("*** Begin Patch\n{body}*** End Patch\n"))
}

/// Every entry under `dir` (not following links): files with their bytes, links with their
/// targets, directories.
fn snapshot(dir: &Path) -> BTreeMap<String, String> {
    fn walk(dir: &Path, prefix: &str, out: &mut BTreeMap<String, String>) {
        let mut names: Vec<_> = fs::read_dir(dir).unwrap().map(|e| e.unwrap()).collect();
        names.sort_by_key(|e| e.file_name());
        for e in names {
            let name = format!("{prefix}{}", e.file_name().to_string_lossy());
            let ft = e.file_type().unwrap();
            if ft.is_symlink() {
                let t = fs::read_link(e.path()).unwrap();
                out.insert(name, format!("-> {}", t.display()));
            } else if ft.is_dir() {
                out.insert(format!("{name}/"), String::new());
                walk(&e.path(), &format!("{name}/"), out);
            } else {
                let m = e.metadata().unwrap();
                let bytes = fs::read(e.path()).unwrap();
                out.insert(
                    name,
                    format!("{:o} {}", m.mode(), String::from_utf8_lossy(&bytes)),
                );
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, "", &mut out);
    out
}

struct Scene {
    _tmp: tempfile::TempDir,
    top: std::path::PathBuf,
}

impl Scene {
    /// `top/work` (the root) and `top/outside`, each with files.
    fn new(work: &[(&str, &str)]) -> Scene {
        let tmp = tempfile::tempdir().unwrap();
        let top = tmp.path().to_path_buf();
        fs::create_dir_all(top.join("work")).unwrap();
        fs::create_dir_all(top.join("outside")).unwrap();
        fs::write(top.join("outside/victim.txt"), "precious\n").unwrap();
        for (p, text) in work {
            let path = top.join("work").join(p);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, text).unwrap();
        }
        Scene { _tmp: tmp, top }
    }
    fn work(&self) -> std::path::PathBuf {
        self.top.join("work")
    }
    fn ws(&self) -> Workspace {
        Workspace::open(self.work()).unwrap()
    }
    fn link(&self, at: &str, target: &str) {
        std::os::unix::fs::symlink(target, self.work().join(at)).unwrap();
    }
    fn apply(&self, p: &v4a::Patch) -> Result<v4a_workspace::Outcome, Error> {
        self.ws().apply(p, &WorkspaceOptions::default())
    }
    /// Applies, expects a refusal, and checks that nothing changed anywhere.
    fn refused(&self, p: &v4a::Patch) -> Error {
        let before = snapshot(&self.top);
        let e = self.apply(p).expect_err("the patch must be refused");
        assert_eq!(
            snapshot(&self.top),
            before,
            "a refused patch changed files: {e}"
        );
        e
    }
}

fn status(e: &Error) -> &str {
    e.status_name()
}

#[test]
fn every_escape_form_of_the_issue_is_refused_and_nothing_outside_changes() {
    let s = Scene::new(&[("a.txt", "a\n")]);
    s.link("link", "../outside");
    s.link("abs", s.top.join("outside").to_str().unwrap());
    s.link("up", "..");
    let cases = [
        "*** Add File: nosuchdir/../link/victim.txt\n+owned\n",
        "*** Update File: a.txt\n*** Move to: zz/../link/victim.txt\n",
        "*** Add File: q/w/../../abs/new.sh\n+owned\n",
        "*** Add File: up/outside/new.txt\n+owned\n",
        "*** Delete File: link/victim.txt\n",
        "*** Update File: up/outside/victim.txt\n@@\n-precious\n+owned\n",
        "*** Add File: ../outside/x.txt\n+owned\n",
        "*** Add File: /tmp/x.txt\n+owned\n",
        "*** Add File: a/../../outside/x.txt\n+owned\n",
    ];
    for body in cases {
        let e = s.refused(&env(body));
        assert_eq!(status(&e), "UNSAFE_PATH", "{body}: {e}");
        assert!(e.message().contains("nothing was changed"), "{e}");
    }
    assert_eq!(
        fs::read_to_string(s.top.join("outside/victim.txt")).unwrap(),
        "precious\n"
    );
}

#[test]
fn a_link_chain_that_leaves_the_root_late_is_refused() {
    let s = Scene::new(&[("a.txt", "a\n")]);
    fs::create_dir_all(s.work().join("d/e")).unwrap();
    s.link("d/e/back", "../../..");
    s.link("hop", "d/e/back");
    let e = s.refused(&env("*** Add File: hop/outside/new.txt\n+x\n"));
    assert_eq!(status(&e), "UNSAFE_PATH", "{e}");
    // A loop of links is refused, not followed forever.
    s.link("l1", "l2");
    s.link("l2", "l1");
    let e = s.refused(&env("*** Add File: l1/x.txt\n+x\n"));
    assert_eq!(status(&e), "UNSAFE_PATH", "{e}");
}

#[test]
fn version_control_metadata_is_refused_even_through_a_link_and_in_any_case() {
    let s = Scene::new(&[(".git/config", "[core]\n"), ("sub/.hg/hgrc", "x\n")]);
    s.link("docs", ".git");
    for body in [
        "*** Update File: .git/config\n@@\n [core]\n+\tfsmonitor = evil\n",
        "*** Add File: .git/hooks/pre-commit\n+evil\n",
        "*** Add File: docs/hooks/post-checkout\n+evil\n",
        "*** Add File: .GIT/hooks/x\n+evil\n",
        "*** Delete File: sub/.hg/hgrc\n",
        "*** Add File: .svn/entries\n+x\n",
        "*** Add File: .v4a/journal\n+x\n",
    ] {
        let e = s.refused(&env(body));
        assert_eq!(status(&e), "UNSAFE_PATH", "{body}: {e}");
    }
    let opts = WorkspaceOptions {
        allow_vcs: true,
        ..WorkspaceOptions::default()
    };
    s.ws()
        .apply(&env("*** Add File: .git/info/exclude\n+x\n"), &opts)
        .unwrap();
    assert_eq!(
        fs::read_to_string(s.work().join(".git/info/exclude")).unwrap(),
        "x\n"
    );
}

#[test]
fn links_inside_the_root_are_followed_for_updates_and_removed_as_links() {
    let s = Scene::new(&[("real/a.txt", "one\n")]);
    s.link("alias", "real");
    s.link("file-link", "real/a.txt");
    s.apply(&env("*** Update File: alias/a.txt\n@@\n-one\n+two\n"))
        .unwrap();
    assert_eq!(
        fs::read_to_string(s.work().join("real/a.txt")).unwrap(),
        "two\n"
    );
    s.apply(&env("*** Update File: file-link\n@@\n-two\n+three\n"))
        .unwrap();
    assert_eq!(
        fs::read_to_string(s.work().join("real/a.txt")).unwrap(),
        "three\n"
    );
    assert!(fs::symlink_metadata(s.work().join("file-link"))
        .unwrap()
        .file_type()
        .is_symlink());
    s.apply(&env("*** Delete File: file-link\n")).unwrap();
    assert!(fs::symlink_metadata(s.work().join("file-link")).is_err());
    assert_eq!(
        fs::read_to_string(s.work().join("real/a.txt")).unwrap(),
        "three\n"
    );
}

#[test]
fn one_file_under_two_names_is_one_file() {
    let s = Scene::new(&[("sub/x.txt", "x\n"), ("readme.md", "old\n")]);
    s.link("alias", "sub");
    let e = s.refused(&env(
        "*** Update File: sub/x.txt\n@@\n-x\n+y\n*** Delete File: alias/x.txt\n",
    ));
    // alias/x.txt is deleted as an entry of the directory alias points to: the same file.
    assert_eq!(status(&e), "DUPLICATE_PATH", "{e}");
    let e = s.refused(&env(
        "*** Add File: sub/new.txt\n+a\n*** Add File: alias/new.txt\n+b\n",
    ));
    assert_eq!(status(&e), "DUPLICATE_PATH", "{e}");
    // Two names of one inode (what a case-insensitive file system does with readme.md and
    // README.md): a Move between them is an edit in place, never a write and a deletion.
    fs::hard_link(s.work().join("readme.md"), s.work().join("README.md")).unwrap();
    let out = s
        .apply(&env(
            "*** Update File: readme.md\n*** Move to: README.md\n@@\n-old\n+new\n",
        ))
        .unwrap();
    assert_eq!(out.files[0].change, FileChange::Modified);
    assert_eq!(
        fs::read_to_string(s.work().join("readme.md")).unwrap(),
        "new\n"
    );
}

#[test]
fn add_and_move_onto_an_existing_file_are_file_exists_unless_allowed() {
    let s = Scene::new(&[("Makefile", "all:\n"), ("a.txt", "a\n")]);
    let e = s.refused(&env("*** Add File: Makefile\n+oops\n"));
    assert_eq!(status(&e), "FILE_EXISTS", "{e}");
    assert_eq!(e.status(), Some(Status::FileExists));
    let e = s.refused(&env("*** Update File: a.txt\n*** Move to: Makefile\n"));
    assert_eq!(status(&e), "FILE_EXISTS", "{e}");
    // The same text again is a retry, not an overwrite.
    let out = s.apply(&env("*** Add File: Makefile\n+all:\n")).unwrap();
    assert_eq!(out.files[0].change, FileChange::Unchanged);
    assert!(!out.written);
    let opts = WorkspaceOptions {
        allow_overwrite: true,
        ..WorkspaceOptions::default()
    };
    s.ws()
        .apply(&env("*** Add File: Makefile\n+new\n"), &opts)
        .unwrap();
    assert_eq!(
        fs::read_to_string(s.work().join("Makefile")).unwrap(),
        "new\n"
    );
}

#[test]
fn binary_files_are_deleted_and_moved_and_edits_name_the_file() {
    let blob: Vec<u8> = (0..=255u8).chain([0xff, 0xfe, 0]).collect();
    let s = Scene::new(&[]);
    fs::write(s.work().join("blob.bin"), &blob).unwrap();
    fs::write(s.work().join("latin1.txt"), b"caf\xe9\n").unwrap();
    fs::write(s.work().join("gone.bin"), &blob).unwrap();
    let e = s.refused(&env("*** Update File: latin1.txt\n@@\n-caf\n+cafe\n"));
    assert_eq!(status(&e), "INVALID_UTF8");
    assert!(
        e.message()
            .starts_with("latin1.txt is not UTF-8 text (invalid byte at offset 3)"),
        "{e}"
    );
    let out = s
        .apply(&env(
            "*** Delete File: gone.bin\n*** Update File: latin1.txt\n*** Move to: moved/latin1.txt\n*** Update File: blob.bin\n*** Move to: b.bin\n",
        ))
        .unwrap();
    assert!(out.files.iter().all(|f| f.binary));
    assert_eq!(
        out.summary(),
        "Success. Updated the following files:\nD gone.bin\nM moved/latin1.txt\nM b.bin\n"
    );
    assert_eq!(fs::read(s.work().join("b.bin")).unwrap(), blob);
    assert_eq!(
        fs::read(s.work().join("moved/latin1.txt")).unwrap(),
        b"caf\xe9\n"
    );
    assert!(!s.work().join("gone.bin").exists() && !s.work().join("blob.bin").exists());
}

#[test]
fn read_only_files_are_refused_unless_allowed() {
    let s = Scene::new(&[("ro.txt", "a\n"), ("ro2.txt", "b\n")]);
    for f in ["ro.txt", "ro2.txt"] {
        fs::set_permissions(s.work().join(f), fs::Permissions::from_mode(0o444)).unwrap();
    }
    let e = s.refused(&env("*** Update File: ro.txt\n@@\n-a\n+b\n"));
    assert_eq!(status(&e), "READ_ONLY", "{e}");
    assert!(
        e.message()
            .contains("ro.txt (patch line 2) is read-only (mode 0444)"),
        "{e}"
    );
    let e = s.refused(&env("*** Delete File: ro2.txt\n"));
    assert_eq!(status(&e), "READ_ONLY", "{e}");
    let opts = WorkspaceOptions {
        allow_read_only: true,
        ..WorkspaceOptions::default()
    };
    s.ws()
        .apply(&env("*** Update File: ro.txt\n@@\n-a\n+b\n"), &opts)
        .unwrap();
    let m = fs::metadata(s.work().join("ro.txt")).unwrap();
    assert_eq!(m.mode() & 0o7777, 0o444, "the mode is kept");
}

#[test]
fn mode_owner_group_setuid_and_xattrs_are_kept() {
    let s = Scene::new(&[("tool.sh", "echo 1\n"), ("secret.env", "API_KEY=1\n")]);
    let tool = s.work().join("tool.sh");
    fs::set_permissions(
        s.work().join("secret.env"),
        fs::Permissions::from_mode(0o640),
    )
    .unwrap();
    let root = rustix::process::geteuid().is_root();
    if root {
        std::os::unix::fs::chown(&tool, Some(4321), Some(4322)).unwrap();
    }
    fs::set_permissions(&tool, fs::Permissions::from_mode(0o4755)).unwrap();
    let xattr = rustix::fs::setxattr(
        &tool,
        "user.v4a-test",
        b"kept",
        rustix::fs::XattrFlags::empty(),
    )
    .is_ok();
    s.apply(&env(
        "*** Update File: tool.sh\n@@\n-echo 1\n+echo 2\n*** Update File: secret.env\n@@\n-API_KEY=1\n+API_KEY=2\n",
    ))
    .unwrap();
    let m = fs::metadata(&tool).unwrap();
    assert_eq!(fs::read_to_string(&tool).unwrap(), "echo 2\n");
    if root {
        assert_eq!((m.uid(), m.gid()), (4321, 4322), "owner and group are kept");
    } else {
        eprintln!("not root: the owner-keeping half of this test was skipped (chown needs root)");
    }
    assert_eq!(
        m.mode() & 0o7777,
        0o4755,
        "setuid is kept while the owner is"
    );
    assert_eq!(
        fs::metadata(s.work().join("secret.env")).unwrap().mode() & 0o7777,
        0o640
    );
    if xattr {
        let mut buf = [0u8; 16];
        let n = rustix::fs::getxattr(&tool, "user.v4a-test", &mut buf[..]).unwrap();
        assert_eq!(&buf[..n], b"kept");
    } else {
        eprintln!("this file system has no user extended attributes: that check was skipped");
    }
}

#[test]
fn an_apply_leaves_no_lock_journal_or_temporary_file() {
    let s = Scene::new(&[("a.txt", "1\n"), ("d/b.txt", "2\n")]);
    s.apply(&env(
        "*** Update File: a.txt\n@@\n-1\n+one\n*** Delete File: d/b.txt\n*** Add File: e/f/g.txt\n+new\n",
    ))
    .unwrap();
    let snap = snapshot(&s.work());
    let names: Vec<&String> = snap.keys().collect();
    assert_eq!(
        names,
        ["a.txt", "d/", "e/", "e/f/", "e/f/g.txt"],
        "{snap:?}"
    );
    assert_eq!(
        snap["e/f/g.txt"],
        format!("{:o} new\n", 0o100666 & !umask())
    );
}

fn umask() -> u32 {
    let s = fs::read_to_string("/proc/self/status").unwrap_or_default();
    s.lines()
        .find_map(|l| l.strip_prefix("Umask:"))
        .and_then(|v| u32::from_str_radix(v.trim(), 8).ok())
        .unwrap_or(0o022)
}

#[test]
fn an_already_applied_patch_changes_nothing_and_says_so() {
    let s = Scene::new(&[("a.txt", "x\ny\n"), ("b.txt", "1\n")]);
    let p = env("*** Update File: a.txt\n@@\n x\n-y\n+z\n*** Update File: b.txt\n@@\n-1\n+2\n");
    s.apply(&p).unwrap();
    let ino = fs::metadata(s.work().join("a.txt")).unwrap().ino();
    fs::write(s.work().join("b.txt"), "1\n").unwrap();
    let out = s.apply(&p).unwrap();
    assert_eq!(out.files[0].change, FileChange::Unchanged);
    assert_eq!(out.files[0].already_applied, [0]);
    assert_eq!(out.files[1].change, FileChange::Modified);
    assert_eq!(
        out.summary(),
        "Success. Updated the following files:\nM b.txt\nAlready applied, left unchanged: a.txt\n"
    );
    assert_eq!(
        fs::metadata(s.work().join("a.txt")).unwrap().ino(),
        ino,
        "not rewritten"
    );
}

#[test]
fn a_held_lock_is_locked_and_a_stale_lock_file_is_not() {
    let s = Scene::new(&[("a.txt", "1\n")]);
    fs::create_dir(s.work().join(".v4a")).unwrap();
    fs::File::create(s.work().join(".v4a/lock")).unwrap();
    // A lock file nobody holds (a crashed apply) does not block, and is gone afterwards.
    s.apply(&env("*** Update File: a.txt\n@@\n-1\n+2\n"))
        .unwrap();
    assert!(!s.work().join(".v4a").exists());
    fs::create_dir(s.work().join(".v4a")).unwrap();
    let holder = fs::File::create(s.work().join(".v4a/lock")).unwrap();
    rustix::fs::flock(&holder, rustix::fs::FlockOperation::LockExclusive).unwrap();
    let opts = WorkspaceOptions {
        lock_wait: Duration::from_millis(200),
        ..WorkspaceOptions::default()
    };
    let before = snapshot(&s.work());
    let e = s
        .ws()
        .apply(&env("*** Update File: a.txt\n@@\n-2\n+3\n"), &opts)
        .unwrap_err();
    assert_eq!(e.status(), Some(Status::Locked), "{e}");
    assert_eq!(snapshot(&s.work()), before);
}

#[test]
fn a_preview_checks_everything_and_writes_nothing() {
    let s = Scene::new(&[("a.txt", "1\n"), ("Makefile", "x\n")]);
    let ws = s.ws();
    let p = env("*** Update File: a.txt\n@@\n-1\n+2\n");
    let preview = ws.preview(&p, &WorkspaceOptions::default()).unwrap();
    assert_eq!(preview.files[0].change, FileChange::Modified);
    assert!(!preview.written);
    assert_eq!(fs::read_to_string(s.work().join("a.txt")).unwrap(), "1\n");
    let e = ws
        .preview(
            &env("*** Add File: Makefile\n+y\n"),
            &WorkspaceOptions::default(),
        )
        .unwrap_err();
    assert_eq!(e.status(), Some(Status::FileExists));
    assert!(!s.work().join(".v4a").exists());
}

#[test]
fn a_directory_or_a_file_in_the_way_is_a_path_conflict() {
    let s = Scene::new(&[("f", "x\n"), ("d/x", "y\n")]);
    let e = s.refused(&env("*** Add File: f/g.txt\n+x\n"));
    assert_eq!(status(&e), "PATH_CONFLICT", "{e}");
    let e = s.refused(&env("*** Update File: d\n@@\n-x\n+y\n"));
    assert_eq!(status(&e), "PATH_CONFLICT", "{e}");
    let e = s.refused(&env("*** Add File: n\n+x\n*** Add File: n/m\n+y\n"));
    assert_eq!(status(&e), "PATH_CONFLICT", "{e}");
}

#[test]
fn recover_with_nothing_to_do_is_none_and_leaves_nothing() {
    let s = Scene::new(&[("a.txt", "1\n")]);
    assert_eq!(s.ws().recover().unwrap(), None);
    assert!(!s.work().join(".v4a").exists());
}

/// Recovery from journals left by a crash at the worst moments, written by hand in the
/// documented format (docs/workspace.md, src/journal.rs): an undo puts the original inode back,
/// and never removes a file at an Add's path that is not the one the apply created.
#[test]
fn recovery_restores_originals_and_never_removes_a_file_it_did_not_create() {
    fn hex(s: &str) -> String {
        s.bytes().map(|b| format!("{b:02x}")).collect()
    }
    fn ident(p: &Path) -> String {
        let m = fs::symlink_metadata(p).unwrap();
        format!("{}:{}", m.dev(), m.ino())
    }
    let s = Scene::new(&[("a.txt", "old\n")]);
    let w = s.work();
    // State "rename": a.txt was replaced by the new text; its original is the backup.
    fs::hard_link(w.join("a.txt"), w.join(".v4a-t-0.bak")).unwrap();
    let orig = ident(&w.join("a.txt"));
    fs::write(w.join(".v4a-t-0.tmp"), "new\n").unwrap();
    let temp = ident(&w.join(".v4a-t-0.tmp"));
    fs::rename(w.join(".v4a-t-0.tmp"), w.join("a.txt")).unwrap();
    // An Add whose path another program filled meanwhile (not our inode): it must stay.
    fs::write(w.join("theirs.txt"), "someone else's\n").unwrap();
    fs::create_dir(w.join(".v4a")).unwrap();
    let journal = format!(
        "v4a-journal 1\nstate rename\nwrite = {} {} {} {temp} {orig} {}\nwrite = {} {} - 1:1 - {}\nend\n",
        hex("a.txt"),
        hex(".v4a-t-0.tmp"),
        hex(".v4a-t-0.bak"),
        hex("a.txt"),
        hex("theirs.txt"),
        hex(".v4a-t-1.tmp"),
        hex("theirs.txt"),
    );
    fs::write(w.join(".v4a/journal"), journal).unwrap();
    let r = s.ws().recover().unwrap().expect("a journal was found");
    assert_eq!(r.action, v4a_workspace::RecoveryAction::Undone);
    assert_eq!(r.files, ["a.txt"]);
    assert_eq!(fs::read_to_string(w.join("a.txt")).unwrap(), "old\n");
    assert_eq!(
        ident(&w.join("a.txt")),
        orig,
        "the original inode itself is back"
    );
    assert_eq!(
        fs::read_to_string(w.join("theirs.txt")).unwrap(),
        "someone else's\n"
    );
    let names: Vec<String> = snapshot(&w).into_keys().collect();
    assert_eq!(names, ["a.txt", "theirs.txt"]);

    // State "commit": every file is new; recovery only removes the backups.
    fs::hard_link(w.join("a.txt"), w.join(".v4a-u-0.bak")).unwrap();
    let orig = ident(&w.join("a.txt"));
    fs::write(w.join("b.txt"), "new b\n").unwrap();
    fs::rename(w.join("b.txt"), w.join("a.txt")).unwrap();
    fs::create_dir(w.join(".v4a")).unwrap();
    fs::write(
        w.join(".v4a/journal"),
        format!(
            "v4a-journal 1\nstate commit\nwrite = {} {} {} - {orig} {}\nend\n",
            hex("a.txt"),
            hex(".v4a-u-0.tmp"),
            hex(".v4a-u-0.bak"),
            hex("a.txt")
        ),
    )
    .unwrap();
    // The next apply recovers first, then applies.
    let out = s
        .apply(&env("*** Update File: a.txt\n@@\n-new b\n+newer\n"))
        .unwrap();
    assert_eq!(
        out.recovered.map(|r| r.action),
        Some(v4a_workspace::RecoveryAction::Finished)
    );
    assert_eq!(fs::read_to_string(w.join("a.txt")).unwrap(), "newer\n");
    let names: Vec<String> = snapshot(&w).into_keys().collect();
    assert_eq!(names, ["a.txt", "theirs.txt"]);
}

#[test]
fn a_confined_read_refuses_what_an_apply_refuses() {
    let s = Scene::new(&[("src/a.txt", "text\n"), (".git/config", "[core]\n")]);
    s.link("out", "../outside");
    let ws = s.ws();
    let opts = WorkspaceOptions::default();
    assert_eq!(ws.read("src/../src/a.txt", &opts).unwrap(), b"text\n");
    for p in [
        "out/victim.txt",
        "../outside/victim.txt",
        ".git/config",
        "/etc/passwd",
    ] {
        let e = ws.read(p, &opts).unwrap_err();
        assert_eq!(e.status(), Some(Status::UnsafePath), "{p}: {e}");
    }
    let e = ws.read("src/missing.txt", &opts).unwrap_err();
    assert_eq!(e.status(), Some(Status::MissingSource));
}

#[test]
fn a_preview_after_an_interrupted_apply_says_to_recover() {
    let s = Scene::new(&[("a.txt", "1\n")]);
    fs::create_dir(s.work().join(".v4a")).unwrap();
    fs::write(
        s.work().join(".v4a/journal"),
        "v4a-journal 1\nstate prepare\nend\n",
    )
    .unwrap();
    let e = s
        .ws()
        .preview(
            &env("*** Update File: a.txt\n@@\n-1\n+2\n"),
            &WorkspaceOptions::default(),
        )
        .unwrap_err();
    assert!(e.message().contains("run `v4a recover`"), "{e}");
    // An apply recovers first (nothing to undo here), then applies.
    let out = s
        .apply(&env("*** Update File: a.txt\n@@\n-1\n+2\n"))
        .unwrap();
    assert_eq!(
        out.recovered.map(|r| r.action),
        Some(v4a_workspace::RecoveryAction::Undone)
    );
    assert_eq!(fs::read_to_string(s.work().join("a.txt")).unwrap(), "2\n");
    assert!(!s.work().join(".v4a").exists());
}
