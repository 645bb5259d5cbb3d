//! A raw-bytes prefilter for the search of a pattern at one level: the lines where a pattern
//! line could sit are found with a SIMD substring search (`memchr::memmem`) of a token the
//! level cannot change, instead of normalising and comparing every line of the range.
//!
//! Why no line is missed. Take a pattern line `p` normalised at `level` and a file line `f`
//! whose normal form equals `p`:
//! - exact, trim-end, trim: `p` is `f` itself or a slice of it, so every piece of `p` occurs
//!   in `f` byte for byte;
//! - collapse: `p` is `f`'s words (runs of bytes other than ASCII whitespace) joined by single
//!   spaces, so each word of `p` occurs in `f` byte for byte;
//! - fold: when `f` is ASCII, NFKC and the fold change nothing in it (NFKC maps ASCII to
//!   itself, and the fold maps only non-ASCII characters and whitespace), so its fold is its
//!   collapse and the collapse argument holds. A line holding any byte `>= 0x80` may fold to
//!   anything (`ｌｅｔ` to `let`, `e` and a combining accent to `é`, a no-break space to a
//!   space), so every such line is a candidate, found with a word-at-a-time scan.
//!
//! A token never holds a line terminator (CR and LF are whitespace), so each hit lies inside
//! one line. The candidates are a superset of the lines equal to `p`; the caller verifies
//! every window at the level, so the answer is exactly the full search's. Whenever the
//! candidates would be many (a common token, many non-ASCII lines) the prefilter declines and
//! the full search runs: its cost stays O(bytes + candidates × pattern), within SPEC §3.3.

use std::borrow::Cow;
use std::ops::Range;

use memchr::memmem;

use crate::level::{is_ws_byte, Level};
use crate::text::Lines;

/// Tokens tried (longest first) before the prefilter declines.
const TOKENS_TRIED: usize = 3;

/// A token shorter than this is too common to be worth a scan.
const MIN_TOKEN: usize = 3;

/// The window starts in `range` (file order, each once) where the pattern `pnorm`
/// (normalised at `level`) could match: a superset of the windows that match, to be verified
/// line by line. `None` when the prefilter cannot keep the candidates under `cap` (or the
/// pattern has no token worth scanning for): the caller then searches every line.
pub(crate) fn window_starts(
    lines: &Lines<'_>,
    pnorm: &[Cow<'_, str>],
    level: Level,
    range: Range<usize>,
    cap: usize,
) -> Option<Vec<usize>> {
    let m = pnorm.len();
    if m == 0 || range.end > lines.len() {
        return None;
    }
    if range.end < range.start || range.end - range.start < m {
        return Some(Vec::new());
    }
    // Pattern line k can sit on lines range.start + k ..= range.end - m + k.
    let starts = range.start..range.end - m + 1;
    let tokens = tokens(pnorm);
    if tokens.is_empty() {
        return None;
    }
    // At the fold level every line holding a non-ASCII byte is a candidate for every pattern
    // line (found once, over the whole range).
    let wide = if level == Level::Fold {
        Some(non_ascii_lines(lines, range.clone(), cap)?)
    } else {
        None
    };
    for &(k, tok) in tokens.iter().take(TOKENS_TRIED) {
        let on = starts.start + k..starts.end + k;
        let Some(mut found) = lines_containing(lines, tok, on.clone(), cap) else {
            continue;
        };
        if let Some(wide) = &wide {
            found.extend(wide.iter().copied().filter(|i| on.contains(i)));
            found.sort_unstable();
            found.dedup();
            if found.len() > cap {
                return None;
            }
        }
        return Some(found.into_iter().map(|i| i - k).collect());
    }
    None
}

/// The pattern's tokens (runs of bytes other than ASCII whitespace) with the index of their
/// line, longest first, each distinct token once; tokens shorter than [`MIN_TOKEN`] are left
/// out.
fn tokens<'p>(pnorm: &'p [Cow<'_, str>]) -> Vec<(usize, &'p [u8])> {
    // The best TOKENS_TRIED so far, in rank order: longest first, among equal lengths the
    // earlier line first. Only that many are kept (a hunk of thousands of lines has tens of
    // thousands of tokens). A token seen again ranks below its first sighting, so it is
    // skipped whether its first sighting is kept or was pushed out.
    let mut best: Vec<(usize, &[u8])> = Vec::with_capacity(TOKENS_TRIED + 1);
    for (k, line) in pnorm.iter().enumerate() {
        for tok in line.as_bytes().split(|&b| is_ws_byte(b)) {
            if tok.len() < MIN_TOKEN || best.iter().any(|&(_, t)| t == tok) {
                continue;
            }
            let at = best.partition_point(|&(bk, t)| {
                (t.len(), std::cmp::Reverse(bk)) >= (tok.len(), std::cmp::Reverse(k))
            });
            if at < TOKENS_TRIED {
                best.insert(at, (k, tok));
                best.truncate(TOKENS_TRIED);
            }
        }
    }
    best
}

/// The lines of `on` whose content holds `tok`, in order; `None` past `cap` of them.
fn lines_containing(
    lines: &Lines<'_>,
    tok: &[u8],
    on: Range<usize>,
    cap: usize,
) -> Option<Vec<usize>> {
    let mut out = Vec::new();
    if on.is_empty() {
        return Some(out);
    }
    let base = lines.span(on.start).start;
    let hay = lines.slice(on.start, on.end).as_bytes();
    let mut line = on.start;
    let mut line_end = 0; // one past the current line's content, relative to `base`
    for at in memmem::find_iter(hay, tok) {
        if !out.is_empty() && at < line_end {
            continue; // a second hit on the same line
        }
        line = line_of(lines, base + at, line, on.end);
        if out.len() == cap {
            return None;
        }
        out.push(line);
        line_end = lines.span(line).end - base;
    }
    Some(out)
}

/// The lines of `on` holding a byte `>= 0x80`, in order; `None` past `cap` of them.
fn non_ascii_lines(lines: &Lines<'_>, on: Range<usize>, cap: usize) -> Option<Vec<usize>> {
    let mut out = Vec::new();
    if on.is_empty() {
        return Some(out);
    }
    let base = lines.span(on.start).start;
    let hay = lines.slice(on.start, on.end).as_bytes();
    let mut pos = 0;
    let mut line = on.start;
    while let Some(at) = first_non_ascii(&hay[pos..]) {
        line = line_of(lines, base + pos + at, line, on.end);
        if out.len() == cap {
            return None;
        }
        out.push(line);
        pos = lines.span(line).full_end() - base;
        line += 1;
        if line >= on.end {
            break;
        }
    }
    Some(out)
}

/// The offset of the first byte `>= 0x80` in `b`, 32 bytes a step.
fn first_non_ascii(b: &[u8]) -> Option<usize> {
    const HIGH: u64 = u64::from_le_bytes([0x80; 8]);
    let word = |c: &[u8]| {
        let mut a = [0u8; 8];
        a.copy_from_slice(c);
        u64::from_ne_bytes(a)
    };
    let mut i = 0;
    for c in b.chunks_exact(32) {
        let w = word(&c[..8]) | word(&c[8..16]) | word(&c[16..24]) | word(&c[24..]);
        if w & HIGH != 0 {
            break;
        }
        i += 32;
    }
    b[i..].iter().position(|&x| x >= 0x80).map(|p| i + p)
}

/// The line of `lo..hi` whose content holds byte offset `at` (never a terminator byte: tokens
/// and non-ASCII bytes hold none): the first line whose content ends after `at`.
fn line_of(lines: &Lines<'_>, at: usize, mut lo: usize, mut hi: usize) -> usize {
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if lines.span(mid).end <= at {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::normalized;
    use crate::locate::index::{Budget, LineIndex, Pattern};

    /// The tokens kept are those of sorting every token (longest first, then earlier line)
    /// and keeping the first sighting of the first distinct ones, on patterns full of repeats
    /// and ties.
    #[test]
    fn tokens_are_the_best_distinct_ones() {
        let reference = |pnorm: &[Cow<'_, str>]| {
            let mut all: Vec<(usize, Vec<u8>)> = Vec::new();
            for (k, line) in pnorm.iter().enumerate() {
                for tok in line.as_bytes().split(|&b| is_ws_byte(b)) {
                    if tok.len() >= MIN_TOKEN {
                        all.push((k, tok.to_vec()));
                    }
                }
            }
            all.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(&b.0)));
            let mut out: Vec<(usize, Vec<u8>)> = Vec::new();
            for (k, t) in all {
                if out.len() < TOKENS_TRIED && !out.iter().any(|(_, o)| *o == t) {
                    out.push((k, t));
                }
            }
            out
        };
        let words = ["abc", "abcd", "xyz", "abcde", "ab", "wxyz", "abcd", "qqq"];
        let mut seed = 7u32;
        for _ in 0..500 {
            let pattern: Vec<Cow<'_, str>> = (0..1 + seed as usize % 6)
                .map(|_| {
                    let n = {
                        seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
                        (seed >> 16) as usize % 5
                    };
                    let line: Vec<&str> = (0..n)
                        .map(|_| {
                            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
                            words[(seed >> 16) as usize % words.len()]
                        })
                        .collect();
                    Cow::Owned(line.join(" "))
                })
                .collect();
            let got: Vec<(usize, Vec<u8>)> = tokens(&pattern)
                .into_iter()
                .map(|(k, t)| (k, t.to_vec()))
                .collect();
            assert_eq!(got, reference(&pattern), "{pattern:?}");
        }
    }

    /// Every window of `range` equal to the pattern at `level`, comparing normal forms.
    fn naive(file: &[&str], pat: &[&str], level: Level, range: Range<usize>) -> Vec<usize> {
        if pat.is_empty() || range.end - range.start < pat.len() {
            return vec![];
        }
        (range.start..=range.end - pat.len())
            .filter(|&s| {
                pat.iter()
                    .enumerate()
                    .all(|(k, p)| normalized(file[s + k], level) == normalized(p, level))
            })
            .collect()
    }

    /// The prefilter's candidates, verified like the index verifies them.
    fn filtered(
        lines: &Lines<'_>,
        pat: &[&str],
        level: Level,
        range: Range<usize>,
        cap: usize,
    ) -> Option<Vec<usize>> {
        let pnorm: Vec<Cow<'_, str>> = pat
            .iter()
            .map(|p| crate::level::normalize_cow(p, level))
            .collect();
        let starts = window_starts(lines, &pnorm, level, range, cap)?;
        assert!(starts.windows(2).all(|w| w[0] < w[1]), "{starts:?}");
        Some(
            starts
                .into_iter()
                .filter(|&s| {
                    pnorm
                        .iter()
                        .enumerate()
                        .all(|(k, p)| normalized(lines.get(s + k), level) == **p)
                })
                .collect(),
        )
    }

    /// Near misses of the lines the patterns are made of: case, whitespace runs, tabs,
    /// typographic quotes and dashes, no-break and other Unicode spaces, zero-width
    /// characters and the BOM, NFKC compatibility forms (fullwidth, ligatures, combining
    /// accents, superscripts), a lone CR inside a line's neighbourhood.
    const FILE_LINES: &[&str] = &[
        "let total = price * 2;",
        "let  total\t= price *  2;",
        "    let total = price * 2;   ",
        "Let total = price * 2;",
        "let total = Price * 2;",
        "let\u{00A0}total = price * 2;",
        "let total\u{2003}= price * 2;",
        "ｌｅｔ total = price * 2;",
        "let to\u{200B}tal = price * 2;",
        "\u{FEFF}let total = price * 2;",
        "let total = price * ２;",
        "let total = price * 2;\u{00AD}",
        "say(\"it's done\")",
        "say(\u{201C}it\u{2019}s done\u{201D})",
        "say(\"it\u{2019}s done\")",
        "say( \"it's  done\" )",
        "say(\"it's done\") ",
        "ﬁle = caf\u{00E9}",
        "file = cafe\u{0301}",
        "file = café",
        "file = cafe",
        "ﬁle  =  cafe\u{0301}",
        "x \u{2014} y \u{2026}",
        "x - y ...",
        "x \u{2212} y...",
        "x\u{00B2} = y",
        "x2 = y",
        "}",
        "",
        "\t",
        "   ",
    ];

    const PATTERN_LINES: &[&str] = &[
        "let total = price * 2;",
        "    let total = price * 2;",
        "let total = price * 2;\t",
        "say(\"it's done\")",
        "say(\u{201C}it\u{2019}s done\u{201D})",
        "file = café",
        "file = cafe",
        "x - y ...",
        "x2 = y",
        "}",
        "",
    ];

    const EOLS: &[&str] = &["\n", "\r\n", "\r"];

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(3000))]
        /// The prefilter never loses a window: at every level, the verified candidates are
        /// exactly the windows a comparison of every line finds, with CRLF, CR and LF files.
        #[test]
        fn prefilter_finds_every_window(
            file in proptest::collection::vec(
                (proptest::sample::select(FILE_LINES), proptest::sample::select(EOLS)), 0..60),
            pat in proptest::collection::vec(proptest::sample::select(PATTERN_LINES), 1..4),
            from in 0usize..20,
            cut in 0usize..20,
            cap in proptest::sample::select(vec![1usize, 3, 256]),
        ) {
            let text: String = file.iter().map(|(l, e)| format!("{l}{e}")).collect();
            let lines = Lines::split(&text);
            let file: Vec<&str> = (0..lines.len()).map(|i| lines.get(i)).collect();
            let n = file.len();
            let range = from.min(n)..n.saturating_sub(cut).max(from.min(n));
            for level in Level::ALL {
                let want = naive(&file, &pat, level, range.clone());
                if let Some(got) = filtered(&lines, &pat, level, range.clone(), cap) {
                    proptest::prop_assert_eq!(&got, &want, "{:?} {:?}", level, pat);
                } else {
                    // Declining is allowed only for a reason: too many candidates, or no token.
                    let toks = pat.iter().any(|p| {
                        normalized(p, level).split(|c: char| c.is_ascii_whitespace())
                            .any(|t| t.len() >= MIN_TOKEN)
                    });
                    proptest::prop_assert!(cap < n || !toks, "declined with cap {} on {} lines", cap, n);
                }
            }
            // Through the index, as the locator searches: the strictest level with any window
            // and its windows, as a line-by-line search level by level finds them.
            let mut index = LineIndex::new(&lines);
            let mut budget = Budget::new(u64::MAX);
            let mut p = Pattern::new(pat.clone());
            let got = index.search(&mut p, Level::Fold, range.clone(), usize::MAX, &mut budget).unwrap();
            let want = Level::ALL.iter().find_map(|&l| {
                let c = naive(&file, &pat, l, range.clone());
                (!c.is_empty()).then_some((l, c))
            });
            proptest::prop_assert_eq!(got, want);
        }
    }

    /// A fullwidth or accented line has none of the pattern's bytes yet folds to it: only the
    /// non-ASCII scan finds it, and a file of ASCII lines and one such line is answered.
    #[test]
    fn non_ascii_lines_are_candidates_at_fold() {
        let text = "let a = 1;\nｌｅｔ total = 2;\nlet total = 3;\nlet total = 2;\n";
        let lines = Lines::split(text);
        let pat = ["let total = 2;"];
        assert_eq!(
            filtered(&lines, &pat, Level::Fold, 0..4, 256),
            Some(vec![1, 3])
        );
        assert_eq!(
            filtered(&lines, &pat, Level::Collapse, 0..4, 256),
            Some(vec![3])
        );
    }

    /// Past the cap the prefilter declines instead of answering with part of the candidates.
    #[test]
    fn declines_past_the_cap() {
        let text = "common line\n".repeat(10);
        let lines = Lines::split(&text);
        let pnorm = [Cow::Borrowed("common line")];
        assert_eq!(window_starts(&lines, &pnorm, Level::Exact, 0..10, 9), None);
        assert_eq!(
            window_starts(&lines, &pnorm, Level::Exact, 2..10, 9).map(|v| v.len()),
            Some(8)
        );
        let wide = "é\n".repeat(10);
        let lines = Lines::split(&wide);
        let pnorm = [Cow::Borrowed("something")];
        assert_eq!(window_starts(&lines, &pnorm, Level::Fold, 0..10, 9), None);
        assert_eq!(
            window_starts(&lines, &pnorm, Level::Collapse, 0..10, 9),
            Some(vec![])
        );
    }

    #[test]
    fn finds_the_first_non_ascii_byte() {
        for len in 0..100 {
            for at in 0..len {
                let mut b = vec![b'a'; len];
                b[at] = 0xC3;
                assert_eq!(first_non_ascii(&b), Some(at));
            }
            assert_eq!(first_non_ascii(&vec![b'a'; len]), None);
        }
    }
}
