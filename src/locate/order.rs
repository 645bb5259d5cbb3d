//! An ambiguity that the patch's own repeats settle (SPEC §3.2): the patch makes the same edit
//! (the same lines removed and added) in as many hunks as the edit's lines have places after
//! the previous hunk. The model meant each place once, and whichever hunk takes which place,
//! the text is the same: the hunks land there, in file order, when each lands on one of those
//! places by the usual rules.
//!
//! Hunks that differ are never settled so: only the order of the patch would tell which place
//! each of them means, and a patch that lists its hunks in another order than the file's
//! would then land each edit on the other's place. Nor is an edit settled when it has fewer
//! repeats than places (which place the model left alone is not said), or after a hunk that
//! landed out of order (the places after the previous hunk are then no evidence).

use super::index::{Budget, LineIndex};
use super::{check_overlaps, locate_one, place_from, FileHunks, HunkRef, Progress};
use crate::error::{Diagnostics, Error, Status};
use crate::patch::Hunk;

/// How many places an edit may have for its repeats to settle it.
const SETTLE_PLACES: usize = 8;

/// How many settled ambiguities the hunks of one file may try in all. Each trial runs inside
/// the one before it (it places the rest of the file's hunks), so this bounds the depth of
/// the nesting (the stack a call needs, 1 MiB in WebAssembly) and the copies of the placements
/// made so far that the trials take.
const SETTLE_TRIALS: usize = 16;

/// The place a trial takes of an ambiguity: `start`, of the places `among` (file lines,
/// 0-based, in file order). The search takes it only when the hunk fits exactly those places,
/// so that the trial settles the ambiguity the error named and no other.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pin<'p> {
    pub start: usize,
    pub among: &'p [usize],
}

impl Pin<'_> {
    /// The place to take among `found`, the places a search found, if this pin settles them.
    pub(crate) fn take(&self, found: &[usize]) -> Option<usize> {
        (found == self.among).then_some(self.start)
    }
}

/// What the trials of one file share: the search budget and the trials left. A trial that
/// fails (out of budget included) leaves the ambiguity it tried as it was.
pub(crate) struct Work<'b> {
    pub budget: &'b mut Budget,
    trials: usize,
    /// How many trials are running, one inside the other.
    depth: usize,
}

impl<'b> Work<'b> {
    pub(crate) fn new(budget: &'b mut Budget) -> Work<'b> {
        Work {
            budget,
            trials: SETTLE_TRIALS,
            depth: 0,
        }
    }

    /// Whether hunks are being placed inside a trial (their errors are not shown).
    pub(crate) fn quiet(&self) -> bool {
        self.depth > 0
    }
}

/// The same edit: the same body lines (kinds and texts) and end-of-file markers. Anchors
/// may differ (a model names the enclosing block before the first hunk only): they say where
/// each hunk is searched, and the trial checks that the repeats land on the places counted.
fn same_edit(a: &Hunk, b: &Hunk) -> bool {
    a.end_of_file == b.end_of_file
        && a.old_no_newline == b.old_no_newline
        && a.new_no_newline == b.new_no_newline
        && a.lines.len() == b.lines.len()
        && a.lines
            .iter()
            .zip(&b.lines)
            .all(|(x, y)| x.kind == y.kind && x.text == y.text)
}

/// Whether the hunks of `reading` that make hunk `i`'s edit (it and its repeats) landed on
/// exactly the places `among` (in file order), one each: then no assignment of them to those
/// places gives another text.
fn repeats_fill(file: &FileHunks<'_>, i: usize, reading: &Progress, among: &[usize]) -> bool {
    let hunk = &file.hunks[i];
    let mut starts: Vec<usize> = (i..file.hunks.len())
        .filter(|&j| same_edit(&file.hunks[j], hunk))
        .filter_map(|j| reading.placements.get(j).map(|p| p.start))
        .collect();
    starts.sort_unstable();
    starts == among
}

/// Hunk `i` failed with `e`. When `e` is an ambiguity among 2 to [`SETTLE_PLACES`] places, all
/// after the previous hunk, no hunk has landed out of order, and hunk `i` and the later hunks
/// that repeat its edit are exactly as many as the places: hunk `i` takes the first
/// place and the file's later hunks are placed by the usual rules (its repeats then find the
/// other places). When all of them land, the repeats on exactly those places, `done` takes that
/// reading (every hunk from `i` on) and the hunk reports how many places it had; otherwise
/// `Err((i, e))`, as before.
pub(super) fn settle(
    index: &mut LineIndex<'_>,
    file: &FileHunks<'_>,
    i: usize,
    done: &mut Progress,
    work: &mut Work<'_>,
    e: Error,
) -> Result<(), (usize, Error)> {
    let d = e.diagnostics();
    let among: Vec<usize> = d
        .candidates
        .iter()
        .map(|&c| (c as usize).saturating_sub(1))
        .collect();
    let hunk = &file.hunks[i];
    let settles = e.status() == Status::Ambiguous
        && !file.opts.first_match
        && d.hunk == Diagnostics::hunk_number(i)
        && (2..=SETTLE_PLACES).contains(&among.len())
        && among.iter().all(|&c| c >= done.region_start)
        && !done.out_of_order
        && file.hunks[i + 1..]
            .iter()
            .filter(|h| same_edit(h, hunk))
            .count()
            + 1
            == among.len();
    if !settles || work.trials == 0 {
        return Err((i, e));
    }
    work.trials -= 1;
    let pin = Pin {
        start: among[0],
        among: &among,
    };
    match trial(index, file, i, done, work, pin) {
        Some(reading) if repeats_fill(file, i, &reading, &among) => {
            *done = reading;
            Ok(())
        }
        _ => Err((i, e)),
    }
}

/// Hunk `i` placed at `pin`, then every later hunk: the placements, or `None` when some hunk
/// does not land.
fn trial(
    index: &mut LineIndex<'_>,
    file: &FileHunks<'_>,
    i: usize,
    done: &Progress,
    work: &mut Work<'_>,
    pin: Pin<'_>,
) -> Option<Progress> {
    let cx = HunkRef {
        pin: Some(pin),
        quiet: true,
        ..file.hunk_ref(i)
    };
    let around = (
        done.placements.as_slice(),
        &done.ranges,
        i.checked_sub(1).map(|k| &file.hunks[k]),
    );
    let placed = locate_one(
        index,
        &cx,
        done.region_start,
        around,
        file.opts,
        work.budget,
    );
    let p = placed.ok().filter(|p| p.start == pin.start)?;
    let mut reading = done.clone();
    reading.push(&cx, p, file.opts).ok()?;
    work.depth += 1;
    let rest = place_from(index, file, i + 1, &mut reading, work);
    work.depth -= 1;
    rest.ok()?;
    check_overlaps(file.hunks, &reading.placements, file.path).ok()?;
    Some(reading)
}

#[cfg(test)]
mod tests {
    use crate::{apply, Mode, Options, Status};

    /// Two copies of `k`/`v` with `x` between them, and the patch: the same edit of `v` twice
    /// with `between` hunks between them, each changing a line `b1`, `b2`, ... that follows `x`.
    fn repeated_edit(between: usize) -> (String, String) {
        let bs: String = (1..=between).map(|j| format!("b{j}\n")).collect();
        let source = format!("k\nv\nx\n{bs}k\nv\n");
        let edit = "@@\n k\n-v\n+V\n";
        let mut patch = String::from(edit);
        for j in 1..=between {
            patch.push_str(&format!("@@\n-b{j}\n+B{j}\n"));
        }
        patch.push_str(edit);
        (source, patch)
    }

    #[test]
    fn the_same_edit_twice_lands_on_both_places() {
        let (source, patch) = repeated_edit(0);
        let r = apply(&source, &patch, Mode::Update, &Options::default()).unwrap();
        assert_eq!(r.text, "k\nV\nx\nk\nV\n");
        assert_eq!(r.hunks[0].candidates, 2);
        assert_eq!(r.hunks[1].candidates, 1);
        assert!(r.hunks.iter().all(|h| !h.out_of_order));
        let (source, patch) = repeated_edit(20);
        let r = apply(&source, &patch, Mode::Update, &Options::default()).unwrap();
        assert_eq!(r.hunks.len(), 22);
        assert_eq!(r.hunks[21].old_start, 24);
    }

    #[test]
    fn different_edits_of_the_same_lines_keep_their_ambiguity() {
        // Which copy each edit means only the patch's order would say.
        let source = "k\nv\nx\nk\nv\n";
        let patch = "@@\n k\n-v\n+V\n@@\n k\n-v\n+W\n";
        let e = apply(source, patch, Mode::Update, &Options::default()).unwrap_err();
        assert_eq!(e.status(), Status::Ambiguous);
        assert_eq!(e.diagnostics().candidates, vec![1, 4]);
    }

    #[test]
    fn first_match_mode_takes_the_first_place_as_before() {
        let (source, patch) = repeated_edit(0);
        let opts = Options {
            first_match: true,
            ..Options::default()
        };
        let r = apply(&source, &patch, Mode::Update, &opts).unwrap();
        assert_eq!(r.text, "k\nV\nx\nk\nV\n");
        assert_eq!(r.hunks[0].candidates, 2);
        assert_eq!(r.hunks[1].candidates, 1);
    }

    #[test]
    fn the_trial_limit_bounds_the_settled_ambiguities_of_one_file() {
        // `groups` edits, each made 8 times over 8 copies of its lines: each group settles
        // its places in 7 trials, one inside the other (and inside the trials of the groups
        // before it). 2 groups take 14 trials; 3 would take 21, over the limit of 16, and the
        // first hunk's ambiguity is the answer.
        let make = |groups: usize| {
            let mut source = String::new();
            let mut patch = String::new();
            for g in 0..groups {
                source.push_str(&format!("k{g}\nv{g}\n").repeat(8));
                patch.push_str(&format!("@@\n k{g}\n-v{g}\n+V{g}\n").repeat(8));
            }
            (source, patch)
        };
        let (source, patch) = make(2);
        let r = apply(&source, &patch, Mode::Update, &Options::default()).unwrap();
        assert_eq!(r.hunks.len(), 16);
        assert!(!r.text.contains('v'));
        let (source, patch) = make(3);
        let e = apply(&source, &patch, Mode::Update, &Options::default()).unwrap_err();
        assert_eq!(e.status(), Status::Ambiguous);
        assert_eq!(e.diagnostics().hunk, Some(1));
    }
}
