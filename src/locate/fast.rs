//! The fast path for the common case: every hunk found exactly, once, in order.
//!
//! The full locator hashes every line of the file at the exact level before it searches. When
//! every hunk of a file is anchorless and plain (see [`eligible`]), that work is not needed:
//! one pass over the line spans, comparing only lengths, finds the lines equal to each hunk's
//! rarest line (its longest one; a length seldom repeats), and the windows around those lines
//! are verified byte for byte. No line is hashed and no index is built.
//!
//! The answer must be the full path's: when anything is in doubt, [`locate`] returns `None`
//! and the full path runs from the start. It answers only when, for every hunk,
//!
//! - the hunk's old side occurs exactly once in the whole file, at or after the end of the
//!   previous hunk's lines (so the region search finds one candidate, the out-of-order search
//!   is not reached, and no other window can straddle the previous hunk);
//! - neither the file nor the old side has a line ending in whitespace, so the trim-end
//!   windows that count with the exact ones (SPEC §3.2) are the exact windows;
//! - none of the checks that follow a placement can refuse it: no trailing blank context line,
//!   no leading or trailing added line, no shape that could slide across its context line;
//! - the full path's search budget would not run out.
//!
//! Work is O(lines) plus, per hunk, at most [`RARE_HIT_CAP`] verified windows: a repetitive
//! file whose rarest line occurs more often goes to the full path.

use rustc_hash::FxHashMap;

use super::{check_overlaps, ends_with_insertion, old_side, without_blank_tail, Level, Placement};
use crate::error::Error;
use crate::options::Options;
use crate::patch::{Hunk, LineKind};
use crate::text::Lines;

/// Lines equal to one hunk's rarest line beyond which the fast path gives up.
const RARE_HIT_CAP: usize = 64;

/// Hunks beyond which the fast path gives up (the full path's one-pass prefetch suits them).
const HUNK_CAP: usize = 64;

/// What the fast path needs of one hunk.
struct Probe<'h> {
    /// The old side.
    old: Vec<&'h str>,
    /// Index in `old` of the rarest line.
    rare: usize,
    /// Start lines of verified windows (at most two are kept: two already decide).
    windows: Vec<usize>,
    /// Lines equal to the rarest line seen so far.
    hits: usize,
}

/// Whether a hunk is one the fast path can place exactly as the full path would.
pub(crate) fn eligible(hunk: &Hunk) -> bool {
    let body = &hunk.lines;
    let k = body.len();
    if !hunk.anchors.is_empty() || hunk.end_of_file || k == 0 {
        return false;
    }
    // A trailing blank context line is retried without it (check_blank_tail).
    if without_blank_tail(hunk) != k {
        return false;
    }
    // Leading added lines are refused unless at the start of the file (check_open_start), and
    // added lines after the last context line unless at the end (check_open_end).
    if body[0].kind == LineKind::Add || ends_with_insertion(body) {
        return false;
    }
    // Shapes that could slide across a context line (check_slide), conservatively.
    if k >= 3
        && ((body[k - 1].kind == LineKind::Context && body[k - 2].kind == LineKind::Add)
            || (body[0].kind == LineKind::Context && body[1].kind == LineKind::Add))
    {
        return false;
    }
    true
}

/// Whether an old side can be compared exactly: not empty, and no line ending in whitespace
/// (its trim-end form would differ) or holding a line break.
pub(crate) fn plain_old_side(old: &[&str]) -> bool {
    !old.is_empty() && !old.iter().any(|l| ends_in_ws(l) || holds_break(l))
}

/// Whether `s` holds a CR or an LF (a byte search: `str::contains` with a char set walks
/// characters, and at the WebAssembly build's opt-level "z" that walk was a fifth of an exact
/// apply).
pub(crate) fn holds_break(s: &str) -> bool {
    memchr::memchr2(b'\n', b'\r', s.as_bytes()).is_some()
}

fn ends_in_ws(s: &str) -> bool {
    s.as_bytes()
        .last()
        .is_some_and(|&b| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0B' | b'\x0C'))
}

/// Places every hunk exactly as [`super::locate_full`] would, or returns `None` when it cannot
/// be sure (then the full path runs). `Some(Err(_))` is an overlap the full path reports too.
pub(crate) fn locate(
    lines: &Lines<'_>,
    hunks: &[Hunk],
    path: &str,
    opts: &Options,
) -> Option<Result<Vec<Placement>, Error>> {
    let n = lines.len();
    if hunks.is_empty() || hunks.len() > HUNK_CAP || opts.first_match || n == 0 {
        return None;
    }
    if !hunks.iter().all(eligible) {
        return None;
    }
    let mut probes = probes(hunks, n, opts)?;
    find_windows(lines, &mut probes, opts)?;
    let placements = place(hunks, &probes)?;
    // Overlapping hunks: the line path gives the same error, with its fix checked.
    check_overlaps(hunks, &placements, path).ok()?;
    Some(Ok(placements))
}

/// A probe for every hunk, or `None` when some hunk's old side cannot be placed by comparing
/// lines exactly, or the full path's search budget could run out on this file.
fn probes<'h>(hunks: &'h [Hunk], n: usize, opts: &Options) -> Option<Vec<Probe<'h>>> {
    let mut probes: Vec<Probe<'_>> = Vec::with_capacity(hunks.len());
    for hunk in hunks {
        let old = old_side(hunk, hunk.lines.len());
        if old.len() > n || !plain_old_side(&old) {
            return None;
        }
        // The longest line, the first of equals: long lines are the rarest in code.
        let rare = (0..old.len()).fold(0, |best, k| {
            if old[k].len() > old[best].len() {
                k
            } else {
                best
            }
        });
        if old[rare].is_empty() {
            return None;
        }
        probes.push(Probe {
            old,
            rare,
            windows: Vec::new(),
            hits: 0,
        });
    }
    // The full path charges about one unit a line for the line hashes, the trailing-whitespace
    // scan and the prefetch, one a line per hunk for its region scan, and the window length
    // per verified candidate. Where that could reach the budget, the full path decides.
    let h = hunks.len() as u64;
    let m_total: u64 = probes.iter().map(|p| p.old.len() as u64).sum();
    let bound = (h + 4)
        .saturating_mul(n as u64 + 1)
        .saturating_add(m_total.saturating_mul(4))
        .saturating_add(1000);
    if bound >= opts.search_budget {
        return None;
    }
    Some(probes)
}

/// One pass over the line spans: every line as long as some hunk's rarest line is compared
/// with it, and the windows around the equal ones verified into the probes. `None` when the
/// full path must decide (a line ending in whitespace, a rarest line too common, a second
/// window).
fn find_windows(lines: &Lines<'_>, probes: &mut [Probe<'_>], opts: &Options) -> Option<()> {
    let n = lines.len();
    // Hunks by the length of their rarest line, with a one-byte filter in front.
    let mut by_len: FxHashMap<usize, Vec<usize>> = FxHashMap::default();
    let mut filter = [false; 256];
    for (i, p) in probes.iter().enumerate() {
        let len = p.old[p.rare].len();
        by_len.entry(len).or_default().push(i);
        filter[len & 0xff] = true;
    }
    let check_ws = opts.max_level >= Level::TrimEnd;
    // The whole text, for the last byte of each line without slicing it.
    let bytes = lines.slice(0, n).as_bytes();
    for (i, span) in lines.raw().spans(0, n).enumerate() {
        let (len, end) = (span.end - span.start, span.end);
        if check_ws && len > 0 && matches!(bytes[end - 1], b' ' | b'\t' | b'\x0B' | b'\x0C') {
            // Trim-end windows would count with the exact ones: the full path decides.
            return None;
        }
        if !filter[len & 0xff] {
            continue;
        }
        let Some(ids) = by_len.get(&len) else {
            continue;
        };
        let line = lines.get(i);
        for &id in ids {
            probe_line(lines, &mut probes[id], i, line)?;
        }
    }
    Some(())
}

/// Line `i` (`line`) has the length of `p`'s rarest line: if it is that line, verifies the
/// window around it. `None` when the rarest line is too common or a second window is found.
#[inline]
fn probe_line(lines: &Lines<'_>, p: &mut Probe<'_>, i: usize, line: &str) -> Option<()> {
    if line != p.old[p.rare] {
        return Some(());
    }
    p.hits += 1;
    if p.hits > RARE_HIT_CAP {
        return None;
    }
    let Some(start) = i.checked_sub(p.rare) else {
        return Some(());
    };
    if start + p.old.len() > lines.len() {
        return Some(());
    }
    if p.old
        .iter()
        .enumerate()
        .all(|(k, l)| k == p.rare || lines.get(start + k) == *l)
    {
        p.windows.push(start);
        if p.windows.len() > 1 {
            // Two places: ambiguous, or a region question; the full path decides.
            return None;
        }
    }
    Some(())
}

/// The placements, when every hunk has its one window after the previous hunk's lines.
fn place(hunks: &[Hunk], probes: &[Probe<'_>]) -> Option<Vec<Placement>> {
    let mut placements = Vec::with_capacity(hunks.len());
    let mut region_start = 0usize;
    for (hunk, p) in hunks.iter().zip(probes) {
        let [start] = p.windows[..] else {
            return None;
        };
        if start < region_start {
            return None;
        }
        let m = p.old.len();
        placements.push(Placement {
            start,
            old_len: m,
            used_lines: hunk.lines.len(),
            level: Level::Exact,
            line_levels: vec![Level::Exact; m].into_boxed_slice(),
            fuzz: 0,
            candidates: 1,
            out_of_order: false,
            end_of_file: false,
            already_applied: false,
            anchor_ignored: false,
            context_relaxed: false,
            leans_on_order: false,
            bend: None,
        });
        region_start = start + m;
    }
    Some(placements)
}

#[cfg(test)]
mod tests {
    use super::super::locate_full;
    use super::*;
    use crate::patch::Patch;

    /// A small deterministic generator (xorshift64*), so a failing case is named by its seed.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            let mut x = self.0;
            x ^= x >> 12;
            x ^= x << 25;
            x ^= x >> 27;
            self.0 = x;
            (x.wrapping_mul(0x2545_F491_4F6C_DD1D) % n.max(1) as u64) as usize
        }
    }

    /// Repetitive lines: few distinct texts, some differing only in whitespace, so hunks often
    /// occur twice, straddle each other, or match only at looser levels.
    const POOL: [&str; 10] = [
        "a",
        "b",
        "a ",
        "  a",
        "",
        "cc",
        "}",
        "\t}",
        "longer line",
        "longer  line",
    ];

    /// A file of `n` lines from the pool, and a patch of 1–4 hunks cut from it (some edited so
    /// they no longer match exactly, some in reverse order).
    fn case(seed: u64) -> (String, String) {
        let mut r = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        let n = 1 + r.below(40);
        let pool = 2 + r.below(POOL.len() - 1);
        // Half the files also have distinct lines, so hunks are often unique.
        let distinct = r.below(2) == 0;
        let file: Vec<String> = (0..n)
            .map(|i| {
                if distinct && r.below(2) == 0 {
                    format!("u{i}")
                } else {
                    POOL[r.below(pool)].to_string()
                }
            })
            .collect();
        let eol = ["\n", "\n", "\r\n", "\r"][r.below(4)];
        let mut text: String = file.iter().map(|l| format!("{l}{eol}")).collect();
        if r.below(5) == 0 {
            text.pop();
        }
        let mut diff = String::new();
        let hunks = 1 + r.below(4);
        let mut at = 0usize;
        for _ in 0..hunks {
            if r.below(6) == 0 {
                at = 0;
            }
            if at >= n {
                break;
            }
            let start = at + r.below((n - at).min(6));
            let len = 1 + r.below((n - start).min(5));
            diff.push_str(if r.below(8) == 0 { "@@ a\n" } else { "@@\n" });
            if r.below(10) == 0 {
                diff.push_str("+added first\n");
            }
            for (k, l) in file[start..start + len].iter().enumerate() {
                let l = if r.below(12) == 0 { "zz" } else { l.as_str() };
                match r.below(4) {
                    0 => diff.push_str(&format!("-{l}\n+{l}!\n")),
                    1 if k > 0 => diff.push_str(&format!("+new {k}\n {l}\n")),
                    _ => diff.push_str(&format!(" {l}\n")),
                }
            }
            if r.below(4) == 0 {
                diff.push_str("+tail\n");
            }
            at = start + len;
        }
        (text, diff)
    }

    /// Longer lines for the raw path's one-pass scan (needles of four bytes or more): lines
    /// that hold another one inside them, at their start or end, or differ from it only in
    /// trailing whitespace, so a needle is found away from line starts, in other hunks'
    /// windows, and before earlier hunks.
    const LONG_POOL: [&str; 12] = [
        "let value = 1;",
        "let value = 1; ",
        "let value = 1;\t",
        "    let value = 1;",
        "let value = 12;",
        "x let value = 1;",
        "return value;",
        "return value; // let value = 1;",
        "}",
        "",
        "value value value",
        "value value",
    ];

    /// A file of up to 60 lines (one in ten: up to 600, so a line occurs past the scan's caps)
    /// and a patch of 1–8 hunks cut from it, as in [`case`].
    fn many_hunks_case(seed: u64) -> (String, String) {
        let mut r = Rng(seed.wrapping_mul(0xD1B5_4A32_D192_ED03) | 1);
        let n = 1 + r.below(if seed % 10 == 0 { 600 } else { 60 });
        let pool = 2 + r.below(LONG_POOL.len() - 1);
        let distinct = 1 + r.below(3);
        let file: Vec<String> = (0..n)
            .map(|i| match r.below(4) {
                k if k < distinct => format!("unique line {}", i % 300),
                _ => LONG_POOL[r.below(pool)].to_string(),
            })
            .collect();
        let mut text: String = file.iter().map(|l| format!("{l}\n")).collect();
        if r.below(5) == 0 {
            text.pop();
        }
        let mut diff = String::new();
        let mut at = 0usize;
        for _ in 0..1 + r.below(8) {
            if r.below(8) == 0 {
                at = r.below(n);
            }
            if at >= n {
                break;
            }
            let start = at + r.below((n - at).min(8));
            let len = 1 + r.below((n - start).min(6));
            diff.push_str("@@\n");
            for (k, l) in file[start..start + len].iter().enumerate() {
                let l = if r.below(15) == 0 { "zz" } else { l.as_str() };
                match r.below(4) {
                    0 => diff.push_str(&format!("-{l}\n+{l}!\n")),
                    1 if k > 0 => diff.push_str(&format!("+new {k}\n {l}\n")),
                    _ => diff.push_str(&format!(" {l}\n")),
                }
            }
            // Overlapping or adjacent windows now and then.
            at = start + len - r.below(2).min(len - 1);
        }
        (text, diff)
    }

    /// The raw path's one-pass scan for several hunks agrees with the scans per hunk and with
    /// the full path (see [`raw_agrees`]) on files where the hunks' lines repeat.
    #[test]
    fn raw_one_pass_agrees_on_many_hunks() {
        let (mut answered, mut several) = (0, 0);
        for seed in seeds() {
            let (text, diff) = many_hunks_case(seed);
            let Ok(patch) = Patch::parse(&diff) else {
                continue;
            };
            let hunks = &patch.ops[0].hunks;
            let lines = Lines::split(&text);
            for opts in [
                Options::default(),
                Options {
                    max_level: Level::Exact,
                    ..Options::default()
                },
            ] {
                let full = locate_full(&lines, hunks, "f", &opts);
                if raw_agrees(&text, &lines, hunks, &opts, &full, seed).is_some() {
                    answered += 1;
                    several += usize::from(hunks.len() >= 3);
                }
            }
        }
        let n = seeds().end as usize;
        assert!(
            answered > n / 10 && several > n / 100,
            "the raw path answered {answered} times ({several} with 3 hunks or more)"
        );
    }

    /// At the sizes where the one pass runs unforced (4 hunks or more, 64 KB or more): files of
    /// 2,000–3,000 lines, a tenth of them from [`LONG_POOL`] and some distinct lines copied
    /// elsewhere, so a hunk's rarest line may occur twice, before an earlier hunk or inside
    /// another hunk's window.
    #[test]
    fn raw_one_pass_on_large_files() {
        let mut answered = 0;
        for seed in 0..40u64 {
            let mut r = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
            let n = 2_000 + r.below(1_000);
            let mut file: Vec<String> = (0..n)
                .map(|i| match r.below(10) {
                    0 => LONG_POOL[r.below(LONG_POOL.len())].to_string(),
                    _ => format!(
                        "    let line_{i} = compute({}, \"{}\");",
                        r.below(100),
                        i * 7
                    ),
                })
                .collect();
            for _ in 0..r.below(4) {
                let (from, to) = (r.below(n), r.below(n));
                file[to] = file[from].clone();
            }
            let text: String = file.iter().map(|l| format!("{l}\n")).collect();
            assert!(text.len() >= 64 * 1024);
            let mut diff = String::new();
            let mut at = 0;
            for k in 0..4 + r.below(9) {
                at += 1 + r.below(n / 14);
                // Two context lines or more at each end: no shape the line path could slide.
                let len = 5 + r.below(3);
                if at + len > n {
                    break;
                }
                diff.push_str("@@\n");
                for (j, l) in file[at..at + len].iter().enumerate() {
                    match j == 2 {
                        true => diff.push_str(&format!("-{l}\n+changed {k}\n")),
                        false => diff.push_str(&format!(" {l}\n")),
                    }
                }
                at += len;
            }
            let patch = Patch::parse(&diff).expect("parses");
            let hunks = &patch.ops[0].hunks;
            let lines = Lines::split(&text);
            let opts = Options::default();
            let full = locate_full(&lines, hunks, "f", &opts);
            if raw_agrees(&text, &lines, hunks, &opts, &full, seed).is_some() {
                answered += usize::from(hunks.len() >= 4);
            }
        }
        assert!(answered >= 10, "the raw path answered {answered} of 40");
    }

    /// Generated cases: 20,000, or `V4A_FAST_CASES` for a longer run.
    fn seeds() -> std::ops::Range<u64> {
        let n = std::env::var("V4A_FAST_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(20_000);
        0..n
    }

    fn outcome(r: &Result<Vec<Placement>, Error>) -> String {
        format!("{r:?}")
    }

    /// When the raw path answers `text`'s hunks, its placements, text, hunk ranges and changes
    /// are the full path's (`full`, then the line builder), with and without a BOM. `Some`
    /// (whether the text has a line ending in whitespace) when it answered.
    fn raw_agrees(
        text: &str,
        lines: &Lines<'_>,
        hunks: &[Hunk],
        opts: &Options,
        full: &Result<Vec<Placement>, Error>,
        seed: u64,
    ) -> Option<bool> {
        let bom = seed % 3 == 0;
        // The one-pass scan for several hunks (forced at any size) answers exactly when the
        // scans per hunk do, with the same answer.
        let multi = super::super::raw::update_with(
            text,
            bom,
            hunks,
            "f",
            opts,
            (&mut super::super::raw::LfText::default(), (1, 0)),
        );
        let alone = super::super::raw::update(text, bom, hunks, "f", opts);
        assert_eq!(
            multi.is_some(),
            alone.is_some(),
            "seed {seed}: one pass vs per hunk, text {text:?}"
        );
        if let (Some((mp, mb)), Some((ap, ab))) = (&multi, &alone) {
            assert_eq!(mp, ap, "seed {seed}: text {text:?}");
            assert_eq!(mb.text, ab.text, "seed {seed}: text {text:?}");
        }
        let (placed, built) = alone?;
        let want = full.as_ref().unwrap_or_else(|e| {
            panic!("seed {seed}: raw path placed {text:?}, full path refused: {e:?}")
        });
        assert_eq!(&placed, want, "seed {seed}: text {text:?}");
        let line_built = crate::build::build_update(lines, bom, hunks, want, "f", opts)
            .unwrap_or_else(|e| panic!("seed {seed}: {e:?}"));
        assert_eq!(built.text, line_built.text, "seed {seed}: text {text:?}");
        assert_eq!(built.hunks, line_built.hunks, "seed {seed}: text {text:?}");
        assert_eq!(
            built.changes, line_built.changes,
            "seed {seed}: text {text:?}"
        );
        Some(text.split('\n').any(|l| l.ends_with([' ', '\t'])))
    }

    /// The fast path answers only when the full path gives the same answer, and it answers
    /// often enough on these inputs for the comparison to mean something.
    #[test]
    fn fast_path_agrees_with_the_full_path() {
        let (mut answered, mut refused) = (0, 0);
        let (mut raw_answered, mut raw_ws) = (0, 0);
        for seed in seeds() {
            let (text, diff) = case(seed);
            let Ok(patch) = Patch::parse(&diff) else {
                continue;
            };
            let hunks = &patch.ops[0].hunks;
            let lines = Lines::split(&text);
            for opts in [
                Options::default(),
                Options {
                    max_level: Level::Exact,
                    ..Options::default()
                },
            ] {
                let full = locate_full(&lines, hunks, "f", &opts);
                if let Some(raw) = raw_agrees(&text, &lines, hunks, &opts, &full, seed) {
                    raw_answered += 1;
                    raw_ws += usize::from(raw);
                }
                let Some(fast) = locate(&lines, hunks, "f", &opts) else {
                    continue;
                };
                assert_eq!(
                    outcome(&fast),
                    outcome(&full),
                    "seed {seed}: text {text:?}, diff {diff:?}, opts {opts:?}"
                );
                answered += 1;
                if full.is_err() {
                    refused += 1;
                }
            }
        }
        assert!(
            answered > 2_000,
            "the fast path answered only {answered} times"
        );
        assert!(
            raw_answered > 1_000 && raw_ws > 300,
            "the raw path answered only {raw_answered} times ({raw_ws} with trailing-whitespace lines)"
        );
        // The fast path itself never decides a refusal except the shared overlap check.
        assert!(refused <= answered / 10, "{refused} refusals of {answered}");
    }

    /// Lines that differ from each other only at the loose levels (whitespace runs, indentation,
    /// trailing whitespace, typographic quotes and dashes, fullwidth letters), so a patch
    /// written from one of them finds several windows at different levels.
    const LOOSE_POOL: [&str; 16] = [
        "let value = 1;",
        "    let value = 1;",
        "let  value =\t1;",
        "let value = 1;  ",
        "\tlet value = 1;",
        "say(\u{201C}value\u{201D}) \u{2014} 1",
        "say(\"value\") - 1",
        "say(\"value\")  -  1",
        "if value {",
        "  if value {",
        "}",
        "    }",
        "",
        "\u{FF56}alue = 1;",
        "value = 1;",
        "cafe\u{301} value",
    ];

    /// A loose perturbation of a file line, as a model might write it in a patch.
    fn perturb(r: &mut Rng, l: &str) -> String {
        match r.below(8) {
            0 => l.split_whitespace().collect::<Vec<_>>().join(" "),
            1 => format!("  {l}"),
            2 => l.trim_start().to_string(),
            3 => format!("{l} "),
            4 => l
                .replace(['\u{201C}', '\u{201D}'], "\"")
                .replace('\u{2014}', "-"),
            5 => l.replace('"', "\u{201D}"),
            6 => l.replace("  ", " ").replace('\t', "    "),
            _ => l.to_string(),
        }
    }

    /// A file of `n` lines from [`LOOSE_POOL`] (LF, sometimes a CRLF one to be refused) and a
    /// patch of 1–3 hunks cut from it, each line perturbed at a loose level.
    fn loose_case(seed: u64) -> (String, String) {
        let mut r = Rng(seed.wrapping_mul(0xD6E8_FEB8_6659_FD93) | 1);
        let n = 1 + r.below(30);
        let pool = 3 + r.below(LOOSE_POOL.len() - 2);
        let distinct = r.below(2) == 0;
        let file: Vec<String> = (0..n)
            .map(|i| {
                if distinct && r.below(3) == 0 {
                    format!("{}unique_{i} = call({i});", "  ".repeat(r.below(3)))
                } else {
                    LOOSE_POOL[r.below(pool)].to_string()
                }
            })
            .collect();
        let eol = if r.below(10) == 0 { "\r\n" } else { "\n" };
        let text: String = file.iter().map(|l| format!("{l}{eol}")).collect();
        let mut diff = String::new();
        let mut at = 0usize;
        for _ in 0..1 + r.below(3) {
            if at >= n {
                break;
            }
            let start = at + r.below((n - at).min(5));
            let len = 1 + r.below((n - start).min(4));
            diff.push_str("@@\n");
            for (k, l) in file[start..start + len].iter().enumerate() {
                let l = perturb(&mut r, l);
                match r.below(4) {
                    0 => diff.push_str(&format!("-{l}\n+{l}!\n")),
                    1 if k > 0 && k + 1 < len => diff.push_str(&format!("+  new {k}\n {l}\n")),
                    _ => diff.push_str(&format!(" {l}\n")),
                }
            }
            at = start + len;
        }
        (text, diff)
    }

    /// When the loose path answers, the full path places the same hunks at the same levels and
    /// the line builder writes the same text, reports and changes. `true` when it answered.
    fn loose_agrees(text: &str, hunks: &[Hunk], opts: &Options, seed: u64) -> bool {
        let bom = seed % 3 == 0;
        let Some((placed, built)) = super::super::loose::update(text, bom, hunks, "f", opts) else {
            return false;
        };
        let lines = Lines::split(text);
        let full = locate_full(&lines, hunks, "f", opts);
        let want = full.as_ref().unwrap_or_else(|e| {
            panic!("seed {seed}: loose path placed {text:?}, full path refused: {e:?}")
        });
        assert_eq!(&placed, want, "seed {seed}: text {text:?}");
        let line_built = crate::build::build_update(&lines, bom, hunks, want, "f", opts)
            .unwrap_or_else(|e| panic!("seed {seed}: loose path built, line builder: {e:?}"));
        assert_eq!(built.text, line_built.text, "seed {seed}: text {text:?}");
        assert_eq!(built.hunks, line_built.hunks, "seed {seed}: text {text:?}");
        assert_eq!(built.changes, line_built.changes, "seed {seed}");
        true
    }

    /// The loose path answers only with the full path's answer, on files where windows differ
    /// only in whitespace, indentation or typography, under several level caps; and it answers
    /// often enough, at each loose level, for the comparison to mean something.
    #[test]
    fn loose_path_agrees_with_the_full_path() {
        let mut by_level = [0usize; 5];
        for seed in seeds() {
            let (text, diff) = loose_case(seed);
            let Ok(patch) = Patch::parse(&diff) else {
                continue;
            };
            let hunks = &patch.ops[0].hunks;
            for max_level in [Level::Fold, Level::Collapse, Level::Trim] {
                let opts = Options {
                    max_level,
                    ..Options::default()
                };
                if loose_agrees(&text, hunks, &opts, seed) {
                    let lines = Lines::split(&text);
                    let placed = locate_full(&lines, hunks, "f", &opts).expect("placed");
                    for p in placed {
                        by_level[p.level as usize] += 1;
                    }
                }
            }
        }
        let n = seeds().end as usize;
        for level in [Level::Trim, Level::Collapse, Level::Fold] {
            assert!(
                by_level[level as usize] > n / 200,
                "the loose path placed only {:?} hunks by level",
                by_level
            );
        }
    }

    /// The loose path answers these (the level given) and leaves the others to the line path:
    /// a second window at the first level, a stricter window elsewhere, CR text, a twin that
    /// folds alike without holding the token.
    #[test]
    fn loose_path_answers_only_unique_loose_windows() {
        let cases: [(&str, &str, Option<Level>); 7] = [
            (
                "a\nxxx  yyy\nqqq\nb\n",
                "@@\n xxx yyy\n-qqq\n+z\n",
                Some(Level::Collapse),
            ),
            (
                "a\n  xxx yyy\nqqq\nb\n",
                "@@\n xxx yyy\n-qqq\n+z\n",
                Some(Level::Trim),
            ),
            (
                "xxx  yyy\nqqq\nxxx\tyyy\nqqq\n",
                "@@\n xxx yyy\n-qqq\n+z\n",
                None,
            ),
            (
                "xxx yyy\nqqq\nxxx  yyy\nqqq\n",
                "@@\n xxx  yyy\n-qqq\n+z\n",
                None,
            ),
            ("xxx  yyy\r\nqqq\r\n", "@@\n xxx yyy\n-qqq\n+z\n", None),
            (
                "say(\u{201C}hello\u{201D})\nqqq\n",
                "@@\n say(\"hello\")\n-qqq\n+z\n",
                Some(Level::Fold),
            ),
            (
                "say(\u{201C}hello\u{201D})\nqqq\nsay(\u{201E}hello\u{201D})\nqqq\n",
                "@@\n say(\"hello\")\n-qqq\n+z\n",
                None,
            ),
        ];
        for (text, diff, want) in cases {
            let patch = Patch::parse(diff).expect("parses");
            let hunks = &patch.ops[0].hunks;
            let opts = Options::default();
            let got = super::super::loose::update(text, false, hunks, "", &opts);
            assert_eq!(
                got.as_ref().map(|g| g.0[0].level),
                want,
                "{text:?} {diff:?}"
            );
            if got.is_some() {
                assert!(loose_agrees(text, hunks, &opts, 1));
            }
        }
    }

    /// Cases the fast path must leave to the full path, each because the full path's answer
    /// depends on more than the exact windows.
    #[test]
    fn doubtful_cases_go_to_the_full_path() {
        let lines_of = |t: &str| Lines::split(t).len();
        let cases = [
            // Twice in the file: an ambiguity the full path explains.
            ("x\ny\nx\ny\n", "@@\n x\n-y\n+z\n"),
            // A trailing-whitespace twin counts as a candidate at the trim-end level.
            ("x\ny\nx \ny\n", "@@\n x\n-y\n+z\n"),
            // An anchor.
            ("f\nx\ny\n", "@@ f\n x\n-y\n+z\n"),
            // Not found exactly.
            ("x\ny\n", "@@\n  x\n-y\n+z\n"),
            // A trailing blank context line.
            ("x\ny\n\n", "@@\n x\n-y\n+z\n \n"),
            // Out of order.
            ("a\nb\nc\nd\n", "@@\n c\n-d\n+D\n@@\n a\n-b\n+B\n"),
        ];
        for (text, diff) in cases {
            assert!(lines_of(text) > 0);
            let patch = Patch::parse(diff).expect("parses");
            let lines = Lines::split(text);
            assert!(
                locate(&lines, &patch.ops[0].hunks, "", &Options::default()).is_none(),
                "{text:?} {diff:?}"
            );
        }
        // A small search budget: the full path must be the one to run out.
        let patch = Patch::parse("@@\n x\n-y\n+z\n").expect("parses");
        let lines = Lines::split("x\ny\n");
        let tight = Options {
            search_budget: 10,
            ..Options::default()
        };
        assert!(locate(&lines, &patch.ops[0].hunks, "", &tight).is_none());
        assert!(locate(&lines, &patch.ops[0].hunks, "", &Options::default()).is_some());
    }
}
