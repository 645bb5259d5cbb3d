//! The grammar: patch text → [`Patch`].
//!
//! Markers (`*** ...`, `@@`) are recognised only at column 0 inside hunk bodies; around file
//! operations, surrounding whitespace is trimmed. Hunk body lines are never trimmed.

use super::hunks::check_added_line;
use super::unified;
use super::wrapper::{unwrap_lines, PatchLine};
use super::{FileOp, Hunk, Line, LineKind, OpKind, Patch};
use crate::error::{Diagnostics, Error, Status};

pub(super) const BEGIN: &str = "*** Begin Patch";
pub(super) const END: &str = "*** End Patch";
pub(super) const ADD: &str = "*** Add File:";
pub(super) const DELETE: &str = "*** Delete File:";
pub(super) const UPDATE: &str = "*** Update File:";
pub(super) const MOVE: &str = "*** Move to:";
pub(super) const END_OF_FILE: &str = "*** End of File";
pub(super) const NO_NEWLINE: &str = "\\ No newline at end of file";

/// The markers that may stand between file operations.
const OPS_HELP: &str = "expected one of \"*** Add File: PATH\", \"*** Delete File: PATH\", \
\"*** Update File: PATH\" or \"*** End Patch\"";

/// The markers that may stand after a hunk line of an Update.
pub(super) const HUNK_MARKERS_HELP: &str = "expected \"*** End of File\" (closing the hunk), \
\"*** Add File: PATH\", \"*** Delete File: PATH\", \"*** Update File: PATH\" or \"*** End Patch\"";

impl Patch {
    /// Parses patch text into its file operations.
    ///
    /// Accepts a full envelope (`*** Begin Patch` … `*** End Patch`), file operations without the
    /// envelope, or a bare diff (hunks only, returned as one Update with an empty path). The
    /// leniencies of SPEC §2.3 apply: CRLF, padded markers, heredoc and Markdown wrappers, and git
    /// header lines where a file header may stand.
    ///
    /// ```
    /// let patch = v4a::Patch::parse(
    ///     "*** Begin Patch\n*** Update File: a.txt\n@@ fn main\n-x\n+y\n*** End Patch\n",
    /// ).unwrap();
    /// assert_eq!(patch.ops[0].path, "a.txt");
    /// assert_eq!(patch.ops[0].hunks[0].anchors[0].text, "fn main");
    /// ```
    pub fn parse(text: &str) -> Result<Patch, Error> {
        parse(text, false)
    }

    /// Parses patch text in its canonical form only, with none of the leniencies: the text is
    /// `*** Begin Patch` … `*** End Patch` with LF line endings, no wrapper, no padded markers, no
    /// git header lines, and no blank lines outside hunk bodies. This is the language of the Lark
    /// grammar shipped in the tool-calling kit; [`Patch::parse`] accepts a superset.
    ///
    /// ```
    /// assert!(v4a::Patch::parse_strict("*** Begin Patch\n*** Delete File: a\n*** End Patch\n").is_ok());
    /// assert!(v4a::Patch::parse_strict("*** Begin Patch\r\n*** Delete File: a\r\n*** End Patch\r\n").is_err());
    /// ```
    pub fn parse_strict(text: &str) -> Result<Patch, Error> {
        if let Some(at) = text.find('\r') {
            let line = text[..at].matches('\n').count() as u32 + 1;
            return Err(Error::syntax(
                line,
                format!(
                    "line {line} has a carriage return: the canonical form uses LF line endings"
                ),
            ));
        }
        let body = text.strip_suffix('\n').unwrap_or(text);
        if !body.starts_with(BEGIN) || body.split('\n').next() != Some(BEGIN) {
            return Err(Error::syntax(
                1,
                format!("the patch must start with \"{BEGIN}\" on line 1"),
            ));
        }
        let last = body.split('\n').count() as u32;
        if !body.ends_with(END) || body.rsplit('\n').next() != Some(END) {
            return Err(Error::new(
                Status::TruncatedPatch,
                format!("the patch must end with \"{END}\" on its last line (line {last})"),
                Diagnostics {
                    patch_line: Some(last),
                    ..Diagnostics::default()
                },
            ));
        }
        parse(text, true)
    }
}

fn parse(text: &str, strict: bool) -> Result<Patch, Error> {
    let lines = unwrap_lines(text);
    let Some(first) = lines.first() else {
        return Err(Error::syntax(
            1,
            "the patch is empty: expected \"*** Begin Patch\" or a hunk",
        ));
    };
    let mut parser = Parser {
        lines: &lines,
        pos: 0,
        ops: Vec::new(),
        strict,
        unified: false,
        indented_markers: Vec::new(),
    };
    let trimmed = first.text.trim();
    let has_file_headers = if trimmed == BEGIN {
        parser.pos = 1;
        parser.parse_ops(true).map(|()| true)
    } else if is_op_header(trimmed) || is_git_header(first.text) && parser.git_then_op() {
        parser.parse_ops(false).map(|()| true)
    } else if !strict && unified::is_unified(&lines) {
        parser.unified = true;
        parser.parse_unified().map(|()| true)
    } else {
        parser.parse_bare().map(|()| false)
    };
    let has_file_headers = has_file_headers.map_err(|e| parser.with_marker_hint(e))?;
    if parser.ops.is_empty() {
        let last = parser.last_number();
        return Err(Error::syntax(
            last,
            format!(
                "the patch has no file operations (it ends at line {last}): between \"{BEGIN}\" \
                 and \"{END}\" give at least one \"{ADD} PATH\", \"{DELETE} PATH\" or \
                 \"{UPDATE} PATH\" section"
            ),
        ));
    }
    if has_file_headers {
        validate(&parser.ops)?;
    }
    Ok(Patch {
        ops: parser.ops,
        has_file_headers,
    })
}

/// True for a line that, trimmed, is a marker but does not start at column 0.
pub(super) fn is_indented_marker(line: &str) -> bool {
    // Every marker starts with `***`: most lines are told apart by the first byte past their
    // spaces and tabs.
    let b = line.as_bytes();
    match b.iter().position(|&c| c != b' ' && c != b'\t') {
        None => return false,
        Some(i) if b[i].is_ascii() && b[i] != b'*' && !char::from(b[i]).is_whitespace() => {
            return false
        }
        Some(_) => {}
    }
    let lead = line.trim_start();
    if lead.len() == line.len() || !lead.starts_with("***") {
        return false;
    }
    let t = lead.trim_end();
    t == BEGIN || t == END || t == END_OF_FILE || is_op_header(t) || t.starts_with(MOVE)
}

/// How a line is indented, in words: "2 spaces", "a tab", "3 whitespace characters".
fn indentation(line: &str) -> String {
    let lead: Vec<char> = line.chars().take_while(|c| c.is_whitespace()).collect();
    let n = lead.len();
    let (one, many) = if lead.iter().all(|&c| c == ' ') {
        ("a space", "spaces")
    } else if lead.iter().all(|&c| c == '\t') {
        ("a tab", "tabs")
    } else {
        ("a whitespace character", "whitespace characters")
    };
    if n == 1 {
        one.to_string()
    } else {
        format!("{n} {many}")
    }
}

/// The words for an indented marker at `l`: "line 7 looks like the marker *** Update File:
/// indented by 2 spaces; markers start at column 0".
pub(super) fn indented_marker_note(l: PatchLine<'_>) -> String {
    let t = l.text.trim();
    let marker = [ADD, DELETE, UPDATE, MOVE]
        .into_iter()
        .find(|m| t.starts_with(m))
        .unwrap_or(t);
    format!(
        "line {} looks like the marker {marker} indented by {}; markers start at column 0",
        l.number,
        indentation(l.text)
    )
}

pub(super) fn is_op_header(trimmed: &str) -> bool {
    trimmed.starts_with(ADD) || trimmed.starts_with(DELETE) || trimmed.starts_with(UPDATE)
}

/// Git's per-file header lines, accepted (and ignored) only where a file header or the first
/// hunk may start.
pub(super) fn is_git_header(line: &str) -> bool {
    line.starts_with("diff --git ")
        || line.starts_with("index ")
        || line.starts_with("--- ")
        || line.starts_with("+++ ")
        || line.starts_with("new file mode ")
        || line.starts_with("deleted file mode ")
        || line.starts_with("old mode ")
        || line.starts_with("new mode ")
        || line.starts_with("similarity index ")
        || line.starts_with("rename from ")
        || line.starts_with("rename to ")
}

pub(super) struct Parser<'p, 'a> {
    lines: &'p [PatchLine<'a>],
    pub(super) pos: usize,
    pub(super) ops: Vec<FileOp>,
    /// Canonical form only: no padded markers, git headers or separating blank lines.
    strict: bool,
    /// A plain unified diff (`git diff`, `diff -u`): file headers end the hunks of a file.
    pub(super) unified: bool,
    /// Lines read as hunk body that look like an indented marker: named in a syntax error at
    /// or after them.
    pub(super) indented_markers: Vec<PatchLine<'a>>,
}

impl<'a> Parser<'_, 'a> {
    pub(super) fn peek(&self) -> Option<PatchLine<'a>> {
        self.lines.get(self.pos).copied()
    }

    fn last_number(&self) -> u32 {
        self.lines.last().map_or(1, |l| l.number)
    }

    /// True when the line at `pos` is the last line of the patch.
    pub(super) fn is_last(&self) -> bool {
        self.pos + 1 == self.lines.len()
    }

    /// The line `offset` lines after the current one.
    pub(super) fn peek_at(&self, offset: usize) -> Option<PatchLine<'a>> {
        self.lines.get(self.pos + offset).copied()
    }

    /// A syntax or truncation error at or after a hunk-body line that looks like an indented
    /// marker says so (the marker was read as a hunk line).
    fn with_marker_hint(&self, e: Error) -> Error {
        if !matches!(e.status(), Status::PatchSyntax | Status::TruncatedPatch) {
            return e;
        }
        let at = e.diagnostics().patch_line.unwrap_or(u32::MAX);
        let Some(l) = self.indented_markers.iter().rev().find(|l| l.number <= at) else {
            return e;
        };
        let note = indented_marker_note(*l);
        if e.message().starts_with(&note) {
            return e;
        }
        Error::new(
            e.status(),
            format!("{} ({note}.)", e.message()),
            e.diagnostics().clone(),
        )
    }

    /// The path after a file marker; the canonical form has exactly one space before it.
    fn header_path(&self, rest: &str, l: PatchLine<'_>, marker: &str) -> Result<String, Error> {
        let canonical = rest
            .strip_prefix(' ')
            .is_some_and(|p| p == p.trim() && !p.is_empty());
        if !canonical {
            self.lenient(l, "the path must follow the colon after exactly one space")?;
        }
        header_path(rest, l.number, marker)
    }

    /// In strict mode, a leniency used at line `l` is an error.
    pub(super) fn lenient(&self, l: PatchLine<'_>, what: &str) -> Result<(), Error> {
        if self.strict {
            return Err(Error::syntax(
                l.number,
                format!(
                    "line {}: {what} (not allowed in the canonical form)",
                    l.number
                ),
            ));
        }
        Ok(())
    }

    /// True when the git header lines at the start are followed by a `*** ... File:` header.
    fn git_then_op(&self) -> bool {
        for l in self.lines {
            if is_git_header(l.text) {
                continue;
            }
            return is_op_header(l.text.trim());
        }
        false
    }

    fn parse_ops(&mut self, enveloped: bool) -> Result<(), Error> {
        loop {
            let Some(line) = self.peek() else {
                if enveloped {
                    return Err(Error::new(
                        Status::TruncatedPatch,
                        format!(
                            "the patch starts with \"{BEGIN}\" but has no \"{END}\" (it ends at \
                             line {}): it looks truncated. Resend the whole patch.",
                            self.last_number()
                        ),
                        Diagnostics {
                            patch_line: Some(self.last_number()),
                            ..Diagnostics::default()
                        },
                    ));
                }
                return Ok(());
            };
            let t = line.text.trim();
            if t.is_empty() || is_git_header(line.text) {
                self.lenient(line, "a blank or git header line between file operations")?;
                self.pos += 1;
                continue;
            }
            if t != line.text {
                self.lenient(line, "whitespace around a marker")?;
            }
            if t == END {
                self.pos += 1;
                return self.expect_only_blank_after_end(line.number);
            }
            if let Some(path) = t.strip_prefix(ADD) {
                let path = self.header_path(path, line, ADD)?;
                self.pos += 1;
                self.parse_add(path, line.number)?;
            } else if let Some(path) = t.strip_prefix(DELETE) {
                let path = self.header_path(path, line, DELETE)?;
                self.pos += 1;
                self.ops.push(FileOp {
                    kind: OpKind::Delete,
                    path,
                    move_to: None,
                    hunks: Vec::new(),
                    patch_line: line.number,
                });
            } else if let Some(path) = t.strip_prefix(UPDATE) {
                let path = self.header_path(path, line, UPDATE)?;
                self.pos += 1;
                self.parse_update(path, line.number)?;
            } else if t.starts_with(MOVE) {
                return Err(Error::syntax(
                    line.number,
                    format!(
                        "\"{MOVE}\" must follow directly after an \"{UPDATE} PATH\" line (line {})",
                        line.number
                    ),
                ));
            } else if t == BEGIN {
                return Err(Error::syntax(
                    line.number,
                    format!("a second \"{BEGIN}\" at line {}", line.number),
                ));
            } else {
                return Err(Error::syntax(
                    line.number,
                    format!(
                        "unexpected line {} {:?}: {OPS_HELP}",
                        line.number, line.text
                    ),
                ));
            }
        }
    }

    fn expect_only_blank_after_end(&mut self, end_line: u32) -> Result<(), Error> {
        while let Some(l) = self.peek() {
            if !l.text.trim().is_empty() {
                return Err(Error::syntax(
                    l.number,
                    format!(
                        "unexpected text after \"{END}\" (line {end_line}) at line {}: {:?}. \
                         Everything must come before \"{END}\".",
                        l.number, l.text
                    ),
                ));
            }
            self.pos += 1;
        }
        Ok(())
    }

    fn parse_add(&mut self, path: String, header: u32) -> Result<(), Error> {
        let mut hunk = Hunk {
            patch_line: header,
            ..Hunk::default()
        };
        let mut pending_blank: Vec<u32> = Vec::new();
        while let Some(l) = self.peek() {
            if l.text.trim().is_empty() && !l.text.starts_with('+') {
                self.lenient(l, "a blank line in an added file (write it as '+')")?;
                pending_blank.push(l.number);
                self.pos += 1;
                continue;
            }
            if let Some(text) = l.text.strip_prefix('+') {
                check_added_line(text, l.number)?;
                if hunk.new_no_newline {
                    self.lenient(l, "a line after \"\\ No newline at end of file\"")?;
                }
                for number in pending_blank.drain(..) {
                    hunk.lines.push(Line {
                        kind: LineKind::Add,
                        text: String::new(),
                        patch_line: number,
                    });
                }
                hunk.lines.push(Line {
                    kind: LineKind::Add,
                    text: text.to_string(),
                    patch_line: l.number,
                });
                self.pos += 1;
            } else if l.text.trim() == NO_NEWLINE {
                if l.text != NO_NEWLINE || hunk.new_no_newline {
                    self.lenient(l, "a padded or repeated no-newline marker")?;
                }
                hunk.new_no_newline = true;
                self.pos += 1;
            } else if l.text.trim_start().starts_with("***") {
                break;
            } else {
                return Err(Error::syntax(
                    l.number,
                    format!(
                        "line {} of \"{ADD} {path}\" must start with '+': every line of a new \
                         file is written as '+text'",
                        l.number
                    ),
                ));
            }
        }
        self.ops.push(FileOp {
            kind: OpKind::Add,
            path,
            move_to: None,
            hunks: vec![hunk],
            patch_line: header,
        });
        Ok(())
    }

    fn parse_update(&mut self, path: String, header: u32) -> Result<(), Error> {
        let mut move_to = None;
        // `*** Move to:` and git headers may stand between the header and the first hunk.
        while let Some(l) = self.peek() {
            let t = l.text.trim();
            if let Some(dest) = t.strip_prefix(MOVE) {
                if t != l.text {
                    self.lenient(l, "whitespace around a marker")?;
                }
                if move_to.is_some() {
                    return Err(Error::syntax(
                        l.number,
                        format!("a second \"{MOVE}\" for {path} at line {}", l.number),
                    ));
                }
                move_to = Some(self.header_path(dest, l, MOVE)?);
                self.pos += 1;
            } else if t.is_empty() || is_git_header(l.text) {
                self.lenient(l, "a blank or git header line before the first hunk")?;
                self.pos += 1;
            } else {
                break;
            }
        }
        let hunks = self.parse_hunks(&path, false)?;
        if hunks.is_empty() && move_to.is_none() {
            return Err(Error::syntax(
                header,
                format!(
                    "\"{UPDATE} {path}\" (line {header}) has no hunks: add the lines to change, \
                     or a \"{MOVE} PATH\" line to rename the file"
                ),
            ));
        }
        self.ops.push(FileOp {
            kind: OpKind::Update,
            path,
            move_to,
            hunks,
            patch_line: header,
        });
        Ok(())
    }

    /// A bare single-file diff: git headers may precede the first hunk.
    fn parse_bare(&mut self) -> Result<(), Error> {
        while let Some(l) = self.peek() {
            if is_git_header(l.text) && !l.text.starts_with("--- ") || l.text.trim().is_empty() {
                self.pos += 1;
            } else if l.text.starts_with("--- ")
                && self
                    .lines
                    .get(self.pos + 1)
                    .is_some_and(|n| n.text.starts_with("+++ "))
            {
                self.pos += 2;
            } else {
                break;
            }
        }
        let patch_line = self.peek().map_or(1, |l| l.number);
        let hunks = self.parse_hunks("", true)?;
        if hunks.is_empty() {
            return Err(Error::syntax(
                patch_line,
                "the diff has no hunks: expected lines starting with '@@', ' ', '-' or '+'",
            ));
        }
        self.ops.push(FileOp {
            kind: OpKind::Update,
            path: String::new(),
            move_to: None,
            hunks,
            patch_line,
        });
        Ok(())
    }
}

fn header_path(rest: &str, line: u32, marker: &str) -> Result<String, Error> {
    let path = rest.trim();
    if path.is_empty() {
        return Err(Error::syntax(
            line,
            format!("\"{marker}\" at line {line} has no path: write \"{marker} path/to/file\""),
        ));
    }
    Ok(path.to_string())
}

/// Rejects two operations on one path, and a move onto a path another operation writes.
fn validate(ops: &[FileOp]) -> Result<(), Error> {
    let mut seen: rustc_hash::FxHashMap<&str, (u32, &str)> = rustc_hash::FxHashMap::default();
    for op in ops {
        let what = match op.kind {
            OpKind::Add => "added",
            OpKind::Delete => "deleted",
            OpKind::Update => "updated",
        };
        let mut claims = vec![(op.path.as_str(), what)];
        if op.is_move() {
            claims.push((op.target(), "the destination of a move"));
        }
        for (path, what) in claims {
            if let Some((line, first_what)) = seen.get(path) {
                return Err(Error::new(
                    Status::DuplicatePath,
                    format!(
                        "{path} is {what} at patch line {} but already {first_what} at patch \
                         line {line}: each path may appear in one operation only. Merge the \
                         changes into one \"{UPDATE}\" section.",
                        op.patch_line
                    ),
                    Diagnostics {
                        path: Some(path.to_string()),
                        patch_line: Some(op.patch_line),
                        ..Diagnostics::default()
                    },
                ));
            }
            seen.insert(path, (op.patch_line, what));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn syntax_line(t: &str) -> (Status, Option<u32>) {
        let e = Patch::parse(t).unwrap_err();
        (e.status(), e.diagnostics().patch_line)
    }

    /// The byte fast path answers as the trimmed comparison: every kind of leading
    /// whitespace, every marker, and lines that only look close.
    #[test]
    fn indented_markers_by_any_leading_whitespace() {
        let reference = |line: &str| {
            let t = line.trim();
            t != line.trim_end()
                && (t == BEGIN
                    || t == END
                    || t == END_OF_FILE
                    || is_op_header(t)
                    || t.starts_with(MOVE))
        };
        let leads = [
            "",
            " ",
            "\t",
            "  \t",
            "\u{a0}",
            "\u{3000}",
            " \u{2003}",
            "\x0b",
            "\x0c",
            " \r",
        ];
        let bodies = [
            BEGIN,
            END,
            END_OF_FILE,
            "*** Update File: a.py",
            "*** Add File: b",
            "*** Delete File: c",
            "*** Move to: d",
            "*** End Patch  ",
            "***",
            "** End Patch",
            "x += 1;",
            "",
            "é*** End Patch",
        ];
        for lead in leads {
            for body in bodies {
                let line = format!("{lead}{body}");
                assert_eq!(is_indented_marker(&line), reference(&line), "{line:?}");
            }
        }
        assert!(is_indented_marker("  *** End Patch"));
        assert!(is_indented_marker("\u{a0}*** Update File: x"));
        assert!(!is_indented_marker("*** End Patch"));
    }

    #[test]
    fn stacked_and_unified_anchors() {
        let p = Patch::parse(
            "*** Begin Patch\n*** Update File: a\n@@ class A\n@@     def f():\n x\n-y\n+z\n@@ -3,4 +3,4 @@ def g():\n q\n*** End Patch",
        )
        .unwrap();
        let h = &p.ops[0].hunks;
        assert_eq!(h.len(), 2);
        assert_eq!(h[0].anchors[0].text, "class A");
        assert_eq!(h[0].anchors[1].text, "    def f():");
        assert_eq!(h[1].anchors[0].text, "def g():");
        assert_eq!(h[1].patch_line, 8);
    }

    #[test]
    fn rejections_name_the_line() {
        assert_eq!(
            syntax_line("*** Begin Patch\n*** Update File: a\n x\n"),
            (Status::TruncatedPatch, Some(3))
        );
        assert_eq!(
            syntax_line("*** Begin Patch\n*** Update File: a\n x\n\ty\n*** End Patch"),
            (Status::PatchSyntax, Some(4))
        );
        assert_eq!(
            syntax_line("*** Begin Patch\n*** Update File: a\n*** End Patch"),
            (Status::PatchSyntax, Some(2))
        );
        assert_eq!(
            syntax_line("*** Begin Patch\n*** Update File: a\n@@ x\n*** End Patch"),
            (Status::PatchSyntax, Some(3))
        );
        assert_eq!(
            syntax_line("*** Begin Patch\n*** Frobnicate File: a\n*** End Patch"),
            (Status::PatchSyntax, Some(2))
        );
    }

    #[test]
    fn plus_plus_plus_inside_a_hunk_is_an_added_line() {
        let p = Patch::parse("@@\n x\n+++ y\n--- z\n").unwrap();
        let l = &p.ops[0].hunks[0].lines;
        assert_eq!(l[1].kind, LineKind::Add);
        assert_eq!(l[1].text, "++ y");
        assert_eq!(l[2].kind, LineKind::Delete);
        assert_eq!(l[2].text, "-- z");
    }

    #[test]
    fn duplicates_and_move_clashes() {
        let dup = "*** Begin Patch\n*** Add File: a\n+x\n*** Delete File: a\n*** End Patch";
        assert_eq!(syntax_line(dup), (Status::DuplicatePath, Some(4)));
        let clash = "*** Begin Patch\n*** Add File: b\n+x\n*** Update File: a\n*** Move to: b\n*** End Patch";
        assert_eq!(syntax_line(clash), (Status::DuplicatePath, Some(4)));
        let same = "*** Begin Patch\n*** Update File: a\n*** Move to: a\n@@\n-x\n+y\n*** End Patch";
        assert!(Patch::parse(same).is_ok());
    }

    #[test]
    fn an_indented_end_patch_ends_the_patch_only_on_the_last_line() {
        let p = Patch::parse("*** Begin Patch\n*** Update File: a\n@@\n-x\n+y\n   *** End Patch\n")
            .unwrap();
        assert_eq!(p.ops[0].hunks[0].lines.len(), 2);
        // Not the last line: a context line, and the patch is truncated.
        let e = Patch::parse("*** Begin Patch\n*** Update File: a\n@@\n-x\n  *** End Patch\n+y\n")
            .unwrap_err();
        assert_eq!(e.status(), Status::TruncatedPatch);
        assert!(e
            .message()
            .contains("line 5 looks like the marker *** End Patch indented by 2 spaces"));
        // The canonical form allows no padding.
        let strict = "*** Begin Patch\n*** Update File: a\n@@\n-x\n+y\n *** End Patch\n";
        assert!(Patch::parse_strict(strict).is_err());
    }

    #[test]
    fn unified_diffs_name_their_files() {
        let p = Patch::parse(
            "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n--- not a header\n+b\n\
             --- /dev/null\n+++ b/new\n@@ -0,0 +1 @@\n+n\n--- a/old\n+++ /dev/null\n@@ -1 +0,0 @@\n-o\n",
        )
        .unwrap();
        let kinds: Vec<_> = p.ops.iter().map(|o| (o.kind, o.path.as_str())).collect();
        assert_eq!(
            kinds,
            [
                (OpKind::Update, "x"),
                (OpKind::Add, "new"),
                (OpKind::Delete, "old")
            ]
        );
        let lines = &p.ops[0].hunks[0].lines;
        assert_eq!(lines[1].kind, LineKind::Delete);
        assert_eq!(lines[1].text, "-- not a header");
        assert!(p.has_file_headers);
        // Two sections on one path are a duplicate, as in V4A.
        let dup = "--- a/x\n+++ b/x\n@@\n-a\n+b\n--- a/x\n+++ b/x\n@@\n-c\n+d\n";
        assert_eq!(
            Patch::parse(dup).unwrap_err().status(),
            Status::DuplicatePath
        );
    }

    #[test]
    fn an_empty_patch_is_an_error() {
        for t in [
            "*** Begin Patch\n*** End Patch",
            "*** Begin Patch\n\n*** End Patch\n",
        ] {
            let e = Patch::parse(t).unwrap_err();
            assert_eq!(e.status(), Status::PatchSyntax, "{t:?}");
            assert!(e.message().contains("no file operations"));
        }
    }
}
