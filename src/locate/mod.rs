//! Locating hunks: match levels, the line index, anchors and their blocks, uniqueness, and the
//! diagnostics written when a hunk cannot be placed.
//!
//! Every hunk is located against the original file; the builder then produces the new text
//! from the placements. See SPEC §3.2 for the rules implemented here: a hunk lands where the
//! patch says, or it is refused; it never lands somewhere else.

mod anchor;
mod applied;
mod diagnose;
mod fast;
mod gap;
mod index;
mod loose;
mod missing;
mod order;
mod postings;
mod prefilter;
mod raw;
mod relaxed;
mod search;

pub(crate) use crate::level::Level;

pub(crate) use crate::level::fold_single;
pub(crate) use index::Budget;

use crate::error::{Diagnostics, Error};
use crate::options::Options;
use crate::patch::{Hunk, Line, LineKind};
use crate::text::Lines;
use anchor::AnchorMatch;
use index::{LineIndex, Pattern};
use search::PlacedRanges;

/// How many candidates are collected for an ambiguity report.
pub(crate) const CANDIDATE_LIMIT: usize = 100;

/// Where one hunk landed in the original file.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Placement {
    /// First file line (0-based) of the matched old side (or the insertion point).
    pub start: usize,
    /// Number of file lines the old side covers.
    pub old_len: usize,
    /// Number of the hunk's body lines in use (a trailing blank context line may be dropped).
    pub used_lines: usize,
    /// The level the old side matched at.
    pub level: Level,
    /// For each used old-side line, the strictest level it matched at. A boxed slice, not a
    /// `Vec`: with [`Bend`] it keeps a placement at 64 bytes, the size of the
    /// [`HunkReport`](crate::HunkReport) the apply turns it into in place (`apply::updated`).
    pub line_levels: Box<[Level]>,
    /// Fuzz of this hunk: level, anchors, end-of-file fallback.
    pub fuzz: u32,
    /// Candidate places considered at the deciding level.
    pub candidates: u32,
    /// Placed before the previous hunk of the file.
    pub out_of_order: bool,
    /// Placed at the end of the file because of `*** End of File`.
    pub end_of_file: bool,
    /// The change is already present; the text is left unchanged.
    pub already_applied: bool,
    /// The hunk's anchors did not help (not found, or found more than once) and were set
    /// aside: the old side is unique where an unanchored hunk is searched.
    pub anchor_ignored: bool,
    /// Found only with some context lines relaxed (they differ from the file, whose lines are
    /// kept): [`relaxed`], SPEC §3.2.
    pub context_relaxed: bool,
    /// Found uniquely after the previous hunk while its old side also fits before it: the
    /// place rests on the patch listing its hunks in file order (see [`doubt_order`]).
    pub leans_on_order: bool,
    /// Found with one line of difference from the hunk's old side ([`gap`] or [`missing`]);
    /// read through [`Placement::gap`] and [`Placement::missing`].
    pub bend: Option<Bend>,
}

/// The one-line difference between a placement and its hunk's old side (rare: most placements
/// have none). The body index is of the lines in use; a `u32`, as every body index of a hunk
/// held in memory is (a body line is a 32-byte [`Line`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bend {
    /// Found only with one file line more than the hunk's old side, inside it (an unchanged
    /// line the patch left out, [`gap`], SPEC §3.2), or a run of two (lines a drift added):
    /// the body index before which those file lines are kept as context. `old_len` and
    /// `line_levels` count them ([`gap_len`]). [`gapped_body`] gives the equivalent body, whose
    /// lines map to the file one to one.
    Gap(u32),
    /// Found only with one of the hunk's interior context lines left out (a line the file no
    /// longer has, [`missing`], SPEC §3.2): its body index. `old_len` and `line_levels` do not
    /// count it; [`gapped_body`] leaves it out.
    Missing(u32),
}

impl Bend {
    /// A gap before body line `body`.
    pub(crate) fn gap(body: usize) -> Bend {
        Bend::Gap(u32::try_from(body).expect("a hunk held in memory has fewer than 2^32 lines"))
    }

    /// Body line `body` missing from the file.
    pub(crate) fn missing(body: usize) -> Bend {
        Bend::Missing(u32::try_from(body).expect("a hunk held in memory has fewer than 2^32 lines"))
    }
}

impl Placement {
    /// The body index before which a file line the patch left out is kept ([`Bend::Gap`]).
    pub(crate) fn gap(&self) -> Option<usize> {
        match self.bend {
            Some(Bend::Gap(g)) => Some(g as usize),
            _ => None,
        }
    }

    /// The body index of a context line the file no longer has ([`Bend::Missing`]).
    pub(crate) fn missing(&self) -> Option<usize> {
        match self.bend {
            Some(Bend::Missing(j)) => Some(j as usize),
            _ => None,
        }
    }

    /// The file lines the placement covers.
    fn range(&self) -> std::ops::Range<usize> {
        self.start..self.start + self.old_len
    }
}

/// The hunk being placed (its file, index and lines): what messages name.
pub(crate) struct HunkRef<'c> {
    pub path: &'c str,
    pub hunk_index: usize,
    pub hunk: &'c Hunk,
    /// The text searched is the one the model saw when it wrote the patch (base-aware apply:
    /// a base that differs from the current text, where the hunks are located before the
    /// merge carries them over): no drift can have moved a line the hunk quotes there, so the
    /// guards against drift (see [`search::check_slide`]) do not apply; the merge's own slide
    /// rules guard the drift since. A base equal to the current text is the plain apply (SPEC
    /// §3.2: nothing changes), so its guards stay.
    pub seen: bool,
    /// The file's next hunk, if any (a reading that would put it out of order is weaker).
    pub next: Option<&'c Hunk>,
    /// The file's hunks before this one (a fix is verified with them placed first).
    pub before: &'c [Hunk],
    /// The file's hunks after this one (a fix must not take the lines they cover).
    pub after: &'c [Hunk],
    /// In a trial of a repeated edit ([`order`]): the one place taken of the ambiguity it
    /// settles.
    pub pin: Option<order::Pin<'c>>,
    /// A trial of a repeated edit: its errors are never shown, so they are written without the
    /// fixes that cost a search of their own (an ambiguity's separating lines, a not-found
    /// hunk's closest region); their status and candidates are the same.
    pub quiet: bool,
}

/// How many of a file's other hunks a fix's verification places with it at most (each
/// verification locates them again): in a larger patch the hunk is verified alone, and not
/// against the hunks after it.
pub(crate) const VERIFY_HUNKS: usize = 16;

impl HunkRef<'_> {
    /// The hunks placed before this one when a fix is verified: all of them, or none in a
    /// patch with more than [`VERIFY_HUNKS`] before it.
    pub(crate) fn verified_before(&self) -> &[Hunk] {
        if self.before.len() > VERIFY_HUNKS {
            &[]
        } else {
            self.before
        }
    }

    /// Where `hunk`, resent in place of this one, lands when the patch's hunks before it are
    /// placed first (as the model's resent patch is): its placement, or the error.
    pub(crate) fn relocate(
        &self,
        lines: &Lines<'_>,
        hunk: Hunk,
        opts: &Options,
    ) -> Result<Placement, Error> {
        let mut hunks = self.verified_before().to_vec();
        hunks.push(hunk);
        let mut placed = locate_hunks(lines, &hunks, self.path, opts, self.seen)?;
        placed
            .pop()
            .ok_or_else(|| Error::simple(crate::error::Status::Internal, "no placement"))
    }

    /// Whether the whole patch of the file, with `hunk` resent in place of this one (landing
    /// on file lines `span`), is free of an overlap that no verified fix resolves (a fix's
    /// lines reaching into where a later hunk goes), and of a later hunk made ambiguous by a
    /// place inside `span` (a fix's lines taking in a copy of a later hunk, which no fix of
    /// that hunk can then reach). Other refusals of later hunks are theirs to fix.
    pub(crate) fn clear_of_later(
        &self,
        lines: &Lines<'_>,
        hunk: Hunk,
        opts: &Options,
        span: std::ops::Range<usize>,
    ) -> bool {
        if self.after.is_empty() || self.after.len() > VERIFY_HUNKS {
            return true;
        }
        let mut hunks = self.verified_before().to_vec();
        hunks.push(hunk);
        hunks.extend_from_slice(self.after);
        match locate_hunks(lines, &hunks, self.path, opts, self.seen) {
            Ok(_) => true,
            Err(e) => {
                let d = e.diagnostics();
                let later = d.hunk.is_some_and(|h| h as usize > self.hunk_index + 1);
                let inside = d
                    .candidates
                    .iter()
                    .any(|&c| span.contains(&(c as usize).saturating_sub(1)));
                match e.status() {
                    crate::error::Status::OverlappingHunks => d.corrected_hunk.is_some(),
                    _ if !later || !inside => true,
                    crate::error::Status::Ambiguous => false,
                    _ => d.corrected_hunk.is_some() || d.suggestion.is_some(),
                }
            }
        }
    }

    pub(crate) fn file_name(&self) -> String {
        if self.path.is_empty() {
            "the file".to_string()
        } else {
            self.path.to_string()
        }
    }

    pub(crate) fn hunk_label(&self) -> String {
        format!(
            "hunk {} (patch line {})",
            self.hunk_index + 1,
            self.hunk.patch_line
        )
    }

    pub(crate) fn diagnostics(&self) -> Diagnostics {
        Diagnostics {
            path: (!self.path.is_empty()).then(|| self.path.to_string()),
            patch_line: Some(self.hunk.patch_line),
            hunk: Diagnostics::hunk_number(self.hunk_index),
            ..Diagnostics::default()
        }
    }
}

/// What every placement of one hunk shares: the hunk, where its region starts, its anchors
/// and the hunks placed before it.
struct Search<'s, 'c> {
    cx: &'s HunkRef<'c>,
    region_start: usize,
    anchor: Option<&'s AnchorMatch>,
    placed: &'s [Placement],
    /// The file lines those placements cover, for overlap checks.
    ranges: &'s PlacedRanges,
    /// The hunk of the last placement, if any.
    prev_hunk: Option<&'s Hunk>,
    opts: &'s Options,
}

/// Locates every hunk of one file. Placements are returned in hunk order. `seen`: `lines`
/// are the text the model saw (a base), see [`HunkRef::seen`].
pub(crate) fn locate_hunks(
    lines: &Lines<'_>,
    hunks: &[Hunk],
    path: &str,
    opts: &Options,
    seen: bool,
) -> Result<Vec<Placement>, Error> {
    // Every hunk exact, unique and in order: placed without indexing the file (same answer).
    if let Some(placed) = fast::locate(lines, hunks, path, opts) {
        return placed;
    }
    locate_seen(lines, hunks, path, opts, seen)
}

/// Places and builds every hunk from the raw text after the BOM, without splitting it into
/// lines: every hunk exact ([`raw`]), or every hunk at a loose level ([`loose`]). `None`: the
/// line path runs from the start (the same answer).
pub(crate) fn raw_update(
    body: &str,
    bom: bool,
    hunks: &[Hunk],
    path: &str,
    opts: &Options,
) -> Option<(Vec<Placement>, crate::build::Built)> {
    let mut lf = raw::LfText::default();
    raw::update_with(body, bom, hunks, path, opts, (&mut lf, raw::MULTI_FROM))
        .or_else(|| loose::update_with(body, bom, hunks, path, opts, &mut lf))
}

/// [`locate_hunks`] without the fast path, in a text the model did not see.
#[cfg(test)]
fn locate_full(
    lines: &Lines<'_>,
    hunks: &[Hunk],
    path: &str,
    opts: &Options,
) -> Result<Vec<Placement>, Error> {
    locate_seen(lines, hunks, path, opts, false)
}

/// [`locate_hunks`] without the fast path.
fn locate_seen(
    lines: &Lines<'_>,
    hunks: &[Hunk],
    path: &str,
    opts: &Options,
    seen: bool,
) -> Result<Vec<Placement>, Error> {
    let mut index = LineIndex::new(lines);
    let mut budget = Budget::new(opts.search_budget);
    let mut done = Progress {
        placements: Vec::with_capacity(hunks.len()),
        ..Progress::default()
    };
    if hunks.len() >= 4 {
        prefetch(&mut index, hunks, &mut budget)?;
    }
    let file = FileHunks {
        hunks,
        path,
        opts,
        seen,
    };
    let mut work = order::Work::new(&mut budget);
    if let Err((i, e)) = place_from(&mut index, &file, 0, &mut done, &mut work) {
        let cx = file.hunk_ref(i);
        return Err(match e.status() {
            crate::error::Status::SearchBudget => diagnose::over_budget(
                &mut index,
                &cx,
                hunks.len(),
                &done.placements,
                budget.limit(),
            ),
            crate::error::Status::OverlappingHunks => {
                out_of_order_fix(lines, hunks, i, &done.placements, (path, opts, seen), e)
            }
            _ => e,
        });
    }
    if done.out_of_order {
        if let Some(h) = done.placements.iter().position(|p| p.leans_on_order) {
            return Err(doubt_order(
                &mut index,
                &file,
                h,
                &done.placements,
                &mut budget,
            ));
        }
    }
    let placements = done.placements;
    check_overlaps(hunks, &placements, path).map_err(|(e, h, other)| {
        let o = diagnose::Overlap {
            hunks,
            placed: &placements,
            h,
            start: placements[h].start,
            other,
            other_start: placements[other].start,
            upto: hunks.len(),
        };
        diagnose::with_trimmed_hunk(lines, &o, path, opts, seen, e)
    })?;
    Ok(placements)
}

/// Hunk `h` landed after the previous hunk while its lines also fit before it, and a hunk
/// landed out of order: the patch does not list its hunks in file order, so the place after the
/// previous hunk is no evidence, and hunk `h` is ambiguous in the whole file (SPEC §3.2).
fn doubt_order(
    index: &mut LineIndex<'_>,
    file: &FileHunks<'_>,
    h: usize,
    placed: &[Placement],
    budget: &mut Budget,
) -> Error {
    let cx = file.hunk_ref(h);
    let p = &placed[h];
    let old = old_side(cx.hunk, p.used_lines);
    let mut pattern = Pattern::new(old.clone());
    let mut found = match search::candidates(index, &mut pattern, file.opts, 0..index.len(), budget)
    {
        Ok(Some((_, found))) => found,
        Ok(None) => Vec::new(),
        Err(e) => return e,
    };
    if !found.contains(&p.start) {
        found.push(p.start);
        found.sort_unstable();
    }
    let e = diagnose::ambiguous(index, &cx, &old, &found, None, &placed[..h], file.opts);
    let later = placed.iter().position(|q| q.out_of_order).unwrap_or(h) + 1;
    let message = format!(
        "{}\nHunk {later} lands before the hunk above it in the patch: the patch does not list \
         its hunks in file order, so the place after the previous hunk does not decide.",
        e.message()
    );
    Error::new(e.status(), message, e.diagnostics().clone())
}

/// The hunks of one file being placed.
struct FileHunks<'f> {
    hunks: &'f [Hunk],
    path: &'f str,
    opts: &'f Options,
    seen: bool,
}

impl FileHunks<'_> {
    /// Hunk `i` as messages name it.
    fn hunk_ref(&self, i: usize) -> HunkRef<'_> {
        HunkRef {
            path: self.path,
            hunk_index: i,
            hunk: &self.hunks[i],
            seen: self.seen,
            next: self.hunks.get(i + 1),
            before: &self.hunks[..i],
            after: &self.hunks[i + 1..],
            pin: None,
            quiet: false,
        }
    }
}

/// The hunks of one file placed so far, and where the next one is searched.
#[derive(Clone, Default)]
struct Progress {
    placements: Vec<Placement>,
    ranges: PlacedRanges,
    region_start: usize,
    total_fuzz: u32,
    /// Some hunk was placed before the previous one.
    out_of_order: bool,
}

impl Progress {
    /// Records the placement of hunk `cx`, or the error of a placement the options refuse.
    fn push(&mut self, cx: &HunkRef<'_>, p: Placement, opts: &Options) -> Result<(), Error> {
        if p.already_applied && opts.already_applied_is_error {
            return Err(diagnose::already_applied_error(cx, &p));
        }
        self.total_fuzz = self.total_fuzz.saturating_add(p.fuzz);
        if let Some(max) = opts.max_fuzz {
            if self.total_fuzz > max {
                return Err(diagnose::fuzz_limit(cx, &p, self.total_fuzz, max));
            }
        }
        self.region_start = p.start + p.old_len;
        self.out_of_order |= p.out_of_order;
        self.ranges.push(&p, self.placements.len());
        self.placements.push(p);
        Ok(())
    }
}

/// Places the file's hunks from number `from` on after those of `done`. An ambiguity that the
/// patch's repeats of an edit settle ([`order::settle`]) places the rest of them at once.
/// `Err`: the hunk that failed and its error (`done` then holds the hunks placed before it).
fn place_from(
    index: &mut LineIndex<'_>,
    file: &FileHunks<'_>,
    from: usize,
    done: &mut Progress,
    work: &mut order::Work<'_>,
) -> Result<(), (usize, Error)> {
    for i in from..file.hunks.len() {
        let cx = HunkRef {
            quiet: work.quiet(),
            ..file.hunk_ref(i)
        };
        let around = (
            done.placements.as_slice(),
            &done.ranges,
            i.checked_sub(1).map(|k| &file.hunks[k]),
        );
        // Once a hunk has landed before the previous one, the patch does not list its hunks
        // in file order, and the place after the previous hunk is no evidence: each later
        // hunk is searched in the whole file, and must be unique there (SPEC §3.2).
        let region_start = if done.out_of_order {
            0
        } else {
            done.region_start
        };
        let mut p = match locate_one(index, &cx, region_start, around, file.opts, work.budget) {
            Ok(p) => p,
            Err(e) => return order::settle(index, file, i, done, work, e),
        };
        if done.out_of_order && !p.already_applied {
            p.out_of_order = p.start < done.region_start;
        }
        done.push(&cx, p, file.opts).map_err(|e| (i, e))?;
    }
    Ok(())
}

/// Many hunks: all their exact matches found in one pass instead of one scan each. The old
/// sides as slices of one vector (one `Vec` per hunk was 40 bytes a one-line hunk, more than
/// its line).
fn prefetch(index: &mut LineIndex<'_>, hunks: &[Hunk], budget: &mut Budget) -> Result<(), Error> {
    let mut flat: Vec<&str> = Vec::with_capacity(hunks.iter().map(|h| old_lines(h).count()).sum());
    flat.extend(hunks.iter().flat_map(old_lines).map(|l| l.text.as_str()));
    let mut olds: Vec<&[&str]> = Vec::with_capacity(hunks.len());
    let mut rest = flat.as_slice();
    for h in hunks {
        let (side, after) = rest.split_at(old_lines(h).count());
        olds.push(side);
        rest = after;
    }
    index.prefetch_exact(&olds, CANDIDATE_LIMIT, budget)
}

/// Hunk `i`'s out-of-order reading overlaps a hunk placed before it (`e`): `e` with the
/// hunk trimmed of the context lines the other covers, when that verifies.
fn out_of_order_fix(
    lines: &Lines<'_>,
    hunks: &[Hunk],
    i: usize,
    placed: &[Placement],
    (path, opts, seen): (&str, &Options, bool),
    e: Error,
) -> Error {
    let Some(start) = e.diagnostics().candidates.first().map(|&c| c as usize - 1) else {
        return e;
    };
    let m = hunks[i].old_lines().count().max(1);
    let Some(other) = overlapping_hunk(placed, start, m) else {
        return e;
    };
    let o = diagnose::Overlap {
        hunks,
        placed,
        h: i,
        start,
        other,
        other_start: placed[other].start,
        upto: i + 1,
    };
    diagnose::with_trimmed_hunk(lines, &o, path, opts, seen, e)
}

/// Two placements conflict when they share a file line, when an insertion falls strictly
/// inside another hunk's lines, or when an insertion at the first line of a later hunk's
/// lines comes later in the patch (the text would be written in the other order).
/// `Err`: the error, the later of the two hunks in the patch and the other.
fn check_overlaps(
    hunks: &[Hunk],
    placements: &[Placement],
    path: &str,
) -> Result<(), (Error, usize, usize)> {
    let mut order: Vec<usize> = (0..placements.len())
        .filter(|&i| !placements[i].already_applied)
        .collect();
    order.sort_by_key(|&i| (placements[i].start, placements[i].old_len, i));
    for w in order.windows(2) {
        let (a, b) = (&placements[w[0]], &placements[w[1]]);
        let a_end = a.start + a.old_len;
        let shared = b.old_len > 0 && b.start < a_end;
        let inside = b.old_len == 0 && b.start > a.start && b.start < a_end;
        let reversed = a.old_len == 0 && b.old_len > 0 && b.start == a.start && w[0] > w[1];
        if shared || inside || reversed {
            let e = diagnose::overlapping(hunks, placements, w[0], w[1], path);
            return Err((e, w[0].max(w[1]), w[0].min(w[1])));
        }
    }
    Ok(())
}

/// The index of a placed hunk (not already applied) whose lines overlap `start..start+len`.
fn overlapping_hunk(placements: &[Placement], start: usize, len: usize) -> Option<usize> {
    placements.iter().position(|p| overlaps(p, start, len))
}

/// True when placement `p` (not already applied) overlaps `start..start+len` (an insertion,
/// `len == 0`, overlaps only the lines strictly inside it).
fn overlaps(p: &Placement, start: usize, len: usize) -> bool {
    if p.already_applied {
        return false;
    }
    let (ps, pe) = (p.start, p.start + p.old_len);
    if len == 0 {
        start > ps && start < pe
    } else if p.old_len == 0 {
        p.start > start && p.start < start + len
    } else {
        start < pe && ps < start + len
    }
}

/// The lines in use of `hunk` as `p` places them: with a gap ([`Placement::gap`]), the file's
/// line the patch left out is inserted there as a context line (its text taken from the file),
/// so that the old side maps to the file's lines one to one; without one, the lines as written.
/// The builder, re-indentation and typography work on this body.
pub(crate) fn gapped_body<'h>(
    hunk: &'h Hunk,
    p: &Placement,
    lines: &Lines<'_>,
) -> std::borrow::Cow<'h, [Line]> {
    let body = &hunk.lines[..p.used_lines.min(hunk.lines.len())];
    if let Some(j) = p
        .missing()
        .filter(|&j| body.get(j).is_some_and(|l| l.kind == LineKind::Context))
    {
        let mut v = body.to_vec();
        v.remove(j);
        return std::borrow::Cow::Owned(v);
    }
    let Some(g) = p.gap().filter(|&g| g <= body.len()) else {
        return std::borrow::Cow::Borrowed(body);
    };
    let before = body[..g].iter().filter(|l| l.kind != LineKind::Add).count();
    let at = p.start + before;
    let extra = gap_len(p, body);
    if at + extra > lines.len() {
        return std::borrow::Cow::Borrowed(body);
    }
    let patch_line = body.get(g).map_or(hunk.patch_line, |l| l.patch_line);
    let mut v = Vec::with_capacity(body.len() + extra);
    v.extend_from_slice(&body[..g]);
    v.extend((at..at + extra).map(|i| Line {
        kind: LineKind::Context,
        text: lines.get(i).to_string(),
        patch_line,
    }));
    v.extend_from_slice(&body[g..]);
    std::borrow::Cow::Owned(v)
}

/// How many file lines a placement over a gap keeps that `body` (the lines in use) leaves out:
/// its `old_len` counts them (one or two, [`gap`]); 0 for any other placement.
pub(crate) fn gap_len(p: &Placement, body: &[Line]) -> usize {
    match p.gap() {
        Some(_) => p
            .old_len
            .saturating_sub(body.iter().filter(|l| l.kind != LineKind::Add).count()),
        None => 0,
    }
}

/// The body lines of the hunk in use, old side only.
/// The lines of `hunk`'s old side (context and `-` lines).
fn old_lines(hunk: &Hunk) -> impl Iterator<Item = &crate::patch::Line> {
    hunk.lines.iter().filter(|l| l.kind != LineKind::Add)
}

fn old_side(hunk: &Hunk, used: usize) -> Vec<&str> {
    hunk.lines[..used]
        .iter()
        .filter(|l| l.kind != LineKind::Add)
        .map(|l| l.text.as_str())
        .collect()
}

fn new_side(hunk: &Hunk, used: usize) -> Vec<&str> {
    hunk.lines[..used]
        .iter()
        .filter(|l| l.kind != LineKind::Delete)
        .map(|l| l.text.as_str())
        .collect()
}

/// True when the lines end with added lines that replace nothing (a pure insertion).
fn ends_with_insertion(lines: &[crate::patch::Line]) -> bool {
    let adds = lines
        .iter()
        .rev()
        .take_while(|l| l.kind == LineKind::Add)
        .count();
    adds > 0
        && lines[..lines.len() - adds]
            .last()
            .is_none_or(|l| l.kind == LineKind::Context)
}

/// True when a placement ends on an empty file line. Placed without its trailing empty context
/// lines, with added lines at the end of what is left, such a hunk has two readings at the end
/// of the file: the added lines after that line, or before it (the dropped empty line being
/// the file's): its empty line held them after all.
fn ends_on_blank(index: &LineIndex<'_>, p: &Placement) -> bool {
    p.old_len > 0 && index.lines().get(p.start + p.old_len - 1).trim().is_empty()
}

/// The body lengths a hunk found nowhere is read with, closest to the hunk as written first: all
/// its lines, then, when it ends with empty context lines, without them.
fn body_lengths(hunk: &Hunk) -> Vec<usize> {
    let (full, short) = (hunk.lines.len(), without_blank_tail(hunk));
    if short < full {
        vec![full, short]
    } else {
        vec![full]
    }
}

/// `starts` (0-based places, in file order) with `at` among them.
fn with_start(mut starts: Vec<usize>, at: usize) -> Vec<usize> {
    starts.push(at);
    starts.sort_unstable();
    starts.dedup();
    starts
}

/// The number of body lines without the trailing empty context lines (at least one line).
fn without_blank_tail(hunk: &Hunk) -> usize {
    let mut used = hunk.lines.len();
    while used > 1 {
        let l = &hunk.lines[used - 1];
        if l.kind == LineKind::Context && l.text.trim().is_empty() {
            used -= 1;
        } else {
            break;
        }
    }
    used
}

/// The fuzz added to a hunk whose anchors were set aside (SPEC §3.2).
const ANCHOR_IGNORED_FUZZ: u32 = 200;

fn locate_one(
    index: &mut LineIndex<'_>,
    cx: &HunkRef<'_>,
    region_start: usize,
    around: (&[Placement], &PlacedRanges, Option<&Hunk>),
    opts: &Options,
    budget: &mut Budget,
) -> Result<Placement, Error> {
    if !opts.first_match {
        return locate_once(index, cx, region_start, around, opts, budget);
    }
    // First-match mode changes only what the unique search refuses: a hunk the unique search
    // places is placed there (a first-match pick, such as an ambiguous anchor's first line,
    // could find a looser match in that line's block while the unique search has an exact
    // one elsewhere). A refusal other than the budget's is searched again taking the first of
    // several candidates; when that fails too, its error is the answer.
    let unique = Options {
        first_match: false,
        ..opts.clone()
    };
    match locate_once(index, cx, region_start, around, &unique, budget) {
        Ok(p) => Ok(p),
        Err(e) if e.status() == crate::error::Status::SearchBudget => Err(e),
        Err(_) => locate_once(index, cx, region_start, around, opts, budget),
    }
}

fn locate_once(
    index: &mut LineIndex<'_>,
    cx: &HunkRef<'_>,
    region_start: usize,
    (placed, ranges, prev_hunk): (&[Placement], &PlacedRanges, Option<&Hunk>),
    opts: &Options,
    budget: &mut Budget,
) -> Result<Placement, Error> {
    let hunk = cx.hunk;
    let prev_start = placed.last().map(|p| p.start);
    let resolved = anchor::resolve(
        index,
        cx,
        &hunk.anchors,
        region_start,
        prev_start,
        opts,
        budget,
    );
    let anchor = match resolved {
        Ok(anchor) => anchor,
        Err(e) if anchor_unhelpful(&e, opts) => {
            return without_anchor(
                index,
                cx,
                region_start,
                (placed, ranges, prev_hunk),
                opts,
                budget,
                e,
            );
        }
        Err(e) => return Err(e),
    };
    let s = Search {
        cx,
        region_start,
        anchor: anchor.as_ref(),
        placed,
        ranges,
        prev_hunk,
        opts,
    };
    let full = hunk.lines.len();
    if hunk.end_of_file {
        if let Some(p) = place_end_of_file(index, &s, budget)? {
            return Ok(p);
        }
    }
    if let Some(p) = place_checked(index, &s, budget)? {
        return Ok(p);
    }
    if let Some(p) = applied::already_applied(index, &s, full, budget)? {
        return Ok(p);
    }
    match (found_nowhere(index, &s, budget), anchor.as_ref()) {
        (Err(e), Some(a)) => anchor_elsewhere(index, &s, a, budget, e),
        (found, _) => found,
    }
}

/// A hunk found nowhere inside its innermost anchor's block, where that block holds few of the
/// hunk's context and `-` lines with a letter or a digit ([`has_letter_or_digit`]) at the
/// loosest level allowed: those are at least [`ANCHOR_ELSEWHERE_LINES`] different lines, and
/// the block holds none of them, or at most one in [`ANCHOR_ELSEWHERE_SHARE`] and none of its
/// `-` lines (so that neither a miscopied line nor a line the file changed since the model
/// read it can explain the mismatch, and the block's place would have to have lost nearly all
/// of its lines). The
/// anchor does not describe where the hunk's lines are (a model that named the header above
/// the change, not the one enclosing it), so it is an anchor that does not help (SPEC §3.2).
/// The hunk is placed as if written with the anchors before it, uniquely where such a hunk is
/// searched, with the anchor penalty and the flag `anchor_ignored`. A block that holds none of
/// the lines admits every reading of a hunk found nowhere (relaxed context, a line left out);
/// a block that holds some admits only the hunk as written. A block that holds more may hold
/// the place the model meant, changed since: the not-found error stands.
fn anchor_elsewhere(
    index: &mut LineIndex<'_>,
    s: &Search<'_, '_>,
    a: &anchor::AnchorMatch,
    budget: &mut Budget,
    error: Error,
) -> Result<Placement, Error> {
    use crate::error::Status;
    let (cx, opts) = (s.cx, s.opts);
    let hunk = cx.hunk;
    if error.status() != Status::ContextNotFound || opts.max_level == Level::Exact {
        return Err(error);
    }
    let Some(shared) = block_shares(index, hunk, a.block.clone(), opts.max_level, budget)? else {
        return Err(error);
    };
    let outer_anchors = &hunk.anchors[..hunk.anchors.len().saturating_sub(1)];
    let prev_start = s.placed.last().map(|p| p.start);
    let outer = match anchor::resolve(
        index,
        cx,
        outer_anchors,
        s.region_start,
        prev_start,
        opts,
        budget,
    ) {
        Ok(outer) => outer,
        Err(e) if e.status() == Status::SearchBudget => return Err(e),
        Err(_) => return Err(error),
    };
    let wider = Search {
        anchor: outer.as_ref(),
        ..*s
    };
    // As written first; else the readings of a hunk found nowhere (relaxed context, a line left
    // out or one the file lost), each unique where the hunk is searched without the anchor.
    let placed = match place_checked(index, &wider, budget) {
        Ok(None) if shared == 0 => found_nowhere(index, &wider, budget).map(Some),
        other => other,
    };
    match placed {
        Ok(Some(mut p)) if !p.end_of_file => {
            p.fuzz = p.fuzz.saturating_add(ANCHOR_IGNORED_FUZZ);
            p.anchor_ignored = true;
            Ok(p)
        }
        Err(e) if e.status() == Status::SearchBudget => Err(e),
        _ => Err(error),
    }
}

/// The fewest different context and `-` lines with a letter or a digit for
/// [`anchor_elsewhere`] to set an anchor aside: one or two lines that differ from the block
/// are a miscopy or a changed line as likely as a wrong anchor.
const ANCHOR_ELSEWHERE_LINES: usize = 3;

/// [`anchor_elsewhere`] sets an anchor aside when its block holds at most one in this many of
/// the hunk's different lines with a letter or a digit (a `try {` or a `use super::*;` that
/// the header above the change shares with the block the change is in).
const ANCHOR_ELSEWHERE_SHARE: usize = 5;

/// How many of the hunk's different context and `-` lines with a letter or a digit some line
/// of `block` equals at `level`, when that is few enough for [`anchor_elsewhere`] (none, or at
/// most one in [`ANCHOR_ELSEWHERE_SHARE`], and never a `-` line) and the hunk has at least
/// [`ANCHOR_ELSEWHERE_LINES`] of them; else `None`. One normalisation per line, charged to the
/// budget.
fn block_shares(
    index: &mut LineIndex<'_>,
    hunk: &Hunk,
    block: std::ops::Range<usize>,
    level: Level,
    budget: &mut Budget,
) -> Result<Option<usize>, Error> {
    // Each line's text, and whether the hunk deletes it (a block holding a deleted line may
    // be where the change was meant).
    let mut wanted = std::collections::HashMap::new();
    for l in hunk.lines.iter().filter(|l| l.kind != LineKind::Add) {
        if has_letter_or_digit(&l.text) {
            let deleted = wanted
                .entry(crate::level::normalized(&l.text, level))
                .or_insert(false);
            *deleted |= l.kind == LineKind::Delete;
        }
    }
    let end = block.end.min(index.len());
    budget.charge((wanted.len() + end.saturating_sub(block.start)) as u64)?;
    if wanted.len() < ANCHOR_ELSEWHERE_LINES {
        return Ok(None);
    }
    let most = wanted.len() / ANCHOR_ELSEWHERE_SHARE;
    let lines = index.lines();
    let mut buf = String::new();
    let mut shared = std::collections::HashSet::new();
    for i in block.start..end {
        buf.clear();
        let line = crate::level::normalize(lines.get(i), level, &mut buf);
        match wanted.get(line) {
            Some(true) => return Ok(None),
            Some(false) if shared.insert(line.to_owned()) && shared.len() > most => {
                return Ok(None)
            }
            _ => {}
        }
    }
    Ok(Some(shared.len()))
}

/// A line with a letter or a digit. Blank lines and lines of punctuation alone (`{`, `}`,
/// `});`) stand in nearly every block of a file, so a block holding one says nothing about
/// whether it is the place a hunk meant. (Looser than [`gap::telling`], which asks three
/// letters or digits of each line that must carry a reading on its own.)
fn has_letter_or_digit(line: &str) -> bool {
    line.chars().any(char::is_alphanumeric)
}

/// A hunk found nowhere as written: some context lines the file has otherwise (relaxed), or
/// an unchanged line the patch left out (a gap, SPEC §3.2). A hunk that fits both ways has
/// two readings (a model that left out a line makes a window elsewhere look like a changed
/// line), so it lands only when exactly one of them fits; else the not-found error, with a
/// note on the readings found.
fn found_nowhere(
    index: &mut LineIndex<'_>,
    s: &Search<'_, '_>,
    budget: &mut Budget,
) -> Result<Placement, Error> {
    let (cx, hunk) = (s.cx, s.cx.hunk);
    let relaxed = relaxed::place(index, s, budget)?;
    let gap = match relaxed {
        relaxed::Relaxed::Ambiguous(..) => gap::Gap::Nothing,
        // Beside a relaxed reading, a gap reading anywhere in the file is a second one.
        relaxed::Relaxed::Placed(_) => gap::place(index, s, true, budget)?,
        relaxed::Relaxed::Nothing => gap::place(index, s, false, budget)?,
    };
    let (relaxed, gap, other) = match with_missing(index, s, relaxed, gap, budget)? {
        Readings::One(p) => return Ok(p),
        Readings::Several(relaxed, gap, other) => (relaxed, gap, other),
    };
    let e = diagnose::not_found(
        index,
        cx,
        &old_side(hunk, hunk.lines.len()),
        s.anchor,
        s.region_start,
        s.opts,
        budget,
    );
    Err(match (relaxed, gap) {
        (relaxed::Relaxed::Ambiguous(starts, m), _) => relaxed::ambiguous_note(e, &starts, m),
        (_, gap::Gap::Ambiguous(starts, m)) => gap::ambiguous_note(e, &starts, m),
        (_, gap::Gap::Both(relaxed_at, gap_at)) => gap::both_note(e, relaxed_at, gap_at),
        (
            _,
            gap::Gap::Unclear {
                file_line,
                body_index,
            },
        ) => gap::unclear_note(e, cx, index, file_line, body_index),
        _ => match other {
            Some((at, missing_at)) => missing::both_note(e, at, missing_at),
            None => e,
        },
    })
}

/// The readings of a hunk found nowhere as written, once the skipped-line reading is weighed.
enum Readings {
    /// One reading: the placement.
    One(Placement),
    /// None, or more than one: the relaxed and gap outcomes for the error, and a placed
    /// reading's start beside the start of a skipped-line reading apart from it.
    Several(relaxed::Relaxed, gap::Gap, Option<(usize, Option<usize>)>),
}

/// Weighs a context line the file no longer has ([`missing`]) beside the relaxed and gap
/// readings: it is tried when there is at most one of them, and lands when there is none. A
/// skipped-line reading over the same lines as the one placed is another alignment of the same
/// place (which the relaxed and gap rules already weigh); one apart from it is a second place.
fn with_missing(
    index: &mut LineIndex<'_>,
    s: &Search<'_, '_>,
    relaxed: relaxed::Relaxed,
    gap: gap::Gap,
    budget: &mut Budget,
) -> Result<Readings, Error> {
    use gap::Gap;
    use missing::Missing;
    use relaxed::Relaxed;
    let single = matches!(
        (&relaxed, &gap),
        (Relaxed::Placed(_), Gap::Nothing) | (Relaxed::Nothing, Gap::Placed(_) | Gap::Nothing)
    );
    let missing = if single {
        missing::place(index, s, budget)?
    } else {
        Missing::Nothing
    };
    Ok(match (relaxed, gap, missing) {
        (Relaxed::Placed(p), Gap::Nothing, Missing::Nothing)
        | (Relaxed::Nothing, Gap::Placed(p), Missing::Nothing)
        | (Relaxed::Nothing, Gap::Nothing, Missing::Placed(p)) => Readings::One(p),
        (Relaxed::Placed(p), Gap::Nothing, m) | (Relaxed::Nothing, Gap::Placed(p), m) => {
            match m.start() {
                Some(at) if at + p.old_len < p.start || at > p.start + p.old_len => {
                    Readings::Several(Relaxed::Nothing, Gap::Nothing, Some((p.start, Some(at))))
                }
                _ => Readings::One(p),
            }
        }
        (Relaxed::Placed(r), g, _) => {
            let other = gap::other_start(&g);
            Readings::Several(Relaxed::Nothing, Gap::Both(r.start, other), None)
        }
        (relaxed, gap, _) => Readings::Several(relaxed, gap, None),
    })
}

/// True when an anchor error means only that the anchors do not help (not found, or found
/// more than once), so that the hunk may be placed without them. Strict mode keeps the error.
/// First-match mode takes an ambiguous anchor's first line (no error to set aside), and sets
/// aside one found nowhere like the default mode, so that a unique success is the same in both.
fn anchor_unhelpful(e: &Error, opts: &Options) -> bool {
    use crate::error::Status;
    opts.max_level > Level::Exact
        && match e.status() {
            Status::AnchorNotFound => true,
            Status::Ambiguous => !opts.first_match,
            _ => false,
        }
}

/// A hunk whose anchors do not help: the first anchor that fails, and every anchor after it,
/// are set aside when it is ambiguous or names no line of the file at all (an anchor found
/// only elsewhere, outside the block of the one before it, disagrees with them and stays an
/// error). The hunk is then placed as if written with the anchors before it (none: where a
/// hunk without anchors is searched, uniquely), with the anchor penalty and the flag
/// `anchor_ignored`; otherwise the anchor's error stands. A hunk with no old side is never
/// placed so: only its anchor said where it goes.
fn without_anchor(
    index: &mut LineIndex<'_>,
    cx: &HunkRef<'_>,
    region_start: usize,
    (placed, ranges, prev_hunk): (&[Placement], &PlacedRanges, Option<&Hunk>),
    opts: &Options,
    budget: &mut Budget,
    anchor_error: Error,
) -> Result<Placement, Error> {
    use crate::error::Status;
    let hunk = cx.hunk;
    if old_side(hunk, without_blank_tail(hunk)).is_empty() || hunk.end_of_file {
        return Err(anchor_error);
    }
    let prev_start = placed.last().map(|p| p.start);
    // The outer anchors that resolve, and the first one that does not.
    let mut outer = None;
    let mut failed = hunk.anchors.len();
    for k in 0..hunk.anchors.len() {
        match anchor::resolve(
            index,
            cx,
            &hunk.anchors[..=k],
            region_start,
            prev_start,
            opts,
            budget,
        ) {
            Ok(a) => outer = a,
            Err(e) if e.status() == Status::SearchBudget => return Err(e),
            Err(_) => {
                failed = k;
                break;
            }
        }
    }
    let Some(bad) = hunk.anchors.get(failed) else {
        return Err(anchor_error);
    };
    if anchor_error.status() == Status::AnchorNotFound
        && !anchor::found_nowhere(index, bad, opts, budget)?
    {
        return Err(anchor_error);
    }
    let s = Search {
        cx,
        region_start,
        anchor: outer.as_ref(),
        placed,
        ranges,
        prev_hunk,
        opts,
    };
    // As written first; else the readings of a hunk found nowhere (relaxed context, a line
    // left out or one the file lost), each unique where the hunk is searched without the
    // anchor: the anchor names no line of the file, or several, so it says nothing against
    // them.
    let placed = match place_checked(index, &s, budget) {
        Ok(None) => found_nowhere(index, &s, budget).map(Some),
        other => other,
    };
    match placed {
        Ok(Some(mut p)) if !p.end_of_file => {
            p.fuzz = p.fuzz.saturating_add(ANCHOR_IGNORED_FUZZ);
            p.anchor_ignored = true;
            Ok(p)
        }
        Err(e) if e.status() == Status::SearchBudget => Err(e),
        _ => Err(anchor_error),
    }
}

/// An `*** End of File` hunk tried at the end of the file first: a stray blank line before
/// the marker does not send it elsewhere.
fn place_end_of_file(
    index: &mut LineIndex<'_>,
    s: &Search<'_, '_>,
    budget: &mut Budget,
) -> Result<Option<Placement>, Error> {
    let hunk = s.cx.hunk;
    for used in (without_blank_tail(hunk)..=hunk.lines.len()).rev() {
        let old = old_side(hunk, used);
        if old.is_empty() {
            break;
        }
        let base = Placement {
            start: 0,
            old_len: old.len(),
            used_lines: used,
            level: Level::Exact,
            line_levels: Box::default(),
            fuzz: 0,
            candidates: 1,
            out_of_order: false,
            end_of_file: false,
            already_applied: false,
            anchor_ignored: false,
            context_relaxed: false,
            leans_on_order: false,
            bend: None,
        };
        let mut pattern = Pattern::new(old.clone());
        if let Some(p) = place_at_end(index, &mut pattern, s, &base, budget)? {
            if used < hunk.lines.len()
                && ends_with_insertion(&hunk.lines[..used])
                && ends_on_blank(index, &p)
            {
                continue;
            }
            return Ok(Some(finish(index, &old, p, s.opts)));
        }
    }
    Ok(None)
}

/// Places the hunk (with its trailing empty context lines, then without them) and checks the
/// placement's edges and indentation. `Ok(None)` means not found.
fn place_checked(
    index: &mut LineIndex<'_>,
    s: &Search<'_, '_>,
    budget: &mut Budget,
) -> Result<Option<Placement>, Error> {
    let hunk = s.cx.hunk;
    let full = hunk.lines.len();
    let short = without_blank_tail(hunk);
    // A trailing empty context line that does not match is retried without it, unless that
    // leaves added lines at the end of the hunk: the empty line was all that held them.
    for used in (short..=full).rev() {
        if let Some(p) = place(index, s, used, budget)? {
            let held =
                (hunk.end_of_file || p.range().end == index.len()) && !ends_on_blank(index, &p);
            if used < full && !held && ends_with_insertion(&hunk.lines[..used]) {
                break;
            }
            if used == full && short < full {
                search::check_blank_tail(index, s, &p, short, budget)?;
            } else if used < full {
                search::check_blank_tail_dropped(index, s, &p, full, budget)?;
            }
            search::check_slide(index, s, &p, budget)?;
            search::check_edge_indent(index, s, &p, budget)?;
            search::check_open_start(s, &p)?;
            search::check_open_end(index, s, &p)
                .map_err(|e| diagnose::with_open_end_fix(index, s.cx, &p, s.opts, e))?;
            search::check_indent_map(index, s, &p)?;
            return Ok(Some(p));
        }
    }
    Ok(None)
}

/// Tries to place the old side of the first `used` body lines. `Ok(None)` means not found.
fn place(
    index: &mut LineIndex<'_>,
    s: &Search<'_, '_>,
    used: usize,
    budget: &mut Budget,
) -> Result<Option<Placement>, Error> {
    let hunk = s.cx.hunk;
    let old = old_side(hunk, used);
    let anchor_fuzz = s.anchor.map_or(0, |a| a.fuzz);
    let base = Placement {
        start: 0,
        old_len: old.len(),
        used_lines: used,
        level: Level::Exact,
        line_levels: Box::default(),
        fuzz: anchor_fuzz,
        candidates: 1,
        out_of_order: false,
        end_of_file: false,
        already_applied: false,
        anchor_ignored: false,
        context_relaxed: false,
        leans_on_order: false,
        bend: None,
    };
    if old.is_empty() {
        return Ok(Some(place_insertion(index, s, base)));
    }
    let mut pattern = Pattern::new(old.clone());
    if hunk.end_of_file {
        if let Some(p) = place_at_end(index, &mut pattern, s, &base, budget)? {
            return Ok(Some(finish(index, &old, p, s.opts)));
        }
    }
    let found = match s.anchor {
        Some(a) => search::in_block(index, s, &mut pattern, &old, a, budget)?,
        None => search::in_region(index, s, &mut pattern, &old, budget)?,
    };
    let Some(hit) = found else {
        return Ok(None);
    };
    let eof_penalty = if hunk.end_of_file { 1000 } else { 0 };
    Ok(Some(finish(
        index,
        &old,
        Placement {
            start: hit.start,
            level: hit.level,
            fuzz: anchor_fuzz + hit.level.fuzz() + eof_penalty,
            candidates: hit.candidates,
            out_of_order: hit.start < s.region_start,
            leans_on_order: hit.leans_on_order,
            ..base
        },
        s.opts,
    )))
}

/// A hunk with an empty old side: right after its innermost anchor line, or right after the
/// previous hunk when that hunk lies after the anchor inside its block (a repeated anchor);
/// at the end of the file without an anchor or with `*** End of File`.
fn place_insertion(index: &LineIndex<'_>, s: &Search<'_, '_>, base: Placement) -> Placement {
    let n = index.len();
    let start = match s.anchor {
        Some(a) if !s.cx.hunk.end_of_file => s
            .placed
            .last()
            .filter(|p| p.start > a.line && p.range().end <= a.block.end)
            .map_or(a.line + 1, |p| p.range().end),
        _ => n,
    };
    Placement {
        start,
        end_of_file: s.cx.hunk.end_of_file || s.anchor.is_none(),
        out_of_order: start < s.region_start,
        ..base
    }
}

/// An `*** End of File` hunk tried at the end of the file first.
fn place_at_end(
    index: &mut LineIndex<'_>,
    pattern: &mut Pattern<'_>,
    s: &Search<'_, '_>,
    base: &Placement,
    budget: &mut Budget,
) -> Result<Option<Placement>, Error> {
    let (n, m) = (index.len(), pattern.len());
    if m > n {
        return Ok(None);
    }
    for &level in s.opts.max_level.up_to() {
        if index.window_matches(pattern, level, n - m, budget)? {
            return Ok(Some(Placement {
                start: n - m,
                level,
                fuzz: base.fuzz + level.fuzz(),
                end_of_file: true,
                out_of_order: n - m < s.region_start,
                ..base.clone()
            }));
        }
    }
    Ok(None)
}

/// Fills in the per-line levels of a placement.
fn finish(index: &mut LineIndex<'_>, old: &[&str], mut p: Placement, opts: &Options) -> Placement {
    p.line_levels = old
        .iter()
        .enumerate()
        .map(|(k, l)| {
            index
                .line_level(p.start + k, l, opts.max_level)
                .unwrap_or(p.level)
        })
        .collect();
    p
}
