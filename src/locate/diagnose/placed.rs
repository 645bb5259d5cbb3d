//! Errors about hunks that were placed: already applied, over the fuzz limit, overlapping.

use rustc_hash::FxHashSet;

use crate::error::{Diagnostics, Error, Status};
use crate::locate::index::LineIndex;
use crate::locate::{HunkRef, Placement};
use crate::patch::{Hunk, LineKind};

/// The error for an already-applied hunk when the caller treats that as an error.
pub(crate) fn already_applied_error(cx: &HunkRef<'_>, p: &Placement) -> Error {
    Error::new(
        Status::AlreadyApplied,
        format!(
            "{} is already applied to {}: its new lines are already at line {}. Drop this hunk.",
            cx.hunk_label(),
            cx.file_name(),
            p.start + 1
        ),
        cx.diagnostics(),
    )
}

/// The error for a hunk that brings the file's total fuzz above the caller's limit.
pub(crate) fn fuzz_limit(cx: &HunkRef<'_>, p: &Placement, total: u32, max: u32) -> Error {
    Error::new(
        Status::FuzzLimit,
        format!(
            "{} in {} only matches loosely (level {}, fuzz {}), which brings the total fuzz to \
             {total}, above the limit of {max}. Copy the lines exactly as they are in the file \
             (line {}).",
            cx.hunk_label(),
            cx.file_name(),
            p.level.name(),
            p.fuzz,
            p.start + 1
        ),
        cx.diagnostics(),
    )
}

/// The file lines a placement's `-` lines remove.
pub(crate) fn removed_lines(hunk: &Hunk, p: &Placement) -> Vec<usize> {
    let mut f = p.start;
    let mut out = Vec::new();
    let body = &hunk.lines[..p.used_lines.min(hunk.lines.len())];
    for (i, l) in body.iter().enumerate() {
        if p.missing() == Some(i) {
            // A context line the file no longer has: no file line.
            continue;
        }
        if p.gap() == Some(i) {
            // The file's lines the patch left out, kept as context.
            f += crate::locate::gap_len(p, body);
        }
        match l.kind {
            LineKind::Context => f += 1,
            LineKind::Delete => {
                out.push(f);
                f += 1;
            }
            LineKind::Add => {}
        }
    }
    out
}

/// How to resolve two hunks whose lines overlap: merge them only when both change the same
/// line; otherwise the later one repeats the other's lines as context.
fn overlap_advice(hunks: &[Hunk], placements: &[Placement], a: usize, b: usize) -> String {
    let ra = removed_lines(&hunks[a], &placements[a]);
    let rb = removed_lines(&hunks[b], &placements[b]);
    if ra.iter().any(|l| rb.contains(l)) {
        "Both change the same lines: merge them into one hunk.".to_string()
    } else {
        "They change different lines but their lines overlap: write the hunks in file order, \
         and do not repeat another hunk's lines as context."
            .to_string()
    }
}

/// Two placed hunks that overlap (found after every hunk is placed).
pub(crate) fn overlapping(
    hunks: &[Hunk],
    placements: &[Placement],
    x: usize,
    y: usize,
    path: &str,
) -> Error {
    let (first, second) = (x.min(y), x.max(y));
    let (a, b) = (&placements[x], &placements[y]);
    let a_end = a.start + a.old_len;
    let file = if path.is_empty() { "the file" } else { path };
    let what = if a.old_len == 0 || b.old_len == 0 {
        let (ins, other) = if a.old_len == 0 { (x, y) } else { (y, x) };
        format!(
            "hunk {} inserts at line {}, inside or at the start of the lines of hunk {} (lines \
             {}–{}), and the patch lists them in the other order. Write the hunks in file order.",
            ins + 1,
            placements[ins].start + 1,
            other + 1,
            placements[other].start + 1,
            placements[other].start + placements[other].old_len.max(1),
        )
    } else {
        format!(
            "both cover lines {}–{} of {file}. {}",
            b.start + 1,
            a_end.max(b.start + 1),
            overlap_advice(hunks, placements, first, second)
        )
    };
    Error::new(
        Status::OverlappingHunks,
        format!(
            "hunks {} and {} (patch lines {} and {}): {what}",
            first + 1,
            second + 1,
            hunks[first].patch_line,
            hunks[second].patch_line,
        ),
        Diagnostics {
            path: (!path.is_empty()).then(|| path.to_string()),
            patch_line: Some(hunks[second].patch_line),
            hunk: Diagnostics::hunk_number(second),
            candidates: vec![a.start as u32 + 1, b.start as u32 + 1],
            ..Diagnostics::default()
        },
    )
}

/// An out-of-order match of the hunk being placed that overlaps hunk `other`.
pub(crate) fn overlaps_placed(
    cx: &HunkRef<'_>,
    start: usize,
    m: usize,
    placed: &[Placement],
    other: usize,
) -> Error {
    let o = &placed[other];
    Error::new(
        Status::OverlappingHunks,
        format!(
            "{} matches lines {}–{} of {}, before the previous hunk, but hunk {} already covers \
             lines {}–{} there. If both edits are meant, write them as one hunk in file order; \
             if this hunk belongs elsewhere, include an unchanged line that only its place has.",
            cx.hunk_label(),
            start + 1,
            start + m,
            cx.file_name(),
            other + 1,
            o.start + 1,
            o.start + o.old_len.max(1),
        ),
        Diagnostics {
            candidates: vec![start as u32 + 1],
            ..cx.diagnostics()
        },
    )
}

/// The search-budget error, blaming what used the budget up: hunks out of file order (each
/// searches the whole file), a repetitive file, or else the hunk's lines being too common.
pub(crate) fn over_budget(
    index: &mut LineIndex<'_>,
    cx: &HunkRef<'_>,
    hunks: usize,
    placed: &[Placement],
    limit: u64,
) -> Error {
    let n = index.len();
    let backwards = placed.iter().filter(|p| p.out_of_order).count();
    let lines = index.lines();
    let distinct: FxHashSet<&str> = (0..n).map(|i| lines.get(i)).take(1 << 20).collect();
    let why = if backwards > 0 {
        format!(
            " {backwards} of the {} hunks placed before it come before the hunk above them in \
             the file, and each such hunk is searched for in the whole file: write the hunks \
             in file order.",
            placed.len()
        )
    } else if distinct.len() * 4 < n.min(1 << 20) {
        format!(
            " The file is very repetitive ({} distinct lines of {n}): add an \"@@\" anchor \
             line or more distinctive context so the place is easier to find.",
            distinct.len()
        )
    } else {
        " Add an \"@@\" anchor line or more distinctive context so the place is easier to \
         find."
            .to_string()
    };
    Error::new(
        Status::SearchBudget,
        format!(
            "{} of {}: placing the patch's hunks took more than the search budget of {limit} \
             line comparisons (hunk {} of {hunks}, a file of {n} lines).{why}",
            cx.hunk_label(),
            cx.file_name(),
            cx.hunk_index + 1,
        ),
        cx.diagnostics(),
    )
}
