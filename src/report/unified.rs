//! Unified diff rendering (`---`/`+++`/`@@ -a,b +c,d @@`) of an [`ApplyResult`] result.

use std::ops::Range;

use super::ApplyResult;
use crate::build::Change;
use crate::error::{Error, Status};
use crate::text::{strip_bom, Lines};

/// A change as 0-based line ranges, clamped to the texts.
pub(crate) struct Run {
    pub(crate) old: Range<usize>,
    pub(crate) new: Range<usize>,
}

impl Run {
    /// The change's ranges, cut to texts of `old_len` and `new_len` lines (an emptied last
    /// line without a final newline is counted by the edit script but is not a line).
    pub(crate) fn clamped(c: &Change, old_len: usize, new_len: usize) -> Run {
        let (o, n) = (c.old_lines(), c.new_lines());
        Run {
            old: o.start.min(old_len)..o.end.min(old_len),
            new: n.start.min(new_len)..n.end.min(new_len),
        }
    }
}

const NO_NEWLINE: &str = "\\ No newline at end of file\n";

fn push_line(out: &mut String, prefix: char, lines: &Lines<'_>, i: usize) {
    out.push(prefix);
    out.push_str(lines.get(i));
    out.push('\n');
    if i + 1 == lines.len() && lines.eol(i).is_none() {
        out.push_str(NO_NEWLINE);
    }
}

/// `start,len` in unified notation: an empty range names the line before it.
fn range(start: usize, len: usize) -> String {
    let shown = if len == 0 { start } else { start + 1 };
    if len == 1 {
        format!("{shown}")
    } else {
        format!("{shown},{len}")
    }
}

pub(super) fn render(a: &ApplyResult, context: usize) -> String {
    if a.source == a.text {
        return String::new();
    }
    let (old, new) = split(&a.source, &a.text);
    debug_assert_eq!(check_changes(old.len(), new.len(), &a.changes), Ok(()));
    render_lines(
        (&a.source, &old),
        (&a.text, &new),
        a.path.as_deref(),
        a.destination.as_deref(),
        &a.changes,
        context,
    )
}

/// Both texts' lines, the BOM left out.
fn split<'t>(source: &'t str, text: &'t str) -> (Lines<'t>, Lines<'t>) {
    (
        Lines::split(strip_bom(source).1),
        Lines::split(strip_bom(text).1),
    )
}

/// Renders a unified diff (`---`/`+++`/`@@ -a,b +c,d @@`) from the parts of a result: the
/// original and new texts, the path and move destination as written, and the edit script.
/// [`ApplyResult::unified_diff`] is this over its own fields; bindings that keep only the parts
/// (not the native result) call this through the C ABI. Empty when nothing changed.
///
/// The edit script must be one the texts can have: changes in order, each starting at or
/// after the end of the previous one in both texts, and inside the texts (reaching at most one
/// line past the end, for an emptied last line without a final newline). Otherwise the error
/// is [`Status::InvalidArgument`](crate::Status::InvalidArgument) naming the change.
pub fn unified_diff(
    source: &str,
    text: &str,
    path: Option<&str>,
    destination: Option<&str>,
    changes: &[Change],
    context: usize,
) -> Result<String, Error> {
    let (old, new) = split(source, text);
    check_changes(old.len(), new.len(), changes)?;
    Ok(render_lines(
        (source, &old),
        (text, &new),
        path,
        destination,
        changes,
        context,
    ))
}

/// Checks that `changes` is an edit script of a text of `old_len` lines into one of `new_len`
/// lines: ranges inside the texts, in order and not overlapping.
fn check_changes(old_len: usize, new_len: usize, changes: &[Change]) -> Result<(), Error> {
    // An empty last line without a final newline (`"a\n"` after adding `""` at the end, or
    // `"a\n\nb"` with `b` deleted) is counted by the edit script but is not a line of the
    // text: ranges may reach one line past the end, and rendering clamps them.
    let (old_len, new_len) = (old_len + 1, new_len + 1);
    let (mut old_at, mut new_at) = (0, 0);
    for (k, c) in changes.iter().enumerate() {
        let (o, n) = (c.old_lines(), c.new_lines());
        let problem = if c.old_start == 0 || c.new_start == 0 || c.hunk == 0 {
            Some("its numbers are 1-based, and one of them is 0".to_string())
        } else if c.old_start.checked_add(c.old_len).is_none()
            || c.new_start.checked_add(c.new_len).is_none()
        {
            Some("a range ends past the largest line number".to_string())
        } else if o.end > old_len {
            Some(format!(
                "its removed lines end at line {} but the original text has {} lines",
                o.end,
                old_len - 1
            ))
        } else if n.end > new_len {
            Some(format!(
                "its added lines end at line {} but the new text has {} lines",
                n.end,
                new_len - 1
            ))
        } else if o.start < old_at || n.start < new_at {
            Some(
                "it starts before the end of the previous change: changes must be in order and \
                 must not overlap"
                    .to_string(),
            )
        } else {
            None
        };
        if let Some(problem) = problem {
            return Err(Error::simple(
                Status::InvalidArgument,
                format!(
                    "change {} (old lines {} +{}, new lines {} +{}, hunk {}) is not part of an \
                     edit script of these texts: {problem}",
                    k + 1,
                    c.old_start,
                    c.old_len,
                    c.new_start,
                    c.new_len,
                    c.hunk
                ),
            ));
        }
        (old_at, new_at) = (o.end, n.end);
    }
    Ok(())
}

/// Renders the diff of `source` (split into `old`) to `text` (split into `new`).
fn render_lines(
    (source, old): (&str, &Lines<'_>),
    (text, new): (&str, &Lines<'_>),
    path: Option<&str>,
    destination: Option<&str>,
    changes: &[Change],
    context: usize,
) -> String {
    let mut out = String::new();
    if source == text {
        // A hunk that replaces lines with the same lines changes nothing: no diff to show.
        return out;
    }
    let changes: Vec<Run> = changes
        .iter()
        .map(|c| Run::clamped(c, old.len(), new.len()))
        .filter(|c| !c.old.is_empty() || !c.new.is_empty())
        .collect();
    if changes.is_empty() {
        return out;
    }
    let (old_name, new_name) = file_names(source, text, path, destination);
    out.push_str(&format!("--- {old_name}\n+++ {new_name}\n"));
    let mut i = 0;
    while i < changes.len() {
        let j = group_end(&changes, i, context);
        push_hunk(&mut out, (old, new), &changes[i..=j], context);
        i = j + 1;
    }
    out
}

/// The `---` and `+++` names: `a/path` and `b/path` (`b/destination` for a move), `a` and `b`
/// without a path, `/dev/null` for the side of an added or deleted file.
fn file_names(
    source: &str,
    text: &str,
    path: Option<&str>,
    destination: Option<&str>,
) -> (String, String) {
    let old_name = match path {
        _ if source.is_empty() && path.is_some() => "/dev/null".to_string(),
        Some(p) => format!("a/{p}"),
        _ => "a".to_string(),
    };
    let new_name = match (destination, path) {
        _ if text.is_empty() && path.is_some() && !source.is_empty() => "/dev/null".to_string(),
        (Some(d), _) => format!("b/{d}"),
        (None, Some(p)) => format!("b/{p}"),
        _ => "b".to_string(),
    };
    (old_name, new_name)
}

/// The index of the last change of the group that starts at `changes[i]`: changes whose
/// context would touch go in one hunk.
fn group_end(changes: &[Run], i: usize, context: usize) -> usize {
    let mut j = i;
    // Saturating: a caller's edit script (the C ABI takes one) may be out of order, and
    // `context` may be `usize::MAX` ("all of it").
    while j + 1 < changes.len()
        && changes[j + 1].old.start.saturating_sub(changes[j].old.end) <= context.saturating_mul(2)
    {
        j += 1;
    }
    j
}

/// Appends one `@@` hunk holding the changes of `group` (non-empty) with `context` lines
/// around them.
fn push_hunk(
    out: &mut String,
    (old, new): (&Lines<'_>, &Lines<'_>),
    group: &[Run],
    context: usize,
) {
    let (Some(first), Some(last)) = (group.first(), group.last()) else {
        return;
    };
    let lead = context.min(first.old.start).min(first.new.start);
    let o_start = first.old.start - lead;
    let n_start = first.new.start - lead;
    let trail = context
        .min(old.len() - last.old.end)
        .min(new.len().saturating_sub(last.new.end));
    let o_end = last.old.end + trail;
    let n_end = last.new.end + trail;
    out.push_str(&format!(
        "@@ -{} +{} @@\n",
        range(o_start, o_end.saturating_sub(o_start)),
        range(n_start, n_end.saturating_sub(n_start))
    ));
    let mut o = o_start;
    for ch in group {
        while o < ch.old.start {
            push_line(out, ' ', old, o);
            o += 1;
        }
        for k in ch.old.clone() {
            push_line(out, '-', old, k);
        }
        for k in ch.new.clone() {
            push_line(out, '+', new, k);
        }
        o = ch.old.end;
    }
    while o < o_end {
        push_line(out, ' ', old, o);
        o += 1;
    }
}
