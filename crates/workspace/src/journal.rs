//! The intent journal, `ROOT/.v4a/journal`: what an apply is about to do, written (atomically,
//! fsynced) before anything is created and again before the first rename, so that after a
//! crash the next call, or `v4a recover`, finishes or undoes it.
//!
//! States: `prepare` (temporary files, backups and directories may exist; no file is replaced
//! yet) and `rename` (files may be replaced) are undone; `commit` (every file is new) is
//! finished. Undoing puts each original back from its backup, a hard link made in the file's
//! own directory before it was replaced, so the original inode (content, owner, mode,
//! attributes) comes back untouched. A file is removed by recovery only when its identity
//! (device, inode) is the one the journal recorded for the file the apply created.
//!
//! Format: text lines; every name is hex-encoded UTF-8 (any byte of a name survives).
//!
//! ```text
//! v4a-journal 1
//! state rename
//! mkdir <dir>
//! write <dir> <name> <temp> <backup|-> <temp dev:ino|-> <original dev:ino|-> <shown>
//! remove <dir> <name> <backup> <original dev:ino> <shown>
//! end
//! ```

use std::fmt::Write as _;
use std::io::{self, Write as _};
use std::os::fd::OwnedFd;

use rustix::fs::{self as rfs, AtFlags, Mode, OFlags};
use rustix::io::Errno;

use crate::fsys::{lstat_at, open_dir_path, sync_dir, Ident, Kind};

/// The journal's name inside the state directory.
pub(crate) const JOURNAL_FILE: &str = "journal";
const JOURNAL_TMP: &str = "journal.tmp";

/// How far an apply got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum State {
    Prepare,
    Rename,
    Commit,
}

impl State {
    fn name(self) -> &'static str {
        match self {
            State::Prepare => "prepare",
            State::Rename => "rename",
            State::Commit => "commit",
        }
    }
}

/// One step of an apply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    /// True for a write (temp renamed over `name`), false for a removal.
    pub write: bool,
    /// The directory's components from the root.
    pub dir: Vec<String>,
    pub name: String,
    pub temp: Option<String>,
    pub backup: Option<String>,
    pub temp_ident: Option<Ident>,
    pub orig_ident: Option<Ident>,
    /// The path as the patch wrote it (for messages).
    pub shown: String,
}

/// The journal of one apply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Journal {
    pub state: State,
    /// Directories the apply creates, parents first.
    pub mkdirs: Vec<Vec<String>>,
    pub entries: Vec<Entry>,
}

fn hex(s: &str) -> String {
    if s.is_empty() {
        return "=".into();
    }
    let mut out = String::with_capacity(s.len() * 2);
    for b in s.bytes() {
        let _ = write!(out, "{b:02x}");
    }
    out
}

fn unhex(s: &str) -> Option<String> {
    if s == "=" {
        return Some(String::new());
    }
    if s.len() % 2 != 0 {
        return None;
    }
    let bytes: Option<Vec<u8>> = (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect();
    String::from_utf8(bytes?).ok()
}

fn dir_field(d: &[String]) -> String {
    hex(&d.join("/"))
}

fn parse_dir(s: &str) -> Option<Vec<String>> {
    let d = unhex(s)?;
    Some(
        d.split('/')
            .filter(|c| !c.is_empty())
            .map(str::to_string)
            .collect(),
    )
}

fn opt(s: &Option<String>) -> String {
    s.as_deref().map(hex).unwrap_or_else(|| "-".into())
}

fn ident_field(i: &Option<Ident>) -> String {
    i.map(|i| format!("{}:{}", i.dev, i.ino))
        .unwrap_or_else(|| "-".into())
}

fn parse_ident(s: &str) -> Option<Option<Ident>> {
    if s == "-" {
        return Some(None);
    }
    let (d, i) = s.split_once(':')?;
    Some(Some(Ident {
        dev: d.parse().ok()?,
        ino: i.parse().ok()?,
    }))
}

fn parse_opt(s: &str) -> Option<Option<String>> {
    if s == "-" {
        Some(None)
    } else {
        unhex(s).map(Some)
    }
}

impl Journal {
    /// The journal's text.
    pub(crate) fn render(&self) -> String {
        let mut s = format!("v4a-journal 1\nstate {}\n", self.state.name());
        for d in &self.mkdirs {
            let _ = writeln!(s, "mkdir {}", dir_field(d));
        }
        for e in &self.entries {
            if e.write {
                let _ = writeln!(
                    s,
                    "write {} {} {} {} {} {} {}",
                    dir_field(&e.dir),
                    hex(&e.name),
                    opt(&e.temp),
                    opt(&e.backup),
                    ident_field(&e.temp_ident),
                    ident_field(&e.orig_ident),
                    hex(&e.shown)
                );
            } else {
                let _ = writeln!(
                    s,
                    "remove {} {} {} {} {}",
                    dir_field(&e.dir),
                    hex(&e.name),
                    opt(&e.backup),
                    ident_field(&e.orig_ident),
                    hex(&e.shown)
                );
            }
        }
        s.push_str("end\n");
        s
    }

    /// Parses a journal; `None` if it is not one this version wrote completely.
    pub(crate) fn parse(text: &str) -> Option<Journal> {
        let mut lines = text.lines();
        if lines.next()? != "v4a-journal 1" {
            return None;
        }
        let state = match lines.next()?.strip_prefix("state ")? {
            "prepare" => State::Prepare,
            "rename" => State::Rename,
            "commit" => State::Commit,
            _ => return None,
        };
        let mut j = Journal {
            state,
            mkdirs: Vec::new(),
            entries: Vec::new(),
        };
        for line in lines {
            let f: Vec<&str> = line.split(' ').collect();
            match f.as_slice() {
                ["end"] => return Some(j),
                ["mkdir", d] => j.mkdirs.push(parse_dir(d)?),
                ["write", d, n, t, b, ti, oi, sh] => j.entries.push(Entry {
                    write: true,
                    dir: parse_dir(d)?,
                    name: unhex(n)?,
                    temp: parse_opt(t)?,
                    backup: parse_opt(b)?,
                    temp_ident: parse_ident(ti)?,
                    orig_ident: parse_ident(oi)?,
                    shown: unhex(sh)?,
                }),
                ["remove", d, n, b, oi, sh] => j.entries.push(Entry {
                    write: false,
                    dir: parse_dir(d)?,
                    name: unhex(n)?,
                    temp: None,
                    backup: parse_opt(b)?,
                    temp_ident: None,
                    orig_ident: parse_ident(oi)?,
                    shown: unhex(sh)?,
                }),
                _ => return None,
            }
        }
        None
    }

    /// Writes the journal atomically (a temporary file, renamed). `durable`: fsynced, and the
    /// directory fsynced, so that it survives a power cut (needed when the apply replaces
    /// several files; a single rename is atomic by itself, and then the journal only serves
    /// to clean up after a killed process, which the page cache survives).
    pub(crate) fn store(&self, state_dir: &OwnedFd, durable: bool) -> io::Result<()> {
        let fd = rfs::openat(
            state_dir,
            JOURNAL_TMP,
            OFlags::WRONLY | OFlags::CREATE | OFlags::TRUNC | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::from_raw_mode(0o600),
        )?;
        let mut f = std::fs::File::from(fd);
        f.write_all(self.render().as_bytes())?;
        if durable {
            f.sync_all()?;
        }
        drop(f);
        rfs::renameat(state_dir, JOURNAL_TMP, state_dir, JOURNAL_FILE)?;
        if durable {
            rfs::fsync(state_dir)?;
        }
        Ok(())
    }
}

/// Reads the journal of the state directory: `Ok(None)` when there is none.
pub(crate) fn load(state_dir: &OwnedFd) -> io::Result<Option<Result<Journal, String>>> {
    let fd = match rfs::openat(
        state_dir,
        JOURNAL_FILE,
        OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::empty(),
    ) {
        Ok(fd) => fd,
        Err(Errno::NOENT) => return Ok(None),
        Err(e) => return Err(e.into()),
    };
    let text = io::read_to_string(std::fs::File::from(fd))?;
    Ok(Some(Journal::parse(&text).ok_or(text)))
}

/// Removes a half-written journal, if any.
pub(crate) fn remove_tmp(state_dir: &OwnedFd) {
    let _ = rfs::unlinkat(state_dir, JOURNAL_TMP, AtFlags::empty());
}

/// Removes the journal (and a half-written one); `durable`: the removal is fsynced.
pub(crate) fn remove(state_dir: &OwnedFd, durable: bool) -> io::Result<()> {
    let _ = rfs::unlinkat(state_dir, JOURNAL_TMP, AtFlags::empty());
    match rfs::unlinkat(state_dir, JOURNAL_FILE, AtFlags::empty()) {
        Ok(()) | Err(Errno::NOENT) => {}
        Err(e) => return Err(e.into()),
    }
    if durable {
        rfs::fsync(state_dir)?;
    }
    Ok(())
}

/// What recovery did to each file.
#[derive(Debug, Default)]
pub(crate) struct Replay {
    /// Files put back (undo) or completed (finish), as the patch wrote them.
    pub files: Vec<String>,
    /// Problems that need a person (each names the file and what is where).
    pub problems: Vec<String>,
}

fn ident_of(dir: &OwnedFd, name: &str) -> io::Result<Option<(Ident, Kind)>> {
    Ok(lstat_at(dir, name)?.map(|m| (m.ident, m.kind)))
}

fn unlink(dir: &OwnedFd, name: &str) -> io::Result<()> {
    match rfs::unlinkat(dir, name, AtFlags::empty()) {
        Ok(()) | Err(Errno::NOENT) => Ok(()),
        Err(e) => Err(e.into()),
    }
}

/// Undoes a journal in state `prepare` or `rename`: every original is put back, every file
/// the apply created is removed (only if it is still the one it created), temporary files
/// and backups go, created directories are removed when empty.
pub(crate) fn undo(root: &OwnedFd, j: &Journal) -> Replay {
    let mut r = Replay::default();
    for e in j.entries.iter().rev() {
        let dir = match open_dir_path(root, &e.dir) {
            Ok(d) => d,
            Err(err) if err.raw_os_error() == Some(Errno::NOENT.raw_os_error()) => continue,
            Err(err) => {
                r.problems
                    .push(format!("{}: cannot open its directory: {err}", e.shown));
                continue;
            }
        };
        if let Err(err) = undo_entry(&dir, e, j.entries.len() == 1, &mut r) {
            r.problems.push(format!("{}: {err}", e.shown));
        }
        sync_dir(&dir);
    }
    remove_dirs(root, &j.mkdirs);
    r
}

/// `single`: the journal has this one entry, written without fsync; after a power cut its
/// backup may be gone while its rename survived: the file is then wholly new, which for a
/// one-file apply is a complete outcome, not a problem.
fn undo_entry(dir: &OwnedFd, e: &Entry, single: bool, r: &mut Replay) -> io::Result<()> {
    let target = ident_of(dir, &e.name)?.map(|t| t.0);
    let mut touched = false;
    if let Some(b) = &e.backup {
        let backup = ident_of(dir, b)?.map(|t| t.0);
        if backup.is_some() && backup == e.orig_ident {
            if target == e.orig_ident {
                unlink(dir, b)?;
            } else if target.is_none() || (target.is_some() && target == e.temp_ident) {
                rfs::renameat(dir, b.as_str(), dir, e.name.as_str())?;
                touched = true;
            } else {
                r.problems.push(format!(
                    "{} was replaced by another program meanwhile; its original is kept \
                     beside it as {}",
                    e.shown, b
                ));
            }
        } else if !single
            && target != e.orig_ident
            && e.orig_ident.is_some()
            && target == e.temp_ident
        {
            r.problems.push(format!(
                "{} holds the new text and its original could not be found",
                e.shown
            ));
        }
    } else if e.write && target.is_some() && target == e.temp_ident {
        unlink(dir, &e.name)?;
        touched = true;
    }
    if let Some(t) = &e.temp {
        if let Some((id, Kind::File)) = ident_of(dir, t)? {
            if e.temp_ident.is_none() || e.temp_ident == Some(id) {
                unlink(dir, t)?;
            }
        }
    }
    if touched {
        r.files.push(e.shown.clone());
    }
    Ok(())
}

/// Finishes a journal in state `commit`: every file is new; the backups go (`durable`: the
/// directories are fsynced after).
pub(crate) fn finish(root: &OwnedFd, j: &Journal, durable: bool) -> Replay {
    let mut r = Replay::default();
    for e in &j.entries {
        let dir = match open_dir_path(root, &e.dir) {
            Ok(d) => d,
            Err(_) => continue,
        };
        let step = || -> io::Result<()> {
            if let Some(b) = &e.backup {
                if ident_of(&dir, b)?.map(|t| t.0) == e.orig_ident {
                    unlink(&dir, b)?;
                }
            }
            if let Some(t) = &e.temp {
                if let (Some((id, Kind::File)), Some(want)) = (ident_of(&dir, t)?, e.temp_ident) {
                    if id == want {
                        unlink(&dir, t)?;
                    }
                }
            }
            Ok(())
        };
        match step() {
            Ok(()) => r.files.push(e.shown.clone()),
            Err(err) => r.problems.push(format!("{}: {err}", e.shown)),
        }
        if durable {
            sync_dir(&dir);
        }
    }
    r
}

/// Removes the directories an apply created, deepest first, when they are empty.
pub(crate) fn remove_dirs(root: &OwnedFd, mkdirs: &[Vec<String>]) {
    for d in mkdirs.iter().rev() {
        let Some((last, parent)) = d.split_last() else {
            continue;
        };
        if let Ok(p) = open_dir_path(root, parent) {
            let _ = rfs::unlinkat(&p, last.as_str(), AtFlags::REMOVEDIR);
            sync_dir(&p);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_journal_round_trips_any_name() {
        let j = Journal {
            state: State::Rename,
            mkdirs: vec![vec!["a b".into(), "c\nd".into()]],
            entries: vec![
                Entry {
                    write: true,
                    dir: vec![],
                    name: "x y\t.txt".into(),
                    temp: Some(".v4a-1.tmp".into()),
                    backup: None,
                    temp_ident: Some(Ident { dev: 1, ino: 2 }),
                    orig_ident: None,
                    shown: "./x y\t.txt".into(),
                },
                Entry {
                    write: false,
                    dir: vec!["é".into()],
                    name: "z".into(),
                    temp: None,
                    backup: Some(".v4a-2.bak".into()),
                    temp_ident: None,
                    orig_ident: Some(Ident { dev: 3, ino: 4 }),
                    shown: "é/z".into(),
                },
            ],
        };
        assert_eq!(Journal::parse(&j.render()), Some(j.clone()));
        // A journal cut short is not taken for a whole one.
        let text = j.render();
        assert_eq!(Journal::parse(&text[..text.len() - 4]), None);
    }
}
