//! Leniency around the patch: CRLF patch text, a byte order mark, heredoc wrappers
//! (`apply_patch <<'EOF'` … `EOF`) and Markdown code fences around the whole patch.
//!
//! Unwrapping never renumbers lines: every [`PatchLine`] keeps its 1-based line number in the
//! text as the caller gave it, so errors point at the caller's line.

/// One line of the patch text, without its terminator.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PatchLine<'a> {
    /// 1-based line number in the caller's text.
    pub number: u32,
    /// The line without `\n` / `\r\n`.
    pub text: &'a str,
}

/// Splits the patch into lines (a `\r` before `\n` is part of the terminator) and removes the
/// wrappers models put around it. Returns the lines of the patch proper.
pub(crate) fn unwrap_lines(text: &str) -> Vec<PatchLine<'_>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let bytes = text.as_bytes();
    let mut lines: Vec<PatchLine<'_>> =
        Vec::with_capacity(memchr::memchr_iter(b'\n', bytes).count() + 1);
    let mut number = 0u32;
    let mut start = 0;
    for end in memchr::memchr_iter(b'\n', bytes).chain(std::iter::once(bytes.len())) {
        number = number.saturating_add(1);
        let raw = &text[start..end];
        start = end + 1;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        lines.push(PatchLine { number, text: line });
    }
    // `split` yields a final empty piece after a trailing newline: it is not a line.
    if text.ends_with('\n') || text.is_empty() {
        lines.pop();
    }
    let mut first = 0;
    let mut last = lines.len();
    loop {
        while first < last && lines[first].text.trim().is_empty() {
            first += 1;
        }
        // Trailing blank lines go; but a whitespace-only line that ends the hunk body of a
        // bare diff (" " is an empty context line) stays unless a closing marker precedes it.
        // An indented `*** End Patch` closes only a patch that opens with `*** Begin Patch`:
        // elsewhere it is a context line (` *** End Patch` in a unified diff of a file that
        // holds the marker), and a " " after it is the hunk's next line.
        let mut end = last;
        while end > first && lines[end - 1].text.trim().is_empty() {
            end -= 1;
        }
        let closer = end > first && {
            let t = lines[end - 1].text;
            t.trim() == "*** End Patch"
                && (column0(t).is_some() || lines[first].text.trim() == "*** Begin Patch")
                || column0(t) == Some("```")
                || column0(lines[first].text)
                    .and_then(heredoc_delimiter)
                    .is_some_and(|d| column0(t) == Some(d))
        };
        if closer {
            last = end;
        } else {
            while last > first && lines[last - 1].text.is_empty() {
                last -= 1;
            }
        }
        if last - first < 2 {
            break;
        }
        // A wrapper is a column-0 line only: in a bare diff, " ```" or " EOF" is a context line.
        let (Some(open), Some(close)) = (column0(lines[first].text), column0(lines[last - 1].text))
        else {
            break;
        };
        if is_fence_open(open) && close == "```" {
            first += 1;
            last -= 1;
            continue;
        }
        if let Some(delimiter) = heredoc_delimiter(open) {
            if close == delimiter {
                first += 1;
                last -= 1;
                continue;
            }
        }
        break;
    }
    lines.truncate(last);
    lines.drain(..first);
    lines
}

/// The line without trailing whitespace when it starts at column 0 (no leading space or tab),
/// which is where a wrapper line must start.
fn column0(line: &str) -> Option<&str> {
    let t = line.trim_end();
    (!t.is_empty() && t.len() == t.trim_start().len()).then_some(t)
}

/// A Markdown fence opener: three backticks and an optional info word (`diff`, `patch`, ...).
fn is_fence_open(line: &str) -> bool {
    match line.strip_prefix("```") {
        Some(info) => !info.contains('`') && !info.contains(' '),
        None => false,
    }
}

/// The delimiter of a heredoc opener: `<<EOF`, `<<'EOF'`, `<<"EOF"`, `<<-EOF`, optionally
/// preceded by `apply_patch` (or any single command word such as `cat`).
fn heredoc_delimiter(line: &str) -> Option<&str> {
    let at = line.find("<<")?;
    let before = line[..at].trim();
    if !(before.is_empty() || before == "apply_patch" || before == "cat") {
        return None;
    }
    let mut rest = line[at + 2..].trim_start();
    rest = rest.strip_prefix('-').unwrap_or(rest).trim_start();
    let quoted = rest
        .strip_prefix('\'')
        .and_then(|r| r.strip_suffix('\''))
        .or_else(|| rest.strip_prefix('"').and_then(|r| r.strip_suffix('"')));
    let word = quoted.unwrap_or(rest).trim();
    let valid = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    valid.then_some(word)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(t: &str) -> Vec<(u32, &str)> {
        unwrap_lines(t).iter().map(|l| (l.number, l.text)).collect()
    }

    #[test]
    fn keeps_numbers_through_wrappers() {
        let t = "```diff\napply_patch <<'EOF'\n*** Begin Patch\n*** End Patch\nEOF\n```\n";
        assert_eq!(texts(t), vec![(3, "*** Begin Patch"), (4, "*** End Patch")]);
        assert_eq!(texts("<<PATCH\r\nx\r\nPATCH"), vec![(2, "x")]);
        assert_eq!(texts("cat <<\"E_1\"\nx\nE_1\n"), vec![(2, "x")]);
    }

    #[test]
    fn leaves_unmatched_wrappers() {
        assert_eq!(texts("<<EOF\nx\nEND\n").len(), 3);
        assert_eq!(texts("```\nx\n").len(), 2);
        assert_eq!(texts("\n\n x \n\n"), vec![(3, " x ")]);
        assert_eq!(texts("@@\n+x\n \n\n"), vec![(1, "@@"), (2, "+x"), (3, " ")]);
        assert_eq!(texts("*** End Patch\n \n"), vec![(1, "*** End Patch")]);
        // Indented, it closes an envelope only (a fuzz finding: the unified form of a patch
        // whose file holds the marker lost its last, empty context line).
        assert_eq!(
            texts("*** Begin Patch\n  *** End Patch\n \n"),
            vec![(1, "*** Begin Patch"), (2, "  *** End Patch")]
        );
        assert_eq!(
            texts("@@ -1,2 +1,2 @@\n *** End Patch\n \n"),
            vec![(1, "@@ -1,2 +1,2 @@"), (2, " *** End Patch"), (3, " ")]
        );
    }

    #[test]
    fn wrappers_start_at_column_0() {
        assert_eq!(
            texts(" ```\n+x\n ```\n"),
            vec![(1, " ```"), (2, "+x"), (3, " ```")]
        );
        assert_eq!(texts(" cat <<EOF\n+x\n EOF\n").len(), 3);
        assert_eq!(texts("```\n+x\n ```\n").len(), 3);
        assert_eq!(texts("```diff  \n+x\n```\t\n"), vec![(2, "+x")]);
        assert_eq!(texts("\t<<EOF\n+x\nEOF\n").len(), 3);
    }
}
