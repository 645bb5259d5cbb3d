//! Replays the fuzz corpora as an ordinary test, without libFuzzer: every file of
//! `fuzz/corpus/<target>/` (the minimised corpus) and `fuzz/regressions/<target>/` (inputs that
//! once crashed) goes through the same check as the fuzz target (`fuzz/src/checks/`).
//!
//! `V4A_FUZZ_CORPUS=DIR cargo test -p v4a-ffi fuzz_corpus` replays `DIR/<target>/` instead.

#[path = "../../../fuzz/src/checks/mod.rs"]
mod checks;

use std::fs;
use std::path::{Path, PathBuf};

fn dirs(target: &str) -> Vec<PathBuf> {
    if let Some(dir) = std::env::var_os("V4A_FUZZ_CORPUS") {
        return vec![Path::new(&dir).join(target)];
    }
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    vec![
        fuzz.join("corpus").join(target),
        fuzz.join("regressions").join(target),
    ]
}

/// Runs every input of one target; returns how many ran. Collects every failure before
/// panicking, naming each file.
fn replay(target: &str) -> usize {
    let check = checks::TARGETS
        .iter()
        .find(|(name, _)| *name == target)
        .map(|(_, check)| *check)
        .expect("a known target");
    let mut files: Vec<PathBuf> = dirs(target)
        .iter()
        .filter_map(|d| fs::read_dir(d).ok())
        .flatten()
        .map(|e| e.expect("a readable corpus entry").path())
        .collect();
    files.sort();
    let mut failures = Vec::new();
    for path in &files {
        let data = fs::read(path).expect("a readable corpus file");
        if let Err(message) = checks::run(check, &data) {
            failures.push(format!("{}: {message}", path.display()));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} {target} inputs fail:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
    files.len()
}

macro_rules! corpus_tests {
    ($($name:ident),* $(,)?) => {$(
        #[test]
        fn $name() {
            let n = replay(stringify!($name));
            assert!(n >= 10, "the {} corpus has only {n} inputs", stringify!($name));
        }
    )*};
}

corpus_tests!(parse, apply, multi, refine, make_patch, reverse, ffi, merge);

#[test]
fn every_target_is_replayed() {
    let names: Vec<&str> = checks::TARGETS.iter().map(|(n, _)| *n).collect();
    assert_eq!(
        names,
        [
            "parse",
            "apply",
            "multi",
            "refine",
            "make_patch",
            "reverse",
            "ffi",
            "merge"
        ]
    );
}

/// The fuzzers' findings, as readable tests of their fixes (see FUZZING.md). Findings that a
/// shared vector can express are vectors instead (`tests/vectors/`); the raw inputs are in
/// `fuzz/regressions/`.
mod regressions {
    use engine::report::refine::{refine_pair, RefineLimits};
    use engine::{apply, make_patch, Change, DiffKind, GenerateOptions, Mode, Options, Segment};

    /// `reverse`: a hunk that only deletes lines (`-date B`, no context) inverts to a pure
    /// insertion, which `reverse_applied` placed at the end of the file (`\n\ndate B\n`
    /// instead of `\ndate B\n\n`): nothing in the files after the patch says where the lines
    /// were. It is refused now; `reverse` (from the files before) still works.
    #[test]
    fn reverse_applied_refuses_a_hunk_of_deletions_alone() {
        let patch = engine::Patch::parse(
            "*** Begin Patch\n*** Update File: f\n@@\n-date B\n*** End Patch\n",
        )
        .unwrap();
        let opts = Options::default();
        let e = patch.reverse_applied(|_| Some("\n\n"), &opts).unwrap_err();
        assert_eq!(e.status(), engine::Status::InvalidArgument);
        assert!(e.message().contains("hunk 1"), "{}", e.message());
        assert!(e.message().contains("before the patch"), "{}", e.message());
        let undo = patch.reverse(|_| Some("\ndate B\n\n"), &opts).unwrap();
        let back = apply("\n\n", &undo, Mode::Update, &opts).unwrap();
        assert_eq!(back.text, "\ndate B\n\n");
        // A hunk that also adds a line keeps working: its inverse deletes that line.
        let patch = engine::Patch::parse(
            "*** Begin Patch\n*** Update File: f\n@@\n a\n-x\n+y\n*** End Patch\n",
        )
        .unwrap();
        let undo = patch.reverse_applied(|_| Some("a\ny\n"), &opts).unwrap();
        assert!(undo.contains("-y\n+x\n"), "{undo}");
    }

    fn seg(kind: DiffKind, start: usize, end: usize) -> Segment {
        Segment { kind, start, end }
    }

    /// `apply`: a hunk that replaces a line with the same line changed nothing, yet the unified
    /// diff showed `-x = 1` / `+x = 1`.
    #[test]
    fn a_hunk_that_changes_nothing_has_no_unified_diff() {
        let source = "  x = 1\ny\nx = 1\n";
        let opts = Options::default();
        let r = apply(source, "@@\n-x = 1\n+x = 1\n", Mode::Update, &opts).unwrap();
        assert_eq!(r.text, source);
        assert!(!r.changed());
        assert_eq!(r.unified_diff(3), "");
    }

    /// `refine`: a deletion at the end of the line slid left over an equal cluster, and that
    /// cluster was lost: the segments of `"xx\vx"` stopped at byte 3.
    #[test]
    fn a_deletion_slid_left_keeps_the_equal_text_after_it() {
        let limits = RefineLimits::default();
        let (old, new) = refine_pair("xx\u{b}x", "x", &limits).unwrap();
        assert_eq!(
            old,
            [seg(DiffKind::Delete, 0, 3), seg(DiffKind::Equal, 3, 4)]
        );
        assert_eq!(new, [seg(DiffKind::Equal, 0, 1)]);
        let (old, new) = refine_pair("x", "xx\u{b}x", &limits).unwrap();
        assert_eq!(old, [seg(DiffKind::Equal, 0, 1)]);
        assert_eq!(new, [seg(DiffKind::Add, 0, 3), seg(DiffKind::Equal, 3, 4)]);
    }

    /// `apply`: `unified_diff(usize::MAX)` ("all the context") overflowed `2 * context`.
    #[test]
    fn unified_diff_with_unbounded_context_is_one_hunk() {
        let source = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n";
        let opts = Options::default();
        let r = apply(source, "@@\n-b\n+B\n@@\n-i\n+I\n", Mode::Update, &opts).unwrap();
        assert_eq!(
            r.unified_diff(usize::MAX),
            "--- a\n+++ b\n@@ -1,10 +1,10 @@\n a\n-b\n+B\n c\n d\n e\n f\n g\n h\n-i\n+I\n j\n"
        );
    }

    /// `ffi`: `v4a_unified_diff` renders an edit script the caller hands in; one out of order
    /// made the renderer subtract past zero (a panic, `V4A_STATUS_INTERNAL`, in a debug build).
    /// Such a script is now refused with `INVALID_ARGUMENT`, naming the change.
    #[test]
    fn unified_diff_of_an_edit_script_out_of_order_is_refused() {
        // 0-based index ranges, as the script was written before `Change` became 1-based.
        let change = |old: std::ops::Range<usize>, new: std::ops::Range<usize>| Change {
            old_start: old.start + 1,
            old_len: old.len(),
            new_start: new.start + 1,
            new_len: new.len(),
            hunk: 1,
        };
        let render = |changes: &[Change]| {
            engine::report::unified_diff("a\nb\nc\n", "x\nb\ny\n", None, None, changes, 3)
        };
        let ok = render(&[change(0..1, 0..1), change(2..3, 2..3)]).unwrap();
        assert!(ok.starts_with("--- a\n+++ b\n@@ -1,3 +1,3 @@\n"), "{ok}");
        for bad in [
            vec![change(2..3, 2..3), change(0..1, 0..1)],
            vec![change(0..2, 0..2), change(1..3, 2..3)],
            vec![change(2..5, 2..3)],
            vec![change(0..1, 4..5)],
        ] {
            let e = render(&bad).unwrap_err();
            assert_eq!(e.status(), engine::Status::InvalidArgument);
            assert!(e.to_string().contains("change "), "{e}");
        }
    }

    /// `make_patch` (the fuzzers' timeouts, then a reproduction): ambiguous hunks grew one per
    /// round, only the first the default mode stopped at, so many of them hit the round limit:
    /// `INTERNAL` "did not converge" after seconds.
    #[test]
    fn make_patch_makes_many_ambiguous_hunks_unique_at_once() {
        let old: String = (0..1000).map(|_| "x\n").collect();
        let new: String = (0..1000)
            .map(|i| if i % 20 == 10 { "y\n" } else { "x\n" })
            .collect();
        let gen = GenerateOptions::default();
        let patch = make_patch(&old, &new, "f", &gen).unwrap();
        let r = apply(&old, &patch, Mode::Update, &Options::default()).unwrap();
        assert_eq!(r.text, new);
        // Repeated blocks: each change needs a line or two more than 3 of context.
        let block = |b: usize, changed: bool| {
            let mut s = format!("marker {b}\n");
            for i in 0..11 {
                s.push_str(if changed && i == 6 {
                    "    changed\n"
                } else {
                    "    filler\n"
                });
            }
            s
        };
        let old: String = (0..400).map(|b| block(b, false)).collect();
        let new: String = (0..400).map(|b| block(b, true)).collect();
        let patch = make_patch(&old, &new, "f", &gen).unwrap();
        let r = apply(&old, &patch, Mode::Update, &Options::default()).unwrap();
        assert_eq!(r.text, new);
    }

    /// `make_patch`: `max_context: usize::MAX` ("no limit") overflowed `2 * max_context`, a
    /// panic in a debug build.
    #[test]
    fn make_patch_with_unbounded_context() {
        let gen = GenerateOptions {
            context: usize::MAX,
            max_context: usize::MAX,
        };
        let patch = make_patch("a\nb\nc\nb\n", "a\nB\nc\nb\n", "f", &gen).unwrap();
        assert_eq!(
            patch,
            "*** Begin Patch\n*** Update File: f\n@@\n a\n-b\n+B\n c\n b\n*** End Patch\n"
        );
    }

    /// `make_patch`: an `@@` anchor chosen for a small hunk stayed when the hunk grew over it
    /// (`INTERNAL` "could not place hunk 1 although it spans the whole file"), and with
    /// `max_context: 0` hunks never grew ("did not converge").
    #[test]
    fn make_patch_drops_an_anchor_its_hunk_grew_over() {
        let old = "\nx\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n r ";
        let new = "\n\n\n\n\n\n\n\ne5\n\n\n\n\n\n\n\n%e";
        for (context, max_context) in [(2, 4), (0, 0), (3, 50)] {
            let gen = GenerateOptions {
                context,
                max_context,
            };
            let patch = make_patch(old, new, "f", &gen).unwrap();
            let r = apply(old, &patch, Mode::Update, &Options::default()).unwrap();
            assert_eq!(r.text, new, "{patch}");
        }
    }
}
