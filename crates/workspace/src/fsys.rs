//! Directory handles: every path component opened relative to the directory before it, with
//! `O_NOFOLLOW`, so the kernel never follows a symbolic link for us. A link inside the root
//! is read (`readlinkat`), resolved lexically against where it sits, checked like a path of
//! the patch, and the walk restarts from the root handle; a link that is absolute or climbs
//! out of the root is refused.

use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::path::Path;
use std::rc::Rc;

use rustix::fs::{self as rfs, AtFlags, FileType, Mode, OFlags, Stat};

use crate::path::{push_components, refused_component};

/// How many symbolic links one path may go through.
const MAX_LINKS: usize = 40;

/// A file's identity: device and inode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Ident {
    pub dev: u64,
    pub ino: u64,
}

/// A moment on a file system's own clock: the status change time of a file this apply
/// created (the lock) before it read anything.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Stamp {
    /// The file system (device) whose clock it is.
    pub dev: u64,
    pub time: (i64, u64),
}

/// What a directory entry is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    File,
    Dir,
    Link,
    Other,
}

/// The facts of an entry that the layer uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Meta {
    pub ident: Ident,
    pub kind: Kind,
    pub size: u64,
    pub mtime: (i64, u64),
    /// The status change time: set by the file system to its own clock on every write,
    /// link, rename or attribute change; no program can set it back.
    pub ctime: (i64, u64),
    pub mode: u32,
    pub uid: u32,
    pub gid: u32,
}

impl Meta {
    // The field types differ between platforms (macOS has 32-bit modes and devices).
    #[allow(clippy::unnecessary_cast)]
    pub(crate) fn of(st: &Stat) -> Meta {
        let kind = match FileType::from_raw_mode(st.st_mode as _) {
            FileType::RegularFile => Kind::File,
            FileType::Directory => Kind::Dir,
            FileType::Symlink => Kind::Link,
            _ => Kind::Other,
        };
        Meta {
            ident: Ident {
                dev: st.st_dev as u64,
                ino: st.st_ino as u64,
            },
            kind,
            size: st.st_size as u64,
            mtime: (st.st_mtime as i64, st.st_mtime_nsec as u64),
            ctime: (st.st_ctime as i64, st.st_ctime_nsec as u64),
            mode: st.st_mode as u32 & 0o7777,
            uid: st.st_uid as u32,
            gid: st.st_gid as u32,
        }
    }
}

/// A path of the patch, located under the root: the handle of the deepest directory that
/// exists on its way, the directories still missing below it, and the final name.
#[derive(Debug)]
pub(crate) struct Located {
    /// The directory that holds the entry (or the deepest existing one on the way), shared by
    /// every path of the patch in that directory (one handle per directory, not per path).
    pub dir: Rc<OwnedFd>,
    /// That directory's components from the root (links resolved).
    pub dir_comps: Vec<String>,
    /// Directories to create below `dir` before the entry can be written.
    pub missing_dirs: Vec<String>,
    /// The entry's name.
    pub name: String,
    /// The entry (not followed if it is a link), or `None` if it does not exist.
    pub entry: Option<Meta>,
}

impl Located {
    /// Every component of the entry from the root, links resolved.
    pub(crate) fn real_comps(&self) -> Vec<String> {
        let mut v = self.dir_comps.clone();
        v.extend(self.missing_dirs.iter().cloned());
        v.push(self.name.clone());
        v
    }
}

/// Why a walk stopped.
#[derive(Debug)]
pub(crate) enum WalkError {
    /// The path (after a link) leaves the root or names a refused directory.
    Unsafe(String),
    /// A component the path needs as a directory is something else (its components).
    NotADir(String),
    /// The OS refused (what was being done, the error).
    Io(String, io::Error),
}

/// Opens the root directory.
pub(crate) fn open_root(root: &Path) -> io::Result<OwnedFd> {
    let fd = rfs::open(
        root,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
        Mode::empty(),
    )?;
    Ok(fd)
}

/// Opens the directory `name` in `dir`, never through a link.
pub(crate) fn open_subdir(dir: impl AsFd, name: &str) -> io::Result<OwnedFd> {
    Ok(rfs::openat(
        dir,
        name,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::empty(),
    )?)
}

/// The entry `name` of `dir`, not following a link; `None` if there is none.
pub(crate) fn lstat_at(dir: impl AsFd, name: &str) -> io::Result<Option<Meta>> {
    match rfs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW) {
        Ok(st) => Ok(Some(Meta::of(&st))),
        Err(rustix::io::Errno::NOENT) => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// Opens the regular file `name` of `dir` for reading, never through a link (a FIFO or a
/// device is not waited on).
pub(crate) fn open_file(dir: impl AsFd, name: &str) -> io::Result<OwnedFd> {
    Ok(rfs::openat(
        dir,
        name,
        OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC,
        Mode::empty(),
    )?)
}

/// Duplicates a handle.
pub(crate) fn dup(fd: &OwnedFd) -> io::Result<OwnedFd> {
    fd.try_clone()
}

/// Locates `comps` (lexically resolved components) under `root`. `follow_last`: a final
/// symbolic link is followed (inside the root) to the file it names; otherwise the link itself
/// is the entry.
pub(crate) fn walk(
    root: &OwnedFd,
    comps: &[String],
    follow_last: bool,
    allow_vcs: bool,
) -> Result<Located, WalkError> {
    let mut pending: Vec<String> = comps.to_vec();
    let mut links = 0usize;
    loop {
        if let Some(bad) = refused_component(&pending, allow_vcs) {
            return Err(WalkError::Unsafe(format!(
                "it goes into {bad}/, which is refused (version-control metadata and v4a's \
                 own {} directory are never written)",
                crate::path::STATE_DIR
            )));
        }
        match walk_once(root, &pending, follow_last, &mut links)? {
            Walked::Found(loc) => return Ok(loc),
            Walked::Restart(next) => pending = next,
        }
    }
}

/// How one pass over the components ended.
enum Walked {
    /// The entry, located.
    Found(Located),
    /// A symbolic link on the way: walk these components from the root instead.
    Restart(Vec<String>),
}

/// One pass over `pending` from the root, until the entry, a missing directory or a link.
fn walk_once(
    root: &OwnedFd,
    pending: &[String],
    follow_last: bool,
    links: &mut usize,
) -> Result<Walked, WalkError> {
    let mut fd = dup(root).map_err(|e| WalkError::Io("open the root".into(), e))?;
    let mut done: Vec<String> = Vec::new();
    let Some((last, dirs)) = pending.split_last() else {
        return Err(WalkError::Unsafe(
            "the path names the root directory".into(),
        ));
    };
    for (i, comp) in dirs.iter().enumerate() {
        match open_subdir(&fd, comp) {
            Ok(d) => {
                fd = d;
                done.push(comp.clone());
            }
            Err(e) if e.raw_os_error() == Some(rustix::io::Errno::NOENT.raw_os_error()) => {
                return Ok(Walked::Found(Located {
                    dir: Rc::new(fd),
                    dir_comps: done,
                    missing_dirs: dirs[i..].to_vec(),
                    name: last.clone(),
                    entry: None,
                }));
            }
            Err(e)
                if e.raw_os_error() == Some(rustix::io::Errno::LOOP.raw_os_error())
                    || e.raw_os_error() == Some(rustix::io::Errno::NOTDIR.raw_os_error()) =>
            {
                return not_a_dir(&fd, &done, comp, &pending[i + 1..], links);
            }
            Err(e) => return Err(WalkError::Io(format!("open {}", shown(&done, comp)), e)),
        }
    }
    let entry = lstat_at(&fd, last)
        .map_err(|e| WalkError::Io(format!("look up {}", shown(&done, last)), e))?;
    if let (Some(m), true) = (entry, follow_last) {
        if m.kind == Kind::Link {
            return follow(&fd, &done, last, &[], links).map(Walked::Restart);
        }
    }
    Ok(Walked::Found(Located {
        dir: Rc::new(fd),
        dir_comps: done,
        missing_dirs: Vec::new(),
        name: last.clone(),
        entry,
    }))
}

/// A component the path needs as a directory could not be opened as one: a symbolic link is
/// followed (the walk restarts), anything else is `NotADir`.
fn not_a_dir(
    fd: &OwnedFd,
    done: &[String],
    comp: &str,
    rest: &[String],
    links: &mut usize,
) -> Result<Walked, WalkError> {
    let m = lstat_at(fd, comp)
        .map_err(|e| WalkError::Io(format!("look up {}", shown(done, comp)), e))?;
    match m.map(|m| m.kind) {
        Some(Kind::Link) => follow(fd, done, comp, rest, links).map(Walked::Restart),
        _ => {
            let mut p = done.to_vec();
            p.push(comp.to_string());
            Err(WalkError::NotADir(p.join("/")))
        }
    }
}

/// The components a link at `done/name` stands for, followed by `rest`.
fn follow(
    dir: &OwnedFd,
    done: &[String],
    name: &str,
    rest: &[String],
    links: &mut usize,
) -> Result<Vec<String>, WalkError> {
    let at = shown(done, name);
    *links += 1;
    if *links > MAX_LINKS {
        return Err(WalkError::Unsafe(format!(
            "it goes through more than {MAX_LINKS} symbolic links (at {at})"
        )));
    }
    let target = rfs::readlinkat(dir, name, Vec::new())
        .map_err(|e| WalkError::Io(format!("read the symbolic link {at}"), e.into()))?;
    let target = target.to_string_lossy().into_owned();
    if target.starts_with('/') {
        return Err(WalkError::Unsafe(format!(
            "{at} is a symbolic link to an absolute path ({target}), which counts as outside \
             the root; links are followed only inside it"
        )));
    }
    let mut comps = done.to_vec();
    push_components(&mut comps, &target).map_err(|_| {
        WalkError::Unsafe(format!(
            "{at} is a symbolic link that points outside the root (to {target})"
        ))
    })?;
    comps.extend(rest.iter().cloned());
    if comps.is_empty() {
        return Err(WalkError::Unsafe(format!(
            "{at} is a symbolic link to the root directory"
        )));
    }
    Ok(comps)
}

fn shown(done: &[String], name: &str) -> String {
    let mut p = done.to_vec();
    p.push(name.to_string());
    p.join("/")
}

/// Opens the directory `comps` under `root` (the root itself for no components), never
/// through a link.
pub(crate) fn open_dir_path(root: &OwnedFd, comps: &[String]) -> io::Result<OwnedFd> {
    let mut fd = dup(root)?;
    for c in comps {
        fd = open_subdir(&fd, c)?;
    }
    Ok(fd)
}

/// The process's umask, read without changing it (Linux: `/proc/self/status`); 022 when it
/// cannot be read.
pub(crate) fn umask() -> u32 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("Umask:"))
                .and_then(|v| u32::from_str_radix(v.trim(), 8).ok())
        })
        .unwrap_or(0o022)
}

/// fsyncs a directory (best effort: some file systems refuse).
pub(crate) fn sync_dir(dir: &OwnedFd) {
    let _ = rfs::fsync(dir);
}
