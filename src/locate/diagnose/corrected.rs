//! The hunk rewritten with the file's real lines of the closest region.

use super::region::Region;
use super::text::{similarity, visible};
use crate::level::{normalized, Level};
use similar::{capture_diff_slices, Algorithm, DiffOp};
use std::ops::Range;

use crate::locate::gap::MAX_EXTRA;
use crate::locate::index::{Budget, LineIndex, Pattern};
use crate::locate::HunkRef;
use crate::patch::{Line as HunkLine, LineKind};

/// A corrected hunk and the list of lines that differ from the patch.
pub(super) struct Corrected {
    pub text: String,
    pub differences: String,
    /// The file lines (0-based, in order) the corrected hunk's old side quotes.
    pub old_lines: Vec<usize>,
    /// Every `-` line of the patch maps to a file line similar to it: the correction removes
    /// what the patch meant to remove, not some other line.
    pub faithful: bool,
    /// A `-` line's file line is already one of the hunk's added lines: the change is made
    /// there already, and the place meant may be another.
    pub made: bool,
}

/// How similar a `-` line must be to the file line it is mapped to for the correction to
/// keep the patch's meaning.
const DELETE_SIMILARITY: f64 = 0.5;

/// How many file lines after the previous pair a patch line between two equal lines is
/// compared with.
const LOOKAHEAD: usize = 32;

/// How similar a line with a letter or digit must be to its file line to count as evidence
/// that the region is the place the hunk means.
const ANCHOR_SIMILARITY: f64 = 0.8;

/// How a hunk's old side aligns to a window of the file.
struct Alignment {
    /// For each old-side line, the window line it corresponds to, if any.
    map: Vec<Option<usize>>,
    /// For each old-side line (and the end), window lines before it without a counterpart.
    extra_before: Vec<Vec<usize>>,
    /// The first and last window lines paired with an old-side line.
    span: (usize, usize),
}

/// Rewrites the hunk with the file's real lines of `region`, aligning the old side to the
/// region with a line diff (pairs of differing lines are replacements).
pub(super) fn corrected_hunk(
    index: &mut LineIndex<'_>,
    cx: &HunkRef<'_>,
    old: &[&str],
    r: &Region,
) -> Corrected {
    let lines = index.lines();
    // Widen the region a little so skipped or invented lines still align.
    let lo = r.start.saturating_sub(2);
    let hi = (r.end + 2).min(lines.len());
    let region: Vec<&str> = (lo..hi).map(|j| lines.get(j)).collect();
    let alignment = align(old, &region);
    render(cx, &region, lo, &alignment)
}

/// The equal lines of a line diff of `old` against `region` on their folded forms, as (old,
/// region) index pairs, ending with the pair one past both ends.
fn equal_pairs(old: &[&str], region: &[&str]) -> Vec<(usize, usize)> {
    let pn: Vec<String> = old.iter().map(|l| normalized(l, Level::Fold)).collect();
    let rn: Vec<String> = region.iter().map(|l| normalized(l, Level::Fold)).collect();
    let ops = capture_diff_slices(Algorithm::Myers, &pn, &rn);
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    for op in &ops {
        if let DiffOp::Equal {
            old_index,
            new_index,
            len,
        } = *op
        {
            pairs.extend((0..len).map(|k| (old_index + k, new_index + k)));
        }
    }
    pairs.push((old.len(), region.len()));
    pairs
}

/// For each old-side line: the file line it corresponds to (if any), and file lines that
/// precede it without a counterpart. Equal lines align exactly; in the gaps between them each
/// patch line pairs with the most similar file line after the previous pair.
fn align(old: &[&str], region: &[&str]) -> Alignment {
    let mut map: Vec<Option<usize>> = vec![None; old.len()];
    let mut extra_before: Vec<Vec<usize>> = vec![Vec::new(); old.len() + 1];
    let mut first_file = None;
    let mut last_file = None;
    let (mut po, mut pf) = (0usize, 0usize);
    for (eo, ef) in equal_pairs(old, region) {
        let mut cursor = pf;
        for k in po..eo {
            // Each patch line looks a bounded way ahead: the alignment stays linear in the
            // hunk's length however little of it the file has.
            let best = (cursor..ef.min(cursor + LOOKAHEAD))
                .map(|j| (j, similarity(old[k], region[j])))
                .filter(|&(_, s)| s >= 0.3)
                .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)));
            if let Some((j, _)) = best {
                extra_before[k].extend(cursor..j);
                map[k] = Some(j);
                first_file.get_or_insert(j);
                last_file = Some(j);
                cursor = j + 1;
            }
        }
        if eo < old.len() {
            extra_before[eo].extend(cursor..ef);
            map[eo] = Some(ef);
            first_file.get_or_insert(ef);
            last_file = Some(ef);
        }
        po = eo + 1;
        pf = ef + 1;
    }
    let span = match (first_file, last_file) {
        (Some(a), Some(b)) => (a, b),
        _ => (0, region.len().saturating_sub(1)),
    };
    Alignment {
        map,
        extra_before,
        span,
    }
}

/// The corrected hunk being written.
struct Writer<'r> {
    region: &'r [&'r str],
    /// The hunk's lines.
    body: &'r [HunkLine],
    /// File line of `region[0]`.
    lo: usize,
    text: String,
    differences: Vec<String>,
    old_lines: Vec<usize>,
    faithful: bool,
    /// See [`Corrected::made`].
    made: bool,
    /// A line with a letter or digit that the file has (nearly) as the patch quotes it:
    /// without one, the region shares only punctuation with the hunk.
    anchored: bool,
    /// The last line written was an added line.
    after_add: bool,
    /// The last old-side line of the patch is not in the file.
    dropped: bool,
}

impl Writer<'_> {
    fn note(&mut self, difference: String) {
        if self.differences.len() < 8 {
            self.differences.push(difference);
        }
    }

    fn added(&mut self, text: &str) {
        self.faithful &= !self.dropped;
        self.text.push('+');
        self.text.push_str(text);
        self.text.push('\n');
        self.after_add = true;
    }

    /// File line `j` of the region, which the hunk skips, as context.
    fn skipped(&mut self, j: usize) {
        // Right after added lines, whether they go before or after it is a guess.
        self.faithful &= !self.after_add;
        self.old_lines.push(self.lo + j);
        self.text.push(' ');
        self.text.push_str(self.region[j]);
        self.text.push('\n');
        let d = format!(
            "  file line {} {} is missing from the hunk",
            self.lo + j + 1,
            visible(self.region[j])
        );
        self.note(d);
    }

    /// An old-side line of the patch, written as the file line `at` it aligns to, if any.
    fn old(&mut self, line: &HunkLine, at: Option<usize>) {
        let after_add = std::mem::replace(&mut self.after_add, false);
        self.dropped = false;
        let Some(j) = at else {
            // A context line the file does not have, next to added lines, held their edge.
            self.faithful &= line.kind == LineKind::Context && !after_add;
            self.dropped = true;
            let d = format!(
                "  patch line {} {} is not in the file",
                line.patch_line,
                visible(&line.text)
            );
            return self.note(d);
        };
        let real = self.region[j];
        self.old_lines.push(self.lo + j);
        let similar = similarity(&line.text, real);
        self.anchored |=
            similar >= ANCHOR_SIMILARITY && line.text.chars().any(char::is_alphanumeric);
        if line.kind == LineKind::Delete && similar < DELETE_SIMILARITY {
            self.faithful = false;
        }
        // A `-` line whose file line already is one of the hunk's added lines: the change is
        // made there already (`create<any>(` to be `create(`, the file has `create(`), so the
        // correction would change nothing there but the indentation, and the place meant may
        // be another copy. An added line indented otherwise than the `-` line counts only as
        // written: a line the patch moves into a block is not moved yet.
        let indent = |t: &str| t.len() - t.trim_start().len();
        let made = |l: &HunkLine| {
            l.kind == LineKind::Add
                && (l.text.trim_end() == real.trim_end()
                    || (l.text.trim() == real.trim() && indent(&l.text) == indent(&line.text)))
        };
        if line.kind == LineKind::Delete
            && real.trim() != line.text.trim()
            && self.body.iter().any(made)
        {
            self.made = true;
        }
        self.text.push(if line.kind == LineKind::Context {
            ' '
        } else {
            '-'
        });
        self.text.push_str(real);
        self.text.push('\n');
        if real != line.text {
            let d = format!(
                "  patch line {} {}\n  file line  {} {}",
                line.patch_line,
                visible(&line.text),
                self.lo + j + 1,
                visible(real)
            );
            self.note(d);
        }
    }
}

/// Writes the corrected hunk: the patch's anchors and added lines, the old side replaced by
/// the window lines it aligns to, and window lines the hunk skipped as context.
fn render(cx: &HunkRef<'_>, region: &[&str], lo: usize, a: &Alignment) -> Corrected {
    let in_span = |j: &usize| *j >= a.span.0 && *j <= a.span.1;
    let mut w = Writer {
        region,
        body: &cx.hunk.lines,
        lo,
        text: String::new(),
        differences: Vec::new(),
        old_lines: Vec::new(),
        faithful: true,
        made: false,
        anchored: false,
        after_add: false,
        dropped: false,
    };
    for anchor in &cx.hunk.anchors {
        w.text.push_str(&format!("@@ {}\n", anchor.text));
    }
    if cx.hunk.anchors.is_empty() {
        w.text.push_str("@@\n");
    }
    let mut k = 0usize; // old-side index
    for line in &cx.hunk.lines {
        if line.kind == LineKind::Add {
            w.added(&line.text);
            continue;
        }
        for &j in a.extra_before[k].iter().filter(|j| in_span(j)) {
            w.skipped(j);
        }
        w.old(line, a.map[k]);
        k += 1;
    }
    if w.differences.is_empty() {
        w.differences
            .push("  (the lines match only in a different order)".to_string());
    }
    // A pure insertion is held only by its context: with a line of it missing from the file,
    // where the added lines go is a guess.
    let insertion = !cx.hunk.lines.iter().any(|l| l.kind == LineKind::Delete);
    let dropped = a.map.iter().any(Option::is_none);
    Corrected {
        text: w.text,
        differences: w.differences.join("\n"),
        old_lines: w.old_lines,
        faithful: w.faithful && w.anchored && !(insertion && dropped),
        made: w.made,
    }
}

impl Corrected {
    /// Whether the corrected hunk can be offered: it keeps the patch's `-` lines and where its
    /// added lines go, its old side is a run of consecutive file lines, and that run occurs
    /// exactly once in `search` (where the engine will look for it), so resending it lands on
    /// the lines it quotes, and the hunk's old side `old` has no other reading: with one
    /// interior line the patch left out (or a run of two, which a drift may have added) it
    /// does not match other lines anywhere in the file. `Err` says why not, for the message.
    pub(super) fn check(
        &self,
        index: &mut LineIndex<'_>,
        old: &[&str],
        search: Range<usize>,
        budget: &mut Budget,
    ) -> Result<(), &'static str> {
        const UNFAITHFUL: &str = "with the file's lines there, the hunk would remove other lines \
                                  than it quotes, or where its added lines go would be a guess";
        let (Some(&first), Some(&last)) = (self.old_lines.first(), self.old_lines.last()) else {
            return Err(UNFAITHFUL);
        };
        const MADE: &str = "the file there already has a line the hunk adds where it removes \
                            another: the change may be made there already, and the place meant \
                            may be another";
        if self.made {
            return Err(MADE);
        }
        let consecutive = self.old_lines.windows(2).all(|w| w[1] == w[0] + 1);
        if !self.faithful || !consecutive || first < search.start || last >= search.end {
            return Err(UNFAITHFUL);
        }
        for extra in 1..=MAX_EXTRA {
            // A reading at the corrected hunk's own lines is that hunk; any other is another
            // place. The whole file: the place the writer meant may begin before the anchor's
            // block.
            let own = (last + 1 == first + old.len() + extra).then_some(first);
            match dropped_line_reading(index, old, (0..index.len(), extra), own, budget) {
                Err(()) => {
                    return Err("the search for another reading of the hunk ran out of budget")
                }
                Ok(Some(_)) if extra == 1 => {
                    return Err("with one line the patch left out, its lines match another place")
                }
                Ok(Some(_)) => {
                    return Err("with two lines the patch left out, its lines match another place")
                }
                Ok(None) => {}
            }
        }
        let lines = index.lines();
        let mut pattern = Pattern::new((first..=last).map(|j| lines.get(j)).collect());
        match index.find_windows(&mut pattern, Level::Exact, search, 2, budget) {
            Ok(found) if found == [first] => Ok(()),
            _ => Err("the file's lines there occur more than once"),
        }
    }
}

/// The first line of a place in `search` other than `own` where `old` matches (folded) with
/// a run of `extra` interior lines of the file left out: the writer may have dropped a line
/// (or the file gained some), and the hunk may mean that place. `Err` when the budget runs
/// out (then whether there is such a place is unknown).
fn dropped_line_reading(
    index: &mut LineIndex<'_>,
    old: &[&str],
    (search, extra): (Range<usize>, usize),
    own: Option<usize>,
    budget: &mut Budget,
) -> Result<Option<usize>, ()> {
    let m = old.len();
    let Some(first) = old.first().filter(|_| m >= 2) else {
        return Ok(None);
    };
    let starts = index
        .find_line(
            first,
            Level::Fold,
            false,
            search.clone(),
            usize::MAX,
            budget,
        )
        .map_err(|_| ())?;
    for j in starts.into_iter().filter(|&j| Some(j) != own) {
        if j + m + extra > search.end.min(index.len()) {
            break;
        }
        budget.charge(2 * m as u64).map_err(|_| ())?;
        // Lines matching from the front, and from the back with the window `extra` lines longer.
        let p = (0..m)
            .take_while(|&k| index.line_eq(j + k, Level::Fold, old[k]))
            .count();
        let q = (0..m)
            .take_while(|&k| index.line_eq(j + m + extra - 1 - k, Level::Fold, old[m - 1 - k]))
            .count();
        if p >= 1 && q >= 1 && p + q >= m {
            return Ok(Some(j));
        }
    }
    Ok(None)
}
