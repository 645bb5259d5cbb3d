//! Paths as the patch writes them: lexical resolution of `.` and `..` before any access, the
//! names the layer refuses (version-control metadata, its own state directory), and escaping
//! for display.

use std::fmt::Write as _;

/// The directory under the root that holds the lock and the intent journal while an apply
/// runs (and only then).
pub const STATE_DIR: &str = ".v4a";

/// Version-control metadata directories, refused unless [`crate::WorkspaceOptions::allow_vcs`].
pub const VCS_DIRS: [&str; 3] = [".git", ".hg", ".svn"];

/// Why a path is refused before anything is opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Lexical {
    Empty,
    Nul,
    Absolute,
    Drive,
    Escapes,
    Root,
}

impl Lexical {
    pub(crate) fn why(&self) -> &'static str {
        match self {
            Lexical::Empty => "the path is empty",
            Lexical::Nul => "the path contains a NUL byte",
            Lexical::Absolute => "the path is absolute",
            Lexical::Drive => "the path starts with a drive letter",
            Lexical::Escapes => "the path climbs out of the root with \"..\"",
            Lexical::Root => "the path names the root directory, not a file",
        }
    }
}

/// Splits `path` into components with `.` removed and `..` resolved lexically (a `..` removes
/// the component before it, whatever that component is on disk). `/` and `\` both separate.
pub(crate) fn components(path: &str) -> Result<Vec<String>, Lexical> {
    if path.is_empty() {
        return Err(Lexical::Empty);
    }
    if path.contains('\0') {
        return Err(Lexical::Nul);
    }
    if path.starts_with('/') || path.starts_with('\\') {
        return Err(Lexical::Absolute);
    }
    let b = path.as_bytes();
    if b.len() >= 2 && b[1] == b':' && b[0].is_ascii_alphabetic() {
        return Err(Lexical::Drive);
    }
    let mut out = Vec::new();
    push_components(&mut out, path)?;
    if out.is_empty() {
        return Err(Lexical::Root);
    }
    Ok(out)
}

/// Appends the components of the relative `path` to `out`, resolving `..` against what is
/// already there.
pub(crate) fn push_components(out: &mut Vec<String>, path: &str) -> Result<(), Lexical> {
    for c in path.split(['/', '\\']) {
        match c {
            "" | "." => {}
            ".." => {
                if out.pop().is_none() {
                    return Err(Lexical::Escapes);
                }
            }
            c => out.push(c.to_string()),
        }
    }
    Ok(())
}

/// The refused component of `comps`, if any: version-control metadata (unless allowed) or
/// the layer's own state directory. Compared without case and without the trailing dots and
/// spaces Windows ignores, so `.GIT` and `.git.` are `.git` too.
pub(crate) fn refused_component(comps: &[String], allow_vcs: bool) -> Option<&str> {
    comps.iter().map(String::as_str).find(|c| {
        let bare = c.trim_end_matches(['.', ' ']);
        let bare = if bare.is_empty() { *c } else { bare };
        bare.eq_ignore_ascii_case(STATE_DIR)
            || (!allow_vcs && VCS_DIRS.iter().any(|v| bare.eq_ignore_ascii_case(v)))
    })
}

/// `path` with every control character (C0, DEL, C1) and every bidirectional override
/// escaped, so that printing it cannot move the cursor, change colours or reorder the text.
///
/// ```
/// assert_eq!(v4a_workspace::escape_path("a\x1b[31m.txt"), "a\\x1b[31m.txt");
/// assert_eq!(v4a_workspace::escape_path("plain/ok.txt"), "plain/ok.txt");
/// ```
pub fn escape_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for ch in path.chars() {
        match ch {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if (0x80..0xa0).contains(&(c as u32))
                || matches!(c as u32, 0x200e | 0x200f | 0x202a..=0x202e | 0x2066..=0x2069) =>
            {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// Escapes control characters in a whole message (keeping line breaks and tabs), for callers
/// that print messages holding paths or file lines to a terminal.
///
/// ```
/// assert_eq!(v4a_workspace::escape_message("line\n\x1b]0;x\x07"), "line\n\\x1b]0;x\\x07");
/// ```
pub fn escape_message(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '\n' | '\t' => out.push(ch),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if (0x80..0xa0).contains(&(c as u32))
                || matches!(c as u32, 0x202a..=0x202e | 0x2066..=0x2069) =>
            {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn comps(p: &str) -> Result<Vec<String>, Lexical> {
        components(p)
    }

    #[test]
    fn dot_dot_is_resolved_before_any_access() {
        assert_eq!(
            comps("nosuchdir/../link/victim.txt").unwrap(),
            ["link", "victim.txt"]
        );
        assert_eq!(comps("q/w/../../abs/new.sh").unwrap(), ["abs", "new.sh"]);
        assert_eq!(comps("./a//b/./c").unwrap(), ["a", "b", "c"]);
        assert_eq!(comps("a/../../x"), Err(Lexical::Escapes));
        assert_eq!(comps("a/.."), Err(Lexical::Root));
        assert_eq!(comps("/etc/passwd"), Err(Lexical::Absolute));
        assert_eq!(comps("C:x"), Err(Lexical::Drive));
        assert_eq!(comps("a\0b"), Err(Lexical::Nul));
        assert_eq!(comps(""), Err(Lexical::Empty));
    }

    #[test]
    fn version_control_and_state_directories_are_refused_in_any_case() {
        let c = |p: &str| comps(p).unwrap();
        assert_eq!(refused_component(&c(".git/config"), false), Some(".git"));
        assert_eq!(
            refused_component(&c("sub/.GIT./hooks/x"), false),
            Some(".GIT.")
        );
        assert_eq!(refused_component(&c("a/.hg/hgrc"), false), Some(".hg"));
        assert_eq!(refused_component(&c(".svn/entries"), false), Some(".svn"));
        assert_eq!(refused_component(&c(".git/config"), true), None);
        assert_eq!(refused_component(&c(".v4a/journal"), true), Some(".v4a"));
        assert_eq!(
            refused_component(&c(".github/workflows/ci.yml"), false),
            None
        );
        assert_eq!(refused_component(&c("x/...git"), false), None);
    }

    #[test]
    fn escapes_cover_c0_c1_del_and_bidi() {
        assert_eq!(escape_path("\u{1b}]8;;x\u{7}"), "\\x1b]8;;x\\x07");
        assert_eq!(escape_path("a\u{9b}b\u{7f}"), "a\\u{9b}b\\x7f");
        assert_eq!(escape_path("evil\u{202e}txt.exe"), "evil\\u{202e}txt.exe");
        assert_eq!(escape_path("src/main.rs"), "src/main.rs");
        assert_eq!(escape_path("a\nb"), "a\\nb");
    }
}
