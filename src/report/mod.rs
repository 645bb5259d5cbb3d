//! Results: the new text with the original source, per-hunk reports, the structured line
//! diff (full or changes-only, with optional character-level segments) and a unified diff.

mod columns;
mod cursor;
mod diff;
// The pieces of refinement, for the fuzzer; Rust users call `refine_lines` (re-exported at the
// crate root with `RefineLimits`, `Refinement` and `LinePair`).
#[doc(hidden)]
pub mod refine;
mod unified;

pub use columns::LineDiff;

// For the C ABI's `v4a_unified_diff` over a caller's edit script and for the fuzzer; Rust users
// call `ApplyResult::unified_diff`.
#[doc(hidden)]
pub use unified::unified_diff;

use std::borrow::Cow;
use std::ops::Range;

use crate::build::Change;
use crate::level::Level;
use crate::options::{DiffStyle, Options};
use crate::text::Lines;

pub use refine::{refine_lines, LinePair, RefineLimits, Refinement, Segment};

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
    /// The 1-based number of the hunk the line belongs to: changed lines and the context lines
    /// of a hunk (`None` for other lines).
    pub hunk: Option<u32>,
    /// The line's bytes (terminator excluded): in [`ApplyResult::source`] for equal and delete
    /// entries, in [`ApplyResult::text`] for add entries. See [`ApplyResult::line_text`].
    pub text: Range<usize>,
    /// This line's character-level segments in [`ApplyResult::segments`]; empty when the line is
    /// unchanged, unpaired, or refinement was not requested or exceeded its limits.
    pub segments: Range<usize>,
}

/// One entry of the structured line diff as [`ApplyResult::try_for_each_diff_line`] lends it:
/// the fields of a [`DiffLine`], with its text and segments borrowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DiffEntry<'a> {
    /// Equal, delete or add.
    pub kind: DiffKind,
    /// 1-based line in the original text (`None` for added lines).
    pub old_line: Option<u32>,
    /// 1-based line in the new text (`None` for deleted lines).
    pub new_line: Option<u32>,
    /// The 1-based number of the hunk the line belongs to (`None` for other lines).
    pub hunk: Option<u32>,
    /// The line's text (terminator excluded), as [`ApplyResult::line_text`] gives it.
    pub text: &'a str,
    /// The line's character-level segments (empty: none), as
    /// [`ApplyResult::line_segments`] gives them.
    pub segments: &'a [Segment],
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
    /// found elsewhere, 200 for anchors set aside, 300 per relaxed context line.
    pub fuzz: u32,
    /// Candidate places at the deciding level: more than 1 in first-match mode, or when the
    /// patch makes the same edit in as many hunks as it has places, which then take one place
    /// each in file order (SPEC §3.2).
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
    /// Found only with some context lines relaxed: they differ from the file (outer ones, or at
    /// most a third of the context), every `-` line matches, and the place is unique. The
    /// file's lines are kept. Adds 300 fuzz per relaxed line.
    pub context_relaxed: bool,
    /// 1-based patch line where the hunk starts.
    pub patch_line: u32,
}

/// The result of applying a patch to one file.
///
/// `'s` is the lifetime of the source it was applied to: [`apply`](crate::apply),
/// [`apply_with_base`](crate::apply_with_base) and [`apply_bytes`](crate::apply_bytes) borrow
/// the caller's source in [`ApplyResult::source`] instead of copying it. Call
/// [`ApplyResult::into_owned`] to keep a result past its source; the results of a multi-file
/// patch ([`FileResult::applied`](crate::FileResult)) own theirs (`ApplyResult<'static>`).
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
pub struct ApplyResult<'s> {
    /// The new text (empty for a deleted file).
    pub text: String,
    /// The original source, unchanged (empty for an added file): borrowed from the caller by
    /// the single-file calls, owned in the results of a multi-file patch.
    pub source: Cow<'s, str>,
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
    /// What the apply learnt of the source's lines, for the diff walk (private: a result
    /// is made by the apply, never by a literal outside the crate).
    pub(crate) known: KnownLines,
}

/// What the raw apply learnt of its source's lines while placing the hunks: that the text
/// after the BOM holds no `\r`, and where some of its lines start. Bound to the source it was
/// learnt on (its address and length, and only while the result borrows it: a borrowed `str`
/// cannot change, an owned one can through the public field), so that a source replaced
/// since is scanned as before. Never part of a result's equality.
#[derive(Clone, Default)]
pub(crate) struct KnownLines {
    /// The address and length of the source (BOM included) these facts are about.
    of: (usize, usize),
    /// `(line index, byte offset after the BOM)` of some line starts, non-decreasing; `Some`
    /// only for a source without `\r`.
    starts: Option<Vec<(usize, usize)>>,
}

impl KnownLines {
    /// `source` (BOM included) holds no `\r` after its BOM, and its lines `starts[i].0` start
    /// at bytes `starts[i].1` after the BOM.
    pub(crate) fn lf(source: &str, starts: Vec<(usize, usize)>) -> KnownLines {
        KnownLines {
            of: (source.as_ptr() as usize, source.len()),
            starts: Some(starts),
        }
    }

    /// The known line starts of `source` (no `\r` after its BOM), when these facts are
    /// about it: the very text borrowed when they were learnt.
    // The `Cow` itself, not its text: whether it borrows is the point.
    #[allow(clippy::ptr_arg)]
    pub(crate) fn of(&self, source: &Cow<'_, str>) -> Option<&[(usize, usize)]> {
        match source {
            Cow::Borrowed(s) if (s.as_ptr() as usize, s.len()) == self.of => self.starts.as_deref(),
            _ => None,
        }
    }
}

impl PartialEq for KnownLines {
    fn eq(&self, _: &KnownLines) -> bool {
        true
    }
}

impl std::fmt::Debug for KnownLines {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("..")
    }
}

impl<'s> ApplyResult<'s> {
    /// The result with a copy of its source it owns, free of the source's lifetime.
    ///
    /// ```
    /// use v4a::{apply, ApplyResult, Mode, Options};
    /// let kept: ApplyResult<'static> = {
    ///     let source = String::from("a\nb\n");
    ///     let r = apply(&source, "@@\n a\n-b\n+c\n", Mode::Update, &Options::default()).unwrap();
    ///     r.into_owned()
    /// };
    /// assert_eq!(kept.source, "a\nb\n");
    /// assert_eq!(kept.text, "a\nc\n");
    /// ```
    pub fn into_owned(mut self) -> ApplyResult<'static> {
        let source = std::mem::take(&mut self.source).into_owned();
        self.with_source(Cow::Owned(source))
    }

    /// The result with `source` in place of its own.
    pub(crate) fn with_source<'t>(self, source: Cow<'t, str>) -> ApplyResult<'t> {
        ApplyResult {
            text: self.text,
            source,
            path: self.path,
            destination: self.destination,
            hunks: self.hunks,
            fuzz: self.fuzz,
            diff: self.diff,
            segments: self.segments,
            changes: self.changes,
            // About the old source: the new one is scanned.
            known: KnownLines::default(),
        }
    }

    /// The text of a diff entry.
    pub fn line_text(&self, line: &DiffLine) -> &str {
        let base: &str = match line.kind {
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

    /// Computes the structured diff (and segments, with the default [`RefineLimits`]) in the
    /// given style. Done by apply when the options ask for it; call this to get another style
    /// later.
    pub fn compute_diff(&mut self, style: DiffStyle, refine: bool) {
        self.compute_diff_with(style, refine.then(RefineLimits::default).as_ref());
    }

    /// [`ApplyResult::compute_diff`] with the refinement's limits: `Some` refines the paired
    /// changed lines within them, `None` does not refine.
    pub fn compute_diff_with(&mut self, style: DiffStyle, refine: Option<&RefineLimits>) {
        let rows = diff::rows(self, style, refine);
        self.diff = rows.diff;
        self.segments = rows.segments;
    }

    /// Hands each entry of the structured diff in `style` to `f`, in order, as it is made:
    /// the same entries and segments as [`ApplyResult::compute_diff_with`] puts in
    /// [`ApplyResult::diff`], without holding them. What is held at a time is one change
    /// block's lines and pairs (for a writer of a large diff: a 50,000-line replacement's rows
    /// and segments are several times its text). Stops calling `f` after its first error,
    /// and returns it.
    ///
    /// ```
    /// use v4a::{apply, DiffKind, DiffStyle, Mode, Options, RefineLimits};
    /// let patch = "@@\n a\n-let x = 1;\n+let x = 2;\n";
    /// let r = apply("a\nlet x = 1;\n", patch, Mode::Update, &Options::default()).unwrap();
    /// let mut seen = Vec::new();
    /// r.try_for_each_diff_line(DiffStyle::Full, Some(&RefineLimits::default()), |e| {
    ///     seen.push((e.kind, e.text.to_string(), e.segments.len()));
    ///     Ok::<(), ()>(())
    /// })
    /// .unwrap();
    /// assert_eq!(seen[0], (DiffKind::Equal, "a".to_string(), 0));
    /// assert_eq!(seen[2], (DiffKind::Add, "let x = 2;".to_string(), 3));
    /// ```
    pub fn try_for_each_diff_line<E>(
        &self,
        style: DiffStyle,
        refine: Option<&RefineLimits>,
        f: impl FnMut(DiffEntry<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut stream = diff::Stream {
            source: &self.source,
            text: &self.text,
            f,
            len: 0,
            error: None,
        };
        diff::walk(self, style, refine, &mut stream);
        stream.error.map_or(Ok(()), Err)
    }

    /// The structured diff in `style` as columns — the same entries as
    /// [`ApplyResult::compute_diff_with`] gives [`ApplyResult::diff`], without a copy of any
    /// line: the cheap form for callers that convert the diff into their own objects (the C
    /// ABI and the bindings use it). `refine`: the limits of the character-level segments,
    /// `None` for none.
    pub fn line_diff(&self, style: DiffStyle, refine: Option<&RefineLimits>) -> LineDiff {
        diff::columns(self, style, refine)
    }
}

/// Fills the structured diff of a fresh result according to the options.
pub(crate) fn finish(a: &mut ApplyResult, opts: &Options) {
    if opts.diff != DiffStyle::None {
        a.compute_diff_with(opts.diff, opts.refine.then_some(&opts.refine_limits));
    }
}

/// [`finish`] while the apply still holds the source's line index: `source` is the text `a`
/// was applied to (`a.source` may not hold it yet), `lines` its split after the BOM. The walk
/// reads the original lines from the index instead of scanning the source again.
pub(crate) fn finish_indexed(a: &mut ApplyResult, source: &str, lines: &Lines<'_>, opts: &Options) {
    if opts.diff != DiffStyle::None {
        let refine = opts.refine.then_some(&opts.refine_limits);
        let mut rows = diff::Rows::default();
        diff::walk_indexed(a, source, lines, opts.diff, refine, &mut rows);
        a.diff = rows.diff;
        a.segments = rows.segments;
    }
}
