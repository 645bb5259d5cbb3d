//! The one door through which the MCP server touches the files under its root: reading a file
//! for `read_file`, and applying a parsed patch (or previewing it). Nothing else in the server
//! opens, writes or removes a file.
//!
//! Today it calls the command's own directory code (`crate::workspace` resolves and confines
//! the paths and reads the sources, `crate::write` replaces the files); the workspace layer of
//! SPEC §5.2 replaces both, and then only this file changes. Writes are serialised: one apply
//! at a time reads, computes and writes, so two concurrent calls never drop each other's edit.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use v4a::{Options, Patch, PatchResult};

use crate::failure::Failure;
use crate::workspace::{Entry, Workspace};

/// The directory the server serves.
pub struct Root {
    workspace: Workspace,
    /// Held while an apply reads, computes and writes.
    writes: Mutex<()>,
}

/// A patch applied (or previewed) under the root.
pub struct Applied {
    /// The engine's result, one file per operation.
    pub result: PatchResult,
    /// One per operation: where the file the operation read lives (its key in the server's
    /// record of what the model was shown), the bytes it read, and where the result went.
    pub files: Vec<Touched>,
}

/// One operation's file, resolved.
pub struct Touched {
    /// The file the operation read or replaced (every link followed).
    pub source: PathBuf,
    /// Its bytes before the apply (`None` for an added file).
    pub before: Option<Vec<u8>>,
    /// Where the new text went (the destination of a move; `None` for a deletion).
    pub target: Option<PathBuf>,
}

/// A file read for the model.
pub struct Read {
    /// Where it lives (every link followed): the key of the record of what was shown.
    pub key: PathBuf,
    /// Its text.
    pub text: String,
}

impl Root {
    /// Opens `dir` (which must be a directory).
    pub fn open(dir: &Path) -> Result<Root, Failure> {
        Ok(Root {
            workspace: Workspace::open(dir)?,
            writes: Mutex::new(()),
        })
    }

    /// Applies `patch` to the files under the root, or (`dry_run`) computes the result and
    /// writes nothing. Either every file is written or none is.
    pub fn apply(&self, patch: &Patch, opts: &Options, dry_run: bool) -> Result<Applied, Failure> {
        // A preview reads only; an apply holds the lock from the first read to the last write.
        let _guard = (!dry_run).then(|| self.lock());
        let prepared = self.workspace.prepare(patch)?;
        let result = v4a::apply_patch_indexed(patch, |i, _| prepared.sources[i].as_deref(), opts)?;
        let files = prepared
            .ops
            .iter()
            .zip(&prepared.sources)
            .zip(&patch.ops)
            .map(|((paths, before), op)| Touched {
                source: paths.path.real.clone(),
                before: before.clone(),
                target: match op.kind {
                    v4a::OpKind::Delete => None,
                    _ => Some(paths.move_to.as_ref().unwrap_or(&paths.path).real.clone()),
                },
            })
            .collect();
        if !dry_run {
            crate::write::Plan::new(&result, &prepared)?.execute()?;
        }
        Ok(Applied { result, files })
    }

    /// Reads the text of the file at `path` (relative to the root, confined to it like a
    /// patch's paths). Files over `max_bytes`, directories and files that are not UTF-8 are
    /// refused with a message for the model.
    pub fn read(&self, path: &str, max_bytes: u64) -> Result<Read, Failure> {
        let r = self.workspace.resolve(path, 0).map_err(unnumbered)?;
        let refuse = |status, why: String| Failure::path(status, path, None, why);
        match &r.state {
            Entry::Missing => {
                return Err(refuse(
                    "NOT_FOUND",
                    format!(
                    "{path:?} does not exist under the workspace root (paths are relative to it)"
                ),
                ))
            }
            Entry::Dir => {
                return Err(refuse(
                    "NOT_A_FILE",
                    format!("{path:?} is a directory, not a file"),
                ))
            }
            Entry::Other => {
                return Err(refuse(
                    "NOT_A_FILE",
                    format!("{path:?} is not a regular file"),
                ))
            }
            Entry::File(m) if m.len() > max_bytes => {
                return Err(refuse(
                    "TOO_LARGE",
                    format!(
                        "{path:?} has {} bytes, more than this server shows at once ({max_bytes} \
                         bytes); edit it with a patch whose context you know, or ask the user",
                        m.len()
                    ),
                ))
            }
            Entry::File(_) => {}
        }
        let bytes = std::fs::read(&r.real)
            .map_err(|e| Failure::io(Some(path), format!("cannot read {path}: {e}")))?;
        if bytes.len() as u64 > max_bytes {
            return Err(refuse(
                "TOO_LARGE",
                format!("{path:?} grew past {max_bytes} bytes while it was read"),
            ));
        }
        let text = String::from_utf8(bytes).map_err(|e| {
            refuse(
                "NOT_TEXT",
                format!(
                    "{path:?} is not UTF-8 text (invalid byte at offset {}); v4a edits text \
                     files only",
                    e.utf8_error().valid_up_to()
                ),
            )
        })?;
        Ok(Read { key: r.real, text })
    }

    fn lock(&self) -> MutexGuard<'_, ()> {
        // The guarded data is `()`: a panic while it was held leaves nothing inconsistent.
        self.writes.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The path messages name the patch line of the operation; a read has none.
fn unnumbered(f: Failure) -> Failure {
    match f {
        Failure::Path(mut p) => {
            p.message = p.message.replace(" (patch line 0)", "");
            p.patch_line = None;
            Failure::Path(p)
        }
        other => other,
    }
}
