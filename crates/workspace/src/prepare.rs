//! Before anything is written: every path of the patch located under the root, refused if it
//! is unsafe, conflicts with another, or would overwrite or change a file it must not; the
//! sources read with their fingerprints.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use std::io::Read;
use std::os::fd::OwnedFd;
use std::rc::Rc;

use rustix::fs::{self as rfs, Access, AtFlags};
use v4a::{FileOp, OpKind, Patch, Status};

use crate::error::{Error, Result};
use crate::fsys::{open_file, walk, Ident, Kind, Located, Meta, Stamp, WalkError};
use crate::path::{components, escape_path};
use crate::WorkspaceOptions;

/// Bytes hashed at a time (the same cut for a file in memory and a file re-read from disk).
const CHUNK: usize = 64 * 1024;

/// What a file was when it was read: its identity, size and mtime, and either a hash of
/// its content or its status change time (none for a symbolic link, which is compared by
/// identity and mtime).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Fingerprint {
    pub meta: Meta,
    pub hash: Option<u64>,
    /// The file's last change (its ctime) is older than the apply: any write after the read
    /// gets a later ctime from the file system's clock, so an unchanged ctime proves the
    /// content unchanged and no hash is needed (checked just before the backup link, which
    /// itself changes the ctime).
    pub settled: bool,
}

/// One path of the patch, located.
#[derive(Debug)]
pub(crate) struct Target {
    pub loc: Located,
    /// The file there when it was read (`None`: nothing there).
    pub fp: Option<Fingerprint>,
}

/// One operation of the patch, located and read.
#[derive(Debug)]
pub(crate) struct OpPlan {
    pub path: Target,
    /// Where a Move writes, when that is another file than `path`.
    pub dest: Option<Target>,
    /// The current bytes (Update and Delete sources; an existing Add target).
    pub bytes: Option<Vec<u8>>,
    /// The file is not UTF-8 text (or is a link being deleted): the engine saw an empty
    /// text, and a move writes `bytes` as they are.
    pub binary: bool,
}

/// The hash of `bytes`.
pub(crate) fn hash_bytes(state: &impl BuildHasher, bytes: &[u8]) -> u64 {
    let mut h = state.build_hasher();
    for c in bytes.chunks(CHUNK) {
        h.write(c);
    }
    h.finish()
}

/// The hash of the file open at `fd`, read to its end.
pub(crate) fn hash_fd(state: &impl BuildHasher, fd: &OwnedFd) -> std::io::Result<u64> {
    let mut f = std::fs::File::from(fd.try_clone()?);
    let mut h = state.build_hasher();
    let mut buf = vec![0u8; CHUNK];
    loop {
        let mut filled = 0;
        while filled < CHUNK {
            match f.read(&mut buf[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        if filled == 0 {
            break;
        }
        h.write(&buf[..filled]);
        if filled < CHUNK {
            break;
        }
    }
    Ok(h.finish())
}

/// Locates and reads everything `patch` needs.
pub(crate) fn prepare(
    root: &OwnedFd,
    patch: &Patch,
    opts: &WorkspaceOptions,
    hasher: &impl BuildHasher,
    since: Option<Stamp>,
) -> Result<Vec<OpPlan>> {
    let mut plans = Vec::with_capacity(patch.ops.len());
    let mut dirs: HashMap<Ident, Rc<OwnedFd>> = HashMap::new();
    for op in &patch.ops {
        let mut plan = prepare_op(root, op, opts, hasher, since)?;
        share_dir(&mut plan.path.loc, &mut dirs)?;
        if let Some(d) = plan.dest.as_mut() {
            share_dir(&mut d.loc, &mut dirs)?;
        }
        plans.push(plan);
    }
    check_duplicates(patch, &plans)?;
    check_nesting(patch, &plans)?;
    Ok(plans)
}

fn prepare_op(
    root: &OwnedFd,
    op: &FileOp,
    opts: &WorkspaceOptions,
    hasher: &impl BuildHasher,
    since: Option<Stamp>,
) -> Result<OpPlan> {
    // Only an in-place Update edits the file a final link names; every other operation
    // works on the entry itself (a Delete removes the link, an Add onto a link is an Add onto
    // an existing name).
    let is_move = op.move_to.as_deref().is_some_and(|to| to != op.path);
    let follow = op.kind == OpKind::Update && !is_move;
    let loc = locate(root, &op.path, op, follow, opts)?;
    check_kind(&loc, &op.path, op)?;
    if is_move && loc.entry.map(|m| m.kind) == Some(Kind::Link) {
        return Err(conflict(
            op,
            &op.path,
            "it is a symbolic link; move the file it points to instead".into(),
        ));
    }
    let mut bytes = None;
    let mut fp = None;
    let mut binary = false;
    if let Some(m) = loc.entry {
        if m.kind == Kind::Link {
            // Deleting a link removes the link; there is no text to show.
            fp = Some(Fingerprint {
                meta: m,
                hash: None,
                settled: false,
            });
            binary = true;
        } else {
            let (b, f) = read(&loc, m, &op.path, hasher, since)?;
            binary = std::str::from_utf8(&b).is_err();
            bytes = Some(b);
            fp = Some(f);
            if op.kind != OpKind::Add {
                check_writable(&loc, m, &op.path, op, opts)?;
            }
        }
    }
    let mut dest = None;
    if let Some(to) = op.move_to.as_deref().filter(|to| *to != op.path) {
        let dloc = locate(root, to, op, false, opts)?;
        check_kind(&dloc, to, op)?;
        let same = match (dloc.entry, loc.entry) {
            (Some(d), Some(s)) => d.ident == s.ident,
            _ => false,
        };
        if !same {
            let dfp = match dloc.entry {
                Some(m) => {
                    if !opts.allow_overwrite {
                        return Err(file_exists(op, to, "*** Move to"));
                    }
                    if m.kind == Kind::Link {
                        Some(Fingerprint {
                            meta: m,
                            hash: None,
                            settled: false,
                        })
                    } else {
                        check_writable(&dloc, m, to, op, opts)?;
                        Some(read(&dloc, m, to, hasher, since)?.1)
                    }
                }
                None => None,
            };
            dest = Some(Target { loc: dloc, fp: dfp });
        }
    }
    Ok(OpPlan {
        path: Target { loc, fp },
        dest,
        bytes,
        binary,
    })
}

/// Replaces the located directory's handle by the one already held for that directory (by
/// identity), so a patch of thousands of files in a few directories holds a few handles.
fn share_dir(loc: &mut Located, dirs: &mut HashMap<Ident, Rc<OwnedFd>>) -> Result<()> {
    let st = rfs::fstat(&*loc.dir).map_err(|e| Error::io(None, "look up a directory", e))?;
    let id = Meta::of(&st).ident;
    match dirs.get(&id) {
        Some(d) => loc.dir = Rc::clone(d),
        None => {
            dirs.insert(id, Rc::clone(&loc.dir));
        }
    }
    Ok(())
}

/// `FILE_EXISTS` for an Add or a Move onto an existing file.
pub(crate) fn file_exists(op: &FileOp, path: &str, what: &str) -> Error {
    Error::status_at(
        Status::FileExists,
        Some(path),
        Some(op.patch_line),
        format!(
            "{} (patch line {}): {what} names a file that already exists; overwriting it would \
             lose it. To change it, use \"*** Update File: {}\" with hunks; nothing was changed",
            escape_path(path),
            op.patch_line,
            escape_path(path)
        ),
    )
}

pub(crate) fn locate(
    root: &OwnedFd,
    path: &str,
    op: &FileOp,
    follow: bool,
    opts: &WorkspaceOptions,
) -> Result<Located> {
    let refuse = |why: &str| {
        Error::status_at(
            Status::UnsafePath,
            Some(path),
            Some(op.patch_line),
            format!(
                "{} (patch line {}): {why}. Paths must be relative to the root and stay inside \
                 it; nothing was changed",
                escape_path(path),
                op.patch_line
            ),
        )
    };
    let comps = components(path).map_err(|e| refuse(e.why()))?;
    walk(root, &comps, follow, opts.allow_vcs).map_err(|e| match e {
        WalkError::Unsafe(why) => refuse(&escape_path(&why)),
        WalkError::NotADir(p) => conflict(
            op,
            path,
            format!("{} is a file, not a directory", escape_path(&p)),
        ),
        WalkError::Io(what, err) => Error::io(Some(path), &escape_path(&what), err),
    })
}

fn conflict(op: &FileOp, path: &str, why: String) -> Error {
    Error::PathConflict {
        path: path.to_string(),
        patch_line: op.patch_line,
        message: format!(
            "{} (patch line {}): {why}; nothing was changed",
            escape_path(path),
            op.patch_line
        ),
    }
}

fn check_kind(loc: &Located, path: &str, op: &FileOp) -> Result<()> {
    match loc.entry.map(|m| m.kind) {
        Some(Kind::Dir) => Err(conflict(op, path, "it is a directory, not a file".into())),
        Some(Kind::Other) => Err(conflict(op, path, "it is not a regular file".into())),
        _ => Ok(()),
    }
}

/// Reads a regular file through its directory handle, checking it is the entry located. Its
/// content is hashed unless its last change is older than `since` on the same file system.
fn read(
    loc: &Located,
    m: Meta,
    path: &str,
    hasher: &impl BuildHasher,
    since: Option<Stamp>,
) -> Result<(Vec<u8>, Fingerprint)> {
    let shown = escape_path(path);
    let fd = open_file(&*loc.dir, &loc.name)
        .map_err(|e| Error::io(Some(path), &format!("read {shown}"), e))?;
    let st = rfs::fstat(&fd).map_err(|e| Error::io(Some(path), &format!("read {shown}"), e))?;
    let meta = Meta::of(&st);
    if meta.ident != m.ident || meta.kind != Kind::File {
        return Err(changed(path, None));
    }
    let mut bytes = Vec::with_capacity(meta.size as usize);
    std::fs::File::from(fd)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io(Some(path), &format!("read {shown}"), e))?;
    let settled = since.is_some_and(|s| s.dev == meta.ident.dev && meta.ctime < s.time);
    let hash = (!settled).then(|| hash_bytes(hasher, &bytes));
    Ok((
        bytes,
        Fingerprint {
            meta,
            hash,
            settled,
        },
    ))
}

/// `CHANGED_ON_DISK` for `path`.
pub(crate) fn changed(path: &str, patch_line: Option<u32>) -> Error {
    Error::status_at(
        Status::ChangedOnDisk,
        Some(path),
        patch_line,
        format!(
            "{} changed on disk while the patch was being applied (another program wrote it); \
             nothing was changed: read the file again and resend the patch",
            escape_path(path)
        ),
    )
}

/// Refuses a read-only file: no write permission bit at all, or none for the caller.
pub(crate) fn check_writable(
    loc: &Located,
    m: Meta,
    path: &str,
    op: &FileOp,
    opts: &WorkspaceOptions,
) -> Result<()> {
    if opts.allow_read_only || m.kind == Kind::Link {
        return Ok(());
    }
    let denied = m.mode & 0o222 == 0
        || rfs::accessat(
            &loc.dir,
            loc.name.as_str(),
            Access::WRITE_OK,
            AtFlags::EACCESS,
        )
        .is_err();
    if denied {
        return Err(Error::ReadOnly {
            path: path.to_string(),
            patch_line: op.patch_line,
            message: format!(
                "{} (patch line {}) is read-only (mode 0{:o}{}); v4a does not change or remove \
                 read-only files unless allowed (--allow-read-only); nothing was changed",
                escape_path(path),
                op.patch_line,
                m.mode,
                if m.mode & 0o222 == 0 {
                    String::new()
                } else {
                    format!(", not writable by you, owner uid {}", m.uid)
                }
            ),
        });
    }
    Ok(())
}

/// The key that identifies what a path names: the file (device and inode) when it exists,
/// else its directory's identity and the rest of the path.
#[derive(Clone, PartialEq, Eq, Hash)]
enum Key {
    File(Ident),
    Missing(Ident, Vec<String>),
}

fn key(loc: &Located) -> Result<Key> {
    match loc.entry {
        Some(m) => Ok(Key::File(m.ident)),
        None => {
            let st =
                rfs::fstat(&*loc.dir).map_err(|e| Error::io(None, "look up a directory", e))?;
            let mut rest = loc.missing_dirs.clone();
            rest.push(loc.name.clone());
            Ok(Key::Missing(Meta::of(&st).ident, rest))
        }
    }
}

/// Two operations on one file (two spellings, a link and its target, a hard link) are one
/// file: refused.
fn check_duplicates(patch: &Patch, plans: &[OpPlan]) -> Result<()> {
    let mut seen: HashMap<Key, (&str, u32)> = HashMap::new();
    for (op, plan) in patch.ops.iter().zip(plans) {
        let mut touched = vec![(&plan.path, op.path.as_str())];
        if let (Some(d), Some(to)) = (&plan.dest, op.move_to.as_deref()) {
            touched.push((d, to));
        }
        for (t, shown) in touched {
            if let Some((other, line)) = seen.insert(key(&t.loc)?, (shown, op.patch_line)) {
                return Err(Error::status_at(
                    Status::DuplicatePath,
                    Some(shown),
                    Some(op.patch_line),
                    format!(
                        "{} (patch line {line}) and {} (patch line {}) name the same file; each \
                         file may appear in one operation only; nothing was changed",
                        escape_path(other),
                        escape_path(shown),
                        op.patch_line
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// A file the patch writes where another operation needs a directory.
fn check_nesting(patch: &Patch, plans: &[OpPlan]) -> Result<()> {
    let mut written: HashMap<Vec<String>, (&FileOp, &str)> = HashMap::new();
    for (op, plan) in patch.ops.iter().zip(plans) {
        match op.kind {
            OpKind::Delete => {}
            _ => {
                let (t, shown) = match (&plan.dest, op.move_to.as_deref()) {
                    (Some(d), Some(to)) => (d, to),
                    _ => (&plan.path, op.path.as_str()),
                };
                written.insert(t.loc.real_comps(), (op, shown));
            }
        }
    }
    for (comps, (op, shown)) in &written {
        for n in 1..comps.len() {
            if let Some((other, other_shown)) = written.get(&comps[..n]) {
                return Err(conflict(
                    op,
                    shown,
                    format!(
                        "it needs a directory where {} (patch line {}) writes a file",
                        escape_path(other_shown),
                        other.patch_line
                    ),
                ));
            }
        }
    }
    Ok(())
}
