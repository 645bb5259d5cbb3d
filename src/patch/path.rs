//! Path classification, so callers can refuse writes outside their workspace. The engine
//! itself never touches the disk and returns paths exactly as written.

/// What kind of path a patch names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PathClass {
    /// Relative, and stays inside the root (`src/a.rs`, `a/../b`).
    Relative = 0,
    /// Absolute (`/etc/passwd`, `\\server\share`, `\x`).
    Absolute = 1,
    /// Relative but climbs out of the root with `..` (`../x`, `a/../../x`).
    ParentEscape = 2,
    /// Empty or only whitespace.
    Empty = 3,
    /// Contains a NUL byte.
    Nul = 4,
    /// Starts with a Windows drive prefix (`C:`, `c:\x`, `C:x`).
    DrivePrefix = 5,
}

impl PathClass {
    /// True only for [`PathClass::Relative`]: the one class that is safe to write under a root.
    pub fn is_safe(self) -> bool {
        self == PathClass::Relative
    }

    /// The lower-case name (`"relative"`, `"absolute"`, `"parent_escape"`, ...).
    pub fn name(self) -> &'static str {
        match self {
            PathClass::Relative => "relative",
            PathClass::Absolute => "absolute",
            PathClass::ParentEscape => "parent_escape",
            PathClass::Empty => "empty",
            PathClass::Nul => "nul",
            PathClass::DrivePrefix => "drive_prefix",
        }
    }
}

/// Classifies a path as written in a patch. Both `/` and `\` separate components.
///
/// ```
/// use v4a::{classify_path, PathClass};
/// assert_eq!(classify_path("src/a.rs"), PathClass::Relative);
/// assert_eq!(classify_path("a/../../etc"), PathClass::ParentEscape);
/// assert_eq!(classify_path("C:\\x"), PathClass::DrivePrefix);
/// ```
pub fn classify_path(path: &str) -> PathClass {
    if path.trim().is_empty() {
        return PathClass::Empty;
    }
    if path.contains('\0') {
        return PathClass::Nul;
    }
    let b = path.as_bytes();
    if b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':' {
        return PathClass::DrivePrefix;
    }
    if b[0] == b'/' || b[0] == b'\\' {
        return PathClass::Absolute;
    }
    let mut depth: i64 = 0;
    for part in path.split(['/', '\\']) {
        match part {
            "" | "." => {}
            ".." => {
                depth -= 1;
                if depth < 0 {
                    return PathClass::ParentEscape;
                }
            }
            _ => depth += 1,
        }
    }
    PathClass::Relative
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes() {
        let cases = [
            ("a", PathClass::Relative),
            ("./a/b/../c", PathClass::Relative),
            ("a/..", PathClass::Relative),
            ("", PathClass::Empty),
            ("  ", PathClass::Empty),
            ("a\0b", PathClass::Nul),
            ("/abs", PathClass::Absolute),
            ("\\\\srv\\share", PathClass::Absolute),
            ("..", PathClass::ParentEscape),
            ("a\\..\\..\\b", PathClass::ParentEscape),
            ("c:", PathClass::DrivePrefix),
            ("Z:/x", PathClass::DrivePrefix),
        ];
        for (p, c) in cases {
            assert_eq!(classify_path(p), c, "{p:?}");
        }
    }
}
