//! `@@` anchors: each located one line at a time, first as a whole line at every match level,
//! then as a prefix (ending at a token boundary) at every level, and each unique where it is
//! searched. Stacked anchors narrow step by step: an inner anchor is searched only inside the
//! block of the anchor before it (SPEC §3.2).

use std::ops::Range;

use super::diagnose;
use super::index::{Budget, LineIndex};
use super::{HunkRef, Level, CANDIDATE_LIMIT};
use crate::error::Error;
use crate::options::Options;
use crate::patch::Anchor;

/// Where a hunk's anchors landed.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct AnchorMatch {
    /// The innermost anchor's line (0-based).
    pub line: usize,
    /// The fuzz the anchors add.
    pub fuzz: u32,
    /// Where the hunk is searched: the innermost anchor's line through the end of its block.
    pub block: Range<usize>,
}

impl AnchorMatch {
    /// The lines of the block after the anchor line.
    pub(crate) fn body(&self) -> Range<usize> {
        self.line + 1..self.block.end.max(self.line + 1)
    }
}

/// Locates `anchors` (the hunk's, or the outer ones of them); `None` when there are none.
pub(crate) fn resolve(
    index: &mut LineIndex<'_>,
    cx: &HunkRef<'_>,
    anchors: &[Anchor],
    region_start: usize,
    prev_start: Option<usize>,
    opts: &Options,
    budget: &mut Budget,
) -> Result<Option<AnchorMatch>, Error> {
    if anchors.is_empty() {
        return Ok(None);
    }
    let mut fuzz = 0;
    let mut prev: Option<AnchorMatch> = None;
    for (k, anchor) in anchors.iter().enumerate() {
        let found = match &prev {
            None => find_first(index, cx, anchor, region_start, prev_start, opts, budget)?,
            Some(outer) => find_unique(index, cx, anchor, outer.body(), opts, budget)?,
        };
        let Some((line, level, _)) = found else {
            return Err(diagnose::anchor_not_found(
                index,
                cx,
                anchor,
                k,
                prev.as_ref(),
                opts,
                budget,
            ));
        };
        fuzz += level.fuzz();
        let end = block_end(index, line, budget)?;
        prev = Some(AnchorMatch {
            line,
            fuzz,
            block: line..end,
        });
    }
    Ok(prev)
}

/// The first (outermost) anchor's line: searched in the region after the previous hunk, where
/// a copy of it inside the previous hunk, or a copy before that hunk whose block holds it (a
/// repeated enclosing anchor), makes it ambiguous; then in the whole file (out of order).
fn find_first(
    index: &mut LineIndex<'_>,
    cx: &HunkRef<'_>,
    anchor: &Anchor,
    region_start: usize,
    prev_start: Option<usize>,
    opts: &Options,
    budget: &mut Budget,
) -> Result<Option<(usize, Level, bool)>, Error> {
    let n = index.len();
    let mut hit = find_unique(index, cx, anchor, region_start..n, opts, budget)?;
    if let (Some((line, level, prefix)), Some(ps)) = (hit, prev_start) {
        // The anchor line may be a line of the previous hunk (which may even
        // change it): a copy after that hunk does not settle which is meant.
        if ps < region_start && !opts.first_match {
            let inside =
                index.find_line(&anchor.text, level, prefix, ps..region_start, 1, budget)?;
            if let Some(&i) = inside.first() {
                return Err(diagnose::anchor_ambiguous(
                    index,
                    cx,
                    anchor,
                    &[i, line],
                    opts,
                ));
            }
        }
    }
    if let (Some((line, level, prefix)), Some(ps)) = (hit, prev_start) {
        // A repeated enclosing anchor: a copy before the previous hunk whose block
        // holds that hunk is a second reading of the anchor.
        if !opts.first_match && ps < region_start {
            let before =
                index.find_line(&anchor.text, level, prefix, 0..ps, CANDIDATE_LIMIT, budget)?;
            if let Some(&b) = before.last() {
                if block_end(index, b, budget)? > ps {
                    return Err(diagnose::anchor_ambiguous(
                        index,
                        cx,
                        anchor,
                        &[b, line],
                        opts,
                    ));
                }
            }
        }
    }
    if hit.is_none() && region_start > 0 {
        // Out of order, or an enclosing anchor the model repeats before each hunk.
        hit = find_unique(index, cx, anchor, 0..n, opts, budget)?;
    }
    Ok(hit)
}

/// The anchor's line in `range`: whole lines at every level first (strictest first), then
/// prefixes at every level, unique at the first comparison that finds any. Exact and trim-end
/// count as one level. Two or more is an ambiguity error (unless first-match mode).
fn find_unique(
    index: &mut LineIndex<'_>,
    cx: &HunkRef<'_>,
    anchor: &Anchor,
    range: Range<usize>,
    opts: &Options,
    budget: &mut Budget,
) -> Result<Option<(usize, Level, bool)>, Error> {
    let limit = if opts.first_match { 1 } else { CANDIDATE_LIMIT };
    for prefix in [false, true] {
        for &level in opts.max_level.up_to() {
            let mut found =
                index.find_line(&anchor.text, level, prefix, range.clone(), limit, budget)?;
            if found.is_empty() {
                continue;
            }
            if level == Level::Exact
                && opts.max_level >= Level::TrimEnd
                && !opts.first_match
                && index.any_trailing_ws(budget)?
            {
                // Lines that differ only by trailing whitespace look the same to the model.
                let loose = index.find_line(
                    &anchor.text,
                    Level::TrimEnd,
                    prefix,
                    range.clone(),
                    limit,
                    budget,
                )?;
                if loose.len() > found.len() {
                    found = loose;
                }
            }
            if found.len() == 1 || opts.first_match {
                return Ok(Some((found[0], level, prefix)));
            }
            return Err(diagnose::anchor_ambiguous(index, cx, anchor, &found, opts));
        }
    }
    Ok(None)
}

/// True when the anchor's text occurs nowhere in the file, at any level, as a whole line or
/// as a prefix: an anchor that names nothing, as opposed to one that names another place.
pub(crate) fn found_nowhere(
    index: &mut LineIndex<'_>,
    anchor: &Anchor,
    opts: &Options,
    budget: &mut Budget,
) -> Result<bool, Error> {
    let n = index.len();
    for prefix in [false, true] {
        for &level in opts.max_level.up_to() {
            if !index
                .find_line(&anchor.text, level, prefix, 0..n, 1, budget)?
                .is_empty()
            {
                return Ok(false);
            }
        }
    }
    Ok(true)
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

/// A preprocessor-like line (`#if`, `#endif`, `#region`): often at column 0 inside a body,
/// so it neither starts nor ends a block.
fn is_directive(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with('#')
        && t[1..]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic())
}

/// A line that closes a block at the header's indentation: `}`, `)`, `]`, `end`, `fi` …
pub(crate) fn is_closing(line: &str) -> bool {
    let t = line.trim();
    if t.starts_with(['}', ')', ']']) || t.starts_with("</") {
        return true;
    }
    let word: String = t
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    matches!(word.as_str(), "end" | "fi" | "done" | "esac" | "until")
        || (word.starts_with("end") && word.len() > 3)
}

/// A line that opens (or continues) a block at the header's indentation: `{` on its own line,
/// or `) -> T {` / `} else {` that closes one part of a header and opens the next.
fn is_opening(line: &str) -> bool {
    let t = line.trim();
    t.starts_with('{') || (is_closing(line) && t.ends_with(['{', '(', '[', ':']))
}

/// The end (exclusive) of the block of the anchor at line `at`: when an indented body follows
/// (possibly after an opening line at the anchor's indentation), the body and its closing
/// line; otherwise (flat text) the end of the file.
pub(crate) fn block_end(
    index: &mut LineIndex<'_>,
    at: usize,
    budget: &mut Budget,
) -> Result<usize, Error> {
    let lines = index.lines();
    let n = lines.len();
    let Some(base) = indent_width(lines.get(at)) else {
        return Ok(n);
    };
    let mut has_body = false;
    let mut end = n;
    for j in at + 1..n {
        let l = lines.get(j);
        match indent_width(l) {
            None => {}
            Some(_) if is_directive(l) => {}
            Some(w) if w > base => has_body = true,
            Some(_) if is_opening(l) => {}
            Some(_) => {
                end = if is_closing(l) { j + 1 } else { j };
                break;
            }
        }
    }
    budget.charge((end - at) as u64)?;
    if !has_body {
        return Ok(n);
    }
    Ok(end.max(brace_end(index, at, base, budget)?.unwrap_or(0)))
}

/// For an anchor line that opens a brace block (`… {`, or a header whose `{` stands alone on a
/// following line at its indentation, as in C and C#), the line after the `}` that balances it,
/// when that closing line sits at the anchor's indentation: a body may hold lines at column 0
/// (a raw or verbatim string, a heredoc, a C label, a directive) that end an indentation block
/// early.
fn brace_end(
    index: &LineIndex<'_>,
    at: usize,
    base: usize,
    budget: &mut Budget,
) -> Result<Option<usize>, Error> {
    let lines = index.lines();
    let Some(open) = opening_brace(index, at, base) else {
        return Ok(None);
    };
    let mut depth = 0isize;
    for j in at..lines.len().min(at + 20_000) {
        let l = lines.get(j);
        budget.charge(1)?;
        for c in l.chars() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ => {}
            }
        }
        if depth <= 0 && j >= open {
            let closes = l.trim_start().starts_with('}') && indent_width(l) == Some(base);
            return Ok(closes.then_some(j + 1));
        }
    }
    Ok(None)
}

/// The line that opens the brace block of the anchor at line `at` (indentation `base`): the
/// anchor itself when it ends with `{`; else a line that starts with `{` at the anchor's
/// indentation, after at most [`HEADER_LINES`] lines of the header indented deeper than it
/// (its parameters) or empty. `None` when the anchor opens no brace block.
fn opening_brace(index: &LineIndex<'_>, at: usize, base: usize) -> Option<usize> {
    let lines = index.lines();
    if lines.get(at).trim_end().ends_with('{') {
        return Some(at);
    }
    for j in at + 1..lines.len().min(at + 1 + HEADER_LINES) {
        let l = lines.get(j);
        match indent_width(l) {
            None => {}
            Some(w) if w > base => {}
            Some(w) if w == base && l.trim_start().starts_with('{') => return Some(j),
            Some(_) => return None,
        }
    }
    None
}

/// How many lines after an anchor [`opening_brace`] looks at for its `{` line.
const HEADER_LINES: usize = 8;

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
    let header = (at.saturating_sub(max_scan)..at).rev().find(|&j| {
        let l = lines.get(j);
        !is_directive(l) && indent_width(l).is_some_and(|w| w < own)
    })?;
    // A `{` alone on its line (C, C#) names nothing: the header is the line before it, when
    // that line sits at the same indentation.
    if lines.get(header).trim() != "{" {
        return Some(header);
    }
    let width = indent_width(lines.get(header));
    let before = (header.saturating_sub(HEADER_LINES)..header)
        .rev()
        .find(|&j| indent_width(lines.get(j)).is_some_and(|w| Some(w) <= width));
    Some(
        before
            .filter(|&j| indent_width(lines.get(j)) == width)
            .unwrap_or(header),
    )
}
