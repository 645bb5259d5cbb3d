//! `@@` anchors: each located one line at a time, first as a whole line at every match level,
//! then as a prefix (ending at a token boundary) at every level, and each unique where it is
//! searched. Stacked anchors narrow step by step: an inner anchor is searched only inside the
//! block of the anchor before it (SPEC §3.2).

use std::ops::Range;

use super::diagnose;
use super::index::{Budget, LineIndex};
use super::{HunkRef, Level, CANDIDATE_LIMIT};
use crate::error::Error;
use crate::options::Options;
use crate::patch::Anchor;

/// Where a hunk's anchors landed.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct AnchorMatch {
    /// The innermost anchor's line (0-based).
    pub line: usize,
    /// The fuzz the anchors add.
    pub fuzz: u32,
    /// Where the hunk is searched: the innermost anchor's line through the end of its block.
    pub block: Range<usize>,
}

impl AnchorMatch {
    /// The lines of the block after the anchor line.
    pub(crate) fn body(&self) -> Range<usize> {
        self.line + 1..self.block.end.max(self.line + 1)
    }
}

/// Locates `anchors` (the hunk's, or the outer ones of them); `None` when there are none.
pub(crate) fn resolve(
    index: &mut LineIndex<'_>,
    cx: &HunkRef<'_>,
    anchors: &[Anchor],
    region_start: usize,
    prev_start: Option<usize>,
    opts: &Options,
    budget: &mut Budget,
) -> Result<Option<AnchorMatch>, Error> {
    if anchors.is_empty() {
        return Ok(None);
    }
    let mut fuzz = 0;
    let mut prev: Option<AnchorMatch> = None;
    for (k, anchor) in anchors.iter().enumerate() {
        let found = match &prev {
            None => find_first(index, cx, anchor, region_start, prev_start, opts, budget)?,
            Some(outer) => find_unique(index, cx, anchor, outer.body(), opts, budget)?,
        };
        let Some((line, level, _)) = found else {
            return Err(diagnose::anchor_not_found(
                index,
                cx,
                anchor,
                k,
                prev.as_ref(),
                opts,
                budget,
            ));
        };
        fuzz += level.fuzz();
        let end = block_end(index, line, budget)?;
        prev = Some(AnchorMatch {
            line,
            fuzz,
            block: line..end,
        });
    }
    Ok(prev)
}

/// The first (outermost) anchor's line: searched in the region after the previous hunk, where
/// a copy of it inside the previous hunk, or a copy before that hunk whose block holds it (a
/// repeated enclosing anchor), makes it ambiguous; then in the whole file (out of order).
fn find_first(
    index: &mut LineIndex<'_>,
    cx: &HunkRef<'_>,
    anchor: &Anchor,
    region_start: usize,
    prev_start: Option<usize>,
    opts: &Options,
    budget: &mut Budget,
) -> Result<Option<(usize, Level, bool)>, Error> {
    let n = index.len();
    let mut hit = find_unique(index, cx, anchor, region_start..n, opts, budget)?;
    if let (Some((line, level, prefix)), Some(ps)) = (hit, prev_start) {
        // The anchor line may be a line of the previous hunk (which may even
        // change it): a copy after that hunk does not settle which is meant.
        if ps < region_start && !opts.first_match {
            let inside =
                index.find_line(&anchor.text, level, prefix, ps..region_start, 1, budget)?;
            if let Some(&i) = inside.first() {
                return Err(diagnose::anchor_ambiguous(
                    index,
                    cx,
                    anchor,
                    &[i, line],
                    opts,
                ));
            }
        }
    }
    if let (Some((line, level, prefix)), Some(ps)) = (hit, prev_start) {
        // A repeated enclosing anchor: a copy before the previous hunk whose block
        // holds that hunk is a second reading of the anchor.
        if !opts.first_match && ps < region_start {
            let before =
                index.find_line(&anchor.text, level, prefix, 0..ps, CANDIDATE_LIMIT, budget)?;
            if let Some(&b) = before.last() {
                if block_end(index, b, budget)? > ps {
                    return Err(diagnose::anchor_ambiguous(
                        index,
                        cx,
                        anchor,
                        &[b, line],
                        opts,
                    ));
                }
            }
        }
    }
    if hit.is_none() && region_start > 0 {
        // Out of order, or an enclosing anchor the model repeats before each hunk.
        hit = find_unique(index, cx, anchor, 0..n, opts, budget)?;
    }
    Ok(hit)
}

/// The anchor's line in `range`: whole lines at every level first (strictest first), then
/// prefixes at every level, unique at the first comparison that finds any. Exact and trim-end
/// count as one level. Two or more is an ambiguity error (unless first-match mode).
fn find_unique(
    index: &mut LineIndex<'_>,
    cx: &HunkRef<'_>,
    anchor: &Anchor,
    range: Range<usize>,
    opts: &Options,
    budget: &mut Budget,
) -> Result<Option<(usize, Level, bool)>, Error> {
    let limit = if opts.first_match { 1 } else { CANDIDATE_LIMIT };
    for prefix in [false, true] {
        for &level in opts.max_level.up_to() {
            let mut found =
                index.find_line(&anchor.text, level, prefix, range.clone(), limit, budget)?;
            if found.is_empty() {
                continue;
            }
            if level == Level::Exact
                && opts.max_level >= Level::TrimEnd
                && !opts.first_match
                && index.any_trailing_ws(budget)?
            {
                // Lines that differ only by trailing whitespace look the same to the model.
                let loose = index.find_line(
                    &anchor.text,
                    Level::TrimEnd,
                    prefix,
                    range.clone(),
                    limit,
                    budget,
                )?;
                if loose.len() > found.len() {
                    found = loose;
                }
            }
            if found.len() == 1 || opts.first_match {
                return Ok(Some((found[0], level, prefix)));
            }
            return Err(diagnose::anchor_ambiguous(index, cx, anchor, &found, opts));
        }
    }
    Ok(None)
}

/// True when the anchor's text occurs nowhere in the file, at any level, as a whole line or
/// as a prefix: an anchor that names nothing, as opposed to one that names another place.
pub(crate) fn found_nowhere(
    index: &mut LineIndex<'_>,
    anchor: &Anchor,
    opts: &Options,
    budget: &mut Budget,
) -> Result<bool, Error> {
    let n = index.len();
    for prefix in [false, true] {
        for &level in opts.max_level.up_to() {
            if !index
                .find_line(&anchor.text, level, prefix, 0..n, 1, budget)?
                .is_empty()
            {
                return Ok(false);
            }
        }
    }
    Ok(true)
}

/// Leading-whitespace width (a tab counts 4 columns), or `None` for a blank line.
pub(crate) fn indent_width(line: &str) -> Option<usize> {
    let mut w = 0;
    for c in line.chars() {
        match c {
            ' ' => w += 1,
            '\t' => w += 4,
            c if c.is_whitespace() => w += 1,
            _ => return Some(w),
        }
    }
    None
}

/// A preprocessor-like line (`#if`, `#endif`, `#region`): often at column 0 inside a body,
/// so it neither starts nor ends a block.
fn is_directive(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with('#')
        && t[1..]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic())
}

/// A line that closes a block at the header's indentation: `}`, `)`, `]`, `end`, `fi` …
pub(crate) fn is_closing(line: &str) -> bool {
    let t = line.trim();
    if t.starts_with(['}', ')', ']']) || t.starts_with("</") {
        return true;
    }
    let word: String = t
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    matches!(word.as_str(), "end" | "fi" | "done" | "esac" | "until")
        || (word.starts_with("end") && word.len() > 3)
}

/// A line that opens (or continues) a block at the header's indentation: `{` on its own line,
/// or `) -> T {` / `} else {` that closes one part of a header and opens the next, or
/// `> {` that closes a multi-line generic header (`interface X<` … `> {`) and opens its body.
fn is_opening(line: &str) -> bool {
    let t = line.trim();
    t.starts_with('{')
        || (is_closing(line) && t.ends_with(['{', '(', '[', ':']))
        || closes_header_opens_body(line)
}

/// A line that closes a multi-line header (`)`, `]`, `>` first) and opens a brace body (`{`
/// last): `) {`, `) -> T {`, `> {`.
fn closes_header_opens_body(line: &str) -> bool {
    let t = line.trim();
    t.starts_with([')', ']', '>']) && t.ends_with('{')
}

/// The end (exclusive) of the block of the anchor at line `at`: when an indented body follows
/// (possibly after an opening line at the anchor's indentation), the body and its closing
/// line; otherwise (flat text) the end of the file.
pub(crate) fn block_end(
    index: &mut LineIndex<'_>,
    at: usize,
    budget: &mut Budget,
) -> Result<usize, Error> {
    let lines = index.lines();
    let n = lines.len();
    let Some(base) = indent_width(lines.get(at)) else {
        return Ok(n);
    };
    let mut has_body = false;
    let mut end = n;
    for j in at + 1..n {
        let l = lines.get(j);
        match indent_width(l) {
            None => {}
            Some(_) if is_directive(l) => {}
            Some(w) if w > base => has_body = true,
            Some(_) if is_opening(l) => {}
            Some(_) => {
                end = if is_closing(l) { j + 1 } else { j };
                break;
            }
        }
    }
    budget.charge((end - at) as u64)?;
    if !has_body {
        return Ok(n);
    }
    Ok(end.max(brace_end(index, at, base, budget)?.unwrap_or(0)))
}

/// For an anchor line that opens a brace block (`… {`, or a header whose `{` stands alone on a
/// following line at its indentation, as in C and C#), the line after the `}` that balances it,
/// when that closing line sits at the anchor's indentation: a body may hold lines at column 0
/// (a raw or verbatim string, a heredoc, a C label, a directive) that end an indentation block
/// early. Braces inside string and char literals and comments are not counted
/// ([`BraceScan`]); when that reading fails (a literal left open), every brace counts.
fn brace_end(
    index: &LineIndex<'_>,
    at: usize,
    base: usize,
    budget: &mut Budget,
) -> Result<Option<usize>, Error> {
    let Some(open) = opening_brace(index, at, base) else {
        return Ok(None);
    };
    match balance(index, at, open, base, budget, true)? {
        Balance::Closed(end) => Ok(end),
        Balance::Unsure => match balance(index, at, open, base, budget, false)? {
            Balance::Closed(end) => Ok(end),
            Balance::Unsure => Ok(None),
        },
    }
}

/// What [`balance`] found.
enum Balance {
    /// The brace count reached zero (or the scan ran out): the block's end, if its closing line
    /// sits at the anchor's indentation.
    Closed(Option<usize>),
    /// A string, char literal or comment was left open: the lexical reading is not trusted.
    Unsure,
}

/// Counts braces from the anchor line `at` until they balance at or after the opening line
/// `open`; `lexical` skips braces inside literals and comments.
fn balance(
    index: &LineIndex<'_>,
    at: usize,
    open: usize,
    base: usize,
    budget: &mut Budget,
    lexical: bool,
) -> Result<Balance, Error> {
    let lines = index.lines();
    let last = lines.len().min(at + 20_000);
    let mut depth = 0isize;
    let mut scan = BraceScan::Code;
    for j in at..last {
        let l = lines.get(j);
        budget.charge(1)?;
        if lexical {
            match scan.line(l) {
                Some((delta, next)) => {
                    depth += delta;
                    scan = next;
                }
                None => return Ok(Balance::Unsure),
            }
        } else {
            depth += naive_braces(l);
        }
        if depth <= 0 && j >= open && scan == BraceScan::Code {
            let closes = l.trim_start().starts_with('}') && indent_width(l) == Some(base);
            return Ok(Balance::Closed(closes.then_some(j + 1)));
        }
    }
    if scan == BraceScan::Code {
        Ok(Balance::Closed(None))
    } else {
        Ok(Balance::Unsure)
    }
}

/// `{` minus `}` on a line, every brace counted.
fn naive_braces(line: &str) -> isize {
    line.chars().fold(0, |d, c| match c {
        '{' => d + 1,
        '}' => d - 1,
        _ => d,
    })
}

/// Where a brace-counting scan stands at the start of a line: in code, or inside a literal or
/// comment that may span lines (C# `@"…"`, `/* … */`, Go/JS `` `…` ``, Rust `r#"…"#`, C++
/// `R"d(…)d"`). The C-family rules (C, C++, C#, Go, JS/TS, Rust, Java): `"…"` and `'x'` with
/// backslash escapes end on their line, `@"…"` escapes `"` as `""`, `//` runs to the end of the
/// line; and the `#` comment of the languages that use it (shell, Perl, Ruby, PHP, PowerShell,
/// Python) runs to the end of the line when it reads as one ([`hash_comment`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum BraceScan {
    /// Ordinary code: braces count.
    Code,
    /// Inside a C# verbatim string `@"…"`.
    Verbatim,
    /// Inside a `/* … */` comment.
    BlockComment,
    /// Inside a backtick string (Go raw string, JS template literal).
    Backtick,
    /// Inside a Rust raw string `r"…"` / `r#"…"#` closed by `"` and this many `#`.
    RustRaw(u8),
    /// Inside a C++ raw string `R"delim(…)delim"`: the delimiter (at most 16 bytes) and its
    /// length.
    CppRaw([u8; CPP_DELIM_MAX], u8),
}

/// The longest delimiter a C++ raw string may have.
const CPP_DELIM_MAX: usize = 16;

impl BraceScan {
    /// The brace balance of `line` outside literals and comments, and the state at its end;
    /// `None` when a `"…"` or `'…'` literal is left open at the end of the line.
    fn line(self, line: &str) -> Option<(isize, BraceScan)> {
        let b = line.as_bytes();
        let mut state = self;
        let mut depth = 0isize;
        let mut i = 0;
        while i < b.len() {
            let c = b[i];
            if !matches!(state, BraceScan::Code) {
                (i, state) = state.inside(b, i);
                i += 1;
                continue;
            }
            match c {
                b'{' => depth += 1,
                b'}' => depth -= 1,
                b'r' if starts_token(b, i) || ends_ident(&b[..i], b"b") => {
                    if let Some((hashes, quote)) = rust_raw_open(b, i + 1) {
                        i = quote;
                        state = BraceScan::RustRaw(hashes);
                    }
                }
                b'R' if starts_token(b, i)
                    || [&b"u8"[..], b"u", b"U", b"L"]
                        .iter()
                        .any(|p| ends_ident(&b[..i], p)) =>
                {
                    if let Some((delim, len, paren)) = cpp_raw_open(b, i + 1) {
                        i = paren;
                        state = BraceScan::CppRaw(delim, len);
                    }
                }
                b'#' if hash_comment(b, i) => return Some((depth, state)),
                b'/' if b.get(i + 1) == Some(&b'/') => return Some((depth, state)),
                b'/' if b.get(i + 1) == Some(&b'*') => {
                    i += 1;
                    state = BraceScan::BlockComment;
                }
                b'`' => state = BraceScan::Backtick,
                b'@' if b.get(i + 1) == Some(&b'"') => {
                    i += 1;
                    state = BraceScan::Verbatim;
                }
                b'"' => i = closing_quote(b, i + 1, b'"')?,
                b'\'' => {
                    // A char literal is `'x'` or `'\…'`; any other `'` (a Rust lifetime, a
                    // digit separator) is ordinary code.
                    if b.get(i + 1) == Some(&b'\\') {
                        i = closing_quote(b, i + 1, b'\'')?;
                    } else if let Some(len) = char_len(&b[i + 1..]) {
                        if b.get(i + 1 + len) == Some(&b'\'') {
                            i += len + 1;
                        }
                    }
                }
                _ => {}
            }
            i += 1;
        }
        Some((depth, state))
    }

    /// Inside a literal or comment, at byte `i`: the last byte read and the state after it.
    fn inside(self, b: &[u8], i: usize) -> (usize, BraceScan) {
        let c = b[i];
        match self {
            BraceScan::Verbatim if c == b'"' => {
                if b.get(i + 1) == Some(&b'"') {
                    (i + 1, self)
                } else {
                    (i, BraceScan::Code)
                }
            }
            BraceScan::BlockComment if c == b'*' && b.get(i + 1) == Some(&b'/') => {
                (i + 1, BraceScan::Code)
            }
            BraceScan::Backtick if c == b'\\' => (i + 1, self),
            BraceScan::Backtick if c == b'`' => (i, BraceScan::Code),
            BraceScan::RustRaw(hashes) => {
                let n = usize::from(hashes);
                if c == b'"' && b.len() > i + n && b[i + 1..=i + n].iter().all(|&h| h == b'#') {
                    (i + n, BraceScan::Code)
                } else {
                    (i, self)
                }
            }
            BraceScan::CppRaw(delim, len) => {
                let d = &delim[..usize::from(len)];
                if c == b')' && b[i + 1..].starts_with(d) && b.get(i + 1 + d.len()) == Some(&b'"') {
                    (i + d.len() + 1, BraceScan::Code)
                } else {
                    (i, self)
                }
            }
            _ => (i, self),
        }
    }
}

/// True when the byte at `i` starts a token: nothing before it, or a byte that cannot be part
/// of an identifier.
fn starts_token(b: &[u8], i: usize) -> bool {
    i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')
}

/// True when `before` ends with the identifier `ident`, whole (`br"` but not `abr"`).
fn ends_ident(before: &[u8], ident: &[u8]) -> bool {
    before.ends_with(ident) && starts_token(before, before.len() - ident.len())
}

/// After the `r` of a possible Rust raw string at `from`: the number of `#` and the index of
/// the opening `"`, when they follow (`r"`, `r#"`, …); `None` otherwise (`r#ident`, `r`).
fn rust_raw_open(b: &[u8], from: usize) -> Option<(u8, usize)> {
    let hashes = b[from.min(b.len())..]
        .iter()
        .take_while(|&&c| c == b'#')
        .count();
    let quote = from + hashes;
    (b.get(quote) == Some(&b'"'))
        .then(|| u8::try_from(hashes).ok().map(|h| (h, quote)))
        .flatten()
}

/// After the `R` of a possible C++ raw string at `from`: the delimiter, its length and the
/// index of the `(` that ends it, when `"delim(` follows with a valid delimiter (at most 16
/// characters, none of them a space, a parenthesis, a backslash or a quote).
fn cpp_raw_open(b: &[u8], from: usize) -> Option<([u8; CPP_DELIM_MAX], u8, usize)> {
    if b.get(from) != Some(&b'"') {
        return None;
    }
    let start = from + 1;
    let mut delim = [0u8; CPP_DELIM_MAX];
    let mut len = 0usize;
    for (k, &c) in b.get(start..)?.iter().enumerate() {
        match c {
            b'(' => return Some((delim, u8::try_from(len).ok()?, start + k)),
            b' ' | b')' | b'\\' | b'"' | b'\t' => return None,
            _ if len == CPP_DELIM_MAX => return None,
            _ => {
                delim[len] = c;
                len += 1;
            }
        }
    }
    None
}

/// True when the `#` at `i` starts a line comment (shell, Perl, Ruby, PHP, PowerShell,
/// Python): first on its line and not followed by a letter, `[`, `!` or `{` (a C directive
/// `#if`, a Rust attribute `#[…]`/`#![…]`, a JS private member `#x`, a Ruby `#{…}`); or
/// after whitespace and followed by whitespace or the end of the line (`x = 1 # {`). A C
/// macro's `#x` or `a##b`, a raw identifier `r#x` or a PowerShell `<#` is not one.
fn hash_comment(b: &[u8], i: usize) -> bool {
    let next = b.get(i + 1).copied();
    let first = b[..i].iter().all(u8::is_ascii_whitespace);
    if first {
        return !next.is_some_and(|c| c.is_ascii_alphabetic() || matches!(c, b'[' | b'!' | b'{'));
    }
    b[i - 1].is_ascii_whitespace() && next.is_none_or(|c| c.is_ascii_whitespace())
}

/// The index of the `quote` that closes a literal whose body starts at `from` (backslash
/// escapes), or `None` when the line ends first.
fn closing_quote(b: &[u8], from: usize, quote: u8) -> Option<usize> {
    let mut i = from;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            c if c == quote => return Some(i),
            _ => i += 1,
        }
    }
    None
}

/// The byte length of the UTF-8 character at the start of `b`, if any.
fn char_len(b: &[u8]) -> Option<usize> {
    let first = *b.first()?;
    Some(match first {
        0x00..=0x7f => 1,
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        _ => 4,
    })
}

/// The line that opens the brace block of the anchor at line `at` (indentation `base`): the
/// anchor itself when it ends with `{`; else a line that starts with `{` (or closes the
/// header and ends with `{`: `) {`, `> {`) at the anchor's indentation, after at most [`HEADER_LINES`] lines of the header indented deeper than it
/// (its parameters) or empty. `None` when the anchor opens no brace block.
fn opening_brace(index: &LineIndex<'_>, at: usize, base: usize) -> Option<usize> {
    let lines = index.lines();
    if lines.get(at).trim_end().ends_with('{') {
        return Some(at);
    }
    for j in at + 1..lines.len().min(at + 1 + HEADER_LINES) {
        let l = lines.get(j);
        match indent_width(l) {
            None => {}
            Some(w) if w > base => {}
            Some(w) if w == base && l.trim_start().starts_with('{') => return Some(j),
            Some(w) if w == base && closes_header_opens_body(l) => return Some(j),
            Some(_) => return None,
        }
    }
    None
}

/// How many lines after an anchor [`opening_brace`] looks at for its `{` line.
const HEADER_LINES: usize = 8;

/// The nearest line before `at` indented less than it: the header of its enclosing block.
pub(crate) fn enclosing_header(index: &LineIndex<'_>, at: usize, max_scan: usize) -> Option<usize> {
    let lines = index.lines();
    let mut own = None;
    for j in at..lines.len().min(at + 50) {
        if let Some(w) = indent_width(lines.get(j)) {
            own = Some(w);
            break;
        }
    }
    let own = own?;
    let header = (at.saturating_sub(max_scan)..at).rev().find(|&j| {
        let l = lines.get(j);
        !is_directive(l) && indent_width(l).is_some_and(|w| w < own)
    })?;
    // A `{` alone on its line (C, C#) names nothing: the header is the line before it, when
    // that line sits at the same indentation.
    if lines.get(header).trim() != "{" {
        return Some(header);
    }
    let width = indent_width(lines.get(header));
    let before = (header.saturating_sub(HEADER_LINES)..header)
        .rev()
        .find(|&j| indent_width(lines.get(j)).is_some_and(|w| Some(w) <= width));
    Some(
        before
            .filter(|&j| indent_width(lines.get(j)) == width)
            .unwrap_or(header),
    )
}

#[cfg(test)]
mod tests {
    use super::BraceScan;

    fn scan(lines: &[&str]) -> Option<(isize, BraceScan)> {
        let mut state = BraceScan::Code;
        let mut depth = 0;
        for l in lines {
            let (d, next) = state.line(l)?;
            depth += d;
            state = next;
        }
        Some((depth, state))
    }

    #[test]
    fn braces_in_literals_and_comments_do_not_count() {
        assert_eq!(scan(&["f() {"]), Some((1, BraceScan::Code)));
        assert_eq!(scan(&[r#"x = "{ \" {"; }"#]), Some((-1, BraceScan::Code)));
        assert_eq!(
            scan(&["c = '{'; d = '\\''; e = '}';"]),
            Some((0, BraceScan::Code))
        );
        assert_eq!(scan(&["a { // } }"]), Some((1, BraceScan::Code)));
        assert_eq!(scan(&["a { /* }", "} */ }"]), Some((0, BraceScan::Code)));
        assert_eq!(
            scan(&[r#"s = @"{"#, r#"""}"" }"#, r#"}"; {"#]),
            Some((1, BraceScan::Code))
        );
        assert_eq!(scan(&["s = `{", "}`; }"]), Some((-1, BraceScan::Code)));
        // A Rust lifetime or a digit separator is not a char literal.
        assert_eq!(
            scan(&["impl<'a> F<'a> { n = 1'000; }"]),
            Some((0, BraceScan::Code))
        );
        // State left open across lines is reported.
        assert_eq!(scan(&["s = @\"{"]), Some((0, BraceScan::Verbatim)));
        assert_eq!(scan(&["/* {"]), Some((0, BraceScan::BlockComment)));
    }

    #[test]
    fn raw_strings_hide_their_braces() {
        // Rust raw strings, with and without hashes, on one line and across lines.
        assert_eq!(scan(&[r#"let s = r"}"; {"#]), Some((1, BraceScan::Code)));
        assert_eq!(
            scan(&[r###"let s = r#"a "}" b"#; }"###]),
            Some((-1, BraceScan::Code))
        );
        assert_eq!(
            scan(&[r##"let s = br#"{"##, r#"} " {"#, r##""#; }"##]),
            Some((-1, BraceScan::Code))
        );
        assert_eq!(scan(&[r##"s = r#"{"##]), Some((0, BraceScan::RustRaw(1))));
        // A raw identifier or a name ending in r is not a raw string.
        assert_eq!(scan(&["let r#type = 1; {"]), Some((1, BraceScan::Code)));
        assert_eq!(scan(&[r#"f(bar"{"); }"#]), Some((-1, BraceScan::Code)));
        // C++ raw strings, with a delimiter and an encoding prefix.
        assert_eq!(scan(&[r#"auto s = R"({)"; {"#]), Some((1, BraceScan::Code)));
        assert_eq!(
            scan(&[r#"auto s = u8R"x(a )" {"#, r#"})x"; }"#]),
            Some((-1, BraceScan::Code))
        );
        // `)"` without the delimiter does not close it.
        assert_eq!(
            scan(&[r#"s = R"--({)"}"#, r#")--"; }"#]),
            Some((-1, BraceScan::Code))
        );
    }

    #[test]
    fn hash_comments_hide_their_braces() {
        assert_eq!(scan(&["f() {", "  # }", "}"]), Some((0, BraceScan::Code)));
        assert_eq!(scan(&["x = 1 # {"]), Some((0, BraceScan::Code)));
        assert_eq!(scan(&["<# {", "#> {"]), Some((1, BraceScan::Code)));
        // Not comments: a directive, an attribute, a private member, interpolation, `$#`.
        assert_eq!(scan(&["#define OPEN {"]), Some((1, BraceScan::Code)));
        assert_eq!(scan(&["#[cfg(x)] mod m {"]), Some((1, BraceScan::Code)));
        assert_eq!(scan(&["  #run() {"]), Some((1, BraceScan::Code)));
        assert_eq!(
            scan(&["for ((i=0; i<$#; i++)) {"]),
            Some((1, BraceScan::Code))
        );
    }

    #[test]
    fn an_unterminated_literal_is_unsure() {
        assert_eq!(scan(&[r#"s = "{ "#]), None);
        assert_eq!(scan(&[r#"s = "\"#]), None);
        assert_eq!(scan(&["c = '\\"]), None);
    }
}
