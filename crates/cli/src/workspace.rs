//! The directory a patch applies to: resolving the patch's paths safely inside it, and
//! reading the files the patch needs.
//!
//! A path is resolved one component at a time, following symbolic links the way the operating
//! system would; every step must stay inside the directory. A path that is absolute, climbs out
//! with `..`, holds a NUL, or reaches outside through a link is refused before anything is read
//! or written.

use std::collections::HashMap;
use std::fs::{self, Metadata};
use std::io;
use std::path::{Path, PathBuf};

use v4a::{classify_path, FileOp, OpKind, Patch, PathClass};

use crate::failure::Failure;

/// The directory a patch applies to.
pub struct Workspace {
    /// Canonical (symbolic links resolved).
    root: PathBuf,
}

/// What is at a resolved path.
#[derive(Debug)]
pub enum Entry {
    Missing,
    File(Metadata),
    Dir,
    Other,
}

/// A path of the patch, resolved inside the workspace.
#[derive(Debug)]
pub struct Resolved {
    /// As written in the patch.
    pub shown: String,
    /// Where its content lives: every symbolic link followed, inside the workspace.
    pub real: PathBuf,
    /// The directory entry itself: like `real`, except that a final symbolic link is not
    /// followed (deleting a link removes the link).
    pub entry: PathBuf,
    /// What is there now.
    pub state: Entry,
}

/// The resolved paths of one file operation.
#[derive(Debug)]
pub struct OpPaths {
    pub path: Resolved,
    /// The move destination, when it names another file.
    pub move_to: Option<Resolved>,
}

/// A patch with its paths resolved and its sources read.
pub struct Prepared {
    /// One per operation of the patch.
    pub ops: Vec<OpPaths>,
    /// The current bytes of each Update and Delete operation's file (`None`: there is no
    /// such file, which the engine reports as a missing source).
    pub sources: Vec<Option<Vec<u8>>>,
}

impl Workspace {
    /// Opens the directory `dir`.
    pub fn open(dir: &Path) -> Result<Workspace, Failure> {
        let root = fs::canonicalize(dir).map_err(|e| {
            Failure::io(
                None,
                format!("cannot open the directory {}: {e}", dir.display()),
            )
        })?;
        if !root.is_dir() {
            return Err(Failure::io(
                None,
                format!("{} is not a directory", dir.display()),
            ));
        }
        Ok(Workspace { root })
    }

    /// Resolves every path of `patch`, checks that no two operations touch one file and that
    /// no file stands where another operation needs a directory, and reads the sources.
    pub fn prepare(&self, patch: &Patch) -> Result<Prepared, Failure> {
        let mut ops = Vec::with_capacity(patch.ops.len());
        for op in &patch.ops {
            let path = self.resolve(&op.path, op.patch_line)?;
            let move_to = match op.move_to.as_deref() {
                Some(dest) if dest != op.path => {
                    let dest = self.resolve(dest, op.patch_line)?;
                    // A move onto the same file is an in-place update.
                    (dest.real != path.real).then_some(dest)
                }
                _ => None,
            };
            ops.push(OpPaths { path, move_to });
        }
        check_conflicts(patch, &ops)?;
        let mut sources = Vec::with_capacity(ops.len());
        for (op, paths) in patch.ops.iter().zip(&ops) {
            sources.push(match op.kind {
                OpKind::Add => None,
                OpKind::Update | OpKind::Delete => read_source(&paths.path)?,
            });
        }
        Ok(Prepared { ops, sources })
    }

    /// Resolves `path` (as written in the patch, at `patch_line`) inside the workspace.
    pub fn resolve(&self, path: &str, patch_line: u32) -> Result<Resolved, Failure> {
        let refuse = |why: &str| {
            Failure::path(
                "UNSAFE_PATH",
                path,
                Some(patch_line),
                format!(
                    "{path:?} (patch line {patch_line}): {why}. Paths must be relative to the \
                     working directory and stay inside it; nothing was changed"
                ),
            )
        };
        match classify_path(path) {
            PathClass::Relative => {}
            PathClass::Absolute => return Err(refuse("the path is absolute")),
            PathClass::ParentEscape => {
                return Err(refuse(
                    "the path climbs out of the working directory with \"..\"",
                ))
            }
            PathClass::Empty => return Err(refuse("the path is empty")),
            PathClass::Nul => return Err(refuse("the path contains a NUL byte")),
            PathClass::DrivePrefix => return Err(refuse("the path starts with a drive letter")),
        }
        let parts: Vec<&str> = path
            .split(['/', '\\'])
            .filter(|c| !c.is_empty() && *c != ".")
            .collect();
        let mut cur = self.root.clone();
        let mut parent = self.root.clone();
        let mut missing = false;
        let mut final_link = false;
        for (i, part) in parts.iter().enumerate() {
            let last = i + 1 == parts.len();
            if *part == ".." {
                cur.pop();
                if !cur.starts_with(&self.root) {
                    return Err(refuse("the path climbs out of the working directory"));
                }
                parent = cur.clone();
                final_link = false;
                continue;
            }
            parent = cur.clone();
            let next = cur.join(part);
            if missing {
                cur = next;
                continue;
            }
            match fs::symlink_metadata(&next) {
                Ok(m) if m.file_type().is_symlink() => {
                    let shown = parts[..=i].join("/");
                    let target = match fs::canonicalize(&next) {
                        Ok(t) => t,
                        Err(e) if e.kind() == io::ErrorKind::NotFound => {
                            return Err(refuse(&format!(
                                "{shown} is a symbolic link to a file that does not exist"
                            )))
                        }
                        Err(e) => {
                            return Err(Failure::io(
                                Some(path),
                                format!("cannot resolve the symbolic link {shown}: {e}"),
                            ))
                        }
                    };
                    if !target.starts_with(&self.root) {
                        return Err(refuse(&format!(
                            "{shown} is a symbolic link that points outside the working \
                             directory (to {})",
                            target.display()
                        )));
                    }
                    final_link = last;
                    cur = target;
                }
                Ok(m) => {
                    if !last && !m.is_dir() {
                        return Err(not_a_directory(path, patch_line, &parts[..=i]));
                    }
                    final_link = false;
                    cur = next;
                }
                Err(e) if e.kind() == io::ErrorKind::NotFound => {
                    missing = true;
                    final_link = false;
                    cur = next;
                }
                Err(e) if e.kind() == io::ErrorKind::NotADirectory => {
                    return Err(not_a_directory(path, patch_line, &parts[..i]));
                }
                Err(e) => {
                    return Err(Failure::io(
                        Some(path),
                        format!("cannot look up {path}: {e}"),
                    ))
                }
            }
        }
        if cur == self.root || parts.last() == Some(&"..") {
            return Err(refuse("the path names a directory, not a file"));
        }
        let state = if missing {
            Entry::Missing
        } else {
            match fs::metadata(&cur) {
                Ok(m) if m.is_file() => Entry::File(m),
                Ok(m) if m.is_dir() => Entry::Dir,
                Ok(_) => Entry::Other,
                Err(e) if e.kind() == io::ErrorKind::NotFound => Entry::Missing,
                Err(e) => {
                    return Err(Failure::io(
                        Some(path),
                        format!("cannot look up {path}: {e}"),
                    ))
                }
            }
        };
        let entry = match (final_link, parts.last()) {
            (true, Some(name)) => parent.join(name),
            _ => cur.clone(),
        };
        Ok(Resolved {
            shown: path.to_string(),
            real: cur,
            entry,
            state,
        })
    }
}

fn not_a_directory(path: &str, patch_line: u32, prefix: &[&str]) -> Failure {
    let file = if prefix.is_empty() {
        path.to_string()
    } else {
        prefix.join("/")
    };
    Failure::path(
        "PATH_CONFLICT",
        path,
        Some(patch_line),
        format!(
            "{path:?} (patch line {patch_line}): {file} is a file, not a directory; nothing was \
             changed"
        ),
    )
}

/// Refuses two operations on one file (after resolving `.`, `..` and links), a directory or a
/// special file where the patch wants a file, and a file the patch writes where another
/// operation needs a directory.
fn check_conflicts(patch: &Patch, ops: &[OpPaths]) -> Result<(), Failure> {
    let conflict = |op: &FileOp, message: String| {
        Failure::path("PATH_CONFLICT", &op.path, Some(op.patch_line), message)
    };
    let mut seen: HashMap<&Path, &FileOp> = HashMap::new();
    let mut written: HashMap<&Path, &FileOp> = HashMap::new();
    for (op, paths) in patch.ops.iter().zip(ops) {
        let mut touched: Vec<&Resolved> = vec![&paths.path];
        touched.extend(&paths.move_to);
        for r in &touched {
            match r.state {
                Entry::Dir => {
                    return Err(conflict(
                        op,
                        format!(
                            "{:?} (patch line {}) is a directory, not a file; nothing was changed",
                            r.shown, op.patch_line
                        ),
                    ))
                }
                Entry::Other => {
                    return Err(conflict(
                        op,
                        format!(
                            "{:?} (patch line {}) is not a regular file; nothing was changed",
                            r.shown, op.patch_line
                        ),
                    ))
                }
                Entry::Missing | Entry::File(_) => {}
            }
            // A deletion removes the entry (a link itself); everything else reaches the content.
            let key = if op.kind == OpKind::Delete {
                r.entry.as_path()
            } else {
                r.real.as_path()
            };
            if let Some(other) = seen.insert(key, op) {
                return Err(Failure::path(
                    "DUPLICATE_PATH",
                    &op.path,
                    Some(op.patch_line),
                    format!(
                        "{:?} (patch line {}) and {:?} (patch line {}) name the same file; \
                         each file may appear in one operation only; nothing was changed",
                        other.path, other.patch_line, r.shown, op.patch_line
                    ),
                ));
            }
        }
        match op.kind {
            OpKind::Add => {
                written.insert(&paths.path.real, op);
            }
            OpKind::Update => {
                let target = paths.move_to.as_ref().unwrap_or(&paths.path);
                written.insert(&target.real, op);
            }
            OpKind::Delete => {}
        }
    }
    for (target, op) in &written {
        for dir in target.ancestors().skip(1) {
            if let Some(other) = written.get(dir) {
                return Err(conflict(
                    op,
                    format!(
                        "{:?} (patch line {}) needs a directory where {:?} (patch line {}) \
                         writes a file; nothing was changed",
                        op.target(),
                        op.patch_line,
                        other.target(),
                        other.patch_line
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// The bytes of an Update or Delete operation's file; `None` when it does not exist.
fn read_source(r: &Resolved) -> Result<Option<Vec<u8>>, Failure> {
    match r.state {
        Entry::Missing => Ok(None),
        _ => fs::read(&r.real)
            .map(Some)
            .map_err(|e| Failure::io(Some(&r.shown), format!("cannot read {}: {e}", r.shown))),
    }
}
