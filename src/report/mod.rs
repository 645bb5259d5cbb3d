//! Results: the new text with the original source, per-hunk reports, the structured line
//! diff (full or changes-only, with optional character-level segments) and a unified diff.

pub mod refine;
mod unified;

pub use unified::unified_diff;

use std::ops::Range;

use crate::build::Change;
use crate::level::Level;
use crate::options::{DiffStyle, Options};
use crate::text::{strip_bom, Lines};

pub use refine::{RefineLimits, Segment};

/// The kind of a diff entry or segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DiffKind {
    /// Unchanged.
    Equal,
    /// Removed (old side only).
    Delete,
    /// Added (new side only).
    Add,
}

impl DiffKind {
    /// `"equal"`, `"delete"` or `"add"`.
    pub fn name(self) -> &'static str {
        match self {
            DiffKind::Equal => "equal",
            DiffKind::Delete => "delete",
            DiffKind::Add => "add",
        }
    }
}

/// One entry of the structured line diff.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiffLine {
    /// Equal, delete or add.
    pub kind: DiffKind,
    /// 1-based line in the original text (`None` for added lines).
    pub old_line: Option<u32>,
    /// 1-based line in the new text (`None` for deleted lines).
    pub new_line: Option<u32>,
    /// The hunk (0-based) the line belongs to: changed lines and the context lines of a hunk.
    pub hunk: Option<usize>,
    /// The line's bytes (terminator excluded): in [`ApplyResult::source`] for equal and delete
    /// entries, in [`ApplyResult::text`] for add entries. See [`ApplyResult::line_text`].
    pub text: Range<usize>,
    /// This line's character-level segments in [`ApplyResult::segments`]; empty when the line is
    /// unchanged, unpaired, or refinement was not requested or exceeded its limits.
    pub segments: Range<usize>,
}

/// Where one hunk landed and how well it matched.
#[derive(Clone, Debug, PartialEq)]
pub struct HunkReport {
    /// First line of the original text the hunk covers (1-based). For a pure insertion
    /// (`old_len == 0`), the line before which the new lines were inserted.
    pub old_start: u32,
    /// Number of original lines the hunk covers (context and removed).
    pub old_len: u32,
    /// First line of the hunk in the new text (1-based).
    pub new_start: u32,
    /// Number of lines the hunk occupies in the new text (context and added).
    pub new_len: u32,
    /// The loosest level any of its lines needed (the level its old side matched at).
    pub level: Level,
    /// For each old-side line (context and removed, in order), the strictest level it
    /// matches at. For an already-applied hunk, the levels of its new side.
    pub line_levels: Vec<Level>,
    /// This hunk's fuzz: its match level, its anchors' levels, 1000 for an end-of-file hunk
    /// found elsewhere, 200 for anchors set aside.
    pub fuzz: u32,
    /// Candidate places at the deciding level (more than 1 only in first-match mode).
    pub candidates: u32,
    /// Added lines were re-indented to the file's indentation.
    pub reindented: bool,
    /// The change was already present; nothing was changed.
    pub already_applied: bool,
    /// Placed at the end of the file (`*** End of File`, or an unanchored pure insertion).
    pub end_of_file: bool,
    /// Found before the previous hunk (the patch listed hunks out of file order).
    pub out_of_order: bool,
    /// Located in the base and carried to the current text by a three-way merge
    /// ([`apply_with_base`](crate::apply_with_base)); the ranges are in the current text.
    pub merged: bool,
    /// The hunk's `@@` anchors did not help (not found, or found more than once) and were set
    /// aside: its old side is unique where a hunk without anchors is searched. Adds 200 fuzz.
    pub anchor_ignored: bool,
    /// 1-based patch line where the hunk starts.
    pub patch_line: u32,
}

/// The result of applying a patch to one file.
///
/// ```
/// use v4a::{apply, DiffKind, DiffStyle, Mode, Options};
/// let opts = Options { diff: DiffStyle::Full, ..Options::default() };
/// let r = apply("a\nb\n", "@@\n a\n-b\n+c\n", Mode::Update, &opts).unwrap();
/// assert_eq!(r.text, "a\nc\n");
/// assert_eq!(r.source, "a\nb\n");
/// let kinds: Vec<_> = r.diff.iter().map(|d| (d.kind, r.line_text(d))).collect();
/// assert_eq!(kinds, [(DiffKind::Equal, "a"), (DiffKind::Delete, "b"), (DiffKind::Add, "c")]);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ApplyResult {
    /// The new text (empty for a deleted file).
    pub text: String,
    /// The original source, unchanged (empty for an added file).
    pub source: String,
    /// The file's path as written in the patch (`None` for a bare diff).
    pub path: Option<String>,
    /// The move destination as written in the patch.
    pub destination: Option<String>,
    /// One report per hunk, in patch order.
    pub hunks: Vec<HunkReport>,
    /// Total fuzz of the file (sum of the hunks').
    pub fuzz: u32,
    /// The structured line diff, if [`Options::diff`] asked for one.
    pub diff: Vec<DiffLine>,
    /// Character-level segments referenced by [`DiffLine::segments`], if [`Options::refine`].
    pub segments: Vec<Segment>,
    /// The edit script: every run of changed lines, in file order.
    pub changes: Vec<Change>,
}

impl ApplyResult {
    /// The text of a diff entry.
    pub fn line_text(&self, line: &DiffLine) -> &str {
        let base = match line.kind {
            DiffKind::Add => &self.text,
            _ => &self.source,
        };
        base.get(line.text.clone()).unwrap_or_default()
    }

    /// The character-level segments of a diff entry.
    pub fn line_segments(&self, line: &DiffLine) -> &[Segment] {
        self.segments.get(line.segments.clone()).unwrap_or_default()
    }

    /// True when the new text differs from the source.
    pub fn changed(&self) -> bool {
        self.text != self.source
    }

    /// A unified diff (`---`/`+++`/`@@ -a,b +c,d @@`) of the change with `context` lines of
    /// context, for logs and review. Empty when nothing changed.
    pub fn unified_diff(&self, context: usize) -> String {
        unified::render(self, context)
    }

    /// Computes the structured diff (and segments) in the given style. Done by apply when the
    /// options ask for it; call this to get another style later.
    pub fn compute_diff(&mut self, style: DiffStyle, refine: bool) {
        let (diff, segments) = structured_diff(self, style, refine);
        self.diff = diff;
        self.segments = segments;
    }
}

/// Lines of the source (BOM excluded) and of the new text, with the BOM byte offsets.
pub(crate) fn split_both(a: &ApplyResult) -> (Lines<'_>, usize, Lines<'_>, usize) {
    let (_, src) = strip_bom(&a.source);
    let (_, new) = strip_bom(&a.text);
    (
        Lines::split(src),
        a.source.len() - src.len(),
        Lines::split(new),
        a.text.len() - new.len(),
    )
}

/// For each hunk, its original-line range; used to tag context lines with their hunk.
fn hunk_of_old_line(a: &ApplyResult) -> Vec<(usize, usize, usize)> {
    let mut v: Vec<(usize, usize, usize)> = a
        .hunks
        .iter()
        .enumerate()
        .filter(|(_, h)| !h.already_applied)
        .map(|(i, h)| {
            let s = h.old_start as usize - 1;
            (s, s + h.old_len as usize, i)
        })
        .collect();
    v.sort();
    v
}

fn structured_diff(
    a: &ApplyResult,
    style: DiffStyle,
    refine: bool,
) -> (Vec<DiffLine>, Vec<Segment>) {
    let mut diff = Vec::new();
    let mut segments = Vec::new();
    if style == DiffStyle::None {
        return (diff, segments);
    }
    let (old, old_off, new, new_off) = split_both(a);
    let ranges = hunk_of_old_line(a);
    let context = match style {
        DiffStyle::Changes { context } => Some(context as usize),
        _ => None,
    };
    let mut ri = 0usize;
    let mut hunk_at = |i: usize| -> Option<usize> {
        while ri < ranges.len() && ranges[ri].1 <= i {
            ri += 1;
        }
        ranges.get(ri).filter(|r| r.0 <= i && i < r.1).map(|r| r.2)
    };
    let span = |l: &Lines<'_>, off: usize, i: usize| {
        let s = l.span(i);
        off + s.start..off + s.end
    };
    let push_equal = |diff: &mut Vec<DiffLine>, oi: usize, ni: usize, hunk: Option<usize>| {
        diff.push(DiffLine {
            kind: DiffKind::Equal,
            old_line: Some(oi as u32 + 1),
            new_line: Some(ni as u32 + 1),
            hunk,
            text: span(&old, old_off, oi),
            segments: 0..0,
        });
    };
    let limits = RefineLimits::default();
    let (mut oi, mut ni) = (0usize, 0usize);
    let changes = &a.changes;
    for (ci, ch) in changes.iter().enumerate() {
        // An empty line added at the very end of a text without a final newline is not a line.
        let ch = &Change {
            old: ch.old.start.min(old.len())..ch.old.end.min(old.len()),
            new: ch.new.start.min(new.len())..ch.new.end.min(new.len()),
            hunk: ch.hunk,
        };
        // Equal lines before this change: all of them, or the `c` after the previous change
        // and the `c` before this one.
        let gap = ch.old.start - oi;
        for k in 0..gap {
            let show = match context {
                None => true,
                Some(c) => (ci > 0 && k < c) || k + c >= gap,
            };
            if show {
                push_equal(&mut diff, oi + k, ni + k, hunk_at(oi + k));
            }
        }
        let first_del = diff.len();
        for k in ch.old.clone() {
            diff.push(DiffLine {
                kind: DiffKind::Delete,
                old_line: Some(k as u32 + 1),
                new_line: None,
                hunk: Some(ch.hunk),
                text: span(&old, old_off, k),
                segments: 0..0,
            });
        }
        let first_add = diff.len();
        for k in ch.new.clone() {
            diff.push(DiffLine {
                kind: DiffKind::Add,
                old_line: None,
                new_line: Some(k as u32 + 1),
                hunk: Some(ch.hunk),
                text: span(&new, new_off, k),
                segments: 0..0,
            });
        }
        if refine && !ch.old.is_empty() && !ch.new.is_empty() {
            let dels: Vec<&str> = ch.old.clone().map(|k| old.get(k)).collect();
            let adds: Vec<&str> = ch.new.clone().map(|k| new.get(k)).collect();
            for (d, ad) in refine::pair_lines(&dels, &adds, &limits) {
                if let Some((ds, as_)) = refine::refine_pair(dels[d], adds[ad], &limits) {
                    let s0 = segments.len();
                    segments.extend(ds);
                    diff[first_del + d].segments = s0..segments.len();
                    let s1 = segments.len();
                    segments.extend(as_);
                    diff[first_add + ad].segments = s1..segments.len();
                }
            }
        }
        oi = ch.old.end;
        ni = ch.new.end;
    }
    let tail = old.len() - oi;
    let show_tail = match context {
        None => tail,
        Some(c) if !changes.is_empty() => c.min(tail),
        Some(_) => 0,
    };
    for k in 0..show_tail {
        push_equal(&mut diff, oi + k, ni + k, hunk_at(oi + k));
    }
    (diff, segments)
}

/// Fills the structured diff of a fresh result according to the options.
pub(crate) fn finish(a: &mut ApplyResult, opts: &Options) {
    if opts.diff != DiffStyle::None {
        a.compute_diff(opts.diff, opts.refine);
    }
}
