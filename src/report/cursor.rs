//! A cursor over the lines of a text, read in order without building a line index: what the
//! structured diff's walk needs, since it visits the lines of both texts front to back.
//!
//! Lines are split exactly as [`Lines::split`](crate::text::Lines::split) splits them: at
//! LF, CRLF and lone CR, with no phantom empty last line.

use std::ops::Range;

use crate::text::{Lines, RawLines, Spans};

const LOW: u64 = 0x0101_0101_0101_0101;
const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;

/// Bit `i` set where byte `i` (little-endian) of `word` is `needle`: exact, since adding to
/// the low 7 bits of a byte never carries into the next one.
#[inline(always)]
fn word_mask(word: u64, needle: u8) -> u64 {
    let x = word ^ (LOW * u64::from(needle));
    let high = !(((x & LOW7).wrapping_add(LOW7)) | x) & !LOW7;
    // The high bit of each matching byte, gathered into the top byte.
    (high >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56
}

/// The high bit of every `\n` byte of `word`, exactly (no borrow between bytes).
#[inline(always)]
fn lf_bits(word: u64) -> u64 {
    let x = word ^ (LOW * u64::from(b'\n'));
    !(((x & LOW7).wrapping_add(LOW7)) | x) & !LOW7
}

/// The terminators (`\n`, and `\r` when `CR`) among the 64 bytes of `block`, one bit each,
/// found 8 bytes at a time: a few instructions a byte, where a `memchr` call costs tens of
/// instructions for each (short) line.
#[inline]
fn block_mask<const CR: bool>(block: &[u8; 64]) -> u64 {
    let mut m = 0u64;
    for (i, chunk) in block.chunks_exact(8).enumerate() {
        let word = u64::from_le_bytes(<[u8; 8]>::try_from(chunk).unwrap_or_default());
        let mut bits = word_mask(word, b'\n');
        if CR {
            bits |= word_mask(word, b'\r');
        }
        m |= bits << (8 * i);
    }
    m
}

/// Reads the lines of a text in order; seeking back restarts from the first line.
pub(crate) struct LineCursor<'t> {
    bytes: &'t [u8],
    /// Added to every span handed out (the BOM's length: spans index the whole text).
    base: usize,
    /// Whether the text holds a `\r` (then CR and CRLF terminate lines too).
    cr: bool,
    /// The index of the line that starts at `pos`.
    line: usize,
    /// Where line `line` starts.
    pos: usize,
    /// The number of lines.
    len: usize,
    /// The 64-byte block of the text last scanned (a multiple of 64) and its terminators.
    block: usize,
    mask: u64,
    /// The text's line index when the caller still holds it (the apply's own split of the
    /// source): each line's end and terminator are read from it, and nothing is scanned.
    index: Option<RawLines<'t>>,
    /// For a scanning cursor over a text without `\r`: the number of `\n`s in each block of
    /// [`LF_BLOCK`] bytes, counted with the lines, so that a run of lines
    /// ([`LineCursor::take_run`]) skips whole blocks without reading them again.
    lf_blocks: Vec<u32>,
    /// For a cursor made by [`LineCursor::known_lf`]: `(line, byte)` of some line starts, in
    /// order, from which a run's end is counted instead of from the cursor.
    starts: &'t [(usize, usize)],
}

/// The size of the blocks whose `\n`s [`LineCursor::new`] counts.
const LF_BLOCK: usize = 16 * 1024;

impl<'t> LineCursor<'t> {
    /// A cursor at the first line of `text`, whose spans are offset by `base`. The `\r` check
    /// and the line count are one pass, a block at a time (each block's `\n`s counted while
    /// it is still in the cache from the check).
    pub(crate) fn new(text: &'t str, base: usize) -> LineCursor<'t> {
        let bytes = text.as_bytes();
        let mut lf_blocks = Vec::with_capacity(bytes.len().div_ceil(LF_BLOCK));
        let mut cr = false;
        for block in bytes.chunks(LF_BLOCK) {
            if memchr::memchr(b'\r', block).is_some() {
                cr = true;
                break;
            }
            lf_blocks.push(memchr::memchr_iter(b'\n', block).count() as u32);
        }
        let mut cursor = LineCursor::lazy(text, base);
        cursor.cr = cr;
        cursor.len = if cr {
            cursor.count_slowly()
        } else {
            cursor.lf_blocks = lf_blocks;
            let newlines = cursor.lf_blocks.iter().map(|&n| n as usize).sum::<usize>();
            newlines + usize::from(bytes.last().is_some_and(|&b| b != b'\n'))
        };
        cursor
    }

    /// A cursor at the first line of `text` that reads nothing before it is moved: no `\r`
    /// check (CR and CRLF are terminators wherever they occur, which splits a text without
    /// `\r` as well) and no line count until [`LineCursor::count_lines`], which counts only
    /// from where the cursor then is. For a text that is moved over mostly by
    /// [`LineCursor::skip_same`] (the new text of a diff). [`LineCursor::take_run`] and
    /// [`LineCursor::take_lf`] are not for it.
    pub(crate) fn lazy(text: &'t str, base: usize) -> LineCursor<'t> {
        LineCursor {
            bytes: text.as_bytes(),
            base,
            cr: true,
            line: 0,
            pos: 0,
            len: usize::MAX,
            block: usize::MAX,
            mask: 0,
            index: None,
            lf_blocks: Vec::new(),
            starts: &[],
        }
    }

    /// A cursor at the first line of `text`, known to hold no `\r`, whose lines `starts[i].0`
    /// start at bytes `starts[i].1` (non-decreasing; what the apply learnt placing the
    /// hunks): no `\r` check, the lines counted from the last known start only, and a run
    /// ([`LineCursor::take_run`]) counted from the known start nearest its end.
    pub(crate) fn known_lf(
        text: &'t str,
        base: usize,
        starts: &'t [(usize, usize)],
    ) -> LineCursor<'t> {
        let bytes = text.as_bytes();
        let (line, at) = starts.last().copied().unwrap_or((0, 0));
        let rest = bytes.get(at..).unwrap_or_default();
        let mut cursor = LineCursor::lazy(text, base);
        cursor.cr = false;
        cursor.len = line
            + memchr::memchr_iter(b'\n', rest).count()
            + usize::from(bytes.last().is_some_and(|&b| b != b'\n'));
        cursor.starts = starts;
        cursor
    }

    /// The number of lines: known for a cursor made by [`LineCursor::new`] or
    /// [`LineCursor::indexed`]; for a [`LineCursor::lazy`] one, counted on the first call
    /// from the current line on (the lines before it are the cursor's line index) and kept.
    pub(crate) fn count_lines(&mut self) -> usize {
        if self.len != usize::MAX {
            return self.len;
        }
        let rest = self.bytes.get(self.pos..).unwrap_or_default();
        self.len = if memchr::memchr(b'\r', rest).is_none() {
            let newlines = memchr::memchr_iter(b'\n', rest).count();
            self.line + newlines + usize::from(rest.last().is_some_and(|&b| b != b'\n'))
        } else {
            let (line, pos) = (self.line, self.pos);
            while self.scan_next().is_some() {}
            let n = self.line;
            (self.line, self.pos) = (line, pos);
            n
        };
        self.len
    }

    /// A cursor at the first line of `text` that reads the lines from `lines`, the index of
    /// that very text (the caller's split of it), instead of scanning for terminators.
    pub(crate) fn indexed(text: &'t str, base: usize, lines: &'t Lines<'_>) -> LineCursor<'t> {
        let index = lines.raw();
        LineCursor {
            bytes: text.as_bytes(),
            base,
            cr: false,
            line: 0,
            pos: 0,
            len: index.len(),
            block: usize::MAX,
            mask: 0,
            index: Some(index),
            lf_blocks: Vec::new(),
            starts: &[],
        }
    }

    /// Counts the lines of a text holding a `\r`, one terminator at a time.
    fn count_slowly(&mut self) -> usize {
        let mut n = 0;
        while self.scan_next().is_some() {
            n += 1;
        }
        self.line = 0;
        self.pos = 0;
        n
    }

    /// The number of lines (`usize::MAX` for a [`LineCursor::lazy`] one not yet counted:
    /// ask [`LineCursor::count_lines`]).
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The byte offset (in the text given to [`LineCursor::new`]) where the current line
    /// starts, or the text's length past the last line.
    pub(crate) fn pos(&self) -> usize {
        self.pos
    }

    /// The terminators of the 64-byte block at `start` (a multiple of 64), bit `i` for byte
    /// `start + i`; a short last block is scanned byte by byte.
    fn mask_at(&self, start: usize) -> u64 {
        let cr = self.cr;
        match self
            .bytes
            .get(start..start + 64)
            .and_then(|b| <&[u8; 64]>::try_from(b).ok())
        {
            Some(block) if cr => block_mask::<true>(block),
            Some(block) => block_mask::<false>(block),
            None => self
                .bytes
                .get(start..)
                .unwrap_or_default()
                .iter()
                .enumerate()
                .filter(|(_, &b)| b == b'\n' || (cr && b == b'\r'))
                .fold(0, |m, (i, _)| m | 1 << i),
        }
    }

    /// The first terminator byte at or after `from`.
    #[inline(always)]
    fn find(&mut self, from: usize) -> Option<usize> {
        let mut from = from;
        while from < self.bytes.len() {
            let block = from & !63;
            if block != self.block {
                self.block = block;
                self.mask = self.mask_at(block);
            }
            let m = self.mask & (!0u64 << (from - block));
            if m != 0 {
                return Some(block + m.trailing_zeros() as usize);
            }
            from = block + 64;
        }
        None
    }

    /// The current line's content (terminator excluded) as a span offset by `base`, and
    /// moves to the next line; `None` past the last line.
    #[inline]
    pub(crate) fn next_span(&mut self) -> Option<Range<usize>> {
        if let Some(index) = self.index {
            if self.line >= index.len() {
                return None;
            }
            let end = index.end(self.line);
            let start = self.pos;
            self.pos = index.past_eol(end);
            self.line += 1;
            return Some(self.base + start..self.base + end);
        }
        self.scan_next()
    }

    /// When the cursor reads an index: the spans of the next `k` lines (fewer past the last
    /// line), read from it, and the cursor moved past them. `None` for a scanning cursor
    /// (then take the spans with [`LineCursor::scan_next`]): each kind of cursor fills a run
    /// of equal lines with a loop of its own.
    #[inline]
    pub(crate) fn take_indexed(&mut self, k: usize) -> Option<IndexedSpans<'t>> {
        let index = self.index?;
        let (from, to) = (self.line, self.line.saturating_add(k).min(index.len()));
        let run = IndexedSpans {
            spans: index.spans(from, to),
            base: self.base,
        };
        self.seek(to);
        Some(run)
    }

    /// For a scanning cursor over a text without `\r`: appends the spans of the next `k` lines
    /// (fewer past the last line) to `starts` and `ends`, moves past them and returns how many
    /// there were. Reads the text 8 bytes at a time and pushes each line as its `\n` is found,
    /// with no per-line call. `None` (nothing done) for a cursor reading an index or a text
    /// holding a `\r`: take those lines with [`LineCursor::take_indexed`] or
    /// [`LineCursor::scan_next`].
    pub(crate) fn take_lf(
        &mut self,
        k: usize,
        starts: &mut Vec<usize>,
        ends: &mut Vec<usize>,
    ) -> Option<usize> {
        if self.cr || self.index.is_some() {
            return None;
        }
        let (bytes, base) = (self.bytes, self.base);
        let (mut start, mut taken, first) = (self.pos, 0usize, starts.len());
        if k > 0 {
            // Only the starts in the loop: with `\n` as the only terminator, a line ends one
            // byte before the next one starts.
            let mut words = bytes.get(start..).unwrap_or_default().chunks_exact(8);
            let mut at = start;
            'scan: {
                for word in &mut words {
                    let word = <[u8; 8]>::try_from(word).unwrap_or_default();
                    let mut m = lf_bits(u64::from_le_bytes(word));
                    while m != 0 {
                        starts.push(base + start);
                        start = at + (m.trailing_zeros() / 8) as usize + 1;
                        taken += 1;
                        if taken == k {
                            break 'scan;
                        }
                        m &= m - 1;
                    }
                    at += 8;
                }
                for (j, &b) in words.remainder().iter().enumerate() {
                    if b == b'\n' {
                        starts.push(base + start);
                        start = at + j + 1;
                        taken += 1;
                        if taken == k {
                            break 'scan;
                        }
                    }
                }
            }
            if taken > 0 {
                ends.extend(
                    starts
                        .get(first + 1..)
                        .unwrap_or_default()
                        .iter()
                        .map(|&s| s - 1),
                );
                ends.push(base + start - 1);
            }
            if taken < k && start < bytes.len() {
                // The last line, without a terminator.
                starts.push(base + start);
                ends.push(base + bytes.len());
                start = bytes.len();
                taken += 1;
            }
        }
        self.pos = start;
        self.line += taken;
        Some(taken)
    }

    /// The next `k` lines (fewer past the last line) as one span offset by `base`: from the
    /// first one's start to the last one's end (its terminator excluded, the inner ones'
    /// included), and the cursor moved past them; `None` when `k` is 0 or no line is left.
    /// A text without `\r` is read a block at a time, counting its `\n`s without a span each.
    pub(crate) fn take_run(&mut self, k: usize) -> Option<Range<usize>> {
        if k == 0 || self.line >= self.len {
            return None;
        }
        let (start, k) = (self.pos, k.min(self.len - self.line));
        let end = if let Some(index) = self.index {
            let end = index.end(self.line + k - 1);
            self.pos = index.past_eol(end);
            end
        } else if !self.cr {
            let end = if self.lf_blocks.is_empty() {
                self.lf_end(self.line + k)
            } else {
                self.nth_lf(start, k).unwrap_or(self.bytes.len())
            };
            self.pos = (end + 1).min(self.bytes.len());
            end
        } else {
            let mut end = start;
            for _ in 0..k {
                end = self.scan_next().map_or(end, |s| s.end - self.base);
            }
            self.line -= k;
            end
        };
        self.line += k;
        Some(self.base + start..self.base + end)
    }

    /// The offset of the `k`-th (1-based, `k > 0`) `\n` at or after `from`: the blocks after
    /// the first by their counts from [`LineCursor::new`], then found within the block that
    /// holds it.
    fn nth_lf(&self, from: usize, k: usize) -> Option<usize> {
        let mut left = k;
        let mut block = from / LF_BLOCK;
        while let Some(&count) = self.lf_blocks.get(block) {
            let (first, end) = (
                block * LF_BLOCK,
                ((block + 1) * LF_BLOCK).min(self.bytes.len()),
            );
            let start = from.max(first);
            let bytes = self.bytes.get(start..end).unwrap_or_default();
            let n = if start == first {
                count as usize
            } else {
                memchr::memchr_iter(b'\n', bytes).count()
            };
            if n >= left {
                return memchr::memchr_iter(b'\n', bytes)
                    .nth(left - 1)
                    .map(|j| start + j);
            }
            left -= n;
            block += 1;
        }
        None
    }

    /// Where line `t - 1` ends (`self.line < t <= self.len`) in a text without `\r` whose
    /// lines were not counted by block: the text's end for the last line, else the `\n`
    /// before a known start of line `t`, or the `\n`s counted from the known start nearest
    /// before it (or from the cursor).
    fn lf_end(&self, t: usize) -> usize {
        let bytes = self.bytes;
        if t >= self.len {
            return bytes.len() - usize::from(bytes.last() == Some(&b'\n'));
        }
        let known = self.starts[..self.starts.partition_point(|&(l, _)| l <= t)].last();
        let (line, from) = match known {
            Some(&(l, b)) if l >= self.line && b >= self.pos => (l, b),
            _ => (self.line, self.pos),
        };
        if line == t {
            return from.saturating_sub(1);
        }
        let rest = bytes.get(from..).unwrap_or_default();
        memchr::memchr_iter(b'\n', rest)
            .nth(t - line - 1)
            .map_or(bytes.len(), |j| from + j)
    }

    /// [`LineCursor::next_span`] of a cursor without an index: finds the terminator.
    #[inline(always)]
    pub(crate) fn scan_next(&mut self) -> Option<Range<usize>> {
        let start = self.pos;
        if start >= self.bytes.len() {
            return None;
        }
        let (end, next) = match self.find(start) {
            None => (self.bytes.len(), self.bytes.len()),
            Some(i) if self.bytes[i] == b'\r' && self.bytes.get(i + 1) == Some(&b'\n') => {
                (i, i + 2)
            }
            Some(i) => (i, i + 1),
        };
        self.pos = next;
        self.line += 1;
        Some(self.base + start..self.base + end)
    }

    /// The span of line `i` (offset by `base`); `None` past the last line. Cheap when `i` is
    /// the current line or after it; a line before the current one restarts from the first.
    #[inline]
    pub(crate) fn span(&mut self, i: usize) -> Option<Range<usize>> {
        self.seek(i);
        self.next_span()
    }

    /// Moves to line `i` (or past the last line when there are fewer).
    #[inline]
    pub(crate) fn seek(&mut self, i: usize) {
        if let Some(index) = self.index {
            // Any line at once: it starts where the previous one's terminator ends.
            let i = i.min(index.len());
            self.pos = index.start(i);
            self.line = i;
            return;
        }
        if i < self.line {
            self.line = 0;
            self.pos = 0;
        }
        while self.line < i && self.scan_next().is_some() {}
    }

    /// Moves `n` lines on, knowing that another text's next `n` lines are the bytes `same`:
    /// when this text continues with the same bytes, ending at a line start, it jumps over
    /// them with one comparison instead of finding each terminator.
    pub(crate) fn skip_same(&mut self, n: usize, same: &[u8]) {
        let end = self.pos + same.len();
        if n > 0 && self.bytes.get(self.pos..end) == Some(same) && self.starts_line(end) {
            self.pos = end;
            self.line += n;
        } else {
            self.seek(self.line + n);
        }
    }

    /// Whether a line starts at byte `at` (given that one starts at the current position and
    /// the bytes between hold whole lines): after a terminator, and not between the `\r` and
    /// `\n` of a CRLF.
    fn starts_line(&self, at: usize) -> bool {
        match at.checked_sub(1).and_then(|p| self.bytes.get(p)) {
            Some(b'\n') => true,
            Some(b'\r') => self.bytes.get(at) != Some(&b'\n'),
            _ => false,
        }
    }

    /// The bytes from line start `from` to the current position.
    pub(crate) fn since(&self, from: usize) -> &'t [u8] {
        self.bytes.get(from..self.pos).unwrap_or_default()
    }
}

/// The spans of a run of lines read from a line index ([`LineCursor::take_indexed`]).
pub(crate) struct IndexedSpans<'t> {
    spans: Spans<'t>,
    base: usize,
}

impl Iterator for IndexedSpans<'_> {
    type Item = Range<usize>;
    #[inline]
    fn next(&mut self) -> Option<Range<usize>> {
        let span = self.spans.next()?;
        Some(self.base + span.start..self.base + span.end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXTS: [&str; 12] = [
        "",
        "a",
        "a\n",
        "\n",
        "\n\n",
        "a\r\nb\rc\n\rd",
        "\r",
        "\r\n",
        "\r\r\n\n",
        "x\ny\r",
        "one\ntwo\nthree",
        "é\r\nü\n",
    ];

    #[test]
    fn a_lazy_cursor_splits_and_counts_as_a_counted_one() {
        // Every text, counted from every line, and every text's lines behind a prefix of
        // each kind (so that the count starts past `\r`s, or past none in a text with some).
        let mut texts: Vec<String> = TEXTS.iter().map(|t| t.to_string()).collect();
        for (a, b) in TEXTS.iter().flat_map(|a| TEXTS.iter().map(move |b| (a, b))) {
            texts.push(format!("{a}\n{b}"));
        }
        for text in &texts {
            let counted = LineCursor::new(text, 3);
            for from in 0..=counted.len() + 1 {
                let mut lazy = LineCursor::lazy(text, 3);
                let mut fresh = LineCursor::new(text, 3);
                lazy.seek(from);
                fresh.seek(from);
                assert_eq!((lazy.line, lazy.pos), (fresh.line, fresh.pos), "{text:?}");
                assert_eq!(lazy.count_lines(), counted.len(), "{text:?} from {from}");
                assert_eq!(lazy.count_lines(), counted.len(), "{text:?} again");
                let spans: Vec<_> = std::iter::from_fn(|| lazy.next_span()).collect();
                let expected: Vec<_> = std::iter::from_fn(|| fresh.next_span()).collect();
                assert_eq!(spans, expected, "{text:?} from {from}");
            }
        }
    }

    #[test]
    fn splits_as_lines_does() {
        // Texts longer than a block, with terminators on and around the 64-byte boundaries.
        let long: Vec<String> = [63, 64, 65, 127, 128, 200]
            .iter()
            .flat_map(|&n| {
                let pad = "x".repeat(n);
                [
                    format!("{pad}\n{pad}\r\n"),
                    format!("{}\r\n{pad}", &pad[1..]),
                    format!("{pad}\r{pad}\r"),
                    format!("{}\n\n\n{pad}", &pad[2..]),
                ]
            })
            .collect();
        for text in TEXTS.iter().copied().chain(long.iter().map(String::as_str)) {
            let lines = Lines::split(text);
            // The scanning cursor and the one reading the index give the same spans.
            for mut c in [
                LineCursor::new(text, 3),
                LineCursor::indexed(text, 3, &lines),
            ] {
                assert_eq!(c.len(), lines.len(), "{text:?}");
                for i in 0..lines.len() {
                    let s = lines.span(i);
                    assert_eq!(
                        c.next_span(),
                        Some(3 + s.start..3 + s.end),
                        "{text:?} line {i}"
                    );
                }
                assert_eq!(c.next_span(), None, "{text:?}");
                assert_eq!(c.pos(), text.len());
                // Seeking back and forth gives the same spans.
                for i in (0..lines.len()).rev().chain(0..lines.len()) {
                    let s = lines.span(i);
                    assert_eq!(c.span(i), Some(3 + s.start..3 + s.end), "{text:?} seek {i}");
                }
                assert_eq!(c.span(lines.len()), None);
                assert_eq!(c.pos(), text.len());
            }
        }
    }

    #[test]
    fn indexed_runs_are_the_lines_spans() {
        for text in TEXTS {
            let lines = Lines::split(text);
            let n = lines.len();
            for from in 0..=n {
                for k in 0..=n + 1 {
                    let mut c = LineCursor::indexed(text, 2, &lines);
                    c.seek(from);
                    let run: Vec<_> = c.take_indexed(k).into_iter().flatten().collect();
                    let want: Vec<_> = (from..(from + k).min(n))
                        .map(|i| lines.span(i))
                        .map(|s| 2 + s.start..2 + s.end)
                        .collect();
                    assert_eq!(run, want, "{text:?} {from} {k}");
                    // The cursor is past the run.
                    let at = if from + k >= n {
                        text.len()
                    } else {
                        lines.span(from + k).start
                    };
                    assert_eq!(c.pos(), at, "{text:?} {from} {k}");
                }
            }
            // A scanning cursor has no index to read.
            assert!(LineCursor::new(text, 0).take_indexed(1).is_none());
        }
    }

    #[test]
    fn lf_runs_are_the_lines_spans() {
        // Texts around the 8-byte words, with and without a final newline, long lines.
        let mut texts: Vec<String> = TEXTS
            .iter()
            .filter(|t| !t.contains('\r'))
            .map(|t| t.to_string())
            .collect();
        for n in [0, 1, 6, 7, 8, 9, 15, 16, 17, 70] {
            let pad = "y".repeat(n);
            texts.push(format!("{pad}\n\n{pad}\né{pad}"));
            texts.push(format!("\n{pad}\n{pad}\n"));
        }
        for text in &texts {
            let lines = Lines::split(text);
            let n = lines.len();
            for from in 0..=n {
                for k in 0..=n + 1 {
                    let mut c = LineCursor::new(text, 5);
                    c.seek(from);
                    let (mut starts, mut ends) = (vec![7], vec![7]);
                    let taken = c.take_lf(k, &mut starts, &mut ends);
                    let want: Vec<_> = (from..(from + k).min(n))
                        .map(|i| lines.span(i))
                        .map(|s| (5 + s.start, 5 + s.end))
                        .collect();
                    assert_eq!(taken, Some(want.len()), "{text:?} {from} {k}");
                    let got: Vec<_> = starts[1..]
                        .iter()
                        .copied()
                        .zip(ends[1..].iter().copied())
                        .collect();
                    assert_eq!(got, want, "{text:?} {from} {k}");
                    // The cursor is at the next line, as if it had read them one by one.
                    let mut fresh = LineCursor::new(text, 5);
                    fresh.seek((from + k).min(n));
                    assert_eq!(
                        (c.line, c.pos),
                        (fresh.line, fresh.pos),
                        "{text:?} {from} {k}"
                    );
                    assert_eq!(c.next_span(), fresh.next_span());
                }
            }
            // An indexed cursor, and a text with a CR, are not read this way.
            let (mut s, mut e) = (Vec::new(), Vec::new());
            assert!(LineCursor::indexed(text, 0, &lines)
                .take_lf(1, &mut s, &mut e)
                .is_none());
        }
        let (mut s, mut e) = (Vec::new(), Vec::new());
        assert!(LineCursor::new("a\rb\n", 0)
            .take_lf(1, &mut s, &mut e)
            .is_none());
        assert!(s.is_empty() && e.is_empty());
    }

    #[test]
    fn a_run_spans_its_lines_in_every_cursor() {
        // Every kind of text (LF, CRLF, lone CR, no final newline) and words of 8 bytes.
        let mut texts: Vec<String> = TEXTS.iter().map(|t| t.to_string()).collect();
        for n in [0, 1, 6, 7, 8, 9, 15, 16, 17, 70] {
            let pad = "y".repeat(n);
            texts.push(format!("{pad}\n\n{pad}\né{pad}"));
            texts.push(format!("\n{pad}\r\n{pad}\r"));
        }
        // Terminators on and around the 16 KiB blocks of the count.
        for n in [16383, 16384, 16385] {
            let pad = "z".repeat(n);
            texts.push(format!("{pad}\n{pad}\n\n{}\nend", &pad[..n - 2]));
            texts.push(format!("{}\n\n{pad}", &pad[1..]));
        }
        for text in &texts {
            let lines = Lines::split(text);
            let n = lines.len();
            for from in 0..=n {
                for k in 0..=n + 1 {
                    let want = (k > 0 && from < n).then(|| {
                        let last = (from + k).min(n) - 1;
                        4 + lines.span(from).start..4 + lines.span(last).end
                    });
                    let mut fresh = LineCursor::new(text, 4);
                    fresh.seek((from + k).min(n));
                    let want_next = fresh.next_span();
                    for mut c in [
                        LineCursor::new(text, 4),
                        LineCursor::indexed(text, 4, &lines),
                    ] {
                        c.seek(from);
                        assert_eq!(c.take_run(k), want, "{text:?} {from} {k}");
                        assert_eq!(c.line, (from + k).min(n), "{text:?} {from} {k}");
                        assert_eq!(c.next_span(), want_next, "{text:?} {from} {k}");
                    }
                }
            }
        }
    }

    #[test]
    fn word_mask_is_exact() {
        // Every byte value at every position, among neighbours that could borrow or carry.
        for needle in [b'\n', b'\r'] {
            for fill in [0u8, needle - 1, needle + 1, 0x7f, 0x80, needle | 0x80, 0xff] {
                for pos in 0..8 {
                    for b in 0..=255u8 {
                        let mut bytes = [fill; 8];
                        bytes[pos] = b;
                        let want = (0..8)
                            .filter(|&i| bytes[i] == needle)
                            .fold(0u64, |m, i| m | 1 << i);
                        assert_eq!(word_mask(u64::from_le_bytes(bytes), needle), want);
                        if needle == b'\n' {
                            let high = (0..8)
                                .filter(|&i| bytes[i] == needle)
                                .fold(0u64, |m, i| m | 0x80 << (8 * i));
                            assert_eq!(lf_bits(u64::from_le_bytes(bytes)), high);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn skip_same_jumps_only_over_whole_equal_lines() {
        // (this text, other text, lines of the other to skip, expected line after)
        let cases = [
            ("a\nb\nc\n", "a\nb\nc\n", 2, 2),
            ("a\nb", "a\nb\n", 2, 2),
            ("a\nb\n", "a\nb", 2, 2),
            // The other text's lone CR is this text's CRLF: not a line boundary here.
            ("a\r\nb\n", "a\rb\n", 1, 1),
            ("x\ny\n", "a\nb\n", 1, 1),
            ("a\n", "a\n", 0, 0),
        ];
        for (this, other, n, line) in cases {
            let mut o = LineCursor::new(other, 0);
            o.seek(n);
            let mut c = LineCursor::new(this, 0);
            c.skip_same(n, o.since(0));
            let mut fresh = LineCursor::new(this, 0);
            fresh.seek(line);
            assert_eq!(
                (c.line, c.pos),
                (fresh.line, fresh.pos),
                "{this:?} {other:?}"
            );
            assert_eq!(c.next_span(), fresh.next_span());
        }
    }
}
