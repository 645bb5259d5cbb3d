//! The workspace layer where it is not implemented (every platform but the Unix-like ones):
//! the same API, whose every call fails with an [`Error::Io`] of kind `Unsupported` that says
//! so. The layer's promises rest on `openat`-style directory handles (`docs/workspace.md`);
//! a Windows implementation (handles opened relative to a directory handle with
//! `NtCreateFile`, reparse points refused) is not written yet.

use std::io;
use std::path::{Path, PathBuf};

use v4a::Patch;

use crate::{Error, FileRead, Outcome, Recovery, Result, WorkspaceOptions};

/// A directory that patches apply to. On this platform [`Workspace::open`] always fails, so
/// no `Workspace` exists and its other methods are never reached.
#[derive(Debug)]
pub struct Workspace {
    path: PathBuf,
}

/// The error of every call on this platform.
fn unsupported(path: &Path) -> Error {
    Error::Io {
        path: None,
        message: format!(
            "cannot open the directory {}: the workspace layer (applying a patch to files on \
             disk) is not supported on this platform yet; it needs the openat-style directory \
             handles of Linux, macOS or the BSDs. Apply the patch in memory (v4a::Patch::apply) \
             and write the files yourself; nothing was changed",
            crate::escape_path(&path.to_string_lossy())
        ),
        kind: io::ErrorKind::Unsupported,
        needs_recovery: false,
    }
}

impl Workspace {
    /// Fails: the workspace layer is not supported on this platform.
    pub fn open(root: impl AsRef<Path>) -> Result<Workspace> {
        Err(unsupported(root.as_ref()))
    }

    /// The root as given to [`Workspace::open`].
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Fails: the workspace layer is not supported on this platform.
    pub fn apply(&self, _patch: &Patch, _opts: &WorkspaceOptions) -> Result<Outcome> {
        Err(unsupported(&self.path))
    }

    /// Fails: the workspace layer is not supported on this platform.
    pub fn preview(&self, _patch: &Patch, _opts: &WorkspaceOptions) -> Result<Outcome> {
        Err(unsupported(&self.path))
    }

    /// Fails: the workspace layer is not supported on this platform.
    pub fn recover(&self) -> Result<Option<Recovery>> {
        Err(unsupported(&self.path))
    }

    /// Fails: the workspace layer is not supported on this platform.
    pub fn read(&self, _path: &str, _opts: &WorkspaceOptions) -> Result<Vec<u8>> {
        Err(unsupported(&self.path))
    }

    /// Fails: the workspace layer is not supported on this platform.
    pub fn read_file(
        &self,
        _path: &str,
        _max_bytes: u64,
        _opts: &WorkspaceOptions,
    ) -> Result<FileRead> {
        Err(unsupported(&self.path))
    }
}
