//! Errors for a hunk that fits more than one place, each with what would tell the places apart.

use super::text::{line_list, visible};
use crate::error::{Diagnostics, Error, Status};
use crate::level::Level;
use crate::locate::anchor::{enclosing_header, AnchorMatch};
use crate::locate::index::LineIndex;
use crate::locate::{overlaps, HunkRef, Placement};
use crate::options::Options;
use crate::patch::{Anchor, Hunk, Line as HunkLine, LineKind};

/// The ambiguity error for a hunk matching `found` places (inside its anchor's
/// block when it has anchors). Each fix names what separates one candidate from the others: a
/// context line, or an enclosing block's header that only that candidate has.
pub(crate) fn ambiguous(
    index: &mut LineIndex<'_>,
    cx: &HunkRef<'_>,
    old: &[&str],
    found: &[usize],
    anchor: Option<&AnchorMatch>,
    placed: &[Placement],
    opts: &Options,
) -> Error {
    let (fixes, suggestion) = if cx.quiet {
        (Vec::new(), None)
    } else {
        separating_fixes(index, cx, old.len(), found, (anchor, placed), opts)
    };
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

/// How many candidates a hunk may have for each to get a fix of its own, when the file is
/// small enough for every fix to be verified cheaply ([`VERIFY_LINES`]); on a larger file,
/// [`FEW_CANDIDATES`]. A hunk with more candidates gets no "To pick line N" fix at all, only
/// the advice to add an anchor or more lines: a menu of the first few would invite a model
/// that meant a later place to take a fix for a place it did not mean.
const FIX_CANDIDATES: usize = 12;

/// How many candidates get a fix on a file too large for [`FIX_CANDIDATES`].
const FEW_CANDIDATES: usize = 3;

/// The file lines all verifications of one ambiguity may scan together (each verification
/// locates the resent hunk in the whole file again).
const VERIFY_LINES: usize = 2_000_000;

/// How many context lines a fix adds at most (before and after the hunk together).
const MAX_ADDED: usize = 6;

/// How many enclosing headers, innermost first, are tried as a candidate's anchor.
const HEADER_DEPTH: usize = 3;

/// The longest line (in characters) a fix quotes: a fix must be copied whole, so a longer
/// line is never offered. With [`FIX_CANDIDATES`] and [`MAX_ADDED`] this bounds the message.
const FIX_LINE_CHARS: usize = 240;

thread_local! {
    /// An ambiguity's fixes are being verified on this thread: an ambiguity met while
    /// locating a resent hunk gets no fixes of its own (the check does not nest).
    static VERIFYING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// A line quoted for a fix the model copies: in double quotes, `"` and `\` escaped with a
/// backslash, everything else as the file has it.
pub(super) fn quoted(line: &str) -> String {
    let mut out = String::with_capacity(line.len() + 2);
    out.push('"');
    for c in line.chars() {
        if matches!(c, '"' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// `" a", " b"` for the context lines `from..to` of the file, and `line 3` or `lines 3–4`.
fn context_lines(index: &LineIndex<'_>, from: usize, to: usize) -> String {
    let lines = index.lines();
    let quotes: Vec<String> = (from..to)
        .map(|j| quoted(&format!(" {}", lines.get(j))))
        .collect();
    let (s, what) = if to - from == 1 {
        ("", format!("line {}", from + 1))
    } else {
        ("s", format!("lines {}–{}", from + 1, to))
    };
    format!("context line{s} {} ({what})", quotes.join(", "))
}

/// The hunk resent with `before` file lines ahead of it and `after` file lines after it, the
/// candidate being line `c` and its old side `m` lines long.
fn with_context(
    index: &LineIndex<'_>,
    cx: &HunkRef<'_>,
    c: usize,
    m: usize,
    (before, after): (usize, usize),
) -> Hunk {
    let lines = index.lines();
    let mut hunk = cx.hunk.clone();
    let line = |j: usize| HunkLine {
        kind: LineKind::Context,
        text: lines.get(j).to_string(),
        patch_line: cx.hunk.patch_line,
    };
    let mut body: Vec<HunkLine> = (c - before..c).map(line).collect();
    body.append(&mut hunk.lines);
    body.extend((c + m..c + m + after).map(line));
    hunk.lines = body;
    hunk
}

/// Whether `hunk`, resent after the file's hunks before it, lands on exactly file lines
/// `at..at + len` (a placement that starts there but takes in another line, as a dropped or
/// relaxed line would, is not the candidate). Read at `at` but overlapping a hunk before it
/// only by context lines counts too: that refusal offers the hunk trimmed of them, itself
/// verified.
fn lands_at(
    index: &LineIndex<'_>,
    cx: &HunkRef<'_>,
    hunk: Hunk,
    opts: &Options,
    (at, len): (usize, usize),
) -> bool {
    match cx.relocate(index.lines(), hunk.clone(), opts) {
        Ok(p) => {
            p.start == at
                && p.old_len == len
                && cx.clear_of_later(index.lines(), hunk, opts, at..at + len)
        }
        Err(e) => {
            let d = e.diagnostics();
            e.status() == Status::OverlappingHunks
                && d.corrected_hunk.is_some()
                && d.hunk == Diagnostics::hunk_number(cx.hunk_index)
                && d.candidates == [at as u32 + 1]
        }
    }
}

/// How `hunk`, resent with an empty context line between its body and the `after` context
/// lines a fix ends it with, lands. A bare diff's trailing blank lines are not part of its
/// last hunk, but a model that appends the fix's lines to the hunk as it wrote it puts them
/// after its blank line: that resend must not edit other lines (refused, or placed on the
/// candidate, is safe), and should land on the candidate.
#[derive(Clone, Copy, PartialEq, Eq)]
enum BlankResend {
    /// No such resend (no end lines, or not the file's last hunk, or it ends blank itself),
    /// or it lands on the candidate too.
    Lands,
    /// Refused: safe, but the model that appends after its blank line is refused again.
    Refused,
    /// Lands elsewhere: the fix must not be offered.
    Elsewhere,
}

/// [`BlankResend`] for `hunk` (the candidate's fix) at file line `at`.
fn blank_before_end(
    index: &LineIndex<'_>,
    cx: &HunkRef<'_>,
    hunk: &Hunk,
    opts: &Options,
    after: usize,
    at: usize,
) -> BlankResend {
    let ends_blank = |h: &Hunk| {
        h.lines
            .last()
            .is_some_and(|l| l.kind == LineKind::Context && l.text.trim().is_empty())
    };
    if after == 0 || cx.next.is_some() || hunk.end_of_file || ends_blank(cx.hunk) {
        return BlankResend::Lands;
    }
    let mut resent = hunk.clone();
    let k = resent.lines.len() - after;
    resent.lines.insert(
        k,
        HunkLine {
            kind: LineKind::Context,
            text: String::new(),
            patch_line: cx.hunk.patch_line,
        },
    );
    match cx.relocate(index.lines(), resent, opts) {
        Ok(p) if p.start == at => BlankResend::Lands,
        Ok(_) => BlankResend::Elsewhere,
        Err(_) => BlankResend::Refused,
    }
}

/// How many separating context fixes of one candidate are verified at most (the smallest
/// first): a fix can separate the candidates and still not land, when the engine drops a
/// trailing empty line or a looser level finds another place.
const CONTEXT_TRIES: usize = 6;

/// The numbers of file lines before and after candidate `c` (`m` lines long) that no other
/// candidate has around it at the loosest level, fewest in all first, then more before; at
/// most [`CONTEXT_TRIES`]. A fix that would end the hunk with an empty line is left out (an
/// empty last context line is weak evidence to the engine), and so is one whose lines reach
/// into a hunk already placed: resent, the two hunks would overlap.
fn separating_context(
    index: &mut LineIndex<'_>,
    found: &[usize],
    (c, m): (usize, usize),
    placed: &[Placement],
) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let n = index.len();
    let short =
        |index: &LineIndex<'_>, j: usize| index.lines().get(j).chars().count() <= FIX_LINE_CHARS;
    let mut splits: Vec<(usize, usize)> = Vec::new();
    for total in 1..=MAX_ADDED {
        for before in (0..=total).rev() {
            splits.push((before, total - before));
        }
    }
    for (before, after) in splits {
        if before > c || c + m + after > n {
            continue;
        }
        if placed
            .iter()
            .any(|p| overlaps(p, c - before, before + m + after))
        {
            continue;
        }
        if after > 0 && index.lines().get(c + m + after - 1).trim().is_empty() {
            continue;
        }
        let ok_len = (c - before..c)
            .chain(c + m..c + m + after)
            .all(|j| short(index, j));
        if !ok_len {
            continue;
        }
        let separates = found.iter().filter(|&&o| o != c).all(|&o| {
            let differs = |index: &mut LineIndex<'_>, j: usize, k: usize| -> bool {
                // File line `k` (at candidate `o`) against line `j` (at `c`), if it exists.
                let line = index.lines().get(j);
                !index.line_eq(k, Level::Fold, line)
            };
            let before_differs = (1..=before).any(|d| o < d || differs(index, c - d, o - d));
            let after_differs =
                (0..after).any(|d| o + m + d >= n || differs(index, c + m + d, o + m + d));
            before_differs || after_differs
        });
        if separates {
            out.push((before, after));
            if out.len() == CONTEXT_TRIES {
                break;
            }
        }
    }
    out
}

/// For each candidate, what tells it apart from the others (one "To pick line N: …" sentence
/// each; none when there are more than [`FIX_CANDIDATES`]), and the first such fix as a
/// suggestion. Every fix is verified: the
/// hunk resent with it is located again and lands on that candidate.
fn separating_fixes(
    index: &mut LineIndex<'_>,
    cx: &HunkRef<'_>,
    m: usize,
    found: &[usize],
    (anchor, placed): (Option<&AnchorMatch>, &[Placement]),
    opts: &Options,
) -> (Vec<String>, Option<String>) {
    let n = index.len();
    let mut fixes = Vec::new();
    let mut suggestion = None;
    if VERIFYING.with(|v| v.replace(true)) {
        return (fixes, suggestion);
    }
    // Each candidate verifies up to HEADER_DEPTH + CONTEXT_TRIES resent hunks.
    // Each locates the hunks before this one again too.
    let hunks = cx.verified_before().len() + 1 + cx.after.len().min(crate::locate::VERIFY_HUNKS);
    let per_candidate = (n + 1) * (HEADER_DEPTH + CONTEXT_TRIES) * 2 * hunks;
    let take = if per_candidate * FIX_CANDIDATES <= VERIFY_LINES {
        FIX_CANDIDATES
    } else {
        FEW_CANDIDATES
    };
    if found.len() > take {
        // Not every candidate could get a fix: offer none (see FIX_CANDIDATES).
        VERIFYING.with(|v| v.set(false));
        return (fixes, suggestion);
    }
    for &c in found {
        let mut ways = Vec::new();
        if let Some((text, hint)) = separating_header(index, cx, (c, m), anchor, opts) {
            ways.push(text);
            suggestion.get_or_insert(hint);
        }
        // Distinct at the loosest level: a line that separates the candidates only at the
        // level they were found at would let the resent hunk fall to a looser level at another
        // candidate (`\t}` and `}` differ at the exact level only).
        if let Some((before, after)) = context_fix(index, cx, (c, m), found, placed, opts) {
            let way = context_way(index, (c, m), (before, after));
            if before + after == 1 {
                let j = if before == 1 { c - 1 } else { c + m };
                suggestion.get_or_insert(format!(" {}", index.lines().get(j)));
            }
            ways.push(way);
        }
        if !ways.is_empty() {
            fixes.push(format!("To pick line {}: {}.", c + 1, ways.join(", or ")));
        }
    }
    VERIFYING.with(|v| v.set(false));
    (fixes, suggestion)
}

/// The words of a fix that adds `before` file lines ahead of candidate `c` (`m` lines long)
/// and `after` file lines after it: "start the hunk with the context line …", and so on.
fn context_way(
    index: &LineIndex<'_>,
    (c, m): (usize, usize),
    (before, after): (usize, usize),
) -> String {
    let start = (before > 0).then(|| context_lines(index, c - before, c));
    let end = (after > 0).then(|| context_lines(index, c + m, c + m + after));
    match (start, end) {
        (Some(s), None) => format!("start the hunk with the {s}"),
        (None, Some(e)) => format!("end the hunk with the {e}"),
        (Some(s), Some(e)) => format!("start the hunk with the {s} and end it with the {e}"),
        (None, None) => String::new(),
    }
}

/// For a hunk resent in another form (`cx.hunk`, as an ambiguous anchor's fix drops the
/// anchor): the verified context lines that make it land on exactly candidate `c` of its
/// places `found` (the same rules as an ambiguity's "To pick line N" context fix), worded as
/// [`context_way`]. Ambiguities met while verifying get no fixes of their own.
pub(super) fn verified_context_way(
    index: &mut LineIndex<'_>,
    cx: &HunkRef<'_>,
    (c, m): (usize, usize),
    found: &[usize],
    opts: &Options,
) -> Option<String> {
    if found.len() > FIX_CANDIDATES || VERIFYING.with(|v| v.replace(true)) {
        return None;
    }
    let fix = context_fix(index, cx, (c, m), found, &[], opts);
    VERIFYING.with(|v| v.set(false));
    let (before, after) = fix?;
    Some(context_way(index, (c, m), (before, after)))
}

/// The refusal `e` of a hunk placed at `p` that ends with added lines and no unchanged line
/// after them ([`crate::locate::search::check_open_end`]), with a "To pick line N" fix: the
/// fewest file lines after (or around) the placement with which the resent hunk lands on
/// exactly those lines, verified as an ambiguity's context fix. Unchanged when none verifies,
/// or when the placement reads the hunk with a line left out, lost or dropped at its end.
pub(crate) fn with_open_end_fix(
    index: &mut LineIndex<'_>,
    cx: &HunkRef<'_>,
    p: &Placement,
    opts: &Options,
    e: Error,
) -> Error {
    if e.status() != Status::Ambiguous
        || p.bend.is_some()
        || p.used_lines != cx.hunk.lines.len()
        || p.old_len == 0
    {
        return e;
    }
    let Some(way) = verified_context_way(index, cx, (p.start, p.old_len), &[p.start], opts) else {
        return e;
    };
    let message = format!("{}\nTo pick line {}: {way}.", e.message(), p.start + 1);
    Error::new(e.status(), message, e.diagnostics().clone())
}

/// The context lines (before, after) of candidate `c`'s fix: the first separating context
/// whose resent hunk lands on exactly the candidate's lines and that a model appending its end
/// lines after a stray trailing blank line also lands with ([`BlankResend::Lands`]); else the
/// first whose such resend is refused (safe, but refused again); never one that lands
/// elsewhere.
fn context_fix(
    index: &mut LineIndex<'_>,
    cx: &HunkRef<'_>,
    (c, m): (usize, usize),
    found: &[usize],
    placed: &[Placement],
    opts: &Options,
) -> Option<(usize, usize)> {
    let mut fallback = None;
    for (before, after) in separating_context(index, found, (c, m), placed) {
        let hunk = with_context(index, cx, c, m, (before, after));
        let len = before + m + after;
        let blank = blank_before_end(index, cx, &hunk, opts, after, c - before);
        if blank == BlankResend::Elsewhere
            || (blank == BlankResend::Refused && fallback.is_some())
            || !lands_at(index, cx, hunk, opts, (c - before, len))
        {
            continue;
        }
        if blank == BlankResend::Lands {
            return Some((before, after));
        }
        fallback = Some((before, after));
    }
    fallback
}

/// An enclosing header of candidate `c` (the innermost that works, up to [`HEADER_DEPTH`]
/// levels out) as the hunk's added (innermost) anchor, when the hunk resent with it lands on
/// `c`: the sentence part and the suggested anchor.
fn separating_header(
    index: &mut LineIndex<'_>,
    cx: &HunkRef<'_>,
    (c, m): (usize, usize),
    anchor: Option<&AnchorMatch>,
    opts: &Options,
) -> Option<(String, String)> {
    let mut at = c;
    for _ in 0..HEADER_DEPTH {
        let h = enclosing_header(index, at, 5000)?;
        at = h;
        if anchor.is_some_and(|a| a.line == h) {
            // The anchor given already names this block: an outer one does not narrow it.
            return None;
        }
        let text = index.lines().get(h).trim().to_string();
        if text.is_empty() || text.chars().count() > FIX_LINE_CHARS {
            continue;
        }
        let mut hunk = cx.hunk.clone();
        hunk.anchors.push(Anchor {
            text: text.clone(),
            patch_line: cx.hunk.patch_line,
        });
        if lands_at(index, cx, hunk, opts, (c, m)) {
            return Some((
                format!(
                    "add the anchor {} (line {})",
                    quoted(&format!("@@ {text}")),
                    h + 1
                ),
                format!("@@ {text}"),
            ));
        }
    }
    None
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
