//! Producing the new text from the placements: untouched and context lines are copied from the
//! file, each line keeps its own terminator, added lines take their neighbour's terminator,
//! the BOM and the final-newline state are kept, added lines are re-indented and keep the
//! file's typography when the match needed it. The output buffer is sized once.

mod reindent;
mod typography;

use std::borrow::Cow;
use std::ops::Range;

use crate::level::Level;
use crate::locate::Placement;
use crate::options::Options;
use crate::patch::{Hunk, LineKind};
use crate::text::{Eol, Lines};

/// A run of changed lines: old lines `old` were replaced by new lines `new` (0-based).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// Removed lines of the original text (0-based, without the BOM).
    pub old: Range<usize>,
    /// Added lines of the new text (0-based).
    pub new: Range<usize>,
    /// The hunk (0-based) that made the change.
    pub hunk: usize,
}

/// What the builder reports per hunk.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct BuiltHunk {
    pub new_start: usize,
    pub new_len: usize,
    pub reindented: bool,
}

pub(crate) struct Built {
    pub text: String,
    pub hunks: Vec<BuiltHunk>,
    pub changes: Vec<Change>,
}

/// One line of output.
enum Out<'a> {
    /// Original lines copied verbatim.
    Copy(Range<usize>),
    /// One original line written with another terminator, so that it does not merge with the
    /// line before it (see [`keep_lines_apart`]).
    Kept(usize, Eol),
    /// A new line with its terminator.
    New(Cow<'a, str>, Eol),
}

impl Out<'_> {
    fn is_empty(&self) -> bool {
        matches!(self, Out::Copy(r) if r.is_empty())
    }

    /// The terminator written after the piece's last line when more lines follow.
    fn last_eol(&self, lines: &Lines<'_>, fallback: Eol) -> Eol {
        let eol = match self {
            Out::Copy(r) => lines.eol(r.end - 1),
            Out::Kept(_, eol) | Out::New(_, eol) => *eol,
        };
        if eol.is_none() {
            fallback
        } else {
            eol
        }
    }

    /// True when the piece's first line is empty and LF-terminated: written after a lone CR,
    /// its `\n` would make one CRLF line of the two.
    fn starts_with_lf(&self, lines: &Lines<'_>, fallback: Eol) -> bool {
        let (text, eol) = match self {
            Out::Copy(r) => (lines.get(r.start), lines.eol(r.start)),
            Out::Kept(i, eol) => (lines.get(*i), *eol),
            Out::New(t, eol) => (t.as_ref(), *eol),
        };
        text.is_empty() && (eol == Eol::Lf || eol.is_none() && fallback == Eol::Lf)
    }
}

/// Terminators never merge lines (SPEC §4): a line ending with a lone CR followed by an empty
/// LF-terminated line would read back as one CRLF line. When an added line ends with the CR,
/// it takes the next line's terminator (LF) instead — or CRLF when it is empty and itself
/// follows a lone CR. When the CR line is kept, the empty line after it (added, or kept and
/// brought next to it by a deletion) takes the CR of the line it follows.
fn keep_lines_apart<'a>(lines: &Lines<'_>, out: Vec<Out<'a>>, fallback: Eol) -> Vec<Out<'a>> {
    let mut res: Vec<Out<'a>> = Vec::with_capacity(out.len() + 1);
    for piece in out.into_iter().filter(|o| !o.is_empty()) {
        let merges = piece.starts_with_lf(lines, fallback)
            && res
                .last()
                .is_some_and(|p| p.last_eol(lines, fallback) == Eol::Cr);
        if !merges {
            res.push(piece);
            continue;
        }
        let before_ends_cr =
            res.len() >= 2 && res[res.len() - 2].last_eol(lines, fallback) == Eol::Cr;
        let last = res.len() - 1;
        if let Out::New(t, eol) = &mut res[last] {
            *eol = if t.is_empty() && before_ends_cr {
                Eol::CrLf
            } else {
                Eol::Lf
            };
            res.push(piece);
            continue;
        }
        match piece {
            Out::New(t, _) => res.push(Out::New(t, Eol::Cr)),
            Out::Kept(i, _) => res.push(Out::Kept(i, Eol::Cr)),
            Out::Copy(r) => {
                res.push(Out::Kept(r.start, Eol::Cr));
                if r.len() > 1 {
                    res.push(Out::Copy(r.start + 1..r.end));
                }
            }
        }
    }
    res
}

/// Builds the new text of an updated file.
pub(crate) fn build_update(
    lines: &Lines<'_>,
    bom: bool,
    hunks: &[Hunk],
    placements: &[Placement],
    opts: &Options,
) -> Built {
    let n = lines.len();
    let fallback = lines.dominant_eol().unwrap_or(Eol::Lf);
    let mut order: Vec<usize> = (0..placements.len()).collect();
    order.sort_by_key(|&i| (placements[i].start, i));
    let mut out: Vec<Out<'_>> = Vec::with_capacity(order.len() * 4 + 2);
    let mut built_hunks = vec![BuiltHunk::default(); hunks.len()];
    let mut changes = Vec::new();
    let mut pos = 0usize;
    let mut new_count = 0usize;
    let mut final_newline = lines.ends_with_newline();
    for &hi in &order {
        let p = &placements[hi];
        let hunk = &hunks[hi];
        if p.start > pos {
            out.push(Out::Copy(pos..p.start));
            new_count += p.start - pos;
            pos = p.start;
        }
        let bh = &mut built_hunks[hi];
        bh.new_start = new_count;
        if p.already_applied {
            // Nothing to write: its lines are copied with the lines around them, never twice
            // (they may be another hunk's context too, which has written them already).
            bh.new_start = new_count - (pos - p.start).min(new_count);
            bh.new_len = p.old_len;
            continue;
        }
        let body = &hunk.lines[..p.used_lines];
        let shift = if p.level >= Level::Trim {
            reindent::detect(
                body.iter()
                    .filter(|l| l.kind != LineKind::Add)
                    .enumerate()
                    .map(|(k, l)| (l.text.as_str(), lines.get(p.start + k))),
            )
        } else {
            reindent::Shift::None
        };
        bh.reindented = shift.is_some() && body.iter().any(|l| l.kind == LineKind::Add);
        let mut k = p.start; // file cursor
        let mut old_k = 0usize; // old-side index (into line_levels)
                                // The current run of changed lines.
        let mut deleted: Vec<(usize, &str)> = Vec::new(); // (file line, patch text)
        let mut run_old_start = k;
        let mut run_new_start = new_count;
        let mut adds_in_run = 0usize;
        let mut prev_eol: Option<Eol> = if k > 0 { Some(lines.eol(k - 1)) } else { None };
        let close_run = |changes: &mut Vec<Change>, old: Range<usize>, new: Range<usize>| {
            if !old.is_empty() || !new.is_empty() {
                changes.push(Change { old, new, hunk: hi });
            }
        };
        for line in body {
            match line.kind {
                LineKind::Context => {
                    close_run(&mut changes, run_old_start..k, run_new_start..new_count);
                    deleted.clear();
                    adds_in_run = 0;
                    out.push(Out::Copy(k..k + 1));
                    prev_eol = Some(lines.eol(k));
                    k += 1;
                    old_k += 1;
                    new_count += 1;
                    run_old_start = k;
                    run_new_start = new_count;
                }
                LineKind::Delete => {
                    if adds_in_run > 0 {
                        // A delete after adds starts a new pairing run within the same change.
                        deleted.clear();
                        adds_in_run = 0;
                    }
                    deleted.push((k, line.text.as_str()));
                    k += 1;
                    old_k += 1;
                }
                LineKind::Add => {
                    let paired = deleted.get(adds_in_run).copied();
                    let eol = match paired.or_else(|| deleted.last().copied()) {
                        Some((fk, _)) => lines.eol(fk),
                        None => prev_eol.unwrap_or(fallback),
                    };
                    let mut text: Cow<'_, str> = shift.apply(&line.text);
                    if let Some((fk, old_text)) = paired {
                        let lvl = p
                            .line_levels
                            .get(old_k - (deleted.len() - adds_in_run))
                            .copied();
                        if lvl == Some(Level::Fold) {
                            if let Some(t) = typography::keep_file_typography(
                                old_text,
                                &line.text,
                                lines.get(fk),
                            ) {
                                text = Cow::Owned(t);
                            }
                        }
                    }
                    out.push(Out::New(text, eol));
                    prev_eol = Some(eol);
                    adds_in_run += 1;
                    new_count += 1;
                }
            }
        }
        close_run(&mut changes, run_old_start..k, run_new_start..new_count);
        if k == n {
            let last_new = body.iter().rev().find(|l| l.kind != LineKind::Delete);
            if hunk.new_no_newline && last_new.is_some_and(|l| l.kind == LineKind::Add) {
                final_newline = false;
            } else if hunk.old_no_newline && !hunk.new_no_newline {
                final_newline = true;
            }
        }
        bh.new_len = new_count - bh.new_start;
        pos = k.max(pos);
    }
    if pos < n {
        out.push(Out::Copy(pos..n));
    }
    if opts.ensure_final_newline {
        final_newline = true;
    }
    let out = keep_lines_apart(lines, out, fallback);
    let text = write(lines, bom, &out, fallback, final_newline);
    Built {
        text,
        hunks: built_hunks,
        changes,
    }
}

/// Writes the output lines into one buffer sized once. Only the last output line may lack a
/// terminator, and it has one exactly when `final_newline`.
fn write(
    lines: &Lines<'_>,
    bom: bool,
    out: &[Out<'_>],
    fallback: Eol,
    final_newline: bool,
) -> String {
    let n = lines.len();
    let last_is_orig_last = |r: &Range<usize>| r.end == n && n > 0 && lines.eol(n - 1).is_none();
    // Which output piece holds the last line.
    let last_piece = out.iter().rposition(|o| !o.is_empty());
    let mut size = if bom { 3 } else { 0 };
    for o in out {
        size += match o {
            Out::Copy(r) if r.is_empty() => 0,
            Out::Copy(r) => lines.slice(r.start, r.end).len() + 2,
            Out::Kept(i, _) => lines.get(*i).len() + 2,
            Out::New(t, _) => t.len() + 2,
        };
    }
    let mut s = String::with_capacity(size);
    if bom {
        s.push('\u{feff}');
    }
    for (i, o) in out.iter().enumerate() {
        let is_last = Some(i) == last_piece;
        match o {
            Out::Copy(r) if r.is_empty() => {}
            Out::Copy(r) => {
                if !last_is_orig_last(r) {
                    s.push_str(lines.slice(r.start, r.end));
                    if is_last && !final_newline {
                        strip_eol(&mut s, lines.eol(r.end - 1));
                    }
                } else {
                    s.push_str(lines.slice(r.start, r.end));
                    if !is_last || final_newline {
                        s.push_str(fallback.as_str());
                    }
                }
            }
            Out::Kept(i, eol) => {
                s.push_str(lines.get(*i));
                if !is_last || final_newline {
                    s.push_str(eol.as_str());
                }
            }
            Out::New(t, eol) => {
                s.push_str(t);
                if !is_last || final_newline {
                    s.push_str(if eol.is_none() {
                        fallback.as_str()
                    } else {
                        eol.as_str()
                    });
                }
            }
        }
    }
    s
}

fn strip_eol(s: &mut String, eol: Eol) {
    let len = s.len() - eol.len();
    s.truncate(len);
}

/// The text of an added file: LF (or CRLF) lines, a final newline unless the patch says
/// `\ No newline at end of file`.
pub(crate) fn build_add(hunk: Option<&Hunk>, opts: &Options) -> String {
    let Some(h) = hunk else {
        return String::new();
    };
    let eol = opts.add_file_line_ending.as_str();
    let mut s = String::with_capacity(h.lines.iter().map(|l| l.text.len() + 2).sum());
    for (i, l) in h.lines.iter().enumerate() {
        s.push_str(&l.text);
        if i + 1 < h.lines.len() || !h.new_no_newline || opts.ensure_final_newline {
            s.push_str(eol);
        }
    }
    s
}
