//! Locating hunks: match levels, the line index, anchors, uniqueness, and the diagnostics
//! written when a hunk cannot be placed.
//!
//! Every hunk is located against the original file; the builder then produces the new text
//! from the placements. See SPEC §3 for the rules implemented here.

mod anchor;
mod diagnose;
mod index;

pub(crate) use crate::level::Level;

pub(crate) use crate::level::fold_single;
pub(crate) use index::Budget;

use crate::error::{Diagnostics, Error, Status};
use crate::options::Options;
use crate::patch::{Hunk, LineKind};
use crate::text::Lines;
use anchor::AnchorMatch;
use index::{LineIndex, Pattern};

/// How many candidates are collected for an ambiguity report.
const CANDIDATE_LIMIT: usize = 100;

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
    /// For each used old-side line, the strictest level it matched at.
    pub line_levels: Vec<Level>,
    /// Fuzz of this hunk: level, anchors, end-of-file fallback.
    pub fuzz: u32,
    /// Candidate places considered at the deciding level.
    pub candidates: u32,
    /// Found only by searching the whole file.
    pub out_of_order: bool,
    /// Placed at the end of the file because of `*** End of File`.
    pub end_of_file: bool,
    /// The change is already present; the text is left unchanged.
    pub already_applied: bool,
}

/// The hunk being placed (its file, index and lines): what messages name.
pub(crate) struct HunkRef<'c> {
    pub path: &'c str,
    pub hunk_index: usize,
    pub hunk: &'c Hunk,
}

impl HunkRef<'_> {
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
            hunk: Some(self.hunk_index),
            ..Diagnostics::default()
        }
    }
}

/// Locates every hunk of one file. Placements are returned in hunk order.
pub(crate) fn locate_hunks(
    lines: &Lines<'_>,
    hunks: &[Hunk],
    path: &str,
    opts: &Options,
) -> Result<Vec<Placement>, Error> {
    let mut index = LineIndex::new(lines);
    let mut budget = Budget::new(opts.search_budget);
    let mut placements: Vec<Placement> = Vec::with_capacity(hunks.len());
    let mut region_start = 0usize;
    let mut total_fuzz = 0u32;
    if hunks.len() >= 4 {
        // Many hunks: find all their exact matches in one pass instead of one scan each.
        let olds: Vec<Vec<&str>> = hunks.iter().map(|h| old_side(h, h.lines.len())).collect();
        index.prefetch_exact(&olds, CANDIDATE_LIMIT, &mut budget)?;
    }
    for (i, hunk) in hunks.iter().enumerate() {
        let cx = HunkRef {
            path,
            hunk_index: i,
            hunk,
        };
        let p = locate_one(
            &mut index,
            &cx,
            region_start,
            &placements,
            opts,
            &mut budget,
        )?;
        if p.already_applied && opts.already_applied_is_error {
            return Err(Error::new(
                Status::AlreadyApplied,
                format!(
                    "{} is already applied to {}: its new lines are already at line {}. Drop \
                     this hunk.",
                    cx.hunk_label(),
                    cx.file_name(),
                    p.start + 1
                ),
                cx.diagnostics(),
            ));
        }
        total_fuzz = total_fuzz.saturating_add(p.fuzz);
        if let Some(max) = opts.max_fuzz {
            if total_fuzz > max {
                return Err(Error::new(
                    Status::FuzzLimit,
                    format!(
                        "{} in {} only matches loosely (level {}, fuzz {}), which brings the \
                         total fuzz to {total_fuzz}, above the limit of {max}. Copy the lines \
                         exactly as they are in the file (line {}).",
                        cx.hunk_label(),
                        cx.file_name(),
                        p.level.name(),
                        p.fuzz,
                        p.start + 1
                    ),
                    cx.diagnostics(),
                ));
            }
        }
        region_start = p.start + p.old_len;
        placements.push(p);
    }
    check_overlaps(hunks, &placements, path)?;
    Ok(placements)
}

fn check_overlaps(hunks: &[Hunk], placements: &[Placement], path: &str) -> Result<(), Error> {
    let mut order: Vec<usize> = (0..placements.len())
        .filter(|&i| !placements[i].already_applied)
        .collect();
    order.sort_by_key(|&i| (placements[i].start, placements[i].old_len, i));
    for w in order.windows(2) {
        let (a, b) = (&placements[w[0]], &placements[w[1]]);
        let a_end = a.start + a.old_len;
        let overlaps = b.start < a_end || (a.old_len == 0 && b.start == a.start && b.old_len > 0);
        let inside = b.old_len == 0 && b.start > a.start && b.start < a_end;
        if overlaps || inside {
            let (first, second) = (w[0].min(w[1]), w[0].max(w[1]));
            let file = if path.is_empty() { "the file" } else { path };
            return Err(Error::new(
                Status::OverlappingHunks,
                format!(
                    "hunks {} and {} (patch lines {} and {}) both change lines {}–{} of {file}. \
                     Merge them into one hunk.",
                    first + 1,
                    second + 1,
                    hunks[first].patch_line,
                    hunks[second].patch_line,
                    b.start + 1,
                    a_end.max(b.start + 1),
                ),
                Diagnostics {
                    path: (!path.is_empty()).then(|| path.to_string()),
                    patch_line: Some(hunks[second].patch_line),
                    hunk: Some(second),
                    candidates: vec![a.start as u32 + 1, b.start as u32 + 1],
                    ..Diagnostics::default()
                },
            ));
        }
    }
    Ok(())
}

fn overlaps_any(placements: &[Placement], start: usize, len: usize) -> bool {
    placements.iter().filter(|p| !p.already_applied).any(|p| {
        let (ps, pe) = (p.start, p.start + p.old_len);
        if len == 0 {
            start > ps && start < pe
        } else if p.old_len == 0 {
            p.start > start && p.start < start + len
        } else {
            start < pe && ps < start + len
        }
    })
}

/// The body lines of the hunk in use, old side only.
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

fn locate_one(
    index: &mut LineIndex<'_>,
    cx: &HunkRef<'_>,
    region_start: usize,
    placed: &[Placement],
    opts: &Options,
    budget: &mut Budget,
) -> Result<Placement, Error> {
    let hunk = cx.hunk;
    let anchor = anchor::resolve(index, cx, region_start, opts, budget)?;
    let mut used = hunk.lines.len();
    loop {
        if let Some(p) = place_old_side(
            index,
            cx,
            used,
            region_start,
            anchor.as_ref(),
            placed,
            opts,
            budget,
        )? {
            return Ok(p);
        }
        // A trailing empty context line that does not match is retried without it.
        match hunk.lines[..used].last() {
            Some(l) if l.kind == LineKind::Context && l.text.trim().is_empty() && used > 1 => {
                used -= 1;
            }
            _ => break,
        }
    }
    let used = hunk.lines.len();
    if let Some(p) = already_applied(index, cx, used, anchor.as_ref(), opts, budget)? {
        return Ok(p);
    }
    Err(diagnose::not_found(
        index,
        cx,
        &old_side(hunk, used),
        anchor.as_ref(),
        region_start,
        opts,
        budget,
    ))
}

/// Tries to place the old side of the first `used` body lines. `Ok(None)` means not found.
#[allow(clippy::too_many_arguments)]
fn place_old_side(
    index: &mut LineIndex<'_>,
    cx: &HunkRef<'_>,
    used: usize,
    region_start: usize,
    anchor: Option<&AnchorMatch>,
    placed: &[Placement],
    opts: &Options,
    budget: &mut Budget,
) -> Result<Option<Placement>, Error> {
    let hunk = cx.hunk;
    let old = old_side(hunk, used);
    let n = index.len();
    let anchor_fuzz = anchor.map_or(0, |a| a.fuzz);
    let levels = opts.max_level.up_to();
    let base = Placement {
        start: 0,
        old_len: old.len(),
        used_lines: used,
        level: Level::Exact,
        line_levels: Vec::new(),
        fuzz: anchor_fuzz,
        candidates: 1,
        out_of_order: anchor.is_some_and(|a| a.out_of_order),
        end_of_file: false,
        already_applied: false,
    };

    if old.is_empty() {
        // Pure insertion: after the innermost anchor, else at the end of the file.
        let start = match anchor {
            Some(a) if !hunk.end_of_file => a.line + 1,
            _ => n,
        };
        return Ok(Some(Placement {
            start,
            end_of_file: hunk.end_of_file || anchor.is_none(),
            ..base
        }));
    }
    let mut pattern = Pattern::new(old.clone());
    let m = old.len();

    if hunk.end_of_file && m <= n {
        for &level in levels {
            if index.window_matches(&mut pattern, level, n - m, budget)? {
                return Ok(Some(finish(
                    index,
                    &old,
                    Placement {
                        start: n - m,
                        level,
                        fuzz: anchor_fuzz + level.fuzz(),
                        end_of_file: true,
                        ..base
                    },
                    opts,
                )));
            }
        }
    }
    let eof_penalty = if hunk.end_of_file { 1000 } else { 0 };

    if let Some(a) = anchor {
        let Some((level, found)) =
            index.search(&mut pattern, opts.max_level, a.line..n, 1, budget)?
        else {
            return Ok(None);
        };
        return Ok(Some(finish(
            index,
            &old,
            Placement {
                start: found[0],
                level,
                fuzz: anchor_fuzz + level.fuzz() + eof_penalty,
                ..base
            },
            opts,
        )));
    }

    for (range, out_of_order) in [(region_start..n, false), (0..n, true)] {
        if out_of_order && region_start == 0 {
            break;
        }
        {
            // Candidates are counted in first-match mode too: the report says how many there were.
            let Some((level, found)) = index.search(
                &mut pattern,
                opts.max_level,
                range.clone(),
                CANDIDATE_LIMIT,
                budget,
            )?
            else {
                continue;
            };
            match found.len() {
                1 => {}
                _ if opts.first_match => {}
                _ => {
                    return Err(diagnose::ambiguous(
                        index, cx, &old, &found, level, opts, budget,
                    ));
                }
            }
            let start = found[0];
            if out_of_order && overlaps_any(placed, start, m) {
                let other = placed
                    .iter()
                    .position(|p| {
                        !p.already_applied && start < p.start + p.old_len && p.start < start + m
                    })
                    .unwrap_or(0);
                let o = &placed[other.min(placed.len().saturating_sub(1))];
                return Err(Error::new(
                    Status::OverlappingHunks,
                    format!(
                        "{} matches lines {}–{} of {}, but hunk {} already changes lines {}–{} \
                         there. Merge the two hunks into one.",
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
                ));
            }
            return Ok(Some(finish(
                index,
                &old,
                Placement {
                    start,
                    level,
                    fuzz: anchor_fuzz + level.fuzz() + eof_penalty,
                    candidates: found.len() as u32,
                    out_of_order,
                    ..base
                },
                opts,
            )));
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

/// A hunk whose old side is nowhere but whose new side is found uniquely is already applied.
fn already_applied(
    index: &mut LineIndex<'_>,
    cx: &HunkRef<'_>,
    used: usize,
    anchor: Option<&AnchorMatch>,
    opts: &Options,
    budget: &mut Budget,
) -> Result<Option<Placement>, Error> {
    if !cx.hunk.has_deletions() {
        return Ok(None);
    }
    let new = new_side(cx.hunk, used);
    if new.is_empty() {
        return Ok(None);
    }
    let mut pattern = Pattern::new(new.clone());
    let from = anchor.map_or(0, |a| a.line);
    for &level in opts.max_level.up_to() {
        let found = index.find_windows(&mut pattern, level, from..index.len(), 2, budget)?;
        match found.len() {
            0 => continue,
            1 => {
                let mut p = finish(
                    index,
                    &new,
                    Placement {
                        start: found[0],
                        old_len: new.len(),
                        used_lines: used,
                        level,
                        line_levels: Vec::new(),
                        fuzz: level.fuzz() + anchor.map_or(0, |a| a.fuzz),
                        candidates: 1,
                        out_of_order: false,
                        end_of_file: false,
                        already_applied: true,
                    },
                    opts,
                );
                p.already_applied = true;
                return Ok(Some(p));
            }
            _ => return Ok(None),
        }
    }
    Ok(None)
}
