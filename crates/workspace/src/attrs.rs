//! What a replaced file keeps: owner and group (where the caller may set them), permission
//! bits (setuid/setgid only while the owner, and for setgid the group, stay the same) and
//! extended attributes (POSIX ACLs included, where the file system has them).

use std::os::fd::OwnedFd;

use rustix::fs::{self as rfs, Gid, Mode, Uid};

use crate::fsys::Meta;

/// The attributes a new file gets.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Attrs {
    /// A file the patch creates: `0666 & !umask`, the caller's owner.
    New { mode: u32 },
    /// The attributes of an existing file (the one replaced, or the source of a move).
    Like(Meta),
}

/// Gives `tmp` the attributes; `source` (the file whose attributes are copied) supplies the
/// extended attributes. Returns a note for each attribute that could not be kept.
pub(crate) fn apply(
    tmp: &OwnedFd,
    attrs: Attrs,
    source: Option<&OwnedFd>,
    shown: &str,
) -> Vec<String> {
    let mut notes = Vec::new();
    let want = match attrs {
        Attrs::New { mode } => {
            let _ = rfs::fchmod(tmp, Mode::from_raw_mode(mode as _));
            return notes;
        }
        Attrs::Like(m) => m,
    };
    let me = rfs::fstat(tmp).map(|s| Meta::of(&s));
    if let Ok(me) = me {
        if me.uid != want.uid || me.gid != want.gid {
            let both = rfs::fchown(
                tmp,
                Some(Uid::from_raw(want.uid)),
                Some(Gid::from_raw(want.gid)),
            );
            if both.is_err() && me.gid != want.gid {
                // Not root: the group alone may still be ours to give.
                let _ = rfs::fchown(tmp, None, Some(Gid::from_raw(want.gid)));
            }
        }
    }
    if let Some(src) = source {
        copy_xattrs(src, tmp);
    }
    let now = rfs::fstat(tmp).map(|s| Meta::of(&s)).ok();
    let mut mode = want.mode;
    if let Some(now) = now {
        if now.uid != want.uid {
            notes.push(format!(
                "{shown}: now owned by uid {} (was {}): only root can keep another user's file \
                 theirs when replacing it",
                now.uid, want.uid
            ));
            mode &= !0o6000;
        }
        if now.gid != want.gid {
            notes.push(format!(
                "{shown}: now in group {} (was {}): you are not a member of the file's group",
                now.gid, want.gid
            ));
            mode &= !0o2000;
        }
    }
    if rfs::fchmod(tmp, Mode::from_raw_mode(mode as _)).is_err() {
        notes.push(format!(
            "{shown}: its permissions (0{mode:o}) could not be kept"
        ));
    }
    notes
}

/// Copies every extended attribute the OS lets us read and write (best effort: a file system
/// without them, or `security.*` names only root may set, are skipped).
#[cfg(any(target_os = "linux", target_os = "android", target_vendor = "apple"))]
fn copy_xattrs(src: &OwnedFd, dst: &OwnedFd) {
    use rustix::fs::XattrFlags;
    let Ok(len) = rfs::flistxattr_query(src) else {
        return;
    };
    if len == 0 {
        return;
    }
    let mut names = vec![0u8; len];
    let Ok(n) = rfs::flistxattr(src, &mut names[..]) else {
        return;
    };
    for name in names[..n.min(len)]
        .split(|b| *b == 0)
        .filter(|n| !n.is_empty())
    {
        let Ok(name) = std::str::from_utf8(name) else {
            continue;
        };
        let Ok(vlen) = rfs::fgetxattr_query(src, name) else {
            continue;
        };
        let mut value = vec![0u8; vlen];
        if let Ok(got) = rfs::fgetxattr(src, name, &mut value[..]) {
            let _ = rfs::fsetxattr(dst, name, &value[..got.min(vlen)], XattrFlags::empty());
        }
    }
}

/// Platforms without the `f*xattr` calls keep no extended attributes.
#[cfg(not(any(target_os = "linux", target_os = "android", target_vendor = "apple")))]
fn copy_xattrs(_src: &OwnedFd, _dst: &OwnedFd) {}
