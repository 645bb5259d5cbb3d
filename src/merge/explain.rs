//! The errors of a base-aware apply: a `CONFLICT` with the three versions of the lines, an
//! `AMBIGUOUS` alignment (two readings of the change made since), and the drift told in the
//! error of a hunk found in neither version.

use std::ops::Range;

use super::align::Reading;
use super::{full_lines, side_edits, Edit};
use crate::error::{Diagnostics, Error, Status};
use crate::report::ApplyResult;
use crate::text::{strip_bom, Lines};

/// Why a hunk conflicts: it changes lines the current text changed too.
pub(super) const OVERLAPS: &str = "the lines it changes were also changed in the current file";
/// Why a hunk conflicts: its added lines could stand on either side of a change (the lines
/// around them are equal), and the two places give different texts.
pub(super) const SLIDES: &str =
    "its added lines could go before or after lines changed in the current \
                      file (the lines around them are equal), and that gives different texts";

/// Why a hunk conflicts: the current file made the same change, but to lines that repeat
/// around it, so it may as well be a change next to the patch's (then both apply).
pub(super) const SAME_SLIDES: &str = "the current file made the same change, but next to equal \
                                      lines, so it may as well be another change beside this one";

/// The `CONFLICT` error: the three versions (base, current, patched base) of the lines (`span`
/// in the base, `cur_range` in the current text), why, and how to resend.
pub(super) fn conflict(
    patched: &ApplyResult,
    (base, cur, new): (&Lines<'_>, &Lines<'_>, &Lines<'_>),
    (span, cur_range): (&Range<usize>, &Range<usize>),
    ours: &[Edit],
    why: &str,
) -> Error {
    let hunk = ours[0].hunk;
    let file = patched.path.as_deref().unwrap_or("the file");
    let patch_line = patched.hunks.get(hunk).map(|h| h.patch_line);
    let new_range = ours[0].side.start..ours.last().map_or(ours[0].side.end, |o| o.side.end);
    let show = |title: &str, l: &Lines<'_>, r: &Range<usize>| {
        let mut s = format!("{title} ({}):\n", range_words(r));
        if r.is_empty() {
            s.push_str("  (no lines)\n");
        }
        for i in r.clone().filter(|&i| i < l.len()) {
            s.push_str("  |");
            s.push_str(l.get(i));
            s.push('\n');
        }
        s
    };
    let message = format!(
        "hunk {} (patch line {}) conflicts with a change made to {file} since the model read it: \
         {why}.\n{}{}{}\
         Resend the hunk against the current lines shown above.",
        hunk + 1,
        patch_line.unwrap_or(0),
        show("What the model saw", base, span),
        show("What the file has now", cur, cur_range),
        show("What the patch wanted", new, &new_range),
    );
    Error::new(
        Status::Conflict,
        message,
        Diagnostics {
            patch_line,
            hunk: Diagnostics::hunk_number(hunk),
            path: patched.path.clone(),
            candidates: vec![cur_range.start as u32 + 1],
            ..Diagnostics::default()
        },
    )
}

/// The `AMBIGUOUS` error of a hunk whose lines have a second reading: both places (or all)
/// in the current text, the lines, and how to resend.
pub(super) fn ambiguous(
    patched: &ApplyResult,
    base: &Lines<'_>,
    cur: &Lines<'_>,
    r: &Reading,
) -> Error {
    let file = patched.path.as_deref().unwrap_or("the file");
    let patch_line = patched.hunks.get(r.hunk).map(|h| h.patch_line);
    if r.there.is_empty() {
        return unreadable(patched, base, cur, r);
    }
    let len = r.lines.len();
    let mut places: Vec<usize> = r.there.iter().copied().chain([r.here]).collect();
    places.sort_unstable();
    let words: Vec<String> = places.iter().map(|&p| range_words(&(p..p + len))).collect();
    let mut message = format!(
        "hunk {} (patch line {}) could stand at {} places in {file}: the file changed since the \
         model read it, and the lines around the hunk's change (what the model saw at {}) are \
         now at {}. Which of them the model saw depends on how the change made since is read, \
         so the hunk was not applied. The lines:\n",
        r.hunk + 1,
        patch_line.unwrap_or(0),
        places.len(),
        range_words(&r.lines),
        words.join(" and "),
    );
    for i in r.lines.clone().take(DRIFT_LINES) {
        message.push_str("  |");
        message.push_str(base.get(i));
        message.push('\n');
    }
    if len > DRIFT_LINES {
        message.push_str(&format!("  ({} more lines)\n", len - DRIFT_LINES));
    }
    message.push_str(
        "Resend the hunk against the current file, with a context line that tells the places \
         apart.",
    );
    let candidates = places
        .iter()
        .filter(|&&p| p < cur.len())
        .map(|&p| u32::try_from(p + 1).unwrap_or(u32::MAX))
        .collect();
    Error::new(
        Status::Ambiguous,
        message,
        Diagnostics {
            patch_line,
            hunk: Diagnostics::hunk_number(r.hunk),
            path: patched.path.clone(),
            candidates,
            ..Diagnostics::default()
        },
    )
}

/// The `CONFLICT` error of a hunk whose changed lines one reading of the change made since
/// keeps and another as good changes or removes (or puts lines of its own where the hunk
/// inserts), or that is too large to read every way: in that reading, both changed the same
/// lines.
fn unreadable(patched: &ApplyResult, base: &Lines<'_>, cur: &Lines<'_>, r: &Reading) -> Error {
    let file = patched.path.as_deref().unwrap_or("the file");
    let patch_line = patched.hunks.get(r.hunk).map(|h| h.patch_line);
    let mut message = format!(
        "hunk {} (patch line {}) could not be carried to {file} for sure: the file changed since \
         the model read it, and the change made since can be read as keeping the lines the \
         hunk changes (what the model saw at {}; now at {} in one reading) or as removing or \
         moving them. The lines:\n",
        r.hunk + 1,
        patch_line.unwrap_or(0),
        range_words(&r.lines),
        range_words(&(r.here..r.here + r.lines.len())),
    );
    for i in r
        .lines
        .clone()
        .take(DRIFT_LINES)
        .filter(|&i| i < base.len())
    {
        message.push_str("  |");
        message.push_str(base.get(i));
        message.push('\n');
    }
    message.push_str(
        "Resend the hunk against the current file, with context lines that say which lines \
         it changes.",
    );
    let candidates = [r.here]
        .iter()
        .filter(|&&p| p < cur.len())
        .map(|&p| u32::try_from(p + 1).unwrap_or(u32::MAX))
        .collect();
    Error::new(
        Status::Conflict,
        message,
        Diagnostics {
            patch_line,
            hunk: Diagnostics::hunk_number(r.hunk),
            path: patched.path.clone(),
            candidates,
            ..Diagnostics::default()
        },
    )
}

fn range_words(r: &Range<usize>) -> String {
    match r.len() {
        0 => format!("before line {}", r.start + 1),
        1 => format!("line {}", r.start + 1),
        _ => format!("lines {}-{}", r.start + 1, r.end),
    }
}

/// The most changes, and lines per change, [`drifted`] lists.
const DRIFT_CHANGES: usize = 5;
const DRIFT_LINES: usize = 4;

/// A hunk found neither in the base nor in the current text: the current text's error `err`
/// (its closest region and corrected hunk are the lines the model must resend against), told
/// that the file changed since the model read it, which lines changed, and what they are now.
pub(crate) fn drifted(err: Error, base: &str, current: &str) -> Error {
    let (_, b) = strip_bom(base);
    let (_, c) = strip_bom(current);
    let (bl, cl) = (Lines::split(b), Lines::split(c));
    let edits = side_edits(&full_lines(&bl), &full_lines(&cl));
    let mut message = format!(
        "{}\nThe file changed since the model read it; the patch was checked against both \
         versions. What changed since (the current lines):\n",
        err.message()
    );
    for e in edits.iter().take(DRIFT_CHANGES) {
        let (r, was) = (&e.side, e.base.len());
        let was = match was {
            0 => "added".to_string(),
            1 => "was 1 line".to_string(),
            n => format!("was {n} lines"),
        };
        if r.is_empty() {
            let n = e.base.len();
            let lines = if n == 1 { "line" } else { "lines" };
            message.push_str(&format!(
                "  {n} {lines} removed before line {}\n",
                r.start + 1
            ));
            continue;
        }
        message.push_str(&format!("  {} ({was}):\n", range_words(r)));
        for i in r.clone().take(DRIFT_LINES) {
            message.push_str("  |");
            message.push_str(cl.get(i));
            message.push('\n');
        }
        if r.len() > DRIFT_LINES {
            message.push_str(&format!("  ({} more lines)\n", r.len() - DRIFT_LINES));
        }
    }
    if edits.len() > DRIFT_CHANGES {
        message.push_str(&format!(
            "  and {} more changes\n",
            edits.len() - DRIFT_CHANGES
        ));
    }
    message.pop();
    Error::new(err.status(), message, err.diagnostics().clone())
}
