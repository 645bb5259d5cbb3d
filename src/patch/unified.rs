//! Plain unified diffs (`git diff`, `diff -u`) read as patches (SPEC §2.3): each `--- P` /
//! `+++ Q` pair (or `diff --git` section) opens a file operation, `/dev/null` on one side
//! makes it an Add or a Delete, `rename from` / `rename to` a Move. The hunks follow the V4A
//! rules: the line numbers of `@@ -a,b +c,d @@` are ignored, the text after them is an anchor.

use super::parse::{is_git_header, Parser};
use super::wrapper::PatchLine;
use super::{FileOp, Hunk, LineKind, OpKind};
use crate::error::Error;

const DEV_NULL: &str = "/dev/null";

/// True when the header lines at the start of the patch name files: a `diff ` line, or a
/// `--- P` line followed by a `+++ Q` line with paths.
pub(super) fn is_unified(lines: &[PatchLine<'_>]) -> bool {
    for (i, l) in lines.iter().enumerate() {
        let t = l.text;
        if t.starts_with("diff ") || t.starts_with("Index: ") {
            return true;
        }
        if let Some(old) = t.strip_prefix("--- ") {
            let new = lines.get(i + 1).and_then(|n| n.text.strip_prefix("+++ "));
            return new.is_some_and(|new| !clean(old).is_empty() && !clean(new).is_empty());
        }
        if !(t.trim().is_empty() || is_git_header(t) || t.starts_with("====")) {
            return false;
        }
    }
    false
}

/// True when the current line starts the next file of a unified diff, so it ends the hunks of
/// the current one: a `diff ` or `Index: ` line, or `--- P` / `+++ Q` / `@@` (inside a hunk
/// `--- x` alone is the removed line `-- x`).
pub(super) fn starts_file(p: &Parser<'_, '_>) -> bool {
    let Some(l) = p.peek() else {
        return false;
    };
    l.text.starts_with("diff ")
        || l.text.starts_with("Index: ")
        || l.text.starts_with("--- ")
            && p.peek_at(1).is_some_and(|n| n.text.starts_with("+++ "))
            && p.peek_at(2).is_some_and(|n| n.text.starts_with("@@"))
}

/// A path as a header writes it: without a trailing tab and timestamp (`diff -u`), without
/// surrounding quotes (git quotes paths with special characters).
fn clean(raw: &str) -> &str {
    let p = raw.split('\t').next().unwrap_or(raw).trim();
    p.strip_prefix('"')
        .and_then(|q| q.strip_suffix('"'))
        .unwrap_or(p)
}

/// The header of one file section.
#[derive(Default)]
struct Header<'a> {
    /// The paths of `diff --git a/X b/Y`.
    git: Option<(&'a str, &'a str)>,
    old: Option<&'a str>,
    new: Option<&'a str>,
    rename_from: Option<&'a str>,
    rename_to: Option<&'a str>,
    new_file: bool,
    deleted_file: bool,
}

impl<'a> Header<'a> {
    /// Reads a header line that is not a `diff`, `--- `/`+++ ` or `@@` line: a rename, a
    /// new or deleted file, a line git writes that changes nothing here, or an error for what
    /// cannot be applied (a copy, a binary diff) and for any other line.
    fn read_extended(&mut self, l: PatchLine<'a>) -> Result<(), Error> {
        let t = l.text;
        if let Some(p) = t.strip_prefix("rename from ") {
            self.rename_from = Some(clean(p));
        } else if let Some(p) = t.strip_prefix("rename to ") {
            self.rename_to = Some(clean(p));
        } else if t.starts_with("new file mode ") {
            self.new_file = true;
        } else if t.starts_with("deleted file mode ") {
            self.deleted_file = true;
        } else if t.starts_with("copy from ") || t.starts_with("copy to ") {
            return Err(Error::syntax(
                l.number,
                format!(
                    "line {}: a copied file (git's \"copy from\" / \"copy to\") cannot be \
                     applied: write the new file as \"*** Add File: PATH\" with its lines",
                    l.number
                ),
            ));
        } else if t.starts_with("Binary files ") || t.starts_with("GIT binary patch") {
            return Err(Error::syntax(
                l.number,
                format!(
                    "line {}: a binary diff cannot be applied: v4a patches text files only",
                    l.number
                ),
            ));
        } else if !(is_git_header(t)
            || t.starts_with("dissimilarity index ")
            || t.starts_with("====")
            || t.trim().is_empty())
        {
            return Err(Error::syntax(
                l.number,
                format!(
                    "unexpected line {} {t:?} in the header of a unified diff: expected \
                     \"--- PATH\" and \"+++ PATH\" lines, then hunks starting with \"@@\"",
                    l.number
                ),
            ));
        }
        Ok(())
    }
}

impl<'a> Parser<'_, 'a> {
    /// A whole unified diff: one file operation per `--- ` / `+++ ` pair or `diff` section.
    pub(super) fn parse_unified(&mut self) -> Result<(), Error> {
        while let Some(l) = self.peek() {
            if l.text.trim().is_empty() {
                self.pos += 1;
                continue;
            }
            self.parse_unified_file(l)?;
        }
        Ok(())
    }

    /// One file section: its header, then its hunks.
    fn parse_unified_file(&mut self, start: PatchLine<'_>) -> Result<(), Error> {
        let h = self.read_header()?;
        let op = resolve(&h, start.number)?;
        let hunks = if self.peek().is_some_and(|l| l.text.starts_with("@@")) {
            let name = op.target().to_string();
            self.parse_hunks(&name, true)?
        } else {
            Vec::new()
        };
        self.push_unified(op, hunks)
    }

    /// The header of a file section, read up to its first `@@` line, past its `--- `/`+++ `
    /// pair, or up to the next file's `diff` line (a file without hunks).
    fn read_header(&mut self) -> Result<Header<'a>, Error> {
        let mut h = Header::default();
        let mut first = true;
        while let Some(l) = self.peek() {
            let t = l.text;
            if t.starts_with("diff ") || t.starts_with("Index: ") {
                if !first {
                    break; // The next file: this one had no hunks.
                }
                if let Some(rest) = t.strip_prefix("diff --git ") {
                    h.git = rest
                        .strip_prefix("a/")
                        .and_then(|r| r.split_once(" b/"))
                        .or_else(|| rest.split_once(' '));
                }
            } else if let Some(old) = t.strip_prefix("--- ") {
                let Some(new) = self.peek_at(1).and_then(|n| n.text.strip_prefix("+++ ")) else {
                    return Err(Error::syntax(
                        l.number,
                        format!(
                            "line {}: a \"--- PATH\" header must be followed by a \"+++ PATH\" \
                             line",
                            l.number
                        ),
                    ));
                };
                h.old = Some(clean(old));
                h.new = Some(clean(new));
                self.pos += 2;
                break;
            } else if t.starts_with("@@") {
                break;
            } else {
                h.read_extended(l)?;
            }
            first = false;
            self.pos += 1;
        }
        Ok(h)
    }

    fn push_unified(&mut self, mut op: FileOp, hunks: Vec<Hunk>) -> Result<(), Error> {
        match op.kind {
            OpKind::Add => {
                let mut all = Hunk {
                    patch_line: op.patch_line,
                    ..Hunk::default()
                };
                for h in hunks {
                    if let Some(l) = h.lines.iter().find(|l| l.kind != LineKind::Add) {
                        return Err(Error::syntax(
                            l.patch_line,
                            format!(
                                "line {}: {} is a new file (its old side is {DEV_NULL}), so \
                                 every hunk line must start with '+'",
                                l.patch_line, op.path
                            ),
                        ));
                    }
                    all.new_no_newline = h.new_no_newline;
                    all.lines.extend(h.lines);
                }
                op.hunks = vec![all];
            }
            // A deletion removes the whole file, whatever its hunks say it held.
            OpKind::Delete => {}
            OpKind::Update => {
                if hunks.is_empty() && op.move_to.is_none() {
                    return Err(Error::syntax(
                        op.patch_line,
                        format!(
                            "the diff of {} (patch line {}) has no hunks and no rename: a mode \
                             change alone cannot be applied; give its \"@@\" hunks or leave \
                             the file out",
                            op.path, op.patch_line
                        ),
                    ));
                }
                op.hunks = hunks;
            }
        }
        self.ops.push(op);
        Ok(())
    }
}

/// The operation a header describes (its hunks are filled in later).
fn resolve(h: &Header<'_>, line: u32) -> Result<FileOp, Error> {
    let (mut old, mut new) = match (h.old, h.new, h.git) {
        (Some(o), Some(n), _) => (o, n),
        (_, _, Some((o, n))) => (o, n),
        _ => (
            h.rename_from.unwrap_or_default(),
            h.rename_to.unwrap_or_default(),
        ),
    };
    // Git's a/ and b/ prefixes (one side may be /dev/null).
    let git_prefixes =
        (old.starts_with("a/") || old == DEV_NULL) && (new.starts_with("b/") || new == DEV_NULL);
    if git_prefixes && h.old.is_some() {
        old = old.strip_prefix("a/").unwrap_or(old);
        new = new.strip_prefix("b/").unwrap_or(new);
    }
    let path = |p: &str| -> Result<String, Error> {
        if p.trim().is_empty() {
            return Err(Error::syntax(
                line,
                format!(
                    "the file header at line {line} names no path: write \"--- a/PATH\" and \
                     \"+++ b/PATH\""
                ),
            ));
        }
        Ok(p.trim().to_string())
    };
    let op = |kind, p: &str, move_to| -> Result<FileOp, Error> {
        Ok(FileOp {
            kind,
            path: path(p)?,
            move_to,
            hunks: Vec::new(),
            patch_line: line,
        })
    };
    if old == DEV_NULL || h.new_file {
        return op(OpKind::Add, new, None);
    }
    if new == DEV_NULL || h.deleted_file {
        return op(OpKind::Delete, old, None);
    }
    if let (Some(from), Some(to)) = (h.rename_from, h.rename_to) {
        return op(OpKind::Update, from, Some(path(to)?));
    }
    // Different names without a rename (`diff -u file.orig file`): the file is the one with
    // fewer path components, then the shorter name (GNU patch's choice).
    let key = |p: &str| (p.matches('/').count(), p.len());
    let target = if key(new) < key(old) { new } else { old };
    op(OpKind::Update, target, None)
}
