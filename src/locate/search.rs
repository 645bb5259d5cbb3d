//! Where a hunk's old side is searched and when a match counts as unique: the region after
//! the previous hunk, the anchor's block, out-of-order fallbacks, and the levels that count
//! as one for uniqueness (SPEC §3.2).

use std::collections::BTreeSet;
use std::ops::Range;

use super::anchor::{indent_width, is_closing, AnchorMatch};
use super::index::{Budget, LineIndex, Pattern};
use super::{diagnose, old_side, overlapping_hunk, Level, Placement, Search, CANDIDATE_LIMIT};
use crate::error::Error;
use crate::options::Options;

/// A unique match of a hunk's old side.
pub(crate) struct Hit {
    /// First file line of the match.
    pub start: usize,
    /// The level it matched at.
    pub level: Level,
    /// The hit is the one place after the previous hunk, and the old side also fits before
    /// it (at the hit's level or a stricter one): [`super::Placement::leans_on_order`].
    pub leans_on_order: bool,
    /// How many candidates the deciding level had (more than one only in first-match mode, or
    /// when the patch's repeats of the edit settled them).
    pub candidates: u32,
}

/// The windows of `range` matching `pattern` at the strictest level that has any, in file
/// order. Exact and trim-end count as one level: when exact finds some, the trim-end windows
/// are the candidates (two places that differ only by trailing whitespace look the same to the
/// model). Every candidate is verified against the lines.
pub(crate) fn candidates(
    index: &mut LineIndex<'_>,
    pattern: &mut Pattern<'_>,
    opts: &Options,
    range: Range<usize>,
    budget: &mut Budget,
) -> Result<Option<(Level, Vec<usize>)>, Error> {
    let Some((level, found)) = index.search(
        pattern,
        opts.max_level,
        range.clone(),
        CANDIDATE_LIMIT,
        budget,
    )?
    else {
        return Ok(None);
    };
    if level == Level::Exact
        && opts.max_level >= Level::TrimEnd
        && !opts.first_match
        && index.any_trailing_ws(budget)?
    {
        let loose = index.find_windows(pattern, Level::TrimEnd, range, CANDIDATE_LIMIT, budget)?;
        if loose.len() > found.len() {
            return Ok(Some((Level::TrimEnd, loose)));
        }
    }
    Ok(Some((level, found)))
}

/// The one candidate of `range`; two or more is an ambiguity error (first-match mode takes
/// the first; a trial of a repeated edit the place it pins, [`super::order`]).
fn unique_in(
    index: &mut LineIndex<'_>,
    s: &Search<'_, '_>,
    pattern: &mut Pattern<'_>,
    old: &[&str],
    range: Range<usize>,
    budget: &mut Budget,
) -> Result<Option<Hit>, Error> {
    let Some((level, found)) = candidates(index, pattern, s.opts, range, budget)? else {
        return Ok(None);
    };
    let pinned = s.cx.pin.and_then(|pin| pin.take(&found));
    if found.len() > 1 && !s.opts.first_match && pinned.is_none() {
        return Err(diagnose::ambiguous(
            index, s.cx, old, &found, s.anchor, s.placed, s.opts,
        ));
    }
    Ok(Some(Hit {
        start: pinned.unwrap_or(found[0]),
        level,
        leans_on_order: false,
        candidates: found.len() as u32,
    }))
}

/// The first line where a hunk of `m` old-side lines under anchor `a` may start: the anchor's
/// line, or up to `m - 1` lines before it, where the hunk's window covers the anchor line: the
/// hunk quotes the anchor line itself among its context, at the file line the anchor names
/// (`@@ def bar():` over ` `, ` def bar():`, `-    return 1`), so the anchor and the lines agree.
pub(crate) fn starts_from(a: &AnchorMatch, m: usize) -> usize {
    a.block.start.saturating_sub(m.saturating_sub(1))
}

/// The last line (inclusive) where a hunk under anchor `a` may start: the first non-blank line
/// at or after the end of the anchor's block (the block's last line for a block that runs to
/// the end of the file).
pub(crate) fn starts_until(index: &LineIndex<'_>, a: &AnchorMatch) -> usize {
    let lines = index.lines();
    let n = lines.len();
    if a.block.end >= n {
        return n.saturating_sub(1);
    }
    (a.block.end..n)
        .find(|&j| !lines.get(j).trim().is_empty())
        .unwrap_or(n - 1)
}

/// True when a loose reading (relaxed context, lines left out) found after the previous hunk
/// rests on the hunk order, so that the same reading fitting before that hunk makes it
/// ambiguous: there is a previous hunk, and the hunk has no anchor, or its (innermost) anchor
/// line was taken after that hunk while a copy of its outermost anchor's line (at any level
/// allowed, as a whole line or a prefix) lies before it.
pub(crate) fn loose_after_previous(
    index: &mut LineIndex<'_>,
    s: &Search<'_, '_>,
    budget: &mut Budget,
) -> Result<bool, Error> {
    if s.region_start == 0 || s.opts.first_match {
        return Ok(false);
    }
    let (Some(a), Some(outer)) = (s.anchor, s.cx.hunk.anchors.first()) else {
        return Ok(s.anchor.is_none());
    };
    if a.line < s.region_start {
        return Ok(false);
    }
    for prefix in [false, true] {
        let copies = index.find_line(
            &outer.text,
            s.opts.max_level,
            prefix,
            0..s.region_start,
            1,
            budget,
        )?;
        if !copies.is_empty() {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The file lines where a fuzzy reading of a hunk under anchor `a` (context relaxed, a line
/// left out, one the file lost) may lie, for windows of `w` lines: from [`starts_from`], and
/// starting at the block's last line at the latest. The change of such a reading is inside
/// the block; a window past its end (which the hunk as written may start at, see
/// [`starts_until`]) is the next block's, and fuzz must not carry the hunk there.
pub(crate) fn fuzzy_starts(index: &LineIndex<'_>, a: &AnchorMatch, w: usize) -> Range<usize> {
    let n = index.len();
    let end = a.block.end.max(a.block.start + 1).min(n);
    starts_from(a, w)..(end + w).saturating_sub(1).min(n)
}

/// The placed hunks by first line, so that an out-of-order hit is checked against the few
/// placements near it instead of every one (hunks in reverse file order made that quadratic).
#[derive(Clone, Default)]
pub(crate) struct PlacedRanges {
    /// (first line, index in placement order) of each placement not already applied.
    by_start: BTreeSet<(usize, usize)>,
    /// The most lines any of them covers.
    max_len: usize,
    /// Placements recorded (already applied ones included).
    recorded: usize,
}

impl PlacedRanges {
    /// Records placement number `i`.
    pub(crate) fn push(&mut self, p: &Placement, i: usize) {
        self.recorded += 1;
        if p.already_applied {
            return;
        }
        self.by_start.insert((p.start, i));
        self.max_len = self.max_len.max(p.old_len);
    }

    /// Whether some placement of `placed` overlaps `start..start+len`: only those starting
    /// within the longest placement's length before it can. When `placed` is not the list
    /// recorded, every placement is looked at.
    fn any_overlaps(&self, placed: &[Placement], start: usize, len: usize) -> bool {
        if self.recorded != placed.len() {
            return overlapping_hunk(placed, start, len).is_some();
        }
        let from = start.saturating_sub(self.max_len);
        self.by_start
            .range((from, 0)..=(start.saturating_add(len), usize::MAX))
            .any(|&(_, i)| {
                placed
                    .get(i)
                    .is_some_and(|p| super::overlaps(p, start, len))
            })
    }
}

/// An out-of-order hit must not overlap a hunk placed before it.
fn no_overlap(s: &Search<'_, '_>, hit: &Hit, m: usize) -> Result<(), Error> {
    // The first overlapping placement (in placement order) is looked up among all of them,
    // as the message names it.
    if !s.ranges.any_overlaps(s.placed, hit.start, m) {
        return Ok(());
    }
    match overlapping_hunk(s.placed, hit.start, m) {
        Some(other) => Err(diagnose::overlaps_placed(
            s.cx, hit.start, m, s.placed, other,
        )),
        None => Ok(()),
    }
}

/// A hunk without an anchor: unique in its region, else (out of order) unique in the whole
/// file and clear of the hunks placed before it.
pub(crate) fn in_region(
    index: &mut LineIndex<'_>,
    s: &Search<'_, '_>,
    pattern: &mut Pattern<'_>,
    old: &[&str],
    budget: &mut Budget,
) -> Result<Option<Hit>, Error> {
    let n = index.len();
    if let Some(mut hit) = unique_in(index, s, pattern, old, s.region_start..n, budget)? {
        straddles(index, s, pattern, old, &hit, 0, budget)?;
        hit.leans_on_order = fits_before(index, s, pattern, &hit, budget)?;
        return Ok(Some(hit));
    }
    if s.region_start == 0 {
        return Ok(None);
    }
    let Some(hit) = unique_in(index, s, pattern, old, 0..n, budget)? else {
        return Ok(None);
    };
    no_overlap(s, &hit, old.len())?;
    Ok(Some(hit))
}

/// A hunk with anchors: inside the innermost anchor's block only, after the previous hunk
/// first when that hunk ends inside the block (a repeated anchor), then in the whole block
/// (out of order, clear of the hunks placed before it). Nothing outside the block counts.
pub(crate) fn in_block(
    index: &mut LineIndex<'_>,
    s: &Search<'_, '_>,
    pattern: &mut Pattern<'_>,
    old: &[&str],
    a: &AnchorMatch,
    budget: &mut Budget,
) -> Result<Option<Hit>, Error> {
    // A match starts inside the block (or before it, quoting the anchor line itself: see
    // [`starts_from`]); its last lines may run past the block's end (a hunk that ends a
    // function and starts the next, under the first one's header).
    let n = index.len();
    let block = a.block.start..(a.block.end + old.len().saturating_sub(1)).min(n);
    let from = starts_from(a, old.len());
    // The previous hunk lies inside the block (after the anchor line): a repeated anchor.
    let prev = s.placed.last().filter(|p| {
        p.start >= block.start && p.range().end > block.start && p.range().end <= block.end
    });
    if let Some(p) = prev {
        let after = p.range().end..block.end;
        if let Some(hit) = unique_in(index, s, pattern, old, after, budget)? {
            straddles(index, s, pattern, old, &hit, block.start, budget)?;
            return Ok(Some(hit));
        }
        // Only then the part of the block before the previous hunk, as out of order.
        if let Some(hit) = unique_in(index, s, pattern, old, from..p.start, budget)? {
            no_overlap(s, &hit, old.len())?;
            straddles(index, s, pattern, old, &hit, block.start, budget)?;
            return Ok(Some(hit));
        }
    }
    let mut hit = unique_in(index, s, pattern, old, from..block.end, budget)?;
    if hit.is_none() && a.block.end < n {
        // Nothing in the block: the hunk may start right after it (only blank lines between),
        // following the anchor's block as a unified diff's function-context header says.
        let follows = a.block.end..(starts_until(index, a) + old.len()).min(n);
        hit = unique_in(index, s, pattern, old, follows, budget)?;
    }
    let Some(hit) = hit else {
        return Ok(None);
    };
    if hit.start < s.region_start {
        no_overlap(s, &hit, old.len())?;
    }
    Ok(Some(hit))
}

/// Whether the old side of `hit` (found after the previous hunk) also fits a window that
/// starts before the region, at the hit's level or a stricter one (exact and trim-end as one).
fn fits_before(
    index: &mut LineIndex<'_>,
    s: &Search<'_, '_>,
    pattern: &mut Pattern<'_>,
    hit: &Hit,
    budget: &mut Budget,
) -> Result<bool, Error> {
    let m = pattern.len();
    if s.region_start == 0 || s.opts.first_match || m == 0 {
        return Ok(false);
    }
    let range = 0..(s.region_start + m - 1).min(index.len());
    for &level in s.opts.max_level.up_to() {
        if level > hit.level.max(Level::TrimEnd) {
            break;
        }
        if !index
            .find_windows(pattern, level, range.clone(), 1, budget)?
            .is_empty()
        {
            return Ok(true);
        }
    }
    Ok(false)
}

/// A match after the previous hunk is not unique when the old side also fits a place that
/// overlaps the previous hunk (the two hunks share context lines): either could be meant.
fn straddles(
    index: &mut LineIndex<'_>,
    s: &Search<'_, '_>,
    pattern: &mut Pattern<'_>,
    old: &[&str],
    hit: &Hit,
    floor: usize,
    budget: &mut Budget,
) -> Result<(), Error> {
    let Some(p) = s.placed.last() else {
        return Ok(());
    };
    if s.opts.first_match || p.old_len == 0 {
        return Ok(());
    }
    let m = old.len();
    let lo = (p.start + 1).saturating_sub(m).max(floor);
    let hi = (p.range().end + m - 1).min(index.len());
    if hi <= lo || hi - lo < m {
        return Ok(());
    }
    for &level in s.opts.max_level.up_to() {
        if level > hit.level.max(Level::TrimEnd) {
            break;
        }
        let found = index.find_windows(pattern, level, lo..hi, 4, budget)?;
        // Only places that share the previous hunk's unchanged lines, never its changed ones.
        let removed = s
            .prev_hunk
            .map(|h| diagnose::removed_lines(h, p))
            .unwrap_or_default();
        let mut across: Vec<usize> = found
            .into_iter()
            .filter(|&f| f < p.range().end && f != hit.start)
            .filter(|&f| !removed.iter().any(|&r| r >= f && r < f + m))
            .collect();
        if !across.is_empty() {
            across.push(hit.start);
            across.sort_unstable();
            return Err(diagnose::ambiguous(
                index, s.cx, old, &across, s.anchor, s.placed, s.opts,
            ));
        }
    }
    Ok(())
}

/// A hunk that matched with trailing empty context lines is also read without them: a stray
/// blank line is weak evidence (models often add one), so it must not pick one place among
/// several that fit the rest of the hunk, nor outvote the end of the file, where the hunk's
/// other lines may sit with no line after them. When that reading fits elsewhere too, the hunk
/// is ambiguous. A place past the start of the file's next hunk, when that hunk's old side is
/// unique in the file, is not another reading: it would put the hunks out of order, which the
/// empty line does not outweigh (the patch's order is evidence; the stray blank line is not).
pub(crate) fn check_blank_tail(
    index: &mut LineIndex<'_>,
    s: &Search<'_, '_>,
    p: &Placement,
    short: usize,
    budget: &mut Budget,
) -> Result<(), Error> {
    let m = old_side(s.cx.hunk, short).len();
    let n = index.len();
    // Without an anchor, in the region, and at places that share the previous hunk's
    // unchanged lines (as in [`straddles`]): the hunks may share context.
    let prev = s
        .placed
        .last()
        .filter(|q| q.old_len > 0 && !q.already_applied);
    let range = match s.anchor {
        Some(a) => starts_from(a, m)..(starts_until(index, a) + m).min(n),
        None if p.start >= s.region_start => {
            let lo = prev.map_or(s.region_start, |q| (q.start + 1).saturating_sub(m));
            lo.min(s.region_start)..n
        }
        None => 0..n,
    };
    let mut found = other_fits(index, s, p, short, range, budget)?;
    if let (Some(q), Some(h)) = (prev, s.prev_hunk) {
        let removed = diagnose::removed_lines(h, q);
        found.retain(|&f| !removed.iter().any(|&r| r >= f && r < f + m));
    }
    if found.is_empty() {
        return Ok(());
    }
    if let Some(q) = next_hunk_at(index, s, budget)?.filter(|&q| p.start + p.old_len <= q) {
        found.retain(|&f| f < q);
        if found.is_empty() {
            return Ok(());
        }
    }
    let at_end = found.contains(&(n - m));
    found.push(p.start);
    found.sort_unstable();
    Err(diagnose::ambiguous_blank_tail(
        s.cx,
        &found,
        p.start,
        at_end.then_some(n - m),
    ))
}

/// The mirror of [`check_blank_tail`]: a hunk placed only once its trailing empty context
/// lines were dropped must not fit, with them, anywhere else in the file (before the region or
/// outside the anchor's block it was searched in): the empty line may be real, and the place
/// there. Both readings are then offered as an ambiguity.
pub(crate) fn check_blank_tail_dropped(
    index: &mut LineIndex<'_>,
    s: &Search<'_, '_>,
    p: &Placement,
    full: usize,
    budget: &mut Budget,
) -> Result<(), Error> {
    let n = index.len();
    let Some(&at) = other_fits(index, s, p, full, 0..n, budget)?.first() else {
        return Ok(());
    };
    let mut both = vec![at, p.start];
    both.sort_unstable();
    Err(diagnose::ambiguous_blank_tail(s.cx, &both, at, None))
}

/// Where the file's next hunk (after the one of `s`) starts, when its whole old side is unique
/// in the file at the strictest level that finds it; `None` otherwise (no next hunk, an empty
/// old side, `*** End of File`, several places or none).
fn next_hunk_at(
    index: &mut LineIndex<'_>,
    s: &Search<'_, '_>,
    budget: &mut Budget,
) -> Result<Option<usize>, Error> {
    let Some(next) = s.cx.next.filter(|h| !h.end_of_file) else {
        return Ok(None);
    };
    let old = old_side(next, next.lines.len());
    if old.is_empty() || old.len() > index.len() {
        return Ok(None);
    }
    let mut pattern = Pattern::new(old);
    let n = index.len();
    Ok(
        match candidates(index, &mut pattern, s.opts, 0..n, budget)? {
            Some((_, found)) if found.len() == 1 => found.first().copied(),
            _ => None,
        },
    )
}

/// Where else in `range` than placement `p` the old side of the first `used` body lines fits
/// (at the strictest level that finds it); none for an `*** End of File` hunk, in first-match
/// mode, or when that old side is empty or longer than the file.
fn other_fits(
    index: &mut LineIndex<'_>,
    s: &Search<'_, '_>,
    p: &Placement,
    used: usize,
    range: std::ops::Range<usize>,
    budget: &mut Budget,
) -> Result<Vec<usize>, Error> {
    let hunk = s.cx.hunk;
    let old = old_side(hunk, used);
    let m = old.len();
    if hunk.end_of_file || s.opts.first_match || m == 0 || m > index.len() {
        return Ok(Vec::new());
    }
    let mut pattern = Pattern::new(old);
    let Some((_, found)) = candidates(index, &mut pattern, s.opts, range, budget)? else {
        return Ok(Vec::new());
    };
    Ok(found.into_iter().filter(|&f| f != p.start).collect())
}

/// True when `lines` (the other side of a slidable insertion) are a single context line: with
/// more context there, the hunk's place does not rest on the slidable line alone.
fn short_context(lines: &[crate::patch::Line]) -> bool {
    lines.len() == 1 && lines[0].kind == crate::patch::LineKind::Context
}

/// Whether `body` (at least 3 lines) is an insertion that can slide across its one context line
/// on a side: `Some(true)` down (`C0 +A1 … +Ak C1`, the hunk ending with C1 and A1 equal to C1),
/// `Some(false)` up (`B1 +A1 … +Ak C…`, the hunk starting with B1 and Ak equal to B1), where
/// the context on the other side of the added lines is a single line; `None` otherwise.
fn slide_shape(body: &[crate::patch::Line]) -> Option<bool> {
    use crate::patch::LineKind::{Add, Context};
    let k = body.len();
    let down = body[k - 1].kind == Context && body[k - 2].kind == Add && {
        let first_add = (0..k - 1).rev().take_while(|&j| body[j].kind == Add).last();
        first_add.is_some_and(|j| {
            j > 0
                && short_context(&body[..j])
                && body[j].text.trim_end() == body[k - 1].text.trim_end()
        })
    };
    if down {
        return Some(true);
    }
    let up = body[0].kind == Context && body[1].kind == Add && {
        let last_add = (1..k).take_while(|&j| body[j].kind == Add).last();
        last_add.is_some_and(|j| {
            j + 1 < k
                && short_context(&body[j + 1..])
                && body[j].text.trim_end() == body[0].text.trim_end()
        })
    };
    up.then_some(false)
}

/// An insertion held on one side by a single context line that equals the added line next to
/// it (`+  })` … then context `  })`) can slide across that line: the context then says nothing
/// about where the added block ends, and when that line occurs more than once in the region,
/// another copy could be meant as well: one where the file beside the copy holds more of the
/// slid block than beside the hunk's own place (a copy that holds no more of it is no better
/// a reading, and lacks the hunk's other context line). Such a hunk is refused with a request for one more
/// unchanged line. This guards against drift (the file changed after the model read it, so
/// the copy it meant may now be another one): in the text the model saw ([`HunkRef::seen`])
/// the hunk's unique old side is the place it meant, and every slid reading of it there gives
/// the same text, so nothing is checked.
///
/// [`HunkRef::seen`]: super::HunkRef::seen
pub(crate) fn check_slide(
    index: &mut LineIndex<'_>,
    s: &Search<'_, '_>,
    p: &Placement,
    budget: &mut Budget,
) -> Result<(), Error> {
    let body = &s.cx.hunk.lines[..p.used_lines];
    if s.cx.seen || s.anchor.is_some() || s.opts.first_match || body.len() < 3 {
        return Ok(());
    }
    use crate::patch::LineKind::Add;
    let Some(down) = slide_shape(body) else {
        return Ok(());
    };
    let (edge, at) = if down {
        (&body[body.len() - 1].text, p.start + p.old_len - 1)
    } else {
        (&body[0].text, p.start)
    };
    if edge.trim().is_empty() {
        return Ok(());
    }
    let adds: Vec<&str> = body
        .iter()
        .filter(|l| l.kind == Add)
        .map(|l| l.text.as_str())
        .collect();
    if level_settles(index, p, &adds, down) {
        return Ok(());
    }
    let n = index.len();
    let copies = index.find_line(
        edge,
        Level::TrimEnd,
        false,
        s.region_start..n,
        SLIDE_COPIES,
        budget,
    )?;
    // How far the added lines, read from the edge outwards (down: A1, A2 … after the edge
    // line; up: Ak, Ak-1 … before it), go on matching the file from a copy of the edge line:
    // the slid reading of the block needs those lines beside the copy. A copy is another
    // reading only where the file holds more of the slid block than at the hunk's own place:
    // there the file beside the copy looks more like what the model saw than the hunk's place
    // does (the drift case: `  })` then `})` elsewhere, `  })` then a new test here). Where the
    // hunk's place holds as much of it, the copy adds nothing but lacks the hunk's other
    // context line. Every copy is one when there are too many to look at.
    let many = copies.len() >= SLIDE_COPIES;
    let lines = index.lines();
    let extent = |c: usize| {
        (0..adds.len())
            .take_while(|&k| {
                let want = if down {
                    adds[k]
                } else {
                    adds[adds.len() - 1 - k]
                };
                let j = if down {
                    c.checked_add(k)
                } else {
                    c.checked_sub(k)
                };
                j.is_some_and(|j| j < n && lines.get(j).trim_end() == want.trim_end())
            })
            .count()
    };
    budget.charge(((copies.len() + 1) * adds.len()) as u64)?;
    let here = extent(at);
    let others: Vec<usize> = copies
        .into_iter()
        .filter(|&c| c != at && (many || extent(c) > here))
        .take(8)
        .collect();
    if others.is_empty() {
        return Ok(());
    }
    Err(diagnose::ambiguous_slide(s.cx, at, &others, edge, down))
}

/// Whether the indentation around a slidable insertion says that sliding it cannot change what
/// it means: the added lines are indented (the file has blocks), and the nearest non-blank
/// line past the hunk on the slide side (down: after it; up: before it) is indented no deeper
/// than the shallowest added line. A copy of the edge line elsewhere is then no other reading:
/// the block stands among lines of its own level or outside it, as the model wrote it. When
/// that neighbour is deeper (`+  })`, `+})`, `+describe(…)` … before the file's `  })` and the
/// `  it(…)` after it), putting the block here or past the neighbour gives those lines different
/// blocks, and the copies decide. Flat text (no added line indented) says nothing either way.
fn level_settles(index: &LineIndex<'_>, p: &Placement, adds: &[&str], down: bool) -> bool {
    let widths = || adds.iter().filter_map(|a| indent_width(a));
    let (Some(shallowest), Some(deepest)) = (widths().min(), widths().max()) else {
        return false;
    };
    if deepest == 0 {
        return false;
    }
    let lines = index.lines();
    // The line `k` steps past the hunk on the slide side, if the file has it.
    let beyond = |k: usize| match down {
        true => Some(p.start + p.old_len + k).filter(|&j| j < lines.len()),
        false => p.start.checked_sub(k + 1),
    };
    for k in 0..SLIDE_NEIGHBOUR_SCAN {
        let Some(j) = beyond(k) else {
            // Only blank lines up to the file's edge: nothing there for the block to hold.
            return true;
        };
        if let Some(w) = indent_width(lines.get(j)) {
            return w <= shallowest;
        }
    }
    false
}

/// How many blank lines [`level_settles`] looks past for the slidable insertion's neighbour.
const SLIDE_NEIGHBOUR_SCAN: usize = 64;

/// How many copies of a slidable edge line [`check_slide`] compares with the hunk's place;
/// with more, every copy counts as another reading.
const SLIDE_COPIES: usize = 4096;

/// A hunk placed at the trim level or looser, whose first or last line matched only by
/// ignoring its indentation, while the file line just beyond it equals that line exactly: the
/// hunk then fits both with the indentation ignored and with one file line skipped (`}` read
/// as `\t}` or as the `}` after it), and the two readings put the change in different blocks.
pub(crate) fn check_edge_indent(
    index: &mut LineIndex<'_>,
    s: &Search<'_, '_>,
    p: &Placement,
    budget: &mut Budget,
) -> Result<(), Error> {
    if p.level < Level::Trim || p.old_len == 0 || s.opts.first_match || p.already_applied {
        return Ok(());
    }
    let old = old_side(s.cx.hunk, p.used_lines);
    let n = index.len();
    let m = old.len();
    if m < 2 {
        return Ok(());
    }
    let last = m - 1;
    // The indentation shift (file minus patch) of each matched non-blank line.
    let shift = |index: &LineIndex<'_>, k: usize| -> Option<isize> {
        let f = indent_width(index.lines().get(p.start + k))? as isize;
        let q = indent_width(old[k])? as isize;
        Some(f - q)
    };
    // The edge line is the odd one out: the other lines agree on a shift it does not share.
    let odd = |index: &LineIndex<'_>, e: usize| -> bool {
        let Some(se) = shift(index, e) else {
            return false;
        };
        let others: Vec<isize> = (0..m)
            .filter(|&k| k != e)
            .filter_map(|k| shift(index, k))
            .collect();
        !others.is_empty() && others.iter().all(|&o| o == others[0]) && others[0] != se
    };
    let range = s.anchor.map_or(0..n, |a| a.block.clone());
    let mut other = None;
    if p.line_levels.get(last).is_some_and(|&l| l >= Level::Trim)
        && p.start + m < n
        && index.line_eq(p.start + m, Level::TrimEnd, old[last])
        && odd(index, last)
    {
        other = Some(p.start + 1);
    } else if p.line_levels.first().is_some_and(|&l| l >= Level::Trim)
        && p.start > range.start
        && index.line_eq(p.start - 1, Level::TrimEnd, old[0])
        && odd(index, 0)
    {
        other = Some(p.start - 1);
    }
    budget.charge(2)?;
    match other {
        Some(o) => Err(diagnose::ambiguous_edge_indent(s.cx, p.start, o)),
        None => Ok(()),
    }
}

/// A hunk without an anchor that starts with added lines says where they end, never where
/// they begin: unless it lands at the start of the file, an unchanged line the patch left out
/// before them would put them elsewhere. Refused with a request for the line before.
pub(crate) fn check_open_start(s: &Search<'_, '_>, p: &Placement) -> Result<(), Error> {
    let body = &s.cx.hunk.lines[..p.used_lines];
    let starts_with_add = body
        .first()
        .is_some_and(|l| l.kind == crate::patch::LineKind::Add);
    if s.anchor.is_some()
        || s.opts.first_match
        || !starts_with_add
        || p.start == 0
        || p.old_len == 0
    {
        return Ok(());
    }
    Err(diagnose::open_start(s.cx, p.start))
}

/// The mirror of [`check_open_start`]: a hunk that ends with added lines after its unchanged
/// lines says where they begin, never where they end. Unless it lands at the end of the file
/// (with an anchor: of the anchor's block, before its closing line), an unchanged line the
/// patch left out after the context would put them after that line instead. Refused with a
/// request for the line after.
pub(crate) fn check_open_end(
    index: &LineIndex<'_>,
    s: &Search<'_, '_>,
    p: &Placement,
) -> Result<(), Error> {
    let body = &s.cx.hunk.lines[..p.used_lines];
    if s.opts.first_match
        || s.cx.hunk.end_of_file
        || p.old_len == 0
        || p.already_applied
        || !super::ends_with_insertion(body)
    {
        return Ok(());
    }
    let end = p.start + p.old_len;
    let n = index.len();
    let lines = index.lines();
    // Only blank lines after the match (and the block's closing line): the end of the file or
    // of the anchor's block, as far as a model can tell.
    let limit = s.anchor.map_or(n, |a| a.block.end.clamp(end, n));
    let rest = end..limit;
    let closing = |j: usize| s.anchor.is_some() && j + 1 == limit && is_closing(lines.get(j));
    if rest
        .clone()
        .all(|j| lines.get(j).trim().is_empty() || closing(j))
    {
        return Ok(());
    }
    Err(open_end(s.cx, end, s.anchor.is_some()))
}

/// The error of [`check_open_end`]: the insertion would go before line `at` (0-based).
fn open_end(cx: &super::HunkRef<'_>, at: usize, anchored: bool) -> Error {
    use crate::error::{Diagnostics, Status};
    let (what, or_anchor) = if anchored {
        ("the anchor's block", "")
    } else {
        ("the file", ", or add an \"@@\" anchor")
    };
    Error::new(
        Status::Ambiguous,
        format!(
            "{} ends with added lines and no unchanged line after them, so only the lines \
             before them say where they go (after line {at}), and {what} goes on after that \
             line. End the hunk with the unchanged line after the insertion (line {}){or_anchor}.",
            cx.hunk_label(),
            at + 1,
        ),
        Diagnostics {
            candidates: vec![at as u32],
            ..cx.diagnostics()
        },
    )
}

/// A hunk matched with the indentation ignored must map each indentation of the patch to one
/// indentation of the file (SPEC §4, the indentation map): when the same patch indentation
/// stands for two different file indentations, the lines belong to different blocks than the
/// patch shows, and the hunk is refused rather than placed.
pub(crate) fn check_indent_map(
    index: &LineIndex<'_>,
    s: &Search<'_, '_>,
    p: &Placement,
) -> Result<(), Error> {
    if p.level < Level::Trim || p.already_applied {
        return Ok(());
    }
    let old = old_side(s.cx.hunk, p.used_lines);
    // Only a removed line read at another depth than the patch shows removes something the
    // patch did not mean (a different block's `}`); context read so is merely copied.
    let removed_off: Vec<bool> = s.cx.hunk.lines[..p.used_lines]
        .iter()
        .filter(|l| l.kind != crate::patch::LineKind::Add)
        .enumerate()
        .map(|(k, l)| {
            l.kind == crate::patch::LineKind::Delete
                && p.line_levels.get(k).is_some_and(|&lv| lv >= Level::Trim)
        })
        .collect();
    if !removed_off.iter().any(|&b| b) {
        return Ok(());
    }
    let lines = index.lines();
    let mut map: Vec<(&str, &str, usize)> = Vec::new();
    for (k, l) in old.iter().enumerate() {
        let f = lines.get(p.start + k);
        if l.trim().is_empty() || f.trim().is_empty() {
            continue;
        }
        let (pi, fi) = (leading_ws(l), leading_ws(f));
        match map.iter().find(|(q, _, _)| *q == pi) {
            Some(&(_, other, at)) if other != fi => {
                return Err(diagnose::inconsistent_indentation(
                    s.cx,
                    pi,
                    (at, other),
                    (p.start + k, fi),
                ));
            }
            Some(_) => {}
            None => map.push((pi, fi, p.start + k)),
        }
    }
    Ok(())
}

fn leading_ws(l: &str) -> &str {
    &l[..l.len() - l.trim_start().len()]
}
