//! The one door through which the MCP server touches the files under its root: reading a file
//! for `read_file`, and applying a parsed patch (or previewing it). Nothing else in the server
//! opens, writes or removes a file.
//!
//! Both go through the workspace layer (`v4a-workspace`, SPEC §5.2): paths confined through
//! directory handles, a lock per root (so two concurrent calls never drop each other's edit,
//! and neither do this server and a `v4a apply` in the same directory), an intent journal,
//! fingerprints checked before replacing.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use v4a::{Options, Patch};
use v4a_workspace::{Outcome, Workspace, WorkspaceOptions};

use crate::failure::Failure;

/// The directory the server serves.
pub struct Root {
    workspace: Workspace,
}

/// A patch applied (or previewed) under the root.
pub struct Applied {
    /// The workspace layer's outcome: the engine's results and what each operation did.
    pub outcome: Outcome,
    /// One per operation: where the file the operation read lives (its key in the server's
    /// record of what the model was shown), the bytes it read, and where the result went.
    pub files: Vec<Touched>,
}

/// One operation's file, resolved.
pub struct Touched {
    /// The file the operation read or replaced (`.`, `..` and links resolved).
    pub source: PathBuf,
    /// Its text before the apply (`None` for an added file or a binary one).
    pub before: Option<Vec<u8>>,
    /// Where the new text went (the destination of a move; `None` for a deletion).
    pub target: Option<PathBuf>,
}

/// A file read for the model.
pub struct Read {
    /// Where it lives (links resolved): the key of the record of what was shown.
    pub key: PathBuf,
    /// Its text.
    pub text: String,
}

impl Root {
    /// Opens `dir` (which must be a directory).
    pub fn open(dir: &Path) -> Result<Root, Failure> {
        Ok(Root {
            workspace: Workspace::open(dir)?,
        })
    }

    /// Applies `patch` to the files under the root, or (`dry_run`) computes the result and
    /// writes nothing. Either every file is written or none is.
    /// `bases` are the texts the model was shown, by the patch's paths: those files' hunks are
    /// located there and merged into the current text (base-aware apply).
    pub fn apply(
        &self,
        patch: &Patch,
        opts: &Options,
        bases: HashMap<String, Vec<u8>>,
        dry_run: bool,
    ) -> Result<Applied, Failure> {
        let wopts = WorkspaceOptions {
            engine: opts.clone(),
            bases,
            ..WorkspaceOptions::default()
        };
        let outcome = if dry_run {
            self.workspace.preview(patch, &wopts)?
        } else {
            self.workspace.apply(patch, &wopts)?
        };
        let files = outcome
            .files
            .iter()
            .zip(&outcome.result.files)
            .map(|(o, f)| Touched {
                source: PathBuf::from(&o.source_key),
                before: (f.kind != v4a::OpKind::Add && !o.binary)
                    .then(|| f.applied.source.as_bytes().to_vec()),
                target: o.target_key.as_ref().map(PathBuf::from),
            })
            .collect();
        Ok(Applied { outcome, files })
    }

    /// The key of the file at `path` in the record of what was shown (links resolved), when
    /// it exists under the root; nothing is read.
    pub fn key(&self, path: &str) -> Option<PathBuf> {
        let r = self
            .workspace
            .read_file(path, 0, &WorkspaceOptions::default())
            .ok()?;
        Some(PathBuf::from(r.key))
    }

    /// Reads the text of the file at `path` (relative to the root, confined to it like a
    /// patch's paths). Files over `max_bytes`, directories and files that are not UTF-8 are
    /// refused with a message for the model.
    pub fn read(&self, path: &str, max_bytes: u64) -> Result<Read, Failure> {
        let refuse = |status, why: String| Failure::path(status, path, None, why);
        let shown = v4a_workspace::escape_path(path);
        let r = match self
            .workspace
            .read_file(path, max_bytes, &WorkspaceOptions::default())
        {
            Ok(r) => r,
            Err(e) if e.status() == Some(v4a::Status::MissingSource) => {
                return Err(refuse(
                    "NOT_FOUND",
                    format!(
                        "{shown:?} does not exist under the workspace root (paths are relative \
                         to it)"
                    ),
                ))
            }
            Err(v4a_workspace::Error::PathConflict { .. }) => {
                return Err(refuse(
                    "NOT_A_FILE",
                    format!("{shown:?} is a directory or a special file, not a file"),
                ))
            }
            Err(e) => return Err(unnumbered(e.into())),
        };
        let Some(bytes) = r.bytes else {
            return Err(refuse(
                "TOO_LARGE",
                format!(
                    "{shown:?} has {} bytes, more than this server shows at once ({max_bytes} \
                     bytes); edit it with a patch whose context you know, or ask the user",
                    r.size
                ),
            ));
        };
        let text = String::from_utf8(bytes).map_err(|e| {
            refuse(
                "NOT_TEXT",
                format!(
                    "{shown:?} is not UTF-8 text (invalid byte at offset {}); v4a edits text \
                     files only",
                    e.utf8_error().valid_up_to()
                ),
            )
        })?;
        Ok(Read {
            key: PathBuf::from(r.key),
            text,
        })
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
        Failure::Patch(e) if e.message().contains(" (patch line 0)") => {
            let msg = e.message().replace(" (patch line 0)", "");
            let mut d = e.diagnostics().clone();
            d.patch_line = None;
            Failure::Patch(v4a::Error::new(e.status(), msg, d))
        }
        other => other,
    }
}
