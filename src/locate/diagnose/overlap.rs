//! A corrected hunk for two hunks whose lines overlap only because the later one repeats, as
//! context, lines the other already covers: the hunk resent without those context lines.
//! Offered only after the engine has placed the patch again with it, and found the trimmed
//! hunk on the same file lines as before (less the lines dropped), every other hunk where it
//! was, and no line dropped that another hunk removes.

use crate::error::{Error, Status};
use crate::level::{normalized, Level};
use crate::locate::{locate_hunks, Placement};
use crate::options::Options;
use crate::patch::{Hunk, LineKind};
use crate::text::Lines;

use super::placed::removed_lines;

/// How many context lines a trimmed hunk drops at most.
const MAX_TRIM: usize = 8;

thread_local! {
    /// A trimmed hunk is being verified on this thread: an overlap met while placing the
    /// patch again gets no fix of its own (the check does not nest).
    static VERIFYING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The overlap of hunk `h` (read at file line `start`) with a hunk placed at `other_start`,
/// as the engine found it.
pub(crate) struct Overlap<'a> {
    /// The hunks of the file.
    pub hunks: &'a [Hunk],
    /// The placements that must stay where they are (hunk order; `h`'s own, if there, is
    /// ignored).
    pub placed: &'a [Placement],
    /// The hunk to trim.
    pub h: usize,
    /// Where `h` was read.
    pub start: usize,
    /// The other hunk (its index).
    pub other: usize,
    /// Where the other hunk starts: `h` is trimmed at its start when it begins after it.
    pub other_start: usize,
    /// How many hunks the check places again (`h + 1` when the later ones were not placed).
    pub upto: usize,
}

/// `err`, with a corrected hunk (`h` without the context lines the other hunk covers) when
/// one verifies; else `err` unchanged.
pub(crate) fn with_trimmed_hunk(
    lines: &Lines<'_>,
    o: &Overlap<'_>,
    path: &str,
    opts: &Options,
    seen: bool,
    err: Error,
) -> Error {
    if err.status() != Status::OverlappingHunks || VERIFYING.with(|v| v.replace(true)) {
        return err;
    }
    let found = trimmed(lines, o, path, opts, seen);
    VERIFYING.with(|v| v.set(false));
    let Some((k, text)) = found else {
        return err;
    };
    let hunk = &o.hunks[o.h];
    let lead = o.start > o.other_start;
    // The dropped lines' file lines (1-based).
    let first = if lead {
        o.start + 1
    } else {
        o.start + hunk.old_lines().count() - k + 1
    };
    let (side, what) = match (lead, k) {
        (true, 1) => ("first context line", format!("line {first}")),
        (false, 1) => ("last context line", format!("line {first}")),
        (true, _) => (
            "first context lines",
            format!("lines {first}–{}", first + k - 1),
        ),
        (false, _) => (
            "last context lines",
            format!("lines {first}–{}", first + k - 1),
        ),
    };
    let mut d = err.diagnostics().clone();
    d.corrected_hunk = Some(text.clone());
    let message = format!(
        "{}\nResend hunk {} without its {side} ({what}, which hunk {} already covers):\n{text}",
        err.message(),
        o.h + 1,
        o.other + 1,
    );
    Error::new(err.status(), message, d)
}

/// The smallest number of `h`'s leading (or trailing) context lines whose removal verifies,
/// and the hunk's text without them.
fn trimmed(
    lines: &Lines<'_>,
    o: &Overlap<'_>,
    path: &str,
    opts: &Options,
    seen: bool,
) -> Option<(usize, String)> {
    let hunk = o.hunks.get(o.h)?;
    let lead = o.start > o.other_start;
    let edge = |k: usize| {
        if lead {
            hunk.lines.get(k)
        } else {
            hunk.lines
                .len()
                .checked_sub(k + 1)
                .and_then(|i| hunk.lines.get(i))
        }
    };
    let context = (0..hunk.lines.len())
        .take_while(|&k| edge(k).is_some_and(|l| l.kind == LineKind::Context))
        .count();
    // At least one old-side line and one change stay.
    let changes = hunk.lines.iter().any(|l| l.kind != LineKind::Context);
    if !changes || o.upto > o.hunks.len() || hunk.old_no_newline || hunk.new_no_newline {
        return None;
    }
    let old = hunk.old_lines().count();
    for k in 1..=context.min(MAX_TRIM).min(old.saturating_sub(1)) {
        let mut t = hunk.clone();
        if lead {
            t.lines.drain(..k);
        } else {
            t.lines.truncate(t.lines.len() - k);
            if t.end_of_file {
                continue;
            }
        }
        if verifies(lines, o, &t, k, (path, opts, seen)) {
            return Some((k, render(&t)));
        }
    }
    None
}

/// Whether the patch, with hunk `h` replaced by `t` (`k` context lines fewer), places `t` on
/// `h`'s lines less the dropped ones, read without a gap or relaxed line, every other hunk
/// where it was, and no other hunk removes a dropped line.
fn verifies(
    lines: &Lines<'_>,
    o: &Overlap<'_>,
    t: &Hunk,
    k: usize,
    (path, opts, seen): (&str, &Options, bool),
) -> bool {
    let lead = o.start > o.other_start;
    let mut resent: Vec<Hunk> = o.hunks[..o.upto].to_vec();
    resent[o.h] = t.clone();
    let Ok(ps) = locate_hunks(lines, &resent, path, opts, seen) else {
        return false;
    };
    let Some(p) = ps.get(o.h) else { return false };
    let old = t.old_lines().count();
    let want = if lead { o.start + k } else { o.start };
    if p.start != want || p.old_len != old || p.gap().is_some() || p.context_relaxed {
        return false;
    }
    if p.already_applied {
        return false;
    }
    let same = o
        .placed
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != o.h)
        .all(|(i, q)| {
            ps.get(i)
                .is_some_and(|r| r.start == q.start && r.old_len == q.old_len)
        });
    if !same {
        return false;
    }
    // The dropped lines: the file lines just before (or after) the trimmed reading, equal
    // to what the hunk quoted there, and removed by no other hunk.
    let hunk = &o.hunks[o.h];
    let (from, quoted) = if lead {
        (o.start, &hunk.lines[..k])
    } else {
        (p.start + p.old_len, &hunk.lines[hunk.lines.len() - k..])
    };
    if from + k > lines.len() {
        return false;
    }
    let equal = quoted.iter().enumerate().all(|(j, l)| {
        normalized(lines.get(from + j), Level::Fold) == normalized(&l.text, Level::Fold)
    });
    let removed = ps
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != o.h)
        .any(|(i, q)| {
            removed_lines(&resent[i], q)
                .iter()
                .any(|&r| r >= from && r < from + k)
        });
    equal && !removed
}

/// The hunk as patch text: its anchors (or a bare `@@`) and its body lines.
fn render(h: &Hunk) -> String {
    let mut out = String::new();
    for a in &h.anchors {
        out.push_str(&format!("@@ {}\n", a.text));
    }
    if h.anchors.is_empty() {
        out.push_str("@@\n");
    }
    for l in &h.lines {
        let sign = match l.kind {
            LineKind::Context => ' ',
            LineKind::Delete => '-',
            LineKind::Add => '+',
        };
        out.push(sign);
        out.push_str(&l.text);
        out.push('\n');
    }
    out
}
