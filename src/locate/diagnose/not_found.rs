//! The error for a hunk found nowhere: the closest region, the lines that differ and a
//! corrected hunk.

use super::corrected::corrected_hunk;
use super::region::closest_region;
use std::ops::Range;

use crate::error::{ClosestRegion, Diagnostics, Error, Status};
use crate::locate::anchor::{enclosing_header, AnchorMatch};
use crate::locate::index::{Budget, LineIndex, Pattern};
use crate::locate::HunkRef;
use crate::options::Options;

/// The not-found error: closest region, differing lines, corrected hunk.
pub(crate) fn not_found(
    index: &mut LineIndex<'_>,
    cx: &HunkRef<'_>,
    old: &[&str],
    anchor: Option<&AnchorMatch>,
    region_start: usize,
    opts: &Options,
    _budget: &mut Budget,
) -> Error {
    let n = index.len();
    let search = anchor.map_or(0..n, |a| a.block.clone());
    let after = match anchor {
        Some(a) => format!(
            " inside the block of its anchor (line {}, block lines {}–{})",
            a.line + 1,
            a.block.start + 1,
            a.block.end
        ),
        None => String::new(),
    };
    let _ = region_start;
    let mut message = format!(
        "{} was not found in {}{}: its context and '-' lines do not match any place.",
        cx.hunk_label(),
        cx.file_name(),
        after
    );
    let mut diagnostics = cx.diagnostics();
    if cx.quiet {
        return Error::new(Status::ContextNotFound, message, diagnostics);
    }
    // Diagnostics get a budget of their own, proportional to the file.
    let mut budget = Budget::new(20_000_000 + 20 * n as u64);
    // Where the lines are found outside the anchor's block, a correction inside it would
    // rewrite other lines than the ones the patch quotes.
    let mut correct = true;
    if let Some(a) = anchor {
        if let Some(elsewhere) = outside_block(index, old, a, opts, &mut budget) {
            correct = false;
            message.push_str(&elsewhere.0);
            diagnostics.candidates = elsewhere.1;
            diagnostics.suggestion = elsewhere.2;
        }
    }
    if !close_region(
        index,
        cx,
        old,
        (search, correct),
        &mut budget,
        &mut message,
        &mut diagnostics,
    ) {
        message.push_str(if n == 0 {
            " The file is empty."
        } else {
            " Nothing in the file is close to it: check the file path, and copy the lines \
             exactly from the current file."
        });
    }
    Error::new(Status::ContextNotFound, message, diagnostics)
}

/// Adds the closest region of `search`, the lines that differ and the corrected hunk to the
/// message and diagnostics. Returns false when nothing in `search` is close.
fn close_region(
    index: &mut LineIndex<'_>,
    cx: &HunkRef<'_>,
    old: &[&str],
    (search, correct): (Range<usize>, bool),
    budget: &mut Budget,
    message: &mut String,
    diagnostics: &mut Diagnostics,
) -> bool {
    let region = if search.is_empty() {
        None
    } else {
        closest_region(index, old, search.clone(), None, budget)
    };
    let Some(r) = region.filter(|r| r.similarity >= 0.3) else {
        return false;
    };
    if old.len() > MAX_CORRECTED_LINES {
        // The line diff behind a correction grows with the square of a hunk this long, and
        // the corrected hunk would be too long to quote.
        message.push_str(&format!(
            "\nThe closest place is lines {}–{} ({}% similar). The hunk has {} context and '-' \
             lines: too many to correct here. Resend it in smaller hunks, with the lines copied \
             exactly from the file.",
            r.start + 1,
            r.end,
            (r.similarity * 100.0).round() as u32,
            old.len()
        ));
        diagnostics.closest = Some(ClosestRegion {
            start_line: r.start as u32 + 1,
            end_line: r.end as u32,
            similarity: r.similarity,
        });
        return true;
    }
    let corrected = corrected_hunk(index, cx, old, &r);
    message.push_str(&format!(
        "\nThe closest place is lines {}–{} ({}% similar). Lines that differ:\n{}",
        r.start + 1,
        r.end,
        (r.similarity * 100.0).round() as u32,
        corrected.differences
    ));
    let offer = if correct {
        corrected.check(index, old, search, budget)
    } else {
        Err("its lines are found outside the anchor's block")
    };
    if let Err(why) = offer {
        message.push_str(&format!(
            "\nCopy the hunk's context and '-' lines exactly from the file (no corrected hunk \
             is offered: {why})."
        ));
    } else if corrected.text.len() <= MAX_CORRECTED {
        message.push_str(&format!(
            "\nResend the hunk with the file's real lines:\n{}",
            corrected.text
        ));
        diagnostics.corrected_hunk = Some(corrected.text);
    } else {
        message.push_str(&format!(
            "\nResend the hunk with the file's real lines {}–{} (too long to quote here).",
            r.start + 1,
            r.end
        ));
    }
    diagnostics.closest = Some(ClosestRegion {
        start_line: r.start as u32 + 1,
        end_line: r.end as u32,
        similarity: r.similarity,
    });
    true
}

/// Where a hunk's lines are found outside its anchor's block, if anywhere: the message part,
/// the 1-based lines and the anchor that would select them.
fn outside_block(
    index: &mut LineIndex<'_>,
    old: &[&str],
    a: &AnchorMatch,
    opts: &Options,
    budget: &mut Budget,
) -> Option<(String, Vec<u32>, Option<String>)> {
    let n = index.len();
    let mut pattern = Pattern::new(old.to_vec());
    let (_, found) = index
        .search(&mut pattern, opts.max_level, 0..n, 3, budget)
        .ok()??;
    let headers: Vec<Option<usize>> = found
        .iter()
        .map(|&f| enclosing_header(index, f, 5000))
        .collect();
    let places: Vec<String> = found
        .iter()
        .zip(&headers)
        .map(|(&f, h)| match h {
            Some(h) => format!(
                "line {}, inside \"{}\" (line {})",
                f + 1,
                index.lines().get(*h).trim(),
                h + 1
            ),
            None => format!("line {}", f + 1),
        })
        .collect();
    // One place, after the anchor line, with no enclosing header to name: without the anchor
    // the hunk is searched after the previous hunk and lands there, the only place its lines
    // occur.
    let suggestion = match (found.len(), headers.first().copied().flatten()) {
        (1, Some(h)) => Some(format!("@@ {}", index.lines().get(h).trim())),
        (1, None) if found[0] > a.line => Some("@@".to_string()),
        _ => None,
    };
    let pick = match suggestion.as_deref() {
        Some("@@") => {
            " If that is the place, drop the anchor (start the hunk with a bare \"@@\"): \
                       its lines occur only there."
                .to_string()
        }
        Some(s) => format!(" If that is the place, use the anchor \"{s}\" instead."),
        None => String::new(),
    };
    Some((
        format!(
            " Its lines are found outside that block, at {}: the anchor and the lines \
             disagree, so neither is taken.{pick}",
            places.join("; and at ")
        ),
        found.iter().map(|&f| f as u32 + 1).collect(),
        suggestion,
    ))
}

/// The most context and `-` lines a hunk can have for a corrected hunk to be computed.
const MAX_CORRECTED_LINES: usize = 2000;

/// The largest corrected hunk quoted in a message.
const MAX_CORRECTED: usize = 64 * 1024;
