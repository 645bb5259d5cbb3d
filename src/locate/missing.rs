//! A context line the file no longer has (SPEC §3.2): a hunk whose old side is found nowhere,
//! neither with context relaxed nor with a line of the file left out of it, is retried at
//! places where the file has exactly one line fewer than the old side. One interior context
//! line of the hunk is skipped (never a `-` line, never the first or last old-side line) and
//! every other old-side line matches at a level. That is a patch written before the file lost
//! an unchanged line (the drift deleted it), or a model that invented one. The hunk lands only
//! when exactly one window of the whole file fits, with one reading of which line is skipped
//! (the first or last line counts among the candidates when it equals the skipped one), and
//! that window is where the hunk is searched (under an anchor: [`search::fuzzy_starts`]); the
//! file's lines are kept. It is not tried beside a relaxed or gap reading, taken or not.

use std::ops::Range;

use super::gap::{
    checked_equivalent, old_lines, telling, Meter, OldLine, MIN_TELLING, WORK_PER_LINE,
};
use super::index::{Budget, LineIndex};
use super::search;
use super::{overlapping_hunk, without_blank_tail, Bend, Level, Placement, Search};
use crate::error::Error;

/// A window of the file (`m - 1` lines from `start`) where the old side fits with its line
/// `skip` left out.
struct Fit {
    start: usize,
    skip: usize,
    level: Level,
    /// One reading: the skipped line is the only one that fits, or one of a run of equal
    /// context lines with nothing added between them (every choice gives the same text).
    clear: bool,
}

/// What the retry with a context line left out found.
pub(crate) enum Missing {
    /// No window of the file fits.
    Nothing,
    /// Some window fits (the first one's 0-based start, if known), but none can be taken
    /// (several, two readings, too little evidence, or not where the hunk is searched): a
    /// reading to weigh against others, never placed.
    Refused(Option<usize>),
    /// One window, one reading, where the hunk is searched.
    Placed(Placement),
}

impl Missing {
    /// The first line (0-based) of the reading, if one was found.
    pub(crate) fn start(&self) -> Option<usize> {
        match self {
            Missing::Nothing => None,
            Missing::Refused(at) => *at,
            Missing::Placed(p) => Some(p.start),
        }
    }
}

/// The not-found error of a hunk that fits at `at` with some unchanged lines differing or one
/// left out of it, and also with one of its own unchanged lines skipped (a line the file does
/// not have): two readings, so neither was taken.
pub(crate) fn both_note(e: Error, at: usize, missing_at: Option<usize>) -> Error {
    let sep = if e.message().ends_with('\n') { "" } else { " " };
    let other = missing_at.map_or(String::new(), |g| format!(" (near line {})", g + 1));
    let message = format!(
        "{}{sep}It fits at line {} with some of the file's lines differing from it, and \
         elsewhere{other} with one of its unchanged lines skipped, a line the file does not \
         have: two readings, so neither was taken. Quote every unchanged line exactly as the \
         file has them.",
        e.message(),
        at + 1,
    );
    let mut diagnostics = e.diagnostics().clone();
    if diagnostics.candidates.is_empty() {
        diagnostics.candidates = std::iter::once(at)
            .chain(missing_at)
            .map(|s| u32::try_from(s + 1).unwrap_or(u32::MAX))
            .collect();
    }
    Error::new(e.status(), message, diagnostics)
}

/// Retries a hunk found nowhere with one of its interior context lines left out. Only when
/// every level may be used, never for an `*** End of File` hunk or a hunk without at least
/// three old-side lines, [`MIN_TELLING`] of the lines kept telling.
pub(crate) fn place(
    index: &mut LineIndex<'_>,
    s: &Search<'_, '_>,
    budget: &mut Budget,
) -> Result<Missing, Error> {
    let hunk = s.cx.hunk;
    if s.opts.max_level < Level::Fold || hunk.end_of_file {
        return Ok(Missing::Nothing);
    }
    let full = hunk.lines.len();
    let short = without_blank_tail(hunk);
    if super::relaxed::fits_as_written(index, s, budget)? {
        return Ok(Missing::Nothing);
    }
    for used in [full, short] {
        match place_used(index, s, used, budget)? {
            Missing::Nothing if used != short => continue,
            // A stray blank line is weak evidence: it must not pick one of two places.
            Missing::Placed(p) if used != short => {
                return Ok(match place_used(index, s, short, budget)?.start() {
                    Some(at) if at != p.start => Missing::Refused(Some(at)),
                    _ => Missing::Placed(p),
                })
            }
            found => return Ok(found),
        }
    }
    Ok(Missing::Nothing)
}

/// [`place`] for the first `used` body lines.
fn place_used(
    index: &mut LineIndex<'_>,
    s: &Search<'_, '_>,
    used: usize,
    budget: &mut Budget,
) -> Result<Missing, Error> {
    let old = old_lines(s.cx.hunk, used);
    let m = old.len();
    let n = index.len();
    if m < 3 || m > n + 1 || old.iter().filter(|l| telling(l.text)).count() < MIN_TELLING {
        return Ok(Missing::Nothing);
    }
    let mut meter = Meter {
        global: budget,
        local: Budget::new(WORK_PER_LINE.saturating_mul((n + m) as u64)),
    };
    let Some(fits) = fits_in(index, s, &old, &mut meter)? else {
        return Ok(Missing::Refused(None));
    };
    let [fit] = &fits[..] else {
        return Ok(match fits.first() {
            None => Missing::Nothing,
            Some(f) => Missing::Refused(Some(f.start)),
        });
    };
    let w = m - 1;
    let searched = match s.anchor {
        Some(a) => search::fuzzy_starts(index, a, w).contains(&fit.start),
        None => fit.start >= s.region_start || overlapping_hunk(s.placed, fit.start, w).is_none(),
    };
    let telling_kept = (0..m)
        .filter(|&k| k != fit.skip && telling(old[k].text))
        .count();
    if !fit.clear || !searched || telling_kept < MIN_TELLING {
        return Ok(Missing::Refused(Some(fit.start)));
    }
    let anchor_fuzz = s.anchor.map_or(0, |a| a.fuzz);
    let p = Placement {
        start: fit.start,
        old_len: w,
        used_lines: used,
        level: fit.level,
        line_levels: Box::default(),
        fuzz: anchor_fuzz
            .saturating_add(fit.level.fuzz())
            .saturating_add(super::relaxed::RELAXED_FUZZ),
        candidates: 1,
        out_of_order: fit.start < s.region_start,
        end_of_file: false,
        already_applied: false,
        anchor_ignored: false,
        context_relaxed: true,
        leans_on_order: false,
        bend: Some(Bend::missing(old[fit.skip].body)),
    };
    Ok(match checked_equivalent(index, s, p, budget)? {
        Some(p) => Missing::Placed(p),
        None => Missing::Refused(Some(fit.start)),
    })
}

/// Every window of the file where the old side fits with one interior context line left out,
/// in file order; `None` when the search gave up. Candidate windows come from the hits of a
/// line that is never skipped (a telling `-` line if any, else the first or last line).
fn fits_in(
    index: &mut LineIndex<'_>,
    s: &Search<'_, '_>,
    old: &[OldLine<'_>],
    meter: &mut Meter<'_>,
) -> Result<Option<Vec<Fit>>, Error> {
    let m = old.len();
    let w = m - 1;
    let n = index.len();
    let max = s.opts.max_level;
    let kept = |k: usize| old[k].deleted || k == 0 || k == m - 1;
    let Some(k) = (0..m)
        .filter(|&k| kept(k))
        .min_by_key(|&k| (!telling(old[k].text), !old[k].deleted, k))
    else {
        return Ok(Some(Vec::new()));
    };
    // Line k of a window starting at `start` is the file's line start + k (skip after it) or
    // start + k - 1 (skip before it).
    let range: Range<usize> = k.saturating_sub(1)..n.min(n - w + k + 1);
    let Ok(hits) = index.find_line(old[k].text, max, false, range, usize::MAX, &mut meter.local)
    else {
        return Ok(None);
    };
    meter.global.charge(n as u64)?;
    let mut starts: Vec<usize> = Vec::with_capacity(hits.len() * 2);
    for h in hits {
        if k + 1 < m - 1 && h >= k {
            starts.push(h - k);
        }
        if k > 1 && h + 1 >= k {
            starts.push(h + 1 - k);
        }
    }
    starts.retain(|&st| st + w <= n);
    starts.sort_unstable();
    starts.dedup();
    let mut fits = Vec::new();
    for start in starts {
        if !meter.charge(2 * m as u64)? {
            return Ok(None);
        }
        if let Some(fit) = fit_at(index, old, start, max) {
            fits.push(fit);
        }
    }
    Ok(Some(fits))
}

/// The fit of the window at `start` (`m - 1` file lines), if the old side matches it with one
/// interior context line left out.
fn fit_at(index: &mut LineIndex<'_>, old: &[OldLine<'_>], start: usize, max: Level) -> Option<Fit> {
    let m = old.len();
    let w = m - 1;
    // Old lines 0..prefix match from `start`; the last `suffix` old lines match one file line
    // earlier than their index says (the skipped line is before them).
    let prefix = (0..w)
        .take_while(|&k| index.line_level(start + k, old[k].text, max).is_some())
        .count();
    let suffix = (1..m)
        .rev()
        .take_while(|&k| index.line_level(start + k - 1, old[k].text, max).is_some())
        .count();
    // Skipping line j needs old lines 0..j from `start` and j+1..m one line earlier. The
    // first and last lines are never the skipped one, but when skipping one of them fits too,
    // the file's line could be either of two equal lines: they count among the readings.
    let skips: Vec<usize> = ((m - 1 - suffix)..=prefix.min(m - 1))
        .filter(|&j| !old[j].deleted)
        .collect();
    let first = skips.iter().copied().find(|&j| j > 0 && j < m - 1)?;
    let (&lo, &hi) = (skips.first()?, skips.last()?);
    let mut level = Level::Exact;
    for (k, l) in old.iter().enumerate() {
        if k == first {
            continue;
        }
        let at = if k < first { start + k } else { start + k - 1 };
        level = level.max(index.line_level(at, l.text, max)?);
    }
    // Several lines could be the skipped one: one reading only when they are a run of equal
    // context lines with nothing added between them (every choice leaves the same text).
    let run = (lo..=hi)
        .all(|j| !old[j].deleted && old[j].text.trim_end() == old[lo].text.trim_end())
        && old[hi].body - old[lo].body == hi - lo;
    Some(Fit {
        start,
        skip: first,
        level,
        clear: skips.len() == 1 || run,
    })
}
