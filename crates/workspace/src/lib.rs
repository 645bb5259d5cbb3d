//! # v4a-workspace
//!
//! Applies a parsed V4A patch to a directory (SPEC §5.2), on top of the pure `v4a` engine:
//!
//! - **confined by construction**: every path component is opened relative to the directory
//!   handle before it with `O_NOFOLLOW`; `..` is resolved lexically before any access;
//!   symbolic links inside the root are read and resolved lexically (never by the kernel), a
//!   link that is absolute or leaves the root is refused; all later work (reading, the
//!   temporary file, the rename, the removal) goes through the handles taken then, so a
//!   directory swapped for a link cannot redirect it; `.git/`, `.hg/`, `.svn/` are refused
//!   unless allowed;
//! - **all or nothing, even across a crash**: results are computed in memory first; files are
//!   replaced through temporary files in their own directories; an intent journal
//!   (`ROOT/.v4a/journal`) lets the next call, or [`Workspace::recover`], finish or undo an
//!   interrupted apply; a rollback puts back the original inodes and never removes a file
//!   that existed before;
//! - **no lost updates**: each file's identity and fingerprint are checked again before it
//!   is replaced (`CHANGED_ON_DISK`); a lock per root (`ROOT/.v4a/lock`) serialises applies;
//! - **private and faithful**: temporary files are 0600 from the first byte; owner, group,
//!   mode (setuid/setgid while the owner stays), extended attributes are kept; read-only
//!   files are refused unless allowed; `FILE_EXISTS` for an Add or Move onto a file.
//!
//! ```
//! use v4a_workspace::{Workspace, WorkspaceOptions, FileChange};
//!
//! let dir = tempfile::tempdir().unwrap();
//! std::fs::write(dir.path().join("a.txt"), "one\n").unwrap();
//! let patch = v4a::Patch::parse(
//!     "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+two\n*** Add File: b/c.txt\n+new\n*** End Patch\n",
//! ).unwrap();
//! let ws = Workspace::open(dir.path()).unwrap();
//! let outcome = ws.apply(&patch, &WorkspaceOptions::default()).unwrap();
//! assert_eq!(outcome.files[0].change, FileChange::Modified);
//! assert_eq!(outcome.files[1].change, FileChange::Added);
//! assert_eq!(std::fs::read_to_string(dir.path().join("a.txt")).unwrap(), "two\n");
//! assert!(!dir.path().join(".v4a").exists()); // lock and journal are gone
//! ```
//!
//! The layer needs a Unix-like system (Linux, macOS, the BSDs): it is built on `openat`-style
//! calls through `rustix`. Why, and what each promise rests on: `docs/workspace.md`. Elsewhere
//! (Windows) the crate compiles with the same API, and [`Workspace::open`] fails with an
//! [`Error::Io`] of kind `Unsupported` that says so.

#![warn(missing_docs)]
// Without the Unix implementation, some shared helpers have no caller.
#![cfg_attr(not(unix), allow(dead_code))]

#[cfg(unix)]
mod attrs;
#[cfg(unix)]
mod commit;
mod error;
#[cfg(unix)]
mod fsys;
#[cfg(unix)]
mod hooks;
#[cfg(unix)]
mod journal;
#[cfg(unix)]
mod lock;
mod path;
#[cfg(unix)]
mod prepare;
#[cfg(not(unix))]
mod unsupported;

#[cfg(unix)]
use std::hash::RandomState;
#[cfg(unix)]
use std::os::fd::OwnedFd;
#[cfg(unix)]
use std::path::{Path, PathBuf};
use std::time::Duration;

#[cfg(unix)]
use v4a::{FileOp, OpKind, Patch, Status};
use v4a::{Options, PatchResult};

pub use error::{Error, Result};
pub use path::{escape_message, escape_path, STATE_DIR, VCS_DIRS};
#[cfg(not(unix))]
pub use unsupported::Workspace;

#[cfg(unix)]
use attrs::Attrs;
#[cfg(unix)]
use commit::{Step, StepKind};
#[cfg(unix)]
use lock::Lock;
#[cfg(unix)]
use prepare::{OpPlan, Target};

/// How an apply treats the files it meets.
#[derive(Clone, Debug)]
pub struct WorkspaceOptions {
    /// The engine's options (matching levels, fuzz, line endings, the structured diff).
    pub engine: Options,
    /// `*** Add File` and `*** Move to` may replace an existing file (default: `FILE_EXISTS`).
    pub allow_overwrite: bool,
    /// Read-only files may be changed and removed (default: refused).
    pub allow_read_only: bool,
    /// Paths inside `.git/`, `.hg/`, `.svn/` may be written (default: `UNSAFE_PATH`).
    pub allow_vcs: bool,
    /// How long an apply waits for another apply on the same root to finish before it fails
    /// with `LOCKED` (default 5 s).
    pub lock_wait: Duration,
    /// The texts the model saw, by path as the patch writes it (base-aware apply: the hunks
    /// of an Update whose path is here are located in its base and merged into the current
    /// file; a change that touches one made since is `CONFLICT`). Empty by default.
    pub bases: std::collections::HashMap<String, Vec<u8>>,
}

impl Default for WorkspaceOptions {
    fn default() -> Self {
        WorkspaceOptions {
            engine: Options::default(),
            allow_overwrite: false,
            allow_read_only: false,
            allow_vcs: false,
            lock_wait: Duration::from_secs(5),
            bases: std::collections::HashMap::new(),
        }
    }
}

/// What an operation did to its file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FileChange {
    /// A new file was created (or, when allowed, an existing one replaced by an Add).
    Added,
    /// The file's content changed in place.
    Modified,
    /// The file moved to its destination (with or without edits).
    Moved,
    /// The file was removed.
    Deleted,
    /// Nothing to do: every hunk was already applied, or the Add's file already holds exactly
    /// that text. Not written, not listed as modified.
    Unchanged,
}

/// The outcome of one file operation.
#[derive(Clone, Debug)]
pub struct FileOutcome {
    /// What happened to the file (in a preview: what would happen).
    pub change: FileChange,
    /// The file is not UTF-8 text (or is a link being deleted): deleted or moved as bytes;
    /// the engine's result for it holds no text.
    pub binary: bool,
    /// 0-based indexes of the hunks found already applied.
    pub already_applied: Vec<usize>,
    /// The file the operation names, as a root-relative path with `.`, `..` and links
    /// resolved: one key per file, whatever the patch's spelling (for callers that keep a
    /// record per file, like the MCP server's record of what the model was shown).
    pub source_key: String,
    /// Where the new text goes, in the same form (the destination of a move); `None` for a
    /// deletion.
    pub target_key: Option<String>,
}

/// A file read by [`Workspace::read_file`].
#[derive(Clone, Debug)]
pub struct FileRead {
    /// The file's root-relative path with links resolved (as [`FileOutcome::source_key`]).
    pub key: String,
    /// Its size when it was looked up.
    pub size: u64,
    /// Its bytes; `None` when it is larger than the limit asked for.
    pub bytes: Option<Vec<u8>>,
}

/// The outcome of an apply or a preview.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The engine's results, one per operation, in patch order (diffs, hunk reports).
    pub result: PatchResult,
    /// What each operation did, aligned with `result.files`.
    pub files: Vec<FileOutcome>,
    /// True when the files were written (false for a preview, or when nothing changed).
    pub written: bool,
    /// An interrupted apply that this call recovered first.
    pub recovered: Option<Recovery>,
    /// Attributes that could not be kept (an owner only root can give back), and cleanup
    /// that will be finished by the next call.
    pub notes: Vec<String>,
}

impl Outcome {
    /// The summary other engines print, which models know: `Success. Updated the following
    /// files:` then `A path` / `M path` / `D path` lines (a move as `M destination`); files
    /// left unchanged are not listed as modified but said as such, and so are hunks already
    /// applied. Paths have their control characters escaped.
    pub fn summary(&self) -> String {
        let mut s = String::from("Success. Updated the following files:\n");
        let mut tail = String::new();
        for (f, o) in self.result.files.iter().zip(&self.files) {
            let shown = escape_path(f.target());
            let letter = match o.change {
                FileChange::Added => 'A',
                FileChange::Deleted => 'D',
                FileChange::Modified | FileChange::Moved => 'M',
                _ if !o.already_applied.is_empty() => {
                    tail.push_str(&format!("Already applied, left unchanged: {shown}\n"));
                    continue;
                }
                _ => {
                    tail.push_str(&format!(
                        "Unchanged: {shown} (it already holds what the patch writes)\n"
                    ));
                    continue;
                }
            };
            s.push_str(&format!("{letter} {shown}\n"));
            if !o.already_applied.is_empty() {
                let n: Vec<String> = o
                    .already_applied
                    .iter()
                    .map(|h| (h + 1).to_string())
                    .collect();
                tail.push_str(&format!("{shown}: hunk {} already applied\n", n.join(", ")));
            }
        }
        s.push_str(&tail);
        s
    }
}

/// How an interrupted apply was recovered.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RecoveryAction {
    /// It had not committed: every file is as it was before it.
    Undone,
    /// It had committed: every file is new; its cleanup was finished.
    Finished,
}

/// What [`Workspace::recover`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recovery {
    /// Undone or finished.
    pub action: RecoveryAction,
    /// The files put back (undone) or completed (finished), as the patch wrote them.
    pub files: Vec<String>,
}

/// A directory that patches apply to, held open by a handle.
#[cfg(unix)]
#[derive(Debug)]
pub struct Workspace {
    root: OwnedFd,
    path: PathBuf,
}

#[cfg(unix)]
impl Workspace {
    /// Opens the root directory. Later renames of the directory do not move the workspace:
    /// it is the directory opened now.
    pub fn open(root: impl AsRef<Path>) -> Result<Workspace> {
        let path = root.as_ref().to_path_buf();
        let fd = fsys::open_root(&path).map_err(|e| {
            Error::io(
                None,
                &format!(
                    "open the directory {}",
                    escape_path(&path.to_string_lossy())
                ),
                e,
            )
        })?;
        Ok(Workspace { root: fd, path })
    }

    /// The root as given to [`Workspace::open`].
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Applies `patch`: every operation is computed in memory, checked, then written in one
    /// crash-safe transaction under the root's lock. Either every file is written, or none
    /// is (the error says why).
    pub fn apply(&self, patch: &Patch, opts: &WorkspaceOptions) -> Result<Outcome> {
        let lock = Lock::acquire(&self.root, opts.lock_wait)?;
        let result = self.apply_locked(patch, opts, &lock);
        lock.release(&self.root);
        result
    }

    /// Computes what [`Workspace::apply`] would do, with every check it makes before writing
    /// (paths, `FILE_EXISTS`, read-only files), and writes nothing.
    pub fn preview(&self, patch: &Patch, opts: &WorkspaceOptions) -> Result<Outcome> {
        if let Some(state) = lock::open_state_dir(&self.root, false)? {
            if matches!(journal::load(&state), Ok(Some(_))) {
                return Err(Error::status_at(
                    Status::Locked,
                    None,
                    None,
                    "an earlier apply was interrupted (.v4a/journal exists): run `v4a recover` \
                     (or apply, which recovers first); nothing was changed"
                        .into(),
                ));
            }
        }
        let hasher = RandomState::new();
        let plans = prepare::prepare(&self.root, patch, opts, &hasher, None)?;
        let (outcome, _) = compute(patch, plans, opts)?;
        Ok(outcome)
    }

    /// Finishes or undoes an apply that a crash interrupted (nothing to do: `Ok(None)`).
    /// After it, every file of that apply is all old or all new, and the journal and the
    /// lock are gone.
    pub fn recover(&self) -> Result<Option<Recovery>> {
        let lock = Lock::acquire(&self.root, Duration::from_secs(5))?;
        let r = recover_locked(&self.root, &lock.state);
        lock.release(&self.root);
        r
    }

    /// Reads a file under the root, with the confinement of an apply (for read tools).
    pub fn read(&self, path: &str, opts: &WorkspaceOptions) -> Result<Vec<u8>> {
        let patch = Patch {
            ops: vec![FileOp {
                kind: OpKind::Update,
                path: path.to_string(),
                move_to: None,
                hunks: Vec::new(),
                patch_line: 0,
            }],
            has_file_headers: true,
        };
        let hasher = RandomState::new();
        let mut plans = prepare::prepare(&self.root, &patch, opts, &hasher, None)?;
        match plans.pop().and_then(|p| p.bytes) {
            Some(b) => Ok(b),
            None => Err(Error::status_at(
                Status::MissingSource,
                Some(path),
                None,
                format!("{} does not exist", escape_path(path)),
            )),
        }
    }

    /// Reads a file for a read tool, with the confinement of an apply: `Ok` with `bytes: None`
    /// when the file is larger than `max_bytes` (nothing is read then). A missing file is
    /// `MISSING_SOURCE`, a directory or special file a `PathConflict`.
    pub fn read_file(
        &self,
        path: &str,
        max_bytes: u64,
        opts: &WorkspaceOptions,
    ) -> Result<FileRead> {
        let op = FileOp {
            kind: OpKind::Update,
            path: path.to_string(),
            move_to: None,
            hunks: Vec::new(),
            patch_line: 0,
        };
        let loc = prepare::locate(&self.root, path, &op, true, opts)?;
        let key = loc.real_comps().join("/");
        let m = match loc.entry {
            None => {
                return Err(Error::status_at(
                    Status::MissingSource,
                    Some(path),
                    None,
                    format!("{} does not exist", escape_path(path)),
                ))
            }
            Some(m) if m.kind != fsys::Kind::File => {
                return Err(Error::PathConflict {
                    path: path.to_string(),
                    patch_line: 0,
                    message: format!("{} is not a regular file", escape_path(path)),
                })
            }
            Some(m) => m,
        };
        if m.size > max_bytes {
            return Ok(FileRead {
                key,
                size: m.size,
                bytes: None,
            });
        }
        let fd = fsys::open_file(&*loc.dir, &loc.name)
            .map_err(|e| Error::io(Some(path), &format!("read {}", escape_path(path)), e))?;
        let mut bytes = Vec::with_capacity(m.size as usize);
        use std::io::Read as _;
        std::fs::File::from(fd)
            .take(max_bytes.saturating_add(1))
            .read_to_end(&mut bytes)
            .map_err(|e| Error::io(Some(path), &format!("read {}", escape_path(path)), e))?;
        let size = bytes.len() as u64;
        Ok(FileRead {
            key,
            size,
            bytes: (size <= max_bytes).then_some(bytes),
        })
    }

    fn apply_locked(&self, patch: &Patch, opts: &WorkspaceOptions, lock: &Lock) -> Result<Outcome> {
        let recovered = recover_locked(&self.root, &lock.state)?;
        let hasher = RandomState::new();
        // Files last changed before the lock was taken need no content hash (their ctime
        // pins them); the others are hashed.
        let plans = prepare::prepare(&self.root, patch, opts, &hasher, lock.stamp())?;
        let (mut outcome, work) = compute(patch, plans, opts)?;
        outcome.recovered = recovered;
        let steps = work.steps(patch, &outcome, opts)?;
        if !steps.is_empty() {
            outcome.notes = commit::commit(&self.root, &lock.state, &steps, &hasher)?;
            outcome.written = true;
        }
        Ok(outcome)
    }
}

#[cfg(unix)]
fn recover_locked(root: &OwnedFd, state: &OwnedFd) -> Result<Option<Recovery>> {
    // A journal being written when the apply died was never in force.
    journal::remove_tmp(state);
    let j = match journal::load(state) {
        Ok(None) => return Ok(None),
        Ok(Some(Ok(j))) => j,
        Ok(Some(Err(_))) => {
            // A journal is stored by rename, so a torn one was never a journal: an apply that
            // died while writing its first one had not touched anything yet.
            journal::remove(state, true).map_err(|e| Error::io(None, "remove .v4a/journal", e))?;
            return Ok(None);
        }
        Err(e) => return Err(Error::io(None, "read the intent journal .v4a/journal", e)),
    };
    let (action, replay) = match j.state {
        journal::State::Commit => (RecoveryAction::Finished, journal::finish(root, &j, true)),
        _ => (RecoveryAction::Undone, journal::undo(root, &j)),
    };
    if !replay.problems.is_empty() {
        return Err(Error::Io {
            path: None,
            message: format!(
                "cannot recover the interrupted apply of .v4a/journal: {}",
                escape_message(&replay.problems.join("; "))
            ),
            kind: std::io::ErrorKind::Other,
            needs_recovery: true,
        });
    }
    journal::remove(state, true).map_err(|e| Error::io(None, "remove .v4a/journal", e))?;
    Ok(Some(Recovery {
        action,
        files: replay.files,
    }))
}

#[cfg(unix)]
/// The located operations and the bytes that binary moves write.
struct Work {
    plans: Vec<OpPlan>,
}

#[cfg(unix)]
/// Runs the engine over the sources and decides what each operation does.
fn compute(
    patch: &Patch,
    mut plans: Vec<OpPlan>,
    opts: &WorkspaceOptions,
) -> Result<(Outcome, Work)> {
    let result = v4a::apply_patch_indexed_with_bases_owned(
        patch,
        |i, op| {
            let plan = plans.get_mut(i)?;
            if plan.binary {
                // Only a Delete or a Move without edits may touch a file that is not text.
                let needs_text = op.kind == OpKind::Update && !op.hunks.is_empty();
                if needs_text {
                    return plan.bytes.clone();
                }
                return plan.path.fp.map(|_| Vec::new());
            }
            // The engine keeps our copy of the text as the result's source: ours goes to it.
            match op.kind {
                OpKind::Add => None,
                _ => plan.path.fp.map(|_| plan.bytes.take().unwrap_or_default()),
            }
        },
        |_, op| match op.kind {
            OpKind::Update => opts.bases.get(&op.path),
            _ => None,
        },
        &opts.engine,
    )
    .map_err(utf8_message)?;
    let mut files = Vec::with_capacity(result.files.len());
    for ((f, plan), op) in result.files.iter().zip(&plans).zip(&patch.ops) {
        let already: Vec<usize> = f
            .applied
            .hunks
            .iter()
            .enumerate()
            .filter_map(|(i, h)| h.already_applied.then_some(i))
            .collect();
        let change = match op.kind {
            OpKind::Add => match &plan.bytes {
                Some(b) if b.as_slice() == f.applied.text.as_bytes() => FileChange::Unchanged,
                _ if plan.path.fp.is_some() && !opts.allow_overwrite => {
                    return Err(prepare::file_exists(op, &op.path, "*** Add File"));
                }
                _ => FileChange::Added,
            },
            OpKind::Delete => FileChange::Deleted,
            OpKind::Update if plan.dest.is_some() => FileChange::Moved,
            OpKind::Update if !plan.binary && f.applied.text == f.applied.source => {
                FileChange::Unchanged
            }
            OpKind::Update => FileChange::Modified,
        };
        let target = match (&plan.dest, op.kind) {
            (_, OpKind::Delete) => None,
            (Some(d), _) => Some(d.loc.real_comps().join("/")),
            (None, _) => Some(plan.path.loc.real_comps().join("/")),
        };
        files.push(FileOutcome {
            change,
            binary: plan.binary && op.kind != OpKind::Add,
            already_applied: already,
            source_key: plan.path.loc.real_comps().join("/"),
            target_key: target,
        });
    }
    Ok((
        Outcome {
            result,
            files,
            written: false,
            recovered: None,
            notes: Vec::new(),
        },
        Work { plans },
    ))
}

#[cfg(unix)]
/// The engine's "not valid UTF-8" for a source, said for a file on disk.
fn utf8_message(e: v4a::Error) -> Error {
    let d = e.diagnostics();
    if e.status() == Status::InvalidUtf8 && d.input.as_deref() == Some("source") {
        if let Some(path) = d.path.clone() {
            let msg = format!(
                "{} is not UTF-8 text (invalid byte at offset {}): a patch can edit only UTF-8 \
                 files (it can still delete the file, or move it without edits); nothing was \
                 changed",
                escape_path(&path),
                d.byte_offset.unwrap_or(0)
            );
            return Error::Patch(v4a::Error::new(e.status(), msg, d.clone()));
        }
    }
    Error::Patch(e)
}

#[cfg(unix)]
fn umask_mode() -> u32 {
    0o666 & !fsys::umask()
}

#[cfg(unix)]
impl Work {
    /// The writes (in patch order) and then the removals.
    fn steps<'a>(
        &'a self,
        patch: &'a Patch,
        outcome: &'a Outcome,
        opts: &WorkspaceOptions,
    ) -> Result<Vec<Step<'a>>> {
        let mut writes = Vec::new();
        let mut removals = Vec::new();
        for (((op, plan), f), o) in patch
            .ops
            .iter()
            .zip(&self.plans)
            .zip(&outcome.result.files)
            .zip(&outcome.files)
        {
            if o.change == FileChange::Unchanged {
                continue;
            }
            let text = f.applied.text.as_bytes();
            match op.kind {
                OpKind::Add => {
                    if let (Some(fp), true) = (&plan.path.fp, plan.bytes.is_some()) {
                        prepare::check_writable(&plan.path.loc, fp.meta, &op.path, op, opts)?;
                    }
                    let attrs = match &plan.path.fp {
                        Some(fp) if fp.meta.kind == fsys::Kind::File => Attrs::Like(fp.meta),
                        _ => Attrs::New { mode: umask_mode() },
                    };
                    writes.push(write(op, &op.path, &plan.path, text, attrs, None));
                }
                OpKind::Delete => removals.push(remove(op, &op.path, &plan.path)?),
                OpKind::Update => {
                    let source = &plan.path;
                    let fp = source.fp.as_ref().ok_or_else(|| missing(op))?;
                    match (&plan.dest, op.move_to.as_deref()) {
                        (Some(dest), Some(to)) => {
                            let bytes: &[u8] = if plan.binary {
                                plan.bytes.as_deref().unwrap_or_default()
                            } else {
                                text
                            };
                            let mut w =
                                write(op, to, dest, bytes, Attrs::Like(fp.meta), Some(&source.loc));
                            if let StepKind::Write { replaces, .. } = &mut w.kind {
                                *replaces = dest.fp.as_ref();
                            }
                            writes.push(w);
                            removals.push(remove(op, &op.path, source)?);
                        }
                        _ => writes.push(write(
                            op,
                            &op.path,
                            source,
                            text,
                            Attrs::Like(fp.meta),
                            Some(&source.loc),
                        )),
                    }
                }
            }
        }
        writes.extend(removals);
        Ok(writes)
    }
}

#[cfg(unix)]
fn missing(op: &FileOp) -> Error {
    Error::status_at(
        Status::MissingSource,
        Some(&op.path),
        Some(op.patch_line),
        format!("{} does not exist", escape_path(&op.path)),
    )
}

#[cfg(unix)]
fn write<'a>(
    op: &FileOp,
    shown: &'a str,
    t: &'a Target,
    new: &'a [u8],
    attrs: Attrs,
    attrs_from: Option<&'a fsys::Located>,
) -> Step<'a> {
    Step {
        shown,
        patch_line: op.patch_line,
        loc: &t.loc,
        kind: StepKind::Write {
            new,
            attrs,
            attrs_from,
            replaces: t.fp.as_ref(),
        },
    }
}

#[cfg(unix)]
fn remove<'a>(op: &FileOp, shown: &'a str, t: &'a Target) -> Result<Step<'a>> {
    let fp = t.fp.as_ref().ok_or_else(|| missing(op))?;
    Ok(Step {
        shown,
        patch_line: op.patch_line,
        loc: &t.loc,
        kind: StepKind::Remove { fp },
    })
}
