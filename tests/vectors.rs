//! Runs the shared test vectors in `tests/vectors/` (the format is described in
//! `tests/vectors/README.md`). Every case runs, failures are collected, and the test panics at
//! the end with one readable report per failing case and an "N passed, N failed" line.
//!
//! Run a subset with `V4A_VECTOR=<substring of the case name> cargo test --test vectors`.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::fs;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use v4a::{ApplyResult, Error, Level, LineEnding, Mode, OpKind, Options, Status};

/// The smallest number of vectors the suite may hold.
const MIN_VECTORS: usize = 150;

/// A case that takes longer than this is reported as hanging.
const CASE_TIMEOUT: Duration = Duration::from_secs(60);

/// Files a case folder may hold.
const KNOWN_ENTRIES: [&str; 7] = [
    "patch", "before", "after", "error", "mode", "options", "expect",
];

fn vectors_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("vectors")
}

/// One test vector, loaded from its folder.
#[derive(Clone, Debug)]
struct Case {
    name: String,
    patch: Vec<u8>,
    before: BTreeMap<String, Vec<u8>>,
    /// `None` when the case expects an error.
    after: Option<BTreeMap<String, Vec<u8>>>,
    /// The `error` file: status name, then checks.
    error: Option<ErrorSpec>,
    mode: Option<String>,
    options: Vec<(String, String)>,
    expect: Vec<Expectation>,
}

#[derive(Clone, Debug)]
struct ErrorSpec {
    status: String,
    checks: Vec<(String, String)>,
}

/// One line of an `expect` file. `path` is `None` for the default file.
#[derive(Clone, Debug)]
enum Expectation {
    Fuzz {
        path: Option<String>,
        fuzz: u32,
    },
    Hunks {
        path: Option<String>,
        count: usize,
    },
    Hunk {
        path: Option<String>,
        index: usize,
        what: HunkCheck,
    },
}

#[derive(Clone, Debug)]
enum HunkCheck {
    Level(String),
    Flags(BTreeSet<String>),
    Old(u32, u32),
    New(u32, u32),
}

const FLAG_NAMES: [&str; 4] = [
    "reindented",
    "already_applied",
    "end_of_file",
    "out_of_order",
];
const LEVEL_NAMES: [&str; 5] = ["exact", "trim_end", "trim", "collapse", "fold"];
const ERROR_CHECKS: [&str; 8] = [
    "contains",
    "line",
    "hunk",
    "path",
    "candidates",
    "offset",
    "suggestion",
    "corrected",
];

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

fn parse_range(s: &str) -> Result<(u32, u32), String> {
    let (a, b) = s
        .split_once(',')
        .ok_or_else(|| format!("expected START,LEN, found {s:?}"))?;
    Ok((parse_u32(a, "range start")?, parse_u32(b, "range length")?))
}

fn parse_expect_line(line: &str) -> Result<Expectation, String> {
    let (lhs, rhs) = line
        .split_once(':')
        .ok_or_else(|| format!("expect line without ':': {line:?}"))?;
    let rhs = rhs.trim();
    let words: Vec<&str> = lhs.split_whitespace().collect();
    // An optional leading PATH, except for "fuzz PATH".
    let (path, words): (Option<String>, &[&str]) = match words.as_slice() {
        ["fuzz", p] => {
            return Ok(Expectation::Fuzz {
                path: Some(p.to_string()),
                fuzz: parse_u32(rhs, line)?,
            })
        }
        ["fuzz"] | ["hunks"] | ["hunk", ..] => (None, &words[..]),
        [p, rest @ ..] => (Some(p.to_string()), rest),
        [] => return Err(format!("empty expect key: {line:?}")),
    };
    match words {
        ["fuzz"] if path.is_none() => Ok(Expectation::Fuzz {
            path,
            fuzz: parse_u32(rhs, line)?,
        }),
        ["hunks"] => Ok(Expectation::Hunks {
            path,
            count: parse_u32(rhs, line)? as usize,
        }),
        ["hunk", n, what] => {
            let index = parse_u32(n, line)? as usize;
            if index == 0 {
                return Err(format!("hunk numbers are 1-based: {line:?}"));
            }
            let what = match *what {
                "level" => {
                    if !LEVEL_NAMES.contains(&rhs) {
                        return Err(format!("unknown level {rhs:?} in {line:?}"));
                    }
                    HunkCheck::Level(rhs.to_string())
                }
                "flags" => {
                    let mut set = BTreeSet::new();
                    if rhs != "none" {
                        for f in rhs.split(',').map(str::trim) {
                            if !FLAG_NAMES.contains(&f) {
                                return Err(format!("unknown flag {f:?} in {line:?}"));
                            }
                            set.insert(f.to_string());
                        }
                    }
                    HunkCheck::Flags(set)
                }
                "old" => {
                    let (s, l) = parse_range(rhs)?;
                    HunkCheck::Old(s, l)
                }
                "new" => {
                    let (s, l) = parse_range(rhs)?;
                    HunkCheck::New(s, l)
                }
                other => return Err(format!("unknown hunk check {other:?} in {line:?}")),
            };
            Ok(Expectation::Hunk { path, index, what })
        }
        _ => Err(format!("unknown expect line {line:?}")),
    }
}

fn load_case(dir: &Path) -> Result<Case, String> {
    let name = dir
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or("case folder name is not UTF-8")?
        .to_string();
    if name.is_empty()
        || !name.contains('-')
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
    let error = match read_text(&dir.join("error"))? {
        None => None,
        Some(text) => {
            let lines = lines_of(&text);
            let (first, rest) = lines.split_first().ok_or("`error` is empty")?;
            let status = first.trim().to_string();
            match Status::from_name(&status) {
                Some(Status::Ok) | None => {
                    return Err(format!("`error` names an unknown status {status:?}"));
                }
                Some(_) => {}
            }
            let mut checks = Vec::new();
            for l in rest {
                let (k, v) = l
                    .split_once(": ")
                    .ok_or_else(|| format!("bad error check {l:?}"))?;
                if !ERROR_CHECKS.contains(&k) {
                    return Err(format!("unknown error check {k:?}"));
                }
                checks.push((k.to_string(), v.to_string()));
            }
            Some(ErrorSpec { status, checks })
        }
    };
    let after_dir = dir.join("after");
    if error.is_some() && after_dir.exists() {
        return Err("a case has either `after/` or `error`, not both".into());
    }
    let after = if error.is_some() {
        None
    } else {
        Some(read_tree(&after_dir)?)
    };
    let mode = read_text(&dir.join("mode"))?.map(|m| m.trim().to_string());
    if mode.is_some() {
        if before.len() > 1 {
            return Err("a `mode` case holds at most one file in before/".into());
        }
        if after.as_ref().is_some_and(|a| a.len() > 1) {
            return Err("a `mode` case holds at most one file in after/".into());
        }
    }
    let mut options = Vec::new();
    if let Some(text) = read_text(&dir.join("options"))? {
        for l in lines_of(&text) {
            let (k, v) = l
                .split_once('=')
                .ok_or_else(|| format!("bad option line {l:?}"))?;
            options.push((k.trim().to_string(), v.trim().to_string()));
        }
    }
    build_options(&options)?; // validate now
    let mut expect = Vec::new();
    if let Some(text) = read_text(&dir.join("expect"))? {
        if error.is_some() {
            return Err("`expect` is for success cases only".into());
        }
        for l in lines_of(&text) {
            expect.push(parse_expect_line(l)?);
        }
    }
    Ok(Case {
        name,
        patch,
        before,
        after,
        error,
        mode,
        options,
        expect,
    })
}

fn parse_level(s: &str) -> Result<Level, String> {
    Ok(match s {
        "exact" => Level::Exact,
        "trim_end" => Level::TrimEnd,
        "trim" => Level::Trim,
        "collapse" => Level::Collapse,
        "fold" => Level::Fold,
        _ => return Err(format!("unknown level {s:?}")),
    })
}

fn parse_bool(k: &str, v: &str) -> Result<bool, String> {
    match v {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!("option {k}: expected true or false, found {v:?}")),
    }
}

fn build_options(pairs: &[(String, String)]) -> Result<Options, String> {
    let mut o = Options::default();
    for (k, v) in pairs {
        match k.as_str() {
            "max_level" => o.max_level = parse_level(v)?,
            "max_fuzz" => o.max_fuzz = Some(parse_u32(v, "max_fuzz")?),
            "first_match" => o.first_match = parse_bool(k, v)?,
            "already_applied_error" => o.already_applied_is_error = parse_bool(k, v)?,
            "ensure_final_newline" => o.ensure_final_newline = parse_bool(k, v)?,
            "add_file_line_ending" => {
                o.add_file_line_ending = match v.as_str() {
                    "lf" => LineEnding::Lf,
                    "crlf" => LineEnding::CrLf,
                    _ => {
                        return Err(format!(
                            "add_file_line_ending: expected lf or crlf, found {v:?}"
                        ))
                    }
                }
            }
            _ => return Err(format!("unknown option {k:?}")),
        }
    }
    Ok(o)
}

// ---------------------------------------------------------------------------------------------
// Showing bytes
// ---------------------------------------------------------------------------------------------

/// Bytes as a quoted string: printable ASCII as is, everything else escaped
/// (`\n`, `\r`, `\t`, `\0`, `\u{a0}` for other characters, `\xff` for invalid UTF-8).
fn show(bytes: &[u8]) -> String {
    let mut out = String::from("\"");
    let mut rest = bytes;
    while !rest.is_empty() {
        let (valid, bad) = match std::str::from_utf8(rest) {
            Ok(s) => (s, 0),
            Err(e) => {
                let valid = std::str::from_utf8(&rest[..e.valid_up_to()]).unwrap_or_default();
                (valid, e.error_len().unwrap_or(rest.len() - e.valid_up_to()))
            }
        };
        for c in valid.chars() {
            match c {
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                '\0' => out.push_str("\\0"),
                '\\' => out.push_str("\\\\"),
                '"' => out.push_str("\\\""),
                ' '..='~' => out.push(c),
                _ => {
                    let _ = write!(out, "\\u{{{:x}}}", c as u32);
                }
            }
        }
        let start = valid.len();
        for b in &rest[start..start + bad] {
            let _ = write!(out, "\\x{b:02x}");
        }
        rest = &rest[start + bad..];
    }
    out.push('"');
    out
}

/// A readable comparison of two byte strings that differ; long texts are shown around the
/// first difference.
fn show_diff(expected: &[u8], actual: &[u8]) -> String {
    const FULL: usize = 800;
    const WINDOW: usize = 120;
    if expected.len() <= FULL && actual.len() <= FULL {
        return format!(
            "    expected: {}\n    actual:   {}\n",
            show(expected),
            show(actual)
        );
    }
    let first = expected
        .iter()
        .zip(actual)
        .position(|(a, b)| a != b)
        .unwrap_or(expected.len().min(actual.len()));
    let from = first.saturating_sub(WINDOW);
    let window = |b: &[u8]| {
        let to = (first + WINDOW).min(b.len());
        show(&b[from.min(b.len())..to])
    };
    format!(
        "    expected {} bytes, actual {} bytes; first difference at byte {first}\n    \
         expected[{from}..]: {}\n    actual[{from}..]:   {}\n",
        expected.len(),
        actual.len(),
        window(expected),
        window(actual)
    )
}

fn describe_error(e: &Error) -> String {
    format!(
        "    status: {}\n    message: {}\n    diagnostics: {:?}\n",
        e.status().name(),
        e.message(),
        e.diagnostics()
    )
}

// ---------------------------------------------------------------------------------------------
// Running
// ---------------------------------------------------------------------------------------------

/// What an apply produced: the files after it, and the `ApplyResult` of each updated file.
struct Produced {
    files: BTreeMap<String, Vec<u8>>,
    /// Each updated file's result with the paths that name it (its path and its destination);
    /// a single-file result has no names.
    applied: Vec<(Vec<String>, ApplyResult)>,
}

fn run_single(case: &Case, mode_word: &str, opts: &Options) -> Result<Produced, Error> {
    let mode: Mode = mode_word.parse()?;
    let source: &[u8] = case
        .before
        .values()
        .next()
        .map(|v| v.as_slice())
        .unwrap_or(&[]);
    let applied = v4a::apply_bytes(source, &case.patch, mode, opts)?;
    let mut files = BTreeMap::new();
    if !applied.text.is_empty() {
        files.insert("<text>".to_string(), applied.text.as_bytes().to_vec());
    }
    Ok(Produced {
        files,
        applied: vec![(Vec::new(), applied)],
    })
}

fn run_multi(case: &Case, opts: &Options) -> Result<Result<Produced, Error>, String> {
    let patch = std::str::from_utf8(&case.patch).map_err(|_| {
        "vector error: a multi-file patch must be UTF-8 (use `mode` for byte tests)"
    })?;
    let mut sources: BTreeMap<String, String> = BTreeMap::new();
    for (k, v) in &case.before {
        let s = String::from_utf8(v.clone())
            .map_err(|_| format!("vector error: before/{k} must be UTF-8 in a multi-file case"))?;
        sources.insert(k.clone(), s);
    }
    let result = v4a::parse_patch(patch).and_then(|parsed| {
        v4a::apply_patch(
            &parsed,
            |path: &str| sources.get(path).map(String::as_str),
            opts,
        )
    });
    let result = result.map(|res| {
        let mut files = case.before.clone();
        let mut applied = Vec::new();
        for fr in res.files {
            let mut keys = vec![fr.path.clone()];
            match fr.kind {
                OpKind::Add => {
                    files.insert(fr.path.clone(), fr.applied.text.as_bytes().to_vec());
                }
                OpKind::Delete => {
                    files.remove(&fr.path);
                }
                OpKind::Update => match &fr.move_to {
                    Some(dest) if *dest != fr.path => {
                        files.remove(&fr.path);
                        files.insert(dest.clone(), fr.applied.text.as_bytes().to_vec());
                        keys.push(dest.clone());
                    }
                    _ => {
                        files.insert(fr.path.clone(), fr.applied.text.as_bytes().to_vec());
                    }
                },
            }
            if fr.kind == OpKind::Update {
                applied.push((keys, fr.applied));
            }
        }
        Produced { files, applied }
    });
    Ok(result)
}

fn check_error(spec: &ErrorSpec, e: &Error) -> Vec<String> {
    let mut problems = Vec::new();
    if e.status().name() != spec.status {
        problems.push(format!(
            "status: expected {}, got {}",
            spec.status,
            e.status().name()
        ));
    }
    let d = e.diagnostics();
    for (k, v) in &spec.checks {
        let ok = match k.as_str() {
            "contains" => e.message().contains(v.as_str()),
            "line" => v.parse::<u32>().ok() == d.patch_line,
            "hunk" => v.parse::<usize>().ok() == d.hunk.map(|h| h + 1),
            "path" => d.path.as_deref() == Some(v.as_str()),
            "candidates" => {
                let want: Vec<u32> = v.split(',').filter_map(|x| x.trim().parse().ok()).collect();
                want == d.candidates
            }
            "offset" => v.parse::<u64>().ok() == d.byte_offset,
            "suggestion" => d
                .suggestion
                .as_deref()
                .is_some_and(|s| s.contains(v.as_str())),
            "corrected" => d
                .corrected_hunk
                .as_deref()
                .is_some_and(|s| s.contains(v.as_str())),
            _ => false,
        };
        if !ok {
            problems.push(format!("check failed: `{k}: {v}`"));
        }
    }
    problems
}

fn flags_of(h: &v4a::HunkReport) -> BTreeSet<String> {
    let mut set = BTreeSet::new();
    for (on, name) in [
        (h.reindented, "reindented"),
        (h.already_applied, "already_applied"),
        (h.end_of_file, "end_of_file"),
        (h.out_of_order, "out_of_order"),
    ] {
        if on {
            set.insert(name.to_string());
        }
    }
    set
}

fn check_expect(exp: &Expectation, produced: &Produced) -> Option<String> {
    let path = match exp {
        Expectation::Fuzz { path, .. }
        | Expectation::Hunks { path, .. }
        | Expectation::Hunk { path, .. } => path,
    };
    let applied = match path {
        None => produced.applied.first().map(|(_, a)| a),
        Some(p) => produced
            .applied
            .iter()
            .find(|(keys, _)| keys.contains(p))
            .map(|(_, a)| a),
    };
    let Some(a) = applied else {
        return Some(format!(
            "expect {exp:?}: no updated file {path:?} in the result"
        ));
    };
    match exp {
        Expectation::Fuzz { fuzz, .. } => {
            (a.fuzz != *fuzz).then(|| format!("fuzz: expected {fuzz}, got {}", a.fuzz))
        }
        Expectation::Hunks { count, .. } => (a.hunks.len() != *count)
            .then(|| format!("hunks: expected {count}, got {}", a.hunks.len())),
        Expectation::Hunk { index, what, .. } => {
            let Some(h) = a.hunks.get(index - 1) else {
                return Some(format!(
                    "hunk {index}: the result has only {} hunk reports",
                    a.hunks.len()
                ));
            };
            match what {
                HunkCheck::Level(l) => (h.level.name() != l.as_str())
                    .then(|| format!("hunk {index} level: expected {l}, got {}", h.level.name())),
                HunkCheck::Flags(f) => {
                    let got = flags_of(h);
                    (got != *f).then(|| format!("hunk {index} flags: expected {f:?}, got {got:?}"))
                }
                HunkCheck::Old(s, l) => ((h.old_start, h.old_len) != (*s, *l)).then(|| {
                    format!(
                        "hunk {index} old: expected {s},{l}, got {},{}",
                        h.old_start, h.old_len
                    )
                }),
                HunkCheck::New(s, l) => ((h.new_start, h.new_len) != (*s, *l)).then(|| {
                    format!(
                        "hunk {index} new: expected {s},{l}, got {},{}",
                        h.new_start, h.new_len
                    )
                }),
            }
        }
    }
}

/// Runs one case; `Err` holds the failure report.
fn run_case(case: &Case) -> Result<(), String> {
    let opts = build_options(&case.options)?;
    let result = match &case.mode {
        Some(word) => run_single(case, word, &opts),
        None => run_multi(case, &opts)?,
    };
    let mut report = String::new();
    match (&case.error, result) {
        (Some(spec), Err(e)) => {
            let problems = check_error(spec, &e);
            if !problems.is_empty() {
                for p in problems {
                    let _ = writeln!(report, "  {p}");
                }
                report.push_str(&describe_error(&e));
            }
        }
        (Some(spec), Ok(p)) => {
            let _ = writeln!(
                report,
                "  expected error {}, but the patch applied",
                spec.status
            );
            for (path, bytes) in &p.files {
                let _ = writeln!(
                    report,
                    "    produced {path}: {}",
                    show(&bytes[..bytes.len().min(400)])
                );
            }
        }
        (None, Err(e)) => {
            report.push_str("  expected success, got an error\n");
            report.push_str(&describe_error(&e));
        }
        (None, Ok(p)) => {
            let expected = case.after.clone().unwrap_or_default();
            if case.mode.is_some() {
                let want = expected.values().next().cloned().unwrap_or_default();
                let got = p.files.values().next().cloned().unwrap_or_default();
                if want != got {
                    report.push_str("  text differs\n");
                    report.push_str(&show_diff(&want, &got));
                }
            } else {
                let paths: BTreeSet<&String> = expected.keys().chain(p.files.keys()).collect();
                for path in paths {
                    match (expected.get(path), p.files.get(path)) {
                        (Some(w), Some(g)) if w == g => {}
                        (Some(w), Some(g)) => {
                            let _ = writeln!(report, "  {path} differs");
                            report.push_str(&show_diff(w, g));
                        }
                        (Some(_), None) => {
                            let _ = writeln!(
                                report,
                                "  {path}: expected in after/, missing from the result"
                            );
                        }
                        (None, Some(g)) => {
                            let _ = writeln!(
                                report,
                                "  {path}: present in the result, not expected: {}",
                                show(&g[..g.len().min(400)])
                            );
                        }
                        (None, None) => {}
                    }
                }
            }
            for exp in &case.expect {
                if let Some(problem) = check_expect(exp, &p) {
                    let _ = writeln!(report, "  {problem}");
                }
            }
        }
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
    let spawned = thread::Builder::new()
        .name(case.name.clone())
        .stack_size(16 << 20)
        .spawn(move || {
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
    if !failures.is_empty() {
        let mut msg = String::new();
        for (name, report) in &failures {
            let _ = write!(msg, "\n--- {name}\n{report}");
        }
        let names: Vec<&str> = failures.iter().map(|(n, _)| n.as_str()).collect();
        let _ = write!(
            msg,
            "\nfailing vectors: {}\n{passed} passed, {} failed",
            names.join(" "),
            failures.len()
        );
        panic!("{msg}");
    }
    assert!(passed > 0 || filter.is_some(), "no vectors ran");
    eprintln!("{passed} passed, 0 failed");
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
