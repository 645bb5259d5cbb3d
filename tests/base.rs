//! Base-aware apply (`apply_with_base`) against an oracle: a random base, random independent
//! edits for the current text and for the patch. When the two sets of edits do not touch, the
//! result is the text with both applied; when they do, `CONFLICT`; never anything else.

use proptest::prelude::*;
use v4a::{apply, apply_with_base, make_patch, GenerateOptions, Mode, Options, Status};

/// Replace base lines `start..end` with `new`.
#[derive(Clone, Debug)]
struct Edit {
    start: usize,
    end: usize,
    new: Vec<String>,
}

/// Non-overlapping, non-touching edits in order (the same rule the merge uses: two changes
/// that touch could go in either order, so they count as touching).
fn edits(n: usize, tag: &'static str) -> impl Strategy<Value = Vec<Edit>> {
    prop::collection::vec((0..=n, 0usize..3, 0usize..3), 1..4).prop_map(move |raw| {
        let mut out: Vec<Edit> = Vec::new();
        for (k, (start, len, add)) in raw.into_iter().enumerate() {
            let end = (start + len).min(n);
            if end == start && add == 0 {
                continue;
            }
            if out.iter().any(|e| start <= e.end && e.start <= end) {
                continue;
            }
            let new = (0..add).map(|i| format!("{tag}{k}.{i}")).collect();
            out.push(Edit { start, end, new });
        }
        out.sort_by_key(|e| e.start);
        out
    })
}

/// The merge's conflict rule: ranges that overlap or touch.
fn touch(a: &Edit, b: &Edit) -> bool {
    a.start <= b.end && b.start <= a.end
}

/// Applies edits (in base coordinates) to the base lines.
fn apply_edits(base: &[String], edits: &[&Edit]) -> Vec<String> {
    let mut sorted: Vec<&Edit> = edits.to_vec();
    sorted.sort_by_key(|e| (e.start, e.end));
    let mut out = Vec::new();
    let mut b = 0;
    for e in sorted {
        out.extend_from_slice(&base[b..e.start]);
        out.extend(e.new.iter().cloned());
        b = e.end;
    }
    out.extend_from_slice(&base[b..]);
    out
}

fn join(lines: &[String], eol: &str) -> String {
    lines.iter().map(|l| format!("{l}{eol}")).collect()
}

fn case() -> impl Strategy<Value = (Vec<String>, Vec<Edit>, Vec<Edit>, &'static str)> {
    (2usize..25).prop_flat_map(|n| {
        (
            Just((0..n).map(|i| format!("line {i}")).collect::<Vec<_>>()),
            edits(n, "current "),
            edits(n, "patch "),
            prop::sample::select(vec!["\n", "\r\n"]),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, max_global_rejects: 1_000_000, ..ProptestConfig::default() })]

    #[test]
    fn merges_independent_edits_and_refuses_touching_ones((base, theirs, ours, eol) in case()) {
        let base_text = join(&base, eol);
        let current = join(&apply_edits(&base, &theirs.iter().collect::<Vec<_>>()), eol);
        let patched = join(&apply_edits(&base, &ours.iter().collect::<Vec<_>>()), eol);
        prop_assume!(patched != base_text);
        let patch = make_patch(&base_text, &patched, "f.txt", &GenerateOptions::default()).unwrap();
        let opts = Options::default();
        let got = apply_with_base(&current, &base_text, &patch, Mode::Update, &opts);
        // Both sides making the same change (the same lines deleted) is no conflict.
        let same = |t: &Edit, o: &Edit| t.start == o.start && t.end == o.end && t.new == o.new;
        let touching = theirs.iter().any(|t| ours.iter().any(|o| touch(t, o) && !same(t, o)));
        if touching {
            match got {
                Err(e) => prop_assert_eq!(e.status(), Status::Conflict, "{}", e.message()),
                Ok(r) => return Err(TestCaseError::fail(format!(
                    "touching edits merged without a conflict:\n{}\npatch:\n{patch}", r.text))),
            }
        } else {
            let all: Vec<&Edit> = theirs
                .iter()
                .chain(ours.iter().filter(|o| !theirs.iter().any(|t| same(t, o))))
                .collect();
            let want = join(&apply_edits(&base, &all), eol);
            match got {
                Ok(r) => {
                    prop_assert_eq!(&r.text, &want, "patch:\n{}", patch);
                    prop_assert_eq!(&r.source, &current);
                    prop_assert!(r.hunks.iter().all(|h| h.merged == (current != base_text)));
                }
                Err(e) => return Err(TestCaseError::fail(format!(
                    "{:?}: {}\npatch:\n{patch}", e.status(), e.message()))),
            }
        }
    }

    /// With the base equal to the current text, the result is exactly the plain apply's.
    #[test]
    fn a_base_equal_to_the_source_changes_nothing((base, _theirs, ours, eol) in case()) {
        let base_text = join(&base, eol);
        let patched = join(&apply_edits(&base, &ours.iter().collect::<Vec<_>>()), eol);
        prop_assume!(patched != base_text);
        let patch = make_patch(&base_text, &patched, "f.txt", &GenerateOptions::default()).unwrap();
        let opts = Options::default();
        prop_assert_eq!(
            apply_with_base(&base_text, &base_text, &patch, Mode::Update, &opts),
            apply(&base_text, &patch, Mode::Update, &opts)
        );
    }
}

#[test]
fn a_conflict_shows_the_three_versions() {
    let base = "def f():\n    x = 1\n    return x\n";
    let current = "def f():\n    x = 10\n    return x\n";
    let diff = "@@ def f():\n-    x = 1\n+    x = 2\n";
    let err = apply_with_base(current, base, diff, Mode::Update, &Options::default()).unwrap_err();
    assert_eq!(err.status(), Status::Conflict);
    assert_eq!(
        err.message(),
        "hunk 1 (patch line 1) conflicts with a change made to the file since the model read it: \
         the lines it changes were also changed in the current file.\n\
         What the model saw (line 2):\n  |    x = 1\n\
         What the file has now (line 2):\n  |    x = 10\n\
         What the patch wanted (line 2):\n  |    x = 2\n\
         Resend the hunk against the current lines shown above."
    );
    assert_eq!(err.diagnostics().candidates, [2]);
}

#[test]
fn a_hunk_that_drifted_out_of_both_versions_says_the_file_changed() {
    let base = "a\nb\nc\n";
    let current = "a\nB\nc\nd\n";
    let err = apply_with_base(
        current,
        base,
        "@@\n-x\n+y\n",
        Mode::Update,
        &Options::default(),
    )
    .unwrap_err();
    assert_eq!(err.status(), Status::ContextNotFound);
    assert!(
        err.message().ends_with(
            "\nThe file changed since the model read it; the patch was checked against both \
             versions. What changed since (the current lines):\n  line 2 (was 1 line):\n  |B\n  \
             line 4 (added):\n  |d"
        ),
        "{}",
        err.message()
    );
}

#[test]
fn a_hunk_whose_lines_now_occur_twice_lands_where_the_model_saw_it() {
    // Since the model read the file, the drift duplicated the function the hunk edits: a plain
    // apply is ambiguous, the base says which one the model meant.
    let base = "fn a() {\n    run(1);\n}\n";
    let current = "fn a() {\n    run(1);\n}\nfn b() {\n    run(1);\n}\n";
    let diff = "@@\n fn a() {\n-    run(1);\n+    run(2);\n";
    let plain = apply(
        current,
        "-    run(1);\n+    run(2);\n",
        Mode::Update,
        &Options::default(),
    );
    assert_eq!(plain.unwrap_err().status(), Status::Ambiguous);
    let r = apply_with_base(current, base, diff, Mode::Update, &Options::default()).unwrap();
    assert_eq!(
        r.text,
        "fn a() {\n    run(2);\n}\nfn b() {\n    run(1);\n}\n"
    );
    assert_eq!((r.hunks[0].old_start, r.hunks[0].old_len), (1, 2));
    assert_eq!(r.changes.len(), 1);
    let c = &r.changes[0];
    assert_eq!(
        (c.old_start, c.old_len, c.new_start, c.new_len),
        (2, 1, 2, 1)
    );
    assert_eq!((c.old_lines(), c.new_lines()), (1..2, 1..2));
}

#[test]
fn a_hunk_whose_lines_the_drift_copied_with_two_readings_is_ambiguous() {
    // Without the context line, the hunk's one line reads two ways: "fn b" appended (the
    // model's line is line 2), or "    run(1);\n}\nfn b() {" inserted after line 1 (the
    // model's line is line 5). Both keep every base line: the merge does not pick one.
    let base = "fn a() {\n    run(1);\n}\n";
    let current = "fn a() {\n    run(1);\n}\nfn b() {\n    run(1);\n}\n";
    let diff = "-    run(1);\n+    run(2);\n";
    let err = apply_with_base(current, base, diff, Mode::Update, &Options::default()).unwrap_err();
    assert_eq!(err.status(), Status::Ambiguous, "{}", err.message());
    assert_eq!(err.diagnostics().candidates, [2, 5]);
    assert_eq!(
        err.message(),
        "hunk 1 (patch line 1) could stand at 2 places in the file: the file changed since the \
         model read it, and the lines around the hunk's change (what the model saw at line 2) \
         are now at line 2 and line 5. Which of them the model saw depends on how the change \
         made since is read, so the hunk was not applied. The lines:\n  |    run(1);\n\
         Resend the hunk against the current file, with a context line that tells the places \
         apart."
    );
}

#[test]
fn a_drift_that_copies_the_hunks_lines_before_them_is_not_carried_to_the_copy() {
    // The fuzz finding (fuzz/regressions/merge/drift-copying-base-lines-aligns-elsewhere),
    // made small: the drift replaced line "r" with a block that copies the lines from "s" to
    // the end. The diff reads it, one line cheaper, as "x" inserted before "r" and a copy of
    // "s".."e" appended: the edit of "d" would land in the block, not at the end where the
    // model's lines still are. Two readings: refused.
    let base = "a\nr\ns\nb\nc\nd\ne\n";
    let current = "a\nx\nr\ns\nb\nc\nd\ne\n\ns\nb\nc\nd\ne\n";
    let diff = "@@\n c\n-d\n+D\n e\n";
    let err = apply_with_base(current, base, diff, Mode::Update, &Options::default()).unwrap_err();
    assert_eq!(err.status(), Status::Ambiguous, "{}", err.message());
    assert_eq!(err.diagnostics().candidates, [6, 12]);
}

#[test]
fn an_insertion_that_could_slide_past_a_change_made_since_is_a_conflict() {
    // From the drift benchmark (zustand): the patch inserts a block ending with "  })" right
    // before a "  })" line, so the block could as well stand after that line; since the read,
    // another test was inserted right after it. Which goes first is a guess: a conflict, not
    // a silent choice.
    let base = "describe('a', () => {\n  it('x', () => {\n    expect(1)\n  })\n})\n";
    let current =
        "describe('a', () => {\n  it('x', () => {\n    expect(1)\n  })\n  it('z', () => {})\n})\n";
    let diff = "@@\n     expect(1)\n+  })\n+  it('y', () => {\n+    expect(2)\n   })\n })\n";
    // Against the base alone it applies.
    assert!(apply(base, diff, Mode::Update, &Options::default()).is_ok());
    let err = apply_with_base(current, base, diff, Mode::Update, &Options::default()).unwrap_err();
    assert_eq!(err.status(), Status::Conflict, "{}", err.message());
    // The same insertion with nothing changed near it merges.
    let far = format!("// header\n{base}");
    let r = apply_with_base(&far, base, diff, Mode::Update, &Options::default()).unwrap();
    assert_eq!(
        r.text,
        "// header\ndescribe('a', () => {\n  it('x', () => {\n    expect(1)\n  })\n  it('y', () => {\n    expect(2)\n  })\n})\n"
    );
}

#[test]
fn an_insertion_whose_window_only_ends_at_a_change_made_since_merges() {
    // From the drift benchmark (cobra): a new function inserted after another one's closing
    // "}" and blank line could slide up over those two lines to the end of the body, which the
    // drift rewrote; every place in that window gives the same text, so it merges.
    let base = "fn a() {\n    old();\n}\n\nfn c() {}\n";
    let current = "fn a() {\n    new();\n}\n\nfn c() {}\n";
    let diff = "@@\n }\n \n+fn b() {\n+    x();\n+}\n+\n fn c() {}\n";
    let r = apply_with_base(current, base, diff, Mode::Update, &Options::default()).unwrap();
    assert_eq!(
        r.text,
        "fn a() {\n    new();\n}\n\nfn b() {\n    x();\n}\n\nfn c() {}\n"
    );
    // Written where it touches the change, the insertion moves off it (same text).
    let base = "a\nX\nX\nb\n";
    let current = "a\nX\nX\nB\n";
    let diff = "@@\n a\n X\n X\n+X\n b\n";
    let r = apply_with_base(current, base, diff, Mode::Update, &Options::default()).unwrap();
    assert_eq!(r.text, "a\nX\nX\nX\nB\n");
    // A change inside the window is still a guess: a conflict.
    let current = "a\nX\nY\nb\n";
    let err = apply_with_base(current, base, diff, Mode::Update, &Options::default()).unwrap_err();
    assert_eq!(err.status(), Status::Conflict, "{}", err.message());
}

#[test]
fn a_deletion_made_since_that_could_shift_off_the_hunks_line_merges() {
    // From the drift benchmark (zustand): the drift deleted the block after the line the
    // patch changes; the diff aligns the deletion right after that line, but it can as well
    // start one line later (the blank line it starts with repeats after it): no conflict.
    let base = "f(\n) => T\n\ndeclare {\n}\n\nnext\n";
    let current = "f(\n) => T\n\nnext\n";
    let diff = "@@\n f(\n-) => T\n+) => T, U\n \n";
    let r = apply_with_base(current, base, diff, Mode::Update, &Options::default()).unwrap();
    assert_eq!(r.text, "f(\n) => T, U\n\nnext\n");
    // A deletion that cannot shift off the changed line is still a conflict.
    let current = "f(\n\nnext\n";
    let err = apply_with_base(current, base, diff, Mode::Update, &Options::default()).unwrap_err();
    assert_eq!(err.status(), Status::Conflict, "{}", err.message());
}
