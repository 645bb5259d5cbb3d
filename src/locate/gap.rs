//! A dropped context line (SPEC §3.2): a hunk whose old side is found nowhere, even with its
//! context relaxed, is retried at places where the file has exactly one line more than the old
//! side, inside it (between two of its lines), while every old-side line matches at a level.
//! That is what a model that left out one unchanged line writes. The file's extra line is kept
//! as context; the hunk lands only when the place is unique where the hunk is searched and the
//! patch has one reading there.
//!
//! One reading: the extra line sits between two old-side lines. When the patch adds lines
//! there without removing any (a pure insertion point), the added lines could go before or
//! after the file's line, and the hunk is refused with a message that names the line, unless
//! the file's line is blank and the added lines end (or start) with a blank line of their own:
//! the file's blank line is then the separator at their other end. When the
//! added lines follow removed lines, they take their place and the file's line follows them,
//! if they are no more than the lines they replace or the file's line is only brackets (`}`)
//! or blank;
//! more added lines beside a line of code may have been written on both sides of it, and the
//! hunk is refused.
//! When the extra line sits between two removed lines, it may have been a removed line the
//! model left out, and the hunk is refused too.
//!
//! Every reading found counts, taken or not. One line left out is tried before a run of two,
//! with the hunk's trailing empty lines and without them, and a reading that is found but not
//! taken (over a placed hunk, or refused by a check of an ordinary placement) stops the search:
//! no looser reading lands in its place. A reading with the trailing empty lines lands only
//! when the hunk without them fits no other place. Under an anchor, a window starts in the
//! anchor's block or covers the anchor's line ([`search::fuzzy_starts`]), never past the block.
//! A place after the previous hunk is ambiguous when the hunk also fits, with lines left out,
//! before that hunk: for a loose reading the order of the hunks is no evidence
//! ([`search::loose_after_previous`]).

use std::ops::Range;

use super::index::{Budget, LineIndex};
use super::search;
use super::{body_lengths, finish, gapped_body, overlapping_hunk, with_start, without_blank_tail};
use super::{Bend, Placement, Search};
use super::{HunkRef, Level};
use crate::error::{Error, Status};
use crate::patch::{Hunk, LineKind};

/// The fuzz of a hunk placed over a gap: as much as one relaxed context line.
pub(crate) const GAP_FUZZ: u32 = super::relaxed::RELAXED_FUZZ;

/// At least this many lines of the old side that say something (three letters or digits)
/// must match the file around the gap.
pub(super) const MIN_TELLING: usize = 2;

/// The gap search of one hunk may do this many units of work per line of the file and the old
/// side; past that it gives up (the hunk stays not found, never a search-budget error), so a
/// hunk found nowhere costs time linear in the input. Its work is charged to the search budget
/// too.
pub(super) const WORK_PER_LINE: u64 = 32;

/// Two readings of one window whose extra line could be any of a run of equal lines: beyond
/// this many, the window is not taken (each is checked line by line).
const MAX_SPAN: usize = 8;

/// A run of this many file lines the old side leaves out is tried when one line finds
/// nothing: a drift that added lines inside the hunk's context (attributes above a method,
/// imports). Such a reading lands only when it has one place and one reading; its other
/// outcomes stay unreported (the one-line reading's messages are kept).
pub(super) const MAX_EXTRA: usize = 2;

/// What the gap retry found.
pub(crate) enum Gap {
    /// One place and one reading: the placement, flagged `context_relaxed`, with its gap.
    Placed(Placement),
    /// One place, but the patch has two readings there: the file's line (0-based) the patch
    /// leaves out, and the body index it would go before. The hunk is refused; the message
    /// names the line.
    Unclear { file_line: usize, body_index: usize },
    /// Several places fit with one line left out (0-based starts, in file order), for windows
    /// of this many lines: refused, and the message names them.
    Ambiguous(Vec<usize>, usize),
    /// The hunk fits with context relaxed at the first line (0-based) and with a line left
    /// out at the second (if known): two readings, refused.
    Both(usize, Option<usize>),
    /// One place fits with lines left out (its 0-based start), but it is not taken: it lies
    /// over a placed hunk, or a check of an ordinary placement fails there. It is still a
    /// reading of the hunk, so no looser one (more lines left out, one the file lost) lands
    /// instead.
    Refused(usize),
    /// Nothing fits (or the rule does not apply here).
    Nothing,
}

/// The first line (0-based) of a gap reading, if the gap search found one.
pub(crate) fn other_start(g: &Gap) -> Option<usize> {
    match g {
        Gap::Placed(p) => Some(p.start),
        Gap::Unclear { file_line, .. } => Some(*file_line),
        Gap::Ambiguous(starts, _) => starts.first().copied(),
        Gap::Both(_, at) => *at,
        Gap::Refused(at) => Some(*at),
        Gap::Nothing => None,
    }
}

/// The not-found error of a hunk that fits one place with some unchanged lines differing and
/// another with one unchanged line left out: two readings, so neither was taken.
pub(crate) fn both_note(e: Error, relaxed_at: usize, gap_at: Option<usize>) -> Error {
    let sep = if e.message().ends_with('\n') { "" } else { " " };
    let other = gap_at.map_or(String::new(), |g| format!(" (near line {})", g + 1));
    let message = format!(
        "{}{sep}It fits at line {} with some of its unchanged lines differing from the file, and \
         elsewhere{other} with one unchanged line of the file left out of it: two readings, so \
         neither was taken. Quote every unchanged line exactly as the file has them.",
        e.message(),
        relaxed_at + 1,
    );
    let mut diagnostics = e.diagnostics().clone();
    if diagnostics.candidates.is_empty() {
        diagnostics.candidates = std::iter::once(relaxed_at)
            .chain(gap_at)
            .map(|s| u32::try_from(s + 1).unwrap_or(u32::MAX))
            .collect();
    }
    Error::new(e.status(), message, diagnostics)
}

/// The work of one gap search: charged to the search budget and to its own allowance.
pub(super) struct Meter<'b> {
    pub(super) global: &'b mut Budget,
    pub(super) local: Budget,
}

impl Meter<'_> {
    /// Charges `units`; `Ok(false)` when the gap search must give up.
    pub(super) fn charge(&mut self, units: u64) -> Result<bool, Error> {
        self.global.charge(units)?;
        Ok(self.local.charge(units).is_ok())
    }
}

/// One line of the old side: its text, whether it is a `-` line, and its body index.
pub(super) struct OldLine<'h> {
    pub(super) text: &'h str,
    pub(super) deleted: bool,
    pub(super) body: usize,
}

/// A window of the file (`m + 1` lines from `start`) where the old side fits with the file's
/// line `start + gap` left out of the patch.
struct Fit {
    start: usize,
    /// How many file lines the old side leaves out, in one run (1..=[`MAX_EXTRA`]).
    extra: usize,
    /// The old-side index the file's extra line comes before (1..m).
    gap: usize,
    /// The loosest level among the old-side lines.
    level: Level,
    /// The reading is clear (see the module documentation).
    clear: bool,
    /// The extra line can only be the one line before old line `gap` (no run of equal lines).
    single: bool,
}

/// Retries a hunk found nowhere with one of its unchanged lines left out of the patch. Only
/// when every level may be used (strict mode and a capped level never do), never for an
/// `*** End of File` hunk or a hunk without at least two old-side lines.
///
/// `everywhere`: search the whole file instead of where the hunk is searched (to learn whether
/// a gap reading exists anywhere, beside a relaxed one).
pub(crate) fn place(
    index: &mut LineIndex<'_>,
    s: &Search<'_, '_>,
    everywhere: bool,
    budget: &mut Budget,
) -> Result<Gap, Error> {
    let hunk = s.cx.hunk;
    if s.opts.max_level < Level::Fold || hunk.end_of_file {
        return Ok(Gap::Nothing);
    }
    let short = without_blank_tail(hunk);
    let tried = body_lengths(hunk);
    if super::relaxed::fits_as_written(index, s, budget)? {
        return Ok(Gap::Nothing);
    }
    // One line left out, with the trailing empty lines and without them, before a run of
    // lines: the reading closest to the hunk as written wins.
    for &used in &tried {
        match place_used(index, s, used, 1, everywhere, budget)? {
            Gap::Nothing => continue,
            Gap::Placed(p) if used > short => {
                return without_tail_too(index, s, p, short, everywhere, budget)
            }
            found => return Ok(found),
        }
    }
    for &used in &tried {
        match place_used(index, s, used, MAX_EXTRA, everywhere, budget)? {
            // Beside a relaxed reading any reading counts as a second one.
            found @ (Gap::Placed(_) | Gap::Ambiguous(..) | Gap::Unclear { .. }) if everywhere => {
                return Ok(found)
            }
            found @ (Gap::Placed(_) | Gap::Refused(_)) => return Ok(found),
            _ => continue,
        }
    }
    Ok(Gap::Nothing)
}

/// `p`, placed over a gap with the hunk's trailing empty context lines, unless the hunk
/// without them fits another place too: a stray blank line is weak evidence, and must not pick
/// one of two places (as for a hunk placed as written, [`search::check_blank_tail`]).
fn without_tail_too(
    index: &mut LineIndex<'_>,
    s: &Search<'_, '_>,
    p: Placement,
    short: usize,
    everywhere: bool,
    budget: &mut Budget,
) -> Result<Gap, Error> {
    let inside = p.start..p.start + p.old_len;
    Ok(match place_used(index, s, short, 1, everywhere, budget)? {
        Gap::Ambiguous(starts, w) => Gap::Ambiguous(with_start(starts, p.start), w),
        Gap::Placed(q) if q.start != p.start => Gap::Refused(q.start),
        Gap::Refused(at) | Gap::Unclear { file_line: at, .. } if !inside.contains(&at) => {
            Gap::Refused(at)
        }
        _ => Gap::Placed(p),
    })
}

/// [`place`] for the first `used` body lines and windows with `extra` file lines more than
/// the old side.
fn place_used(
    index: &mut LineIndex<'_>,
    s: &Search<'_, '_>,
    used: usize,
    extra: usize,
    everywhere: bool,
    budget: &mut Budget,
) -> Result<Gap, Error> {
    let old = old_lines(s.cx.hunk, used);
    let m = old.len();
    let n = index.len();
    if m < 2 || m >= n || old.iter().filter(|l| telling(l.text)).count() < MIN_TELLING {
        return Ok(Gap::Nothing);
    }
    place_extra(index, s, &old, used, extra, everywhere, budget)
}

/// [`place_used`] for the old side `old`.
fn place_extra(
    index: &mut LineIndex<'_>,
    s: &Search<'_, '_>,
    old: &[OldLine<'_>],
    used: usize,
    extra: usize,
    everywhere: bool,
    budget: &mut Budget,
) -> Result<Gap, Error> {
    let (m, n) = (old.len(), index.len());
    let w = m + extra;
    if w > n {
        return Ok(Gap::Nothing);
    }
    let (first, second): (Range<usize>, Option<Range<usize>>) = match s.anchor {
        _ if everywhere => (0..n, None),
        Some(a) => (search::fuzzy_starts(index, a, w), None),
        // A window that shares lines with the previous hunk counts too (as in the normal
        // search, either could be meant): it makes a fit after that hunk ambiguous.
        None if s.region_start > 0 => {
            let lo = s
                .placed
                .last()
                .filter(|p| p.old_len > 0 && !p.already_applied)
                .map_or(s.region_start, |p| (p.start + 1).saturating_sub(w));
            (lo.min(s.region_start)..n, Some(0..n))
        }
        None => (0..n, None),
    };
    let allowance = WORK_PER_LINE.saturating_mul((n + m) as u64);
    for range in std::iter::once(first).chain(second) {
        let mut meter = Meter {
            global: budget,
            local: Budget::new(allowance),
        };
        let Some(fits) = fits_in(index, s, old, range, extra, &mut meter)? else {
            return Ok(Gap::Nothing);
        };
        let Some(fit) = fits.first() else {
            continue;
        };
        if fits.len() > 1 && !s.opts.first_match {
            return Ok(Gap::Ambiguous(fits.iter().map(|f| f.start).collect(), w));
        }
        if !everywhere
            && fit.start < s.region_start
            && overlapping_hunk(s.placed, fit.start, w).is_some()
        {
            return Ok(Gap::Refused(fit.start));
        }
        let gap_body = match fit.clear {
            true => old[fit.gap].body,
            false => match blank_separator(index, s.cx.hunk, old, fit) {
                Some(body) if extra == 1 => body,
                _ => {
                    return Ok(Gap::Unclear {
                        file_line: fit.start + fit.gap,
                        body_index: old[fit.gap].body,
                    })
                }
            },
        };
        // Found after the previous hunk: a loose reading that fits before it too has two
        // places, and the order of the hunks does not choose between them.
        if !everywhere
            && fit.start >= s.region_start
            && search::loose_after_previous(index, s, budget)?
        {
            match fits_before(index, s, old, extra, allowance, budget)? {
                None => return Ok(Gap::Refused(fit.start)),
                Some(before) if !before.is_empty() => {
                    return Ok(Gap::Ambiguous(with_start(before, fit.start), w))
                }
                Some(_) => {}
            }
        }
        return checked_placement(index, s, old, used, (fit, gap_body), fits.len(), budget);
    }
    Ok(Gap::Nothing)
}

/// The starts of the windows before the region where `old` also fits with `extra` file lines
/// left out; `None` when the search gave up.
fn fits_before(
    index: &mut LineIndex<'_>,
    s: &Search<'_, '_>,
    old: &[OldLine<'_>],
    extra: usize,
    allowance: u64,
    budget: &mut Budget,
) -> Result<Option<Vec<usize>>, Error> {
    let mut meter = Meter {
        global: budget,
        local: Budget::new(allowance),
    };
    let before = 0..(s.region_start + old.len() + extra - 1).min(index.len());
    let fits = fits_in(index, s, old, before, extra, &mut meter)?;
    Ok(fits.map(|fits| fits.iter().map(|f| f.start).collect()))
}

/// The old side of the first `used` body lines.
pub(super) fn old_lines(hunk: &Hunk, used: usize) -> Vec<OldLine<'_>> {
    hunk.lines[..used]
        .iter()
        .enumerate()
        .filter(|(_, l)| l.kind != LineKind::Add)
        .map(|(body, l)| OldLine {
            text: l.text.as_str(),
            deleted: l.kind == LineKind::Delete,
            body,
        })
        .collect()
}

/// True when a line is evidence of a place: it holds at least three letters or digits.
pub(super) fn telling(line: &str) -> bool {
    line.chars().filter(|c| c.is_alphanumeric()).take(3).count() == 3
}

/// Every window of `range` where the old side fits with one file line more inside it, in
/// file order; `None` when the search gave up. Candidate windows come from the hits of one
/// line every such window must match (a telling `-` line if any, else a telling line).
fn fits_in(
    index: &mut LineIndex<'_>,
    s: &Search<'_, '_>,
    old: &[OldLine<'_>],
    range: Range<usize>,
    extra: usize,
    meter: &mut Meter<'_>,
) -> Result<Option<Vec<Fit>>, Error> {
    let m = old.len();
    let w = m + extra;
    let max = s.opts.max_level;
    if range.end < range.start || range.end - range.start < w {
        return Ok(Some(Vec::new()));
    }
    let last_start = range.end - w;
    // Stable: telling `-` lines, other `-` lines, telling context lines, the rest.
    let Some(k) = (0..m).min_by_key(|&k| (!old[k].deleted, !telling(old[k].text), k)) else {
        return Ok(Some(Vec::new()));
    };
    // Line k of a window starting at `start` is the file's line start + k (gap after it) or
    // start + k + extra (gap before it).
    let lines = range.start + k..last_start + k + extra + 1;
    let Ok(hits) = index.find_line(old[k].text, max, false, lines, usize::MAX, &mut meter.local)
    else {
        return Ok(None);
    };
    meter
        .global
        .charge((last_start + extra + 1 - range.start) as u64)?;
    let mut starts: Vec<usize> = Vec::with_capacity(hits.len() * 2);
    for h in hits {
        if k > 0 && h >= k + extra {
            starts.push(h - k - extra);
        }
        if k + 1 < m && h >= k {
            starts.push(h - k);
        }
    }
    starts.retain(|&st| st >= range.start && st <= last_start);
    starts.sort_unstable();
    starts.dedup();
    let mut fits = Vec::new();
    for start in starts {
        if !meter.charge(2 * m as u64)? {
            return Ok(None);
        }
        if let Some(fit) = fit_at(index, old, (start, extra), max) {
            fits.push(fit);
        }
    }
    Ok(Some(fits))
}

/// The fit of the window at `start`, if the old side matches its `m + extra` lines with a run
/// of `extra` inner lines left out.
fn fit_at(
    index: &mut LineIndex<'_>,
    old: &[OldLine<'_>],
    (start, extra): (usize, usize),
    max: Level,
) -> Option<Fit> {
    let m = old.len();
    // The longest prefix of the old side matching from `start`, and the longest suffix
    // matching up to `start + m + extra - 1` (the window's last line).
    let prefix = (0..m)
        .take_while(|&k| index.line_level(start + k, old[k].text, max).is_some())
        .count();
    if prefix == m {
        // The old side fits as written here: no gap (the normal search set it aside).
        return None;
    }
    let suffix = (0..m)
        .rev()
        .take_while(|&k| {
            index
                .line_level(start + k + extra, old[k].text, max)
                .is_some()
        })
        .count();
    // A gap before old line g: lines 0..g match from start, lines g..m from start + g + extra.
    let lo = (m - suffix).max(1);
    let hi = prefix.min(m - 1);
    if lo > hi || hi - lo > MAX_SPAN {
        return None;
    }
    // Several gaps fit when the old lines between them match the file's lines on both sides
    // (a run of equal lines, or lines equal at a loose level). One reading only when they all
    // give the same text: the lines that move between readings are context (kept as the file
    // has them) and nothing is added among them. Then the reading whose lines match at the
    // closest level is the one placed (the first of equals).
    let same = (lo..hi).all(|g| !old[g].deleted && old[g + 1].body == old[g].body + 1);
    let (gap, level) = if same {
        (lo..=hi)
            .filter_map(|g| Some((g, reading_level(index, old, (start, extra), g, max)?)))
            .min_by_key(|&(_, level)| level)?
    } else {
        (lo, reading_level(index, old, (start, extra), lo, max)?)
    };
    let lines = index.lines();
    let clear = (lo..=hi).all(|g| {
        let left_out: Vec<&str> = (start + g..start + g + extra)
            .map(|i| lines.get(i))
            .collect();
        one_reading(old, g, &left_out)
    }) && (lo == hi || same);
    Some(Fit {
        start,
        extra,
        gap,
        level,
        clear,
        single: lo == hi,
    })
}

/// The loosest level among the old side's lines when the file's lines from `start + g` (`extra`
/// of them) are the ones the patch left out, if every line matches.
fn reading_level(
    index: &mut LineIndex<'_>,
    old: &[OldLine<'_>],
    (start, extra): (usize, usize),
    g: usize,
    max: Level,
) -> Option<Level> {
    let mut level = Level::Exact;
    for (k, l) in old.iter().enumerate() {
        let at = if k < g { start + k } else { start + k + extra };
        level = level.max(index.line_level(at, l.text, max)?);
    }
    Some(level)
}

/// Where a blank file line beside a pure insertion goes when the added lines settle it: they
/// carry a blank line at one end only, between two non-blank old-side lines, so the file's
/// blank line is the separator at their other end (`}`, then the file's blank line, then the
/// added function ending with its own blank line, then the next `func`). The body index the
/// file's line takes (before or after the added lines), or `None`: two readings.
fn blank_separator(
    index: &LineIndex<'_>,
    hunk: &Hunk,
    old: &[OldLine<'_>],
    fit: &Fit,
) -> Option<usize> {
    let g = fit.gap;
    let (before, after) = (&old[g - 1], &old[g]);
    if !fit.single
        || before.deleted
        || before.text.trim().is_empty()
        || after.text.trim().is_empty()
        || !index.lines().get(fit.start + g).trim().is_empty()
    {
        return None;
    }
    let adds = hunk.lines.get(before.body + 1..after.body)?;
    let blank = |l: &crate::patch::Line| l.text.trim().is_empty();
    match (adds.first().map(blank)?, adds.last().map(blank)?) {
        _ if adds.len() < 2 => None,
        (false, true) => Some(before.body + 1),
        (true, false) => Some(after.body),
        _ => None,
    }
}

/// True when the file lines `left_out`, between old lines `g - 1` and `g`, have one reading:
/// not between two `-` lines (one may have been a line the model left out of the removal), and
/// not beside added lines that remove nothing before them (they could go before or after the
/// file's lines). Added lines after removed ones take their place, and the file's lines follow
/// them, only when that is the one reading: the added lines are no more than the lines they
/// replace (a line rewritten in place), or the file's lines are only brackets or blank (`}`,
/// `)`, `{`, an empty line: the block's frame, which the added lines stay inside, or the
/// separator after them). More added lines than removed beside
/// a line of code may have been written around it (`-a`, `+A`, ` f`, `+B`: with ` f` left
/// out, `B` reads as part of the replacement), so such a hunk is refused.
fn one_reading(old: &[OldLine<'_>], g: usize, left_out: &[&str]) -> bool {
    let (before, after) = (&old[g - 1], &old[g]);
    let adds = after.body - before.body - 1;
    if before.deleted && after.deleted {
        return false;
    }
    if adds == 0 {
        return true;
    }
    if !before.deleted {
        return false;
    }
    // The removed lines right before the added ones (consecutive in the body).
    let removed = old[..g]
        .iter()
        .rev()
        .zip((0..=before.body).rev())
        .take_while(|(l, body)| l.deleted && l.body == *body)
        .count();
    let frame = left_out
        .iter()
        .all(|l| !l.chars().any(char::is_alphanumeric));
    adds <= removed || frame
}

/// The placement of `fit`, if the checks of an ordinary placement hold for the equivalent
/// hunk (the file's line inserted as context).
fn checked_placement(
    index: &mut LineIndex<'_>,
    s: &Search<'_, '_>,
    old: &[OldLine<'_>],
    used: usize,
    (fit, gap_body): (&Fit, usize),
    candidates: usize,
    budget: &mut Budget,
) -> Result<Gap, Error> {
    let w = old.len() + fit.extra;
    let anchor_fuzz = s.anchor.map_or(0, |a| a.fuzz);
    let p = Placement {
        start: fit.start,
        old_len: w,
        used_lines: used,
        level: fit.level,
        line_levels: Box::default(),
        fuzz: anchor_fuzz
            .saturating_add(fit.level.fuzz())
            .saturating_add(GAP_FUZZ.saturating_mul(fit.extra as u32)),
        candidates: u32::try_from(candidates).unwrap_or(u32::MAX),
        out_of_order: fit.start < s.region_start,
        end_of_file: false,
        already_applied: false,
        anchor_ignored: false,
        context_relaxed: true,
        leans_on_order: false,
        bend: Some(Bend::gap(gap_body)),
    };
    Ok(match checked_equivalent(index, s, p, budget)? {
        Some(p) => Gap::Placed(p),
        None => Gap::Refused(fit.start),
    })
}

/// `p` (a placement over a gap or past a missing line) with its line levels, if the checks of
/// an ordinary placement hold for the equivalent hunk: the body [`gapped_body`] gives, whose
/// old side maps to the file's lines one to one.
pub(super) fn checked_equivalent(
    index: &mut LineIndex<'_>,
    s: &Search<'_, '_>,
    mut p: Placement,
    budget: &mut Budget,
) -> Result<Option<Placement>, Error> {
    let hunk = s.cx.hunk;
    let body = gapped_body(hunk, &p, index.lines()).into_owned();
    let equivalent = Hunk {
        anchors: hunk.anchors.clone(),
        lines: body,
        end_of_file: hunk.end_of_file,
        old_no_newline: hunk.old_no_newline,
        new_no_newline: hunk.new_no_newline,
        patch_line: hunk.patch_line,
    };
    let texts: Vec<&str> = equivalent
        .lines
        .iter()
        .filter(|l| l.kind != LineKind::Add)
        .map(|l| l.text.as_str())
        .collect();
    p = finish(index, &texts, p, s.opts);
    let cx = HunkRef {
        hunk: &equivalent,
        ..*s.cx
    };
    let es = Search { cx: &cx, ..*s };
    let q = Placement {
        used_lines: equivalent.lines.len(),
        bend: None,
        ..p.clone()
    };
    let checked = search::check_slide(index, &es, &q, budget)
        .and_then(|()| search::check_edge_indent(index, &es, &q, budget))
        .and_then(|()| search::check_open_start(&es, &q))
        .and_then(|()| search::check_open_end(index, &es, &q))
        .and_then(|()| search::check_indent_map(index, &es, &q));
    match checked {
        Ok(()) => Ok(Some(p)),
        Err(e) if e.status() == Status::SearchBudget => Err(e),
        Err(_) => Ok(None),
    }
}

/// The not-found error of a hunk that fits one place with a line left out, but with two
/// readings there: the message names the file's line and asks for the hunk with it.
pub(crate) fn unclear_note(
    e: Error,
    cx: &HunkRef<'_>,
    index: &LineIndex<'_>,
    file_line: usize,
    body_index: usize,
) -> Error {
    let lines = index.lines();
    let text = lines.get(file_line);
    let body = &cx.hunk.lines;
    let (before, after) = (
        body[..body_index.min(body.len())]
            .iter()
            .rev()
            .find(|l| l.kind != LineKind::Add),
        body.get(body_index),
    );
    let between = match (before, after) {
        (Some(b), Some(a)) => format!(
            " between {:?} (patch line {}) and {:?} (patch line {})",
            b.text, b.patch_line, a.text, a.patch_line
        ),
        _ => String::new(),
    };
    // A corrected hunk would pick one of the two readings: a guess, so it is not offered.
    let mut diagnostics = e.diagnostics().clone();
    let mut shown = e.message().to_string();
    if let Some(c) = diagnostics.corrected_hunk.take() {
        let offered = format!("Resend the hunk with the file's real lines:\n{c}");
        shown = shown.replacen(&offered, "", 1);
    }
    let sep = if shown.ends_with('\n') || shown.is_empty() {
        ""
    } else {
        " "
    };
    let message = format!(
        "{shown}{sep}The file has line {} ({:?}){between}, which the hunk leaves out; without it the \
         hunk has two readings (the added lines before or after it, or the line removed or \
         kept), so it was not applied. Resend the hunk with line {} as an unchanged line where \
         it belongs.",
        file_line + 1,
        text,
        file_line + 1,
    );
    if diagnostics.candidates.is_empty() {
        diagnostics.candidates = vec![u32::try_from(file_line + 1).unwrap_or(u32::MAX)];
    }
    Error::new(e.status(), message, diagnostics)
}

/// The not-found error of a hunk that fits several places with one of its unchanged lines
/// left out: the message names them (1-based line ranges) and why none was taken.
pub(crate) fn ambiguous_note(e: Error, starts: &[usize], w: usize) -> Error {
    super::relaxed::places_note(
        e,
        starts,
        w,
        "With one unchanged line of the file left out of the hunk",
        "quote every unchanged line between the hunk's first and last line, exactly as the file \
         has them.",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn old(spec: &[(&'static str, bool, usize)]) -> Vec<OldLine<'static>> {
        spec.iter()
            .map(|&(text, deleted, body)| OldLine {
                text,
                deleted,
                body,
            })
            .collect()
    }

    #[test]
    fn a_gap_beside_a_pure_insertion_has_two_readings() {
        // ` a`, `+X`, ` c`: the file's line between a and c could go before or after X.
        let f: &[&str] = &["f(x);"];
        let o = old(&[("a", false, 0), ("c", false, 2)]);
        assert!(!one_reading(&o, 1, f));
        // ` a`, ` c`: one reading.
        let o = old(&[("a", false, 0), ("c", false, 1)]);
        assert!(one_reading(&o, 1, f));
        // `-b`, `+B`, ` c`: B takes b's place, the file's line follows it.
        let o = old(&[("b", true, 0), ("c", false, 2)]);
        assert!(one_reading(&o, 1, f));
        // `-b1`, `-b2`: the left-out line may have been removed too.
        let o = old(&[("b1", true, 0), ("b2", true, 1)]);
        assert!(!one_reading(&o, 1, f));
        // ` a`, `+X`, `-b`: X could go before or after the file's line.
        let o = old(&[("a", false, 0), ("b", true, 2)]);
        assert!(!one_reading(&o, 1, f));
    }

    #[test]
    fn more_added_lines_than_removed_beside_a_line_of_code_have_two_readings() {
        // `-b`, `+B1`, `+B2`, ` c`: B2 may have been written after the file's line.
        let o = old(&[("b", true, 0), ("c", false, 3)]);
        assert!(!one_reading(&o, 1, &["error = e"]));
        // ... unless the file's line is the block's frame: the added lines stay inside it.
        assert!(one_reading(&o, 1, &["}"]));
        assert!(one_reading(&o, 1, &["  );"]));
        assert!(one_reading(&o, 1, &[""]));
        // `-b1`, `-b2`, `+B1`, `+B2`, ` c`: as many added lines as removed, rewritten in place.
        let o = old(&[("b1", true, 0), ("b2", true, 1), ("c", false, 4)]);
        assert!(one_reading(&o, 2, &["error = e"]));
        // ` a`, `-b`, `+B1`, `+B2`, ` c`: one removed line before the added ones.
        let o = old(&[("a", false, 0), ("b", true, 1), ("c", false, 4)]);
        assert!(!one_reading(&o, 2, &["error = e"]));
    }

    #[test]
    fn a_hopeless_gap_search_gives_up_and_the_hunk_stays_not_found() {
        // Every window of a file of one repeated line is a candidate: the gap search spends
        // its allowance and gives up, leaving the not-found error.
        let text = "same line here\n".repeat(50_000);
        let mut patch = String::from("@@\n");
        patch.push_str(&" same line here\n".repeat(40));
        patch.push_str(" missing line\n");
        patch.push_str(&" same line here\n".repeat(40));
        patch.push_str("+added()\n");
        patch.push_str(" same line here\n");
        let e = crate::apply(
            &text,
            &patch,
            crate::Mode::Update,
            &crate::Options::default(),
        )
        .unwrap_err();
        assert_eq!(e.status(), Status::ContextNotFound, "{}", e.message());
    }
}
