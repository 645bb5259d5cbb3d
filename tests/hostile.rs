//! Hostile inputs: each ends with success or a clear error, within a time bound and bounded
//! memory; none panics, hangs or allocates without bound. Sized for release mode
//! (`cargo test --release --test hostile`, part of the README test command); in debug mode the
//! largest inputs are scaled down.

use std::sync::mpsc;
use std::time::{Duration, Instant};

use v4a::{apply, apply_bytes, Mode, Options, Patch, Status};

// Counts live heap bytes and their peak, so memory bounds are checked exactly.
#[path = "../benches/support/counting_alloc.rs"]
mod counting_alloc;
use counting_alloc::Counting;

#[global_allocator]
static ALLOC: Counting = Counting;

/// Tests that measure memory run one at a time.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

const RELEASE: bool = !cfg!(debug_assertions);

/// `n` in release mode, `n / 20` in debug mode.
fn size(n: usize) -> usize {
    if RELEASE {
        n
    } else {
        n / 20
    }
}

/// Runs `f` on its own thread; fails if it takes longer than `secs` or panics. Returns its
/// value and the peak heap growth while it ran.
fn bounded<T: Send + 'static>(
    what: &str,
    secs: u64,
    f: impl FnOnce() -> T + Send + 'static,
) -> (T, usize) {
    let _guard = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let base = counting_alloc::start_peak();
    let (tx, rx) = mpsc::channel();
    let start = Instant::now();
    std::thread::spawn(move || {
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
        let _ = tx.send(r);
    });
    let limit = Duration::from_secs(if RELEASE { secs } else { secs * 4 });
    match rx.recv_timeout(limit) {
        Ok(Ok(v)) => {
            let peak = counting_alloc::peak_since(base);
            eprintln!(
                "{what}: {:?}, peak heap {} MB",
                start.elapsed(),
                peak / 1_000_000
            );
            (v, peak)
        }
        Ok(Err(_)) => panic!("{what}: panicked"),
        Err(_) => panic!("{what}: did not finish within {limit:?}"),
    }
}

/// Applies and reports `Ok(text)` or `Err(status)`.
fn run(source: String, diff: String, opts: Options) -> Result<String, (Status, String)> {
    apply(&source, &diff, Mode::Update, &opts)
        .map(|r| r.text)
        .map_err(|e| (e.status(), e.message().to_string()))
}

#[test]
fn one_gigabyte_source() {
    let n = size(1 << 30);
    let ((res, len), peak) = bounded("1 GB source", 120, move || {
        let line = "0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxy\n";
        let mut src = String::with_capacity(n + 100);
        while src.len() + line.len() < n {
            src.push_str(line);
        }
        src.push_str("the one distinct line\n");
        let len = src.len();
        let r = run(
            src,
            "@@\n-the one distinct line\n+changed\n".into(),
            Options::default(),
        );
        (r.map(|t| t.ends_with("changed\n")), len)
    });
    assert_eq!(res, Ok(true));
    // The source, its copy in the result, the new text and the line index.
    assert!(peak < len * 4, "peak {peak} for a {len}-byte source");
}

#[test]
fn ten_million_short_lines() {
    let n = size(10_000_000);
    let ((res, len), peak) = bounded("10M short lines", 60, move || {
        let mut src = String::with_capacity(n * 2 + 10);
        for _ in 0..n {
            src.push_str("x\n");
        }
        src.push_str("y\n");
        let len = src.len();
        (
            run(src, "@@\n x\n-y\n+z\n".into(), Options::default()).map(|t| t.len()),
            len,
        )
    });
    assert_eq!(res, Ok(len));
    assert!(peak < len * 12, "peak {peak} for {len} bytes in {n} lines");
}

#[test]
fn a_single_fifty_megabyte_line() {
    let n = size(50_000_000);
    let (res, _) = bounded("50 MB line", 60, move || {
        let big = "ab".repeat(n / 2);
        let src = format!("head\n{big}\ntail\n");
        // Found: the huge line is context.
        let ok = run(
            src.clone(),
            format!("@@\n-head\n+HEAD\n {big}\n"),
            Options::default(),
        )
        .map(|t| t.len());
        // Not found: the diagnostic must stay bounded on a huge line.
        let missing = run(
            src,
            format!("@@\n {big}x\n-tail\n+TAIL\n"),
            Options::default(),
        );
        (ok, missing.map(|_| ()).map_err(|e| e.0))
    });
    assert_eq!(res.0, Ok(n + 11));
    assert_eq!(res.1, Err(Status::ContextNotFound));
}

#[test]
fn ten_thousand_stacked_anchors() {
    let (res, _) = bounded("10,000 stacked anchors", 30, || {
        let mut src = String::new();
        for i in 0..10_000 {
            src.push_str(&format!("{}level {i}\n", " ".repeat(i % 64)));
        }
        let mut diff = String::new();
        for i in 0..10_000 {
            diff.push_str(&format!("@@ level {i}\n"));
        }
        diff.push_str("+inserted\n");
        run(src, diff, Options::default()).map(|t| t.lines().count())
    });
    // Either placed after the innermost anchor or a clear error, never a hang.
    match res {
        Ok(lines) => assert_eq!(lines, 10_001),
        Err((s, _)) => assert!(matches!(s, Status::AnchorNotFound | Status::SearchBudget)),
    }
}

#[test]
fn one_hundred_thousand_hunks() {
    let n = size(100_000);
    let (res, _) = bounded("100,000 hunks", 60, move || {
        let mut src = String::new();
        let mut diff = String::new();
        for i in 0..n {
            src.push_str(&format!("line {i}\n"));
            diff.push_str(&format!("@@\n-line {i}\n+LINE {i}\n"));
        }
        run(src, diff, Options::default()).map(|t| t.starts_with("LINE 0\nLINE 1\n"))
    });
    assert_eq!(res, Ok(true));
}

#[test]
fn an_anchor_that_matches_every_line() {
    let n = size(1_000_000);
    let (res, _) = bounded("anchor matching every line", 30, move || {
        let src = "same\n".repeat(n);
        run(src, "@@ same\n-same\n+other\n".into(), Options::default()).map(|_| ())
    });
    let (status, message) = res.unwrap_err();
    assert_eq!(status, Status::Ambiguous);
    assert!(
        message.contains("matches 100 lines") || message.contains("in all"),
        "{message}"
    );
}

#[test]
fn a_hunk_equal_to_the_whole_file() {
    let (res, _) = bounded("hunk = whole file", 30, || {
        let lines: Vec<String> = (0..size(200_000)).map(|i| format!("l{i}")).collect();
        let src: String = lines.iter().map(|l| format!("{l}\n")).collect();
        let mut diff = String::from("@@\n");
        for l in &lines[..lines.len() - 1] {
            diff.push_str(&format!(" {l}\n"));
        }
        diff.push_str(&format!("-{}\n+end\n", lines[lines.len() - 1]));
        run(src, diff, Options::default()).map(|t| t.ends_with("end\n"))
    });
    assert_eq!(res, Ok(true));
}

#[test]
fn every_unicode_space_and_dash_folds() {
    let spaces: Vec<char> = ('\u{0}'..='\u{10FFFF}')
        .filter(|c| {
            c.is_whitespace()
                && !c.is_ascii()
                && *c != '\u{85}'
                && *c != '\u{2028}'
                && *c != '\u{2029}'
        })
        .collect();
    for sp in spaces {
        let src = format!("a{sp}b\nz\n");
        let r = apply(&src, "@@\n-a b\n+c\n", Mode::Update, &Options::default())
            .unwrap_or_else(|e| panic!("U+{:04X}: {}", sp as u32, e.message()));
        assert_eq!(r.text, "c\nz\n", "U+{:04X}", sp as u32);
        assert_eq!(r.fuzz, 100);
    }
    for dash in [
        '\u{2010}', '\u{2011}', '\u{2012}', '\u{2013}', '\u{2014}', '\u{2015}', '\u{2212}',
        '\u{FE58}', '\u{FE63}', '\u{FF0D}',
    ] {
        let src = format!("x {dash} y\n");
        let r = apply(&src, "@@\n-x - y\n+ok\n", Mode::Update, &Options::default())
            .unwrap_or_else(|e| panic!("U+{:04X}: {}", dash as u32, e.message()));
        assert_eq!(r.text, "ok\n");
    }
}

#[test]
fn invalid_utf8_at_every_position_class() {
    let cases: [(&[u8], u64); 7] = [
        (b"\xffabc\n", 0),              // start
        (b"ab\xe2\x82\n", 2),           // middle of a multi-byte sequence
        (b"abc\n\xe2", 4),              // truncated at the end
        (b"a\xc0\xafb\n", 1),           // overlong encoding of '/'
        (b"a\xed\xa0\x80b\n", 1),       // a surrogate encoded in UTF-8
        (b"ok\n\xf4\x90\x80\x80\n", 3), // above U+10FFFF
        (b"x\x80\n", 1),                // a lone continuation byte
    ];
    for (bytes, offset) in cases {
        let e = apply_bytes(bytes, b"@@\n-x\n+y\n", Mode::Update, &Options::default()).unwrap_err();
        assert_eq!(e.status(), Status::InvalidUtf8, "{bytes:?}");
        assert_eq!(e.diagnostics().byte_offset, Some(offset), "{bytes:?}");
        let e = apply_bytes(b"x\n", bytes, Mode::Update, &Options::default()).unwrap_err();
        assert_eq!(e.status(), Status::InvalidUtf8);
        assert_eq!(e.diagnostics().input.as_deref(), Some("patch"));
    }
}

#[test]
fn nul_bytes_and_cr_only_files() {
    let r = apply(
        "a\0b\rc\0\rd",
        "@@\n a\0b\n-c\0\n+C\n",
        Mode::Update,
        &Options::default(),
    )
    .unwrap();
    assert_eq!(r.text, "a\0b\rC\rd");
    let r = apply(
        "\r\r\r",
        "@@\n \n-\n+x\n",
        Mode::Update,
        &Options::default(),
    );
    assert!(r.is_ok() || r.unwrap_err().status() == Status::Ambiguous);
}

#[test]
fn end_patch_inside_hunk_bodies() {
    // At column 0 it ends the patch: what follows must be blank, else a syntax error.
    let p = "*** Begin Patch\n*** Update File: a\n@@\n-x\n*** End Patch\n+y\n*** End Patch\n";
    let e = Patch::parse(p).unwrap_err();
    assert_eq!(e.status(), Status::PatchSyntax);
    assert_eq!(e.diagnostics().patch_line, Some(6));
    // Indented, it is a context line like any other.
    let r = apply(
        "*** End Patch\nx\n",
        "@@\n *** End Patch\n-x\n+y\n",
        Mode::Update,
        &Options::default(),
    )
    .unwrap();
    assert_eq!(r.text, "*** End Patch\ny\n");
}

#[test]
fn patches_of_only_whitespace() {
    for p in ["", " ", "\n\n\n", "\t \r\n  \n", "   \n\t"] {
        let e = apply("x\n", p, Mode::Update, &Options::default()).unwrap_err();
        assert_eq!(e.status(), Status::PatchSyntax, "{p:?}");
        let e = Patch::parse(p).unwrap_err();
        assert_eq!(e.status(), Status::PatchSyntax, "{p:?}");
    }
}

#[test]
fn repetitive_files_where_every_window_is_a_near_match() {
    let n = size(200_000);
    let (res, _) = bounded("near matches everywhere", 60, move || {
        // Every window matches all but the last line of the hunk, at every level.
        let src = "    a = 1\n".repeat(n);
        let mut diff = String::from("@@\n");
        for _ in 0..300 {
            diff.push_str("  a  =  1\n");
        }
        diff.push_str("-    b = 2\n+    c = 3\n");
        let found = run(src.clone(), diff, Options::default()).map(|_| ());
        // The same with a tiny budget: the budget error, never a hang.
        let tight = Options {
            search_budget: (n / 2) as u64,
            ..Options::default()
        };
        let budget = run(src, "@@\n a = 1\n-a = 1\n+b\n".into(), tight).map(|_| ());
        (found.map_err(|e| e.0), budget.map_err(|e| e.0))
    });
    assert_eq!(res.0, Err(Status::ContextNotFound));
    assert_eq!(res.1, Err(Status::SearchBudget));
}
