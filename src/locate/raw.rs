//! The exact path over the raw text: no line split at all.
//!
//! [`super::fast`] still splits the whole file into lines (the builder and the reports need
//! line numbers), and that split alone costs more than three copies of the file. This path
//! answers the same common case — every hunk plain, anchorless, found exactly once, in order —
//! from the bytes:
//!
//! - each hunk's rarest line (its longest, then the next longest distinct ones when a line is
//!   too common) is searched over the whole text, for four hunks or more all at once in one
//!   pass ([`multi`]), else with [`memchr::memmem`] one hunk at a time; a hit counts when it
//!   starts a line and ends one (or ends one after trailing whitespace: such a line is a
//!   trim-end candidate, which counts with the exact ones, SPEC §3.2);
//! - the window around each such line is verified line by line outwards (`memchr` to the next
//!   terminator), at the trim-end level when the options allow it: a window that matches only
//!   with trailing whitespace ignored, or a second window, sends the file to the line path;
//! - the line number of each window is counted with `memchr` over the bytes since the previous
//!   window only;
//! - the new text is the untouched byte ranges copied around the hunks' lines.
//!
//! It answers only when [`super::fast`] would (the same eligibility per hunk) and on LF text
//! (no `\r` anywhere, so every line ends with `\n` or is the unterminated last line); a hunk
//! that reaches an unterminated last line, that carries `\ No newline at end of file`, a diff
//! requested in the options, or anything else in doubt returns `None`, and the caller runs the
//! line path from the start. The answer — placements, built text, hunk reports and changes —
//! is the line path's: `tests` compares the two on generated repetitive files.
//!
//! Work is O(bytes): one pass for all hunks ([`multi`], bounded there), then for at most
//! [`HUNK_CAP`] hunks at most [`TRIES`] scans of the text each, each stopped after
//! [`RARE_HIT_CAP`] lines equal to the searched one, each of those lines verified over the
//! hunk's length.

use memchr::memmem::Finder;

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
mod multi;
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
mod multi {
    //! No packed SIMD searcher on this target: every hunk is scanned for alone.
    pub(super) type Hit = (usize, usize, super::Cmp);

    pub(super) fn line_hits(
        _: &[u8],
        _: &[&[u8]],
        _: bool,
        _: usize,
    ) -> Option<Vec<Option<Vec<Hit>>>> {
        None
    }
}

use super::{check_overlaps, fast, old_side, Level, Placement};
use crate::build::{Built, BuiltHunk, Change};
use crate::options::{DiffStyle, Options};
use crate::patch::{Hunk, LineKind};

/// Lines equal to the searched line beyond which that line is given up for a rarer one.
const RARE_HIT_CAP: usize = 64;

/// Distinct lines of one hunk searched, longest first, before the file goes to the line path.
const TRIES: usize = 4;

/// Hunks scanned for one at a time beyond which the line path answers (each is a scan of the
/// whole text).
const HUNK_CAP: usize = 16;

/// Hunks beyond which the line path answers even with the one-pass scan ([`multi`]).
const MULTI_HUNK_CAP: usize = 64;

/// Hunks, and bytes of text, from which the hunks are found in one pass ([`multi`]). The
/// packed searcher reads the text at about three times the cost of one `memmem` scan (37
/// instructions per 32 bytes against about 12, callgrind on W2b), so up to three hunks are
/// scanned for one at a time; in a short text building the searcher costs more than it saves.
pub(crate) const MULTI_FROM: (usize, usize) = (4, 64 * 1024);

/// How one file line compares with one pattern line.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Cmp {
    Exact,
    /// Equal only after trailing whitespace is removed.
    TrimEnd,
    Differs,
}

/// Whitespace that the trim-end level removes from a line (no `\r`/`\n` inside a line here).
fn is_trailing_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\x0B' | b'\x0C')
}

fn compare(line: &[u8], pat: &[u8], trim_end: bool) -> Cmp {
    if line == pat {
        Cmp::Exact
    } else if trim_end
        && line.len() > pat.len()
        && line.starts_with(pat)
        && line[pat.len()..].iter().all(|&b| is_trailing_ws(b))
    {
        Cmp::TrimEnd
    } else {
        Cmp::Differs
    }
}

/// One hunk's unique window: its byte range in the text (terminators included).
#[derive(Clone, Copy)]
struct Window {
    start: usize,
    end: usize,
}

/// Places and builds every hunk of an LF text (`body`, after its BOM) exactly as the line path
/// would, or returns `None` when it cannot be sure (then the line path runs from the start).
#[cfg(test)]
pub(crate) fn update(
    body: &str,
    bom: bool,
    hunks: &[Hunk],
    path: &str,
    opts: &Options,
) -> Option<(Vec<Placement>, Built)> {
    update_with(
        body,
        bom,
        hunks,
        path,
        opts,
        (&mut LfText::default(), MULTI_FROM),
    )
}

/// Whether a text holds no `\r`, found out once for the raw and the loose path.
#[derive(Default)]
pub(crate) struct LfText(Option<bool>);

impl LfText {
    /// True when `bytes` (the same text at every call) holds no `\r`.
    pub(crate) fn check(&mut self, bytes: &[u8]) -> bool {
        *self
            .0
            .get_or_insert_with(|| memchr::memchr(b'\r', bytes).is_none())
    }
}

/// [`update`], with the text's `\r` check shared through `lf`, and the one-pass scan used
/// from `multi_from` (hunks, bytes of text) on ([`MULTI_FROM`] outside the tests).
pub(crate) fn update_with(
    body: &str,
    bom: bool,
    hunks: &[Hunk],
    path: &str,
    opts: &Options,
    (lf, multi_from): (&mut LfText, (usize, usize)),
) -> Option<(Vec<Placement>, Built)> {
    let bytes = body.as_bytes();
    if hunks.is_empty()
        || hunks.len() > MULTI_HUNK_CAP
        || opts.first_match
        || opts.diff != DiffStyle::None
        || bytes.is_empty()
        || (opts.ensure_final_newline && !body.ends_with('\n'))
        || !hunks
            .iter()
            .all(|h| fast::eligible(h) && !h.old_no_newline && !h.new_no_newline)
    {
        return None;
    }
    let olds: Vec<Vec<&str>> = hunks.iter().map(|h| old_side(h, h.lines.len())).collect();
    if olds.iter().any(|old| !fast::plain_old_side(old)) || !lf.check(bytes) {
        return None;
    }
    within_budget(bytes, hunks.len(), &olds, opts)?;
    let trim_end = opts.max_level >= Level::TrimEnd;
    let windows = windows(body, &olds, trim_end, multi_from)?;
    let placements = placements(bytes, hunks, &olds, &windows);
    check_overlaps(hunks, &placements, path).ok()?;
    let mut built = build(body, bom, hunks, &placements, &windows);
    built.lf_starts = Some(
        placements
            .iter()
            .zip(&windows)
            .flat_map(|(p, w)| [(p.start, w.start), (p.start + p.old_len, w.end)])
            .collect(),
    );
    Some((placements, built))
}

/// Each hunk's one window, in order, each after the previous one's lines, or `None`. From
/// `multi_from` (hunks, bytes of text) on, every hunk's rarest line is found in one pass
/// ([`multi`]); a hunk that pass gives up on, or every hunk without it, is scanned for alone
/// ([`unique_window`]), for at most [`HUNK_CAP`] hunks.
fn windows(
    body: &str,
    olds: &[Vec<&str>],
    trim_end: bool,
    (min_hunks, min_bytes): (usize, usize),
) -> Option<Vec<Window>> {
    let bytes = body.as_bytes();
    let rares: Vec<usize> = olds.iter().map(|old| rarest(old)).collect();
    let hits = if olds.len() >= min_hunks && bytes.len() >= min_bytes {
        let lines: Vec<&[u8]> = olds
            .iter()
            .zip(&rares)
            .map(|(o, &r)| o[r].as_bytes())
            .collect();
        multi::line_hits(bytes, &lines, trim_end, RARE_HIT_CAP)
    } else {
        None
    };
    // Without the one pass, more hunks than are scanned for alone: the line path, at once.
    if hits.is_none() && olds.len() > HUNK_CAP {
        return None;
    }
    let mut alone = 0usize;
    let mut windows = Vec::with_capacity(olds.len());
    let mut region = 0usize;
    for (i, old) in olds.iter().enumerate() {
        let found = hits
            .as_ref()
            .and_then(|h| h[i].as_ref())
            .filter(|_| !old[rares[i]].is_empty());
        let w = match found {
            Some(list) => match judge(bytes, old, rares[i], trim_end, list.iter().copied()) {
                Scan::Found(w) => w,
                _ => return None,
            },
            None => {
                alone += 1;
                if alone > HUNK_CAP {
                    return None;
                }
                unique_window(bytes, old, trim_end)?
            }
        };
        // In order, after the previous hunk's lines (the full path's region search).
        if w.start < region {
            return None;
        }
        // An unterminated last line in the window: the line path decides its terminator.
        if w.end == bytes.len() && !body.ends_with('\n') {
            return None;
        }
        region = w.end;
        windows.push(w);
    }
    Some(windows)
}

/// The index of `old`'s rarest line as [`unique_window`] tries it first: the first longest.
fn rarest(old: &[&str]) -> usize {
    let mut best = 0;
    for (k, l) in old.iter().enumerate() {
        if l.len() > old[best].len() {
            best = k;
        }
    }
    best
}

/// `Some` when the full path's search budget cannot run out on this file (the bound of
/// [`super::fast`], with the line count taken as the byte count unless that is too much).
fn within_budget(bytes: &[u8], h: usize, olds: &[Vec<&str>], opts: &Options) -> Option<()> {
    let m_total: u64 = olds.iter().map(|o| o.len() as u64).sum();
    let bound = |n: u64| {
        (h as u64 + 4)
            .saturating_mul(n + 1)
            .saturating_add(m_total.saturating_mul(4))
            .saturating_add(1000)
    };
    if bound(bytes.len() as u64) < opts.search_budget {
        return Some(());
    }
    let n = memchr::memchr_iter(b'\n', bytes).count() as u64 + 1;
    (bound(n) < opts.search_budget).then_some(())
}

/// The one window of `old` in the whole text, or `None` when there is none, more than one, one
/// at the trim-end level only, or every line tried is too common.
fn unique_window(bytes: &[u8], old: &[&str], trim_end: bool) -> Option<Window> {
    // Distinct lines, longest first (the first of equals): long lines are the rarest in code.
    let mut order: Vec<usize> = (0..old.len()).collect();
    order.sort_by(|&a, &b| old[b].len().cmp(&old[a].len()).then(a.cmp(&b)));
    let mut tried: Vec<&str> = Vec::with_capacity(TRIES);
    for &rare in &order {
        if tried.len() == TRIES || old[rare].is_empty() {
            return None;
        }
        if tried.contains(&old[rare]) {
            continue;
        }
        tried.push(old[rare]);
        match scan(bytes, old, rare, trim_end) {
            Scan::Found(w) => return Some(w),
            Scan::TooCommon => continue,
            Scan::Doubt => return None,
        }
    }
    None
}

enum Scan {
    /// Exactly one window, exact.
    Found(Window),
    /// The searched line occurs more than [`RARE_HIT_CAP`] times: try a rarer one.
    TooCommon,
    /// No window, two, or one at the trim-end level only: the line path decides.
    Doubt,
}

/// Every line equal to `old[rare]` (at the trim-end level when `trim_end`), and the windows
/// around them.
fn scan(bytes: &[u8], old: &[&str], rare: usize, trim_end: bool) -> Scan {
    let pat = old[rare].as_bytes();
    let finder = Finder::new(pat);
    let hits = finder
        .find_iter(bytes)
        .filter_map(|p| line_at(bytes, p, pat, trim_end));
    judge(bytes, old, rare, trim_end, hits)
}

/// The line that starts at `p` when it equals `pat` (exactly, or after trailing whitespace
/// when `trim_end`): its start, its end before the terminator, and how it compares.
fn line_at(bytes: &[u8], p: usize, pat: &[u8], trim_end: bool) -> Option<(usize, usize, Cmp)> {
    if p > 0 && bytes[p - 1] != b'\n' {
        return None;
    }
    if bytes.len() - p < pat.len() || &bytes[p..p + pat.len()] != pat {
        return None;
    }
    let line_end = memchr::memchr(b'\n', &bytes[p..]).map_or(bytes.len(), |i| p + i);
    match compare(&bytes[p..line_end], pat, trim_end) {
        Cmp::Differs => None,
        cmp => Some((p, line_end, cmp)),
    }
}

/// The windows around `hits` (the lines equal to `old[rare]`, in text order): one exact
/// window, none or a doubtful one, or too many hits to try.
fn judge(
    bytes: &[u8],
    old: &[&str],
    rare: usize,
    trim_end: bool,
    hits: impl Iterator<Item = (usize, usize, Cmp)>,
) -> Scan {
    let mut found: Option<Window> = None;
    for (n, (p, line_end, cmp)) in hits.enumerate() {
        if n >= RARE_HIT_CAP {
            return Scan::TooCommon;
        }
        let Some((w, exact)) = window_at(bytes, old, rare, p, line_end, cmp, trim_end) else {
            continue;
        };
        if !exact || found.is_some() {
            return Scan::Doubt;
        }
        found = Some(w);
    }
    found.map_or(Scan::Doubt, Scan::Found)
}

/// The window whose line `rare` is the line at `p..line_end` (comparing `cmp`), if the other
/// lines match too, and whether every line matched exactly.
fn window_at(
    bytes: &[u8],
    old: &[&str],
    rare: usize,
    p: usize,
    line_end: usize,
    cmp: Cmp,
    trim_end: bool,
) -> Option<(Window, bool)> {
    let mut exact = cmp == Cmp::Exact;
    // Backwards: the lines before, each ending with the `\n` before the next one's start.
    let mut start = p;
    for pat in old[..rare].iter().rev() {
        let end = start.checked_sub(1)?;
        let s = memchr::memrchr(b'\n', &bytes[..end]).map_or(0, |i| i + 1);
        match compare(&bytes[s..end], pat.as_bytes(), trim_end) {
            Cmp::Differs => return None,
            c => exact &= c == Cmp::Exact,
        }
        start = s;
    }
    // Forwards: the lines after, each starting past the previous one's `\n`.
    let mut end = line_end;
    for pat in &old[rare + 1..] {
        let s = end + 1;
        if s >= bytes.len() {
            return None;
        }
        end = memchr::memchr(b'\n', &bytes[s..]).map_or(bytes.len(), |i| s + i);
        match compare(&bytes[s..end], pat.as_bytes(), trim_end) {
            Cmp::Differs => return None,
            c => exact &= c == Cmp::Exact,
        }
    }
    let end = (end + 1).min(bytes.len());
    Some((Window { start, end }, exact))
}

/// The placements of the windows (in order), their line numbers counted as far as needed.
fn placements(
    bytes: &[u8],
    hunks: &[Hunk],
    olds: &[Vec<&str>],
    windows: &[Window],
) -> Vec<Placement> {
    let mut line = 0usize;
    let mut at = 0usize;
    let mut out = Vec::with_capacity(windows.len());
    for ((hunk, old), w) in hunks.iter().zip(olds).zip(windows) {
        line += memchr::memchr_iter(b'\n', &bytes[at..w.start]).count();
        at = w.start;
        let m = old.len();
        out.push(Placement {
            start: line,
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
    }
    out
}

/// The new text: the bytes between the windows copied, each hunk's context lines copied from
/// the file, its added lines written with `\n`; the hunks' new ranges and the changes counted
/// as the line builder counts them.
fn build(
    body: &str,
    bom: bool,
    hunks: &[Hunk],
    placements: &[Placement],
    windows: &[Window],
) -> Built {
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
    let mut changes = Vec::new();
    let mut built = Vec::with_capacity(hunks.len());
    let (mut at, mut line, mut new_count) = (0usize, 0usize, 0usize);
    for (hi, ((hunk, p), w)) in hunks.iter().zip(placements).zip(windows).enumerate() {
        text.push_str(&body[at..w.start]);
        new_count += p.start - line;
        let new_start = new_count;
        let (mut k, mut kb) = (p.start, w.start);
        let (mut run_old, mut run_new) = (k, new_count);
        for l in &hunk.lines {
            match l.kind {
                LineKind::Context => {
                    close_run(&mut changes, hi, run_old..k, run_new..new_count);
                    let end = kb + l.text.len() + 1;
                    text.push_str(&body[kb..end]);
                    (k, kb, new_count) = (k + 1, end, new_count + 1);
                    (run_old, run_new) = (k, new_count);
                }
                LineKind::Delete => (k, kb) = (k + 1, kb + l.text.len() + 1),
                LineKind::Add => {
                    text.push_str(&l.text);
                    text.push('\n');
                    new_count += 1;
                }
            }
        }
        close_run(&mut changes, hi, run_old..k, run_new..new_count);
        built.push(BuiltHunk {
            new_start,
            new_len: new_count - new_start,
            reindented: false,
        });
        (at, line) = (w.end, k);
    }
    text.push_str(&body[at..]);
    Built {
        text,
        hunks: built,
        changes,
        lf_starts: None,
    }
}

fn close_run(
    changes: &mut Vec<Change>,
    hunk: usize,
    old: std::ops::Range<usize>,
    new: std::ops::Range<usize>,
) {
    if !old.is_empty() || !new.is_empty() {
        changes.push(Change::from_indices(old, new, hunk));
    }
}
