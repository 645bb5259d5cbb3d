//! Unified diff rendering (`---`/`+++`/`@@ -a,b +c,d @@`) of an [`Applied`] result.

use super::Applied;
use crate::build::Change;
use crate::text::{strip_bom, Lines};

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

pub(super) fn render(a: &Applied, context: usize) -> String {
    unified_diff(
        &a.source,
        &a.text,
        a.path.as_deref(),
        a.destination.as_deref(),
        &a.changes,
        context,
    )
}

/// Renders a unified diff (`---`/`+++`/`@@ -a,b +c,d @@`) from the parts of a result: the
/// original and new texts, the path and move destination as written, and the edit script.
/// [`Applied::unified_diff`] is this over its own fields; bindings that keep only the parts
/// (not the native result) call this through the C ABI. Empty when nothing changed.
pub fn unified_diff(
    source: &str,
    text: &str,
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
    let (old, new) = (
        Lines::split(strip_bom(source).1),
        Lines::split(strip_bom(text).1),
    );
    let changes: Vec<Change> = changes
        .iter()
        .map(|c| Change {
            old: c.old.start.min(old.len())..c.old.end.min(old.len()),
            new: c.new.start.min(new.len())..c.new.end.min(new.len()),
            hunk: c.hunk,
        })
        .filter(|c| !c.old.is_empty() || !c.new.is_empty())
        .collect();
    if changes.is_empty() {
        return out;
    }
    let old_name = match path {
        Some(p) if !source.is_empty() || !text.is_empty() => format!("a/{p}"),
        _ => "a".to_string(),
    };
    let new_name = match (destination, path) {
        (Some(d), _) => format!("b/{d}"),
        (None, Some(p)) => format!("b/{p}"),
        _ => "b".to_string(),
    };
    let old_name = if source.is_empty() && path.is_some() {
        "/dev/null".to_string()
    } else {
        old_name
    };
    let new_name = if text.is_empty() && path.is_some() && !source.is_empty() {
        "/dev/null".to_string()
    } else {
        new_name
    };
    out.push_str(&format!("--- {old_name}\n+++ {new_name}\n"));
    // Group changes whose context would touch.
    let mut i = 0;
    while i < changes.len() {
        let mut j = i;
        // Saturating: a caller's edit script (the C ABI takes one) may be out of order, and
        // `context` may be `usize::MAX` ("all of it").
        while j + 1 < changes.len()
            && changes[j + 1].old.start.saturating_sub(changes[j].old.end)
                <= context.saturating_mul(2)
        {
            j += 1;
        }
        let first = &changes[i];
        let last = &changes[j];
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
        for ch in &changes[i..=j] {
            while o < ch.old.start {
                push_line(&mut out, ' ', &old, o);
                o += 1;
            }
            for k in ch.old.clone() {
                push_line(&mut out, '-', &old, k);
            }
            for k in ch.new.clone() {
                push_line(&mut out, '+', &new, k);
            }
            o = ch.old.end;
        }
        while o < o_end {
            push_line(&mut out, ' ', &old, o);
            o += 1;
        }
        i = j + 1;
    }
    out
}
