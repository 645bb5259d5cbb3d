//! The operations: the single-file call (`apply(source, diff, mode)`) and multi-file patches
//! applied atomically over sources the caller supplies.

use std::str::FromStr;

use crate::build::{build_add, build_update, Built};
use crate::error::{Diagnostics, Error, Status};
use crate::locate::{locate_hunks, raw_update, Placement};
use crate::merge;
use crate::options::{DiffStyle, Options};
use crate::patch::{FileOp, Hunk, LineKind, OpKind, Patch};
use std::borrow::Cow;

use crate::report::{finish, finish_indexed, ApplyResult, HunkReport, KnownLines};
use crate::text::{strip_bom, Lines};

/// What the single-file call does with the source.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Apply the diff's hunks to the source.
    Update,
    /// Build a new file from the diff's `+` lines; the source is ignored.
    Create,
    /// Return empty text and list every source line as removed.
    Delete,
    /// Apply edits like update and report the destination path.
    Move,
}

impl Mode {
    /// Every mode, in C ABI order (0 = update, 1 = create, 2 = delete, 3 = move).
    pub const ALL: [Mode; 4] = [Mode::Update, Mode::Create, Mode::Delete, Mode::Move];

    /// The lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Update => "update",
            Mode::Create => "create",
            Mode::Delete => "delete",
            Mode::Move => "move",
        }
    }
}

impl FromStr for Mode {
    type Err = Error;

    /// Parses `update`, `create`, `delete` or `move`; anything else is
    /// [`Status::UnsupportedMode`], never a silent update.
    fn from_str(s: &str) -> Result<Mode, Error> {
        Mode::ALL
            .iter()
            .copied()
            .find(|m| m.name() == s)
            .ok_or_else(|| {
                Error::simple(
                    Status::UnsupportedMode,
                    format!("unsupported mode {s:?}: expected update, create, delete or move"),
                )
            })
    }
}

/// Applies a single-file diff to `source`.
///
/// `diff` is a bare diff (hunks only) or an envelope naming exactly one file whose operation
/// agrees with `mode`.
///
/// ```
/// use v4a::{apply, Mode, Options};
/// let r = apply(
///     "function add(a, b) {\n  return a - b\n}\n",
///     "@@ function add(a, b) {\n-  return a - b\n+  return a + b\n",
///     Mode::Update,
///     &Options::default(),
/// ).unwrap();
/// assert_eq!(r.text, "function add(a, b) {\n  return a + b\n}\n");
/// assert_eq!(r.fuzz, 0);
/// ```
pub fn apply<'s>(
    source: &'s str,
    diff: &str,
    mode: Mode,
    opts: &Options,
) -> Result<ApplyResult<'s>, Error> {
    apply_single(source, None, diff, mode, opts)
}

/// Applies a single-file diff written against `base` to `source`, the text as it is now.
///
/// The hunks are located in `base` (the usual levels and rules apply there), and the change
/// is merged into `source`. When `base` equals `source`, the result is exactly
/// [`apply`]'s. A hunk whose lines were also changed in `source` is a [`Status::Conflict`]
/// error showing the three versions of those lines. When a hunk is not found in `base`, the
/// plain apply to `source` is tried; if that fails too, the error says that the file changed
/// since the model read it.
///
/// ```
/// use v4a::{apply_with_base, Mode, Options};
/// let base = "def f():\n    return 1\n\ndef g():\n    return 1\n";
/// // Since the model read the file, someone added a line at the top.
/// let current = format!("import os\n{base}");
/// // The hunk's lines occur twice; the anchor names `g`, as seen in the base.
/// let diff = "@@ def g():\n-    return 1\n+    return 2\n";
/// let r = apply_with_base(&current, base, diff, Mode::Update, &Options::default()).unwrap();
/// assert_eq!(r.text, "import os\ndef f():\n    return 1\n\ndef g():\n    return 2\n");
/// assert!(r.hunks[0].merged);
/// assert_eq!(r.hunks[0].old_start, 6);
/// ```
pub fn apply_with_base<'s>(
    source: &'s str,
    base: &str,
    diff: &str,
    mode: Mode,
    opts: &Options,
) -> Result<ApplyResult<'s>, Error> {
    apply_single(source, Some(base), diff, mode, opts)
}

fn apply_single<'s>(
    source: &'s str,
    base: Option<&str>,
    diff: &str,
    mode: Mode,
    opts: &Options,
) -> Result<ApplyResult<'s>, Error> {
    opts.validate()?;
    if mode == Mode::Delete {
        return apply_delete_mode(source, diff, opts);
    }
    let patch = Patch::parse(diff)?;
    let op = single_op(&patch, mode)?;
    match mode {
        Mode::Create => {
            let hunk = create_hunk(op)?;
            Ok(whole_file("", build_add(Some(hunk), opts), &op.path, opts))
        }
        _ => {
            if op.kind != OpKind::Update {
                return Err(mode_mismatch(op, mode));
            }
            update_on(source, base, op, opts)
        }
    }
}

/// [`apply`] over bytes: invalid UTF-8 in either input is [`Status::InvalidUtf8`] with the
/// byte offset.
pub fn apply_bytes<'s>(
    source: &'s [u8],
    diff: &[u8],
    mode: Mode,
    opts: &Options,
) -> Result<ApplyResult<'s>, Error> {
    let diff = std::str::from_utf8(diff).map_err(|e| Error::invalid_utf8("patch", e))?;
    let source = if mode == Mode::Create {
        ""
    } else {
        std::str::from_utf8(source).map_err(|e| Error::invalid_utf8("source", e))?
    };
    apply(source, diff, mode, opts)
}

fn single_op(patch: &Patch, mode: Mode) -> Result<&FileOp, Error> {
    match patch.ops.as_slice() {
        [op] => {
            if op.is_move() && mode == Mode::Update {
                return Err(mode_mismatch(op, mode));
            }
            Ok(op)
        }
        ops => Err(Error::simple(
            Status::InvalidArgument,
            format!(
                "the patch names {} files, but the single-file call applies one; use the \
                 multi-file API (parse the patch, then apply it) for patches with several files",
                ops.len()
            ),
        )),
    }
}

fn mode_mismatch(op: &FileOp, mode: Mode) -> Error {
    let what = match op.kind {
        OpKind::Add => "adds",
        OpKind::Delete => "deletes",
        OpKind::Update if op.is_move() => "moves",
        OpKind::Update => "updates",
    };
    Error::new(
        Status::InvalidArgument,
        format!(
            "the patch {what} {} but the mode is {}: the file operation must agree with the mode",
            op.path,
            mode.name()
        ),
        Diagnostics {
            patch_line: Some(op.patch_line),
            path: Some(op.path.clone()),
            ..Diagnostics::default()
        },
    )
}

/// For mode create: an Add File body, or a bare diff of one hunk of `+` lines.
fn create_hunk(op: &FileOp) -> Result<&Hunk, Error> {
    let bad = |line: u32, msg: &str| Error::syntax(line, msg.to_string());
    match op.kind {
        OpKind::Add => Ok(&op.hunks[0]),
        OpKind::Update if op.path.is_empty() => match op.hunks.as_slice() {
            [h] if h.anchors.is_empty() => {
                if let Some(l) = h.lines.iter().find(|l| l.kind != LineKind::Add) {
                    return Err(bad(
                        l.patch_line,
                        &format!(
                            "line {}: in create mode every line of the diff must start with '+'",
                            l.patch_line
                        ),
                    ));
                }
                Ok(h)
            }
            _ => Err(bad(
                op.patch_line,
                "in create mode the diff is the new file's lines, each starting with '+', \
                 without \"@@\" lines",
            )),
        },
        _ => Err(mode_mismatch(op, Mode::Create)),
    }
}

fn apply_delete_mode<'s>(
    source: &'s str,
    diff: &str,
    opts: &Options,
) -> Result<ApplyResult<'s>, Error> {
    if !diff.trim().is_empty() {
        let patch = Patch::parse(diff)?;
        match patch.ops.as_slice() {
            [op] if op.kind == OpKind::Delete => {}
            [op] => return Err(mode_mismatch(op, Mode::Delete)),
            _ => {
                return Err(Error::simple(
                    Status::InvalidArgument,
                    "in delete mode the diff must be empty or a single \"*** Delete File:\" header",
                ))
            }
        }
    }
    Ok(whole_file(source, String::new(), "", opts))
}

/// A result that replaces the whole text (an added or deleted file): every old line removed,
/// every new line added. The structured diff is filled according to the options.
fn whole_file<'s>(source: &'s str, text: String, path: &str, opts: &Options) -> ApplyResult<'s> {
    let old_lines = Lines::split(strip_bom(source).1).len();
    let new_lines = Lines::split(strip_bom(&text).1).len();
    let mut a = ApplyResult {
        text,
        source: Cow::Borrowed(source),
        path: (!path.is_empty()).then(|| path.to_string()),
        destination: None,
        hunks: Vec::new(),
        fuzz: 0,
        diff: Vec::new(),
        segments: Vec::new(),
        changes: if old_lines + new_lines > 0 {
            vec![crate::build::Change::from_indices(
                0..old_lines,
                0..new_lines,
                0,
            )]
        } else {
            Vec::new()
        },
        known: KnownLines::default(),
    };
    finish(&mut a, opts);
    a
}

/// Applies an Update operation's hunks to `source`; with a `base` (the text the model saw),
/// the hunks are located there and the change merged into `source`.
fn update_on<'s>(
    source: &'s str,
    base: Option<&str>,
    op: &FileOp,
    opts: &Options,
) -> Result<ApplyResult<'s>, Error> {
    let Some(base) = base.filter(|b| *b != source) else {
        // No base, or a base equal to the source: SPEC §3.2 "nothing changes", so this is
        // the plain apply, with every guard of a text the model may not have seen.
        return update(source, op, opts, false);
    };
    let on_base = Options {
        diff: DiffStyle::None,
        ..opts.clone()
    };
    let patched = match update(base, op, &on_base, true) {
        Ok(r) => r,
        // Not in the base (the model miscopied it): the plain apply to the current text,
        // with its usual guarantees, else its error (the lines to resend against are the
        // current ones) told that the file changed since the model read it, and how.
        Err(_) => {
            return update(source, op, opts, false).map_err(|e| merge::drifted(e, base, source))
        }
    };
    let mut merged = match merge::merge(&patched, source, None) {
        Ok(m) => m,
        // The drift can be read two ways around the hunk: taken only if a plain apply to the
        // current text lands, with its hunks as written, and gives the same text as the merge
        // (see `merge::merge`). A plain reading with context relaxed or lines left out is one
        // more guess about the current text, not a second witness.
        Err(e) if e.status() == Status::Ambiguous => match update(source, op, opts, false) {
            Ok(plain) if as_written(&plain) => {
                merge::merge(&patched, source, Some(&plain.text)).map_err(|_| e)?
            }
            _ => return Err(e),
        },
        // The patch's added lines could go before or after a change made since: the plain
        // apply to the current text (its hunks as written) is taken when its text is exactly
        // one of the two orderings (its context in the current text settles the order), else
        // the conflict.
        Err(e) if e.status() == Status::Conflict => {
            return match update(source, op, opts, false) {
                Ok(plain)
                    if as_written(&plain)
                        && merge::order_settled(&patched, source, &plain.text) =>
                {
                    Ok(plain)
                }
                _ => Err(e),
            };
        }
        Err(e) => return Err(e),
    };
    finish(&mut merged, opts);
    Ok(merged)
}

/// True when every hunk of `r` was placed with its old side as written (at some level): no
/// context line relaxed, none left out, none skipped.
fn as_written(r: &ApplyResult<'_>) -> bool {
    r.hunks.iter().all(|h| !h.context_relaxed)
}

/// Applies an Update operation's hunks to `source`; `seen` when `source` is the text the
/// model saw when it wrote the patch (a base), see [`crate::locate::locate_hunks`]. The
/// result borrows `source`: the apply holds the new text and, on the line path, the line
/// index (a quarter of the source), never a copy of the source.
fn update<'s>(
    source: &'s str,
    op: &FileOp,
    opts: &Options,
    seen: bool,
) -> Result<ApplyResult<'s>, Error> {
    let (bom, body) = strip_bom(source);
    // Every hunk exact, unique and in order in LF text (or every hunk unique at a loose
    // level): placed and built from the raw bytes, without splitting the file into lines (the
    // same result; see `locate::raw` and `locate::loose`).
    if let Some(a) = update_raw(source, body, bom, op, opts) {
        return Ok(a);
    }
    let lines = Lines::split(body);
    let mut a = update_lines(&lines, bom, op, opts, seen)?;
    a.source = Cow::Borrowed(source);
    // A diff, when wanted, reads the original lines from the index the apply already made
    // instead of scanning the source again.
    finish_indexed(&mut a, source, &lines, opts);
    Ok(a)
}

/// [`update`] of the lines of the source after its BOM (`bom`: whether it has one), without
/// the source (`source` is left empty) and without the structured diff.
fn update_lines<'s>(
    lines: &Lines<'_>,
    bom: bool,
    op: &FileOp,
    opts: &Options,
    seen: bool,
) -> Result<ApplyResult<'s>, Error> {
    let placements =
        locate_hunks(lines, &op.hunks, &op.path, opts, seen).map_err(|e| e.with_path(&op.path))?;
    let built = build_update(lines, bom, &op.hunks, &placements, &op.path, opts)?;
    Ok(updated(op, placements, built))
}

/// [`update_lines`] over `body`, the text of `source` after the BOM, without splitting it into
/// lines, when [`raw_update`] can answer (else `None`: the line path runs). The result keeps
/// what the raw path learnt of the source's lines (no `\r`, where each hunk's lines start
/// and end) for a diff asked for later.
fn update_raw<'s>(
    source: &'s str,
    body: &str,
    bom: bool,
    op: &FileOp,
    opts: &Options,
) -> Option<ApplyResult<'s>> {
    let (placements, mut built) = raw_update(body, bom, &op.hunks, &op.path, opts)?;
    let starts = built.lf_starts.take();
    let mut a = updated(op, placements, built);
    a.source = Cow::Borrowed(source);
    if let Some(starts) = starts {
        a.known = KnownLines::lf(source, starts);
    }
    Some(a)
}

/// The result of an update from its placements and built text (`source` left empty). The
/// placements are consumed: a [`Placement`] is the size of a [`HunkReport`] (64 bytes, pinned
/// below), so the reports are written over the placements in their vector (the standard
/// library's in-place `collect`) and a patch of many hunks needs no second vector at its peak
/// (`tests/memory.rs`, `many_hunks_out_of_order_share_one_vector_of_old_sides`).
fn updated<'s>(op: &FileOp, placements: Vec<Placement>, built: Built) -> ApplyResult<'s> {
    let hunks = placements
        .into_iter()
        .zip(&built.hunks)
        .zip(&op.hunks)
        .map(|((p, b), h)| HunkReport {
            old_start: p.start as u32 + 1,
            old_len: p.old_len as u32,
            new_start: b.new_start as u32 + 1,
            new_len: b.new_len as u32,
            level: p.level,
            line_levels: p.line_levels.into_vec(),
            fuzz: p.fuzz,
            candidates: p.candidates,
            reindented: b.reindented,
            already_applied: p.already_applied,
            end_of_file: p.end_of_file,
            out_of_order: p.out_of_order,
            merged: false,
            anchor_ignored: p.anchor_ignored,
            context_relaxed: p.context_relaxed,
            patch_line: h.patch_line,
        })
        .collect::<Vec<_>>();
    ApplyResult {
        text: built.text,
        source: Cow::Borrowed(""),
        path: (!op.path.is_empty()).then(|| op.path.clone()),
        destination: op.destination().map(str::to_string),
        fuzz: hunks.iter().map(|h| h.fuzz).sum(),
        hunks,
        diff: Vec::new(),
        segments: Vec::new(),
        changes: built.changes,
        known: KnownLines::default(),
    }
}

// `updated`'s in-place `collect` needs a placement at least as large and as aligned as a
// report; equal sizes leave no slack in the reused vector. (32-bit targets: a placement is the
// smaller, and the reports get their own vector, as before.)
#[cfg(target_pointer_width = "64")]
const _: () = assert!(
    std::mem::size_of::<Placement>() == std::mem::size_of::<HunkReport>()
        && std::mem::align_of::<Placement>() == std::mem::align_of::<HunkReport>()
);

/// The result of one file operation of a multi-file patch.
#[derive(Clone, Debug, PartialEq)]
pub struct FileResult {
    /// Add, delete or update.
    pub kind: OpKind,
    /// The path as written in the patch.
    pub path: String,
    /// The move destination as written (`None` unless the file moves to another path); always
    /// equal to `applied.destination` (both come from [`FileOp::destination`]).
    pub move_to: Option<String>,
    /// The new text, the original source (owned: the sources a multi-file patch reads are
    /// lent for the call only, or given away) and the reports.
    pub applied: ApplyResult<'static>,
}

impl FileResult {
    /// The path the result should be written to.
    pub fn target(&self) -> &str {
        self.move_to.as_deref().unwrap_or(&self.path)
    }
}

/// The results of every operation of a multi-file patch, in patch order.
#[derive(Clone, Debug, PartialEq)]
pub struct PatchResult {
    /// One result per file operation.
    pub files: Vec<FileResult>,
}

impl PatchResult {
    /// The summary other engines print, which models know:
    /// `Success. Updated the following files:` then `A path`, `M path`, `D path` lines
    /// (a move is reported as `M destination`).
    pub fn summary(&self) -> String {
        let mut s = String::from("Success. Updated the following files:\n");
        for f in &self.files {
            let letter = match f.kind {
                OpKind::Add => 'A',
                OpKind::Delete => 'D',
                OpKind::Update => 'M',
            };
            s.push_str(&format!("{letter} {}\n", f.target()));
        }
        s
    }
}

impl Patch {
    /// Applies every operation of the patch, reading current file texts through `sources`.
    /// Either every file's result is returned, or the first error: nothing is partially
    /// applied.
    ///
    /// `sources(path)` returns the current bytes of a file the patch reads (the path of every
    /// Update and Delete), or `None` when there is no such file ([`Status::MissingSource`]).
    ///
    /// ```
    /// use std::collections::HashMap;
    /// let patch = v4a::Patch::parse(
    ///     "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+two\n*** Add File: b.txt\n+new\n*** End Patch\n",
    /// ).unwrap();
    /// let files = HashMap::from([("a.txt", "one\n")]);
    /// let result = patch.apply(|p| files.get(p).copied(), &v4a::Options::default()).unwrap();
    /// assert_eq!(result.files[0].applied.text, "two\n");
    /// assert_eq!(result.files[1].applied.text, "new\n");
    /// assert_eq!(result.summary(), "Success. Updated the following files:\nM a.txt\nA b.txt\n");
    /// ```
    pub fn apply<S, F>(&self, mut sources: F, opts: &Options) -> Result<PatchResult, Error>
    where
        S: AsRef<[u8]>,
        F: FnMut(&str) -> Option<S>,
    {
        apply_patch_indexed(self, |_, op| sources(&op.path), opts)
    }

    /// [`Patch::apply`] with the texts the model saw: `bases(path)` returns, for a file the
    /// patch updates, the content it was shown when it wrote the patch (`None`: unknown).
    /// Those files' hunks are located in their base and merged into the current text, as
    /// [`apply_with_base`] does; a hunk whose lines also changed since is a
    /// [`Status::Conflict`] and nothing is applied.
    ///
    /// ```
    /// let patch = v4a::Patch::parse(
    ///     "*** Begin Patch\n*** Update File: a.txt\n@@\n x\n-y\n+Y\n*** End Patch\n",
    /// ).unwrap();
    /// let current = "new first line\nx\ny\n";
    /// let r = patch
    ///     .apply_with_bases(|_| Some(current), |_| Some("x\ny\n"), &v4a::Options::default())
    ///     .unwrap();
    /// assert_eq!(r.files[0].applied.text, "new first line\nx\nY\n");
    /// ```
    pub fn apply_with_bases<S, F, B, G>(
        &self,
        mut sources: F,
        mut bases: G,
        opts: &Options,
    ) -> Result<PatchResult, Error>
    where
        S: AsRef<[u8]>,
        F: FnMut(&str) -> Option<S>,
        B: AsRef<[u8]>,
        G: FnMut(&str) -> Option<B>,
    {
        apply_ops(
            self,
            |_, op| sources(&op.path),
            |_, op| bases(&op.path),
            opts,
        )
    }
}

/// [`Patch::apply`] with sources looked up by operation: `sources(i, op)` returns the current
/// bytes of the file that operation `i` reads (it is called for Update and Delete operations
/// only). For callers that hold sources in an array aligned with `patch.ops`: the C ABI and
/// the workspace layer.
#[doc(hidden)]
pub fn apply_patch_indexed<S, F>(
    patch: &Patch,
    sources: F,
    opts: &Options,
) -> Result<PatchResult, Error>
where
    S: AsRef<[u8]>,
    F: FnMut(usize, &FileOp) -> Option<S>,
{
    apply_ops(patch, sources, |_, _| None::<&[u8]>, opts)
}

/// [`Patch::apply_with_bases`] with sources and bases looked up by operation, as
/// [`apply_patch_indexed`] does (for the C ABI and the workspace layer).
#[doc(hidden)]
pub fn apply_patch_indexed_with_bases<S, F, B, G>(
    patch: &Patch,
    sources: F,
    bases: G,
    opts: &Options,
) -> Result<PatchResult, Error>
where
    S: AsRef<[u8]>,
    F: FnMut(usize, &FileOp) -> Option<S>,
    B: AsRef<[u8]>,
    G: FnMut(usize, &FileOp) -> Option<B>,
{
    apply_ops(patch, sources, bases, opts)
}

/// [`apply_patch_indexed_with_bases`] over sources the caller gives away: each source's
/// buffer becomes the result's `source` instead of being copied, so a file is held twice (its
/// text and the new text), not three times, at the peak. For the workspace layer.
#[doc(hidden)]
pub fn apply_patch_indexed_with_bases_owned<F, B, G>(
    patch: &Patch,
    sources: F,
    bases: G,
    opts: &Options,
) -> Result<PatchResult, Error>
where
    F: FnMut(usize, &FileOp) -> Option<Vec<u8>>,
    B: AsRef<[u8]>,
    G: FnMut(usize, &FileOp) -> Option<B>,
{
    apply_ops_with(patch, sources, bases, Some(|s| s), opts)
}

fn apply_ops<S, F, B, G>(
    patch: &Patch,
    sources: F,
    bases: G,
    opts: &Options,
) -> Result<PatchResult, Error>
where
    S: AsRef<[u8]>,
    F: FnMut(usize, &FileOp) -> Option<S>,
    B: AsRef<[u8]>,
    G: FnMut(usize, &FileOp) -> Option<B>,
{
    apply_ops_with(patch, sources, bases, None, opts)
}

/// The multi-file apply. `own`, when given, turns a source the caller handed over into its
/// buffer, which the result then keeps; without it sources are lent and copied.
fn apply_ops_with<S, F, B, G>(
    patch: &Patch,
    mut sources: F,
    mut bases: G,
    own: Option<fn(S) -> Vec<u8>>,
    opts: &Options,
) -> Result<PatchResult, Error>
where
    S: AsRef<[u8]>,
    F: FnMut(usize, &FileOp) -> Option<S>,
    B: AsRef<[u8]>,
    G: FnMut(usize, &FileOp) -> Option<B>,
{
    opts.validate()?;
    let mut files = Vec::with_capacity(patch.ops.len());
    for (i, op) in patch.ops.iter().enumerate() {
        let applied = match op.kind {
            OpKind::Add => whole_file("", build_add(op.hunks.first(), opts), &op.path, opts),
            OpKind::Delete | OpKind::Update => {
                let src = sources(i, op).ok_or_else(|| missing_source(op))?;
                let base = match op.kind {
                    OpKind::Update => bases(i, op),
                    _ => None,
                };
                apply_to_source(op, src, base.as_ref().map(AsRef::as_ref), own, opts)?
            }
        };
        files.push(FileResult {
            kind: op.kind,
            path: op.path.clone(),
            move_to: op.destination().map(str::to_string),
            applied,
        });
    }
    Ok(PatchResult { files })
}

/// The [`Status::MissingSource`] error of a Delete or Update whose file was not supplied.
fn missing_source(op: &FileOp) -> Error {
    let (verb, hint) = if op.kind == OpKind::Delete {
        (
            "deletes",
            "check the path (if this patch was applied before, the file is already deleted)",
        )
    } else {
        (
            "updates",
            "check the path, or use \"*** Add File:\" to create it",
        )
    };
    Error::new(
        Status::MissingSource,
        format!(
            "{} (patch line {}) {verb} a file that does not exist or was not supplied: {hint}",
            op.path, op.patch_line,
        ),
        Diagnostics {
            path: Some(op.path.clone()),
            patch_line: Some(op.patch_line),
            ..Diagnostics::default()
        },
    )
}

/// Applies a Delete or Update to its source `src` (and, for an Update, the `base` the model
/// saw). `own`, when given, takes an Update's source buffer into the result instead of copying
/// it. The source's encoding is checked before the base's, whose error comes second.
fn apply_to_source<S: AsRef<[u8]>>(
    op: &FileOp,
    src: S,
    base: Option<&[u8]>,
    own: Option<fn(S) -> Vec<u8>>,
    opts: &Options,
) -> Result<ApplyResult<'static>, Error> {
    let base_text = || match base {
        Some(b) => std::str::from_utf8(b)
            .map(Some)
            .map_err(|e| Error::invalid_utf8("base", e).with_path(&op.path)),
        None => Ok(None),
    };
    match own {
        Some(own) if op.kind == OpKind::Update => {
            let source = String::from_utf8(own(src))
                .map_err(|e| Error::invalid_utf8("source", e.utf8_error()).with_path(&op.path))?;
            // The result borrows the buffer, then takes it: never copied.
            let a = update_on(&source, base_text()?, op, opts)?.with_source(Cow::Borrowed(""));
            Ok(a.with_source(Cow::Owned(source)))
        }
        _ => {
            let text = std::str::from_utf8(src.as_ref())
                .map_err(|e| Error::invalid_utf8("source", e).with_path(&op.path))?;
            let a = if op.kind == OpKind::Delete {
                whole_file(text, String::new(), &op.path, opts)
            } else {
                update_on(text, base_text()?, op, opts)?
            };
            // A lent source lives only as long as the call: the result keeps a copy.
            Ok(a.into_owned())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::RefineLimits;

    /// An apply that asks for a diff reads the source's lines from its own line index; the
    /// diff it gives must be the one computed afterwards by scanning the texts, through the
    /// borrowing and the owning call, with a BOM, CRLF, lone CR and no final newline.
    #[test]
    fn the_diff_from_the_apply_index_is_the_scanned_one() {
        let sources = [
            "a\nb\nc\nd\ne\n",
            "\u{feff}a\r\nb\r\nc\r\nd\r\ne",
            "a\rb\rc\nd\r\ne\n",
            "x\na\nb\nc\nd\ne\ny",
        ];
        let patch = "*** Begin Patch\n*** Update File: f\n@@\n a\n-b\n+B b\n c\n@@\n d\n-e\n+E\n+F\n*** End Patch\n";
        let parsed = Patch::parse(patch).expect("the patch parses");
        let limits = RefineLimits::default();
        for source in sources {
            for diff in [
                DiffStyle::Full,
                DiffStyle::Changes { context: 0 },
                DiffStyle::Changes { context: 1 },
            ] {
                for refine in [false, true] {
                    let opts = Options {
                        diff,
                        refine,
                        ..Options::default()
                    };
                    let lent = apply_patch_indexed_with_bases(
                        &parsed,
                        |_, _| Some(source),
                        |_, _| None::<&str>,
                        &opts,
                    )
                    .expect("applies");
                    let owned = apply_patch_indexed_with_bases_owned(
                        &parsed,
                        |_, _| Some(source.as_bytes().to_vec()),
                        |_, _| None::<&str>,
                        &opts,
                    )
                    .expect("applies");
                    for got in [&lent.files[0].applied, &owned.files[0].applied] {
                        assert_eq!(got.source, source);
                        let mut want = got.clone();
                        want.compute_diff_with(diff, refine.then_some(&limits));
                        assert!(!got.diff.is_empty(), "{source:?} {diff:?}");
                        assert_eq!(got.diff, want.diff, "{source:?} {diff:?} {refine}");
                        assert_eq!(got.segments, want.segments, "{source:?} {diff:?}");
                        if !refine {
                            assert!(got.segments.is_empty(), "{source:?} {diff:?}");
                        }
                    }
                }
            }
        }
    }
}
