//! Patch generation and reverse patches.
//!
//! [`make_patch`] writes a V4A patch that turns one text into another: a line diff (patience,
//! from `similar`), hunks with context, merged when close, then checked with the engine's own
//! rules — a hunk that would be ambiguous or land elsewhere gets more context, then an `@@`
//! anchor, until every hunk lands where it belongs. [`Patch::reverse`] and [`Patch::reverse_applied`] write
//! the patch that undoes a patch, from the files before or after it.

mod reverse;

use std::fmt::Write as _;

use similar::{capture_diff_slices, Algorithm, DiffOp};

use crate::apply::{apply, Mode};
use crate::error::{Error, Status};
use crate::options::Options;
use crate::text::{strip_bom, Lines};

/// Options for [`make_patch`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenerateOptions {
    /// Unchanged lines shown before and after each change (default 3).
    pub context: usize,
    /// While a hunk is made unique, its context grows one line a side up to this many lines
    /// (default 50); past it the hunk gets an `@@` anchor, then its context doubles, up to the
    /// whole file if need be (a periodic file can require that).
    pub max_context: usize,
}

impl Default for GenerateOptions {
    fn default() -> GenerateOptions {
        GenerateOptions {
            context: 3,
            max_context: 50,
        }
    }
}

/// A change: old lines `old` replaced by new lines `new` (0-based line ranges).
#[derive(Clone, Debug)]
struct Edit {
    old: std::ops::Range<usize>,
    new: std::ops::Range<usize>,
}

/// A hunk in the making: consecutive edits with the context each side.
#[derive(Clone, Debug)]
struct Group {
    edits: Vec<Edit>,
    before: usize,
    after: usize,
    anchor: Option<usize>,
    /// Closed by `*** End of File`: a hunk that reaches the end of the file and still fits
    /// elsewhere (a trailing empty line alone says little about where a hunk ends).
    eof: bool,
}

impl Group {
    fn old_start(&self) -> usize {
        self.edits[0].old.start - self.before
    }
    fn old_end(&self) -> usize {
        self.edits[self.edits.len() - 1].old.end + self.after
    }
}

/// Writes the hunks (no envelope) that turn `old` into `new`, or `None` when they are equal.
fn hunks_for(
    old: &str,
    new: &str,
    path: &str,
    gen: &GenerateOptions,
) -> Result<Option<String>, Error> {
    let (old_bom, old_body) = strip_bom(old);
    let (new_bom, new_body) = strip_bom(new);
    if old_bom != new_bom {
        return Err(not_expressible(path, "adds or removes a byte order mark"));
    }
    let a = Lines::split(old_body);
    let b = Lines::split(new_body);
    let edits = line_edits(&a, &b);
    if edits.is_empty() {
        // Same lines, yet different texts: only the terminators differ.
        return if old == new {
            Ok(None)
        } else {
            Err(not_expressible(path, "changes line terminators"))
        };
    }
    let mut groups: Vec<Group> = edits
        .into_iter()
        .map(|e| Group {
            before: gen.context.min(e.old.start),
            after: gen.context.min(a.len() - e.old.end),
            edits: vec![e],
            anchor: None,
            eof: false,
        })
        .collect();
    let limit = gen.max_context.saturating_mul(10).saturating_add(128);
    for _ in 0..limit {
        groups = merge(groups, a.len());
        for g in &mut groups {
            // An anchor must stand before its hunk: one that the hunk grew over (or that came
            // with a merged group) no longer does.
            if g.anchor.is_some_and(|l| l >= g.old_start()) {
                g.anchor = None;
            }
        }
        let text = render(&groups, &a, &b);
        match check_round(old, new, &text, &groups, path)? {
            Round::Done => return Ok(Some(text)),
            Round::Grow(wrong) => {
                for i in wrong {
                    grow(&mut groups[i], &a, gen, path, i)?;
                }
            }
        }
    }
    Err(Error::simple(
        Status::Internal,
        format!("making the hunks of {path} unique did not converge (a bug in v4a)"),
    ))
}

/// The line diff of `a` and `b` (patience), as changes; a change covers the last line when
/// the final-newline state differs, since that state is expressed through the last line.
fn line_edits(a: &Lines<'_>, b: &Lines<'_>) -> Vec<Edit> {
    let av: Vec<&str> = (0..a.len()).map(|i| a.get(i)).collect();
    let bv: Vec<&str> = (0..b.len()).map(|i| b.get(i)).collect();
    let mut edits: Vec<Edit> = capture_diff_slices(Algorithm::Patience, &av, &bv)
        .into_iter()
        .filter(|op| !matches!(op, DiffOp::Equal { .. }))
        .map(|op| Edit {
            old: op.old_range(),
            new: op.new_range(),
        })
        .collect();
    if a.ends_with_newline() != b.ends_with_newline() && a.len() > 0 && b.len() > 0 {
        match edits.last_mut() {
            Some(e) if e.old.end == a.len() && e.new.end == b.len() => {
                if e.old.is_empty() || e.new.is_empty() {
                    // Take the equal line before a pure insertion or deletion into the change.
                    e.old.start -= 1;
                    e.new.start -= 1;
                }
            }
            _ => edits.push(Edit {
                old: a.len() - 1..a.len(),
                new: b.len() - 1..b.len(),
            }),
        }
    }
    edits
}

/// What one round of [`hunks_for`] found.
enum Round {
    /// The rendered hunks land where they belong and give the new text.
    Done,
    /// These groups (indices) must grow.
    Grow(Vec<usize>),
}

/// Applies the rendered hunks and says which groups land wrongly.
///
/// Placed in first-match mode, every ambiguous hunk shows up in the same round (by its
/// candidate count), not only the first one the default mode stops at, so all of them grow at
/// once; a patch found right is then checked in the default mode, as its users apply it.
fn check_round(
    old: &str,
    new: &str,
    text: &str,
    groups: &[Group],
    path: &str,
) -> Result<Round, Error> {
    let first = Options {
        first_match: true,
        ..Options::default()
    };
    for opts in [first, Options::default()] {
        let result = match apply(old, text, Mode::Update, &opts) {
            Ok(r) => r,
            Err(e) => return failed_hunk(e, groups).map(|i| Round::Grow(vec![i])),
        };
        let wrong = misplaced(&result, groups);
        if !wrong.is_empty() {
            return Ok(Round::Grow(wrong));
        }
        if !opts.first_match && result.text != new {
            return Err(not_expressible(path, "changes line terminators"));
        }
    }
    Ok(Round::Done)
}

/// The groups whose hunk was placed elsewhere, loosely, ambiguously or as already applied.
fn misplaced(r: &crate::report::ApplyResult, groups: &[Group]) -> Vec<usize> {
    r.hunks
        .iter()
        .zip(groups)
        .enumerate()
        .filter(|(_, (h, g))| {
            h.already_applied
                || h.fuzz != 0
                || h.candidates > 1 && g.anchor.is_none()
                || h.old_start as usize != g.old_start() + 1
        })
        .map(|(i, _)| i)
        .collect()
}

/// The group a failed apply names (0-based), or the error itself when it names none.
fn failed_hunk(e: Error, groups: &[Group]) -> Result<usize, Error> {
    match e.diagnostics().hunk {
        Some(h) if h >= 1 && (h as usize) <= groups.len() => Ok(h as usize - 1),
        _ => Err(e),
    }
}

/// Makes group `i` more specific: an `@@` anchor once its context reached `max_context`, then
/// `*** End of File` when it reaches the end, else more context (one line a side, doubling
/// past `max_context`).
fn grow(
    g: &mut Group,
    a: &Lines<'_>,
    gen: &GenerateOptions,
    path: &str,
    i: usize,
) -> Result<(), Error> {
    let first_edit = g.edits[0].old.start;
    let last_edit = g.edits[g.edits.len() - 1].old.end;
    let span = g.before + g.after;
    if span >= gen.max_context.saturating_mul(2) && g.anchor.is_none() {
        g.anchor = enclosing(a, g.old_start());
        if g.anchor.is_some() {
            return Ok(());
        }
    }
    if g.old_end() == a.len() && !g.eof {
        // It reaches the end of the file: say so before growing it.
        g.eof = true;
        return Ok(());
    }
    if g.old_start() == 0 && g.old_end() == a.len() {
        // A hunk spanning the whole file can only match one place: this is a bug.
        return Err(Error::simple(
            Status::Internal,
            format!(
                "could not place hunk {} of {path} although it spans the whole file",
                i + 1
            ),
        ));
    }
    let step = if span < gen.max_context.saturating_mul(2) {
        1
    } else {
        (span / 2).max(1)
    };
    g.before = (g.before + step).min(first_edit);
    g.after = (g.after + step).min(a.len() - last_edit);
    Ok(())
}

fn not_expressible(path: &str, what: &str) -> Error {
    Error::simple(
        Status::InvalidArgument,
        format!(
            "{}the new text {what}, which a V4A patch cannot express (the engine keeps the \
             file's own terminators and BOM)",
            if path.is_empty() {
                String::new()
            } else {
                format!("{path}: ")
            }
        ),
    )
}

/// The nearest line before `at` indented less than the first non-blank line at `at`.
fn enclosing(a: &Lines<'_>, at: usize) -> Option<usize> {
    let indent = |s: &str| -> Option<usize> {
        (!s.trim().is_empty()).then(|| s.len() - s.trim_start().len())
    };
    let own = (at..a.len()).find_map(|j| indent(a.get(j)))?;
    (0..at)
        .rev()
        .find(|&j| indent(a.get(j)).is_some_and(|w| w < own))
}

/// Merges groups whose context touches or overlaps.
fn merge(groups: Vec<Group>, n: usize) -> Vec<Group> {
    let mut out: Vec<Group> = Vec::with_capacity(groups.len());
    for g in groups {
        if let Some(last) = out.last_mut() {
            if g.old_start() <= last.old_end() {
                let end = g.old_end();
                last.edits.extend(g.edits);
                let last_edit_end = last.edits[last.edits.len() - 1].old.end;
                last.after = end.max(last_edit_end).min(n) - last_edit_end;
                if last.anchor.is_none() {
                    last.anchor = g.anchor;
                }
                last.eof |= g.eof;
                continue;
            }
        }
        out.push(g);
    }
    out
}

fn render(groups: &[Group], a: &Lines<'_>, b: &Lines<'_>) -> String {
    let (old_nl, new_nl) = (a.ends_with_newline(), b.ends_with_newline());
    let mut s = String::new();
    let nl_marker = "\\ No newline at end of file\n";
    for g in groups {
        match g.anchor {
            Some(l) => {
                let _ = writeln!(s, "@@ {}", a.get(l));
            }
            None => s.push_str("@@\n"),
        }
        let mut pos = g.old_start();
        for e in &g.edits {
            for k in pos..e.old.start {
                let _ = writeln!(s, " {}", a.get(k));
            }
            for k in e.old.clone() {
                let _ = writeln!(s, "-{}", a.get(k));
                if k + 1 == a.len() && !old_nl && new_nl {
                    s.push_str(nl_marker);
                }
            }
            for k in e.new.clone() {
                let _ = writeln!(s, "+{}", b.get(k));
                if k + 1 == b.len() && !new_nl && old_nl {
                    s.push_str(nl_marker);
                }
            }
            pos = e.old.end;
        }
        for k in pos..g.old_end() {
            let _ = writeln!(s, " {}", a.get(k));
        }
        if g.eof && g.old_end() == a.len() {
            s.push_str("*** End of File\n");
        }
    }
    s
}

/// Writes a V4A patch (`*** Update File:` envelope) that turns `old` into `new`.
///
/// The patch applies back exactly: `apply(old, make_patch(old, new, ..))` gives `new` byte for
/// byte. Differences a V4A patch cannot express (a changed line terminator, an added or removed
/// BOM) are reported as [`Status::InvalidArgument`]. Identical texts give an envelope with no
/// operation (`*** Begin Patch` / `*** End Patch`), which [`Patch::parse`](crate::Patch::parse)
/// refuses as an empty patch (SPEC §2.3), so check `old != new` first.
///
/// ```
/// let old = "fn a() {\n    1\n}\nfn b() {\n    1\n}\n";
/// let new = "fn a() {\n    1\n}\nfn b() {\n    2\n}\n";
/// let patch = v4a::make_patch(old, new, "src/lib.rs", &v4a::GenerateOptions::default()).unwrap();
/// let r = v4a::apply(old, &patch, v4a::Mode::Update, &v4a::Options::default()).unwrap();
/// assert_eq!(r.text, new);
/// ```
pub fn make_patch(
    old: &str,
    new: &str,
    path: &str,
    gen: &GenerateOptions,
) -> Result<String, Error> {
    make_move_patch(old, new, path, None, gen)
}

/// Like [`make_patch`], with `*** Move to: destination` when the file also moves. Without a
/// change and without a move, the patch is an empty envelope.
pub fn make_move_patch(
    old: &str,
    new: &str,
    path: &str,
    destination: Option<&str>,
    gen: &GenerateOptions,
) -> Result<String, Error> {
    let mut s = String::from("*** Begin Patch\n");
    s.push_str(&update_section(old, new, path, destination, gen)?);
    s.push_str("*** End Patch\n");
    Ok(s)
}

pub(crate) fn update_section(
    old: &str,
    new: &str,
    path: &str,
    destination: Option<&str>,
    gen: &GenerateOptions,
) -> Result<String, Error> {
    let hunks = hunks_for(old, new, path, gen)?;
    let moves = destination.is_some_and(|d| d != path);
    if hunks.is_none() && !moves {
        return Ok(String::new());
    }
    let mut s = format!("*** Update File: {path}\n");
    if let Some(d) = destination.filter(|_| moves) {
        let _ = writeln!(s, "*** Move to: {d}");
    }
    s.push_str(&hunks.unwrap_or_default());
    Ok(s)
}

/// Writes a patch that adds `path` with `text`. Lines are written as `+` lines; a text without
/// a final newline ends with `\ No newline at end of file`. CRLF texts need the applier's
/// `add_file_line_ending = CrLf` option to come back byte for byte.
pub fn make_add_patch(path: &str, text: &str) -> String {
    format!(
        "*** Begin Patch\n{}*** End Patch\n",
        add_section(path, text)
    )
}

pub(crate) fn add_section(path: &str, text: &str) -> String {
    let lines = Lines::split(text);
    let mut s = format!("*** Add File: {path}\n");
    for i in 0..lines.len() {
        let _ = writeln!(s, "+{}", lines.get(i));
    }
    if !lines.ends_with_newline() {
        s.push_str("\\ No newline at end of file\n");
    }
    s
}

/// Writes a patch that deletes `path`.
pub fn make_delete_patch(path: &str) -> String {
    format!("*** Begin Patch\n*** Delete File: {path}\n*** End Patch\n")
}
