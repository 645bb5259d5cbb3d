//! Tests of the `v4a` command, running the built binary: every shared vector as a directory
//! scenario, stdin, exit codes, atomicity, restoration after a failed write, path safety,
//! permissions, `--dry-run`, `--json`, `diff`, `reverse`, the tool-kit commands and the demo.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;
use tempfile::TempDir;

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// The command, with the environment variables that change its output removed.
fn v4a() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_v4a"));
    for var in [
        "NO_COLOR",
        "CLICOLOR",
        "CLICOLOR_FORCE",
        "V4A_TEST_FAIL_WRITE",
    ] {
        c.env_remove(var);
    }
    c
}

/// Runs the command with `stdin` (empty when `None`).
fn run_with(mut cmd: Command, stdin: Option<&[u8]>) -> Output {
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("the v4a binary starts");
    {
        let mut input = child.stdin.take().expect("stdin is piped");
        if let Some(bytes) = stdin {
            input.write_all(bytes).expect("stdin accepts the patch");
        }
    }
    child.wait_with_output().expect("v4a finishes")
}

fn run(args: &[&str]) -> Output {
    let mut c = v4a();
    c.args(args);
    run_with(c, None)
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("stderr is UTF-8")
}

fn code(o: &Output) -> i32 {
    o.status.code().expect("v4a exits with a code")
}

/// What a directory holds: files with their bytes, directories, symbolic links with targets.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Node {
    File(Vec<u8>),
    Dir,
    Link(PathBuf),
}

fn tree(root: &Path) -> BTreeMap<String, Node> {
    fn walk(dir: &Path, prefix: &str, out: &mut BTreeMap<String, Node>) {
        for entry in fs::read_dir(dir).expect("readable directory") {
            let entry = entry.expect("directory entry");
            let name = entry.file_name().to_string_lossy().into_owned();
            let rel = if prefix.is_empty() {
                name
            } else {
                format!("{prefix}/{name}")
            };
            let path = entry.path();
            let meta = fs::symlink_metadata(&path).expect("metadata");
            if meta.file_type().is_symlink() {
                out.insert(rel, Node::Link(fs::read_link(&path).expect("link")));
            } else if meta.is_dir() {
                out.insert(rel.clone(), Node::Dir);
                walk(&path, &rel, out);
            } else {
                out.insert(rel, Node::File(fs::read(&path).expect("readable file")));
            }
        }
    }
    let mut out = BTreeMap::new();
    if root.is_dir() {
        walk(root, "", &mut out);
    }
    out
}

/// Only the files of a tree (the shared vectors list files, not directories).
fn files_of(t: &BTreeMap<String, Node>) -> BTreeMap<String, Vec<u8>> {
    t.iter()
        .filter_map(|(k, v)| match v {
            Node::File(b) => Some((k.clone(), b.clone())),
            _ => None,
        })
        .collect()
}

fn write_files(root: &Path, files: &[(&str, &str)]) {
    for (path, text) in files {
        let p = root.join(path);
        if let Some(parent) = p.parent() {
            fs::create_dir_all(parent).expect("parent directory");
        }
        fs::write(&p, text).expect("file written");
    }
}

/// A temporary directory with a `work` folder holding `files`, and a patch file beside it.
struct Scene {
    tmp: TempDir,
}

impl Scene {
    fn new(files: &[(&str, &str)]) -> Scene {
        let tmp = TempDir::new().expect("temporary directory");
        fs::create_dir(tmp.path().join("work")).expect("work directory");
        write_files(&tmp.path().join("work"), files);
        Scene { tmp }
    }

    fn work(&self) -> PathBuf {
        self.tmp.path().join("work")
    }

    fn patch_file(&self, patch: &str) -> PathBuf {
        let p = self.tmp.path().join("change.patch");
        fs::write(&p, patch).expect("patch written");
        p
    }

    /// Runs `v4a apply --dir work <extra> PATCHFILE`.
    fn apply(&self, patch: &str, extra: &[&str]) -> Output {
        let patch_path = self.patch_file(patch);
        let mut c = v4a();
        c.arg("apply").arg("--dir").arg(self.work()).args(extra);
        c.arg(&patch_path);
        run_with(c, None)
    }

    fn tree(&self) -> BTreeMap<String, Node> {
        tree(&self.work())
    }

    fn read(&self, path: &str) -> String {
        fs::read_to_string(self.work().join(path)).expect("readable file")
    }
}

fn json_of(o: &Output) -> Value {
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("stdout is JSON ({e}): {}", stdout(o)))
}

// ---------------------------------------------------------------------------------------------
// The shared vectors, as directories
// ---------------------------------------------------------------------------------------------

fn vectors_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join("tests/vectors")
}

/// The flags that ask for a vector's `options`.
fn option_flags(dir: &Path) -> Vec<String> {
    let Ok(text) = fs::read_to_string(dir.join("options")) else {
        return Vec::new();
    };
    let mut flags = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let (k, v) = line.split_once('=').expect("key=value option");
        let (k, v) = (k.trim(), v.trim());
        match (k, v) {
            ("max_level", l) => flags.extend(["--max-level".to_string(), l.to_string()]),
            ("max_fuzz", n) => flags.extend(["--max-fuzz".to_string(), n.to_string()]),
            ("first_match", "true") => flags.push("--first-match".into()),
            ("already_applied_error", "true") => flags.push("--already-applied-error".into()),
            ("ensure_final_newline", "true") => flags.push("--ensure-final-newline".into()),
            ("add_file_line_ending", e) => {
                flags.extend(["--add-file-line-ending".to_string(), e.to_string()])
            }
            (_, "false") => {}
            _ => panic!("unknown vector option {line:?} in {}", dir.display()),
        }
    }
    flags
}

fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).expect("target directory");
    if !from.is_dir() {
        return;
    }
    for entry in fs::read_dir(from).expect("readable directory") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), &target).expect("file copied");
        }
    }
}

/// A string on one line, escaped as in a vector's `outcome` file (tests/vectors/README.md).
fn esc(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// A text block of an `outcome` file.
fn block(out: &mut String, key: &str, text: &str) {
    let _ = writeln!(out, "{key}:");
    for piece in text.split('\n') {
        if piece.is_empty() {
            out.push_str("|\n");
        } else {
            let _ = writeln!(out, "| {}", esc(piece));
        }
    }
}

/// The `--json` report of a dry run, with the files after the real run, rendered in the
/// canonical form of a vector's `outcome` file.
fn render_json(doc: &Value, after: &BTreeMap<String, Vec<u8>>) -> String {
    if doc["ok"] != true {
        return render_json_error(&doc["error"]);
    }
    let mut out = String::new();
    out.push_str("status: OK\n");
    let files = doc["files"].as_array().cloned().unwrap_or_default();
    for (i, f) in files.iter().enumerate() {
        render_json_file(&mut out, i, f);
    }
    for (path, bytes) in after {
        let _ = writeln!(out, "file {}: {} bytes", esc(path), bytes.len());
    }
    out
}

/// The error of a `--json` report, rendered as an outcome file.
fn render_json_error(e: &Value) -> String {
    let mut out = String::new();
    let text = |v: &Value| v.as_str().filter(|s| !s.is_empty()).map(str::to_string);
    let _ = writeln!(out, "status: {}", e["status"].as_str().unwrap_or("?"));
    block(
        &mut out,
        "message",
        e["message"].as_str().unwrap_or_default(),
    );
    if let Some(p) = text(&e["path"]) {
        let _ = writeln!(out, "path: {}", esc(&p));
    }
    for key in ["patch_line", "hunk", "byte_offset"] {
        if let Some(n) = e[key].as_u64() {
            let _ = writeln!(out, "{key}: {n}");
        }
    }
    if let Some(i) = text(&e["input"]) {
        let _ = writeln!(out, "input: {}", esc(&i));
    }
    let candidates: Vec<String> = e["candidates"]
        .as_array()
        .map(|a| a.iter().map(Value::to_string).collect())
        .unwrap_or_default();
    if !candidates.is_empty() {
        let _ = writeln!(out, "candidates: {}", candidates.join(","));
    }
    if let Some(s) = text(&e["suggestion"]) {
        block(&mut out, "suggestion", &s);
    }
    let c = &e["closest"];
    if let Some(sim) = c["similarity"].as_f64() {
        let milli = (sim * 1000.0 + 0.5).floor() as u64;
        let _ = writeln!(
            out,
            "closest: {}-{} similarity={}.{:03}",
            c["start_line"],
            c["end_line"],
            milli / 1000,
            milli % 1000
        );
    }
    if let Some(h) = text(&e["corrected_hunk"]) {
        block(&mut out, "corrected_hunk", &h);
    }
    out
}

/// File `i` of a successful `--json` report: its operation, fuzz and hunks.
fn render_json_file(out: &mut String, i: usize, f: &Value) {
    let _ = write!(
        out,
        "op {}: {} {}",
        i + 1,
        f["operation"].as_str().unwrap_or("?"),
        esc(f["path"].as_str().unwrap_or_default())
    );
    if let Some(dest) = f["move_to"].as_str() {
        let _ = write!(out, " -> {}", esc(dest));
    }
    let _ = writeln!(out, "\n  fuzz: {}", f["fuzz"]);
    for h in f["hunks"].as_array().into_iter().flatten() {
        let names = |v: &Value| {
            let list: Vec<&str> = v
                .as_array()
                .map(|a| a.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            if list.is_empty() {
                "none".to_string()
            } else {
                list.join(",")
            }
        };
        let _ = writeln!(
            out,
            "  hunk {}: old={},{} new={},{} level={} fuzz={} candidates={} patch_line={} \
             flags={} line_levels={}",
            h["hunk"],
            h["old_start"],
            h["old_len"],
            h["new_start"],
            h["new_len"],
            h["level"].as_str().unwrap_or("?"),
            h["fuzz"],
            h["candidates"],
            h["patch_line"],
            names(&h["flags"]),
            names(&h["line_levels"])
        );
    }
}

/// Runs one vector as a directory scenario; returns what went wrong.
fn run_vector(dir: &Path) -> Vec<String> {
    let mut problems = Vec::new();
    let tmp = TempDir::new().expect("temporary directory");
    let work = tmp.path().join("work");
    copy_tree(&dir.join("before"), &work);
    let before = tree(&work);
    let patch = dir.join("patch");
    // A vector with base/ (the files as the model saw them) applies with --base-dir.
    let mut flags = option_flags(dir);
    if dir.join("base").is_dir() {
        flags.push("--base-dir".into());
        flags.push(dir.join("base").to_string_lossy().into_owned());
    }
    let outcome = fs::read_to_string(dir.join("outcome")).unwrap_or_default();

    // 1. Apply for real.
    let mut c = v4a();
    c.arg("apply")
        .arg("--dir")
        .arg(&work)
        .args(&flags)
        .arg(&patch);
    let out = run_with(c, None);
    let after_tree = tree(&work);
    check_real_apply(dir, &out, &outcome, (&before, &after_tree), &mut problems);

    // 2. The JSON report of a dry run on the untouched files: the vector's whole outcome.
    let tmp2 = TempDir::new().expect("temporary directory");
    let work2 = tmp2.path().join("work");
    copy_tree(&dir.join("before"), &work2);
    let mut c = v4a();
    c.args(["apply", "--json", "--dry-run", "--dir"])
        .arg(&work2)
        .args(&flags)
        .arg(&patch);
    let json_out = run_with(c, None);
    if tree(&work2) != before {
        problems.push("--dry-run --json changed the directory".into());
    }
    let after = files_of(&after_tree);
    check_json_report(&json_out, &outcome, &stderr(&out), &after, &mut problems);
    problems
}

/// The real apply of a vector: the files it expects (or none changed, for a failure) and the
/// exit status.
fn check_real_apply(
    dir: &Path,
    out: &Output,
    outcome: &str,
    (before, after_tree): (&BTreeMap<String, Node>, &BTreeMap<String, Node>),
    problems: &mut Vec<String>,
) {
    if !outcome.starts_with("status: OK\n") {
        if code(out) != 1 {
            problems.push(format!(
                "expected exit 1 ({}), got {}: {}",
                outcome.lines().next().unwrap_or_default(),
                code(out),
                stderr(out)
            ));
        }
        if after_tree != before {
            problems.push("the directory changed although the patch failed".into());
        }
        return;
    }
    let want = files_of(&tree(&dir.join("after")));
    if code(out) != 0 {
        problems.push(format!(
            "expected exit 0, got {}: {}",
            code(out),
            stderr(out)
        ));
    } else if !stdout(out).starts_with("Success. Updated the following files:\n") {
        problems.push(format!("unexpected stdout {:?}", stdout(out)));
    }
    let got = files_of(after_tree);
    if got != want {
        let keys: BTreeSet<&String> = want.keys().chain(got.keys()).collect();
        for k in keys {
            if want.get(k) != got.get(k) {
                problems.push(format!(
                    "{k}: expected {:?}, got {:?}",
                    want.get(k).map(|b| String::from_utf8_lossy(b).into_owned()),
                    got.get(k).map(|b| String::from_utf8_lossy(b).into_owned())
                ));
            }
        }
    }
}

/// The `--json --dry-run` report of a vector: its status and exit code, the message the real
/// apply printed, and, rendered, the vector's whole outcome.
fn check_json_report(
    out: &Output,
    outcome: &str,
    apply_stderr: &str,
    after: &BTreeMap<String, Vec<u8>>,
    problems: &mut Vec<String>,
) {
    let failed = !outcome.starts_with("status: OK\n");
    let doc = match serde_json::from_slice::<Value>(&out.stdout) {
        Err(e) => {
            problems.push(format!("--json printed no JSON ({e}): {}", stdout(out)));
            return;
        }
        Ok(doc) => doc,
    };
    let (want_code, written) = if failed {
        (1, doc["written"].clone())
    } else {
        (0, Value::Bool(false))
    };
    if doc["ok"] != !failed || doc["written"] != written || code(out) != want_code {
        problems.push(format!(
            "JSON {} with exit {want_code} expected: {doc}",
            if failed { "failure" } else { "success" }
        ));
    }
    if failed && doc["exit_code"] != 1 {
        problems.push(format!("JSON exit_code 1 expected: {doc}"));
    }
    if let Some(message) = doc["error"]["message"].as_str().filter(|_| failed) {
        if !apply_stderr.contains(message) {
            problems.push(format!(
                "stderr lacks the message {message:?}: {apply_stderr}"
            ));
        }
    }
    let rendered = render_json(&doc, after);
    if rendered != outcome {
        problems.push(format!(
            "the JSON report is not the vector's outcome:\n--- outcome\n{outcome}--- JSON\n{rendered}"
        ));
    }
}

#[test]
fn every_shared_vector_applies_to_a_directory() {
    let mut dirs: Vec<PathBuf> = fs::read_dir(vectors_dir())
        .expect("tests/vectors exists")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.is_dir() && !p.join("mode").exists())
        .collect();
    dirs.sort();
    let filter = std::env::var("V4A_VECTOR").ok();
    let mut report = String::new();
    let (mut passed, mut failed) = (0, 0);
    for dir in &dirs {
        let name = dir.file_name().unwrap_or_default().to_string_lossy();
        if filter.as_deref().is_some_and(|f| !name.contains(f)) {
            continue;
        }
        let problems = run_vector(dir);
        if problems.is_empty() {
            passed += 1;
        } else {
            failed += 1;
            let _ = writeln!(report, "--- {name}");
            for p in problems {
                let _ = writeln!(report, "  {p}");
            }
        }
    }
    assert!(
        failed == 0,
        "{report}\n{passed} vectors passed, {failed} failed"
    );
    assert!(
        filter.is_some() || passed >= 100,
        "only {passed} directory vectors ran"
    );
}

// ---------------------------------------------------------------------------------------------
// Input, output, exit codes
// ---------------------------------------------------------------------------------------------

const SIMPLE: &str = "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+uno\n*** End Patch\n";

#[test]
fn applies_a_patch_and_prints_the_summary() {
    let s = Scene::new(&[("a.txt", "one\ntwo\n")]);
    let out = s.apply(SIMPLE, &[]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "Success. Updated the following files:\nM a.txt\n"
    );
    assert_eq!(stderr(&out), "");
    assert_eq!(s.read("a.txt"), "uno\ntwo\n");
}

#[test]
fn reads_the_patch_from_stdin() {
    let s = Scene::new(&[("a.txt", "one\ntwo\n")]);
    let mut c = v4a();
    c.arg("apply").arg("--dir").arg(s.work()).arg("-");
    let out = run_with(c, Some(SIMPLE.as_bytes()));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(s.read("a.txt"), "uno\ntwo\n");

    // Without a PATCH argument, a piped stdin is read too.
    let patch = SIMPLE.replace("-one\n+uno", "-uno\n+eins");
    let mut c = v4a();
    c.arg("apply").arg("--dir").arg(s.work());
    let out = run_with(c, Some(patch.as_bytes()));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(s.read("a.txt"), "eins\ntwo\n");
}

#[test]
fn dir_defaults_to_the_current_directory() {
    let s = Scene::new(&[("a.txt", "one\n")]);
    let patch = s.patch_file(SIMPLE);
    let mut c = v4a();
    c.current_dir(s.work()).arg("apply").arg(&patch);
    let out = run_with(c, None);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(s.read("a.txt"), "uno\n");
}

#[test]
fn exit_1_when_the_patch_does_not_apply_with_the_diagnostic_on_stderr() {
    let s = Scene::new(&[("src/a.txt", "alpha\nbeta\n")]);
    let before = s.tree();
    let out = s.apply(
        "*** Begin Patch\n*** Update File: src/a.txt\n@@\n-gamma\n+delta\n*** End Patch\n",
        &[],
    );
    assert_eq!(code(&out), 1);
    assert_eq!(stdout(&out), "");
    let err = stderr(&out);
    assert!(err.contains("src/a.txt"), "{err}");
    assert!(err.contains("hunk 1 (patch line 3)"), "{err}");
    assert_eq!(s.tree(), before);

    // A syntax error is a patch that does not apply too.
    let out = s.apply(
        "*** Begin Patch\n*** Update File: src/a.txt\n@@\n-alpha\n",
        &[],
    );
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("*** End Patch"), "{}", stderr(&out));
}

#[test]
fn exit_2_on_usage_errors() {
    for args in [
        &["apply", "--no-such-flag"][..],
        &["frobnicate"],
        &["schema", "gemini"],
        &["schema", "openai-chat", "--shape", "files"],
        &["apply", "--max-level", "loose", "x.patch"],
        &["apply", "--strict", "--max-level", "trim", "x.patch"],
        &["diff", "only-one-file"],
        &["diff", "/dev/null", "/dev/null"],
    ] {
        let out = run(args);
        assert_eq!(code(&out), 2, "{args:?}: {}", stderr(&out));
        assert!(!stderr(&out).is_empty(), "{args:?}");
    }
    let out = run(&["schema", "gemini"]);
    assert!(
        stderr(&out).contains("openai-responses-custom"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn exit_3_on_io_errors() {
    let s = Scene::new(&[("a.txt", "one\n")]);
    let missing_patch = s.tmp.path().join("no-such.patch");
    let mut c = v4a();
    c.arg("apply")
        .arg("--dir")
        .arg(s.work())
        .arg(&missing_patch);
    let out = run_with(c, None);
    assert_eq!(code(&out), 3);
    assert!(stderr(&out).contains("no-such.patch"), "{}", stderr(&out));

    let patch = s.patch_file(SIMPLE);
    let mut c = v4a();
    c.arg("apply")
        .arg("--dir")
        .arg(s.tmp.path().join("no-such-dir"))
        .arg(&patch);
    let out = run_with(c, None);
    assert_eq!(code(&out), 3);
    assert!(stderr(&out).contains("no-such-dir"), "{}", stderr(&out));

    let out = run(&["diff", "/no/such/old", "/no/such/new"]);
    assert_eq!(code(&out), 3);
}

#[test]
fn help_explains_the_commands_with_examples() {
    let out = run(&["--help"]);
    assert_eq!(code(&out), 0);
    let help = stdout(&out);
    for word in [
        "apply",
        "diff",
        "reverse",
        "schema",
        "grammar",
        "instructions",
        "Examples:",
    ] {
        assert!(help.contains(word), "{word}: {help}");
    }
    let out = run(&["apply", "--help"]);
    assert_eq!(code(&out), 0);
    let help = stdout(&out);
    for word in [
        "--dry-run",
        "--json",
        "--strict",
        "--ensure-final-newline",
        "Exit status",
    ] {
        assert!(help.contains(word), "{word}: {help}");
    }
    let out = run(&["--version"]);
    assert_eq!(stdout(&out), format!("v4a {}\n", env!("CARGO_PKG_VERSION")));
}

// ---------------------------------------------------------------------------------------------
// Atomicity and restoration
// ---------------------------------------------------------------------------------------------

#[test]
fn nothing_is_written_when_the_last_operation_fails() {
    let s = Scene::new(&[
        ("a.txt", "a\n"),
        ("b.txt", "b\n"),
        ("gone.txt", "bye\n"),
        ("m.txt", "m\n"),
    ]);
    let before = s.tree();
    let patch = "*** Begin Patch\n\
                 *** Add File: new/n.txt\n+n\n\
                 *** Update File: a.txt\n@@\n-a\n+A\n\
                 *** Delete File: gone.txt\n\
                 *** Update File: m.txt\n*** Move to: moved/m.txt\n@@\n-m\n+M\n\
                 *** Update File: b.txt\n@@\n-not there\n+B\n\
                 *** End Patch\n";
    let out = s.apply(patch, &[]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert!(stderr(&out).contains("b.txt"), "{}", stderr(&out));
    assert_eq!(
        s.tree(),
        before,
        "not one file changed, no file or directory added"
    );
}

/// A patch touching every kind of operation, for the restoration tests.
const EVERY_OPERATION: &str = "*** Begin Patch\n\
    *** Update File: a.txt\n@@\n-a\n+A\n\
    *** Add File: new/deep/n.txt\n+n\n\
    *** Update File: m.txt\n*** Move to: moved/m.txt\n@@\n-m\n+M\n\
    *** Add File: over.txt\n+overwritten\n\
    *** Delete File: gone.txt\n\
    *** Update File: z.txt\n@@\n-z\n+Z\n\
    *** Delete File: last.txt\n\
    *** End Patch\n";

fn every_operation_scene() -> Scene {
    let s = Scene::new(&[
        ("a.txt", "a\n"),
        ("m.txt", "m\n"),
        ("over.txt", "old\n"),
        ("gone.txt", "bye\n"),
        ("z.txt", "z\n"),
        ("last.txt", "last\n"),
    ]);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(s.work().join("a.txt"), fs::Permissions::from_mode(0o600))
            .expect("chmod");
    }
    s
}

#[test]
fn a_write_failing_midway_restores_the_files_already_changed() {
    for fail_at in ["z.txt", "last.txt", "over.txt"] {
        let s = every_operation_scene();
        let before = s.tree();
        let patch = s.patch_file(EVERY_OPERATION);
        let mut c = v4a();
        c.env("V4A_TEST_FAIL_WRITE", fail_at)
            .args(["apply", "--allow-overwrite"])
            .arg("--dir")
            .arg(s.work())
            .arg(&patch);
        let out = run_with(c, None);
        if cfg!(debug_assertions) {
            // The hook exists in debug builds: the write of `fail_at` fails.
            assert_eq!(code(&out), 3, "{fail_at}: {}", stderr(&out));
            let err = stderr(&out);
            assert!(
                err.contains(&format!(" {fail_at}: injected failure")),
                "{err}"
            );
            assert!(
                err.contains("Nothing was changed: the files already replaced were put back"),
                "{err}"
            );
            assert_eq!(
                s.tree(),
                before,
                "{fail_at}: every file and directory as before"
            );
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                let mode = fs::metadata(s.work().join("a.txt"))
                    .expect("a.txt")
                    .permissions();
                assert_eq!(mode.mode() & 0o777, 0o600, "restored with its permissions");
            }
        } else {
            // Release builds do not have the hook: the patch applies.
            assert_eq!(code(&out), 0, "{}", stderr(&out));
            assert_eq!(s.read("z.txt"), "Z\n");
        }
    }
}

#[test]
fn a_write_failing_midway_is_reported_in_json() {
    if !cfg!(debug_assertions) {
        return; // the failure hook exists in debug builds only (see the test above)
    }
    let s = every_operation_scene();
    let before = s.tree();
    let patch = s.patch_file(EVERY_OPERATION);
    let mut c = v4a();
    c.env("V4A_TEST_FAIL_WRITE", "last.txt")
        .args(["apply", "--allow-overwrite", "--json", "--dir"])
        .arg(s.work())
        .arg(&patch);
    let out = run_with(c, None);
    assert_eq!(code(&out), 3);
    let doc = json_of(&out);
    assert_eq!(doc["ok"], false);
    assert_eq!(doc["exit_code"], 3);
    assert_eq!(doc["error"]["status"], "IO_ERROR");
    assert_eq!(doc["error"]["path"], "last.txt");
    assert_eq!(doc["error"]["needs_recovery"], false);
    assert_eq!(s.tree(), before);
}

#[test]
fn a_file_where_a_directory_is_needed_is_refused_before_writing() {
    // `x` is written as a file and needed as a directory by another operation.
    let s = Scene::new(&[("a.txt", "a\n"), ("b.txt", "b\n")]);
    let before = s.tree();
    let out = s.apply(
        "*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+A\n*** Add File: x/y.txt\n+y\n\
         *** Update File: b.txt\n*** Move to: x\n*** End Patch\n",
        &[],
    );
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("needs a directory"),
        "{}",
        stderr(&out)
    );
    assert_eq!(s.tree(), before);

    // A directory where the patch wants a file.
    fs::create_dir(s.work().join("dir.txt")).expect("directory");
    let before = s.tree();
    for patch in [
        "*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+A\n*** Add File: dir.txt\n+x\n*** End Patch\n",
        "*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+A\n*** Delete File: dir.txt\n*** End Patch\n",
        "*** Begin Patch\n*** Update File: dir.txt\n@@\n-a\n+A\n*** End Patch\n",
    ] {
        let out = s.apply(patch, &["--json"]);
        assert_eq!(code(&out), 1, "{patch}: {}", stderr(&out));
        let doc = json_of(&out);
        assert_eq!(doc["error"]["status"], "PATH_CONFLICT", "{doc}");
        assert!(doc["error"]["message"].as_str().unwrap_or_default().contains("is a directory"));
        assert_eq!(s.tree(), before);
    }

    // A file where the path needs a directory.
    let out = s.apply(
        "*** Begin Patch\n*** Add File: a.txt/b.txt\n+x\n*** End Patch\n",
        &[],
    );
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("a.txt is a file, not a directory"),
        "{}",
        stderr(&out)
    );
    assert_eq!(s.tree(), before);
}

#[test]
fn two_spellings_of_one_file_are_a_duplicate() {
    let s = Scene::new(&[("a.txt", "a\nb\n")]);
    let before = s.tree();
    let out = s.apply(
        "*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+A\n*** Update File: ./a.txt\n@@\n-b\n+B\n*** End Patch\n",
        &["--json"],
    );
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let doc = json_of(&out);
    assert_eq!(doc["error"]["status"], "DUPLICATE_PATH");
    assert_eq!(doc["error"]["code"], 15);
    assert_eq!(doc["error"]["patch_line"], 6);
    assert_eq!(s.tree(), before);
}

// ---------------------------------------------------------------------------------------------
// Path safety
// ---------------------------------------------------------------------------------------------

#[test]
fn paths_outside_the_directory_are_refused() {
    let s = Scene::new(&[("a.txt", "a\n"), ("b.txt", "b\n")]);
    let outside = s.tmp.path().join("outside.txt");
    fs::write(&outside, "secret\n").expect("outside file");
    let before = s.tree();
    let abs = outside.to_string_lossy().into_owned();
    let cases = [
        (
            format!("*** Update File: {abs}\n@@\n-secret\n+pwned\n"),
            "absolute",
        ),
        (
            "*** Update File: ../outside.txt\n@@\n-secret\n+pwned\n".to_string(),
            "\"..\"",
        ),
        (
            "*** Add File: sub/../../outside2.txt\n+pwned\n".to_string(),
            "\"..\"",
        ),
        ("*** Add File: a\0b.txt\n+x\n".to_string(), "NUL"),
        (
            "*** Update File: b.txt\n*** Move to: ../moved.txt\n@@\n-b\n+B\n".to_string(),
            "\"..\"",
        ),
        ("*** Delete File: ..\\outside.txt\n".to_string(), "\"..\""),
    ];
    for (body, why) in cases {
        let patch =
            format!("*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+A\n{body}*** End Patch\n");
        let out = s.apply(&patch, &[]);
        assert_eq!(code(&out), 1, "{body}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(err.contains(why), "{why}: {err}");
        assert!(err.contains("nothing was changed"), "{err}");
        assert_eq!(s.tree(), before, "{body}");
        assert_eq!(fs::read_to_string(&outside).expect("outside"), "secret\n");
        assert!(!s.tmp.path().join("outside2.txt").exists());
        assert!(!s.tmp.path().join("moved.txt").exists());
    }
    let out = s.apply(
        &format!("*** Begin Patch\n*** Delete File: {abs}\n*** End Patch\n"),
        &["--json"],
    );
    let doc = json_of(&out);
    assert_eq!(doc["error"]["status"], "UNSAFE_PATH");
    assert_eq!(doc["error"]["path"], abs.as_str());
    assert_eq!(doc["error"]["patch_line"], 2);
    assert!(outside.exists());
}

#[cfg(unix)]
#[test]
fn symbolic_links_that_leave_the_directory_are_refused() {
    use std::os::unix::fs::symlink;
    let s = Scene::new(&[("a.txt", "a\n"), ("inside/target.txt", "in\n")]);
    let outside_dir = s.tmp.path().join("outside");
    fs::create_dir(&outside_dir).expect("outside directory");
    fs::write(outside_dir.join("secret.txt"), "secret\n").expect("outside file");
    symlink(&outside_dir, s.work().join("out")).expect("directory link");
    symlink(
        outside_dir.join("secret.txt"),
        s.work().join("secret-link.txt"),
    )
    .expect("file link");
    symlink("missing.txt", s.work().join("dangling.txt")).expect("dangling link");
    let before = s.tree();
    for body in [
        "*** Update File: out/secret.txt\n@@\n-secret\n+pwned\n",
        "*** Add File: out/new.txt\n+pwned\n",
        "*** Update File: secret-link.txt\n@@\n-secret\n+pwned\n",
        "*** Delete File: out/secret.txt\n",
        "*** Update File: a.txt\n*** Move to: out/a.txt\n@@\n-a\n+A\n",
        "*** Add File: dangling.txt\n+x\n",
    ] {
        let patch = format!("*** Begin Patch\n{body}*** End Patch\n");
        let out = s.apply(&patch, &[]);
        assert_eq!(code(&out), 1, "{body}: {}", stderr(&out));
        if body.contains("dangling") {
            // The name is taken (by a link): an Add onto it is FILE_EXISTS, and nothing is
            // created through the link.
            assert!(stderr(&out).contains("already exists"), "{}", stderr(&out));
        } else {
            assert!(stderr(&out).contains("symbolic link"), "{}", stderr(&out));
        }
        assert_eq!(s.tree(), before, "{body}");
        assert_eq!(
            fs::read_to_string(outside_dir.join("secret.txt")).expect("secret"),
            "secret\n"
        );
        assert!(!outside_dir.join("new.txt").exists());
        assert!(!outside_dir.join("a.txt").exists());
        assert!(!s.work().join("missing.txt").exists());
    }
}

#[cfg(unix)]
#[test]
fn symbolic_links_inside_the_directory_are_written_through() {
    use std::os::unix::fs::symlink;
    let s = Scene::new(&[("real/target.txt", "one\n"), ("doomed.txt", "x\n")]);
    symlink("real/target.txt", s.work().join("link.txt")).expect("file link");
    symlink("real", s.work().join("dirlink")).expect("directory link");
    symlink("doomed.txt", s.work().join("doomed-link.txt")).expect("link to delete");
    let out = s.apply(
        "*** Begin Patch\n*** Update File: link.txt\n@@\n-one\n+two\n\
         *** Add File: dirlink/new.txt\n+new\n\
         *** Delete File: doomed-link.txt\n*** End Patch\n",
        &[],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    // The link stays a link; its target has the new text.
    let t = s.tree();
    assert_eq!(t["link.txt"], Node::Link(PathBuf::from("real/target.txt")));
    assert_eq!(t["real/target.txt"], Node::File(b"two\n".to_vec()));
    assert_eq!(t["real/new.txt"], Node::File(b"new\n".to_vec()));
    // Deleting a link removes the link, not its target.
    assert!(!t.contains_key("doomed-link.txt"));
    assert_eq!(t["doomed.txt"], Node::File(b"x\n".to_vec()));
}

// ---------------------------------------------------------------------------------------------
// File fidelity
// ---------------------------------------------------------------------------------------------

#[cfg(unix)]
#[test]
fn permissions_are_kept() {
    use std::os::unix::fs::PermissionsExt;
    let s = Scene::new(&[("run.sh", "#!/bin/sh\necho one\n"), ("ro.txt", "ro\n")]);
    let mode = |p: &str| {
        fs::metadata(s.work().join(p))
            .expect("metadata")
            .permissions()
            .mode()
            & 0o7777
    };
    fs::set_permissions(s.work().join("run.sh"), fs::Permissions::from_mode(0o751)).expect("chmod");
    fs::set_permissions(s.work().join("ro.txt"), fs::Permissions::from_mode(0o444)).expect("chmod");
    let patch = "*** Begin Patch\n*** Update File: run.sh\n@@\n-echo one\n+echo two\n\
         *** Update File: ro.txt\n*** Move to: moved/ro.txt\n@@\n-ro\n+RO\n*** End Patch\n";
    // A read-only file is refused unless allowed.
    let before = s.tree();
    let out = s.apply(patch, &[]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("ro.txt (patch line 6) is read-only (mode 0444)"),
        "{}",
        stderr(&out)
    );
    assert_eq!(s.tree(), before);
    let out = s.apply(patch, &["--allow-read-only"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(s.read("run.sh"), "#!/bin/sh\necho two\n");
    assert_eq!(mode("run.sh"), 0o751);
    assert_eq!(s.read("moved/ro.txt"), "RO\n");
    assert_eq!(
        mode("moved/ro.txt"),
        0o444,
        "a moved file keeps its permissions"
    );
    // No temporary file is left behind.
    let names: Vec<String> = s.tree().into_keys().collect();
    assert_eq!(names, ["moved", "moved/ro.txt", "run.sh"]);
}

#[test]
fn line_endings_and_options_reach_the_engine() {
    let s = Scene::new(&[("w.txt", "a\r\nb\r\n"), ("t.txt", "x \ny\n")]);
    let out = s.apply(
        "*** Begin Patch\n*** Update File: w.txt\n@@\n a\n-b\n+c\n+d\n*** End Patch\n",
        &[],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        fs::read(s.work().join("w.txt")).expect("w"),
        b"a\r\nc\r\nd\r\n"
    );

    // --strict refuses a match that needs trailing whitespace ignored.
    let fuzzy = "*** Begin Patch\n*** Update File: t.txt\n@@\n x\n-y\n+z\n*** End Patch\n";
    let out = s.apply(fuzzy, &["--strict"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert_eq!(s.read("t.txt"), "x \ny\n");
    let out = s.apply(fuzzy, &["--max-fuzz", "0"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let out = s.apply(fuzzy, &[]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(s.read("t.txt"), "x \nz\n");

    // --ensure-final-newline
    write_files(&s.work(), &[("n.txt", "p\nq")]);
    let out = s.apply(
        "*** Begin Patch\n*** Update File: n.txt\n@@\n-p\n+P\n*** End Patch\n",
        &["--ensure-final-newline"],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(s.read("n.txt"), "P\nq\n");
}

// ---------------------------------------------------------------------------------------------
// --dry-run and --json
// ---------------------------------------------------------------------------------------------

const TWO_FILES: &str = "*** Begin Patch\n\
    *** Update File: app.py\n@@     def total(self):\n-    return sum(self.items)\n+    return sum(self.items) * self.rate\n\
    *** Add File: notes.md\n+# Notes\n\
    *** End Patch\n";

fn app_scene() -> Scene {
    Scene::new(&[(
        "app.py",
        "class Cart:\n    def total(self):\n    return sum(self.items)\n",
    )])
}

#[test]
fn dry_run_writes_nothing_and_shows_the_diff_and_the_report() {
    let s = app_scene();
    let before = s.tree();
    let out = s.apply(TWO_FILES, &["--dry-run"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(s.tree(), before);
    assert_eq!(
        stdout(&out),
        "--- a/app.py\n+++ b/app.py\n@@ -1,3 +1,3 @@\n class Cart:\n     def total(self):\n\
         -    return sum(self.items)\n+    return sum(self.items) * self.rate\n\
         --- /dev/null\n+++ b/notes.md\n@@ -0,0 +1 @@\n+# Notes\n\
         \n\
         Dry run: nothing was written. The patch applies:\n\
         M app.py: 1 hunk, +1 -1, fuzz 0\n  hunk 1 (patch line 3): line 3 -> 3, exact\n\
         A notes.md: new file, 1 line\n"
    );
    assert!(
        !stdout(&out).contains('\x1b'),
        "no colour when stdout is not a terminal"
    );
}

#[test]
fn dry_run_colours_and_highlights_changed_characters_when_asked() {
    let s = app_scene();
    let colour = |envs: &[(&str, &str)], extra: &[&str]| {
        let patch = s.patch_file(TWO_FILES);
        let mut c = v4a();
        c.args(["apply", "--dry-run", "--dir"])
            .arg(s.work())
            .args(extra)
            .arg(&patch);
        for (k, v) in envs {
            c.env(k, v);
        }
        stdout(&run_with(c, None))
    };
    let forced = colour(&[("CLICOLOR_FORCE", "1")], &[]);
    let always = colour(&[], &["--color", "always"]);
    assert_eq!(forced, always);
    // The added line is green; the characters it adds (" * self.rate") are inverted.
    assert!(
        always.contains(
            "\x1b[32m+    return sum(self.items)\x1b[0m\x1b[7m\x1b[32m * self.rate\x1b[0m"
        ),
        "{always:?}"
    );
    assert!(
        always.contains("\x1b[31m-    return sum(self.items)\x1b[0m"),
        "{always:?}"
    );
    // NO_COLOR wins over CLICOLOR_FORCE; --color never wins over everything.
    let plain = colour(&[], &[]);
    assert_eq!(
        colour(&[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")], &[]),
        plain
    );
    assert_eq!(
        colour(&[("CLICOLOR_FORCE", "1")], &["--color", "never"]),
        plain
    );
    assert!(!plain.contains('\x1b'));
}

#[test]
fn json_reports_every_file_and_hunk() {
    let s = app_scene();
    let out = s.apply(TWO_FILES, &["--json", "--json-diff"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(s.read("notes.md"), "# Notes\n");
    let doc = json_of(&out);
    assert_eq!(doc["ok"], true);
    assert_eq!(doc["dry_run"], false);
    assert_eq!(doc["written"], true);
    assert_eq!(
        doc["summary"],
        "Success. Updated the following files:\nM app.py\nA notes.md\n"
    );
    let app = &doc["files"][0];
    assert_eq!(app["operation"], "update");
    assert_eq!(app["path"], "app.py");
    assert_eq!(app["move_to"], Value::Null);
    assert_eq!(app["changed"], true);
    assert_eq!(app["fuzz"], 0);
    assert_eq!(
        app["hunks"],
        serde_json::json!([{
            "hunk": 1, "patch_line": 3,
            "old_start": 3, "old_len": 1, "new_start": 3, "new_len": 1,
            "level": "exact", "line_levels": ["exact"], "fuzz": 0, "candidates": 1, "flags": []
        }])
    );
    let diff = app["diff"].as_array().expect("structured diff");
    let kinds: Vec<&str> = diff.iter().filter_map(|d| d["kind"].as_str()).collect();
    assert_eq!(kinds, ["equal", "equal", "delete", "add"]);
    assert_eq!(diff[3]["text"], "    return sum(self.items) * self.rate");
    assert_eq!(diff[3]["old_line"], Value::Null);
    assert_eq!(diff[3]["new_line"], 3);
    assert_eq!(diff[3]["hunk"], 1);
    assert_eq!(
        diff[3]["segments"],
        serde_json::json!([
            {"kind": "equal", "start": 0, "end": 26},
            {"kind": "add", "start": 26, "end": 38}
        ])
    );
    assert!(app["unified_diff"]
        .as_str()
        .unwrap_or_default()
        .starts_with("--- a/app.py\n"));
    let notes = &doc["files"][1];
    assert_eq!(notes["operation"], "add");
    assert_eq!(notes["hunks"], serde_json::json!([]));
}

#[test]
fn json_leaves_out_the_per_line_diff_unless_asked() {
    let with = app_scene().apply(TWO_FILES, &["--json", "--json-diff"]);
    let without = app_scene().apply(TWO_FILES, &["--json"]);
    assert_eq!(code(&without), 0, "{}", stderr(&without));
    let mut with = json_of(&with);
    let without = json_of(&without);
    for f in without["files"].as_array().expect("files") {
        assert!(f.get("diff").is_none(), "{f}");
        assert!(f["unified_diff"].is_string(), "{f}");
    }
    // The same document otherwise.
    for f in with["files"].as_array_mut().expect("files") {
        let diff = f.as_object_mut().and_then(|o| o.remove("diff"));
        assert!(diff.is_some_and(|d| d.is_array()));
    }
    assert_eq!(with, without);
    // Asking for the diff without --json is a usage error.
    let out = app_scene().apply(TWO_FILES, &["--json-diff"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
}

#[test]
fn json_reports_an_ambiguity_with_its_candidates() {
    let s = Scene::new(&[("a.py", "def f():\n    x = 1\n\ndef g():\n    x = 1\n")]);
    let before = s.tree();
    let out = s.apply(
        "*** Begin Patch\n*** Update File: a.py\n-    x = 1\n+    x = 2\n*** End Patch\n",
        &["--json"],
    );
    assert_eq!(code(&out), 1);
    assert_eq!(stderr(&out), "", "with --json the error is in the JSON");
    assert_eq!(s.tree(), before);
    let doc = json_of(&out);
    assert_eq!(doc["ok"], false);
    assert_eq!(doc["written"], false);
    assert_eq!(doc["exit_code"], 1);
    let e = &doc["error"];
    assert_eq!(e["status"], "AMBIGUOUS");
    assert_eq!(e["code"], 9);
    assert_eq!(e["category"], "ambiguous match");
    assert_eq!(e["path"], "a.py");
    assert_eq!(e["hunk"], 1);
    assert_eq!(e["patch_line"], 3);
    assert_eq!(e["candidates"], serde_json::json!([2, 5]));
    assert!(
        e["suggestion"]
            .as_str()
            .unwrap_or_default()
            .contains("@@ def"),
        "{e}"
    );
    assert!(
        e["message"]
            .as_str()
            .unwrap_or_default()
            .contains("lines 2 and 5"),
        "{e}"
    );
}

#[test]
fn json_reports_a_missing_context_with_the_corrected_hunk() {
    let s = Scene::new(&[("a.txt", "alpha\nbeta\ngamma\n")]);
    let out = s.apply(
        "*** Begin Patch\n*** Update File: a.txt\n@@\n alpha\n-betta\n+delta\n*** End Patch\n",
        &["--json", "--dry-run"],
    );
    assert_eq!(code(&out), 1);
    let doc = json_of(&out);
    assert_eq!(doc["dry_run"], true);
    let e = &doc["error"];
    assert_eq!(e["status"], "CONTEXT_NOT_FOUND");
    assert_eq!(e["closest"]["start_line"], 1);
    assert_eq!(e["closest"]["end_line"], 2);
    assert!(e["closest"]["similarity"]
        .as_f64()
        .is_some_and(|x| x > 0.5 && x < 1.0));
    assert!(
        e["corrected_hunk"]
            .as_str()
            .unwrap_or_default()
            .contains("-beta\n+delta"),
        "{e}"
    );
}

// ---------------------------------------------------------------------------------------------
// diff, reverse, the tool kit
// ---------------------------------------------------------------------------------------------

#[test]
fn diff_output_applies_back_exactly() {
    let pairs: [(&str, &str); 6] = [
        ("a\nb\nc\n", "a\nB\nc\n"),
        ("x\n", "x\ny"),
        ("one\r\ntwo\r\n", "one\r\n2\r\nthree\r\n"),
        (
            "fn a() {\n    1\n}\nfn b() {\n    1\n}\n",
            "fn a() {\n    1\n}\nfn b() {\n    2\n}\n",
        ),
        ("", "new\n"),
        ("\u{feff}bom\nline\n", "\u{feff}bom\nLINE\n"),
    ];
    for (old, new) in pairs {
        let s = Scene::new(&[("src/f.txt", old)]);
        let (o, n) = (s.tmp.path().join("old"), s.tmp.path().join("new"));
        fs::write(&o, old).expect("old");
        fs::write(&n, new).expect("new");
        let mut c = v4a();
        c.arg("diff").arg(&o).arg(&n).args(["--path", "src/f.txt"]);
        let out = run_with(c, None);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        let patch = stdout(&out);
        assert!(
            patch.starts_with("*** Begin Patch\n*** Update File: src/f.txt\n"),
            "{patch}"
        );
        let out = s.apply(&patch, &[]);
        assert_eq!(code(&out), 0, "{patch}\n{}", stderr(&out));
        assert_eq!(
            fs::read(s.work().join("src/f.txt")).expect("f"),
            new.as_bytes(),
            "{patch}"
        );
    }
}

/// `v4a diff OLD NEW` for texts that differ in their line terminators or BOM, which a V4A
/// patch cannot carry: the patch it prints (if any) and its exit status and stderr.
fn diff_of(old: &str, new: &str) -> (Scene, Output) {
    let s = Scene::new(&[("src/f.txt", old)]);
    let (o, n) = (s.tmp.path().join("old"), s.tmp.path().join("new"));
    fs::write(&o, old).expect("old");
    fs::write(&n, new).expect("new");
    let mut c = v4a();
    c.arg("diff").arg(&o).arg(&n).args(["--path", "src/f.txt"]);
    let out = run_with(c, None);
    (s, out)
}

#[test]
fn diff_of_a_terminator_or_bom_change_alone_prints_no_patch_and_says_why() {
    let cases = [
        (
            "a\nb\n",
            "a\r\nb\r\n",
            "changes the line terminators from LF to CRLF",
        ),
        (
            "a\r\nb\r\n",
            "a\nb\n",
            "changes the line terminators from CRLF to LF",
        ),
        ("a\nb\n", "\u{feff}a\nb\n", "adds a byte order mark"),
        ("\u{feff}a\r\nb", "a\r\nb", "removes the byte order mark"),
        (
            "a\nb\n",
            "\u{feff}a\r\nb\r\n",
            "adds a byte order mark and changes the line terminators from LF to CRLF",
        ),
    ];
    for (old, new, what) in cases {
        let (_s, out) = diff_of(old, new);
        assert_eq!(code(&out), 1, "{old:?} -> {new:?}: {}", stderr(&out));
        assert_eq!(stdout(&out), "", "{old:?} -> {new:?}");
        let err = stderr(&out);
        assert!(
            err.contains(&format!("NEW differs from OLD only in that it {what}"))
                && err.contains("no patch to print"),
            "{old:?} -> {new:?}: {err}"
        );
    }
}

#[test]
fn diff_with_a_terminator_or_bom_change_warns_and_keeps_the_files_style() {
    // (old, new, what the warning names, the file after applying the printed patch to old)
    let cases = [
        (
            "a\nb\nc\n",
            "a\r\nB\r\nc\r\n",
            "changes the line terminators from LF to CRLF",
            "a\nB\nc\n",
        ),
        (
            "a\r\nb\r\n",
            "a\nb\nc\n",
            "changes the line terminators from CRLF to LF",
            "a\r\nb\r\nc\r\n",
        ),
        (
            "\u{feff}x\ny\n",
            "x\nY\n",
            "removes the byte order mark",
            "\u{feff}x\nY\n",
        ),
        ("x\ny\n", "\u{feff}x\ny", "adds a byte order mark", "x\ny"),
    ];
    for (old, new, what, after) in cases {
        let (s, out) = diff_of(old, new);
        assert_eq!(code(&out), 0, "{old:?} -> {new:?}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(
            err.contains(&format!("warning: src/f.txt: NEW also {what}")),
            "{old:?} -> {new:?}: {err}"
        );
        let patch = stdout(&out);
        let applied = s.apply(&patch, &[]);
        assert_eq!(code(&applied), 0, "{patch}\n{}", stderr(&applied));
        assert_eq!(
            String::from_utf8(fs::read(s.work().join("src/f.txt")).expect("f")).expect("utf-8"),
            after,
            "{patch}"
        );
    }
    // Mixed terminators in OLD give no style to convert to: the engine's refusal stands.
    let (_s, out) = diff_of("a\r\nb\n", "a\nc\n");
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert!(stderr(&out).contains("cannot express"), "{}", stderr(&out));
}

#[test]
fn diff_against_dev_null_adds_and_deletes() {
    let s = Scene::new(&[("gone.txt", "bye\n")]);
    let n = s.tmp.path().join("n.txt");
    fs::write(&n, "hello\nworld").expect("n");
    let mut c = v4a();
    c.args(["diff", "/dev/null"])
        .arg(&n)
        .args(["--path", "docs/n.txt"]);
    let add = stdout(&run_with(c, None));
    assert_eq!(
        add,
        "*** Begin Patch\n*** Add File: docs/n.txt\n+hello\n+world\n\\ No newline at end of file\n*** End Patch\n"
    );
    let out = s.apply(&add, &[]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(s.read("docs/n.txt"), "hello\nworld");

    let mut c = v4a();
    c.arg("diff")
        .arg(s.work().join("gone.txt"))
        .arg("/dev/null");
    let del = stdout(&run_with(c, None));
    assert_eq!(
        del,
        "*** Begin Patch\n*** Delete File: gone.txt\n*** End Patch\n"
    );
    let out = s.apply(&del, &[]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(!s.work().join("gone.txt").exists());
}

#[test]
fn reverse_undoes_a_patch() {
    let s = Scene::new(&[
        ("a.txt", "one\ntwo\nthree\n"),
        ("gone.txt", "bye\n"),
        ("m.txt", "m\n"),
    ]);
    let before = s.tree();
    let patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n one\n-two\n+2\n\
                 *** Delete File: gone.txt\n*** Add File: new.txt\n+new\n\
                 *** Update File: m.txt\n*** Move to: sub/m.txt\n*** End Patch\n";
    let patch_path = s.patch_file(patch);
    let mut c = v4a();
    c.arg("reverse").arg("--dir").arg(s.work()).arg(&patch_path);
    let out = run_with(c, None);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let undo = stdout(&out);
    assert_eq!(s.tree(), before, "reverse writes nothing");

    let out = s.apply(patch, &[]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_ne!(files_of(&s.tree()), files_of(&before));
    let out = s.apply(&undo, &[]);
    assert_eq!(code(&out), 0, "{undo}\n{}", stderr(&out));
    assert_eq!(files_of(&s.tree()), files_of(&before), "{undo}");
}

#[test]
fn schema_grammar_and_instructions_print_the_tool_kit() {
    use v4a::tools::{Flavor, Shape};
    let with_newline = |s: &str| {
        if s.ends_with('\n') {
            s.to_string()
        } else {
            format!("{s}\n")
        }
    };
    for flavor in Flavor::ALL {
        for shape in Shape::ALL {
            let out = run(&["schema", flavor.name(), "--shape", shape.name()]);
            assert_eq!(code(&out), 0);
            assert_eq!(
                stdout(&out),
                with_newline(v4a::tools::tool_schema(flavor, shape))
            );
            let parsed: Value = serde_json::from_slice(&out.stdout).expect("a JSON definition");
            assert!(parsed.is_object());
        }
    }
    let out = run(&["schema", "OpenAI-Chat"]);
    assert_eq!(
        stdout(&out),
        with_newline(v4a::tools::tool_schema(Flavor::OpenAiChat, Shape::Input))
    );
    assert_eq!(
        stdout(&run(&["grammar"])),
        with_newline(v4a::tools::grammar())
    );
    assert_eq!(
        stdout(&run(&["grammar", "--shape", "file"])),
        with_newline(v4a::tools::file_grammar())
    );
    assert_eq!(
        stdout(&run(&["instructions"])),
        with_newline(v4a::tools::instructions())
    );
}

// ---------------------------------------------------------------------------------------------
// The demo and the README
// ---------------------------------------------------------------------------------------------

fn demo_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join("examples/demo")
}

/// Runs `v4a apply --dir examples/demo <args>` from the repository root, as the README does.
fn demo(args: &[&str]) -> Output {
    let mut c = v4a();
    c.current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."))
        .args(["apply", "--dir", "examples/demo"])
        .args(args);
    run_with(c, None)
}

#[test]
fn the_readme_shows_the_real_output_of_the_demo() {
    let before = tree(&demo_dir());
    let out = demo(&["--dry-run", "examples/demo/fix.patch"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(tree(&demo_dir()), before, "the demo is a dry run");
    let readme = fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join("README.md"),
    )
    .expect("README.md");
    assert!(
        readme.contains(
            "cargo run --release -- apply --dir examples/demo --dry-run examples/demo/fix.patch"
        ),
        "the README's first command runs the demo"
    );
    let shown = format!("```text\n{}```", stdout(&out));
    assert!(
        readme.contains(&shown),
        "the README must show the demo's real output:\n{shown}"
    );

    let out = demo(&["examples/demo/ambiguous.patch"]);
    assert_eq!(code(&out), 1);
    let shown = format!(
        "```text\n$ v4a apply --dir examples/demo examples/demo/ambiguous.patch\n{}```",
        stderr(&out)
    );
    assert!(
        readme.contains(&shown),
        "the README shows the ambiguity error:\n{shown}"
    );
    assert_eq!(tree(&demo_dir()), before);
}

#[test]
fn the_demo_patch_applies_byte_for_byte() {
    let tmp = TempDir::new().expect("temporary directory");
    copy_tree(&demo_dir(), tmp.path());
    let mut c = v4a();
    c.arg("apply")
        .arg("--dir")
        .arg(tmp.path())
        .arg(demo_dir().join("fix.patch"));
    let out = run_with(c, None);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let read = |p: &str| fs::read(tmp.path().join(p)).expect("demo file");
    // CRLF kept, and the added line takes CRLF too.
    assert_eq!(
        read("settings.ini"),
        b"[server]\r\nhost = 127.0.0.1\r\nport = 8080\r\n\r\n[cache]\r\nenabled = true\r\nttl = 60\r\nsize = 100\r\n"
    );
    // Lines written with spaces land with the file's tabs.
    let go = String::from_utf8(read("main.go")).expect("UTF-8");
    assert!(go.contains("\tif name == \"\" {\n\t\tname = \"stranger\"\n\t\tfmt.Println(\"no name given\")\n\t}\n"), "{go}");
    // The em dash the patch wrote as "-" is kept; the anchored fix landed in Cart, not Wishlist.
    let py = String::from_utf8(read("app.py")).expect("UTF-8");
    assert!(
        py.contains("return f\"Cart \u{2014} {len(self.items)} items, {self.total():.2f} total\""),
        "{py}"
    );
    assert!(py.contains("            total += price * qty\n"), "{py}");

    // The stale patch fails with the corrected hunk, and nothing changes.
    let before = tree(tmp.path());
    let mut c = v4a();
    c.arg("apply")
        .arg("--dir")
        .arg(tmp.path())
        .arg(demo_dir().join("stale.patch"));
    let out = run_with(c, None);
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("Resend the hunk with the file's real lines"),
        "{}",
        stderr(&out)
    );
    assert!(
        stderr(&out).contains("-\tfmt.Println(greet(\"\"))"),
        "{}",
        stderr(&out)
    );
    assert_eq!(tree(tmp.path()), before);
}

#[test]
fn base_dir_locates_the_hunks_where_the_model_saw_them() {
    let tmp = TempDir::new().expect("temporary directory");
    let (dir, base) = (tmp.path().join("work"), tmp.path().join("base"));
    fs::create_dir_all(&dir).unwrap();
    fs::create_dir_all(&base).unwrap();
    // The model read a.py; since then the function it edits was copied above the imports, so
    // the hunk's lines occur twice and a plain apply refuses. The base's other lines (the
    // imports before the function) say which copy the model saw. (With nothing but the edited
    // line itself to go by, a copy is a second reading and the merge refuses too: the vector
    // `base-ambiguous-copied-line-without-context`.)
    write_files(
        &base,
        &[("a.py", "import os\nimport sys\n\ndef f():\n    run(1)\n")],
    );
    write_files(
        &dir,
        &[(
            "a.py",
            "def f():\n    run(1)\n\nimport os\nimport sys\n\ndef f():\n    run(1)\n",
        )],
    );
    let patch = tmp.path().join("p.patch");
    fs::write(
        &patch,
        "*** Begin Patch\n*** Update File: a.py\n def f():\n-    run(1)\n+    run(2)\n*** End Patch\n",
    )
    .unwrap();
    let dir_s = dir.to_str().unwrap();
    let patch_s = patch.to_str().unwrap();
    let plain = run(&["apply", "--dir", dir_s, patch_s]);
    assert_eq!(code(&plain), 1, "{}", stderr(&plain));
    assert!(
        stderr(&plain).contains("matches 2 places"),
        "{}",
        stderr(&plain)
    );
    let out = run(&[
        "apply",
        "--dir",
        dir_s,
        "--base-dir",
        base.to_str().unwrap(),
        patch_s,
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        fs::read_to_string(dir.join("a.py")).unwrap(),
        "def f():\n    run(1)\n\nimport os\nimport sys\n\ndef f():\n    run(2)\n"
    );
    // Now the current file changed the very line the patch changes: CONFLICT, nothing written.
    write_files(&dir, &[("a.py", "def f():\n    run(10)\n")]);
    let out = run(&[
        "apply",
        "--dir",
        dir_s,
        "--base-dir",
        base.to_str().unwrap(),
        patch_s,
    ]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("conflicts with a change made to a.py"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        fs::read_to_string(dir.join("a.py")).unwrap(),
        "def f():\n    run(10)\n"
    );
}

#[test]
fn reverse_after_apply_undoes_the_patch() {
    let tmp = TempDir::new().expect("temporary directory");
    let dir = tmp.path().join("work");
    fs::create_dir_all(&dir).unwrap();
    write_files(&dir, &[("a.txt", "one\ntwo\n"), ("m.txt", "x\n")]);
    let patch = tmp.path().join("p.patch");
    fs::write(
        &patch,
        "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+uno\n*** Update File: m.txt\n\
         *** Move to: moved.txt\n*** Add File: n.txt\n+new\n*** End Patch\n",
    )
    .unwrap();
    let (dir_s, patch_s) = (dir.to_str().unwrap(), patch.to_str().unwrap());
    let before = tree(&dir);
    // Before the apply: the reverse from the files as they are.
    let out = run(&["reverse", "--dir", dir_s, patch_s]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(code(&run(&["apply", "--dir", dir_s, patch_s])), 0);
    // After it (git apply -R users): the reverse from the applied files, not an empty patch.
    let out = run(&["reverse", "--dir", dir_s, patch_s]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "*** Begin Patch\n*** Delete File: n.txt\n*** Update File: moved.txt\n*** Move to: m.txt\n\
         *** Update File: a.txt\n@@\n-uno\n+one\n two\n*** End Patch\n"
    );
    let undo = tmp.path().join("undo.patch");
    fs::write(&undo, stdout(&out)).unwrap();
    assert_eq!(
        code(&run(&["apply", "--dir", dir_s, undo.to_str().unwrap()])),
        0
    );
    assert_eq!(tree(&dir), before);
    // Forcing the after-state on files that are not patched says so.
    let out = run(&["reverse", "--applied", "--dir", dir_s, patch_s]);
    assert_eq!(code(&out), 1, "{}", stdout(&out));
}
