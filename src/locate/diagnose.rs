//! Diagnostics written for the model: for an ambiguous hunk, every candidate and a concrete fix;
//! for a hunk that is not found, the closest region, the lines that differ (whitespace made
//! visible) and a corrected hunk built from the file's real lines.

use std::ops::Range;

use rustc_hash::FxHashMap;
use similar::{capture_diff_slices, Algorithm, DiffOp};

use super::anchor::{enclosing_header, AnchorMatch};
use super::index::{hash_str, Budget, LineIndex, Pattern};
use super::{HunkRef, Placement};
use crate::error::{ClosestRegion, Diagnostics, Error, Status};
use crate::level::{normalize, normalized, Level};
use crate::options::Options;
use crate::patch::{Anchor, Hunk, LineKind};

/// "40, 88 and 131" from 0-based lines.
pub(crate) fn line_list(lines: &[usize]) -> String {
    let shown: Vec<String> = lines.iter().take(20).map(|l| (l + 1).to_string()).collect();
    let mut s = match shown.len() {
        0 => String::new(),
        1 => shown[0].clone(),
        k => format!("{} and {}", shown[..k - 1].join(", "), shown[k - 1]),
    };
    if lines.len() > 20 {
        s = format!("{} … ({} in all)", shown.join(", "), lines.len());
    }
    s
}

/// How many characters of a line a message quotes.
const QUOTE_CHARS: usize = 240;

/// A line quoted with its whitespace made visible: `·` space, `→` tab, `\u{..}` for other
/// invisible characters. Long lines are cut after [`QUOTE_CHARS`] characters.
pub(crate) fn visible(line: &str) -> String {
    let mut out = String::with_capacity(line.len().min(QUOTE_CHARS * 4) + 2);
    out.push('"');
    let total = line.chars().count();
    for c in line.chars().take(QUOTE_CHARS) {
        match c {
            ' ' => out.push('·'),
            '\t' => out.push('→'),
            '"' => out.push_str("\\\""),
            c if c.is_whitespace()
                || c.is_control()
                || matches!(c, '\u{200B}'..='\u{200D}' | '\u{2060}' | '\u{FEFF}') =>
            {
                out.push_str(&format!("\\u{{{:04X}}}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
    if total > QUOTE_CHARS {
        out.push_str(&format!(" (… {} more characters)", total - QUOTE_CHARS));
    }
    out
}

/// At most `keep` bytes of each end of a long line (on character boundaries): similarity of
/// huge lines is judged on their ends, so diagnostics stay cheap.
fn ends_of(line: &str, keep: usize) -> std::borrow::Cow<'_, str> {
    if line.len() <= 2 * keep {
        return std::borrow::Cow::Borrowed(line);
    }
    let mut a = keep;
    while !line.is_char_boundary(a) {
        a -= 1;
    }
    let mut b = line.len() - keep;
    while !line.is_char_boundary(b) {
        b += 1;
    }
    std::borrow::Cow::Owned(format!("{}{}", &line[..a], &line[b..]))
}

/// Similarity of two lines in 0.0..=1.0: character-bigram Dice on their folded forms.
pub(crate) fn similarity(a: &str, b: &str) -> f64 {
    let a = normalized(&ends_of(a, 2048), Level::Fold);
    let b = normalized(&ends_of(b, 2048), Level::Fold);
    if a == b {
        return 1.0;
    }
    let bigrams = |s: &str| -> Vec<(char, char)> {
        let cs: Vec<char> = s.chars().collect();
        let mut v: Vec<(char, char)> = cs.windows(2).map(|w| (w[0], w[1])).collect();
        if v.is_empty() {
            v.extend(cs.first().map(|&c| (c, '\0')));
        }
        v.sort_unstable();
        v
    };
    let (x, y) = (bigrams(&a), bigrams(&b));
    if x.is_empty() || y.is_empty() {
        return 0.0;
    }
    let (mut i, mut j, mut common) = (0, 0, 0usize);
    while i < x.len() && j < y.len() {
        match x[i].cmp(&y[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                common += 1;
                i += 1;
                j += 1;
            }
        }
    }
    2.0 * common as f64 / (x.len() + y.len()) as f64
}

/// The `k` lines of `range` most similar to `text` (best first), with their similarity.
pub(crate) fn closest_lines(
    index: &mut LineIndex<'_>,
    text: &str,
    range: Range<usize>,
    k: usize,
    budget: &mut Budget,
) -> Vec<(usize, f64)> {
    let lines = index.lines();
    let mut best: Vec<(usize, f64)> = Vec::new();
    let want = normalized(text, Level::Fold);
    for i in range {
        if budget.charge(1).is_err() {
            break;
        }
        let line = lines.get(i);
        let mut s = similarity(line, text);
        let mut head = line.len().min(text.len() * 4 + 64);
        while !line.is_char_boundary(head) {
            head -= 1;
        }
        if !want.is_empty() && normalized(&line[..head], Level::Fold).starts_with(&want) {
            s = s.max(0.9);
        }
        if s >= 0.4 {
            best.push((i, s));
            best.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            best.truncate(k);
        }
    }
    best
}

/// The ambiguity error for a hunk matching `found` places at `level` (inside its anchor's
/// block when it has anchors). Each fix names what separates one candidate from the others: a
/// context line, or an enclosing block's header that only that candidate has.
pub(crate) fn ambiguous(
    index: &mut LineIndex<'_>,
    cx: &HunkRef<'_>,
    old: &[&str],
    found: &[usize],
    level: Level,
    anchor: Option<&AnchorMatch>,
) -> Error {
    let (fixes, suggestion) = separating_fixes(index, old.len(), found, level, anchor);
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

/// For each of the first candidates, what tells it apart from the others (one "To pick line
/// N: …" sentence each), and the first such fix as a suggestion.
fn separating_fixes(
    index: &mut LineIndex<'_>,
    m: usize,
    found: &[usize],
    level: Level,
    anchor: Option<&AnchorMatch>,
) -> (Vec<String>, Option<String>) {
    let n = index.len();
    let headers: Vec<Option<usize>> = found
        .iter()
        .take(3)
        .map(|&c| enclosing_header(index, c, 5000))
        .collect();
    let mut fixes = Vec::new();
    let mut suggestion = None;
    for (ci, &c) in found.iter().take(3).enumerate() {
        let mut ways = Vec::new();
        if let Some(text) = separating_header(index, &headers, ci, anchor, found.len()) {
            ways.push(text.0);
            suggestion.get_or_insert(text.1);
        }
        let distinct = |index: &mut LineIndex<'_>, at: usize, delta: isize| -> bool {
            let line = index.lines().get(at);
            found.iter().filter(|&&o| o != c).all(|&o| {
                let j = o as isize + delta;
                j < 0 || j as usize >= n || !index.line_eq(j as usize, level, line)
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

/// An anchor line that occurs more than once where it is searched.
pub(crate) fn anchor_ambiguous(
    index: &mut LineIndex<'_>,
    cx: &HunkRef<'_>,
    anchor: &Anchor,
    found: &[usize],
) -> Error {
    let lines = line_list(found);
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

/// An anchor that is not found where it is searched (for an inner anchor: inside the block of
/// the anchor before it). When it occurs elsewhere, the message says where.
pub(crate) fn anchor_not_found(
    index: &mut LineIndex<'_>,
    cx: &HunkRef<'_>,
    anchor: &Anchor,
    k: usize,
    outer: Option<&AnchorMatch>,
    opts: &Options,
    budget: &mut Budget,
) -> Error {
    let n = index.len();
    let range = outer.map_or(0..n, |o| o.body());
    let close = closest_lines(index, &anchor.text, range.clone(), 3, budget);
    let where_ = match outer {
        Some(o) => format!(
            " inside the block of the anchor before it (line {}, block lines {}–{})",
            o.line + 1,
            o.block.start + 1,
            o.block.end
        ),
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
    let mut candidates: Vec<u32> = Vec::new();
    let mut suggestion = None;
    if outer.is_some() {
        if let Some((text, lines, anchor_hint)) = anchor_elsewhere(index, anchor, opts) {
            message.push_str(&text);
            candidates = lines;
            suggestion = anchor_hint;
        }
    }
    if candidates.is_empty() {
        suggestion = close
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
            message.push_str(
                " Copy the anchor text from a real line of the file, or use a bare \"@@\".",
            );
        }
        candidates = close.iter().map(|&(l, _)| l as u32 + 1).collect();
    }
    Error::new(
        Status::AnchorNotFound,
        message,
        Diagnostics {
            patch_line: Some(anchor.patch_line),
            candidates,
            suggestion,
            ..cx.diagnostics()
        },
    )
}

/// Where an inner anchor is found outside the outer anchor's block, if anywhere: the message
/// part, the 1-based lines, and the header of the block that holds the first one.
fn anchor_elsewhere(
    index: &mut LineIndex<'_>,
    anchor: &Anchor,
    opts: &Options,
) -> Option<(String, Vec<u32>, Option<String>)> {
    let n = index.len();
    let mut b = Budget::new(2_000_000 + 4 * n as u64);
    let elsewhere: Vec<usize> = opts.max_level.up_to().iter().find_map(|&l| {
        let f = index
            .find_line(&anchor.text, l, false, 0..n, 3, &mut b)
            .unwrap_or_default();
        (!f.is_empty()).then_some(f)
    })?;
    let places: Vec<String> = elsewhere
        .iter()
        .map(|&e| match enclosing_header(index, e, 5000) {
            Some(h) => format!(
                "line {}, inside \"{}\" (line {})",
                e + 1,
                index.lines().get(h).trim(),
                h + 1
            ),
            None => format!("line {}", e + 1),
        })
        .collect();
    let text = format!(
        " It is at {}, outside that block: the anchors disagree. Name the block that holds it, \
         or drop the outer anchor.",
        places.join("; and at ")
    );
    let hint = elsewhere
        .first()
        .and_then(|&e| enclosing_header(index, e, 5000))
        .map(|h| format!("@@ {}", index.lines().get(h).trim()));
    Some((
        text,
        elsewhere.iter().map(|&e| e as u32 + 1).collect(),
        hint,
    ))
}

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
    for l in &hunk.lines[..p.used_lines.min(hunk.lines.len())] {
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
    // Diagnostics get a budget of their own, proportional to the file.
    let mut budget = Budget::new(20_000_000 + 20 * n as u64);
    if let Some(a) = anchor {
        if let Some(elsewhere) = outside_block(index, old, a, opts, &mut budget) {
            message.push_str(&elsewhere.0);
            diagnostics.candidates = elsewhere.1;
            diagnostics.suggestion = elsewhere.2;
        }
    }
    let region = if search.is_empty() {
        None
    } else {
        closest_region(index, old, search, None, &mut budget)
    };
    match region {
        Some(r) if r.similarity >= 0.3 => {
            let corrected = corrected_hunk(index, cx, old, &r);
            message.push_str(&format!(
                "\nThe closest place is lines {}–{} ({}% similar). Lines that differ:\n{}",
                r.start + 1,
                r.end,
                (r.similarity * 100.0).round(),
                corrected.differences
            ));
            if corrected.text.len() <= MAX_CORRECTED {
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
        }
        _ => {
            message.push_str(if n == 0 {
                " The file is empty."
            } else {
                " Nothing in the file is close to it: check the file path, and copy the lines \
                 exactly from the current file."
            });
        }
    }
    Error::new(Status::ContextNotFound, message, diagnostics)
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
    let suggestion = match (found.len(), headers.first().copied().flatten()) {
        (1, Some(h)) => Some(format!("@@ {}", index.lines().get(h).trim())),
        _ => None,
    };
    let pick = match &suggestion {
        Some(s) => format!(" If that is the place, use the anchor \"{s}\" instead."),
        None => String::new(),
    };
    let _ = a;
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

/// The largest corrected hunk quoted in a message.
const MAX_CORRECTED: usize = 64 * 1024;

/// A window of the file and how similar it is to a hunk's old side.
pub(crate) struct Region {
    pub start: usize,
    pub end: usize,
    pub similarity: f64,
}

/// Finds the window of the file most similar to `old`: line-hash votes on diagonals (rare
/// lines vote; frequent ones carry no information), then a similarity score on the best few.
pub(crate) fn closest_region(
    index: &mut LineIndex<'_>,
    old: &[&str],
    range: Range<usize>,
    exclude: Option<Range<usize>>,
    budget: &mut Budget,
) -> Option<Region> {
    let m = old.len();
    if m == 0 || range.is_empty() {
        return None;
    }
    let lines = index.lines();
    let mut buf = String::new();
    let mut pattern_keys: FxHashMap<u64, Vec<usize>> = FxHashMap::default();
    for (i, l) in old.iter().enumerate() {
        pattern_keys
            .entry(hash_str(normalize(l, Level::Fold, &mut buf)))
            .or_default()
            .push(i);
    }
    // Occurrences of each pattern key in the range.
    let mut occurrences: FxHashMap<u64, Vec<usize>> = FxHashMap::default();
    for j in range.clone() {
        if budget.charge(1).is_err() {
            break;
        }
        let key = hash_str(normalize(lines.get(j), Level::Fold, &mut buf));
        if pattern_keys.contains_key(&key) {
            let v = occurrences.entry(key).or_default();
            if v.len() <= 64 {
                v.push(j);
            }
        }
    }
    let mut votes: FxHashMap<isize, u32> = FxHashMap::default();
    let mut rare_seen = false;
    for (key, occ) in &occurrences {
        if occ.len() > 64 {
            continue;
        }
        rare_seen = true;
        for &j in occ {
            for &i in &pattern_keys[key] {
                *votes.entry(j as isize - i as isize).or_default() += 1;
            }
        }
    }
    if !rare_seen {
        for (key, occ) in &occurrences {
            for &j in occ.iter().take(16) {
                for &i in &pattern_keys[key] {
                    *votes.entry(j as isize - i as isize).or_default() += 1;
                }
            }
        }
    }
    let mut diagonals: Vec<(isize, u32)> = votes.into_iter().collect();
    diagonals.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    diagonals.truncate(if exclude.is_some() { 16 } else { 8 });
    if exclude.is_some() {
        // Looking for the best place away from one window: lines merely similar to the first
        // old-side lines propose places too.
        for (k, l) in old.iter().enumerate().take(4) {
            for (j, _) in closest_lines(index, l, range.clone(), 3, budget) {
                diagonals.push((j as isize - k as isize, 0));
            }
        }
    } else if diagonals.is_empty() {
        // Nothing shares a line: score windows by line similarity at a few spread positions.
        let step = (range.len() / 64).max(1);
        diagonals = range
            .clone()
            .step_by(step)
            .map(|s| (s as isize, 0))
            .collect();
    }
    let mut best: Option<Region> = None;
    for (d, _) in diagonals {
        let start = d.clamp(range.start as isize, range.end as isize - 1) as usize;
        let end = (start + m).min(range.end);
        if exclude
            .as_ref()
            .is_some_and(|x| start < x.end && x.start < end.max(start + 1))
        {
            continue;
        }
        let mut total = 0.0;
        for (k, p) in old.iter().enumerate() {
            if start + k < end {
                total += similarity(lines.get(start + k), p);
            }
        }
        let s = total / m as f64;
        if best.as_ref().is_none_or(|b| s > b.similarity) {
            best = Some(Region {
                start,
                end,
                similarity: s,
            });
        }
    }
    best
}

struct Corrected {
    text: String,
    differences: String,
}

/// Rewrites the hunk with the file's real lines of `region`, aligning the old side to the
/// region with a line diff (pairs of differing lines are replacements).
fn corrected_hunk(
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
    let pn: Vec<String> = old.iter().map(|l| normalized(l, Level::Fold)).collect();
    let rn: Vec<String> = region.iter().map(|l| normalized(l, Level::Fold)).collect();
    let ops = capture_diff_slices(Algorithm::Myers, &pn, &rn);
    // For each old-side line: the file line it corresponds to (if any), and file lines that
    // precede it without a counterpart. Equal lines align exactly; in the gaps between them each
    // patch line pairs with the most similar file line after the previous pair.
    let mut map: Vec<Option<usize>> = vec![None; old.len()];
    let mut extra_before: Vec<Vec<usize>> = vec![Vec::new(); old.len() + 1];
    let mut first_file = None;
    let mut last_file = None;
    let mut equal_pairs: Vec<(usize, usize)> = Vec::new();
    for op in &ops {
        if let DiffOp::Equal {
            old_index,
            new_index,
            len,
        } = *op
        {
            equal_pairs.extend((0..len).map(|k| (old_index + k, new_index + k)));
        }
    }
    equal_pairs.push((old.len(), region.len()));
    let (mut po, mut pf) = (0usize, 0usize);
    for &(eo, ef) in &equal_pairs {
        let mut cursor = pf;
        for k in po..eo {
            let best = (cursor..ef)
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
    let (first_file, last_file) = match (first_file, last_file) {
        (Some(a), Some(b)) => (a, b),
        _ => (0, region.len().saturating_sub(1)),
    };
    let in_span = |j: &usize| *j >= first_file && *j <= last_file;
    let mut text = String::new();
    for a in &cx.hunk.anchors {
        text.push_str(&format!("@@ {}\n", a.text));
    }
    if cx.hunk.anchors.is_empty() {
        text.push_str("@@\n");
    }
    let mut differences = Vec::new();
    let mut k = 0usize; // old-side index
    for line in &cx.hunk.lines {
        match line.kind {
            LineKind::Add => {
                text.push('+');
                text.push_str(&line.text);
                text.push('\n');
            }
            LineKind::Context | LineKind::Delete => {
                for &j in extra_before[k].iter().filter(|j| in_span(j)) {
                    text.push(' ');
                    text.push_str(region[j]);
                    text.push('\n');
                    if differences.len() < 8 {
                        differences.push(format!(
                            "  file line {} {} is missing from the hunk",
                            lo + j + 1,
                            visible(region[j])
                        ));
                    }
                }
                let prefix = if line.kind == LineKind::Context {
                    ' '
                } else {
                    '-'
                };
                match map[k] {
                    Some(j) => {
                        text.push(prefix);
                        text.push_str(region[j]);
                        text.push('\n');
                        if region[j] != line.text && differences.len() < 8 {
                            differences.push(format!(
                                "  patch line {} {}\n  file line  {} {}",
                                line.patch_line,
                                visible(&line.text),
                                lo + j + 1,
                                visible(region[j])
                            ));
                        }
                    }
                    None => {
                        if differences.len() < 8 {
                            differences.push(format!(
                                "  patch line {} {} is not in the file",
                                line.patch_line,
                                visible(&line.text)
                            ));
                        }
                    }
                }
                k += 1;
            }
        }
    }
    if differences.is_empty() {
        differences.push("  (the lines match only in a different order)".to_string());
    }
    Corrected {
        text,
        differences: differences.join("\n"),
    }
}
