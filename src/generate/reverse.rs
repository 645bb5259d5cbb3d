//! Reverse patches: the patch that undoes a patch, written from the files before it was applied
//! ([`Patch::reverse`]) or from the files after ([`Patch::reverse_applied`], what
//! `git apply -R` users have).

use std::fmt::Write as _;

use super::{add_section, update_section, GenerateOptions};
use crate::apply::FileResult;
use crate::error::{Diagnostics, Error, Status};
use crate::options::Options;
use crate::patch::{FileOp, Hunk, LineKind, OpKind, Patch};

impl Patch {
    /// Writes the patch that undoes the patch, given the sources it is applied to (the files
    /// *before* the patch): Add ↔ Delete, moves back, and each updated file's change inverted
    /// (regenerated against the patched text, so fuzzy matches invert exactly). Operations come
    /// in reverse order.
    ///
    /// A reverse that would be empty is an error, never a silently empty patch: when a hunk is
    /// already applied in these sources (they are the files *after* the patch), an
    /// [`Status::AlreadyApplied`] error pointing to [`Patch::reverse_applied`].
    ///
    /// ```
    /// let patch = v4a::Patch::parse("*** Begin Patch\n*** Update File: a\n@@\n-x\n+y\n*** End Patch\n").unwrap();
    /// let undo = patch.reverse(|_| Some("x\n"), &v4a::Options::default()).unwrap();
    /// assert_eq!(undo, "*** Begin Patch\n*** Update File: a\n@@\n-y\n+x\n*** End Patch\n");
    /// ```
    pub fn reverse<S, F>(&self, sources: F, opts: &Options) -> Result<String, Error>
    where
        S: AsRef<[u8]>,
        F: FnMut(&str) -> Option<S>,
    {
        let patch = self;
        let result = patch.apply(sources, opts)?;
        if changes_nothing(&result.files) {
            return Err(nothing_to_reverse(
                patch,
                &result.files,
                "is already applied: these files look patched. Reverse the patch from the files \
                 after it (`v4a reverse --applied`, `reverse_applied`)",
            ));
        }
        write_reverse(&result.files, |f| {
            Ok((f.applied.text.as_str(), &*f.applied.source))
        })
    }

    /// Writes the patch that undoes the patch, given the files *after* it was applied: the hunks
    /// are inverted and located in those files (with the usual rules: a hunk lands where it is
    /// unique, or this fails), which gives back the text before the patch; the reverse is then
    /// regenerated from the two texts. Operations come in reverse order.
    ///
    /// `after` is looked up by the path each operation wrote (a move's destination). A patch
    /// whose changes are not in these files is an error that says which hunk is missing; a
    /// `*** Delete File` cannot be reversed from the files after it (the patch does not carry
    /// the deleted text), which is an [`Status::InvalidArgument`] error naming the file, and
    /// so is a hunk that only deletes lines, without a context line (nothing after the patch
    /// says where they were).
    ///
    /// ```
    /// let patch = v4a::Patch::parse("*** Begin Patch\n*** Update File: a\n@@\n-x\n+y\n*** End Patch\n").unwrap();
    /// let undo = patch.reverse_applied(|_| Some("y\n"), &v4a::Options::default()).unwrap();
    /// assert_eq!(undo, "*** Begin Patch\n*** Update File: a\n@@\n-y\n+x\n*** End Patch\n");
    /// ```
    pub fn reverse_applied<S, F>(&self, after: F, opts: &Options) -> Result<String, Error>
    where
        S: AsRef<[u8]>,
        F: FnMut(&str) -> Option<S>,
    {
        let patch = self;
        let result = inverse_patch(patch)?.apply(after, opts)?;
        if changes_nothing(&result.files) {
            return Err(nothing_to_reverse(
                patch,
                &result.files,
                "is not applied in these files (its old lines are there, its new lines are not): \
                 they look unpatched. Reverse the patch from the files before it",
            ));
        }
        // `result` maps after → before; the reverse patch turns the after text into the before
        // text and moves it back.
        let files: Vec<FileResult> = patch
            .ops
            .iter()
            .zip(result.files)
            .map(|(op, f)| FileResult {
                kind: op.kind,
                path: op.path.clone(),
                move_to: op.destination().map(str::to_string),
                applied: f.applied,
            })
            .collect();
        check_round_trip(patch, &files, opts)?;
        write_reverse(&files, |f| {
            // Here `applied.source` is the after text and `applied.text` the before text.
            Ok((&*f.applied.source, f.applied.text.as_str()))
        })
    }
}

/// The files a reverse from the files after the patch would give back are the files before
/// it only if the patch, applied to them, gives the files after it again. A change can leave
/// no trace to undo: an empty line appended to a file without a final newline only
/// terminates its last line (SPEC §4 keeps the missing final newline), and the inverse then
/// deletes some other empty line. Such a reverse is refused rather than given.
fn check_round_trip(patch: &Patch, files: &[FileResult], opts: &Options) -> Result<(), Error> {
    // `files[i]` is operation `i` of `patch`; an Update's `applied.text` is its text before.
    let before = |path: &str| {
        patch
            .ops
            .iter()
            .zip(files)
            .find(|(op, _)| op.kind == OpKind::Update && op.path == path)
            .map(|(_, f)| f.applied.text.as_bytes())
    };
    let forward = patch.apply(before, opts);
    for (i, (op, f)) in patch.ops.iter().zip(files).enumerate() {
        let again = forward.as_ref().ok().and_then(|r| r.files.get(i));
        let gives_after = again.is_some_and(|g| g.applied.text == f.applied.source);
        if op.kind == OpKind::Update && !gives_after {
            return Err(Error::new(
                Status::InvalidArgument,
                format!(
                    "cannot reverse \"*** Update File: {}\" from the files after the patch: \
                     its change leaves no trace there to undo (the patch, applied to the file \
                     a reverse would give, does not give this file back; for example an empty \
                     line added at the end of a file without a final newline only ends its \
                     last line). Reverse it from the files before the patch",
                    op.path
                ),
                op_diagnostics(op, None),
            ));
        }
    }
    Ok(())
}

/// The inverse of `patch`, which applied to the files after the patch gives the files before
/// it: each operation inverted by [`inverse_op`]. An Add's inverse is a move onto itself
/// without hunks: the file unchanged, and a MISSING_SOURCE error when the added file is not
/// there.
fn inverse_patch(patch: &Patch) -> Result<Patch, Error> {
    Ok(Patch {
        ops: patch.ops.iter().map(inverse_op).collect::<Result<_, _>>()?,
        has_file_headers: true,
    })
}

/// The inverse of one operation: an Update's hunks with `-` and `+` swapped, at the path it
/// wrote; an Add's check that the file is there. A Delete, or an Update with a hunk of `-`
/// lines alone, cannot be inverted from the files after the patch: an error that says so.
fn inverse_op(op: &FileOp) -> Result<FileOp, Error> {
    match op.kind {
        OpKind::Delete => Err(Error::new(
            Status::InvalidArgument,
            format!(
                "cannot reverse \"*** Delete File: {}\" from the files after the patch: \
                 the patch does not carry the deleted text. Reverse it from the files \
                 before the patch",
                op.path
            ),
            op_diagnostics(op, None),
        )),
        // Deleting an added file needs its text only to check it is there.
        OpKind::Add => Ok(FileOp {
            kind: OpKind::Update,
            path: op.path.clone(),
            move_to: Some(op.path.clone()),
            hunks: Vec::new(),
            patch_line: op.patch_line,
        }),
        // A hunk of `-` lines alone inverts to a pure insertion, which the files after the
        // patch cannot place: it would land after its anchor or at the end of the file, not
        // where the lines were.
        OpKind::Update => match op.hunks.iter().position(deletes_without_context) {
            Some(i) => Err(Error::new(
                Status::InvalidArgument,
                format!(
                    "cannot reverse hunk {} of \"*** Update File: {}\" from the files \
                     after the patch: it only deletes lines, without a context line, so \
                     nothing in the files after it says where they were. Reverse it from \
                     the files before the patch",
                    i + 1,
                    op.path
                ),
                op_diagnostics(op, Some(i)),
            )),
            None => Ok(FileOp {
                kind: OpKind::Update,
                path: op.target().to_string(),
                move_to: None,
                hunks: op.hunks.iter().map(inverted).collect(),
                patch_line: op.patch_line,
            }),
        },
    }
}

/// The reverse patch of `files` (in reverse order), given for each file its text after the
/// patch and before it.
fn write_reverse<'a>(
    files: &'a [FileResult],
    after_before: impl Fn(&'a FileResult) -> Result<(&'a str, &'a str), Error>,
) -> Result<String, Error> {
    let gen = GenerateOptions::default();
    let mut s = String::from("*** Begin Patch\n");
    for f in files.iter().rev() {
        let (after, before) = after_before(f)?;
        match f.kind {
            OpKind::Add => {
                let _ = writeln!(s, "*** Delete File: {}", f.path);
            }
            OpKind::Delete => s.push_str(&add_section(&f.path, before)),
            OpKind::Update => s.push_str(&update_section(
                after,
                before,
                f.target(),
                Some(&f.path),
                &gen,
            )?),
        }
    }
    s.push_str("*** End Patch\n");
    Ok(s)
}

/// True when a hunk only deletes lines (no context line, no added line): its inverse has an
/// empty old side.
fn deletes_without_context(h: &Hunk) -> bool {
    !h.lines.is_empty() && h.lines.iter().all(|l| l.kind == LineKind::Delete)
}

/// A hunk with its `-` and `+` lines swapped (and their no-newline markers).
fn inverted(h: &Hunk) -> Hunk {
    let mut h = h.clone();
    for l in &mut h.lines {
        l.kind = match l.kind {
            LineKind::Add => LineKind::Delete,
            LineKind::Delete => LineKind::Add,
            LineKind::Context => LineKind::Context,
        };
    }
    std::mem::swap(&mut h.old_no_newline, &mut h.new_no_newline);
    h
}

fn op_diagnostics(op: &FileOp, hunk: Option<usize>) -> Diagnostics {
    Diagnostics {
        patch_line: Some(hunk.map_or(op.patch_line, |i| op.hunks[i].patch_line)),
        hunk: hunk.and_then(Diagnostics::hunk_number),
        path: Some(op.path.clone()),
        ..Diagnostics::default()
    }
}

/// True when the reverse would be empty: no file is added or deleted and no text changes.
fn changes_nothing(files: &[FileResult]) -> bool {
    files
        .iter()
        .all(|f| f.kind == OpKind::Update && f.move_to.is_none() && !f.applied.changed())
}

/// The error for a reverse that would be empty: the first already-applied hunk says which
/// state the files are in, else the patch changes nothing.
fn nothing_to_reverse(patch: &Patch, files: &[FileResult], what: &str) -> Error {
    for (op, f) in patch.ops.iter().zip(files) {
        if let Some(i) = f.applied.hunks.iter().position(|h| h.already_applied) {
            return not_in_state(op, i, what);
        }
    }
    Error::simple(
        Status::InvalidArgument,
        "the patch changes nothing, so there is nothing to reverse",
    )
}

/// The error for a hunk found in the other state than the one the caller said.
fn not_in_state(op: &FileOp, hunk: usize, what: &str) -> Error {
    Error::new(
        Status::AlreadyApplied,
        format!(
            "hunk {} of {} (patch line {}) {what}",
            hunk + 1,
            op.path,
            op.hunks[hunk].patch_line
        ),
        op_diagnostics(op, Some(hunk)),
    )
}
