//! One multi-pattern scan of the text for every hunk's rarest line at once (issue 20, W2b).
//!
//! Scanning the whole text once per hunk with [`memchr::memmem`] costs ten scans for ten
//! hunks. Here every hunk's rarest line is searched in one pass with a packed SIMD
//! multi-pattern searcher (Teddy, from `aho-corasick`), which is fastest when the first bytes
//! of each pattern are rare. A whole line usually starts with indentation, so each hunk's
//! pattern is a **needle**: the part of its line that starts where four bytes are rarest in a
//! sample of the text. A needle found at `h` names the line that starts at `h - offset`; that
//! line counts (as in [`super::scan`]) only when it starts a line and equals the hunk's line,
//! exactly or after trailing whitespace.
//!
//! The answer per hunk is every such line in the whole text, in order, or nothing (the caller
//! then scans for that hunk alone): a needle found more than [`NEEDLE_CAP`] times, a line found
//! more than the caller's cap, or a line shorter than a needle. Each occurrence of every needle
//! is seen: the searcher reports the leftmost match at or after a position, every needle is
//! compared there, and the search resumes one byte later. A dropped hunk's needle is taken out
//! by building the searcher again, so the work is one pass plus at most [`NEEDLE_CAP`]
//! comparisons of each needle: O(bytes).

use aho_corasick::packed::{Config, MatchKind, Searcher};
use aho_corasick::Span;

use super::{line_at, Cmp};

/// Occurrences of one needle anywhere (a line start or not) beyond which its hunk is dropped.
const NEEDLE_CAP: usize = 256;

/// Bytes a needle starts with that the searcher tells apart (Teddy's longest mask).
const NEEDLE_MIN: usize = 4;

/// Bytes of the text counted to rank bytes by frequency: `SAMPLE_CHUNKS` pieces spread evenly.
const SAMPLE_CHUNK: usize = 1024;
const SAMPLE_CHUNKS: usize = 16;

/// One line of the text equal to a hunk's searched line: its start, its end (before the
/// terminator) and how it compares.
pub(super) type Hit = (usize, usize, Cmp);

/// One hunk's searched line and its needle.
struct Probe<'p> {
    line: &'p [u8],
    /// Where the needle starts in `line`; the needle runs to the end of the line.
    offset: usize,
    /// Needle occurrences seen so far.
    seen: usize,
    hits: Vec<Hit>,
    live: bool,
}

impl Probe<'_> {
    fn needle(&self) -> &[u8] {
        &self.line[self.offset..]
    }
}

/// Every line of `bytes` equal to each of `lines` (one per hunk), at most `cap` of each, found
/// in one pass: `Some(hits)` per line in text order, `None` for a line given up. `None`
/// overall when the packed searcher cannot run here (no SIMD, or too many lines).
pub(super) fn line_hits(
    bytes: &[u8],
    lines: &[&[u8]],
    trim_end: bool,
    cap: usize,
) -> Option<Vec<Option<Vec<Hit>>>> {
    let counts = sample_counts(bytes);
    let mut probes: Vec<Probe<'_>> = lines
        .iter()
        .map(|&line| Probe {
            line,
            offset: rarest_offset(line, &counts),
            seen: 0,
            hits: Vec::new(),
            live: line.len() >= NEEDLE_MIN,
        })
        .collect();
    let mut searcher = match probes.iter().any(|p| p.live) {
        true => Some(build(&probes)?),
        false => None,
    };
    let mut at = 0usize;
    while let Some(s) = &searcher {
        let Some(m) = s.find_in(bytes, Span::from(at..bytes.len())) else {
            break;
        };
        let h = m.start();
        if visit(bytes, h, &mut probes, trim_end, cap) {
            // A hunk was dropped: the searcher goes on without its needle.
            searcher = build(&probes);
        }
        at = h + 1;
    }
    Some(
        probes
            .into_iter()
            .map(|p| p.live.then_some(p.hits))
            .collect(),
    )
}

/// Every live needle that starts at `h` is counted and the line it names checked; `true`
/// when a hunk was dropped.
fn visit(bytes: &[u8], h: usize, probes: &mut [Probe<'_>], trim_end: bool, cap: usize) -> bool {
    let mut dropped = false;
    for p in probes.iter_mut().filter(|p| p.live) {
        if !bytes[h..].starts_with(p.needle()) {
            continue;
        }
        p.seen += 1;
        let hit = h
            .checked_sub(p.offset)
            .and_then(|start| line_at(bytes, start, p.line, trim_end));
        if let Some(hit) = hit {
            p.hits.push(hit);
        }
        if p.seen > NEEDLE_CAP || p.hits.len() > cap {
            (p.live, p.hits) = (false, Vec::new());
            dropped = true;
        }
    }
    dropped
}

/// The packed searcher for the live needles, or `None` when none is left or it cannot run.
fn build(probes: &[Probe<'_>]) -> Option<Searcher> {
    let mut b = Config::new().match_kind(MatchKind::LeftmostFirst).builder();
    let mut any = false;
    for p in probes.iter().filter(|p| p.live) {
        b.add(p.needle());
        any = true;
    }
    if !any {
        return None;
    }
    b.build()
}

/// How often each byte occurs in a sample of the text (all of it when it is short).
fn sample_counts(bytes: &[u8]) -> [u32; 256] {
    let mut counts = [0u32; 256];
    let mut count = |piece: &[u8]| piece.iter().for_each(|&b| counts[b as usize] += 1);
    if bytes.len() <= SAMPLE_CHUNK * SAMPLE_CHUNKS {
        count(bytes);
    } else {
        let step = (bytes.len() - SAMPLE_CHUNK) / (SAMPLE_CHUNKS - 1);
        for k in 0..SAMPLE_CHUNKS {
            count(&bytes[k * step..k * step + SAMPLE_CHUNK]);
        }
    }
    counts
}

/// Where in `line` the [`NEEDLE_MIN`] bytes are rarest in the sample (the product of their
/// counts; the first of equals), so the searcher's fingerprint seldom matches elsewhere.
fn rarest_offset(line: &[u8], counts: &[u32; 256]) -> usize {
    if line.len() < NEEDLE_MIN {
        return 0;
    }
    let score = |o: usize| -> u128 {
        line[o..o + NEEDLE_MIN]
            .iter()
            .map(|&b| u128::from(counts[b as usize]) + 1)
            .product()
    };
    (0..=line.len() - NEEDLE_MIN)
        .min_by_key(|&o| (score(o), o))
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every line equal to `line` (exactly or, with `trim_end`, after trailing whitespace),
    /// found one line at a time.
    fn naive(bytes: &[u8], line: &[u8], trim_end: bool) -> Vec<Hit> {
        let mut out = Vec::new();
        let mut start = 0;
        while start <= bytes.len() {
            let end = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |i| start + i);
            match super::super::compare(&bytes[start..end], line, trim_end) {
                Cmp::Differs => {}
                cmp => out.push((start, end, cmp)),
            }
            start = end + 1;
        }
        out
    }

    /// Lines that hold each other, at their start, their end or inside, and trailing
    /// whitespace twins: a needle found anywhere but where its line starts.
    const POOL: [&str; 10] = [
        "abcd",
        "abcd ",
        "xabcd",
        "abcdabcd",
        "ab cd",
        "zzzz abcd zzzz",
        "abc",
        "",
        "abcd\t",
        "zzzz",
    ];

    /// The one pass finds every line equal to each searched line, as a line-by-line search
    /// does, or gives the line up only past a cap (or when it is shorter than a needle).
    #[test]
    fn one_pass_finds_every_line() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut below = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        let (mut found, mut given_up) = (0, 0);
        for case in 0..3_000 {
            let n = 1 + below(if case % 10 == 0 { 800 } else { 40 });
            let text: String = (0..n)
                .map(|_| POOL[below(POOL.len())])
                .collect::<Vec<_>>()
                .join("\n");
            let bytes = text.as_bytes();
            let lines: Vec<&[u8]> = (0..1 + below(6))
                .map(|_| POOL[below(POOL.len())].as_bytes())
                .collect();
            let trim_end = below(2) == 0;
            let cap = [1, 3, 64][below(3)];
            let got = line_hits(bytes, &lines, trim_end, cap).expect("the searcher runs here");
            for (line, got) in lines.iter().zip(&got) {
                let want = naive(bytes, line, trim_end);
                match got {
                    Some(hits) => {
                        assert_eq!(hits, &want, "case {case}: {line:?} in {text:?}");
                        found += 1;
                    }
                    None => {
                        let offset = rarest_offset(line, &sample_counts(bytes));
                        let needle = &line[offset.min(line.len())..];
                        let needles = (0..bytes.len())
                            .filter(|&h| bytes[h..].starts_with(needle))
                            .count();
                        assert!(
                            line.len() < NEEDLE_MIN || want.len() > cap || needles > NEEDLE_CAP,
                            "case {case}: {line:?} given up in {text:?}"
                        );
                        given_up += 1;
                    }
                }
            }
        }
        assert!(
            found > 3_000 && given_up > 500,
            "{found} found, {given_up} given up"
        );
    }
}
