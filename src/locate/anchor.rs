//! `@@` anchors: each located one line at a time, at the match levels plus a prefix
//! comparison, and each unique in its region. Stacked anchors narrow step by step: an inner
//! anchor is looked for first inside the indentation block of the anchor before it.

use std::ops::Range;

use super::diagnose;
use super::index::{Budget, LineIndex};
use super::{HunkRef, Level};
use crate::error::{Diagnostics, Error, Status};
use crate::options::Options;
use crate::patch::Anchor;

/// Where a hunk's anchors landed.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct AnchorMatch {
    /// The innermost anchor's line (0-based).
    pub line: usize,
    /// The fuzz the anchors add.
    pub fuzz: u32,
    /// The first anchor was found only by searching the whole file.
    pub out_of_order: bool,
}

/// Locates the hunk's anchors; `None` when it has none.
pub(crate) fn resolve(
    index: &mut LineIndex<'_>,
    cx: &HunkRef<'_>,
    region_start: usize,
    opts: &Options,
    budget: &mut Budget,
) -> Result<Option<AnchorMatch>, Error> {
    let anchors = &cx.hunk.anchors;
    if anchors.is_empty() {
        return Ok(None);
    }
    let n = index.len();
    let mut fuzz = 0;
    let mut out_of_order = false;
    let mut prev: Option<usize> = None;
    for (k, anchor) in anchors.iter().enumerate() {
        let found = match prev {
            None => {
                let mut hit = find_unique(index, cx, anchor, region_start..n, opts, budget)?;
                if hit.is_none() && region_start > 0 {
                    hit = find_unique(index, cx, anchor, 0..n, opts, budget)?;
                    out_of_order = hit.is_some();
                }
                hit
            }
            Some(p) => {
                let block = block_of(index, p, budget)?;
                let mut hit = None;
                if let Some(b) = block.clone() {
                    hit = find_unique(index, cx, anchor, b, opts, budget)?;
                }
                if hit.is_none() {
                    let from = block.map_or(p + 1, |b| b.end);
                    hit = find_unique(index, cx, anchor, from..n, opts, budget)?;
                }
                hit
            }
        };
        let Some((line, level)) = found else {
            return Err(not_found(index, cx, anchor, k, prev, region_start, budget));
        };
        fuzz += level.fuzz();
        prev = Some(line);
    }
    Ok(prev.map(|line| AnchorMatch {
        line,
        fuzz,
        out_of_order,
    }))
}

/// The anchor's line in `range`, unique at the strictest (level, equality-then-prefix) that
/// finds any. Two or more there is an ambiguity error (unless first-match mode).
fn find_unique(
    index: &mut LineIndex<'_>,
    cx: &HunkRef<'_>,
    anchor: &Anchor,
    range: Range<usize>,
    opts: &Options,
    budget: &mut Budget,
) -> Result<Option<(usize, Level)>, Error> {
    for &level in opts.max_level.up_to() {
        for prefix in [false, true] {
            let limit = if opts.first_match { 1 } else { 100 };
            let found =
                index.find_line(&anchor.text, level, prefix, range.clone(), limit, budget)?;
            match found.len() {
                0 => continue,
                1 => return Ok(Some((found[0], level))),
                _ if opts.first_match => return Ok(Some((found[0], level))),
                _ => return Err(ambiguous(index, cx, anchor, &found)),
            }
        }
    }
    Ok(None)
}

/// Leading-whitespace width (a tab counts 4 columns), or `None` for a blank line.
pub(crate) fn indent_width(line: &str) -> Option<usize> {
    let mut w = 0;
    for c in line.chars() {
        match c {
            ' ' => w += 1,
            '\t' => w += 4,
            c if c.is_whitespace() => w += 1,
            _ => return Some(w),
        }
    }
    None
}

/// The indentation block that follows line `at`: the lines after it up to the first non-blank
/// line indented no deeper than it (a line opening with `{` continues the header). `None` when
/// the block is empty.
fn block_of(
    index: &mut LineIndex<'_>,
    at: usize,
    budget: &mut Budget,
) -> Result<Option<Range<usize>>, Error> {
    let lines = index.lines();
    let Some(base) = indent_width(lines.get(at)) else {
        return Ok(None);
    };
    let mut has_body = false;
    let mut end = lines.len();
    for j in at + 1..lines.len() {
        let l = lines.get(j);
        match indent_width(l) {
            None => {}
            Some(w) if w > base => has_body = true,
            Some(_) if !has_body && l.trim_start().starts_with('{') => {}
            Some(_) => {
                end = j;
                break;
            }
        }
    }
    budget.charge((end - at) as u64)?;
    Ok(has_body.then_some(at + 1..end))
}

/// The nearest line before `at` indented less than it: the header of its enclosing block.
pub(crate) fn enclosing_header(index: &LineIndex<'_>, at: usize, max_scan: usize) -> Option<usize> {
    let lines = index.lines();
    let mut own = None;
    for j in at..lines.len().min(at + 50) {
        if let Some(w) = indent_width(lines.get(j)) {
            own = Some(w);
            break;
        }
    }
    let own = own?;
    (at.saturating_sub(max_scan)..at)
        .rev()
        .find(|&j| indent_width(lines.get(j)).is_some_and(|w| w < own))
}

fn ambiguous(
    index: &mut LineIndex<'_>,
    cx: &HunkRef<'_>,
    anchor: &Anchor,
    found: &[usize],
) -> Error {
    let lines = diagnose::line_list(found);
    let mut suggestion = None;
    let mut hints = Vec::new();
    for &c in found.iter().take(3) {
        if let Some(h) = enclosing_header(index, c, 2000) {
            let text = index.lines().get(h).trim();
            hints.push(format!(
                "\"@@ {text}\" (line {}) before it to pick line {}",
                h + 1,
                c + 1
            ));
        }
    }
    if !hints.is_empty() {
        suggestion = Some(format!(
            "Stack an anchor naming the enclosing block: {}.",
            hints.join("; or ")
        ));
    }
    let message = format!(
        "{}: the anchor \"@@ {}\" (patch line {}) matches {} lines in {}: lines {}. {}",
        cx.hunk_label(),
        anchor.text,
        anchor.patch_line,
        found.len(),
        cx.file_name(),
        lines,
        suggestion
            .clone()
            .unwrap_or_else(|| "Use a more specific anchor line.".to_string())
    );
    Error::new(
        Status::Ambiguous,
        message,
        Diagnostics {
            patch_line: Some(anchor.patch_line),
            candidates: found.iter().map(|&c| c as u32 + 1).collect(),
            suggestion,
            ..cx.diagnostics()
        },
    )
}

fn not_found(
    index: &mut LineIndex<'_>,
    cx: &HunkRef<'_>,
    anchor: &Anchor,
    k: usize,
    prev: Option<usize>,
    region_start: usize,
    budget: &mut Budget,
) -> Error {
    let from = prev.map_or(0, |p| p + 1);
    let close = diagnose::closest_lines(index, &anchor.text, from..index.len(), 3, budget);
    let where_ = match prev {
        Some(p) => format!(" after the anchor at line {}", p + 1),
        None if region_start > 0 => String::new(),
        None => String::new(),
    };
    let mut message = format!(
        "{}: the anchor \"@@ {}\" (patch line {}) was not found in {}{}.",
        cx.hunk_label(),
        anchor.text,
        anchor.patch_line,
        cx.file_name(),
        where_
    );
    let suggestion = close
        .first()
        .map(|&(line, _)| format!("@@ {}", index.lines().get(line).trim_end()));
    if !close.is_empty() {
        let shown: Vec<String> = close
            .iter()
            .map(|&(l, s)| {
                format!(
                    "line {} {:?} ({}% similar)",
                    l + 1,
                    index.lines().get(l).trim(),
                    (s * 100.0).round()
                )
            })
            .collect();
        message.push_str(&format!(
            " Closest: {}. Copy the anchor text from a real line of the file{}.",
            shown.join(", "),
            if k > 0 {
                ", or drop the inner anchor"
            } else {
                ""
            }
        ));
    } else {
        message
            .push_str(" Copy the anchor text from a real line of the file, or use a bare \"@@\".");
    }
    Error::new(
        Status::AnchorNotFound,
        message,
        Diagnostics {
            patch_line: Some(anchor.patch_line),
            candidates: close.iter().map(|&(l, _)| l as u32 + 1).collect(),
            suggestion,
            ..cx.diagnostics()
        },
    )
}
