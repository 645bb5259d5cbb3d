//! The lock of a root: `ROOT/.v4a/lock`, held with `flock` for the whole apply (so a crashed
//! holder never leaves it held), removed with its directory when the apply completes.

use std::os::fd::OwnedFd;
use std::time::{Duration, Instant};

use rustix::fs::{self as rfs, AtFlags, FlockOperation, Mode, OFlags};
use rustix::io::Errno;
use v4a::Status;

use crate::error::{Error, Result};
use crate::fsys::{lstat_at, open_subdir, Ident, Meta, Stamp};
use crate::path::STATE_DIR;

/// The lock file's name inside [`STATE_DIR`].
pub(crate) const LOCK_FILE: &str = "lock";

/// A held lock. [`Lock::release`] removes it; dropping it only unlocks.
pub(crate) struct Lock {
    /// The state directory (`ROOT/.v4a`).
    pub state: OwnedFd,
    file: OwnedFd,
}

impl Lock {
    /// Takes the lock of `root`, waiting up to `wait` for another apply to finish.
    pub(crate) fn acquire(root: &OwnedFd, wait: Duration) -> Result<Lock> {
        let start = Instant::now();
        loop {
            if let Some(lock) = try_once(root)? {
                return Ok(lock);
            }
            if start.elapsed() >= wait {
                return Err(Error::status_at(
                    Status::Locked,
                    None,
                    None,
                    format!(
                        "another v4a apply is running on this directory (it holds {STATE_DIR}/\
                         {LOCK_FILE}; waited {:.1} s); nothing was changed: retry when it \
                         has finished",
                        wait.as_secs_f64()
                    ),
                ));
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// The lock file's status change time: a moment on the root file system's clock before
    /// this apply read any file (`None` if it cannot be read).
    pub(crate) fn stamp(&self) -> Option<Stamp> {
        let m = Meta::of(&rfs::fstat(&self.file).ok()?);
        Some(Stamp {
            dev: m.ident.dev,
            time: m.ctime,
        })
    }

    /// Removes the lock file and the state directory (if empty), then unlocks.
    pub(crate) fn release(self, root: &OwnedFd) {
        let _ = rfs::unlinkat(&self.state, LOCK_FILE, AtFlags::empty());
        let _ = rfs::unlinkat(root, STATE_DIR, AtFlags::REMOVEDIR);
        drop(self.file);
    }
}

/// Opens (creating if needed) the state directory; refuses one that is a link or a file.
pub(crate) fn open_state_dir(root: &OwnedFd, create: bool) -> Result<Option<OwnedFd>> {
    if create {
        match rfs::mkdirat(root, STATE_DIR, Mode::from_raw_mode(0o700)) {
            Ok(()) | Err(Errno::EXIST) => {}
            Err(e) => {
                return Err(Error::io(
                    None,
                    &format!("create the lock directory {STATE_DIR} in the root"),
                    e,
                ))
            }
        }
    }
    match open_subdir(root, STATE_DIR) {
        Ok(fd) => Ok(Some(fd)),
        Err(e) if e.raw_os_error() == Some(Errno::NOENT.raw_os_error()) => Ok(None),
        Err(e)
            if e.raw_os_error() == Some(Errno::LOOP.raw_os_error())
                || e.raw_os_error() == Some(Errno::NOTDIR.raw_os_error()) =>
        {
            Err(Error::status_at(
                Status::UnsafePath,
                None,
                None,
                format!(
                    "{STATE_DIR} in the root is not a directory (a file or a symbolic link); \
                     v4a keeps its lock and journal there: remove it; nothing was changed"
                ),
            ))
        }
        Err(e) => Err(Error::io(None, &format!("open {STATE_DIR}"), e)),
    }
}

fn try_once(root: &OwnedFd) -> Result<Option<Lock>> {
    let Some(state) = open_state_dir(root, true)? else {
        return Ok(None); // removed meanwhile by a finishing apply: try again
    };
    let file = match rfs::openat(
        &state,
        LOCK_FILE,
        OFlags::RDWR | OFlags::CREATE | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::from_raw_mode(0o600),
    ) {
        Ok(f) => f,
        Err(Errno::NOENT) => return Ok(None),
        Err(e) => {
            return Err(Error::io(
                None,
                &format!("open the lock {STATE_DIR}/{LOCK_FILE}"),
                e,
            ))
        }
    };
    match rfs::flock(&file, FlockOperation::NonBlockingLockExclusive) {
        Ok(()) => {}
        Err(Errno::WOULDBLOCK) | Err(Errno::INTR) => return Ok(None),
        Err(e) => return Err(Error::io(None, &format!("lock {STATE_DIR}/{LOCK_FILE}"), e)),
    }
    // The holder before us may have removed the file (or the directory) after we opened it:
    // then we locked an orphan, and must start again.
    let ident = |fd: &OwnedFd| rfs::fstat(fd).map(|st| Meta::of(&st).ident).ok();
    let same = |a: Option<Ident>, b: Option<Meta>| a.is_some() && a == b.map(|m| m.ident);
    if same(ident(&file), lstat_at(&state, LOCK_FILE).ok().flatten())
        && same(ident(&state), lstat_at(root, STATE_DIR).ok().flatten())
    {
        Ok(Some(Lock { state, file }))
    } else {
        Ok(None)
    }
}
