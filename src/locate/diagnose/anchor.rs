//! Errors for an `@@` anchor that is ambiguous or not found where it is searched.

use super::ambiguous::{quoted, verified_context_way};
use super::text::{closest_lines, line_list};
use crate::error::{Diagnostics, Error, Status};
use crate::locate::anchor::{block_end, enclosing_header, AnchorMatch};
use crate::locate::index::{Budget, LineIndex, Pattern};
use crate::locate::search::{starts_from, starts_until};
use crate::locate::{gapped_body, HunkRef};
use crate::options::Options;
use crate::patch::{Anchor, LineKind};

/// An anchor line that occurs more than once where it is searched.
pub(crate) fn anchor_ambiguous(
    index: &mut LineIndex<'_>,
    cx: &HunkRef<'_>,
    anchor: &Anchor,
    found: &[usize],
    opts: &Options,
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
    let mut message = format!(
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
    let picks = stacked_anchor_fixes(index, cx, anchor, found, opts);
    if !picks.is_empty() {
        message.push('\n');
        message.push_str(&picks.join("\n"));
    }
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

/// How many of an ambiguous anchor's lines (the first, in file order) get a verified fix.
const ANCHOR_FIX_CANDIDATES: usize = 5;

/// How many of the lines just before an ambiguous anchor's line (nearest first) are tried as
/// the anchor stacked before it, when the line has no enclosing header.
const PRECEDING_TRIES: usize = 3;

/// For each of the first lines an ambiguous anchor matches, the enclosing header stacked
/// before the anchor as one "To pick line N: …" sentence, N being where the hunk then lands:
/// offered only when the hunk, located again with that anchor, lands there. An anchor's
/// header that is itself a copy is tried one level further out.
fn stacked_anchor_fixes(
    index: &mut LineIndex<'_>,
    cx: &HunkRef<'_>,
    anchor: &Anchor,
    found: &[usize],
    opts: &Options,
) -> Vec<String> {
    let Some(k) = cx
        .hunk
        .anchors
        .iter()
        .position(|a| a.patch_line == anchor.patch_line)
    else {
        return Vec::new();
    };
    // Each check locates the hunk in the whole file again: only on files where that is cheap.
    let scans = index.len().saturating_mul(cx.verified_before().len() + 1);
    if scans > 200_000 || CHECKING.with(|c| c.replace(true)) {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut seen_landing = Vec::new();
    // The fixes that drop the anchor, offered only when every line the anchor matches gets a
    // fix: else a model that meant a line without one would take another's.
    let (mut dropped, mut partial) = (Vec::new(), found.len() > ANCHOR_FIX_CANDIDATES);
    // The stacked anchors first: a place they reach needs no dropped anchor.
    let mut bare = Vec::new();
    for &c in found.iter().take(ANCHOR_FIX_CANDIDATES) {
        match stacked_fix(index, cx, (anchor, k), (c, found), opts) {
            Some((at, sentence)) if !seen_landing.contains(&at) => {
                seen_landing.push(at);
                out.push(sentence);
            }
            Some(_) => {}
            None => bare.push(c),
        }
    }
    for c in bare {
        let fixes = dropped_anchor_fixes(index, cx, (anchor, k), (c, found), opts);
        if fixes.is_empty() {
            partial |= !holds_none(index, cx, c, opts);
        }
        for (at, way) in fixes {
            if !seen_landing.contains(&at) {
                seen_landing.push(at);
                dropped.push(format!("To pick line {}: {way}.", at + 1));
            }
        }
    }
    CHECKING.with(|c| c.set(false));
    if !partial {
        out.append(&mut dropped);
    }
    out
}

/// Candidate `c`'s stacked anchor: the first of its enclosing headers (two levels out), else
/// of the lines just before it (a flat text's block runs on past it), that, stacked before
/// anchor `k`, makes the hunk land; where it lands and the sentence.
fn stacked_fix(
    index: &mut LineIndex<'_>,
    cx: &HunkRef<'_>,
    (anchor, k): (&Anchor, usize),
    (c, found): (usize, &[usize]),
    opts: &Options,
) -> Option<(usize, String)> {
    let lines = index.lines();
    let mut outers = Vec::new();
    let mut at = c;
    for _ in 0..2 {
        let Some(h) = enclosing_header(index, at, 2000) else {
            break;
        };
        at = h;
        outers.push(h);
    }
    if outers.is_empty() {
        outers.extend((c.saturating_sub(PRECEDING_TRIES)..c).rev());
    }
    for h in outers {
        let text = lines.get(h).trim().to_string();
        // Another line the anchor matches would read as that line, not as its block.
        if text.is_empty() || text.chars().count() > 240 || found.contains(&h) {
            continue;
        }
        let mut hunk = cx.hunk.clone();
        hunk.anchors.insert(
            k,
            Anchor {
                text: text.clone(),
                patch_line: anchor.patch_line,
            },
        );
        if let Ok(p) = cx.relocate(lines, hunk, opts) {
            let sentence = format!(
                "To pick line {}: add the anchor \"@@ {}\" (line {}) before \"@@ {}\" (patch \
                 line {}).",
                p.start + 1,
                text.replace('\\', "\\\\").replace('"', "\\\""),
                h + 1,
                anchor.text,
                anchor.patch_line
            );
            return Some((p.start, sentence));
        }
    }
    None
}

/// Candidate `c`'s fixes when no header stacked before ambiguous anchor `k` lands: the hunk
/// resent without that anchor (searched where the anchor's outer anchors, or the region after
/// the previous hunk, say), alone or with context lines that tell its place apart. Alone:
/// offered only when the hunk's old side occurs exactly once, at the loosest level, in `c`'s
/// block, and the resent hunk lands there on exactly those lines, the whole resent patch clear
/// of the later hunks (see [`HunkRef::clear_of_later`]). With context: one fix for each place
/// of the old side in `c`'s block (at most [`BLOCK_PLACES`]), each verified as an ambiguity's
/// context fix, and only when every place gets one: the anchor read as line `c` can mean only
/// those places, and a model that meant one without a fix would take another's. A place that
/// is also in another candidate's block (flat text, whose blocks run on to the end) gets the
/// same verified fix from either. Each fix's landing line and words; none when a place of the
/// block has none.
fn dropped_anchor_fixes(
    index: &mut LineIndex<'_>,
    cx: &HunkRef<'_>,
    (anchor, k): (&Anchor, usize),
    (c, found): (usize, &[usize]),
    opts: &Options,
) -> Vec<(usize, String)> {
    let mut hunk = cx.hunk.clone();
    hunk.anchors.remove(k);
    let drop = format!(
        "drop the anchor {} (patch line {})",
        quoted(&format!("@@ {}", anchor.text)),
        anchor.patch_line
    );
    let mut budget = Budget::new(opts.search_budget);
    let placed = cx.relocate(index.lines(), hunk.clone(), opts);
    if let Ok(p) = &placed {
        // The old side as placed (a line the patch left out put back, one the file lost left
        // out): it maps to the file's lines one to one.
        let body = gapped_body(&hunk, p, index.lines());
        let old: Vec<&str> = old_texts(&body);
        let only = places_in_block(index, &old, (c, found), opts, &mut budget);
        let m = old.len();
        let fits = m > 0 && p.old_len == m && !p.already_applied && only == Some(vec![p.start]);
        if fits && cx.clear_of_later(index.lines(), hunk, opts, p.start..p.start + m) {
            let way = format!(
                "{drop}; its lines occur once in the block of line {}",
                c + 1
            );
            return vec![(p.start, way)];
        }
        return Vec::new();
    }
    // Not placed alone (other copies of its lines): for each copy in `c`'s block, the context
    // that tells it apart.
    let old: Vec<&str> = old_texts(&hunk.lines);
    let Some(places) = places_in_block(index, &old, (c, found), opts, &mut budget) else {
        return Vec::new();
    };
    let mut pattern = Pattern::new(old.clone());
    let n = index.len();
    let Ok(all) = index.find_windows(&mut pattern, opts.max_level, 0..n, 13, &mut budget) else {
        return Vec::new();
    };
    let resent = HunkRef { hunk: &hunk, ..*cx };
    let mut fixes = Vec::new();
    for w in places {
        match verified_context_way(index, &resent, (w, old.len()), &all, opts) {
            Some(way) => fixes.push((w, format!("{drop} and {way}"))),
            None => return Vec::new(),
        }
    }
    fixes
}

/// How many places of a hunk's old side in one block of an ambiguous anchor get a fix each
/// at most ([`dropped_anchor_fixes`]); a block with more gets none.
const BLOCK_PLACES: usize = 3;

/// How many lines of a block [`holds_none`] reads at most.
const HOLDS_NONE_LINES: usize = 5000;

/// True when the block of anchor line `c` holds none of the hunk's non-blank context and `-`
/// lines at the loosest level: the hunk cannot be placed there by any reading (each keeps all
/// but one of its lines, or two thirds), so a model cannot have meant that line, and its
/// lacking a fix does not make the other lines' fixes a partial menu.
fn holds_none(index: &mut LineIndex<'_>, cx: &HunkRef<'_>, c: usize, opts: &Options) -> bool {
    let mut budget = Budget::new(opts.search_budget);
    let Ok(end) = block_end(index, c, &mut budget) else {
        return false;
    };
    let a = AnchorMatch {
        line: c,
        fuzz: 0,
        block: c..end,
    };
    let m = cx.hunk.old_lines().count();
    let range = starts_from(&a, m)..(starts_until(index, &a) + m).min(index.len());
    if range.len() > HOLDS_NONE_LINES {
        return false;
    }
    let old: Vec<&str> = cx
        .hunk
        .old_lines()
        .map(|l| l.text.as_str())
        .filter(|t| !t.trim().is_empty())
        .collect();
    !old.is_empty()
        && range
            .into_iter()
            .all(|i| old.iter().all(|t| !index.line_eq(i, opts.max_level, t)))
}

/// The texts of a body's context and `-` lines.
fn old_texts(body: &[crate::patch::Line]) -> Vec<&str> {
    body.iter()
        .filter(|l| l.kind != LineKind::Add)
        .map(|l| l.text.as_str())
        .collect()
}

/// The places where `old` occurs (at the loosest level) in the block of anchor line `c`, when
/// it occurs there at least once and at most [`BLOCK_PLACES`] times. A window past the block's
/// end that covers another of the matched lines `found` is that line's (the hunk quotes it,
/// [`starts_from`]), not a copy in `c`'s block.
fn places_in_block(
    index: &mut LineIndex<'_>,
    old: &[&str],
    (c, found): (usize, &[usize]),
    opts: &Options,
    budget: &mut Budget,
) -> Option<Vec<usize>> {
    let m = old.len();
    if m == 0 {
        return None;
    }
    let end = block_end(index, c, budget).ok()?;
    let a = AnchorMatch {
        line: c,
        fuzz: 0,
        block: c..end,
    };
    let range = starts_from(&a, m)..(starts_until(index, &a) + m).min(index.len());
    let mut pattern = Pattern::new(old.to_vec());
    let limit = BLOCK_PLACES + 1;
    let mut places = index
        .find_windows(&mut pattern, opts.max_level, range, limit, budget)
        .ok()?;
    // Past the block's end (a hunk that starts right after it), a window that quotes another
    // matched line (covers it) is that line's.
    places.retain(|&w| w < end || !found.iter().any(|&o| o != c && w <= o && o < w + m));
    if places.is_empty() || places.len() > BLOCK_PLACES {
        return None;
    }
    Some(places)
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
        let (text, hint) = closest_anchor_lines(index, &close, k > 0);
        message.push_str(&text);
        suggestion = hint;
        candidates = close.iter().map(|&(l, _)| l as u32 + 1).collect();
        if let [(a, sa), (b, sb), ..] = close[..] {
            if sa <= sb {
                // Two lines equally close: which one the model meant is a guess.
                suggestion = None;
                message.push_str(&format!(
                    " Lines {} and {} are equally close: name the one meant.",
                    a + 1,
                    b + 1
                ));
            }
        }
        if suggestion.is_some() && k + 1 == cx.hunk.anchors.len() {
            if let Some(&(line, _)) = close.first() {
                let (text, keep) = closest_anchor_checked(index, cx, (k, line), opts);
                message.push_str(&text);
                if !keep {
                    suggestion = None;
                }
            }
        }
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

/// The part of an anchor-not-found message that names the lines closest to the anchor, and
/// the first of them as a suggested anchor (`inner`: the anchor is not the first of its hunk).
fn closest_anchor_lines(
    index: &mut LineIndex<'_>,
    close: &[(usize, f64)],
    inner: bool,
) -> (String, Option<String>) {
    let suggestion = close
        .first()
        .map(|&(line, _)| format!("@@ {}", index.lines().get(line).trim_end()));
    if close.is_empty() {
        return (
            " Copy the anchor text from a real line of the file, or use a bare \"@@\".".to_string(),
            suggestion,
        );
    }
    let shown: Vec<String> = close
        .iter()
        .map(|&(l, s)| {
            format!(
                "line {} {:?} ({}% similar)",
                l + 1,
                index.lines().get(l).trim(),
                (s * 100.0).round() as u32
            )
        })
        .collect();
    let text = format!(
        " Closest: {}. Copy the anchor text from a real line of the file{}.",
        shown.join(", "),
        if inner {
            ", or drop the inner anchor"
        } else {
            ""
        }
    );
    (text, suggestion)
}

thread_local! {
    /// A closest anchor is being checked on this thread (see [`closest_anchor_checked`]).
    static CHECKING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether the closest line `line`, as the hunk's (innermost) anchor `k`, makes the hunk land:
/// the hunk is located again with that anchor. It is suggested only when the hunk then lands,
/// or is not found but gets a corrected hunk (checked itself); the sentence says which, or why
/// the line is not suggested.
fn closest_anchor_checked(
    index: &mut LineIndex<'_>,
    cx: &HunkRef<'_>,
    (k, line): (usize, usize),
    opts: &Options,
) -> (String, bool) {
    let lines = index.lines();
    let mut hunk = cx.hunk.clone();
    let Some(anchor) = hunk.anchors.get_mut(k) else {
        return (String::new(), false);
    };
    anchor.text = lines.get(line).trim_end().to_string();
    let to = format!(" With line {} as the anchor, the hunk", line + 1);
    // Locating the hunk again can end here again (an outer anchor found elsewhere, and this
    // one not found in its block): that nested check is not made, and nothing is suggested.
    if CHECKING.with(|c| c.replace(true)) {
        return (String::new(), false);
    }
    let relocated = cx.relocate(lines, hunk, opts);
    CHECKING.with(|c| c.set(false));
    match relocated {
        Ok(p) => (format!("{to} lands at line {}.", p.start + 1), true),
        Err(e) if e.diagnostics().corrected_hunk.is_some() => (
            format!(
                "{to}'s lines are not found as quoted, but a corrected hunk is offered for it \
                 (resend with that anchor to see it)."
            ),
            true,
        ),
        Err(e) => (
            format!(
                "{to} is not placed either ({}): copy its lines from the file as well.",
                match e.status() {
                    Status::Ambiguous => "its lines occur more than once in the block",
                    Status::ContextNotFound => "its lines are not found in the block",
                    _ => "refused",
                }
            ),
            false,
        ),
    }
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
