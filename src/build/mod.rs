//! Producing the new text from the placements: untouched and context lines are copied from the
//! file, each line keeps its own terminator, added lines take their neighbour's terminator,
//! the BOM and the final-newline state are kept, added lines are re-indented and keep the
//! file's typography when the match needed it. The output buffer is sized once.

mod reindent;
mod typography;

use std::borrow::Cow;
use std::ops::Range;

use crate::error::{Diagnostics, Error, Status};
use crate::level::Level;
use crate::locate::Placement;
use crate::options::Options;
use crate::patch::{Hunk, LineKind};
use crate::text::{Eol, Lines};
use reindent::Unit;

/// A run of changed lines of the edit script: `old_len` lines of the original text from line
/// `old_start` were replaced by `new_len` lines of the new text from line `new_start`.
///
/// Every number is 1-based, like [`HunkReport`](crate::HunkReport)'s and the messages'; use
/// [`Change::old_lines`] and [`Change::new_lines`] for 0-based indices to slice with.
///
/// ```
/// let r = v4a::apply("a\nb\nc\n", "@@\n a\n-b\n+B\n+B2\n", v4a::Mode::Update, &Default::default()).unwrap();
/// let c = &r.changes[0];
/// assert_eq!((c.old_start, c.old_len, c.new_start, c.new_len, c.hunk), (2, 1, 2, 2, 1));
/// assert_eq!((c.old_lines(), c.new_lines()), (1..2, 1..3));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// First removed line of the original text (1-based, BOM excluded); for a pure insertion
    /// (`old_len` 0), the line before which the lines were added.
    pub old_start: usize,
    /// Number of removed lines.
    pub old_len: usize,
    /// First added line of the new text (1-based); for a pure deletion (`new_len` 0), the
    /// line the removed lines would have preceded.
    pub new_start: usize,
    /// Number of added lines.
    pub new_len: usize,
    /// 1-based number of the hunk that made the change.
    pub hunk: usize,
}

impl Change {
    /// A change from 0-based line index ranges and a 0-based hunk index.
    pub(crate) fn from_indices(old: Range<usize>, new: Range<usize>, hunk_index: usize) -> Change {
        Change {
            old_start: old.start + 1,
            old_len: old.len(),
            new_start: new.start + 1,
            new_len: new.len(),
            hunk: hunk_index + 1,
        }
    }

    /// The removed lines as 0-based indices into the original text's lines (BOM excluded).
    pub fn old_lines(&self) -> Range<usize> {
        let start = self.old_start.saturating_sub(1);
        start..start.saturating_add(self.old_len)
    }

    /// The added lines as 0-based indices into the new text's lines.
    pub fn new_lines(&self) -> Range<usize> {
        let start = self.new_start.saturating_sub(1);
        start..start.saturating_add(self.new_len)
    }

    /// The 0-based index of the hunk that made the change.
    pub(crate) fn hunk_index(&self) -> usize {
        self.hunk.saturating_sub(1)
    }
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
    /// From the raw path (a source without `\r`): `(line, byte after the BOM)` where each
    /// hunk's original lines start and end, in order; `None` from the line paths.
    pub lf_starts: Option<Vec<(usize, usize)>>,
}

/// One line of output.
enum Out<'a> {
    /// Original lines copied verbatim.
    Copy(Range<usize>),
    /// One original line written with another terminator, so that it does not merge with the
    /// line before it (see [`push_piece`]).
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
///
/// Applied as each piece is pushed (it looks only at the pieces before it), so the output is
/// one vector built once; a copy that continues the copy before it joins it (two adjacent
/// lines of the file never merge: a lone CR before an LF would have been one CRLF line).
fn push_piece<'a>(res: &mut Vec<Out<'a>>, lines: &Lines<'_>, piece: Out<'a>, fallback: Eol) {
    if piece.is_empty() {
        return;
    }
    if let (Some(Out::Copy(last)), Out::Copy(r)) = (res.last_mut(), &piece) {
        if last.end == r.start {
            last.end = r.end;
            return;
        }
    }
    let merges = piece.starts_with_lf(lines, fallback)
        && res
            .last()
            .is_some_and(|p| p.last_eol(lines, fallback) == Eol::Cr);
    if !merges {
        res.push(piece);
        return;
    }
    let before_ends_cr = res.len() >= 2 && res[res.len() - 2].last_eol(lines, fallback) == Eol::Cr;
    let last = res.len() - 1;
    if let Out::New(t, eol) = &mut res[last] {
        *eol = if t.is_empty() && before_ends_cr {
            Eol::CrLf
        } else {
            Eol::Lf
        };
        res.push(piece);
        return;
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

/// Builds the new text of an updated file. Fails only when a hunk matched with its
/// indentation ignored and its added lines have no consistent indentation in the file
/// ([`Status::InconsistentIndentation`]).
pub(crate) fn build_update(
    lines: &Lines<'_>,
    bom: bool,
    hunks: &[Hunk],
    placements: &[Placement],
    path: &str,
    opts: &Options,
) -> Result<Built, Error> {
    build_update_in(lines, bom, hunks, placements, path, opts, None)
}

/// [`build_update`] of `lines`, a stretch of a larger LF text `whole` (when `Some`): the
/// file's indentation unit, when a hunk needs it, is learned from every line of `whole`, as
/// the build of the whole text would learn it.
pub(crate) fn build_update_in(
    lines: &Lines<'_>,
    bom: bool,
    hunks: &[Hunk],
    placements: &[Placement],
    path: &str,
    opts: &Options,
    whole: Option<&str>,
) -> Result<Built, Error> {
    let n = lines.len();
    let mut order: Vec<usize> = (0..placements.len()).collect();
    order.sort_by_key(|&i| (placements[i].start, i));
    let gapped = gapped_bodies(lines, hunks, placements);
    let mut b = Builder {
        lines,
        fallback: lines.dominant_eol().unwrap_or(Eol::Lf),
        // A copy and a piece a hunk for one-line hunks; more pieces grow it.
        out: Vec::with_capacity(order.len() * 2 + 2),
        changes: Vec::with_capacity(order.len()),
        new_count: 0,
        file_unit: None,
        whole,
    };
    let mut built_hunks = vec![BuiltHunk::default(); hunks.len()];
    let mut pos = 0usize;
    let mut final_newline = lines.ends_with_newline();
    for &hi in &order {
        let p = &placements[hi];
        let hunk = &hunks[hi];
        if p.start > pos {
            b.push(Out::Copy(pos..p.start));
            b.new_count += p.start - pos;
            pos = p.start;
        }
        let bh = &mut built_hunks[hi];
        bh.new_start = b.new_count;
        if p.already_applied {
            // Nothing to write: its lines are copied with the lines around them, never twice
            // (they may be another hunk's context too, which has written them already).
            bh.new_start = b.new_count - (pos - p.start).min(b.new_count);
            bh.new_len = p.old_len;
            continue;
        }
        let body: &[crate::patch::Line] = match gapped.binary_search_by_key(&hi, |g| g.0) {
            Ok(j) => &gapped[j].1,
            Err(_) => &hunk.lines[..p.used_lines.min(hunk.lines.len())],
        };
        bh.reindented = b
            .hunk(hi, body, p)
            .map_err(|e| inconsistent_indentation(lines, path, hi, hunk, body, &e))?;
        let k = p.start + body.iter().filter(|l| l.kind != LineKind::Add).count();
        if k == n {
            final_newline = final_newline_after(hunk, body, final_newline);
        }
        bh.new_len = b.new_count - bh.new_start;
        pos = k.max(pos);
    }
    if pos < n {
        b.push(Out::Copy(pos..n));
    }
    if opts.ensure_final_newline {
        final_newline = true;
    }
    let text = write(lines, bom, &b.out, b.fallback, final_newline);
    Ok(Built {
        text,
        hunks: built_hunks,
        changes: b.changes,
        lf_starts: None,
    })
}

/// Each hunk's lines as placed: a gap's file line inserted as context, so that every old-side
/// line maps to one file line. Only the hunks with a gap need a copy (by hunk index,
/// ascending); the others are their own lines in use.
fn gapped_bodies(
    lines: &Lines<'_>,
    hunks: &[Hunk],
    placements: &[Placement],
) -> Vec<(usize, Vec<crate::patch::Line>)> {
    placements
        .iter()
        .zip(hunks)
        .enumerate()
        .filter_map(
            |(i, (p, h))| match crate::locate::gapped_body(h, p, lines) {
                Cow::Owned(v) => Some((i, v)),
                Cow::Borrowed(_) => None,
            },
        )
        .collect()
}

/// Whether the text ends with a newline after `hunk` (its lines as placed: `body`) changed
/// the file's last line: its `\ No newline` markers decide, else it stays `current`.
fn final_newline_after(hunk: &Hunk, body: &[crate::patch::Line], current: bool) -> bool {
    let last_new = body.iter().rev().find(|l| l.kind != LineKind::Delete);
    if hunk.new_no_newline && last_new.is_some_and(|l| l.kind == LineKind::Add) {
        false
    } else if hunk.old_no_newline && !hunk.new_no_newline {
        true
    } else {
        current
    }
}

/// The state of one build: the output pieces and the changes so far.
struct Builder<'l, 'a> {
    lines: &'l Lines<'a>,
    /// The terminator of an added line with no neighbour to copy one from.
    fallback: Eol,
    out: Vec<Out<'l>>,
    changes: Vec<Change>,
    /// Lines of the new text written so far.
    new_count: usize,
    /// The file's indentation unit, detected once when a hunk first needs it.
    file_unit: Option<Option<Unit>>,
    /// The whole LF text `lines` is a stretch of, when it is one: the unit is learned there.
    whole: Option<&'l str>,
}

impl<'l> Builder<'l, '_> {
    /// Appends one output piece (see [`push_piece`]).
    fn push(&mut self, piece: Out<'l>) {
        push_piece(&mut self.out, self.lines, piece, self.fallback);
    }

    /// Writes one placed hunk's lines (`body`, the lines in use). Returns whether an added
    /// line was re-indented.
    fn hunk(
        &mut self,
        hi: usize,
        body: &'l [crate::patch::Line],
        p: &Placement,
    ) -> Result<bool, reindent::Inconsistent> {
        let lines = self.lines;
        let mut indented = self.indentation(body, p)?;
        let reindented = indented.iter().any(Option::is_some);
        // The file's typography, learned from the matched lines when one needed folding.
        let chars = if p.level == Level::Fold {
            typography::CharMap::learn(
                body.iter()
                    .filter(|l| l.kind != LineKind::Add)
                    .zip(p.start..)
                    .map(|(l, k)| (l.text.as_str(), lines.get(k))),
            )
        } else {
            typography::CharMap::default()
        };
        let mut k = p.start; // file cursor
        let mut old_k = 0usize; // old-side index (into line_levels)
                                // The current run of changed lines: (file line, patch text) of its `-` lines.
        let mut deleted: Vec<(usize, &str)> = Vec::new();
        let mut run_old_start = k;
        let mut run_new_start = self.new_count;
        let mut adds_in_run = 0usize;
        let mut prev_eol: Option<Eol> = if k > 0 { Some(lines.eol(k - 1)) } else { None };
        for (i, line) in body.iter().enumerate() {
            match line.kind {
                LineKind::Context => {
                    self.close_run(hi, run_old_start..k, run_new_start..self.new_count);
                    deleted.clear();
                    adds_in_run = 0;
                    self.push(Out::Copy(k..k + 1));
                    prev_eol = Some(lines.eol(k));
                    k += 1;
                    old_k += 1;
                    self.new_count += 1;
                    run_old_start = k;
                    run_new_start = self.new_count;
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
                        None => prev_eol.unwrap_or(self.fallback),
                    };
                    let level = paired.and_then(|_| {
                        p.line_levels
                            .get(old_k - (deleted.len() - adds_in_run))
                            .copied()
                    });
                    let fold_pair = paired
                        .filter(|_| level == Some(Level::Fold))
                        .map(|(fk, old_text)| (old_text, lines.get(fk)));
                    let moved = indented.get_mut(i).and_then(Option::take);
                    let text = added_text(line, moved, fold_pair, &chars);
                    self.push(Out::New(text, eol));
                    prev_eol = Some(eol);
                    adds_in_run += 1;
                    self.new_count += 1;
                }
            }
        }
        self.close_run(hi, run_old_start..k, run_new_start..self.new_count);
        Ok(reindented)
    }

    /// The re-indented text of each added line of a hunk (`None`: as written), by the
    /// indentation map when the hunk matched with its indentation ignored; empty (every line
    /// as written) when it matched with its indentation.
    fn indentation(
        &mut self,
        body: &[crate::patch::Line],
        p: &Placement,
    ) -> Result<Vec<Option<String>>, reindent::Inconsistent> {
        if p.level < Level::Trim {
            return Ok(Vec::new());
        }
        let (lines, whole) = (self.lines, self.whole);
        let file_unit = &mut self.file_unit;
        reindent::indent_added_lines(body, p.start, lines, &mut || {
            *file_unit.get_or_insert_with(|| match whole {
                // An LF text's lines are its pieces between `\n`s (the empty piece after a
                // final `\n` is blank, so it is left out like every blank line).
                Some(text) => reindent::detect_unit(
                    text.split('\n')
                        .filter(|l| !l.trim().is_empty())
                        .map(reindent::leading_ws),
                ),
                None => reindent::detect_unit(
                    (0..lines.len())
                        .map(|i| lines.get(i))
                        .filter(|l| !l.trim().is_empty())
                        .map(reindent::leading_ws),
                ),
            })
        })
    }

    /// Records a run of changed lines, if it changed any.
    fn close_run(&mut self, hunk: usize, old: Range<usize>, new: Range<usize>) {
        if !old.is_empty() || !new.is_empty() {
            self.changes.push(Change::from_indices(old, new, hunk));
        }
    }
}

/// The text of an added line: re-indented by the indentation map (`indented`, when it moved),
/// then written with the file's typography. `fold_pair` is the `-` line it replaces (as the
/// patch and as the file write it) when that line matched only at the fold level; `chars` is
/// the hunk's character map.
fn added_text<'l>(
    line: &'l crate::patch::Line,
    indented: Option<String>,
    fold_pair: Option<(&str, &str)>,
    chars: &typography::CharMap,
) -> Cow<'l, str> {
    let text: &str = indented.as_deref().unwrap_or(&line.text);
    let typed = fold_pair.and_then(|(old_text, file_text)| {
        typography::keep_file_typography(old_text, text, file_text, chars)
            .map(|body| format!("{}{body}", reindent::leading_ws(text)))
    });
    if let Some(t) = typed {
        return Cow::Owned(t);
    }
    if !chars.is_empty() {
        if let Cow::Owned(t) = chars.apply(text, None) {
            return Cow::Owned(t);
        }
    }
    match indented {
        Some(t) => Cow::Owned(t),
        None => Cow::Borrowed(line.text.as_str()),
    }
}

/// The refusal of a hunk whose added lines have no consistent indentation in the file: it
/// names the added line and shows how the file indents the matched lines.
fn inconsistent_indentation(
    lines: &Lines<'_>,
    path: &str,
    hi: usize,
    hunk: &Hunk,
    body: &[crate::patch::Line],
    e: &reindent::Inconsistent,
) -> Error {
    let file = if path.is_empty() { "the file" } else { path };
    let added = &body[e.body_index];
    let mut shown = String::new();
    const SHOWN: usize = 8;
    for (k, patch, file_indent) in e.matched.iter().take(SHOWN) {
        shown.push_str(&format!(
            "\n  line {}: {} (the patch has {}): {:?}",
            k + 1,
            reindent::describe(file_indent),
            reindent::describe(patch),
            lines.get(*k).trim_start_matches([' ', '\t']),
        ));
    }
    if e.matched.len() > SHOWN {
        shown.push_str(&format!("\n  … and {} more", e.matched.len() - SHOWN));
    }
    Error::new(
        Status::InconsistentIndentation,
        format!(
            "hunk {} (patch line {}) of {file} matched only with its indentation ignored, and \
             the patch's indentation does not map onto the file's consistently, so the added \
             line at patch line {} ({:?}, {}) cannot be indented safely. The file indents the \
             matched lines like this:{shown}\nResend the hunk with the file's indentation.",
            hi + 1,
            hunk.patch_line,
            added.patch_line,
            added.text.trim_start_matches([' ', '\t']),
            reindent::describe(reindent::leading_ws(&added.text)),
        ),
        Diagnostics {
            path: (!path.is_empty()).then(|| path.to_string()),
            patch_line: Some(added.patch_line),
            hunk: Diagnostics::hunk_number(hi),
            ..Diagnostics::default()
        },
    )
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
