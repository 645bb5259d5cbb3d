//! The Rust API beyond the shared vectors: results, diffs, renderings and error fields.

use v4a::{apply, apply_bytes, DiffKind, DiffStyle, Level, Mode, Options, Status};

fn full() -> Options {
    Options {
        diff: DiffStyle::Full,
        ..Options::default()
    }
}

#[test]
fn delete_mode_lists_every_line_as_removed() {
    let r = apply("a\nb\n", "", Mode::Delete, &full()).unwrap();
    assert_eq!(r.text, "");
    let d: Vec<_> = r
        .diff
        .iter()
        .map(|l| (l.kind, l.old_line, l.new_line, r.line_text(l)))
        .collect();
    assert_eq!(
        d,
        [
            (DiffKind::Delete, Some(1), None, "a"),
            (DiffKind::Delete, Some(2), None, "b")
        ]
    );
}

#[test]
fn create_mode_lists_every_line_as_added() {
    let r = apply("ignored", "+x\n+y\n", Mode::Create, &full()).unwrap();
    assert_eq!(r.text, "x\ny\n");
    assert_eq!(r.diff.len(), 2);
    assert!(r.diff.iter().all(|l| l.kind == DiffKind::Add));
}

#[test]
fn full_and_changes_only_diffs() {
    let src = "1\n2\n3\n4\n5\n6\n7\n";
    let diff = "@@\n 3\n-4\n+four\n 5\n";
    let r = apply(src, diff, Mode::Update, &full()).unwrap();
    let kinds: Vec<_> = r.diff.iter().map(|l| (l.kind, l.hunk)).collect();
    assert_eq!(
        kinds,
        [
            (DiffKind::Equal, None),
            (DiffKind::Equal, None),
            (DiffKind::Equal, Some(1)),
            (DiffKind::Delete, Some(1)),
            (DiffKind::Add, Some(1)),
            (DiffKind::Equal, Some(1)),
            (DiffKind::Equal, None),
            (DiffKind::Equal, None),
        ]
    );
    let opts = Options {
        diff: DiffStyle::Changes { context: 1 },
        ..Options::default()
    };
    let r = apply(src, diff, Mode::Update, &opts).unwrap();
    let lines: Vec<_> = r
        .diff
        .iter()
        .map(|l| (l.old_line, l.new_line, r.line_text(l)))
        .collect();
    assert_eq!(
        lines,
        [
            (Some(3), Some(3), "3"),
            (Some(4), None, "4"),
            (None, Some(4), "four"),
            (Some(5), Some(5), "5")
        ]
    );
}

#[test]
fn unified_diff_rendering() {
    let r = apply(
        "a\nb\nc\n",
        "@@\n a\n-b\n+B\n",
        Mode::Update,
        &Options::default(),
    )
    .unwrap();
    assert_eq!(
        r.unified_diff(1),
        "--- a\n+++ b\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"
    );
}

/// The `---`/`+++` names of each kind of operation: `a/` and `b/` paths, a move's
/// destination, `/dev/null` on the missing side of an added or deleted file.
#[test]
fn unified_diff_names_each_kind_of_operation() {
    let patch = v4a::Patch::parse(
        "*** Begin Patch\n*** Update File: u\n@@\n-1\n+one\n*** Update File: m\n*** Move to: d\n\
         @@\n-x\n+y\n*** Add File: n\n+new\n*** Delete File: gone\n*** End Patch\n",
    )
    .unwrap();
    let sources = |p: &str| match p {
        "u" => Some("1\n2\n"),
        "m" => Some("x\n"),
        "gone" => Some("old\n"),
        _ => None,
    };
    let r = patch.apply(sources, &Options::default()).unwrap();
    let diffs: Vec<String> = r.files.iter().map(|f| f.applied.unified_diff(3)).collect();
    assert_eq!(
        diffs,
        [
            "--- a/u\n+++ b/u\n@@ -1,2 +1,2 @@\n-1\n+one\n 2\n",
            "--- a/m\n+++ b/d\n@@ -1 +1 @@\n-x\n+y\n",
            "--- /dev/null\n+++ b/n\n@@ -0,0 +1 @@\n+new\n",
            "--- a/gone\n+++ /dev/null\n@@ -1 +0,0 @@\n-old\n",
        ]
    );
}

/// Changes whose context would touch (at most twice the context apart) share one `@@` hunk;
/// one line farther, each has its own.
#[test]
fn unified_diff_groups_changes_whose_context_touches() {
    let source: String = (1..=20).map(|n| format!("{n}\n")).collect();
    let diff_of = |far: &str, to: &str| {
        let patch = format!("@@\n-2\n+two\n@@\n-{far}\n+{to}\n");
        apply(&source, &patch, Mode::Update, &Options::default())
            .unwrap()
            .unified_diff(3)
    };
    assert_eq!(
        diff_of("9", "nine"),
        "--- a\n+++ b\n@@ -1,12 +1,12 @@\n 1\n-2\n+two\n 3\n 4\n 5\n 6\n 7\n 8\n-9\n+nine\n 10\n 11\n 12\n"
    );
    assert_eq!(
        diff_of("10", "ten"),
        "--- a\n+++ b\n@@ -1,5 +1,5 @@\n 1\n-2\n+two\n 3\n 4\n 5\n\
         @@ -7,7 +7,7 @@\n 7\n 8\n 9\n-10\n+ten\n 11\n 12\n 13\n"
    );
}

#[test]
fn hunk_reports() {
    let src = "def f():\n    x = 1\n    return x\n";
    let diff = "@@\n x = 1\n-return x\n+return x + 1\n";
    let r = apply(src, diff, Mode::Update, &Options::default()).unwrap();
    let h = &r.hunks[0];
    assert_eq!(
        (h.old_start, h.old_len, h.new_start, h.new_len),
        (2, 2, 2, 2)
    );
    assert_eq!(h.level, Level::Trim);
    assert_eq!(h.line_levels, [Level::Trim, Level::Trim]);
    assert!(h.reindented);
    assert_eq!(r.text, "def f():\n    x = 1\n    return x + 1\n");
    assert_eq!(r.fuzz, 10);
}

#[test]
fn errors_carry_their_fields() {
    let e = apply_bytes(
        b"ok\n\xff\n",
        b"@@\n-ok\n+no\n",
        Mode::Update,
        &Options::default(),
    )
    .unwrap_err();
    assert_eq!(e.status(), Status::InvalidUtf8);
    assert_eq!(e.diagnostics().byte_offset, Some(3));
    assert_eq!(e.diagnostics().input.as_deref(), Some("source"));

    let e = "frobnicate".parse::<Mode>().unwrap_err();
    assert_eq!(e.status(), Status::UnsupportedMode);

    let src = "fn save() {\n    x = 1;\n}\nfn load() {\n    x = 1;\n}\n";
    let e = apply(
        src,
        "@@\n-    x = 1;\n+    x = 2;\n",
        Mode::Update,
        &Options::default(),
    )
    .unwrap_err();
    assert_eq!(e.status(), Status::Ambiguous);
    assert_eq!(e.diagnostics().candidates, [2, 5]);
    assert_eq!(e.diagnostics().hunk, Some(1));
    assert_eq!(e.diagnostics().patch_line, Some(1));
    assert_eq!(
        e.diagnostics().suggestion.as_deref(),
        Some("@@ fn save() {")
    );

    let e = apply(
        src,
        "@@ fn load\n-    x = 3;\n+    x = 2;\n",
        Mode::Update,
        &Options::default(),
    )
    .unwrap_err();
    assert_eq!(e.status(), Status::ContextNotFound);
    let d = e.diagnostics();
    assert_eq!(d.closest.as_ref().map(|c| c.start_line), Some(5));
    // The only line of the hunk differs: deleting `x = 1` instead of `x = 3` would be another
    // edit, so no corrected hunk is offered, and the message says why.
    assert_eq!(d.corrected_hunk, None);
    assert!(e.message().contains("\"····x·=·3;\""), "{}", e.message());
    assert!(
        e.message().contains("no corrected hunk is offered"),
        "{}",
        e.message()
    );

    // With a context line the file has, the region is the place, and the correction is
    // offered (the engine has checked that it lands there and only there).
    let src = "fn load() {\n    let a = read();\n    x = 1;\n}\n";
    let patch = "@@\n     let a = read();\n-    x = 3;\n+    x = 2;\n";
    let e = apply(src, patch, Mode::Update, &Options::default()).unwrap_err();
    assert_eq!(e.status(), Status::ContextNotFound);
    let corrected = e.diagnostics().corrected_hunk.clone();
    assert_eq!(
        corrected.as_deref(),
        Some("@@\n     let a = read();\n-    x = 1;\n+    x = 2;\n")
    );
    let fixed = apply(
        src,
        &corrected.unwrap_or_default(),
        Mode::Update,
        &Options::default(),
    );
    assert_eq!(
        fixed.map(|r| r.text).ok().as_deref(),
        Some("fn load() {\n    let a = read();\n    x = 2;\n}\n")
    );
}

/// `Diagnostics::hunk` counts hunks as people and the message do: the first hunk is 1. Each
/// kind of error that names a hunk (not found, overlap, empty hunk, reverse state) agrees with
/// its message.
#[test]
fn diagnostics_hunk_is_one_based_and_matches_the_message() {
    let src = "a\nb\nc\nd\n";
    let cases = [
        // The second hunk is not found.
        ("@@\n a\n-b\n+B\n@@\n-x\n+y\n", Status::ContextNotFound, 2),
        // The second hunk overlaps the first.
        ("@@\n a\n-b\n+B\n@@\n-b\n+C\n", Status::OverlappingHunks, 2),
        // The third hunk is empty (a syntax error).
        ("@@\n-a\n+A\n@@\n-b\n+B\n@@\n", Status::PatchSyntax, 3),
    ];
    for (diff, status, n) in cases {
        let e = apply(src, diff, Mode::Update, &Options::default()).unwrap_err();
        assert_eq!(e.status(), status, "{diff:?}: {}", e.message());
        assert_eq!(e.diagnostics().hunk, Some(n), "{diff:?}: {}", e.message());
        assert!(
            e.message().contains(&format!("hunk {n}")) || e.message().contains(&format!("and {n}")),
            "{diff:?}: {}",
            e.message()
        );
    }
}

#[test]
fn bare_diff_errors_name_no_path() {
    let e = apply("a\n", "@@\n-nope\n+x\n", Mode::Update, &Options::default()).unwrap_err();
    assert_eq!(e.diagnostics().path, None);
}

#[test]
fn first_match_reports_every_candidate() {
    let opts = Options {
        first_match: true,
        ..Options::default()
    };
    let r = apply("k\nv\nk\nv\n", "@@\n k\n-v\n+w\n", Mode::Update, &opts).unwrap();
    assert_eq!(r.text, "k\nw\nk\nv\n");
    assert_eq!(r.hunks[0].candidates, 2);
}

#[test]
fn generation_on_periodic_files_and_terminator_changes() {
    let old: String = (0..200).map(|i| format!("    line {}\n", i % 10)).collect();
    let mut new = String::from("head\n");
    for l in old.lines() {
        new.push_str(l);
        new.push('\n');
        if l.ends_with("line 3") {
            new.push_str("    inserted\n");
        }
    }
    let patch = v4a::make_patch(&old, &new, "x.txt", &v4a::GenerateOptions::default()).unwrap();
    let p = v4a::Patch::parse(&patch).unwrap();
    let r = p
        .apply(|_| Some(old.as_str()), &Options::default())
        .unwrap();
    assert_eq!(r.files[0].applied.text, new);

    let e = v4a::make_patch("a\n", "a\r\n", "x", &v4a::GenerateOptions::default()).unwrap_err();
    assert_eq!(e.status(), Status::InvalidArgument);
}

/// What a unified diff's file header cannot hold is a syntax error at its line, with the
/// whole message: a `---` without `+++`, a copy, a binary diff, a line of no header.
#[test]
fn unified_headers_refuse_what_cannot_be_applied() {
    let cases = [
        (
            "diff --git a/x b/x\n--- a/x\nnot plus\n",
            2,
            "line 2: a \"--- PATH\" header must be followed by a \"+++ PATH\" line",
        ),
        (
            "diff --git a/x b/y\nsimilarity index 100%\ncopy from x\ncopy to y\n",
            3,
            "line 3: a copied file (git's \"copy from\" / \"copy to\") cannot be applied: write \
             the new file as \"*** Add File: PATH\" with its lines",
        ),
        (
            "diff --git a/x b/x\nindex 1..2 100644\nBinary files a/x and b/x differ\n",
            3,
            "line 3: a binary diff cannot be applied: v4a patches text files only",
        ),
        (
            "diff --git a/x b/x\nsurprise\n--- a/x\n+++ b/x\n@@\n-a\n+b\n",
            2,
            "unexpected line 2 \"surprise\" in the header of a unified diff: expected \"--- \
             PATH\" and \"+++ PATH\" lines, then hunks starting with \"@@\"",
        ),
    ];
    for (text, line, message) in cases {
        let e = v4a::Patch::parse(text).unwrap_err();
        assert_eq!(
            (e.status(), e.message(), e.diagnostics().patch_line),
            (Status::PatchSyntax, message, Some(line)),
            "{text:?}"
        );
    }
}

/// From the files after the patch, a hunk of deletions alone cannot be reversed: the error
/// names that hunk (the second here) and the file, and points to the files before.
#[test]
fn reverse_applied_names_the_hunk_of_deletions_alone() {
    let patch = v4a::Patch::parse(
        "*** Begin Patch\n*** Update File: a\n@@\n x\n-y\n+Y\n@@\n-z\n*** End Patch\n",
    )
    .unwrap();
    let e = patch
        .reverse_applied(|_| Some("x\nY\n"), &Options::default())
        .unwrap_err();
    assert_eq!(e.status(), Status::InvalidArgument);
    assert_eq!(
        e.message(),
        "cannot reverse hunk 2 of \"*** Update File: a\" from the files after the patch: it only \
         deletes lines, without a context line, so nothing in the files after it says where they \
         were. Reverse it from the files before the patch"
    );
    assert_eq!(e.diagnostics().hunk, Some(2));
}

/// An empty line appended to a file without a final newline only ends its last line (SPEC §4
/// keeps the missing final newline), so the files after the patch hold no trace of it: the
/// inverse deleted another empty line, and the reverse given did not give the files before
/// back (a `reverse` fuzz finding). It is refused now; with a trace (a final newline in the
/// file before) it is reversed exactly.
#[test]
fn reverse_applied_refuses_a_change_that_left_no_trace() {
    let opts = Options::default();
    let patch =
        v4a::Patch::parse("*** Begin Patch\n*** Update File: x\n@@\n+\n*** End Patch\n").unwrap();
    let before = "a\n\nb";
    let after = patch.apply(|_| Some(before), &opts).unwrap().files[0]
        .applied
        .text
        .clone();
    assert_eq!(after, "a\n\nb\n");
    let e = patch
        .reverse_applied(|_| Some(after.as_str()), &opts)
        .unwrap_err();
    assert_eq!(e.status(), Status::InvalidArgument);
    assert!(
        e.message().contains("leaves no trace there to undo"),
        "{}",
        e.message()
    );
    assert_eq!(e.diagnostics().path.as_deref(), Some("x"));
    // On a file with a final newline it adds a real line, which reverses.
    let before = "a\nb\n";
    let after = patch.apply(|_| Some(before), &opts).unwrap().files[0]
        .applied
        .text
        .clone();
    assert_eq!(after, "a\nb\n\n");
    let undo = patch
        .reverse_applied(|_| Some(after.as_str()), &opts)
        .unwrap();
    let undo = v4a::Patch::parse(&undo).unwrap();
    let back = undo.apply(|_| Some(after.as_str()), &opts).unwrap();
    assert_eq!(back.files[0].applied.text, before);
}

#[test]
fn reverse_says_which_state_the_files_are_in() {
    let patch = v4a::Patch::parse(
        "*** Begin Patch\n*** Update File: a\n@@\n x\n-y\n+Y\n*** Delete File: d\n*** End Patch\n",
    )
    .unwrap();
    let opts = Options::default();
    // Given the files after the patch, the reverse from the files before is refused with the
    // reason, never an empty patch.
    let update_only =
        v4a::Patch::parse("*** Begin Patch\n*** Update File: a\n@@\n x\n-y\n+Y\n*** End Patch\n")
            .unwrap();
    let err = update_only.reverse(|_| Some("x\nY\n"), &opts).unwrap_err();
    assert_eq!(err.status(), Status::AlreadyApplied);
    assert_eq!(
        err.message(),
        "hunk 1 of a (patch line 3) is already applied: these files look patched. Reverse the \
         patch from the files after it (`v4a reverse --applied`, `reverse_applied`)"
    );
    // A Delete cannot be reversed from the files after it: the patch lacks the text.
    let err = patch
        .reverse_applied(|p| (p == "a").then_some("x\nY\n"), &opts)
        .unwrap_err();
    assert_eq!(err.status(), Status::InvalidArgument);
    assert!(err
        .message()
        .starts_with("cannot reverse \"*** Delete File: d\""));
    // Without the Delete, the files after give the reverse; the files before are refused.
    let patch = v4a::Patch::parse(
        "*** Begin Patch\n*** Update File: a\n@@\n x\n-y\n+Y\n*** Add File: n\n+new\n*** End Patch\n",
    )
    .unwrap();
    let after = |p: &str| match p {
        "a" => Some("x\nY\n"),
        "n" => Some("new\n"),
        _ => None,
    };
    assert_eq!(
        patch.reverse_applied(after, &opts).unwrap(),
        "*** Begin Patch\n*** Delete File: n\n*** Update File: a\n@@\n x\n-Y\n+y\n*** End Patch\n"
    );
    let before = |p: &str| match p {
        "a" => Some("x\ny\n"),
        "n" => Some("new\n"),
        _ => None,
    };
    let err = patch.reverse_applied(before, &opts).unwrap_err();
    assert_eq!(err.status(), Status::AlreadyApplied);
    assert!(err.message().contains("is not applied in these files"));
}

/// `Patch::parse_strict` takes the canonical form only: it gives what `Patch::parse` gives on
/// canonical text and refuses the CRLF patch the lenient parser unwraps.
#[test]
fn the_strict_parser_refuses_what_the_lenient_one_unwraps() {
    let text = "*** Begin Patch\n*** Update File: a\n@@\n x\n-y\n+Y\n*** End Patch\n";
    let crlf = text.replace('\n', "\r\n");
    let patch = v4a::Patch::parse(text).unwrap();
    assert_eq!(v4a::Patch::parse_strict(text).unwrap(), patch);
    assert_eq!(v4a::Patch::parse(&crlf).unwrap(), patch);
    assert!(v4a::Patch::parse_strict(&crlf).is_err());
}

#[test]
fn move_destination_has_one_source() {
    // A Move onto its own path is no move: the file result and the apply result agree.
    for (to, expect) in [("a.txt", None), ("b.txt", Some("b.txt"))] {
        let patch = format!(
            "*** Begin Patch\n*** Update File: a.txt\n*** Move to: {to}\n@@\n-x\n+y\n*** End Patch\n"
        );
        let patch = v4a::Patch::parse(&patch).unwrap();
        let sources = std::collections::HashMap::from([("a.txt", "x\n")]);
        let r = patch
            .apply(|p| sources.get(p).copied(), &Options::default())
            .unwrap();
        let f = &r.files[0];
        assert_eq!(f.move_to.as_deref(), expect, "{to}");
        assert_eq!(f.applied.destination.as_deref(), expect, "{to}");
        assert_eq!(f.target(), expect.unwrap_or("a.txt"));
    }
}

/// The single-file calls lend the result the caller's source (issue 20): every path — the raw
/// exact path, the line path (CRLF, loose level), a three-way merge, a plain apply after a
/// base that did not help, delete mode, bytes — gives back the very buffer, not a copy; and
/// `into_owned` keeps a result past its source.
#[test]
fn single_file_results_borrow_the_source() {
    use std::borrow::Cow;
    let lent = |r: &v4a::ApplyResult<'_>, src: &str| matches!(r.source, Cow::Borrowed(s) if std::ptr::eq(s, src));
    let opts = full();
    let cases = [
        ("a\nb\nc\n", "@@\n a\n-b\n+B\n"),
        ("a\r\nb\r\nc\r\n", "@@\n a\n-b\n+B\n"),
        ("a  x\nb\nc\n", "@@\n a x\n-b\n+B\n"),
    ];
    for (src, diff) in cases {
        let r = apply(src, diff, Mode::Update, &opts).unwrap();
        assert!(lent(&r, src), "{src:?}: the source was copied");
        let r = apply_bytes(src.as_bytes(), diff.as_bytes(), Mode::Update, &opts).unwrap();
        assert!(lent(&r, src), "{src:?}: the source was copied (bytes)");
    }
    let r = apply("a\nb\n", "", Mode::Delete, &opts).unwrap();
    assert_eq!(r.source, "a\nb\n");
    let current = String::from("top\nx\ny\nz\n");
    let merged = v4a::apply_with_base(
        &current,
        "x\ny\nz\n",
        "@@\n x\n-y\n+Y\n",
        Mode::Update,
        &opts,
    )
    .unwrap();
    assert!(merged.hunks[0].merged);
    assert!(
        lent(&merged, &current),
        "the merged result copied the source"
    );
    let plain =
        v4a::apply_with_base(&current, "q\n", "@@\n x\n-y\n+Y\n", Mode::Update, &opts).unwrap();
    assert!(
        lent(&plain, &current),
        "the plain apply after the base copied the source"
    );
    let kept: v4a::ApplyResult<'static> = {
        let source = String::from("a\nb\n");
        apply(&source, "@@\n a\n-b\n+c\n", Mode::Update, &opts)
            .unwrap()
            .into_owned()
    };
    assert_eq!(
        (kept.source.as_ref(), kept.text.as_str()),
        ("a\nb\n", "a\nc\n")
    );
    assert_eq!(kept.line_text(&kept.diff[1]), "b");
}
