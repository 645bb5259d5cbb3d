//! The hunk rewritten with the file's real lines of the closest region.

use similar::{capture_diff_slices, Algorithm, DiffOp};

use super::region::Region;
use super::text::{similarity, visible};
use crate::level::{normalized, Level};
use crate::locate::index::LineIndex;
use crate::locate::HunkRef;
use crate::patch::LineKind;

/// A corrected hunk and the list of lines that differ from the patch.
pub(super) struct Corrected {
    pub text: String,
    pub differences: String,
}

/// How a hunk's old side aligns to a window of the file.
struct Alignment {
    /// For each old-side line, the window line it corresponds to, if any.
    map: Vec<Option<usize>>,
    /// For each old-side line (and the end), window lines before it without a counterpart.
    extra_before: Vec<Vec<usize>>,
    /// The first and last window lines paired with an old-side line.
    span: (usize, usize),
}

/// Rewrites the hunk with the file's real lines of `region`, aligning the old side to the
/// region with a line diff (pairs of differing lines are replacements).
pub(super) fn corrected_hunk(
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
    let alignment = align(old, &region);
    render(cx, &region, lo, &alignment)
}

/// The equal lines of a line diff of `old` against `region` on their folded forms, as (old,
/// region) index pairs, ending with the pair one past both ends.
fn equal_pairs(old: &[&str], region: &[&str]) -> Vec<(usize, usize)> {
    let pn: Vec<String> = old.iter().map(|l| normalized(l, Level::Fold)).collect();
    let rn: Vec<String> = region.iter().map(|l| normalized(l, Level::Fold)).collect();
    let ops = capture_diff_slices(Algorithm::Myers, &pn, &rn);
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    for op in &ops {
        if let DiffOp::Equal {
            old_index,
            new_index,
            len,
        } = *op
        {
            pairs.extend((0..len).map(|k| (old_index + k, new_index + k)));
        }
    }
    pairs.push((old.len(), region.len()));
    pairs
}

/// For each old-side line: the file line it corresponds to (if any), and file lines that
/// precede it without a counterpart. Equal lines align exactly; in the gaps between them each
/// patch line pairs with the most similar file line after the previous pair.
fn align(old: &[&str], region: &[&str]) -> Alignment {
    let mut map: Vec<Option<usize>> = vec![None; old.len()];
    let mut extra_before: Vec<Vec<usize>> = vec![Vec::new(); old.len() + 1];
    let mut first_file = None;
    let mut last_file = None;
    let (mut po, mut pf) = (0usize, 0usize);
    for (eo, ef) in equal_pairs(old, region) {
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
    let span = match (first_file, last_file) {
        (Some(a), Some(b)) => (a, b),
        _ => (0, region.len().saturating_sub(1)),
    };
    Alignment {
        map,
        extra_before,
        span,
    }
}

/// Writes the corrected hunk: the patch's anchors and added lines, the old side replaced by
/// the window lines it aligns to, and window lines the hunk skipped as context.
fn render(cx: &HunkRef<'_>, region: &[&str], lo: usize, a: &Alignment) -> Corrected {
    let in_span = |j: &usize| *j >= a.span.0 && *j <= a.span.1;
    let mut text = String::new();
    for anchor in &cx.hunk.anchors {
        text.push_str(&format!("@@ {}\n", anchor.text));
    }
    if cx.hunk.anchors.is_empty() {
        text.push_str("@@\n");
    }
    let mut differences = Vec::new();
    let mut k = 0usize; // old-side index
    for line in &cx.hunk.lines {
        if line.kind == LineKind::Add {
            text.push('+');
            text.push_str(&line.text);
            text.push('\n');
            continue;
        }
        for &j in a.extra_before[k].iter().filter(|j| in_span(j)) {
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
        match a.map[k] {
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
    if differences.is_empty() {
        differences.push("  (the lines match only in a different order)".to_string());
    }
    Corrected {
        text,
        differences: differences.join("\n"),
    }
}
