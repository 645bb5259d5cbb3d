//! Character-level refinement through `apply`: changed lines are paired by similarity and get
//! segments on grapheme-cluster boundaries.

use v4a::{apply, DiffKind, DiffStyle, Mode, Options};

/// A changed line: its kind, its text, and its segments as (kind name, text).
type Refined = (DiffKind, String, Vec<(&'static str, String)>);

/// Every changed line of applying `diff` to `src`, with its segments.
fn refined(src: &str, diff: &str) -> Vec<Refined> {
    let opts = Options {
        diff: DiffStyle::Changes { context: 0 },
        refine: true,
        ..Options::default()
    };
    let r = apply(src, diff, Mode::Update, &opts).unwrap();
    r.diff
        .iter()
        .map(|d| {
            let t = r.line_text(d);
            let segs = r
                .line_segments(d)
                .iter()
                .map(|s| (s.kind.name(), t[s.start..s.end].to_string()))
                .collect();
            (d.kind, t.to_string(), segs)
        })
        .collect()
}

fn segs(v: &[(&'static str, &str)]) -> Vec<(&'static str, String)> {
    v.iter().map(|(k, t)| (*k, t.to_string())).collect()
}

#[track_caller]
fn check(src: &str, diff: &str, old: &[(&'static str, &str)], new: &[(&'static str, &str)]) {
    let got = refined(src, diff);
    let del = got.iter().find(|l| l.0 == DiffKind::Delete).unwrap();
    let add = got.iter().rfind(|l| l.0 == DiffKind::Add).unwrap();
    assert_eq!(del.2, segs(old), "old side of {diff:?}");
    assert_eq!(add.2, segs(new), "new side of {diff:?}");
}

#[test]
fn a_word_inside_quotes() {
    check(
        "let greeting = \"hello\";\n",
        "@@\n-let greeting = \"hello\";\n+let greeting = \"hi\";\n",
        &[
            ("equal", "let greeting = \""),
            ("delete", "hello"),
            ("equal", "\";"),
        ],
        &[
            ("equal", "let greeting = \""),
            ("add", "hi"),
            ("equal", "\";"),
        ],
    );
}

#[test]
fn emoji_with_skin_tone_is_never_split() {
    check(
        "ok 👍🏽 fine\n",
        "@@\n-ok 👍🏽 fine\n+ok 👍🏿 fine\n",
        &[("equal", "ok "), ("delete", "👍🏽"), ("equal", " fine")],
        &[("equal", "ok "), ("add", "👍🏿"), ("equal", " fine")],
    );
}

#[test]
fn flags_are_whole() {
    check(
        "go 🇫🇷 now\n",
        "@@\n-go 🇫🇷 now\n+go 🇩🇪 now\n",
        &[("equal", "go "), ("delete", "🇫🇷"), ("equal", " now")],
        &[("equal", "go "), ("add", "🇩🇪"), ("equal", " now")],
    );
}

#[test]
fn combining_marks_stay_with_their_letter() {
    check(
        "cafe\u{301} au lait\n",
        "@@\n-cafe\u{301} au lait\n+cafe\u{300} au lait\n",
        &[
            ("equal", "caf"),
            ("delete", "e\u{301}"),
            ("equal", " au lait"),
        ],
        &[("equal", "caf"), ("add", "e\u{300}"), ("equal", " au lait")],
    );
}

#[test]
fn cjk() {
    check(
        "東京は大きい\n",
        "@@\n-東京は大きい\n+京都は大きい\n",
        &[("delete", "東京"), ("equal", "は大きい")],
        &[("add", "京都"), ("equal", "は大きい")],
    );
}

#[test]
fn crlf_files_refine_without_terminators() {
    check(
        "a\r\nold value here\r\nz\r\n",
        "@@\n a\n-old value here\n+new value here\n z\n",
        &[("delete", "old"), ("equal", " value here")],
        &[("add", "new"), ("equal", " value here")],
    );
}

#[test]
fn reordered_words() {
    check(
        "one two three\n",
        "@@\n-one two three\n+three two one\n",
        &[("delete", "one"), ("equal", " two "), ("delete", "three")],
        &[("add", "three"), ("equal", " two "), ("add", "one")],
    );
}

#[test]
fn a_rewritten_line_pairs_with_its_rewrite_past_inserted_lines() {
    let got = refined(
        "x = compute(a, b)\ny = 1\n",
        "@@\n+inserted line\n+another one\n-x = compute(a, b)\n+x = compute(a, c)\n y = 1\n",
    );
    let texts: Vec<(&str, usize)> = got.iter().map(|l| (l.1.as_str(), l.2.len())).collect();
    assert_eq!(
        texts,
        [
            ("x = compute(a, b)", 3),
            ("inserted line", 0),
            ("another one", 0),
            ("x = compute(a, c)", 3)
        ]
    );
}

#[test]
fn very_long_lines_refine_within_limits() {
    // About 100,000 characters of varied words; three of them change.
    let mut x: u64 = 7;
    let old: String = (0..16_000)
        .map(|i| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            format!("w{}x{} ", x >> 50, i)
        })
        .collect();
    let new = old
        .replacen("x100 ", "y100 ", 1)
        .replacen("x5000 ", "y5000 ", 1)
        .replacen("x15000 ", "y15000 ", 1);
    assert!(old.len() > 100_000);
    let src = format!("{old}\n");
    let diff = format!("@@\n-{old}\n+{new}\n");
    let got = refined(&src, &diff);
    let changed = |k: usize| -> Vec<&str> {
        got[k]
            .2
            .iter()
            .filter(|s| s.0 != "equal")
            .map(|s| s.1.as_str())
            .collect()
    };
    assert_eq!(changed(0), ["x", "x", "x"]);
    assert_eq!(changed(1), ["y", "y", "y"]);
}

#[test]
fn unrelated_lines_stay_whole() {
    let got = refined("alpha beta\n", "@@\n-alpha beta\n+0123456789\n");
    assert!(got.iter().all(|l| l.2.is_empty()));
}
