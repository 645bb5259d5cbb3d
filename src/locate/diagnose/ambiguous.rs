//! Errors for a hunk that fits more than one place, each with what would tell the places apart.

use super::text::{line_list, visible};
use crate::error::{Diagnostics, Error, Status};
use crate::level::Level;
use crate::locate::anchor::{enclosing_header, AnchorMatch};
use crate::locate::index::{Budget, LineIndex};
use crate::locate::HunkRef;

/// The ambiguity error for a hunk matching `found` places (inside its anchor's
/// block when it has anchors). Each fix names what separates one candidate from the others: a
/// context line, or an enclosing block's header that only that candidate has.
pub(crate) fn ambiguous(
    index: &mut LineIndex<'_>,
    cx: &HunkRef<'_>,
    old: &[&str],
    found: &[usize],
    anchor: Option<&AnchorMatch>,
) -> Error {
    let (fixes, suggestion) = separating_fixes(index, old.len(), found, anchor);
    let within = match anchor {
        Some(a) => format!(
            " inside the block of its anchor (lines {}–{})",
            a.block.start + 1,
            a.block.end
        ),
        None => String::new(),
    };
    let mut message = format!(
        "{} matches {} places in {}{within}: lines {}.",
        cx.hunk_label(),
        found.len(),
        cx.file_name(),
        line_list(found)
    );
    if fixes.is_empty() {
        message.push_str(
            " Add an \"@@\" anchor line that names the enclosing block, or include more \
             unchanged lines around the change, so that only one place matches.",
        );
    } else {
        message.push_str(
            " Add an anchor that names the enclosing block, or include more unchanged lines \
             around the change.\n",
        );
        message.push_str(&fixes.join("\n"));
    }
    Error::new(
        Status::Ambiguous,
        message,
        Diagnostics {
            candidates: found.iter().map(|&c| c as u32 + 1).collect(),
            suggestion,
            ..cx.diagnostics()
        },
    )
}

/// How many of a hunk's candidates (the first, in file order) get a fix of their own: a model
/// that meant a later one is told only to add an anchor or more lines.
const FIX_CANDIDATES: usize = 5;

/// For each of the first candidates, what tells it apart from the others (one "To pick line
/// N: …" sentence each), and the first such fix as a suggestion.
fn separating_fixes(
    index: &mut LineIndex<'_>,
    m: usize,
    found: &[usize],
    anchor: Option<&AnchorMatch>,
) -> (Vec<String>, Option<String>) {
    let n = index.len();
    let headers: Vec<Option<usize>> = found
        .iter()
        .take(FIX_CANDIDATES)
        .map(|&c| enclosing_header(index, c, 5000))
        .collect();
    let mut fixes = Vec::new();
    let mut suggestion = None;
    for (ci, &c) in found.iter().take(FIX_CANDIDATES).enumerate() {
        let mut ways = Vec::new();
        if let Some(text) = separating_header(index, &headers, ci, anchor, found.len()) {
            ways.push(text.0);
            suggestion.get_or_insert(text.1);
        }
        // Distinct at the loosest level: a line that separates the candidates only at the
        // level they were found at would let the resent hunk fall to a looser level at another
        // candidate (`\t}` and `}` differ at the exact level only).
        let distinct = |index: &mut LineIndex<'_>, at: usize, delta: isize| -> bool {
            let line = index.lines().get(at);
            found.iter().filter(|&&o| o != c).all(|&o| {
                let j = o as isize + delta;
                j < 0 || j as usize >= n || !index.line_eq(j as usize, Level::Fold, line)
            })
        };
        if c > 0 && distinct(index, c - 1, -1) {
            let line = index.lines().get(c - 1);
            ways.push(format!(
                "start the hunk with the context line \" {line}\" (line {c})"
            ));
            suggestion.get_or_insert(format!(" {line}"));
        } else if c + m < n && distinct(index, c + m, m as isize) {
            let line = index.lines().get(c + m);
            ways.push(format!(
                "end the hunk with the context line \" {line}\" (line {})",
                c + m + 1
            ));
            suggestion.get_or_insert(format!(" {line}"));
        }
        if !ways.is_empty() {
            fixes.push(format!("To pick line {}: {}.", c + 1, ways.join(", or ")));
        }
    }
    (fixes, suggestion)
}

/// The enclosing header of candidate `ci` as a fix, when it separates that candidate: no other
/// candidate shares it, it is not the anchor already given, and only one line of the file
/// reads like it. Returns the sentence part and the suggested anchor.
fn separating_header(
    index: &mut LineIndex<'_>,
    headers: &[Option<usize>],
    ci: usize,
    anchor: Option<&AnchorMatch>,
    candidates: usize,
) -> Option<(String, String)> {
    let h = headers[ci]?;
    let text = index.lines().get(h).trim().to_string();
    let shared = headers
        .iter()
        .enumerate()
        .any(|(o, &oh)| o != ci && oh == Some(h));
    let is_anchor = anchor.is_some_and(|a| a.line == h);
    let n = index.len();
    let same = index
        .find_line(
            &text,
            Level::Trim,
            false,
            0..n,
            2,
            &mut Budget::new(u64::MAX),
        )
        .unwrap_or_default();
    (!shared && !is_anchor && same.len() == 1 && candidates <= 3).then(|| {
        (
            format!("add the anchor \"@@ {text}\" (line {})", h + 1),
            format!("@@ {text}"),
        )
    })
}

/// The ambiguity of a hunk whose trailing empty context line picks line `at` while, without
/// it, the hunk also fits the other places of `found` (`end`: one of them is the end of the
/// file).
pub(crate) fn ambiguous_blank_tail(
    cx: &HunkRef<'_>,
    found: &[usize],
    at: usize,
    end: Option<usize>,
) -> Error {
    let others: Vec<usize> = found.iter().copied().filter(|&f| f != at).collect();
    let fix = match end {
        Some(e) => format!(
            " Without it, it also fits the end of the file (line {}, which has no line after \
             it). If the hunk belongs at the end of the file, drop the empty line and end the \
             hunk with \"*** End of File\"; otherwise include an unchanged line after the \
             empty one.",
            e + 1
        ),
        None => format!(
            " Without it, it also fits line{} {}. Include an unchanged line after the empty \
             one, or more unchanged lines that only the intended place has.",
            if others.len() > 1 { "s" } else { "" },
            line_list(&others)
        ),
    };
    let message = format!(
        "{} matches {} places in {}: lines {}. With its last, empty context line it fits only \
         line {}, but an empty last line is weak evidence.{fix}",
        cx.hunk_label(),
        found.len(),
        cx.file_name(),
        line_list(found),
        at + 1,
    );
    Error::new(
        Status::Ambiguous,
        message,
        Diagnostics {
            candidates: found.iter().map(|&c| c as u32 + 1).collect(),
            suggestion: end.map(|_| "*** End of File".to_string()),
            ..cx.diagnostics()
        },
    )
}

/// An insertion that can slide across its one context line, which occurs elsewhere too.
pub(crate) fn ambiguous_slide(
    cx: &HunkRef<'_>,
    at: usize,
    others: &[usize],
    edge: &str,
    down: bool,
) -> Error {
    let mut all: Vec<usize> = others.to_vec();
    all.push(at);
    all.sort_unstable();
    let side = if down { "after" } else { "before" };
    let message = format!(
        "{}: its added lines {} with {}, the same as its only context line {side} them (line \
         {}), so that line does not show where the added block ends; it also occurs at lines \
         {}. Include one more unchanged line {side} the added lines.",
        cx.hunk_label(),
        if down { "start" } else { "end" },
        visible(edge),
        at + 1,
        line_list(others),
    );
    Error::new(
        Status::Ambiguous,
        message,
        Diagnostics {
            candidates: all.iter().map(|&c| c as u32 + 1).collect(),
            ..cx.diagnostics()
        },
    )
}

/// A hunk that fits with an edge line's indentation ignored and, shifted by one line, with
/// that line matching exactly.
pub(crate) fn ambiguous_edge_indent(cx: &HunkRef<'_>, at: usize, other: usize) -> Error {
    let mut all = [at, other];
    all.sort_unstable();
    Error::new(
        Status::Ambiguous,
        format!(
            "{} fits at line {} only with the indentation of its {} line ignored, and that line \
             matches the next file line (line {}) exactly: the two readings put the change in \
             different blocks. Copy the lines with their indentation, and include the line the \
             hunk skips.",
            cx.hunk_label(),
            at + 1,
            if other > at { "last" } else { "first" },
            if other > at { at + 2 } else { at },
        ),
        Diagnostics {
            candidates: all.iter().map(|&c| c as u32 + 1).collect(),
            ..cx.diagnostics()
        },
    )
}

/// An unanchored hunk that starts with added lines and lands after the start of the file.
pub(crate) fn open_start(cx: &HunkRef<'_>, at: usize) -> Error {
    Error::new(
        Status::Ambiguous,
        format!(
            "{} starts with added lines and no unchanged line before them, so only the lines \
             after them say where they go (before line {}). Start the hunk with the unchanged \
             line before the insertion (line {}), or add an \"@@\" anchor.",
            cx.hunk_label(),
            at + 1,
            at,
        ),
        Diagnostics {
            candidates: vec![at as u32 + 1],
            ..cx.diagnostics()
        },
    )
}

/// Two lines of a hunk with the same indentation in the patch sit at different indentations
/// in the file.
pub(crate) fn inconsistent_indentation(
    cx: &HunkRef<'_>,
    patch_indent: &str,
    (a, a_indent): (usize, &str),
    (b, b_indent): (usize, &str),
) -> Error {
    Error::new(
        Status::InconsistentIndentation,
        format!(
            "{} matches {} only with its indentation ignored, and its lines indented {} in the \
             patch are indented {} at line {} but {} at line {} of the file: the lines belong to \
             different blocks than the patch shows. Copy the lines with the file's indentation.",
            cx.hunk_label(),
            cx.file_name(),
            visible(patch_indent),
            visible(a_indent),
            a + 1,
            visible(b_indent),
            b + 1,
        ),
        Diagnostics {
            candidates: vec![a as u32 + 1, b as u32 + 1],
            ..cx.diagnostics()
        },
    )
}
