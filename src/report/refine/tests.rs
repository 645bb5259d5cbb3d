//! Unit and property tests of the refinement.

use super::*;
use proptest::prelude::*;
use unicode_segmentation::UnicodeSegmentation;
use DiffKind::{Add as A, Delete as D, Equal as E};

type Parts<'a> = Vec<(DiffKind, &'a str)>;

fn parts<'a>(text: &'a str, segs: &[Segment]) -> Parts<'a> {
    segs.iter()
        .map(|s| (s.kind, &text[s.start..s.end]))
        .collect()
}

fn refine<'a>(old: &'a str, new: &'a str) -> (Parts<'a>, Parts<'a>) {
    let (a, b) = refine_pair(old, new, &RefineLimits::default()).expect("refined");
    check(old, new, &a, &b);
    (parts(old, &a), parts(new, &b))
}

/// Every invariant of a refinement result.
fn check(old: &str, new: &str, a: &[Segment], b: &[Segment]) {
    for (text, segs, changed) in [(old, a, D), (new, b, A)] {
        let bounds: Vec<usize> = text
            .grapheme_indices(true)
            .map(|(i, _)| i)
            .chain([text.len()])
            .collect();
        let mut at = 0;
        for (k, s) in segs.iter().enumerate() {
            assert!(s.kind == E || s.kind == changed, "{s:?} in {text:?}");
            assert_eq!(s.start, at, "gap or overlap in {text:?}: {segs:?}");
            assert!(s.start < s.end, "empty segment in {text:?}: {segs:?}");
            assert!(text.is_char_boundary(s.start) && text.is_char_boundary(s.end));
            assert!(
                bounds.binary_search(&s.start).is_ok(),
                "split cluster: {text:?} {s:?}"
            );
            assert!(
                bounds.binary_search(&s.end).is_ok(),
                "split cluster: {text:?} {s:?}"
            );
            if k > 0 {
                assert_ne!(segs[k - 1].kind, s.kind, "unmerged segments in {text:?}");
            }
            at = s.end;
        }
        assert_eq!(at, text.len(), "segments do not cover {text:?}");
    }
    let equal = |text: &str, segs: &[Segment]| -> Vec<String> {
        segs.iter()
            .filter(|s| s.kind == E)
            .map(|s| text[s.start..s.end].to_string())
            .collect()
    };
    assert_eq!(equal(old, a).concat(), equal(new, b).concat());
    let concat = |text: &str, segs: &[Segment]| -> String {
        segs.iter().map(|s| &text[s.start..s.end]).collect()
    };
    assert_eq!(concat(old, a), old);
    assert_eq!(concat(new, b), new);
}

// --- refine_pair: exact outputs --------------------------------------------------------

#[test]
fn ascii_word_change() {
    assert_eq!(
        refine("the quick brown fox", "the quick red fox"),
        (
            vec![(E, "the quick "), (D, "brown"), (E, " fox")],
            vec![(E, "the quick "), (A, "red"), (E, " fox")]
        )
    );
    assert_eq!(
        refine("if (a && b) {", "if (a || b) {"),
        (
            vec![(E, "if (a "), (D, "&&"), (E, " b) {")],
            vec![(E, "if (a "), (A, "||"), (E, " b) {")]
        )
    );
    assert_eq!(
        refine("getUserName(x)", "getUserId(x)"),
        (
            vec![(E, "getUser"), (D, "Name"), (E, "(x)")],
            vec![(E, "getUser"), (A, "Id"), (E, "(x)")]
        )
    );
}

#[test]
fn insertion_at_start_and_end() {
    assert_eq!(
        refine("world", "hello world"),
        (vec![(E, "world")], vec![(A, "hello "), (E, "world")])
    );
    assert_eq!(
        refine("hello", "hello world"),
        (vec![(E, "hello")], vec![(E, "hello"), (A, " world")])
    );
    assert_eq!(
        refine("hello world", "world"),
        (vec![(D, "hello "), (E, "world")], vec![(E, "world")])
    );
    assert_eq!(
        refine("x;", "x"),
        (vec![(E, "x"), (D, ";")], vec![(E, "x")])
    );
}

#[test]
fn insertion_slides_to_word_boundary() {
    assert_eq!(
        refine("foo(a, b)", "foo(a, c, b)"),
        (
            vec![(E, "foo(a, b)")],
            vec![(E, "foo(a, "), (A, "c, "), (E, "b)")]
        )
    );
    assert_eq!(
        refine("hello world", "hello brave new world"),
        (
            vec![(E, "hello world")],
            vec![(E, "hello "), (A, "brave new "), (E, "world")]
        )
    );
    assert_eq!(
        refine("let v = compute(a, b);", "let v = compute(a, b, c);"),
        (
            vec![(E, "let v = compute(a, b);")],
            vec![(E, "let v = compute(a, b"), (A, ", c"), (E, ");")]
        )
    );
}

#[test]
fn emoji_with_modifiers_is_never_split() {
    // 👍🏽 and 👍🏿 share the 👍 code point; a char-level diff would keep it equal.
    assert_eq!(
        refine("ok 👍🏽 done", "ok 👍🏿 done"),
        (
            vec![(E, "ok "), (D, "👍🏽"), (E, " done")],
            vec![(E, "ok "), (A, "👍🏿"), (E, " done")]
        )
    );
    assert_eq!(refine("👍🏽", "👍"), (vec![(D, "👍🏽")], vec![(A, "👍")]));
    // ZWJ sequences: the family differs only in its last member.
    assert_eq!(
        refine("a 👨\u{200d}👩\u{200d}👧 b", "a 👨\u{200d}👩\u{200d}👦 b"),
        (
            vec![(E, "a "), (D, "👨\u{200d}👩\u{200d}👧"), (E, " b")],
            vec![(E, "a "), (A, "👨\u{200d}👩\u{200d}👦"), (E, " b")]
        )
    );
}

#[test]
fn flags_are_never_split() {
    assert_eq!(
        refine("flag 🇫🇷!", "flag 🇩🇪!"),
        (
            vec![(E, "flag "), (D, "🇫🇷"), (E, "!")],
            vec![(E, "flag "), (A, "🇩🇪"), (E, "!")]
        )
    );
    // 🇫🇷 and 🇫🇮 share their first regional indicator.
    assert_eq!(
        refine("go 🇫🇷 now", "go 🇫🇮 now"),
        (
            vec![(E, "go "), (D, "🇫🇷"), (E, " now")],
            vec![(E, "go "), (A, "🇫🇮"), (E, " now")]
        )
    );
    assert_eq!(
        refine("🇫🇷🇩🇪 x", "🇩🇪 x"),
        (vec![(D, "🇫🇷"), (E, "🇩🇪 x")], vec![(E, "🇩🇪 x")])
    );
}

#[test]
fn combining_marks_stay_with_their_base() {
    assert_eq!(
        refine("cafe\u{301} ok", "cafe\u{300} ok"),
        (
            vec![(E, "caf"), (D, "e\u{301}"), (E, " ok")],
            vec![(E, "caf"), (A, "e\u{300}"), (E, " ok")]
        )
    );
    // Removing the accent changes the whole cluster.
    assert_eq!(
        refine("re\u{301}sume\u{301}", "resume\u{301}"),
        (
            vec![(E, "r"), (D, "e\u{301}"), (E, "sume\u{301}")],
            vec![(E, "r"), (A, "e"), (E, "sume\u{301}")]
        )
    );
}

#[test]
fn cjk() {
    assert_eq!(
        refine("我爱北京天安门", "我爱上海天安门"),
        (
            vec![(E, "我爱"), (D, "北京"), (E, "天安门")],
            vec![(E, "我爱"), (A, "上海"), (E, "天安门")]
        )
    );
    assert_eq!(
        refine("東京は晴れです", "東京は雨です"),
        (
            vec![(E, "東京は"), (D, "晴れ"), (E, "です")],
            vec![(E, "東京は"), (A, "雨"), (E, "です")]
        )
    );
}

#[test]
fn crlf_inside_lines_is_one_cluster() {
    assert_eq!(
        refine("a\r\nb", "a\nb"),
        (
            vec![(E, "a"), (D, "\r\n"), (E, "b")],
            vec![(E, "a"), (A, "\n"), (E, "b")]
        )
    );
    assert_eq!(
        refine("a\rb", "a\r\nb"),
        (
            vec![(E, "a"), (D, "\r"), (E, "b")],
            vec![(E, "a"), (A, "\r\n"), (E, "b")]
        )
    );
    assert_eq!(
        refine("x = 1;\r\n", "x = 12;\r\n"),
        (
            vec![(E, "x = 1;\r\n")],
            vec![(E, "x = 1"), (A, "2"), (E, ";\r\n")]
        )
    );
}

#[test]
fn reordered_words() {
    assert_eq!(
        refine("alpha beta gamma", "gamma alpha beta"),
        (
            vec![(E, "alpha beta"), (D, " gamma")],
            vec![(A, "gamma "), (E, "alpha beta")]
        )
    );
    assert_eq!(
        refine("one two three", "three two one"),
        (
            vec![(D, "one"), (E, " two "), (D, "three")],
            vec![(A, "three"), (E, " two "), (A, "one")]
        )
    );
}

#[test]
fn identical_and_empty_lines() {
    assert_eq!(
        refine("same 👍🏽", "same 👍🏽"),
        (vec![(E, "same 👍🏽")], vec![(E, "same 👍🏽")])
    );
    assert_eq!(refine("", ""), (vec![], vec![]));
    assert_eq!(refine("", "new"), (vec![], vec![(A, "new")]));
    assert_eq!(refine("old", ""), (vec![(D, "old")], vec![]));
}

#[test]
fn islands_between_changes_are_absorbed() {
    // The one-letter island "b" and the word rest "d" are absorbed.
    assert_eq!(
        refine("abcd", "xbyd"),
        (vec![(D, "abcd")], vec![(A, "xbyd")])
    );
    // Whitespace/punctuation-only islands are absorbed.
    assert_eq!(
        refine("x = 1", "y = 2"),
        (vec![(D, "x = 1")], vec![(A, "y = 2")])
    );
    // A word island is kept.
    assert_eq!(
        refine("red apple pie", "big apple tart"),
        (
            vec![(D, "red"), (E, " apple "), (D, "pie")],
            vec![(A, "big"), (E, " apple "), (A, "tart")]
        )
    );
    // Unrelated lines become one change.
    assert_eq!(
        refine("fn main() {", "let total = 0;"),
        (vec![(D, "fn main() {")], vec![(A, "let total = 0;")])
    );
}

#[test]
fn short_word_rest_joins_the_change() {
    assert_eq!(
        refine("a test here", "a toast here"),
        (
            vec![(E, "a "), (D, "te"), (E, "st here")],
            vec![(E, "a "), (A, "toa"), (E, "st here")]
        )
    );
    assert_eq!(
        refine("colour", "color"),
        (vec![(E, "colo"), (D, "u"), (E, "r")], vec![(E, "color")])
    );
}

#[test]
fn limits() {
    let tight = RefineLimits {
        max_graphemes: 10,
        ..RefineLimits::default()
    };
    assert_eq!(refine_pair("0123456789", "0123456789x", &tight), None);
    assert!(refine_pair("0123456789", "012345678x", &tight).is_some());
    // No diff work is needed for identical or one-sided pairs.
    assert!(refine_pair("0123456789abc", "0123456789abc", &tight).is_some());
    assert!(refine_pair("", "0123456789abc", &tight).is_some());

    let broke = RefineLimits {
        max_cost: 10,
        ..RefineLimits::default()
    };
    assert_eq!(refine_pair("abcdefgh", "hgfedcba", &broke), None);
    // Prefix/suffix trimming is free: a one-cluster middle needs no budget.
    assert!(refine_pair("abcdefgh", "abcXefgh", &broke).is_some());
    let none = RefineLimits {
        max_cost: 0,
        ..RefineLimits::default()
    };
    assert_eq!(
        refine_pair("abc", "abXc", &none).map(|(a, b)| (parts("abc", &a), parts("abXc", &b))),
        Some((vec![(E, "abc")], vec![(E, "ab"), (A, "X"), (E, "c")]))
    );
}

/// Deterministic pseudo-random text.
fn noise(seed: u64, len: usize, alphabet: &[char]) -> Vec<char> {
    let mut x = seed | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            alphabet[(x % alphabet.len() as u64) as usize]
        })
        .collect()
}

#[test]
fn long_line_with_one_change() {
    let alphabet: Vec<char> = "abcdefghij klmnopqrstuvwxyz".chars().collect();
    let old: String = noise(7, 50_000, &alphabet).into_iter().collect();
    let new = format!("{}XYZ{}", &old[..25_000], &old[25_003..]);
    let (a, b) = refine(&old, &new);
    assert_eq!(
        a,
        vec![
            (E, &old[..25_000]),
            (D, &old[25_000..25_003]),
            (E, &old[25_003..])
        ]
    );
    assert_eq!(
        b,
        vec![(E, &new[..25_000]), (A, "XYZ"), (E, &new[25_003..])]
    );
}

/// A 100 000-character pair differing in 1% of places (one substituted character every
/// 100, each inside a stretch of lowercase letters) refines exactly, quickly, even in debug
/// builds.
#[test]
fn very_long_lines_differing_in_one_percent() {
    let alphabet: Vec<char> = "abcdefghijklmnopqrstuvwxyz".chars().collect();
    let old = noise(42, 100_000, &alphabet);
    let mut new = old.clone();
    let places: Vec<usize> = (50..old.len()).step_by(100).collect();
    for &i in &places {
        new[i] = (b'A' + (i / 100 % 26) as u8) as char; // never equal to the lowercase original
    }
    let (old, new): (String, String) = (old.into_iter().collect(), new.into_iter().collect());
    let start = std::time::Instant::now();
    let (a, b) = refine_pair(&old, &new, &RefineLimits::default()).expect("within limits");
    let elapsed = start.elapsed();
    check(&old, &new, &a, &b);
    let mut want_a = Vec::new();
    let mut want_b = Vec::new();
    let mut at = 0;
    for &i in &places {
        want_a.push(Segment {
            kind: E,
            start: at,
            end: i,
        });
        want_a.push(Segment {
            kind: D,
            start: i,
            end: i + 1,
        });
        want_b.push(Segment {
            kind: E,
            start: at,
            end: i,
        });
        want_b.push(Segment {
            kind: A,
            start: i,
            end: i + 1,
        });
        at = i + 1;
    }
    want_a.push(Segment {
        kind: E,
        start: at,
        end: old.len(),
    });
    want_b.push(Segment {
        kind: E,
        start: at,
        end: new.len(),
    });
    let first_diff = |x: &[Segment], y: &[Segment]| {
        let k = x
            .iter()
            .zip(y)
            .position(|(p, q)| p != q)
            .unwrap_or(x.len().min(y.len()));
        (k, x.get(k).copied(), y.get(k).copied(), x.len(), y.len())
    };
    assert!(
        a == want_a,
        "old side differs at {:?}",
        first_diff(&a, &want_a)
    );
    assert!(
        b == want_b,
        "new side differs at {:?}",
        first_diff(&b, &want_b)
    );
    assert!(elapsed.as_secs_f64() < 10.0, "took {elapsed:?}");
}

#[test]
fn very_long_unrelated_lines_fall_back() {
    let alphabet: Vec<char> = "abcdefghijklmnopqrstuvwxyz ".chars().collect();
    let old: String = noise(1, 100_000, &alphabet).into_iter().collect();
    let new: String = noise(2, 100_000, &alphabet).into_iter().collect();
    assert_eq!(refine_pair(&old, &new, &RefineLimits::default()), None);
}

// --- pair_lines ------------------------------------------------------------------------

fn pairs(deleted: &[&str], added: &[&str]) -> Vec<(usize, usize)> {
    let p = pair_lines(deleted, added, &RefineLimits::default());
    for w in p.windows(2) {
        assert!(
            w[0].0 < w[1].0 && w[0].1 < w[1].1,
            "crossing or repeated: {p:?}"
        );
    }
    p
}

#[test]
fn rewritten_line_pairs_with_its_rewrite() {
    let deleted = ["    let total = compute(a, b);"];
    let added = [
        "    // Sum everything up before returning.",
        "    use std::io::Write;",
        "    let total = compute(a, b, c);",
    ];
    assert_eq!(pairs(&deleted, &added), vec![(0, 2)]);
    // And with lines removed around it.
    let deleted = [
        "    println!(\"debug\");",
        "    let x = old_value + 1;",
        "    drop(guard);",
    ];
    let added = ["    let x = new_value + 1;"];
    assert_eq!(pairs(&deleted, &added), vec![(1, 0)]);
}

#[test]
fn several_rewrites_pair_in_order() {
    let deleted = ["fn alpha(x: u32) -> u32 {", "    x + 1", "}"];
    let added = ["/// Doc.", "fn alpha(x: u64) -> u64 {", "    x + 2", "}"];
    assert_eq!(pairs(&deleted, &added), vec![(0, 1), (1, 2), (2, 3)]);
}

#[test]
fn pairs_never_cross() {
    // Both lines moved past each other: only one of them can pair.
    let deleted = ["let first_value = 1;", "let second_value = 2;"];
    let added = ["let second_value = 20;", "let first_value = 10;"];
    let p = pairs(&deleted, &added);
    assert_eq!(p.len(), 1, "{p:?}");
}

#[test]
fn unrelated_lines_do_not_pair() {
    assert_eq!(pairs(&["fn main() {"], &["    return Err(error);"]), vec![]);
    assert_eq!(pairs(&["}"], &["});"]), vec![]);
    assert_eq!(pairs(&["x"], &["y"]), vec![]);
    assert_eq!(pairs(&[], &["a"]), vec![]);
    assert_eq!(pairs(&["a"], &[]), vec![]);
}

#[test]
fn identical_and_whitespace_only_changes_pair() {
    assert_eq!(pairs(&["same"], &["other line", "same"]), vec![(0, 1)]);
    assert_eq!(pairs(&["  if x {"], &["\tif x {"]), vec![(0, 0)]);
    assert_eq!(pairs(&[""], &["   "]), vec![(0, 0)]);
}

#[test]
fn large_blocks_pair_by_position() {
    let limits = RefineLimits {
        max_pair_lines: 2,
        ..RefineLimits::default()
    };
    let deleted = ["let a = 1;", "let b = 2;", "fn main() {"];
    let added = ["let a = 10;", "zzzz", "fn main() {}"];
    assert_eq!(pair_lines(&deleted, &added, &limits), vec![(0, 0), (2, 2)]);
}

#[test]
fn long_lines_are_compared_on_a_sample() {
    let alphabet: Vec<char> = "abcdefghijklmnopqrstuvwxyz ".chars().collect();
    let long: String = noise(3, 20_000, &alphabet).into_iter().collect();
    let edited = format!("{}XX{}", &long[..10_000], &long[10_000..]);
    let other: String = noise(4, 20_000, &alphabet).into_iter().collect();
    let sig = Signature::new(&long);
    assert!(sig.hashes.len() <= 4 * SIGNATURE_MAX && sig.shift > 0);
    assert!(sig.dice(&Signature::new(&edited)) > 0.9);
    assert_eq!(pairs(&[&long], &[&other, &edited]), vec![(0, 1)]);
}

// --- properties ------------------------------------------------------------------------

/// Pieces that exercise cluster boundaries.
fn atom() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "a",
        "b",
        "c",
        "x",
        "_",
        "Z",
        "0",
        "7",
        " ",
        "  ",
        "\t",
        ",",
        ".",
        "(",
        ")",
        ";",
        "-",
        "\r\n",
        "\r",
        "\n",
        "e\u{301}",
        "\u{301}",
        "\u{300}",
        "👍",
        "👍🏽",
        "🏿",
        "\u{200d}",
        "👨\u{200d}👩\u{200d}👧",
        "🇫",
        "🇷",
        "🇫🇷",
        "🇩🇪",
        "漢",
        "字",
        "は",
        "한",
        "é",
        "ß",
        "\u{1F600}",
        "\u{FE0F}",
        "क्षि",
    ])
}

fn text(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(atom(), 0..max).prop_map(|v| v.concat())
}

/// `base` with a few random edits.
fn edited() -> impl Strategy<Value = (String, String)> {
    (
        prop::collection::vec(atom(), 0..120),
        prop::collection::vec((any::<prop::sample::Index>(), 0u8..3, atom()), 0..12),
    )
        .prop_map(|(base, edits)| {
            let mut new = base.clone();
            for (at, op, piece) in edits {
                let i = if new.is_empty() {
                    0
                } else {
                    at.index(new.len() + 1)
                };
                match op {
                    0 if i < new.len() => {
                        new.remove(i);
                    }
                    1 if i < new.len() => new[i] = piece,
                    _ => new.insert(i, piece),
                }
            }
            (base.concat(), new.concat())
        })
}

/// A long line (taking the chunked path) and a copy with a few scattered edits.
fn long_edited() -> impl Strategy<Value = (String, String)> {
    (
        prop::collection::vec(atom(), 2_000..6_000),
        prop::collection::vec((any::<prop::sample::Index>(), atom()), 1..20),
    )
        .prop_map(|(base, edits)| {
            let mut new = base.clone();
            for (at, piece) in edits {
                let i = at.index(new.len());
                new[i] = piece;
            }
            (base.concat(), new.concat())
        })
}

fn any_limits() -> impl Strategy<Value = RefineLimits> {
    (
        prop::sample::select(vec![0usize, 50, 2_000, 100_000, 8_000_000]),
        1usize..400,
    )
        .prop_map(|(max_cost, max_graphemes)| RefineLimits {
            max_cost,
            max_graphemes,
            ..RefineLimits::default()
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn segments_cover_and_reconstruct(
        (old, new) in prop_oneof![edited(), (text(60), text(60))],
        lim in any_limits(),
    ) {
        if let Some((a, b)) = refine_pair(&old, &new, &lim) {
            check(&old, &new, &a, &b);
        }
        let (a, b) = refine_pair(&old, &new, &RefineLimits::default()).expect("small pair");
        check(&old, &new, &a, &b);
    }

    #[test]
    fn pairs_are_increasing_and_similar(
        deleted in prop::collection::vec(text(12), 0..8),
        added in prop::collection::vec(text(12), 0..8),
        max_pair_lines in 1usize..10,
    ) {
        let del: Vec<&str> = deleted.iter().map(String::as_str).collect();
        let add: Vec<&str> = added.iter().map(String::as_str).collect();
        let lim = RefineLimits { max_pair_lines, ..RefineLimits::default() };
        let p = pair_lines(&del, &add, &lim);
        for w in p.windows(2) {
            prop_assert!(w[0].0 < w[1].0 && w[0].1 < w[1].1);
        }
        for &(i, j) in &p {
            prop_assert!(i < del.len() && j < add.len());
            let sim = if del[i] == add[j] {
                1.0
            } else {
                Signature::new(del[i]).dice(&Signature::new(add[j]))
            };
            prop_assert!(sim >= PAIR_THRESHOLD);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn long_lines_with_scattered_edits_refine((old, new) in long_edited()) {
        let (a, b) = refine_pair(&old, &new, &RefineLimits::default()).expect("within limits");
        check(&old, &new, &a, &b);
        // Scattered single-atom edits leave most of the line equal.
        let equal: usize = a.iter().filter(|s| s.kind == E).map(|s| s.end - s.start).sum();
        prop_assert!(equal * 2 > old.len(), "{equal} of {}", old.len());
    }
}
