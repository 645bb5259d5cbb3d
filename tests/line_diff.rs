//! The block-level refinement (`refine_lines`), the columns of the structured diff
//! (`ApplyResult::line_diff`) and the refinement limits of `Options`: each is checked against
//! what apply's own structured diff says, so the three ways to ask cannot disagree.

use v4a::{apply, refine_lines, ApplyResult, DiffKind, DiffStyle, Mode, Options, RefineLimits};

fn applied<'s>(source: &'s str, patch: &str) -> ApplyResult<'s> {
    apply(source, patch, Mode::Update, &Options::default()).unwrap()
}

/// The rows of `compute_diff_with`, as a tuple per entry with its text and segment texts.
type Entry = (
    DiffKind,
    Option<u32>,
    Option<u32>,
    Option<u32>,
    String,
    Vec<(DiffKind, String)>,
);

fn rows(a: &ApplyResult, style: DiffStyle, limits: Option<&RefineLimits>) -> Vec<Entry> {
    let mut a = a.clone();
    a.compute_diff_with(style, limits);
    a.diff
        .iter()
        .map(|d| {
            let text = a.line_text(d).to_string();
            let segs = a
                .line_segments(d)
                .iter()
                .map(|s| (s.kind, text[s.start..s.end].to_string()))
                .collect();
            (d.kind, d.old_line, d.new_line, d.hunk, text, segs)
        })
        .collect()
}

/// The same entries read from the columns (byte offsets).
fn columns(a: &ApplyResult, style: DiffStyle, limits: Option<&RefineLimits>) -> Vec<Entry> {
    let d = a.line_diff(style, limits);
    (0..d.len())
        .map(|i| {
            let text = d.text(i, &a.source, &a.text).to_string();
            let segs = d
                .line_segments(i)
                .iter()
                .map(|s| (s.kind, text[s.start..s.end].to_string()))
                .collect();
            let n = |v: u32| (v != 0).then_some(v);
            let hunk = (d.hunks[i] != 0).then_some(d.hunks[i]);
            (
                d.kinds[i],
                n(d.old_lines[i]),
                n(d.new_lines[i]),
                hunk,
                text,
                segs,
            )
        })
        .collect()
}

const SOURCE: &str = "\u{feff}fn main() {\r\n    let a = 1;\r\n    let b = \"héllo 🎉\";\r\n    c();\r\n}\r\n\r\nfn other() {}\r\n";
const PATCH: &str = "@@\n fn main() {\n-    let a = 1;\n-    let b = \"héllo 🎉\";\n+    let a = 2;\n+    let b = \"hällo 🎉!\";\n+    extra();\n     c();\n@@\n-fn other() {}\n+fn other() { x }\n";

#[test]
fn the_columns_are_the_rows_in_every_style() {
    let a = applied(SOURCE, PATCH);
    let limits = RefineLimits::default();
    for style in [
        DiffStyle::Full,
        DiffStyle::Changes { context: 0 },
        DiffStyle::Changes { context: 1 },
        DiffStyle::Changes { context: 100 },
        DiffStyle::None,
    ] {
        for refine in [None, Some(&limits)] {
            let want = rows(&a, style, refine);
            assert_eq!(columns(&a, style, refine), want, "{style:?} {refine:?}");
            if style == DiffStyle::Full {
                assert_eq!(want.len(), 11, "{want:?}");
            }
        }
    }
    // The rows of this fixture, for a reader: the BOM is not in line 1's text, CR is not in any.
    let full = rows(&a, DiffStyle::Full, Some(&limits));
    assert_eq!(full[0].4, "fn main() {");
    assert_eq!(full[1].0, DiffKind::Delete);
    assert!(
        full[1].5.contains(&(DiffKind::Delete, "1".to_string())),
        "{:?}",
        full[1]
    );
    assert!(
        full[3].5.contains(&(DiffKind::Add, "2".to_string())),
        "{:?}",
        full[3]
    );
}

#[test]
fn utf16_offsets_index_the_same_text_as_the_bytes() {
    let a = applied(SOURCE, PATCH);
    let limits = RefineLimits::default();
    let bytes = a.line_diff(DiffStyle::Full, Some(&limits));
    let units = bytes.clone().into_utf16(&a.source, &a.text);
    assert!(units.utf16 && !bytes.utf16);
    let utf16 = |s: &str| s.encode_utf16().collect::<Vec<u16>>();
    let (src, text) = (utf16(&a.source), utf16(&a.text));
    let mut non_ascii = 0;
    for i in 0..bytes.len() {
        let base = if bytes.kinds[i] == DiffKind::Add {
            &text
        } else {
            &src
        };
        let line = bytes.text(i, &a.source, &a.text);
        let got = String::from_utf16(&base[units.starts[i]..units.ends[i]]).unwrap();
        assert_eq!(got, line, "entry {i}");
        for (b, u) in bytes.line_segments(i).iter().zip(units.line_segments(i)) {
            let want = &line[b.start..b.end];
            let l16 = utf16(line);
            assert_eq!(String::from_utf16(&l16[u.start..u.end]).unwrap(), want);
            non_ascii += usize::from(want.len() != u.end - u.start);
        }
    }
    assert!(
        non_ascii > 0,
        "the fixture has a segment whose offsets differ in UTF-16"
    );
    // ASCII texts: the offsets do not change.
    let a = applied("a\nb\n", "@@\n-b\n+bc\n");
    let d = a.line_diff(DiffStyle::Full, Some(&limits));
    let u = d.clone().into_utf16(&a.source, &a.text);
    assert_eq!(
        (d.starts, d.ends, d.segments),
        (u.starts, u.ends, u.segments)
    );
}

#[test]
fn refine_lines_gives_the_segments_of_apply() {
    let a = applied(SOURCE, PATCH);
    let limits = RefineLimits::default();
    let full = rows(&a, DiffStyle::Full, Some(&limits));
    let dels: Vec<&str> = full
        .iter()
        .filter(|e| e.0 == DiffKind::Delete)
        .map(|e| e.4.as_str())
        .collect();
    let adds: Vec<&str> = full
        .iter()
        .filter(|e| e.0 == DiffKind::Add)
        .map(|e| e.4.as_str())
        .collect();
    // The first block: 2 deleted lines, 3 added.
    let r = refine_lines(&dels[..2], &adds[..3], &limits);
    let pairs: Vec<(usize, usize)> = r.pairs.iter().map(|p| (p.deleted, p.added)).collect();
    assert_eq!(pairs, [(0, 0), (1, 1)]);
    let del_entries: Vec<&Entry> = full.iter().filter(|e| e.0 == DiffKind::Delete).collect();
    let add_entries: Vec<&Entry> = full.iter().filter(|e| e.0 == DiffKind::Add).collect();
    for p in &r.pairs {
        let text = |line: &str, segs: &[v4a::Segment]| -> Vec<(DiffKind, String)> {
            segs.iter()
                .map(|s| (s.kind, line[s.start..s.end].to_string()))
                .collect()
        };
        assert_eq!(
            text(dels[p.deleted], r.deleted_segments(p)),
            del_entries[p.deleted].5
        );
        assert_eq!(
            text(adds[p.added], r.added_segments(p)),
            add_entries[p.added].5
        );
    }
    // The added line "extra();" has no pair: a whole-line change, no segments.
    assert!(add_entries[2].5.is_empty());
}

#[test]
fn refine_lines_of_edge_blocks() {
    let limits = RefineLimits::default();
    assert_eq!(refine_lines(&[], &[], &limits).pairs, []);
    assert_eq!(refine_lines(&["a"], &[], &limits).pairs, []);
    assert_eq!(refine_lines(&[], &["a"], &limits).pairs, []);
    // Different lines stay unpaired.
    assert!(refine_lines(&["completely different"], &["zzzz"], &limits)
        .pairs
        .is_empty());
    // Identical lines pair, every segment equal.
    let r = refine_lines(&["same line"], &["same line"], &limits);
    assert_eq!(r.pairs.len(), 1);
    assert!(r.segments.iter().all(|s| s.kind == DiffKind::Equal));
    // Lines with terminators inside are refined as they are, never a panic.
    let r = refine_lines(&["a\r\nb"], &["a\r\nc"], &limits);
    assert_eq!(r.pairs.len(), 1);
    // Zero limits: nothing is refined, nothing panics.
    let zero = RefineLimits {
        max_graphemes: 0,
        max_cost: 0,
        max_pair_lines: 0,
    };
    let r = refine_lines(&["let x = 1;"], &["let x = 2;"], &zero);
    assert!(r.pairs.is_empty(), "{r:?}");
    // UTF-16: a flag is 2 clusters' worth of code units (4), "é" one.
    let r = refine_lines(&["é 🇫🇷 a"], &["é 🇫🇷 b"], &limits).into_utf16(&["é 🇫🇷 a"], &["é 🇫🇷 b"]);
    let last = r.added_segments(&r.pairs[0]).last().copied().unwrap();
    assert_eq!((last.kind, last.start, last.end), (DiffKind::Add, 7, 8));
}

#[test]
fn the_options_limits_reach_apply() {
    let long_old = format!("x = {};", "a".repeat(300));
    let long_new = format!("x = {};", "a".repeat(299) + "b");
    let source = format!("{long_old}\n");
    let patch = format!("@@\n-{long_old}\n+{long_new}\n");
    let with = |limits: RefineLimits| {
        let opts = Options {
            diff: DiffStyle::Full,
            refine: true,
            refine_limits: limits,
            ..Options::default()
        };
        let a = apply(&source, &patch, Mode::Update, &opts).unwrap();
        a.diff
            .iter()
            .map(|d| a.line_segments(d).len())
            .collect::<Vec<_>>()
    };
    let defaults = with(RefineLimits::default());
    assert!(defaults.iter().all(|&n| n > 1), "{defaults:?}");
    // A line of 304 clusters is past a 100-cluster limit: a whole-line change.
    let short = with(RefineLimits {
        max_graphemes: 100,
        ..RefineLimits::default()
    });
    assert_eq!(short, [0, 0]);
    // Its middle ("a" against "b", after the common prefix and suffix) costs 1 comparison.
    let cheap = with(RefineLimits {
        max_cost: 0,
        ..RefineLimits::default()
    });
    assert_eq!(cheap, [0, 0]);
}

#[test]
fn changes_are_one_based() {
    let a = applied("a\nb\nc\n", "@@\n a\n-b\n+x\n+y\n");
    let c = &a.changes[0];
    assert_eq!(
        (c.old_start, c.old_len, c.new_start, c.new_len, c.hunk),
        (2, 1, 2, 2, 1)
    );
    // A pure insertion at the top names line 1, before which the lines were added.
    let a = applied("a\n", "@@\n+z\n a\n");
    let c = &a.changes[0];
    assert_eq!(
        (c.old_start, c.old_len, c.new_start, c.new_len),
        (1, 0, 1, 1)
    );
    // The hunk report and the change agree on the numbers people read.
    assert_eq!(a.hunks[0].old_start as usize, c.old_start);
    // An added file: one change of hunk 1 covering every new line.
    let r = apply(
        "",
        "*** Begin Patch\n*** Add File: f\n+a\n+b\n*** End Patch\n",
        Mode::Create,
        &Options::default(),
    );
    {
        let r = r.unwrap();
        let c = &r.changes[0];
        assert_eq!(
            (c.old_start, c.old_len, c.new_start, c.new_len, c.hunk),
            (1, 0, 1, 2, 1)
        );
    }
    // unified_diff refuses a 0 where a 1-based number belongs.
    let zero = v4a::Change {
        old_start: 0,
        old_len: 1,
        new_start: 1,
        new_len: 1,
        hunk: 1,
    };
    let e = v4a::report::unified_diff("a\n", "b\n", None, None, &[zero], 3).unwrap_err();
    assert!(e.to_string().contains("1-based"), "{e}");
}

/// The lines of a text as the engine splits them (LF, CRLF, lone CR; BOM and no phantom last
/// line excluded).
fn split_lines(text: &str) -> Vec<&str> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = Vec::new();
    let (bytes, mut start, mut i) = (text.as_bytes(), 0, 0);
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                lines.push(&text[start..i]);
                start = i + 1;
            }
            b'\r' => {
                lines.push(&text[start..i]);
                if bytes.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    if start < bytes.len() {
        lines.push(&text[start..]);
    }
    lines
}

/// Checks the full columns of `a` against the two texts: equal and deleted entries are the
/// source's lines in order, equal and added ones the new text's, each equal entry the same
/// line on both sides, with consecutive line numbers; the equal entries are at most the
/// longest common subsequence of the two line lists (a Myers diff of the texts, `similar`);
/// and the entries are those of the rows (`compute_diff_with`).
fn check_full_diff(a: &ApplyResult) -> Result<(), proptest::test_runner::TestCaseError> {
    use proptest::prelude::*;
    let (old, new) = (split_lines(&a.source), split_lines(&a.text));
    let d = a.line_diff(DiffStyle::Full, None);
    let (mut o, mut n, mut equal) = (0usize, 0usize, 0usize);
    for i in 0..d.len() {
        let text = d.text(i, &a.source, &a.text);
        match d.kinds[i] {
            DiffKind::Equal => {
                prop_assert_eq!(old.get(o).copied(), Some(text), "entry {}", i);
                prop_assert_eq!(new.get(n).copied(), Some(text), "entry {}", i);
                prop_assert_eq!(
                    (d.old_lines[i], d.new_lines[i]),
                    (o as u32 + 1, n as u32 + 1)
                );
                o += 1;
                n += 1;
                equal += 1;
            }
            DiffKind::Delete => {
                prop_assert_eq!(old.get(o).copied(), Some(text), "entry {}", i);
                prop_assert_eq!((d.old_lines[i], d.new_lines[i]), (o as u32 + 1, 0));
                o += 1;
            }
            DiffKind::Add => {
                prop_assert_eq!(new.get(n).copied(), Some(text), "entry {}", i);
                prop_assert_eq!((d.old_lines[i], d.new_lines[i]), (0, n as u32 + 1));
                n += 1;
            }
        }
    }
    prop_assert_eq!((o, n), (old.len(), new.len()));
    let myers = similar::capture_diff_slices(similar::Algorithm::Myers, &old, &new);
    let lcs: usize = myers
        .iter()
        .filter_map(|op| match op {
            similar::DiffOp::Equal { len, .. } => Some(*len),
            _ => None,
        })
        .sum();
    prop_assert!(
        equal <= lcs,
        "{} equal entries, a common subsequence of {}",
        equal,
        lcs
    );
    prop_assert_eq!(
        columns(a, DiffStyle::Full, None),
        rows(a, DiffStyle::Full, None)
    );
    check_runs(a)?;
    Ok(())
}

/// The entries of the `Runs` columns, each run expanded into its lines (with
/// `LineDiff::run_lines`), as the entries of `columns`.
fn expanded_runs(a: &ApplyResult, limits: Option<&RefineLimits>) -> Vec<Entry> {
    let d = a.line_diff(DiffStyle::Runs, limits);
    let mut out = Vec::new();
    for i in 0..d.len() {
        let n = |v: u32| (v != 0).then_some(v);
        let hunk = n(d.hunks[i]);
        let segs: Vec<_> = d
            .line_segments(i)
            .iter()
            .map(|s| {
                (
                    s.kind,
                    d.text(i, &a.source, &a.text)[s.start..s.end].to_string(),
                )
            })
            .collect();
        let lines: Vec<_> = d.run_lines(i, &a.source, &a.text).collect();
        assert_eq!(lines.len(), d.count(i), "entry {i}");
        for (old, new, text) in lines {
            out.push((
                d.kinds[i],
                n(old),
                n(new),
                hunk,
                text.to_string(),
                segs.clone(),
            ));
        }
    }
    out
}

/// The compact full diff (`DiffStyle::Runs`) of `a`: expanded, it is the full diff entry for
/// entry, with and without refinement; only equal entries have a count other than 1, and no
/// two runs of the same hunk touch (each run is whole); its UTF-16 ranges are the byte ranges'
/// positions in UTF-16; the rows of `Runs` are the full rows.
fn check_runs(a: &ApplyResult) -> Result<(), proptest::test_runner::TestCaseError> {
    use proptest::prelude::*;
    let limits = RefineLimits::default();
    for refine in [None, Some(&limits)] {
        prop_assert_eq!(
            expanded_runs(a, refine),
            columns(a, DiffStyle::Full, refine)
        );
    }
    let d = a.line_diff(DiffStyle::Runs, None);
    prop_assert_eq!(d.counts.len(), d.len());
    for i in 0..d.len() {
        prop_assert!(d.counts[i] >= 1);
        prop_assert!(d.kinds[i] == DiffKind::Equal || d.counts[i] == 1);
        if i > 0 && d.kinds[i] == DiffKind::Equal && d.kinds[i - 1] == DiffKind::Equal {
            prop_assert_ne!(d.hunks[i], d.hunks[i - 1], "runs {} and {} touch", i - 1, i);
        }
    }
    let full = a.line_diff(DiffStyle::Full, None);
    prop_assert!(full.counts.iter().all(|&c| c == 1));
    prop_assert_eq!(full.counts.len(), full.len());
    let units = |t: &str, at: usize| t[..at].encode_utf16().count();
    let u = d.clone().into_utf16(&a.source, &a.text);
    for i in 0..d.len() {
        let t: &str = if d.kinds[i] == DiffKind::Add {
            &a.text
        } else {
            &a.source
        };
        prop_assert_eq!(
            (u.starts[i], u.ends[i]),
            (units(t, d.starts[i]), units(t, d.ends[i]))
        );
    }
    prop_assert_eq!(&u.counts, &d.counts);
    prop_assert_eq!(
        rows(a, DiffStyle::Runs, None),
        rows(a, DiffStyle::Full, None)
    );
    Ok(())
}

#[test]
fn runs_expand_into_the_full_diff_at_the_edges() {
    // (source, new text): CRLF, lone CR, mixed, BOM, no final newline, empty, add-only,
    // delete-all, nothing changed.
    let cases = [
        ("a\r\nb\r\nc\r\nd\r\n", "a\r\nb\r\nX\r\nd\r\n"),
        ("a\rb\rc\rd\r", "a\rb\rc\rY\r"),
        ("a\nb\r\nc\rd\ne", "a\nb\r\nc\rd\nf"),
        ("\u{feff}a\nb\nc\n", "\u{feff}a\nb\nc\nd\n"),
        ("\u{feff}a\nb", "\u{feff}Z\nb"),
        ("one\ntwo\nthree", "one\ntwo\nthree\nfour"),
        ("", "new\nlines\n"),
        ("gone\nall\n", ""),
        ("\n\n\n\n", "\n\nx\n\n"),
        ("é\nü 🎉\r\nß\n", "é\nü 🎉\r\nss\n"),
    ];
    let mut checked = 0;
    for (old, new) in cases {
        let Ok(patch) = v4a::make_patch(old, new, "f", &v4a::GenerateOptions::default()) else {
            continue;
        };
        checked += 1;
        let a = apply(old, &patch, Mode::Update, &Options::default()).unwrap();
        assert_eq!(a.text, new);
        check_runs(&a).unwrap();
        // Applied with `Runs`, the result's rows are the full rows.
        let with = |diff| Options {
            diff,
            refine: true,
            ..Options::default()
        };
        let runs = apply(old, &patch, Mode::Update, &with(DiffStyle::Runs)).unwrap();
        let full = apply(old, &patch, Mode::Update, &with(DiffStyle::Full)).unwrap();
        assert_eq!((runs.diff, runs.segments), (full.diff, full.segments));
    }
    assert!(checked >= 8, "{checked} cases made a patch");
    // A file created from nothing, and a whole file unchanged: one entry each.
    let created = apply("", "+a\n+b\n", Mode::Create, &Options::default()).unwrap();
    check_runs(&created).unwrap();
    let d = created.line_diff(DiffStyle::Runs, None);
    assert_eq!(d.kinds, [DiffKind::Add, DiffKind::Add]);
    let same = apply(
        "x\r\ny\r\nz",
        "@@\n x\n-y\n+y\n",
        Mode::Update,
        &Options::default(),
    );
    if let Ok(same) = same {
        check_runs(&same).unwrap();
    }
    let a = applied("a\nb\nc\nd\ne\nf\ng\nh\n", "@@\n-g\n+G\n");
    let d = a.line_diff(DiffStyle::Runs, None);
    assert_eq!(
        d.kinds,
        [
            DiffKind::Equal,
            DiffKind::Delete,
            DiffKind::Add,
            DiffKind::Equal
        ]
    );
    assert_eq!(d.counts, [6, 1, 1, 1]);
    assert_eq!(d.text(0, &a.source, &a.text), "a\nb\nc\nd\ne\nf");
    assert_eq!((d.old_lines[3], d.new_lines[3], d.hunks[3]), (8, 8, 0));
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(400))]
    /// Random multi-hunk applies (edits anywhere, the end of the file included) to files with
    /// LF or CRLF, a BOM or not, a final newline or not: the cheap diff (columns, read 8
    /// bytes at a time) is the two texts line by line, within a Myers diff's common lines;
    /// the same patch applied again (every hunk already applied) is all equal lines.
    #[test]
    fn the_fast_diff_is_a_full_diff_of_the_texts(
        n in 1..120usize,
        edits in proptest::collection::vec((0..120usize, 0..3usize, 0..3usize), 1..6),
        crlf in proptest::prelude::any::<bool>(),
        bom in proptest::prelude::any::<bool>(),
        final_newline in proptest::prelude::any::<bool>(),
    ) {
        let eol = if crlf { "\r\n" } else { "\n" };
        let mut lines: Vec<String> = (0..n).map(|i| format!("line {i} of the file {}", "é".repeat(i % 3))).collect();
        let old_lines = lines.clone();
        let mut added = 0;
        // Edits from the end, so earlier positions stay where they were.
        let mut edits = edits.clone();
        edits.sort_by_key(|e| std::cmp::Reverse(e.0));
        for (at, del, add) in edits {
            let at = at.min(lines.len());
            let del = del.min(lines.len() - at);
            let new: Vec<String> = (0..add).map(|k| { added += 1; format!("added {added}.{k}") }).collect();
            lines.splice(at..at + del, new);
        }
        let join = |l: &[String]| {
            let mut t = String::from(if bom { "\u{feff}" } else { "" });
            t.push_str(&l.join(eol));
            if final_newline && !l.is_empty() {
                t.push_str(eol);
            }
            t
        };
        let (old, new) = (join(&old_lines), join(&lines));
        // (Refused when the edit changes a terminator: a line added after a last line
        // without one, every line deleted.)
        let Ok(patch) = v4a::make_patch(&old, &new, "f.txt", &v4a::GenerateOptions::default()) else {
            return Ok(());
        };
        let Ok(a) = apply(&old, &patch, Mode::Update, &Options::default()) else {
            return Ok(());
        };
        proptest::prop_assert_eq!(&a.text, &new);
        check_full_diff(&a)?;
        if let Ok(again) = apply(&new, &patch, Mode::Update, &Options::default()) {
            proptest::prop_assert_eq!(&again.text, &new);
            check_full_diff(&again)?;
            let d = again.line_diff(DiffStyle::Full, None);
            proptest::prop_assert!(d.kinds.iter().all(|&k| k == DiffKind::Equal));
        }
    }
}
