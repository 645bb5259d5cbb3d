//! Writing a computed patch result to disk: every file through a temporary file in its own
//! directory (written, fsynced, renamed over the original, permissions kept), deletions last,
//! and if the operating system refuses something midway, the files already changed are put
//! back from the copies held in memory.

use std::fs::{self, File, OpenOptions, Permissions};
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};

use v4a::{OpKind, PatchResult};

use crate::failure::{Failure, IoFailure};
use crate::workspace::{Entry, Prepared};

/// A file to write.
struct Write {
    /// The path as written in the patch.
    shown: String,
    target: PathBuf,
    bytes: Vec<u8>,
    /// The permissions and owner the new file gets (`None`: the defaults of a new file).
    perms: Option<Permissions>,
    owner: Option<Owner>,
    /// What was there before, to put back if a later step fails.
    original: Option<Vec<u8>>,
}

/// A directory entry to remove.
struct Removal {
    shown: String,
    entry: PathBuf,
}

/// What a step did, and how to undo it.
enum Done {
    /// A file was replaced; `original` and `perms` put it back.
    Replaced {
        shown: String,
        target: PathBuf,
        original: Vec<u8>,
        perms: Option<Permissions>,
        owner: Option<Owner>,
    },
    /// A new file was created; removing it undoes the step.
    Created { shown: String, target: PathBuf },
    /// A directory was created.
    Dir(PathBuf),
    /// An entry was removed; `saved` puts it back.
    Removed {
        shown: String,
        entry: PathBuf,
        saved: Saved,
    },
}

/// A removed entry, saved in memory.
enum Saved {
    File(Vec<u8>, Permissions, Option<Owner>),
    #[cfg_attr(not(unix), allow(dead_code))]
    Link(PathBuf),
}

/// The writes and removals of a patch result, in order: writes in patch order, then
/// removals (deleted files and the old paths of moved files).
pub struct Plan {
    writes: Vec<Write>,
    removals: Vec<Removal>,
}

impl Plan {
    /// Turns the engine's results into steps. Files whose bytes do not change are not
    /// rewritten.
    pub fn new(result: &PatchResult, prepared: &Prepared) -> Result<Plan, Failure> {
        let mut writes = Vec::new();
        let mut removals = Vec::new();
        for ((f, paths), source) in result
            .files
            .iter()
            .zip(&prepared.ops)
            .zip(&prepared.sources)
        {
            let new = f.applied.text.as_bytes();
            match (f.kind, &paths.move_to) {
                (OpKind::Delete, _) => removals.push(Removal {
                    shown: f.path.clone(),
                    entry: paths.path.entry.clone(),
                }),
                (OpKind::Update, Some(dest)) => {
                    let from = match &paths.path.state {
                        Entry::File(m) => Some(m),
                        _ => None,
                    };
                    writes.push(write_step(dest, new, from, None)?);
                    removals.push(Removal {
                        shown: f.path.clone(),
                        entry: paths.path.entry.clone(),
                    });
                }
                (OpKind::Add | OpKind::Update, _) => {
                    let r = &paths.path;
                    let unchanged = source.as_deref() == Some(new)
                        || (f.kind == OpKind::Add && existing(r).as_deref() == Some(new));
                    if !unchanged {
                        writes.push(write_step(r, new, None, source.as_deref())?);
                    }
                }
            }
        }
        Ok(Plan { writes, removals })
    }

    /// Carries out the plan. On failure, undoes every step already taken and says which
    /// files were restored.
    pub fn execute(self) -> Result<(), Failure> {
        let mut done: Vec<Done> = Vec::new();
        let mut dirs: Vec<PathBuf> = Vec::new();
        for w in self.writes {
            if let Err((what, e)) = write_one(&w, &mut done) {
                return Err(rollback(done, &w.shown, what, e));
            }
            if let Some(d) = w.target.parent() {
                dirs.push(d.to_path_buf());
            }
        }
        for r in self.removals {
            if let Err(e) = remove_one(&r, &mut done) {
                return Err(rollback(done, &r.shown, "delete", e));
            }
            if let Some(d) = r.entry.parent() {
                dirs.push(d.to_path_buf());
            }
        }
        dirs.sort();
        dirs.dedup();
        for d in dirs {
            sync_dir(&d);
        }
        Ok(())
    }
}

/// The current bytes of a file the patch overwrites, if any.
fn existing(r: &crate::workspace::Resolved) -> Option<Vec<u8>> {
    match r.state {
        Entry::File(_) => fs::read(&r.real).ok(),
        _ => None,
    }
}

/// A write of `bytes` to `r`. The file keeps its permissions (and owner) if it exists, else
/// takes those of `from` (the source of a move), else the defaults of a new file. `known` is
/// the file's current content when it was read already.
fn write_step(
    r: &crate::workspace::Resolved,
    bytes: &[u8],
    from: Option<&fs::Metadata>,
    known: Option<&[u8]>,
) -> Result<Write, Failure> {
    let (meta, original) = match &r.state {
        Entry::File(m) => {
            let original = match known {
                Some(k) => k.to_vec(),
                None => fs::read(&r.real).map_err(|e| {
                    Failure::io(Some(&r.shown), format!("cannot read {}: {e}", r.shown))
                })?,
            };
            (Some(m), Some(original))
        }
        _ => (from, None),
    };
    Ok(Write {
        shown: r.shown.clone(),
        target: r.real.clone(),
        bytes: bytes.to_vec(),
        perms: meta.map(|m| m.permissions()),
        owner: meta.and_then(owner_of),
        original,
    })
}

/// A file's owner and group (Unix only).
#[derive(Clone, Copy, Debug)]
struct Owner {
    #[cfg_attr(not(unix), allow(dead_code))]
    uid: u32,
    #[cfg_attr(not(unix), allow(dead_code))]
    gid: u32,
}

#[cfg(unix)]
fn owner_of(m: &fs::Metadata) -> Option<Owner> {
    use std::os::unix::fs::MetadataExt;
    Some(Owner {
        uid: m.uid(),
        gid: m.gid(),
    })
}

#[cfg(not(unix))]
fn owner_of(_: &fs::Metadata) -> Option<Owner> {
    None
}

/// Writes one file, recording each step in `done`. The error says which step failed.
fn write_one(w: &Write, done: &mut Vec<Done>) -> Result<(), (&'static str, io::Error)> {
    if let Some(parent) = w.target.parent() {
        create_dirs(parent, done).map_err(|e| ("create the directory of", e))?;
    }
    replace_file(&w.target, &w.bytes, w.perms.clone(), w.owner, &w.shown)
        .map_err(|e| ("write", e))?;
    done.push(match &w.original {
        Some(original) => Done::Replaced {
            shown: w.shown.clone(),
            target: w.target.clone(),
            original: original.clone(),
            perms: w.perms.clone(),
            owner: w.owner,
        },
        None => Done::Created {
            shown: w.shown.clone(),
            target: w.target.clone(),
        },
    });
    Ok(())
}

/// Creates `dir` and its missing parents, recording each one created.
fn create_dirs(dir: &Path, done: &mut Vec<Done>) -> io::Result<()> {
    let mut missing = Vec::new();
    let mut d = dir;
    while fs::symlink_metadata(d).is_err() {
        missing.push(d.to_path_buf());
        match d.parent() {
            Some(p) => d = p,
            None => break,
        }
    }
    for m in missing.into_iter().rev() {
        fs::create_dir(&m)?;
        done.push(Done::Dir(m));
    }
    Ok(())
}

/// Replaces `target` with `bytes`: a temporary file in the same directory, written, given the
/// permissions, fsynced, then renamed over `target` (atomic on POSIX file systems).
fn replace_file(
    target: &Path,
    bytes: &[u8],
    perms: Option<Permissions>,
    owner: Option<Owner>,
    shown: &str,
) -> io::Result<()> {
    let dir = target.parent().unwrap_or(Path::new("."));
    let (tmp, mut file) = temp_file(dir)?;
    let result = (|| {
        file.write_all(bytes)?;
        if let Some(p) = perms {
            file.set_permissions(p)?;
        }
        #[cfg(unix)]
        if let Some(o) = owner {
            // Best effort: only root can give a file to another user.
            let _ = std::os::unix::fs::fchown(&file, Some(o.uid), Some(o.gid));
        }
        #[cfg(not(unix))]
        let _ = owner;
        file.sync_all()?;
        drop(file);
        injected_failure(shown)?;
        fs::rename(&tmp, target)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// Creates a new, empty temporary file in `dir` (short names, so that a long target name
/// never makes the temporary name too long).
fn temp_file(dir: &Path) -> io::Result<(PathBuf, File)> {
    let pid = std::process::id();
    let mut n = 0u32;
    loop {
        let path = dir.join(format!(".v4a-{pid}-{n}.tmp"));
        match OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(f) => return Ok((path, f)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && n < 1000 => n += 1,
            Err(e) => return Err(e),
        }
    }
}

/// Removes one entry, saving what it held first.
fn remove_one(r: &Removal, done: &mut Vec<Done>) -> io::Result<()> {
    let meta = fs::symlink_metadata(&r.entry)?;
    let saved = if meta.file_type().is_symlink() {
        Saved::Link(fs::read_link(&r.entry)?)
    } else {
        Saved::File(fs::read(&r.entry)?, meta.permissions(), owner_of(&meta))
    };
    injected_failure(&r.shown)?;
    fs::remove_file(&r.entry)?;
    done.push(Done::Removed {
        shown: r.shown.clone(),
        entry: r.entry.clone(),
        saved,
    });
    Ok(())
}

/// Undoes the steps in `done`, newest first, and describes the failure that caused it.
fn rollback(done: Vec<Done>, shown: &str, what: &str, error: io::Error) -> Failure {
    let mut restored = Vec::new();
    let mut not_restored = Vec::new();
    for step in done.into_iter().rev() {
        match step {
            Done::Replaced {
                shown,
                target,
                original,
                perms,
                owner,
            } => match replace_file(&target, &original, perms, owner, "") {
                Ok(()) => restored.push(shown),
                Err(e) => not_restored.push(format!("{shown} (keeps the new text: {e})")),
            },
            Done::Created { shown, target } => match fs::remove_file(&target) {
                Ok(()) => restored.push(shown),
                Err(e) => not_restored.push(format!("{shown} (could not be removed: {e})")),
            },
            Done::Removed {
                shown,
                entry,
                saved,
            } => match restore_removed(&entry, saved) {
                Ok(()) => restored.push(shown),
                Err(e) => not_restored.push(format!("{shown} (stays deleted: {e})")),
            },
            Done::Dir(d) => {
                let _ = fs::remove_dir(&d);
            }
        }
    }
    restored.reverse();
    not_restored.reverse();
    let mut message = format!("cannot {what} {shown}: {error}.");
    if restored.is_empty() && not_restored.is_empty() {
        message.push_str(" Nothing was changed.");
    } else if not_restored.is_empty() {
        message.push_str(&format!(
            " The files already changed were restored from memory ({}); nothing was changed.",
            restored.join(", ")
        ));
    } else {
        if !restored.is_empty() {
            message.push_str(&format!(" Restored from memory: {}.", restored.join(", ")));
        }
        message.push_str(&format!(
            " NOT restored: {}. Check these files.",
            not_restored.join(", ")
        ));
    }
    Failure::Io(IoFailure {
        path: Some(shown.to_string()),
        message,
        restored,
        not_restored,
    })
}

fn restore_removed(entry: &Path, saved: Saved) -> io::Result<()> {
    match saved {
        Saved::File(bytes, perms, owner) => replace_file(entry, &bytes, Some(perms), owner, ""),
        #[cfg(unix)]
        Saved::Link(target) => std::os::unix::fs::symlink(target, entry),
        #[cfg(not(unix))]
        Saved::Link(_) => Err(io::Error::other("cannot recreate a symbolic link here")),
    }
}

/// Makes the renames in `dir` durable (best effort: not every platform can open a directory).
fn sync_dir(dir: &Path) {
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}

/// Test hook, compiled into debug builds only: `V4A_TEST_FAIL_WRITE=<path as written in the
/// patch>` makes the write or deletion of that file fail, so that the tests can check that a
/// failure midway restores the files already changed. Release builds ignore the variable.
#[cfg(debug_assertions)]
fn injected_failure(shown: &str) -> io::Result<()> {
    match std::env::var("V4A_TEST_FAIL_WRITE") {
        Ok(p) if !shown.is_empty() && p == shown => Err(io::Error::other(
            "injected failure (V4A_TEST_FAIL_WRITE, debug builds only)",
        )),
        _ => Ok(()),
    }
}

#[cfg(not(debug_assertions))]
fn injected_failure(_shown: &str) -> io::Result<()> {
    Ok(())
}
