//! The loose levels (trim, collapse, fold) over the raw text: no whole-file line split.
//!
//! When [`super::raw`] cannot answer because a hunk matches only at a looser level, the line
//! path splits the whole file into lines and searches it level by level. This path answers the
//! same common case — every hunk plain (the eligibility of [`super::fast`]), matching uniquely
//! at its first level, in order — from the bytes, and leaves every rule of the placement and
//! of the build to the line path run on a few lines only:
//!
//! - a token of each hunk's old side (a run of printable ASCII bytes followed by an ASCII byte
//!   or the line's end, the longest one) is searched with [`memchr::memmem`] over the whole
//!   text. No level changes such a token: trim and collapse keep every run of non-whitespace
//!   bytes, and the fold of a pure-ASCII line is its collapse (NFKC leaves ASCII alone and no
//!   fold maps an ASCII character other than whitespace), so a file line that equals the
//!   token's pattern line at any level holds the token, or holds a byte `>= 0x80` (at fold,
//!   where those lines are candidates too);
//! - every window around a candidate line is compared at every level with [`normalize`], and
//!   its level is the loosest of its lines' strictest levels. The hunk's level is the
//!   strictest level any window reaches; exactly one window may reach it (through trim-end:
//!   exact and trim-end count as one level), and it must be looser than trim-end (the exact
//!   ones are [`super::raw`]'s or the line path's), else `None`;
//! - each window, with one line of margin on each side (the edge-indentation check reads the
//!   lines beyond the window), is split into lines and given to the line path
//!   ([`super::locate_hunks`], then the builder with the file's indentation unit learned from
//!   the whole text): no other place exists at its level or a stricter one anywhere in the file,
//!   so that stretch gets the whole file's answer. Its placement must be the window at the
//!   level found, else `None`;
//! - the answers are shifted by the line numbers of the stretches (counted with `memchr` from
//!   one stretch to the next) and the new text is the untouched bytes around the stretches'
//!   built texts.
//!
//! Work is O(bytes): per hunk at most [`TRIES`] scans of the text (and one ASCII check at
//! fold), each stopped after [`HIT_CAP`] candidate lines, each candidate verified over the
//! hunk's length.

use memchr::memmem::Finder;

use super::raw::LfText;
use super::{check_overlaps, fast, locate_hunks, old_side, Level, Placement};
use crate::build::{build_update_in, Built, BuiltHunk, Change};
use crate::level::normalize;
use crate::options::{DiffStyle, Options};
use crate::patch::{Hunk, LineKind};
use crate::text::Lines;

/// Candidate lines of one token beyond which it is given up for the next one.
const HIT_CAP: usize = 256;

/// Distinct tokens of one hunk searched, longest first, before the file goes to the line path.
const TRIES: usize = 3;

/// Hunks beyond which the line path answers (each hunk here is a scan of the whole text).
const HUNK_CAP: usize = 16;

/// The shortest token searched: a shorter one would find most lines.
const MIN_TOKEN: usize = 3;

/// One hunk's window: its byte range (terminators included) and its level.
#[derive(Clone, Copy, Debug)]
struct Window {
    start: usize,
    end: usize,
    level: Level,
}

/// Places and builds every hunk of an LF text (`body`, after its BOM) exactly as the line path
/// would, when each matches at a loose level, or returns `None` (the line path then runs).
#[cfg(test)]
pub(crate) fn update(
    body: &str,
    bom: bool,
    hunks: &[Hunk],
    path: &str,
    opts: &Options,
) -> Option<(Vec<Placement>, Built)> {
    update_with(body, bom, hunks, path, opts, &mut LfText::default())
}

/// [`update`], with the text's `\r` check shared through `lf`.
pub(crate) fn update_with(
    body: &str,
    bom: bool,
    hunks: &[Hunk],
    path: &str,
    opts: &Options,
    lf: &mut LfText,
) -> Option<(Vec<Placement>, Built)> {
    let bytes = body.as_bytes();
    if hunks.is_empty()
        || hunks.len() > HUNK_CAP
        || opts.first_match
        || opts.diff != DiffStyle::None
        || opts.max_level < Level::Trim
        || bytes.is_empty()
        || !body.ends_with('\n')
        || !hunks
            .iter()
            .all(|h| fast::eligible(h) && !h.old_no_newline && !h.new_no_newline)
    {
        return None;
    }
    let olds: Vec<Vec<&str>> = hunks.iter().map(|h| old_side(h, h.lines.len())).collect();
    if olds
        .iter()
        .any(|old| old.is_empty() || old.iter().any(|l| fast::holds_break(l)))
        || !lf.check(bytes)
    {
        return None;
    }
    let mut stretches = Vec::with_capacity(hunks.len());
    let mut region = 0usize;
    for old in &olds {
        let w = unique_window(bytes, old, opts.max_level)?;
        let s = with_margin(bytes, w);
        // In order, after the previous hunk's stretch (so after its lines, as the region is).
        if s.0 < region {
            return None;
        }
        region = s.1;
        stretches.push((s, w));
    }
    build_all(body, bom, hunks, &olds, &stretches, path, opts)
}

/// `Some` when the full path's search budget cannot run out on a file of `n` lines: the bound
/// of [`super::raw`] with room for every level's passes and candidates.
fn within_budget(n: usize, h: usize, olds: &[Vec<&str>], opts: &Options) -> Option<()> {
    let m_total: u64 = olds.iter().map(|o| o.len() as u64).sum();
    let bound = (h as u64 + 4)
        .saturating_mul(64)
        .saturating_mul(n as u64 + 1)
        .saturating_add(m_total.saturating_mul(4096))
        .saturating_add(10_000);
    (bound < opts.search_budget).then_some(())
}

/// The window's byte range with one line more on each side, where there is one.
fn with_margin(bytes: &[u8], w: Window) -> (usize, usize) {
    let start = match w.start.checked_sub(1) {
        Some(nl) => memchr::memrchr(b'\n', &bytes[..nl]).map_or(0, |i| i + 1),
        None => 0,
    };
    let end = if w.end < bytes.len() {
        memchr::memchr(b'\n', &bytes[w.end..]).map_or(bytes.len(), |i| w.end + i + 1)
    } else {
        w.end
    };
    (start, end)
}

/// The tokens of an old side, longest first (the first of equals), distinct: `(line, token)`.
/// Only the best [`TRIES`] are kept while reading (a long hunk has many tokens).
fn tokens<'o>(old: &[&'o str]) -> Vec<(usize, &'o [u8])> {
    let mut out: Vec<(usize, &[u8])> = Vec::with_capacity(TRIES + 1);
    for (k, l) in old.iter().enumerate() {
        let b = l.as_bytes();
        let mut i = 0;
        while i < b.len() {
            if !(0x21..=0x7E).contains(&b[i]) {
                i += 1;
                continue;
            }
            let s = i;
            while i < b.len() && (0x21..=0x7E).contains(&b[i]) {
                i += 1;
            }
            // A non-ASCII byte next could be a combining mark that NFKC joins to the token.
            if i - s >= MIN_TOKEN && (i == b.len() || b[i] < 0x80) {
                offer(&mut out, (k, &b[s..i]));
            }
        }
    }
    out
}

/// Keeps `t` among the best [`TRIES`] distinct tokens of `out` (longest first, then first
/// read), as sorting every token and keeping the first distinct ones would.
fn offer<'o>(out: &mut Vec<(usize, &'o [u8])>, t: (usize, &'o [u8])) {
    if out.iter().any(|o| o.1 == t.1) {
        return;
    }
    let at = out
        .iter()
        .position(|o| o.1.len() < t.1.len())
        .unwrap_or(out.len());
    if at < TRIES {
        out.insert(at, t);
        out.truncate(TRIES);
    }
}

/// The one window of `old` at its first level, when that level is looser than trim-end and
/// no other window reaches it; `None` otherwise or when every token is too common.
fn unique_window(bytes: &[u8], old: &[&str], max: Level) -> Option<Window> {
    for (k, token) in tokens(old) {
        let Some(lines) = token_lines(bytes, token) else {
            continue;
        };
        let mut windows: Vec<Window> = lines
            .iter()
            .filter_map(|&(s, e)| window_at(bytes, old, k, s, e, max))
            .collect();
        let strictest = windows.iter().map(|w| w.level).min();
        if max == Level::Fold && strictest.is_none_or(|l| l > Level::Collapse) {
            // Only a fold window so far: lines holding non-ASCII bytes may fold to the token's
            // line without holding the token.
            let others = non_ascii_lines(bytes)?;
            let more = others
                .iter()
                .filter(|l| lines.binary_search(l).is_err())
                .filter_map(|&(s, e)| window_at(bytes, old, k, s, e, max));
            windows.extend(more);
        }
        return decide(&windows);
    }
    None
}

/// The window at the strictest level among `windows`, when it is the only one there (exact
/// and trim-end counted as one level) and that level is looser than trim-end.
fn decide(windows: &[Window]) -> Option<Window> {
    let first = windows.iter().map(|w| w.level).min()?;
    if first <= Level::TrimEnd {
        return None;
    }
    let mut at = windows.iter().filter(|w| w.level <= first);
    let w = at.next()?;
    at.next().is_none().then_some(*w)
}

/// The lines (start, end without the `\n`) holding `token`, in order, or `None` past
/// [`HIT_CAP`] of them.
fn token_lines(bytes: &[u8], token: &[u8]) -> Option<Vec<(usize, usize)>> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    let mut past = 0usize;
    for p in Finder::new(token).find_iter(bytes) {
        if p < past {
            continue; // a second hit on a line already taken
        }
        let s = memchr::memrchr(b'\n', &bytes[..p]).map_or(0, |i| i + 1);
        let e = memchr::memchr(b'\n', &bytes[p..]).map_or(bytes.len(), |i| p + i);
        if out.len() == HIT_CAP {
            return None;
        }
        out.push((s, e));
        past = e + 1;
    }
    Some(out)
}

/// The lines holding a byte `>= 0x80`, in order, or `None` past [`HIT_CAP`] of them.
fn non_ascii_lines(bytes: &[u8]) -> Option<Vec<(usize, usize)>> {
    const BLOCK: usize = 4096;
    let mut out: Vec<(usize, usize)> = Vec::new();
    let mut at = 0usize;
    while at < bytes.len() {
        let end = (at + BLOCK).min(bytes.len());
        if bytes[at..end].is_ascii() {
            at = end;
            continue;
        }
        let Some(i) = bytes[at..end].iter().position(|&b| b >= 0x80) else {
            at = end;
            continue;
        };
        let p = at + i;
        let s = memchr::memrchr(b'\n', &bytes[..p]).map_or(0, |i| i + 1);
        let e = memchr::memchr(b'\n', &bytes[p..]).map_or(bytes.len(), |i| p + i);
        if out.len() == HIT_CAP {
            return None;
        }
        out.push((s, e));
        at = e + 1;
    }
    Some(out)
}

/// The strictest level up to `max` at which `line` equals `pat`.
fn line_level(line: &[u8], pat: &str, max: Level) -> Option<Level> {
    let line = std::str::from_utf8(line).ok()?;
    let (mut a, mut b) = (String::new(), String::new());
    max.up_to()
        .iter()
        .copied()
        .find(|&l| normalize(line, l, &mut a) == normalize(pat, l, &mut b))
}

/// The window whose line `k` is the line at `s..e`, if every line matches at some level up to
/// `max`, with the loosest of their levels.
fn window_at(
    bytes: &[u8],
    old: &[&str],
    k: usize,
    s: usize,
    e: usize,
    max: Level,
) -> Option<Window> {
    let mut level = line_level(&bytes[s..e], old[k], max)?;
    // Backwards: each line ends with the `\n` before the next one's start.
    let mut start = s;
    for pat in old[..k].iter().rev() {
        let end = start.checked_sub(1)?;
        let ls = memchr::memrchr(b'\n', &bytes[..end]).map_or(0, |i| i + 1);
        level = level.max(line_level(&bytes[ls..end], pat, max)?);
        start = ls;
    }
    let mut end = e;
    for pat in &old[k + 1..] {
        let ls = end + 1;
        if ls >= bytes.len() {
            return None;
        }
        end = memchr::memchr(b'\n', &bytes[ls..]).map_or(bytes.len(), |i| ls + i);
        level = level.max(line_level(&bytes[ls..end], pat, max)?);
    }
    Some(Window {
        start,
        end: (end + 1).min(bytes.len()),
        level,
    })
}

/// Each stretch placed and built by the line path, and the pieces joined: the placements and
/// reports shifted to the whole text's line numbers. `None` when the line path's answer on a
/// stretch is not the window found, or the budget bound does not hold.
fn build_all(
    body: &str,
    bom: bool,
    hunks: &[Hunk],
    olds: &[Vec<&str>],
    stretches: &[((usize, usize), Window)],
    path: &str,
    opts: &Options,
) -> Option<(Vec<Placement>, Built)> {
    let bytes = body.as_bytes();
    let added: usize = hunks
        .iter()
        .flat_map(|h| &h.lines)
        .filter(|l| l.kind == LineKind::Add)
        .map(|l| l.text.len() + 1)
        .sum();
    let mut text = String::with_capacity(body.len() + added + 3);
    if bom {
        text.push('\u{feff}');
    }
    let (mut placements, mut built_hunks, mut changes) = (Vec::new(), Vec::new(), Vec::new());
    let (mut at, mut line, mut delta) = (0usize, 0usize, 0isize);
    for (hi, (hunk, &((sa, sb), w))) in hunks.iter().zip(stretches).enumerate() {
        line += memchr::memchr_iter(b'\n', &bytes[at..sa]).count();
        let (mut p, b) = stretch(body, (sa, sb), hunk, path, opts)?;
        if p.start != usize::from(w.start != sa) || p.level != w.level {
            return None;
        }
        p.start += line;
        let new_base = (line as isize + delta) as usize;
        for c in b.changes {
            changes.push(Change {
                old_start: c.old_start + line,
                new_start: c.new_start + new_base,
                hunk: hi + 1,
                ..c
            });
        }
        let bh = b.hunks.first()?.clone();
        built_hunks.push(BuiltHunk {
            new_start: bh.new_start + new_base,
            ..bh
        });
        delta += bh.new_len as isize - p.old_len as isize;
        text.push_str(&body[at..sa]);
        text.push_str(&b.text);
        line += memchr::memchr_iter(b'\n', &bytes[sa..sb]).count();
        at = sb;
        placements.push(p);
    }
    text.push_str(&body[at..]);
    let n = line + memchr::memchr_iter(b'\n', &bytes[at..]).count();
    within_budget(n, hunks.len(), olds, opts)?;
    let fuzz = placements
        .iter()
        .fold(0u32, |f, p| f.saturating_add(p.fuzz));
    if opts.max_fuzz.is_some_and(|max| fuzz > max) {
        return None;
    }
    check_overlaps(hunks, &placements, path).ok()?;
    let built = Built {
        text,
        hunks: built_hunks,
        changes,
        lf_starts: None,
    };
    Some((placements, built))
}

/// The line path on the stretch `sa..sb` of `body` for one hunk: its placement (in the
/// stretch's line numbers) and built stretch, when it places the hunk plainly.
fn stretch(
    body: &str,
    (sa, sb): (usize, usize),
    hunk: &Hunk,
    path: &str,
    opts: &Options,
) -> Option<(Placement, Built)> {
    let lines = Lines::split(&body[sa..sb]);
    let one = std::slice::from_ref(hunk);
    let placed = locate_hunks(&lines, one, path, opts, false).ok()?;
    let [p] = &placed[..] else {
        return None;
    };
    if p.already_applied
        || p.out_of_order
        || p.end_of_file
        || p.anchor_ignored
        || p.context_relaxed
        || p.bend.is_some()
        || p.candidates != 1
        || p.used_lines != hunk.lines.len()
    {
        return None;
    }
    let built = build_update_in(&lines, false, one, &placed, path, opts, Some(body)).ok()?;
    Some((placed.into_iter().next()?, built))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every token of an old side, sorted longest first (stable) and the first distinct
    /// [`TRIES`] kept: what [`tokens`] keeps while reading.
    fn sorted_tokens<'o>(old: &[&'o str]) -> Vec<(usize, &'o [u8])> {
        let mut all = Vec::new();
        for (k, l) in old.iter().enumerate() {
            let b = l.as_bytes();
            let mut i = 0;
            while i < b.len() {
                let s = i;
                while i < b.len() && (0x21..=0x7E).contains(&b[i]) {
                    i += 1;
                }
                if i - s >= MIN_TOKEN && (i == b.len() || b[i] < 0x80) {
                    all.push((k, &b[s..i]));
                }
                i += 1;
            }
        }
        all.sort_by_key(|t: &(usize, &[u8])| std::cmp::Reverse(t.1.len()));
        let mut out: Vec<(usize, &[u8])> = Vec::new();
        for t in all {
            if out.len() < TRIES && !out.iter().any(|o| o.1 == t.1) {
                out.push(t);
            }
        }
        out
    }

    #[test]
    fn tokens_kept_while_reading_are_the_sorted_ones() {
        let sides: [&[&str]; 5] = [
            &["abc def", "abcd abc", "xyz xyzw abcd"],
            &["aaa bbb ccc ddd", "eee"],
            &["caf\u{e9}s fine", "x\u{301}yz done"],
            &["tok1 tok2 tok3 tok4 tok5", "tok6 longer tok1"],
            &["", "ab", "a=\u{338}bcd efgh"],
        ];
        for old in sides {
            assert_eq!(tokens(old), sorted_tokens(old), "{old:?}");
        }
    }
}
