//! Writing a computed patch result: the crash-safe transaction.
//!
//! 1. The journal (state `prepare`) names every temporary file, backup and directory before
//!    any exists.
//! 2. Each new text goes to a temporary file in its file's own directory, created exclusively
//!    with mode 0600, written, given its attributes, fsynced. Each file to be replaced or
//!    removed gets a backup: a hard link beside it (no copy, the original inode itself).
//! 3. Every fingerprint is checked again (identity, size, mtime, content hash): a change is
//!    `CHANGED_ON_DISK` and nothing is replaced.
//! 4. The journal (state `rename`, with the temporary files' identities), then each rename or
//!    removal, each preceded by a quick identity check; the directories fsynced.
//! 5. Each original, reached through its backup, is checked once more: a write that reached
//!    it between the check and the rename undoes everything (`CHANGED_ON_DISK`).
//! 6. The journal (state `commit`), the backups removed, the journal removed.
//!
//! A failure before step 6 undoes everything through the same code that recovery runs.

use std::collections::{BTreeSet, HashMap};
use std::hash::BuildHasher;
use std::io::Write as _;
use std::os::fd::OwnedFd;
use std::rc::Rc;

use rustix::fs::{self as rfs, AtFlags, Mode, OFlags};
use rustix::io::Errno;

use crate::attrs::{self, Attrs};
use crate::error::{Error, Result};
use crate::fsys::{lstat_at, open_file, open_subdir, sync_dir, Located, Meta};
use crate::hooks;
use crate::journal::{self, Entry, Journal, State};
use crate::path::escape_path;
use crate::prepare::{changed, hash_fd, Fingerprint};

/// One change on disk.
pub(crate) struct Step<'a> {
    /// The path as the patch wrote it.
    pub shown: &'a str,
    pub patch_line: u32,
    pub loc: &'a Located,
    pub kind: StepKind<'a>,
}

/// What a step does.
pub(crate) enum StepKind<'a> {
    /// Write `new` at the location, replacing `replaces` (or creating the file).
    Write {
        new: &'a [u8],
        attrs: Attrs,
        /// The file whose extended attributes the new file gets.
        attrs_from: Option<&'a Located>,
        replaces: Option<&'a Fingerprint>,
    },
    /// Remove the entry.
    Remove { fp: &'a Fingerprint },
}

impl Step<'_> {
    fn original(&self) -> Option<&Fingerprint> {
        match &self.kind {
            StepKind::Write { replaces, .. } => *replaces,
            StepKind::Remove { fp } => Some(fp),
        }
    }
}

fn token() -> String {
    let mut b = [0u8; 6];
    if rustix::rand::getrandom(&mut b, rustix::rand::GetRandomFlags::empty()).is_err() {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        b.copy_from_slice(&(t as u64 ^ u64::from(std::process::id()) << 32).to_le_bytes()[..6]);
    }
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// The journal of `steps` in state `prepare`.
fn plan(steps: &[Step]) -> Journal {
    let tok = token();
    let mut mkdirs: Vec<Vec<String>> = Vec::new();
    let mut seen = BTreeSet::new();
    let mut entries = Vec::new();
    for (i, s) in steps.iter().enumerate() {
        let mut dir = s.loc.dir_comps.clone();
        for m in &s.loc.missing_dirs {
            dir.push(m.clone());
            if seen.insert(dir.clone()) {
                mkdirs.push(dir.clone());
            }
        }
        let orig = s.original().map(|f| f.meta.ident);
        let backup = orig.map(|_| format!(".v4a-{tok}-{i}.bak"));
        entries.push(match &s.kind {
            StepKind::Write { .. } => Entry {
                write: true,
                dir,
                name: s.loc.name.clone(),
                temp: Some(format!(".v4a-{tok}-{i}.tmp")),
                backup,
                temp_ident: None,
                orig_ident: orig,
                shown: s.shown.to_string(),
            },
            StepKind::Remove { .. } => Entry {
                write: false,
                dir,
                name: s.loc.name.clone(),
                temp: None,
                backup,
                temp_ident: None,
                orig_ident: orig,
                shown: s.shown.to_string(),
            },
        });
    }
    Journal {
        state: State::Prepare,
        mkdirs,
        entries,
    }
}

fn journal_error(e: std::io::Error) -> Error {
    Error::io(None, "write the intent journal .v4a/journal", e)
}

/// Carries out `steps` under the lock (`state` is the locked state directory). Returns notes
/// (attributes that could not be kept).
pub(crate) fn commit(
    root: &OwnedFd,
    state: &OwnedFd,
    steps: &[Step],
    hasher: &impl BuildHasher,
) -> Result<Vec<String>> {
    // Several files need the journal on disk to be all-or-nothing across a power cut; one
    // file's rename is atomic by itself, so its journal (cleanup after a killed process) is
    // not fsynced: a one-file apply costs the temporary file's fsync and the directory's.
    let durable = steps.len() > 1;
    let mut j = plan(steps);
    j.store(state, durable).map_err(journal_error)?;
    let mut notes = Vec::new();
    match run(root, state, steps, &mut j, durable, hasher, &mut notes) {
        Ok(()) => {
            // Committed: every file is new. What is left is cleanup, which recovery would
            // also finish.
            let r = journal::finish(root, &j, durable);
            if r.problems.is_empty() {
                let _ = journal::remove(state, durable);
            } else {
                notes.extend(r.problems);
            }
            Ok(notes)
        }
        Err(e) => {
            let r = journal::undo(root, &j);
            if r.problems.is_empty() && journal::remove(state, durable).is_ok() {
                Err(match e {
                    Error::Io {
                        path,
                        message,
                        kind,
                        needs_recovery,
                    } => Error::Io {
                        path,
                        message: format!(
                            "{message}. Nothing was changed: the files already replaced were \
                             put back"
                        ),
                        kind,
                        needs_recovery,
                    },
                    e => e,
                })
            } else {
                Err(Error::Io {
                    path: e.path().map(str::to_string),
                    message: format!(
                        "{} The apply could not be undone completely ({}); the intent journal \
                         .v4a/journal was kept: run `v4a recover`",
                        e.message(),
                        r.problems.join("; ")
                    ),
                    kind: std::io::ErrorKind::Other,
                    needs_recovery: true,
                })
            }
        }
    }
}

fn dir_name(comps: &[String]) -> String {
    if comps.is_empty() {
        "the root directory".into()
    } else {
        format!("the directory {}", escape_path(&comps.join("/")))
    }
}

/// Opens (creating what is missing) the directory of a step; directories created for an
/// earlier step are reused from `made` (one handle per directory).
fn ensure_dir(s: &Step, made: &mut HashMap<Vec<String>, Rc<OwnedFd>>) -> Result<Rc<OwnedFd>> {
    if s.loc.missing_dirs.is_empty() {
        return Ok(Rc::clone(&s.loc.dir));
    }
    let mut comps = s.loc.dir_comps.clone();
    comps.extend(s.loc.missing_dirs.iter().cloned());
    if let Some(d) = made.get(&comps) {
        return Ok(Rc::clone(d));
    }
    let mut fd: Rc<OwnedFd> = Rc::clone(&s.loc.dir);
    let mut at = s.loc.dir_comps.clone();
    for m in &s.loc.missing_dirs {
        at.push(m.clone());
        match rfs::mkdirat(&*fd, m.as_str(), Mode::from_raw_mode(0o777)) {
            Ok(()) | Err(Errno::EXIST) => {}
            Err(e) => {
                return Err(Error::io(
                    Some(s.shown),
                    &format!("create {} for {}", dir_name(&at), escape_path(s.shown)),
                    e,
                ))
            }
        }
        let next = open_subdir(&*fd, m).map_err(|e| {
            Error::io(
                Some(s.shown),
                &format!(
                    "open {} for {} (it is not a plain directory)",
                    dir_name(&at),
                    escape_path(s.shown)
                ),
                e,
            )
        })?;
        fd = Rc::new(next);
    }
    made.insert(comps, Rc::clone(&fd));
    Ok(fd)
}

/// fsyncs each directory once.
fn sync_all(dirs: &[Rc<OwnedFd>]) {
    let mut seen: Vec<*const OwnedFd> = Vec::new();
    for d in dirs {
        let p = Rc::as_ptr(d);
        if !seen.contains(&p) {
            seen.push(p);
            sync_dir(d);
        }
    }
}

fn same_state(a: &Meta, b: &Meta) -> bool {
    a.ident == b.ident && a.size == b.size && a.mtime == b.mtime
}

fn run(
    root: &OwnedFd,
    state: &OwnedFd,
    steps: &[Step],
    j: &mut Journal,
    durable: bool,
    hasher: &impl BuildHasher,
    notes: &mut Vec<String>,
) -> Result<()> {
    let _ = root;
    // 2. Temporary files and backups.
    let (dirs, linked) = stage(steps, j, notes)?;
    if durable {
        // The temporary files and backups must be on disk before the journal says "rename".
        sync_all(&dirs);
    }
    // 3. Every original is still what was read.
    for ((s, e), dir) in steps.iter().zip(&j.entries).zip(&dirs) {
        if let (Some(fp), Some(b)) = (s.original(), &e.backup) {
            verify(dir, b, fp, hasher).map_err(|_| changed(s.shown, Some(s.patch_line)))?;
        }
    }
    // 4. Replace.
    j.state = State::Rename;
    j.store(state, durable).map_err(journal_error)?;
    for (((s, e), dir), l) in steps.iter().zip(&j.entries).zip(&dirs).zip(&linked) {
        replace(s, e, dir, l.as_ref())?;
    }
    sync_all(&dirs);
    // 5. Nobody wrote an original between its check and its rename.
    for ((s, e), dir) in steps.iter().zip(&j.entries).zip(&dirs) {
        if let (Some(fp), Some(b)) = (s.original(), &e.backup) {
            match lstat_at(dir, b) {
                Ok(Some(m)) if same_state(&fp.meta, &m) => {}
                _ => return Err(changed(s.shown, Some(s.patch_line))),
            }
        }
    }
    // 6. Commit.
    j.state = State::Commit;
    j.store(state, durable).map_err(journal_error)?;
    Ok(())
}

/// Each step's directory handle, and its original as it was once its backup link was made.
type Staged = (Vec<Rc<OwnedFd>>, Vec<Option<Meta>>);

/// Step 2: each step's directory (created where missing), its temporary file (for a write)
/// and the backup of its original.
fn stage(steps: &[Step], j: &mut Journal, notes: &mut Vec<String>) -> Result<Staged> {
    let mut dirs: Vec<Rc<OwnedFd>> = Vec::with_capacity(steps.len());
    let mut linked = Vec::with_capacity(steps.len());
    let mut made = HashMap::new();
    for (s, e) in steps.iter().zip(j.entries.iter_mut()) {
        hooks::pause();
        let dir = ensure_dir(s, &mut made)?;
        if let StepKind::Write {
            new,
            attrs,
            attrs_from,
            ..
        } = &s.kind
        {
            let temp = e.temp.as_deref().unwrap_or_default();
            let ident = write_temp(&dir, temp, s, new, *attrs, *attrs_from, notes)?;
            e.temp_ident = Some(ident);
        }
        if let (Some(b), Some(fp)) = (&e.backup, s.original()) {
            linked.push(Some(backup(&dir, b, fp, s, e)?));
        } else {
            linked.push(None);
        }
        dirs.push(dir);
    }
    Ok((dirs, linked))
}

/// Keeps the original of a step as the hard link `b` beside it, and checks the link is the
/// file that was read; returns the original as the link left it (its ctime is the link's).
fn backup(dir: &OwnedFd, b: &str, fp: &Fingerprint, s: &Step, e: &Entry) -> Result<Meta> {
    if fp.settled {
        // No hash: the ctime is the proof, and the link below changes it, so it is checked
        // now (a write since the read set it to a later time).
        match lstat_at(dir, &s.loc.name) {
            Ok(Some(m)) if same_state(&fp.meta, &m) && m.ctime == fp.meta.ctime => {}
            _ => return Err(changed(s.shown, Some(s.patch_line))),
        }
    }
    rfs::linkat(dir, s.loc.name.as_str(), dir, b, AtFlags::empty()).map_err(|err| {
        Error::io(
            Some(s.shown),
            &format!(
                "keep the original of {} while replacing it (a hard link beside it, in {}, was \
                 refused)",
                escape_path(s.shown),
                dir_name(&e.dir)
            ),
            err,
        )
    })?;
    match lstat_at(dir, b) {
        Ok(Some(m)) if m.ident == fp.meta.ident => Ok(m),
        _ => Err(changed(s.shown, Some(s.patch_line))),
    }
}

/// Step 4 for one step: a quick check that the entry is still what was read (and, since its
/// backup link, has not changed even its ctime: nothing of the apply touches it in between),
/// then the rename of its temporary file over it, or its removal.
fn replace(s: &Step, e: &Entry, dir: &OwnedFd, linked: Option<&Meta>) -> Result<()> {
    hooks::pause();
    let verb = match s.kind {
        StepKind::Write { .. } => "replace",
        StepKind::Remove { .. } => "remove",
    };
    hooks::fail(s.shown).map_err(|err| {
        Error::io(
            Some(s.shown),
            &format!("{verb} {}", escape_path(s.shown)),
            err,
        )
    })?;
    let now = lstat_at(dir, &s.loc.name).map_err(|err| {
        Error::io(
            Some(s.shown),
            &format!("look up {}", escape_path(s.shown)),
            err,
        )
    })?;
    let unchanged = match (s.original(), now) {
        (Some(fp), Some(m)) => {
            same_state(&fp.meta, &m) && linked.is_none_or(|l| l.ctime == m.ctime)
        }
        (None, None) => true,
        _ => false,
    };
    if !unchanged {
        return Err(changed(s.shown, Some(s.patch_line)));
    }
    match &s.kind {
        StepKind::Write { replaces, .. } => {
            let temp = e.temp.as_deref().unwrap_or_default();
            rename(dir, temp, &s.loc.name, replaces.is_none()).map_err(|err| {
                Error::io(
                    Some(s.shown),
                    &format!(
                        "replace {} (rename in {})",
                        escape_path(s.shown),
                        dir_name(&e.dir)
                    ),
                    err,
                )
            })
        }
        StepKind::Remove { .. } => rfs::unlinkat(dir, s.loc.name.as_str(), AtFlags::empty())
            .map_err(|err| {
                Error::io(
                    Some(s.shown),
                    &format!("remove {} from {}", escape_path(s.shown), dir_name(&e.dir)),
                    err,
                )
            }),
    }
}

/// Renames `temp` to `name` in `dir`; `no_replace`: the name must not exist (a file that
/// appeared meanwhile is never overwritten, where the OS can promise it).
fn rename(dir: &OwnedFd, temp: &str, name: &str, no_replace: bool) -> std::io::Result<()> {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    if no_replace {
        match rfs::renameat_with(dir, temp, dir, name, rfs::RenameFlags::NOREPLACE) {
            Ok(()) => return Ok(()),
            Err(Errno::INVAL) | Err(Errno::NOSYS) | Err(Errno::NOTSUP) => {}
            Err(e) => return Err(e.into()),
        }
    }
    // Elsewhere (or on a file system without RENAME_NOREPLACE) the identity check just
    // before this rename is the guard.
    let _ = no_replace;
    Ok(rfs::renameat(dir, temp, dir, name)?)
}

/// Checks the file at `dir/name` against its fingerprint.
fn verify(
    dir: &OwnedFd,
    name: &str,
    fp: &Fingerprint,
    hasher: &impl BuildHasher,
) -> std::io::Result<()> {
    let bad = || std::io::Error::other("changed");
    let m = lstat_at(dir, name)?.ok_or_else(bad)?;
    if !same_state(&fp.meta, &m) {
        return Err(bad());
    }
    if let Some(h) = fp.hash {
        let fd = open_file(dir, name)?;
        if hash_fd(hasher, &fd)? != h {
            return Err(bad());
        }
    }
    Ok(())
}

/// Creates the temporary file (exclusive, 0600 from the first byte), writes `new`, gives it
/// its attributes, fsyncs it; returns its identity.
fn write_temp(
    dir: &OwnedFd,
    temp: &str,
    s: &Step,
    new: &[u8],
    attrs: Attrs,
    attrs_from: Option<&Located>,
    notes: &mut Vec<String>,
) -> Result<crate::fsys::Ident> {
    let shown = escape_path(s.shown);
    let where_ = || {
        let mut c = s.loc.dir_comps.clone();
        c.extend(s.loc.missing_dirs.iter().cloned());
        dir_name(&c)
    };
    let fd = rfs::openat(
        dir,
        temp,
        OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::from_raw_mode(0o600),
    )
    .map_err(|e| {
        Error::io(
            Some(s.shown),
            &format!("create a temporary file in {} for {shown}", where_()),
            e,
        )
    })?;
    let ident = rfs::fstat(&fd)
        .map(|st| Meta::of(&st).ident)
        .map_err(|e| Error::io(Some(s.shown), "look up a temporary file", e))?;
    let source = attrs_from.and_then(|l| open_file(&*l.dir, &l.name).ok());
    let mut f = std::fs::File::from(fd);
    f.write_all(new).map_err(|e| {
        Error::io(
            Some(s.shown),
            &format!(
                "write the new text of {shown} ({} bytes) to a temporary file in {}",
                new.len(),
                where_()
            ),
            e,
        )
    })?;
    let fd = OwnedFd::from(f);
    notes.extend(attrs::apply(&fd, attrs, source.as_ref(), &shown));
    rfs::fsync(&fd).map_err(|e| {
        Error::io(
            Some(s.shown),
            &format!("flush the new text of {shown} to disk"),
            e,
        )
    })?;
    Ok(ident)
}
