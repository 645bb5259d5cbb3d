//! Relaxed context (SPEC §3.2): a hunk whose old side is found nowhere at any level is retried
//! with some of its context lines allowed to differ from the file — the outer ones first (up
//! to [`OUTER`] at each end), then at most a third of all its context lines — while every `-`
//! line still matches at a level and the match is unique where the hunk is searched. The
//! file's lines are kept: a relaxed context line is copied from the file, never rewritten from
//! the patch. Nothing is relaxed when the old side fits somewhere as written, with or without
//! its trailing empty lines; a reading with them lands only when the hunk without them fits no
//! other place; under an anchor, a window starts in its block or covers its line
//! ([`search::fuzzy_starts`]). A place after the previous hunk is ambiguous when the hunk also
//! fits, relaxed, before that hunk: for a loose reading the order of the hunks is no evidence
//! ([`search::loose_after_previous`]).

use std::ops::Range;

use super::index::{Budget, LineIndex, Pattern};
use super::search;
use super::{body_lengths, finish, overlapping_hunk, with_start, without_blank_tail};
use super::{Level, Placement, Search};
use crate::error::{Error, Status};
use crate::patch::LineKind;

/// The fuzz of each relaxed context line.
pub(crate) const RELAXED_FUZZ: u32 = 300;

/// How many context lines at each end of the old side may be relaxed as outer lines.
const OUTER: usize = 2;

/// At least this many lines of the old side that say something (see [`telling`]) must match
/// the file.
const MIN_MATCHED: usize = 2;

/// True when a line is evidence of a place: it holds at least three letters or digits (a
/// blank line, a brace or `end` fits almost anywhere).
fn telling(line: &str) -> bool {
    line.chars().filter(|c| c.is_alphanumeric()).take(3).count() == 3
}

/// The relaxed search of one hunk may do this many units of work per line of the file and
/// the old side; past that it gives up (the hunk stays not found), so that a hunk found nowhere
/// costs time linear in the input. Its work is charged to the search budget too.
const WORK_PER_LINE: u64 = 32;

/// The work of one relaxed search: charged to the search budget (an error past it) and to
/// the relaxed search's own allowance (giving up past it).
struct Meter<'b> {
    global: &'b mut Budget,
    local: Budget,
}

impl Meter<'_> {
    /// Charges `units`; `Ok(false)` when the relaxed search must give up.
    fn charge(&mut self, units: u64) -> Result<bool, Error> {
        self.global.charge(units)?;
        Ok(self.local.charge(units).is_ok())
    }
}

/// What the relaxed retry found.
pub(crate) enum Relaxed {
    /// One place: the placement, flagged `context_relaxed`.
    Placed(Placement),
    /// Several places fit with context relaxed (0-based starts, in file order) for an old side
    /// of this many lines: the hunk is not placed, and its message names them.
    Ambiguous(Vec<usize>, usize),
    /// Nothing fits, even relaxed (or relaxing is not allowed here).
    Nothing,
}

/// One line of the old side: its text and whether it is a `-` line (never relaxed).
struct OldLine<'h> {
    text: &'h str,
    deleted: bool,
}

/// A window of the file where the old side fits with context relaxed.
struct Fit {
    start: usize,
    /// The loosest level among the lines that match.
    level: Level,
    /// The old-side lines that do not match (context lines only).
    relaxed: Vec<usize>,
}

/// Retries a hunk found nowhere with its context relaxed. Only when every level may be used
/// (relaxing is a looser step than fold: strict mode and a capped level never relax), and never
/// for an `*** End of File` hunk (its place is the end of the file) or a hunk without an old side.
pub(crate) fn place(
    index: &mut LineIndex<'_>,
    s: &Search<'_, '_>,
    budget: &mut Budget,
) -> Result<Relaxed, Error> {
    let hunk = s.cx.hunk;
    if s.opts.max_level < Level::Fold || hunk.end_of_file {
        return Ok(Relaxed::Nothing);
    }
    let short = without_blank_tail(hunk);
    if fits_as_written(index, s, budget)? {
        return Ok(Relaxed::Nothing);
    }
    for used in body_lengths(hunk) {
        match place_used(index, s, used, budget)? {
            Relaxed::Nothing => continue,
            Relaxed::Placed(p) if used > short => {
                return without_tail_too(index, s, p, short, budget)
            }
            found => return Ok(found),
        }
    }
    Ok(Relaxed::Nothing)
}

/// `p`, placed with the trailing empty context lines, unless the hunk without them fits
/// another place too: a stray blank line is weak evidence, and must not pick one of two
/// places (as for a hunk placed as written, [`search::check_blank_tail`]).
fn without_tail_too(
    index: &mut LineIndex<'_>,
    s: &Search<'_, '_>,
    p: Placement,
    short: usize,
    budget: &mut Budget,
) -> Result<Relaxed, Error> {
    let m = p.old_len;
    Ok(match place_used(index, s, short, budget)? {
        Relaxed::Ambiguous(starts, _) => Relaxed::Ambiguous(with_start(starts, p.start), m),
        Relaxed::Placed(q) if q.start != p.start => {
            Relaxed::Ambiguous(vec![p.start.min(q.start), p.start.max(q.start)], m)
        }
        _ => Relaxed::Placed(p),
    })
}

/// [`place`] for the first `used` body lines.
fn place_used(
    index: &mut LineIndex<'_>,
    s: &Search<'_, '_>,
    used: usize,
    budget: &mut Budget,
) -> Result<Relaxed, Error> {
    let old = old_lines(s.cx.hunk, used);
    let m = old.len();
    let n = index.len();
    let limit = max_relaxed(&old);
    if m == 0 || m > n || limit == 0 {
        return Ok(Relaxed::Nothing);
    }
    // With an anchor: windows that start in its block (or cover its line). Without: the
    // region, then (out of order) the file.
    let (first, second): (Range<usize>, Option<Range<usize>>) = match s.anchor {
        Some(a) => (search::fuzzy_starts(index, a, m), None),
        None if s.region_start > 0 => (s.region_start..n, Some(0..n)),
        None => (0..n, None),
    };
    let allowance = WORK_PER_LINE.saturating_mul((n + m) as u64);
    for range in std::iter::once(first).chain(second) {
        let mut meter = Meter {
            global: budget,
            local: Budget::new(allowance),
        };
        let Some(fits) = fits_in(index, s, &old, limit, range, &mut meter)? else {
            return Ok(Relaxed::Nothing);
        };
        let Some(fit) = fits.first() else {
            continue;
        };
        if fits.len() > 1 && !s.opts.first_match {
            return Ok(Relaxed::Ambiguous(
                fits.iter().map(|f| f.start).collect(),
                m,
            ));
        }
        if fit.relaxed.is_empty() {
            // The old side fits as written: the normal search set it aside for a reason.
            return Ok(Relaxed::Nothing);
        }
        if fit.start < s.region_start && overlapping_hunk(s.placed, fit.start, m).is_some() {
            return Ok(Relaxed::Nothing);
        }
        // Found after the previous hunk: a loose reading that fits before it too has two
        // places, and the order of the hunks does not choose between them.
        if fit.start >= s.region_start && search::loose_after_previous(index, s, budget)? {
            let mut meter = Meter {
                global: budget,
                local: Budget::new(allowance),
            };
            match fits_before(index, s, &old, limit, &mut meter)? {
                None => return Ok(Relaxed::Nothing),
                Some(before) if !before.is_empty() => {
                    return Ok(Relaxed::Ambiguous(with_start(before, fit.start), m))
                }
                Some(_) => {}
            }
        }
        return checked_placement(index, s, &old, used, fit, fits.len(), budget);
    }
    Ok(Relaxed::Nothing)
}

/// The starts of the windows before the region where `old` also fits, relaxed; `None` when
/// the search gave up.
fn fits_before(
    index: &mut LineIndex<'_>,
    s: &Search<'_, '_>,
    old: &[OldLine<'_>],
    limit: usize,
    meter: &mut Meter<'_>,
) -> Result<Option<Vec<usize>>, Error> {
    let range = 0..(s.region_start + old.len() - 1).min(index.len());
    let fits = fits_in(index, s, old, limit, range, meter)?;
    Ok(fits.map(|fits| fits.iter().map(|f| f.start).collect()))
}

/// The first `used` body lines' old side.
fn old_lines(hunk: &crate::patch::Hunk, used: usize) -> Vec<OldLine<'_>> {
    hunk.lines[..used]
        .iter()
        .filter(|l| l.kind != LineKind::Add)
        .map(|l| OldLine {
            text: l.text.as_str(),
            deleted: l.kind == LineKind::Delete,
        })
        .collect()
}

/// The placement of a relaxed `fit` (one of `candidates`), if the checks of an ordinary
/// placement hold for it.
fn checked_placement(
    index: &mut LineIndex<'_>,
    s: &Search<'_, '_>,
    old: &[OldLine<'_>],
    used: usize,
    fit: &Fit,
    candidates: usize,
    budget: &mut Budget,
) -> Result<Relaxed, Error> {
    let m = old.len();
    let anchor_fuzz = s.anchor.map_or(0, |a| a.fuzz);
    let relaxed = u32::try_from(fit.relaxed.len()).unwrap_or(u32::MAX);
    let texts: Vec<&str> = old.iter().map(|l| l.text).collect();
    let p = finish(
        index,
        &texts,
        Placement {
            start: fit.start,
            old_len: m,
            used_lines: used,
            level: fit.level,
            line_levels: Box::default(),
            fuzz: anchor_fuzz
                .saturating_add(fit.level.fuzz())
                .saturating_add(relaxed.saturating_mul(RELAXED_FUZZ)),
            candidates: u32::try_from(candidates).unwrap_or(u32::MAX),
            out_of_order: fit.start < s.region_start,
            end_of_file: false,
            already_applied: false,
            anchor_ignored: false,
            context_relaxed: true,
            leans_on_order: false,
            bend: None,
        },
        s.opts,
    );
    // The checks of an ordinary placement still hold; one that fails means the relaxed
    // reading is not clear enough, and the hunk stays not found.
    let checked = search::check_slide(index, s, &p, budget)
        .and_then(|()| search::check_edge_indent(index, s, &p, budget))
        .and_then(|()| search::check_open_start(s, &p))
        .and_then(|()| search::check_open_end(index, s, &p))
        .and_then(|()| search::check_indent_map(index, s, &p));
    match checked {
        Ok(()) => Ok(Relaxed::Placed(p)),
        Err(e) if e.status() == Status::SearchBudget => Err(e),
        Err(_) => Ok(Relaxed::Nothing),
    }
}

/// True when the hunk's old side fits somewhere in the file as written (at any level allowed),
/// with its trailing empty lines or without them: outside where the hunk was searched (outside
/// its anchor's block, over a placed hunk), or where a check refused it. The lines and the
/// search then disagree, and no reading of a hunk found nowhere (relaxed context, lines left
/// out, a line the file lost) may overrule the lines.
pub(super) fn fits_as_written(
    index: &mut LineIndex<'_>,
    s: &Search<'_, '_>,
    budget: &mut Budget,
) -> Result<bool, Error> {
    let hunk = s.cx.hunk;
    let n = index.len();
    for used in body_lengths(hunk) {
        let old = super::old_side(hunk, used);
        if old.is_empty() || old.len() > n {
            continue;
        }
        let mut written = Pattern::new(old);
        if search::candidates(index, &mut written, s.opts, 0..n, budget)?.is_some() {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The most context lines any accepted relaxation of `old` sets aside: the outer ones, or a
/// third of the context lines, whichever is more, and never so many that fewer than
/// [`MIN_MATCHED`] non-blank lines, or fewer lines than are relaxed, still match.
fn max_relaxed(old: &[OldLine<'_>]) -> usize {
    let context = old.iter().filter(|l| !l.deleted).count();
    let outer = outer_lines(old).len();
    outer.max(context / 3).min(old.len() / 2)
}

/// The context lines at each end of the old side (up to [`OUTER`] each) before its first and
/// after its last `-` line.
fn outer_lines(old: &[OldLine<'_>]) -> Vec<usize> {
    let m = old.len();
    let first_del = old.iter().position(|l| l.deleted).unwrap_or(m);
    let last_del = old.iter().rposition(|l| l.deleted).map_or(0, |k| k + 1);
    let head = first_del.min(OUTER);
    let tail_from = m.saturating_sub(OUTER).max(last_del).max(head);
    (0..head).chain(tail_from..m).collect()
}

/// True when relaxing the old-side lines `relaxed` is allowed: each is a context line, they
/// are all outer lines or at most a third of the context lines, and enough lines still match.
fn acceptable(old: &[OldLine<'_>], relaxed: &[usize], outer: &[usize]) -> bool {
    let context = old.iter().filter(|l| !l.deleted).count();
    let matched = old.len() - relaxed.len();
    let matched_text = old
        .iter()
        .enumerate()
        .filter(|(k, l)| !relaxed.contains(k) && telling(l.text))
        .count();
    relaxed.iter().all(|&k| !old[k].deleted)
        && (relaxed.iter().all(|k| outer.contains(k)) || relaxed.len() * 3 <= context)
        && matched >= relaxed.len()
        && matched_text >= MIN_MATCHED
}

/// Every window of `range` where the old side fits with an accepted relaxation, in file
/// order; `None` when the search gave up (its allowance spent). Candidate windows come from
/// lines one of which any accepted window must match: a `-` line (a telling one if any), or
/// else `limit + 1` lines (telling ones first).
fn fits_in(
    index: &mut LineIndex<'_>,
    s: &Search<'_, '_>,
    old: &[OldLine<'_>],
    limit: usize,
    range: Range<usize>,
    meter: &mut Meter<'_>,
) -> Result<Option<Vec<Fit>>, Error> {
    let m = old.len();
    let max = s.opts.max_level;
    if range.end < range.start || range.end - range.start < m {
        return Ok(Some(Vec::new()));
    }
    let last_start = range.end - m;
    let mut order: Vec<usize> = (0..m).collect();
    // Stable: telling `-` lines, other `-` lines, telling context lines, the rest.
    order.sort_by_key(|&k| (!old[k].deleted, !telling(old[k].text)));
    let keys: &[usize] = if old.iter().any(|l| l.deleted) {
        &order[..1]
    } else {
        &order[..(limit + 1).min(m)]
    };
    let mut starts: Vec<usize> = Vec::new();
    for &k in keys {
        // Lines at k..=last_start+k hold line k of a window starting in the range.
        let lines = range.start + k..last_start + k + 1;
        let Ok(hits) =
            index.find_line(old[k].text, max, false, lines, usize::MAX, &mut meter.local)
        else {
            return Ok(None);
        };
        // find_line charged the allowance; the search budget is charged the same.
        meter.global.charge((last_start + 1 - range.start) as u64)?;
        starts.extend(hits.into_iter().map(|h| h - k));
    }
    starts.sort_unstable();
    starts.dedup();
    let outer = outer_lines(old);
    let mut fits = Vec::new();
    'window: for start in starts {
        if !meter.charge(m as u64)? {
            return Ok(None);
        }
        let mut level = Level::Exact;
        let mut relaxed = Vec::new();
        for (k, l) in old.iter().enumerate() {
            match index.line_level(start + k, l.text, max) {
                Some(lv) => level = level.max(lv),
                None if l.deleted || relaxed.len() >= limit => continue 'window,
                None => relaxed.push(k),
            }
        }
        if !acceptable(old, &relaxed, &outer) {
            continue;
        }
        match displaced(index, old, start, &relaxed, max, meter)? {
            None => return Ok(None),
            Some(true) => continue,
            Some(false) => fits.push(Fit {
                start,
                level,
                relaxed,
            }),
        }
    }
    Ok(Some(fits))
}

/// True when a relaxed line of the window at `start` is in the file near the window (within
/// the old side's length before or after it): then the file has lines the hunk does not show,
/// or lacks some it shows, and the window is shifted against them; it is no substitution.
/// `None` when the search must give up.
fn displaced(
    index: &mut LineIndex<'_>,
    old: &[OldLine<'_>],
    start: usize,
    relaxed: &[usize],
    max: Level,
    meter: &mut Meter<'_>,
) -> Result<Option<bool>, Error> {
    let m = old.len();
    let near = start.saturating_sub(m)..(start + 2 * m).min(index.len());
    for &k in relaxed {
        if !meter.charge((near.end - near.start) as u64)? {
            return Ok(None);
        }
        if near.clone().any(|i| index.line_eq(i, max, old[k].text)) {
            return Ok(Some(true));
        }
    }
    Ok(Some(false))
}

/// The not-found error of a hunk that fits several places with its context relaxed: the
/// message names them (1-based line ranges) and why none was taken.
pub(crate) fn ambiguous_note(e: Error, starts: &[usize], m: usize) -> Error {
    places_note(
        e,
        starts,
        m,
        "With some of its unchanged lines allowed to differ",
        "quote the unchanged lines exactly as the file has them.",
    )
}

/// `e` told that, read `how`, the hunk fits the windows of `m` lines at `starts` (0-based; the
/// first five shown), so none was taken, and what to do (`advice`); the candidates are the
/// windows when `e` names none.
pub(super) fn places_note(e: Error, starts: &[usize], m: usize, how: &str, advice: &str) -> Error {
    let shown: Vec<String> = starts
        .iter()
        .take(5)
        .map(|&s| format!("{}–{}", s + 1, s + m))
        .collect();
    let more = if starts.len() > shown.len() {
        format!(" and {} more", starts.len() - shown.len())
    } else {
        String::new()
    };
    let sep = if e.message().ends_with('\n') { "" } else { " " };
    let message = format!(
        "{}{sep}{how} it fits {} places (lines {}{more}), so none was taken: {advice}",
        e.message(),
        starts.len(),
        shown.join(", "),
    );
    let mut diagnostics = e.diagnostics().clone();
    if diagnostics.candidates.is_empty() {
        diagnostics.candidates = starts
            .iter()
            .map(|&s| u32::try_from(s + 1).unwrap_or(u32::MAX))
            .collect();
    }
    Error::new(e.status(), message, diagnostics)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn old(spec: &[(&'static str, bool)]) -> Vec<OldLine<'static>> {
        spec.iter()
            .map(|&(text, deleted)| OldLine { text, deleted })
            .collect()
    }

    #[test]
    fn a_hopeless_relaxed_search_gives_up_and_the_hunk_stays_not_found() {
        // Every window of a file of blank lines is a candidate for a hunk of blank lines and
        // absent telling lines: the relaxed search spends its allowance and gives up, leaving
        // the not-found error (not a search-budget error).
        let text = "\n".repeat(50_000);
        let mut patch = String::from("@@\n");
        for k in 0..10 {
            patch.push_str(&format!(" missing_line_{k}()\n"));
        }
        patch.push_str(&" \n".repeat(30));
        patch.push_str("+added()\n");
        let e = crate::apply(
            &text,
            &patch,
            crate::Mode::Update,
            &crate::Options::default(),
        )
        .unwrap_err();
        assert_eq!(e.status(), Status::ContextNotFound, "{}", e.message());
    }

    #[test]
    fn telling_lines_hold_three_letters_or_digits() {
        assert!(telling("    return x1"));
        assert!(telling("abc"));
        assert!(!telling("  });"));
        assert!(!telling(""));
        assert!(!telling("a = b"));
    }

    #[test]
    fn outer_lines_stop_at_the_changed_lines() {
        let o = old(&[
            ("a", false),
            ("b", false),
            ("c", false),
            ("x", true),
            ("d", false),
            ("e", false),
            ("f", false),
        ]);
        assert_eq!(outer_lines(&o), vec![0, 1, 5, 6]);
        let o = old(&[("a", false), ("x", true), ("b", false)]);
        assert_eq!(outer_lines(&o), vec![0, 2]);
        let o = old(&[("x", true), ("a", false)]);
        assert_eq!(outer_lines(&o), vec![1]);
    }

    #[test]
    fn relaxing_is_bounded() {
        let o = old(&[
            ("alpha", false),
            ("bravo", false),
            ("charlie", false),
            ("xray", true),
            ("delta", false),
            ("echo", false),
            ("foxtrot", false),
        ]);
        let outer = outer_lines(&o);
        // Outer lines, up to two at each end.
        assert!(acceptable(&o, &[0, 1], &outer));
        assert!(acceptable(&o, &[0, 6], &outer));
        // Interior lines: at most a third of the six context lines.
        assert!(acceptable(&o, &[2, 4], &outer));
        assert!(!acceptable(&o, &[2, 4, 5], &outer));
        // Never a `-` line.
        assert!(!acceptable(&o, &[3], &outer));
        // Never fewer matching lines than relaxed ones.
        let o = old(&[("alpha", false), ("xray", true), ("bravo", false)]);
        assert!(!acceptable(&o, &[0, 2], &outer_lines(&o)));
        // Never fewer than two telling lines that match.
        let o = old(&[
            ("one", false),
            ("two", true),
            ("}", false),
            ("three", false),
        ]);
        assert!(acceptable(&o, &[0], &outer_lines(&o)));
        let o = old(&[("one", false), ("two", true), ("}", false), ("", false)]);
        assert!(!acceptable(&o, &[0], &outer_lines(&o)));
    }
}
