//! Runs the shared test vectors in `tests/vectors/` (the format, and the `outcome` file every
//! runner renders, are described in `tests/vectors/README.md`). Each case's outcome is
//! rendered in the canonical form and compared byte for byte with its `outcome` file, and the
//! files after a success with its `after/` folder. Every case runs, failures are collected,
//! and the test panics at the end with one readable report per failing case.
//!
//! - `V4A_VECTOR=<substring of the case name>` runs the matching cases only.
//! - `V4A_BLESS=1` writes each case's `outcome` (and `after/`) from this run instead of
//!   comparing: review the result with `git diff tests/vectors`. A folder that still holds the
//!   old `error` / `expect` checks is converted: the checks must hold first (so blessing never
//!   pins a regression), then they are replaced by the `outcome` file.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use v4a::{ApplyResult, Error, Level, LineEnding, Mode, OpKind, Options};

/// The smallest number of vectors the suite may hold.
const MIN_VECTORS: usize = 150;

/// A case that takes longer than this is reported as hanging.
const CASE_TIMEOUT: Duration = Duration::from_secs(60);

/// Files a case folder may hold; `error` and `expect` only until they are converted.
const KNOWN_ENTRIES: [&str; 9] = [
    "patch", "before", "base", "after", "mode", "options", "outcome", "error", "expect",
];

fn vectors_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("vectors")
}

fn blessing() -> bool {
    std::env::var_os("V4A_BLESS").is_some_and(|v| !v.is_empty() && v != "0")
}

/// One test vector, loaded from its folder.
#[derive(Clone, Debug)]
struct Case {
    dir: PathBuf,
    patch: Vec<u8>,
    before: BTreeMap<String, Vec<u8>>,
    /// The files as the model saw them (`base/`); `None` when the folder has no `base/`.
    base: Option<BTreeMap<String, Vec<u8>>>,
    /// `None` when the folder has no `after/`.
    after: Option<BTreeMap<String, Vec<u8>>>,
    mode: Option<String>,
    options: Options,
    /// The `outcome` file; `None` before the case is blessed.
    outcome: Option<String>,
    /// The old-style `error` / `expect` checks of a case not yet converted.
    legacy: Option<legacy::Spec>,
}

// ---------------------------------------------------------------------------------------------
// Loading
// ---------------------------------------------------------------------------------------------

fn case_dirs() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = fs::read_dir(vectors_dir())
        .expect("tests/vectors must exist")
        .map(|e| e.expect("readable directory entry").path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs
}

/// Every file under `root`, keyed by its path relative to `root` with `/` separators.
fn read_tree(root: &Path) -> Result<BTreeMap<String, Vec<u8>>, String> {
    fn walk(dir: &Path, prefix: &str, out: &mut BTreeMap<String, Vec<u8>>) -> Result<(), String> {
        let entries =
            fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
        for entry in entries {
            let entry = entry.map_err(|e| e.to_string())?;
            let name = entry
                .file_name()
                .into_string()
                .map_err(|n| format!("non-UTF-8 file name {n:?}"))?;
            let rel = if prefix.is_empty() {
                name
            } else {
                format!("{prefix}/{name}")
            };
            let path = entry.path();
            if path.is_dir() {
                walk(&path, &rel, out)?;
            } else {
                let bytes =
                    fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
                out.insert(rel, bytes);
            }
        }
        Ok(())
    }
    let mut out = BTreeMap::new();
    if root.is_dir() {
        walk(root, "", &mut out)?;
    }
    Ok(out)
}

fn read_text(path: &Path) -> Result<Option<String>, String> {
    if !path.exists() {
        return Ok(None);
    }
    let bytes = fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    String::from_utf8(bytes)
        .map(Some)
        .map_err(|_| format!("{} is not UTF-8", path.display()))
}

/// Non-empty lines of a small text file, without their terminators.
fn lines_of(text: &str) -> Vec<&str> {
    text.lines()
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .filter(|l| !l.trim().is_empty())
        .collect()
}

fn parse_u32(s: &str, what: &str) -> Result<u32, String> {
    s.trim()
        .parse::<u32>()
        .map_err(|_| format!("{what}: expected a number, found {s:?}"))
}

fn load_case(dir: &Path) -> Result<Case, String> {
    let name = dir
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or("case folder name is not UTF-8")?;
    if !name.contains('-')
        || !name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    {
        return Err(format!(
            "case name {name:?} must be <area>-<short-name> in lowercase with hyphens"
        ));
    }
    for entry in fs::read_dir(dir).map_err(|e| e.to_string())? {
        let entry = entry.map_err(|e| e.to_string())?;
        let n = entry.file_name().to_string_lossy().into_owned();
        if !KNOWN_ENTRIES.contains(&n.as_str()) {
            return Err(format!(
                "unknown entry {n:?} (allowed: {})",
                KNOWN_ENTRIES.join(", ")
            ));
        }
    }
    let patch = fs::read(dir.join("patch")).map_err(|_| "missing `patch` file".to_string())?;
    let before = read_tree(&dir.join("before"))?;
    let after_dir = dir.join("after");
    let after = if after_dir.exists() {
        Some(read_tree(&after_dir)?)
    } else {
        None
    };
    let base_dir = dir.join("base");
    let base = if base_dir.exists() {
        Some(read_tree(&base_dir)?)
    } else {
        None
    };
    let mode = read_text(&dir.join("mode"))?.map(|m| m.trim().to_string());
    if mode.is_some() && base.is_some() {
        return Err("a `mode` case has no base/ (bases are for multi-file cases)".into());
    }
    if mode.is_some() {
        if before.len() > 1 {
            return Err("a `mode` case holds at most one file in before/".into());
        }
        if after.as_ref().is_some_and(|a| a.len() > 1) {
            return Err("a `mode` case holds at most one file in after/".into());
        }
    }
    let options = match read_text(&dir.join("options"))? {
        Some(text) => build_options(&text)?,
        None => Options::default(),
    };
    let outcome = read_text(&dir.join("outcome"))?;
    let legacy = legacy::load(dir, after.is_some())?;
    if outcome.is_some() && legacy.is_some() {
        return Err("a case has either `outcome` or the old `error`/`expect`, not both".into());
    }
    Ok(Case {
        dir: dir.to_path_buf(),
        patch,
        before,
        base,
        after,
        mode,
        options,
        outcome,
        legacy,
    })
}

fn parse_bool(k: &str, v: &str) -> Result<bool, String> {
    match v {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!("option {k}: expected true or false, found {v:?}")),
    }
}

/// The `options` file: `key=value` lines, the input of a case (not an expectation).
fn build_options(text: &str) -> Result<Options, String> {
    let mut o = Options::default();
    for line in lines_of(text) {
        let (k, v) = line
            .split_once('=')
            .ok_or_else(|| format!("bad option line {line:?}"))?;
        let (k, v) = (k.trim(), v.trim());
        match k {
            "max_level" => {
                o.max_level = Level::from_name(v).ok_or_else(|| format!("unknown level {v:?}"))?
            }
            "max_fuzz" => o.max_fuzz = Some(parse_u32(v, "max_fuzz")?),
            "first_match" => o.first_match = parse_bool(k, v)?,
            "already_applied_error" => o.already_applied_is_error = parse_bool(k, v)?,
            "ensure_final_newline" => o.ensure_final_newline = parse_bool(k, v)?,
            "add_file_line_ending" => {
                o.add_file_line_ending = match v {
                    "lf" => LineEnding::Lf,
                    "crlf" => LineEnding::CrLf,
                    _ => return Err(format!("add_file_line_ending: lf or crlf, not {v:?}")),
                }
            }
            _ => return Err(format!("unknown option {k:?}")),
        }
    }
    Ok(o)
}

// ---------------------------------------------------------------------------------------------
// Running
// ---------------------------------------------------------------------------------------------

/// A multi-file result's operation: kind, path and move destination.
type Op = (OpKind, String, Option<String>);

/// What an apply produced: the files after it, and each file result.
struct Produced {
    /// The after-state; in a `mode` case the text as the one file `<text>`, absent when empty.
    files: BTreeMap<String, Vec<u8>>,
    /// Each file result: its operation (kind, path, move destination), `None` in a `mode`
    /// case, and its `ApplyResult`.
    results: Vec<(Option<Op>, ApplyResult<'static>)>,
}

fn run_single(case: &Case, mode_word: &str) -> Result<Produced, Error> {
    let mode: Mode = mode_word.parse()?;
    let source: &[u8] = case.before.values().next().map_or(&[], |v| v.as_slice());
    let applied = v4a::apply_bytes(source, &case.patch, mode, &case.options)?.into_owned();
    let mut files = BTreeMap::new();
    if !applied.text.is_empty() {
        files.insert("<text>".to_string(), applied.text.as_bytes().to_vec());
    }
    Ok(Produced {
        files,
        results: vec![(None, applied)],
    })
}

fn run_multi(case: &Case) -> Result<Result<Produced, Error>, String> {
    let patch = std::str::from_utf8(&case.patch).map_err(|_| {
        "vector error: a multi-file patch must be UTF-8 (use `mode` for byte tests)"
    })?;
    let mut sources: BTreeMap<String, String> = BTreeMap::new();
    for (k, v) in &case.before {
        let s = String::from_utf8(v.clone())
            .map_err(|_| format!("vector error: before/{k} must be UTF-8 in a multi-file case"))?;
        sources.insert(k.clone(), s);
    }
    let mut bases: BTreeMap<String, String> = BTreeMap::new();
    for (k, v) in case.base.iter().flatten() {
        let s = String::from_utf8(v.clone())
            .map_err(|_| format!("vector error: base/{k} must be UTF-8"))?;
        bases.insert(k.clone(), s);
    }
    let source = |path: &str| sources.get(path).map(String::as_str);
    let result = v4a::Patch::parse(patch).and_then(|parsed| match case.base {
        None => parsed.apply(source, &case.options),
        Some(_) => parsed.apply_with_bases(
            source,
            |path: &str| bases.get(path).map(String::as_str),
            &case.options,
        ),
    });
    Ok(result.map(|res| {
        let mut files = case.before.clone();
        let mut results = Vec::new();
        for fr in res.files {
            let text = fr.applied.text.as_bytes().to_vec();
            match (fr.kind, &fr.move_to) {
                (OpKind::Delete, _) => {
                    files.remove(&fr.path);
                }
                (OpKind::Update, Some(dest)) if *dest != fr.path => {
                    files.remove(&fr.path);
                    files.insert(dest.clone(), text);
                }
                _ => {
                    files.insert(fr.path.clone(), text);
                }
            }
            results.push((Some((fr.kind, fr.path, fr.move_to)), fr.applied));
        }
        Produced { files, results }
    }))
}

// ---------------------------------------------------------------------------------------------
// The canonical outcome (tests/vectors/README.md, "The outcome file")
// ---------------------------------------------------------------------------------------------

/// A string on one line: `\` `\n` `\r` `\t` and the other control characters escaped.
fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
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

/// `key:` and then one `| ` line per `\n`-separated piece of the text (`|` for an empty one).
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

fn render_error(out: &mut String, e: &Error) {
    let d = e.diagnostics();
    let _ = writeln!(out, "status: {}", e.status().name());
    block(out, "message", e.message());
    if let Some(p) = d.path.as_deref().filter(|p| !p.is_empty()) {
        let _ = writeln!(out, "path: {}", esc(p));
    }
    if let Some(n) = d.patch_line {
        let _ = writeln!(out, "patch_line: {n}");
    }
    if let Some(h) = d.hunk {
        let _ = writeln!(out, "hunk: {h}");
    }
    if let Some(n) = d.byte_offset {
        let _ = writeln!(out, "byte_offset: {n}");
    }
    if let Some(i) = d.input.as_deref().filter(|i| !i.is_empty()) {
        let _ = writeln!(out, "input: {}", esc(i));
    }
    if !d.candidates.is_empty() {
        let list: Vec<String> = d.candidates.iter().map(u32::to_string).collect();
        let _ = writeln!(out, "candidates: {}", list.join(","));
    }
    if let Some(s) = d.suggestion.as_deref().filter(|s| !s.is_empty()) {
        block(out, "suggestion", s);
    }
    if let Some(c) = &d.closest {
        // Thousandths, rounded the same way by every runner.
        let milli = (c.similarity * 1000.0 + 0.5).floor() as u64;
        let _ = writeln!(
            out,
            "closest: {}-{} similarity={}.{:03}",
            c.start_line,
            c.end_line,
            milli / 1000,
            milli % 1000
        );
    }
    if let Some(c) = d.corrected_hunk.as_deref().filter(|c| !c.is_empty()) {
        block(out, "corrected_hunk", c);
    }
}

fn render_result(out: &mut String, indent: &str, r: &ApplyResult) {
    let _ = writeln!(out, "{indent}fuzz: {}", r.fuzz);
    for (i, h) in r.hunks.iter().enumerate() {
        let flags: Vec<&str> = [
            (h.reindented, "reindented"),
            (h.already_applied, "already_applied"),
            (h.end_of_file, "end_of_file"),
            (h.out_of_order, "out_of_order"),
            (h.merged, "merged"),
            (h.anchor_ignored, "anchor_ignored"),
            (h.context_relaxed, "context_relaxed"),
        ]
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, name)| *name)
        .collect();
        let levels: Vec<&str> = h.line_levels.iter().map(|l| l.name()).collect();
        let none = |v: Vec<&str>| {
            if v.is_empty() {
                "none".into()
            } else {
                v.join(",")
            }
        };
        let _ = writeln!(
            out,
            "{indent}hunk {}: old={},{} new={},{} level={} fuzz={} candidates={} patch_line={} \
             flags={} line_levels={}",
            i + 1,
            h.old_start,
            h.old_len,
            h.new_start,
            h.new_len,
            h.level.name(),
            h.fuzz,
            h.candidates,
            h.patch_line,
            none(flags),
            none(levels)
        );
    }
}

/// The canonical outcome of a run.
fn render(result: &Result<Produced, Error>) -> String {
    let mut out = String::new();
    let p = match result {
        Err(e) => {
            render_error(&mut out, e);
            return out;
        }
        Ok(p) => p,
    };
    out.push_str("status: OK\n");
    for (i, (op, r)) in p.results.iter().enumerate() {
        match op {
            None => {
                let _ = writeln!(out, "text: {} bytes", r.text.len());
                render_result(&mut out, "", r);
            }
            Some((kind, path, move_to)) => {
                let _ = write!(out, "op {}: {} {}", i + 1, kind.name(), esc(path));
                if let Some(dest) = move_to {
                    let _ = write!(out, " -> {}", esc(dest));
                }
                out.push('\n');
                render_result(&mut out, "  ", r);
            }
        }
    }
    if !matches!(p.results.as_slice(), [(None, _)]) {
        for (path, bytes) in &p.files {
            let _ = writeln!(out, "file {}: {} bytes", esc(path), bytes.len());
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Showing differences
// ---------------------------------------------------------------------------------------------

/// Bytes as a quoted string: printable ASCII as is, everything else escaped.
fn show(bytes: &[u8]) -> String {
    let shown = &bytes[..bytes.len().min(800)];
    let mut out = format!(
        "\"{}\"",
        esc(&String::from_utf8_lossy(shown)).replace('"', "\\\"")
    );
    if bytes.len() > shown.len() {
        let _ = write!(out, "... ({} bytes)", bytes.len());
    }
    out
}

/// The lines that differ between the outcome file and this run, with two lines of context.
fn line_diff(want: &str, got: &str) -> String {
    let w: Vec<&str> = want.split_inclusive('\n').collect();
    let g: Vec<&str> = got.split_inclusive('\n').collect();
    let pre = w.iter().zip(&g).take_while(|(a, b)| a == b).count();
    let max_suf = w.len().min(g.len()) - pre;
    let suf = (0..max_suf)
        .take_while(|&i| w[w.len() - 1 - i] == g[g.len() - 1 - i])
        .count();
    let mut out = format!(
        "  outcome differs at line {} (- the outcome file, + this run):\n",
        pre + 1
    );
    let line = |out: &mut String, mark: &str, l: &str| {
        let _ = writeln!(out, "    {mark}{}", l.strip_suffix('\n').unwrap_or(l));
        if !l.ends_with('\n') {
            out.push_str("    \\ no final newline\n");
        }
    };
    for l in &w[pre.saturating_sub(2)..pre] {
        line(&mut out, " ", l);
    }
    for l in &w[pre..w.len() - suf] {
        line(&mut out, "-", l);
    }
    for l in &g[pre..g.len() - suf] {
        line(&mut out, "+", l);
    }
    for l in w[w.len() - suf..].iter().take(2) {
        line(&mut out, " ", l);
    }
    out
}

/// The files `after/` expects, in the keys of [`Produced::files`].
fn expected_files(case: &Case) -> BTreeMap<String, Vec<u8>> {
    let after = case.after.clone().unwrap_or_default();
    if case.mode.is_none() {
        return after;
    }
    after
        .into_values()
        .filter(|v| !v.is_empty())
        .map(|v| ("<text>".to_string(), v))
        .collect()
}

/// The differences between the files produced and `after/`.
fn compare_files(case: &Case, result: &Result<Produced, Error>) -> String {
    let mut report = String::new();
    let Ok(p) = result else {
        if case.after.is_some() {
            report.push_str("  after/ exists, but the patch failed\n");
        }
        return report;
    };
    let want = expected_files(case);
    for path in want
        .keys()
        .chain(p.files.keys().filter(|k| !want.contains_key(*k)))
    {
        match (want.get(path), p.files.get(path)) {
            (Some(w), Some(g)) if w == g => {}
            (w, g) => {
                let _ = writeln!(
                    report,
                    "  {path} differs from after/\n    expected: {}\n    actual:   {}",
                    w.map_or("(absent)".into(), |b| show(b)),
                    g.map_or("(absent)".into(), |b| show(b))
                );
            }
        }
    }
    report
}

/// Writes `outcome`, and `after/` when the files differ from it; removes `error`/`expect`.
fn bless(case: &Case, result: &Result<Produced, Error>, rendered: &str) -> Result<(), String> {
    let io = |e: std::io::Error| format!("  cannot bless: {e}\n");
    let after_dir = case.dir.join("after");
    if !compare_files(case, result).is_empty() {
        let name = case
            .after
            .as_ref()
            .and_then(|a| a.keys().next())
            .or(case.before.keys().next())
            .map_or("text".to_string(), Clone::clone);
        if after_dir.exists() {
            fs::remove_dir_all(&after_dir).map_err(io)?;
        }
        if let Ok(p) = result {
            fs::create_dir_all(&after_dir).map_err(io)?;
            for (path, bytes) in &p.files {
                let target = match case.mode {
                    Some(_) => after_dir.join(&name),
                    None => after_dir.join(path),
                };
                if let Some(parent) = target.parent() {
                    fs::create_dir_all(parent).map_err(io)?;
                }
                fs::write(&target, bytes).map_err(io)?;
            }
        }
    }
    fs::write(case.dir.join("outcome"), rendered).map_err(io)?;
    for old in ["error", "expect"] {
        if case.dir.join(old).exists() {
            fs::remove_file(case.dir.join(old)).map_err(io)?;
        }
    }
    Ok(())
}

/// Runs one case; `Err` holds the failure report.
fn run_case(case: &Case) -> Result<(), String> {
    let result = match &case.mode {
        Some(word) => run_single(case, word),
        None => run_multi(case)?,
    };
    let rendered = render(&result);
    if blessing() {
        if let Some(spec) = &case.legacy {
            let mut report = legacy::check(spec, &result);
            report.push_str(&compare_files(case, &result));
            if !report.is_empty() {
                return Err(format!(
                    "{report}  not converted: the old checks fail; this run's outcome:\n{}",
                    rendered
                ));
            }
        }
        return bless(case, &result, &rendered);
    }
    let mut report = compare_files(case, &result);
    match &case.outcome {
        None => {
            let _ = writeln!(
                report,
                "  no `outcome` file: write it with V4A_BLESS=1 (it converts old `error`/`expect` \
                 checks), then review it; this run's outcome:\n{rendered}"
            );
        }
        Some(want) if *want != rendered => report.push_str(&line_diff(want, &rendered)),
        Some(_) => {}
    }
    if report.is_empty() {
        Ok(())
    } else {
        Err(report)
    }
}

/// Runs a case on its own thread, catching panics and giving up after [`CASE_TIMEOUT`].
fn run_isolated(case: Case) -> Result<(), String> {
    let (tx, rx) = mpsc::channel();
    let spawned = thread::Builder::new().stack_size(16 << 20).spawn(move || {
        let outcome = panic::catch_unwind(AssertUnwindSafe(|| run_case(&case)));
        let _ = tx.send(outcome);
    });
    if let Err(e) = spawned {
        return Err(format!("  could not start a thread: {e}\n"));
    }
    match rx.recv_timeout(CASE_TIMEOUT) {
        Ok(Ok(r)) => r,
        Ok(Err(payload)) => {
            let msg = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "non-string panic payload".into());
            Err(format!("  PANICKED: {msg}\n"))
        }
        Err(mpsc::RecvTimeoutError::Timeout) => {
            Err(format!("  did not finish within {CASE_TIMEOUT:?}\n"))
        }
        Err(mpsc::RecvTimeoutError::Disconnected) => Err("  the case thread died\n".into()),
    }
}

#[test]
fn vectors() {
    let filter = std::env::var("V4A_VECTOR").ok();
    let mut passed = 0usize;
    let mut failures: Vec<(String, String)> = Vec::new();
    for dir in case_dirs() {
        let name = dir
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        if filter.as_deref().is_some_and(|f| !name.contains(f)) {
            continue;
        }
        let outcome = load_case(&dir)
            .map_err(|e| format!("  bad vector: {e}\n"))
            .and_then(run_isolated);
        match outcome {
            Ok(()) => passed += 1,
            Err(report) => failures.push((name, report)),
        }
    }
    let verb = if blessing() { "blessed" } else { "passed" };
    if !failures.is_empty() {
        let mut msg = String::new();
        for (name, report) in &failures {
            let _ = write!(msg, "\n--- {name}\n{report}");
        }
        let names: Vec<&str> = failures.iter().map(|(n, _)| n.as_str()).collect();
        let _ = write!(
            msg,
            "\nfailing vectors: {}\n{passed} {verb}, {} failed",
            names.join(" "),
            failures.len()
        );
        panic!("{msg}");
    }
    assert!(passed > 0 || filter.is_some(), "no vectors ran");
    eprintln!("{passed} {verb}, 0 failed");
}

#[test]
fn vectors_are_well_formed_and_numerous() {
    let dirs = case_dirs();
    let mut bad = Vec::new();
    for dir in &dirs {
        if let Err(e) = load_case(dir) {
            bad.push(format!("{}: {e}", dir.display()));
        }
    }
    assert!(bad.is_empty(), "malformed vectors:\n{}", bad.join("\n"));
    assert!(
        dirs.len() >= MIN_VECTORS,
        "tests/vectors holds {} cases; at least {MIN_VECTORS} are required",
        dirs.len()
    );
}

#[test]
fn the_canonical_form_escapes_and_splits() {
    assert_eq!(esc("a\\b\tc\r\u{1}\u{7f}é"), "a\\\\b\\tc\\r\\x01\\x7fé");
    let mut out = String::new();
    block(&mut out, "message", "one\n\ntwo\r\n");
    assert_eq!(out, "message:\n| one\n|\n| two\\r\n|\n");
    let d = line_diff("a\nb\nc\n", "a\nx\nc\n");
    assert!(
        d.contains("-b\n") && d.contains("+x\n") && d.contains("at line 2"),
        "{d}"
    );
}

/// The old `error` and `expect` checks, read only to convert a folder that still has them
/// (`V4A_BLESS=1`): their checks must hold before the `outcome` file replaces them. Remove this
/// module when no folder (also none added on another branch) has them any more.
mod legacy {
    use super::{lines_of, parse_u32, read_text, Produced};
    use std::path::Path;
    use v4a::{Error, Status};

    /// The checks of an `error` file (status and `key: value` lines) or an `expect` file.
    #[derive(Clone, Debug)]
    pub struct Spec {
        error: Option<(String, Vec<(String, String)>)>,
        expect: Vec<String>,
    }

    pub fn load(dir: &Path, has_after: bool) -> Result<Option<Spec>, String> {
        let error = match read_text(&dir.join("error"))? {
            None => None,
            Some(text) => {
                let lines = lines_of(&text);
                let (first, rest) = lines.split_first().ok_or("`error` is empty")?;
                let status = first.trim().to_string();
                if matches!(Status::from_name(&status), Some(Status::Ok) | None) {
                    return Err(format!("`error` names an unknown status {status:?}"));
                }
                if has_after {
                    return Err("a case has either `after/` or `error`, not both".into());
                }
                let mut checks = Vec::new();
                for l in rest {
                    let (k, v) = l
                        .split_once(": ")
                        .ok_or_else(|| format!("bad error check {l:?}"))?;
                    checks.push((k.to_string(), v.to_string()));
                }
                Some((status, checks))
            }
        };
        let expect: Vec<String> = read_text(&dir.join("expect"))?
            .map(|t| lines_of(&t).into_iter().map(String::from).collect())
            .unwrap_or_default();
        if error.is_some() && !expect.is_empty() {
            return Err("`expect` is for success cases only".into());
        }
        let present = error.is_some() || dir.join("expect").exists();
        Ok(present.then_some(Spec { error, expect }))
    }

    /// The problems of a result against the old checks (empty = they hold).
    pub fn check(spec: &Spec, result: &Result<Produced, Error>) -> String {
        let mut problems = Vec::new();
        match (&spec.error, result) {
            (Some((status, _)), Ok(_)) => problems.push(format!("expected error {status}")),
            (None, Err(e)) => problems.push(format!("expected success, got {e}")),
            (Some((status, checks)), Err(e)) => {
                if e.status().name() != status {
                    problems.push(format!("status: expected {status}, got {}", e.status()));
                }
                for (k, v) in checks {
                    if !error_check(e, k, v) {
                        problems.push(format!("check failed: `{k}: {v}`"));
                    }
                }
            }
            (None, Ok(p)) => {
                for line in &spec.expect {
                    if let Err(problem) = expect_check(line, p) {
                        problems.push(format!("`{line}`: {problem}"));
                    }
                }
            }
        }
        problems.iter().map(|p| format!("  {p}\n")).collect()
    }

    fn error_check(e: &Error, k: &str, v: &str) -> bool {
        let d = e.diagnostics();
        let contains = |s: &Option<String>| s.as_deref().is_some_and(|s| s.contains(v));
        match k {
            "contains" => e.message().contains(v),
            "line" => v.parse::<u32>().ok() == d.patch_line,
            "hunk" => v.parse::<u32>().ok() == d.hunk,
            "path" => d.path.as_deref() == Some(v),
            "candidates" => {
                let want: Vec<u32> = v.split(',').filter_map(|x| x.trim().parse().ok()).collect();
                want == d.candidates
            }
            "offset" => v.parse::<u64>().ok() == d.byte_offset,
            "suggestion" => contains(&d.suggestion),
            "corrected" => contains(&d.corrected_hunk),
            _ => false,
        }
    }

    /// One `expect` line: `[PATH] fuzz|hunks|hunk N level|flags|old|new: VALUE` (or
    /// `fuzz PATH: N`) on the first updated file or the one named by PATH.
    fn expect_check(line: &str, p: &Produced) -> Result<(), String> {
        let (lhs, rhs) = line.split_once(':').ok_or("no ':'")?;
        let rhs = rhs.trim();
        let words: Vec<&str> = lhs.split_whitespace().collect();
        let (path, words): (Option<&str>, &[&str]) = match words.as_slice() {
            ["fuzz", p] => (Some(*p), &words[..1]),
            ["fuzz"] | ["hunks"] | ["hunk", ..] => (None, &words[..]),
            [p, rest @ ..] => (Some(*p), rest),
            [] => return Err("empty key".into()),
        };
        let r = p
            .results
            .iter()
            .find(|(op, _)| match (op, path) {
                (None, _) => true,
                (Some((kind, _, _)), _) if *kind != v4a::OpKind::Update => false,
                (Some(_), None) => true,
                (Some((_, from, to)), Some(p)) => from == p || to.as_deref() == Some(p),
            })
            .map(|(_, r)| r)
            .ok_or_else(|| format!("no updated file {path:?}"))?;
        let got = match words {
            ["fuzz"] => r.fuzz.to_string(),
            ["hunks"] => r.hunks.len().to_string(),
            ["hunk", n, what] => {
                let i = parse_u32(n, "hunk number")? as usize;
                let h = r
                    .hunks
                    .get(i.wrapping_sub(1))
                    .ok_or_else(|| format!("no hunk {i}"))?;
                match *what {
                    "level" => h.level.name().to_string(),
                    "old" => format!("{},{}", h.old_start, h.old_len),
                    "new" => format!("{},{}", h.new_start, h.new_len),
                    "flags" => {
                        let mut set: Vec<&str> = [
                            (h.reindented, "reindented"),
                            (h.already_applied, "already_applied"),
                            (h.end_of_file, "end_of_file"),
                            (h.out_of_order, "out_of_order"),
                            (h.anchor_ignored, "anchor_ignored"),
                            (h.context_relaxed, "context_relaxed"),
                        ]
                        .iter()
                        .filter(|(on, _)| *on)
                        .map(|(_, n)| *n)
                        .collect();
                        let mut want: Vec<&str> = rhs
                            .split(',')
                            .map(str::trim)
                            .filter(|f| *f != "none")
                            .collect();
                        set.sort_unstable();
                        want.sort_unstable();
                        return if set == want {
                            Ok(())
                        } else {
                            Err(format!("got {set:?}"))
                        };
                    }
                    _ => return Err("unknown check".into()),
                }
            }
            _ => return Err("unknown line".into()),
        };
        if got == rhs {
            Ok(())
        } else {
            Err(format!("got {got}"))
        }
    }
}

#[path = "common/repair.rs"]
mod repair;

/// Every "To pick line N" fix an ambiguity of a single-file vector offers, applied to the
/// patch as a model would resend it, is not refused with the same ambiguity again, and when it
/// applies, that hunk lands on line N (or starts the context the fix added there): a menu
/// whose pick lands elsewhere is worse than no menu.
#[test]
fn every_pick_an_ambiguity_offers_lands_where_it_says() {
    let (mut picks, mut bad) = (0usize, Vec::new());
    for dir in case_dirs() {
        let Ok(case) = load_case(&dir) else { continue };
        let (Some(mode_word), Ok(patch)) = (case.mode.as_deref(), std::str::from_utf8(&case.patch))
        else {
            continue;
        };
        let Ok(mode) = mode_word.parse::<Mode>() else {
            continue;
        };
        let source: &[u8] = case.before.values().next().map_or(&[], |v| v.as_slice());
        let Ok(source) = std::str::from_utf8(source) else {
            continue;
        };
        let Err(err) = v4a::apply(source, patch, mode, &case.options) else {
            continue;
        };
        let Some(h) = err.diagnostics().hunk else {
            continue;
        };
        for (n, fix, fixed, before) in repair::choices(patch, &err) {
            picks += 1;
            let name = dir.file_name().unwrap_or_default().to_string_lossy();
            match v4a::apply(source, &fixed, mode, &case.options) {
                Ok(r) if !repair::lands_on(&r, h, (n, before)) => {
                    bad.push(format!("{name}: {fix:?} for line {n} lands elsewhere"));
                }
                Ok(_) => {}
                Err(e) if e.diagnostics().hunk == Some(h) && e.message() == err.message() => {
                    bad.push(format!(
                        "{name}: {fix:?} for line {n} is refused the same way"
                    ));
                }
                Err(_) => {}
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    assert!(picks > 20, "only {picks} picks in the vectors");
    eprintln!("{picks} picks land where they say");
}
