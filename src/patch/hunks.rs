//! The hunk-body grammar: the lines of an Update (or a bare diff) → [`Hunk`]s.
//!
//! Inside a hunk body nothing is trimmed or reinterpreted: a line is a marker only when it
//! starts at column 0 with `*** ` or `@@`; everything else is ` ` context, `-` removed, `+`
//! added, or `\ No newline at end of file`.

use super::parse::{
    indented_marker_note, is_indented_marker, is_op_header, Parser, BEGIN, END, END_OF_FILE,
    HUNK_MARKERS_HELP, MOVE, NO_NEWLINE,
};
use super::unified;
use super::wrapper::PatchLine;
use super::{Anchor, Hunk, Line, LineKind};
use crate::error::{Diagnostics, Error, Status};

/// What a column-0 line inside a hunk body is.
enum BodyLine<'a> {
    Marker(&'a str),
    At(&'a str),
    Body(LineKind, &'a str),
    NoNewline,
    Invalid,
}

fn classify_body(text: &str) -> BodyLine<'_> {
    if text.is_empty() {
        return BodyLine::Body(LineKind::Context, "");
    }
    if text.starts_with("*** ") || text.trim_end() == "***" {
        return BodyLine::Marker(text.trim());
    }
    if let Some(rest) = text.strip_prefix("@@") {
        return BodyLine::At(rest);
    }
    match text.as_bytes()[0] {
        b' ' => BodyLine::Body(LineKind::Context, &text[1..]),
        b'-' => BodyLine::Body(LineKind::Delete, &text[1..]),
        b'+' => BodyLine::Body(LineKind::Add, &text[1..]),
        b'\\' if text.trim() == NO_NEWLINE => BodyLine::NoNewline,
        _ => BodyLine::Invalid,
    }
}

/// The anchor text of an `@@` line (the part after `@@`), or `None` for a bare `@@`.
/// Unified headers (`@@ -12,7 +12,8 @@ text`) keep only the text after the second `@@`.
fn anchor_text(rest: &str) -> Option<String> {
    let t = rest.trim_start();
    let unified = t.starts_with('-') && t[1..].starts_with(|c: char| c.is_ascii_digit())
        || t.starts_with("..."); // "@@ ... @@" placeholders
    let text = if unified {
        match t.find("@@") {
            Some(i) => &t[i + 2..],
            None => "",
        }
    } else {
        rest
    };
    let text = text.strip_prefix(' ').unwrap_or(text).trim_end();
    (!text.trim().is_empty()).then(|| text.to_string())
}

fn invalid_line_message(text: &str) -> String {
    let first = text.chars().next().unwrap_or(' ');
    let shown = if first == '\t' {
        "a tab".to_string()
    } else {
        format!("{first:?}")
    };
    format!(
        "hunk lines must start with ' ' (context), '-' (remove) or '+' (add), but this line \
         starts with {shown}: {text:?}. Prefix unchanged lines with one space."
    )
}

/// The hunks read so far and the one being read.
struct Hunks {
    done: Vec<Hunk>,
    cur: Option<Hunk>,
    /// After `*** End of File` only blank lines, `@@` or a marker may follow.
    after_eof: bool,
    /// How messages name the file ("the diff" for a bare diff).
    in_file: String,
}

/// What the reader does after a line.
enum Next {
    /// The line belongs to the hunks: read the next one.
    Continue,
    /// The line ends the hunks (a file marker): leave it to the caller.
    Stop,
}

impl Parser<'_, '_> {
    /// Hunks up to the next file marker (or the end of input for a bare diff).
    pub(super) fn parse_hunks(&mut self, path: &str, bare: bool) -> Result<Vec<Hunk>, Error> {
        let mut h = Hunks {
            done: Vec::new(),
            cur: None,
            after_eof: false,
            in_file: if path.is_empty() {
                "the diff".to_string()
            } else {
                path.to_string()
            },
        };
        while let Some(l) = self.peek() {
            // The last line of the patch, trimmed `*** End Patch`, ends it even when indented
            // (SPEC §2.3): models pad it.
            if !bare && self.is_last() && l.text.trim() == END && l.text != END {
                self.lenient(l, "an indented \"*** End Patch\" on the last line")?;
                break;
            }
            if self.unified && unified::starts_file(self) {
                break;
            }
            if is_indented_marker(l.text) {
                self.indented_markers.push(l);
            }
            let next = match classify_body(l.text) {
                BodyLine::Marker(m) => self.marker_line(&mut h, l, m, bare)?,
                BodyLine::At(rest) => self.at_line(&mut h, l, rest)?,
                BodyLine::Body(kind, text) => self.body_line(&mut h, l, kind, text)?,
                BodyLine::NoNewline => no_newline_line(&mut h, l, self)?,
                BodyLine::Invalid if is_indented_marker(l.text) => {
                    return Err(Error::syntax(
                        l.number,
                        format!(
                            "{}: write it without the indentation, or prefix the line with \
                             one space if it is unchanged text of the file",
                            indented_marker_note(l)
                        ),
                    ));
                }
                BodyLine::Invalid => {
                    return Err(Error::syntax(
                        l.number,
                        format!("line {}: {}", l.number, invalid_line_message(l.text)),
                    ));
                }
            };
            if let Next::Stop = next {
                break;
            }
            self.pos += 1;
        }
        if let Some(cur) = h.cur.take() {
            finish_hunk(cur, &mut h.done, &h.in_file)?;
        }
        // The hunks are kept for the whole apply: no spare capacity.
        h.done.shrink_to_fit();
        Ok(h.done)
    }

    /// A `*** ...` line: `*** End of File` closes the hunk; a file marker ends the hunks.
    fn marker_line(
        &mut self,
        h: &mut Hunks,
        l: PatchLine<'_>,
        m: &str,
        bare: bool,
    ) -> Result<Next, Error> {
        if m != l.text {
            self.lenient(l, "whitespace around a marker")?;
        }
        if m == END_OF_FILE {
            let Some(mut cur) = h.cur.take() else {
                return Err(Error::syntax(
                    l.number,
                    format!(
                        "\"{END_OF_FILE}\" at line {} has no hunk before it",
                        l.number
                    ),
                ));
            };
            cur.end_of_file = true;
            finish_hunk(cur, &mut h.done, &h.in_file)?;
            h.after_eof = true;
            return Ok(Next::Continue);
        }
        if bare {
            return Err(Error::syntax(
                l.number,
                format!(
                    "unexpected marker at line {}: {m:?}. A bare diff holds hunks only; wrap \
                     file operations in \"{BEGIN}\" … \"{END}\"",
                    l.number
                ),
            ));
        }
        if m == END || is_op_header(m) || m == BEGIN || m.starts_with(MOVE) {
            return Ok(Next::Stop);
        }
        Err(Error::syntax(
            l.number,
            format!(
                "unknown marker at line {}: {m:?}; {HUNK_MARKERS_HELP}",
                l.number
            ),
        ))
    }

    /// An `@@` line: another anchor of the hunk being started, or the start of a new hunk.
    fn at_line(&mut self, h: &mut Hunks, l: PatchLine<'_>, rest: &str) -> Result<Next, Error> {
        let canonical = rest.is_empty()
            || rest.starts_with(' ') && !rest.trim().is_empty()
            || rest.trim_start().starts_with('-');
        if !canonical {
            self.lenient(l, "an \"@@\" line must be \"@@\" or \"@@ text\"")?;
        }
        h.after_eof = false;
        let anchor = anchor_text(rest).map(|text| Anchor {
            text,
            patch_line: l.number,
        });
        match h.cur.as_mut() {
            Some(cur) if cur.lines.is_empty() => cur.anchors.extend(anchor),
            _ => {
                if let Some(cur) = h.cur.take() {
                    finish_hunk(cur, &mut h.done, &h.in_file)?;
                }
                h.cur = Some(Hunk {
                    anchors: anchor.into_iter().collect(),
                    patch_line: l.number,
                    ..Hunk::default()
                });
            }
        }
        Ok(Next::Continue)
    }

    /// A ` `, `-` or `+` line (or an empty line, empty context).
    fn body_line(
        &mut self,
        h: &mut Hunks,
        l: PatchLine<'_>,
        kind: LineKind,
        text: &str,
    ) -> Result<Next, Error> {
        if kind == LineKind::Add {
            check_added_line(text, l.number)?;
        }
        if h.after_eof || h.cur.is_none() && !h.done.is_empty() {
            if l.text.is_empty() {
                self.lenient(l, "a blank line after \"*** End of File\"")?;
                return Ok(Next::Continue);
            }
            return Err(Error::syntax(
                l.number,
                format!(
                    "line {} continues after \"{END_OF_FILE}\": a new hunk must start with an \
                     \"@@\" line",
                    l.number
                ),
            ));
        }
        if h.cur.is_none() && l.text.is_empty() {
            // Blank lines before the first hunk separate, they are not context.
            self.lenient(l, "a blank line before the first hunk")?;
            return Ok(Next::Continue);
        }
        let cur = h.cur.get_or_insert_with(|| Hunk {
            patch_line: l.number,
            ..Hunk::default()
        });
        cur.lines.push(Line {
            kind,
            text: text.to_string(),
            patch_line: l.number,
        });
        Ok(Next::Continue)
    }
}

/// `\ No newline at end of file`: the line before it (old side, new side, or both for
/// context) ends the file without a terminator.
fn no_newline_line(h: &mut Hunks, l: PatchLine<'_>, p: &Parser<'_, '_>) -> Result<Next, Error> {
    if l.text != NO_NEWLINE {
        p.lenient(l, "a padded no-newline marker")?;
    }
    let Some(cur) = h.cur.as_mut().filter(|c| !c.lines.is_empty()) else {
        return Err(Error::syntax(
            l.number,
            format!("\"{NO_NEWLINE}\" at line {} follows no hunk line", l.number),
        ));
    };
    match cur.lines.last().map(|x| x.kind) {
        Some(LineKind::Add) => cur.new_no_newline = true,
        Some(LineKind::Delete) => cur.old_no_newline = true,
        _ => {
            cur.old_no_newline = true;
            cur.new_no_newline = true;
        }
    }
    Ok(Next::Continue)
}

/// An added line may not hold a carriage return: the file would split it into two lines (a
/// lone CR ends a line), or a CRLF file would get `\r\r\n` (a patch converted to CRLF twice).
pub(super) fn check_added_line(text: &str, line: u32) -> Result<(), Error> {
    if text.contains('\r') {
        return Err(Error::syntax(
            line,
            format!(
                "line {line} adds a line that holds a carriage return (\\r), which would end a \
                 line inside the file: remove it (the file's own line endings are kept)"
            ),
        ));
    }
    Ok(())
}

/// Closes a hunk: an empty one (`@@` lines with no body) is an error. Its vectors lose their
/// spare capacity (a two-line hunk would keep room for four lines: 64 bytes of 20,000 tiny
/// hunks' 138).
fn finish_hunk(mut h: Hunk, hunks: &mut Vec<Hunk>, in_file: &str) -> Result<(), Error> {
    if h.lines.is_empty() {
        return Err(Error::new(
            Status::PatchSyntax,
            format!(
                "hunk {} of {in_file} (patch line {}) is empty: after the \"@@\" line(s) give the \
                 context, '-' and '+' lines of the change",
                hunks.len() + 1,
                h.patch_line
            ),
            Diagnostics {
                patch_line: Some(h.patch_line),
                hunk: Diagnostics::hunk_number(hunks.len()),
                ..Diagnostics::default()
            },
        ));
    }
    h.lines.shrink_to_fit();
    h.anchors.shrink_to_fit();
    hunks.push(h);
    Ok(())
}
