//! A text split into lines, each line a byte range plus its own terminator.
//!
//! Splitting is zero-copy (`memchr`): a [`Lines`] holds offsets into the caller's text, 4 bytes
//! a line. Every line keeps its own terminator (LF, CRLF, lone CR, or none on the last line),
//! read back from the text, which is what lets the builder reproduce untouched lines byte for
//! byte.

/// The terminator of one line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Eol {
    /// `\n`
    Lf,
    /// `\r\n`
    CrLf,
    /// a lone `\r`
    Cr,
    /// no terminator (only ever the last line)
    None,
}

impl Eol {
    /// The terminator bytes.
    pub fn as_str(self) -> &'static str {
        match self {
            Eol::Lf => "\n",
            Eol::CrLf => "\r\n",
            Eol::Cr => "\r",
            Eol::None => "",
        }
    }

    /// The byte length of the terminator.
    pub fn len(self) -> usize {
        self.as_str().len()
    }

    /// True for [`Eol::None`].
    pub fn is_none(self) -> bool {
        self == Eol::None
    }
}

/// One line: where its content starts and ends in the text, and its terminator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineSpan {
    /// Byte offset of the first content byte.
    pub start: usize,
    /// Byte offset one past the last content byte (the terminator starts here).
    pub end: usize,
    /// The terminator that follows the content.
    pub eol: Eol,
}

impl LineSpan {
    /// Offset one past the terminator.
    pub fn full_end(&self) -> usize {
        self.end + self.eol.len()
    }
}

/// A text split into lines. An empty text has no lines; a text ending with a terminator has
/// no phantom empty last line.
///
/// Compact: 4 bytes a line, the byte offset where the line's content ends as a `u32`. A line
/// starts where the previous one's terminator ends, and the terminators are read from the text
/// (the byte at a content end is `\n`, `\r` or the `\r` of a `\r\n`; none at the text's end).
/// On a text of 4 GiB or more an offset is its `u32` low part plus the base of its stretch,
/// kept in a short list of the lines where the base steps up.
#[derive(Clone, Debug)]
pub struct Lines<'a> {
    text: &'a str,
    /// Per line, its content end minus the base of its stretch (0 before the first step).
    ends: Vec<u32>,
    /// Where the base steps up, in line order; empty on a text under 4 GiB.
    steps: Vec<Step>,
    /// The text holds a `\r` (else every terminator but a missing last one is `\n`).
    cr: bool,
}

/// From line `line` on, a line's content end is `base` plus its stored low part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Step {
    line: usize,
    base: usize,
}

/// The content ends being collected by a split.
struct Ends {
    lows: Vec<u32>,
    steps: Vec<Step>,
    base: usize,
    /// The largest low part stored (`u32::MAX`, smaller in tests of the stepping).
    mask: usize,
}

impl Ends {
    /// Appends the content end `end` (never below the previous one). `WIDE`: the text may hold
    /// offsets above `mask`, so the low part is checked; otherwise it is stored as it is.
    #[inline(always)]
    fn push<const WIDE: bool>(&mut self, end: usize) {
        if WIDE {
            let low = end - self.base;
            if low > self.mask {
                self.step(end);
            } else {
                self.lows.push(low as u32);
            }
        } else {
            self.lows.push(end as u32);
        }
    }

    /// The last content end pushed.
    fn last(&self) -> Option<usize> {
        self.lows.last().map(|&low| self.base + low as usize)
    }

    /// Starts a new stretch at `end`'s base.
    #[cold]
    fn step(&mut self, end: usize) {
        self.base = end & !self.mask;
        self.steps.push(Step {
            line: self.lows.len(),
            base: self.base,
        });
        self.lows.push((end - self.base) as u32);
    }
}

impl<'a> Lines<'a> {
    /// Splits `text` at LF, CRLF and lone CR.
    pub fn split(text: &'a str) -> Lines<'a> {
        Lines::split_with_mask(text, u32::MAX as usize)
    }

    /// [`Lines::split`] storing low parts of at most `mask` (`2^k - 1`): a small mask takes the
    /// path of a text of 4 GiB or more on a short text.
    fn split_with_mask(text: &'a str, mask: usize) -> Lines<'a> {
        let bytes = text.as_bytes();
        let cr = memchr::memchr(b'\r', bytes).is_some();
        let mut ends = Ends {
            lows: Vec::with_capacity(bytes.len() / 32 + 1),
            steps: Vec::new(),
            base: 0,
            mask,
        };
        // The last offset stored is at most the text's length.
        if bytes.len() > mask {
            split_into::<true>(bytes, cr, &mut ends);
        } else {
            split_into::<false>(bytes, cr, &mut ends);
        }
        Lines {
            text,
            ends: ends.lows,
            steps: ends.steps,
            cr,
        }
    }

    /// Number of lines.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Where line `i` (0-based) starts, ends, and its terminator.
    #[inline]
    pub fn span(&self, i: usize) -> LineSpan {
        let raw = self.raw();
        let end = raw.end(i);
        LineSpan {
            start: raw.start(i),
            end,
            eol: raw.eol_at(end),
        }
    }

    /// The content of line `i` (0-based), without its terminator.
    #[inline]
    pub fn get(&self, i: usize) -> &'a str {
        let s = self.span(i);
        &self.text[s.start..s.end]
    }

    /// The index itself, for a pass over every line or reading lines at random without a
    /// bounds-checked span per call.
    #[inline]
    pub(crate) fn raw(&self) -> RawLines<'_> {
        RawLines {
            ends: &self.ends,
            steps: &self.steps,
            bytes: self.text.as_bytes(),
            cr: self.cr,
        }
    }

    /// The terminator of line `i`.
    pub fn eol(&self, i: usize) -> Eol {
        let raw = self.raw();
        raw.eol_at(raw.end(i))
    }

    /// The bytes of lines `from..to`, terminators included.
    pub fn slice(&self, from: usize, to: usize) -> &'a str {
        if from >= to {
            return "";
        }
        &self.text[self.span(from).start..self.span(to - 1).full_end()]
    }

    /// True when the text ends with a line terminator (or is empty).
    pub fn ends_with_newline(&self) -> bool {
        self.text
            .as_bytes()
            .last()
            .is_none_or(|&b| b == b'\n' || b == b'\r')
    }

    /// The most frequent terminator (LF wins ties), or `None` when no line has one.
    pub fn dominant_eol(&self) -> Option<Eol> {
        if !self.cr {
            return memchr::memchr(b'\n', self.text.as_bytes()).map(|_| Eol::Lf);
        }
        let (mut lf, mut crlf, mut cr) = (0usize, 0usize, 0usize);
        let raw = self.raw();
        for span in raw.spans(0, raw.len()) {
            match raw.eol_at(span.end) {
                Eol::Lf => lf += 1,
                Eol::CrLf => crlf += 1,
                Eol::Cr => cr += 1,
                Eol::None => {}
            }
        }
        if lf == 0 && crlf == 0 && cr == 0 {
            None
        } else if crlf > lf && crlf >= cr {
            Some(Eol::CrLf)
        } else if cr > lf && cr > crlf {
            Some(Eol::Cr)
        } else {
            Some(Eol::Lf)
        }
    }
}

/// Collects the content end of every line of `bytes` into `ends`.
fn split_into<const WIDE: bool>(bytes: &[u8], cr: bool, ends: &mut Ends) {
    let mut start = 0;
    if cr {
        for i in memchr::memchr2_iter(b'\n', b'\r', bytes) {
            if i < start {
                continue; // the \n of a \r\n already consumed
            }
            ends.push::<WIDE>(i);
            start = if bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
                i + 2
            } else {
                i + 1
            };
        }
    } else {
        lf_ends::<WIDE>(bytes, ends);
        start = ends.last().map_or(0, |e| e + 1);
    }
    if start < bytes.len() {
        ends.push::<WIDE>(bytes.len());
    }
}

/// A borrowed view of a [`Lines`] index ([`Lines::raw`]): content ends and starts of lines
/// by number, and runs of spans read in order.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RawLines<'t> {
    ends: &'t [u32],
    steps: &'t [Step],
    bytes: &'t [u8],
    cr: bool,
}

impl<'t> RawLines<'t> {
    /// Number of lines.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.ends.len()
    }

    /// The base of line `i`'s stretch.
    #[inline]
    fn base(&self, i: usize) -> usize {
        match self.steps.partition_point(|s| s.line <= i) {
            0 => 0,
            k => self.steps[k - 1].base,
        }
    }

    /// Where line `i`'s content ends (panics past the last line, as a slice index does).
    #[inline]
    pub(crate) fn end(&self, i: usize) -> usize {
        let low = self.ends[i] as usize;
        if self.steps.is_empty() {
            low
        } else {
            self.base(i) + low
        }
    }

    /// Where line `i` starts: 0 for the first, else past the previous line's terminator.
    #[inline]
    pub(crate) fn start(&self, i: usize) -> usize {
        match i.checked_sub(1) {
            Some(p) => self.past_eol(self.end(p)),
            None => 0,
        }
    }

    /// Past the terminator of the line whose content ends at `end`.
    #[inline(always)]
    pub(crate) fn past_eol(&self, end: usize) -> usize {
        if !self.cr {
            return end + usize::from(end < self.bytes.len());
        }
        end + self.eol_at(end).len()
    }

    /// The terminator of the line whose content ends at `end`.
    #[inline]
    pub(crate) fn eol_at(&self, end: usize) -> Eol {
        match self.bytes.get(end) {
            None => Eol::None,
            Some(b'\r') if self.bytes.get(end + 1) == Some(&b'\n') => Eol::CrLf,
            Some(b'\r') => Eol::Cr,
            Some(_) => Eol::Lf,
        }
    }

    /// The content spans of lines `from..to` (clamped to the lines there are), in order.
    pub(crate) fn spans(&self, from: usize, to: usize) -> Spans<'t> {
        let to = to.min(self.len());
        let from = from.min(to);
        let k = self.steps.partition_point(|s| s.line <= from);
        let (base, steps) = match k {
            0 => (0, self.steps),
            k => (self.steps[k - 1].base, &self.steps[k..]),
        };
        Spans {
            ends: self.ends[from..to].iter(),
            line: from,
            next_step: steps.first().map_or(usize::MAX, |s| s.line),
            steps,
            base,
            pos: self.start(from),
            raw: *self,
        }
    }
}

/// The content spans of a run of lines ([`RawLines::spans`]).
#[derive(Clone, Debug)]
pub(crate) struct Spans<'t> {
    ends: std::slice::Iter<'t, u32>,
    /// The number of the next line.
    line: usize,
    /// The line of the first of `steps` (`usize::MAX` when none is left).
    next_step: usize,
    steps: &'t [Step],
    base: usize,
    /// Where the next line starts.
    pos: usize,
    raw: RawLines<'t>,
}

impl Iterator for Spans<'_> {
    type Item = std::ops::Range<usize>;
    #[inline]
    fn next(&mut self) -> Option<std::ops::Range<usize>> {
        let low = *self.ends.next()? as usize;
        if self.line == self.next_step {
            if let Some((s, rest)) = self.steps.split_first() {
                self.base = s.base;
                self.steps = rest;
            }
            self.next_step = self.steps.first().map_or(usize::MAX, |s| s.line);
        }
        self.line += 1;
        let end = self.base + low;
        let start = self.pos;
        self.pos = self.raw.past_eol(end);
        Some(start..end)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.ends.size_hint()
    }
}

/// Bytes scanned before the line vector is sized from the line density seen so far.
const SAMPLE: usize = 4096;

/// Appends the offset of every `\n` in `bytes` to `ends`, 32 bytes at a time: four
/// eight-byte words tested at once without a branch ([`newlines`]), then one step per line. A
/// `memchr` call per line pays its set-up on every line, which dominates on short lines (about
/// 1.5× slower on 12- and 34-byte lines here).
fn lf_ends<const WIDE: bool>(bytes: &[u8], ends: &mut Ends) {
    let mut blocks = bytes.chunks_exact(32);
    let mut base = 0usize;
    for block in &mut blocks {
        let mut masks = [0u64; 4];
        let mut any = 0u64;
        for (m, word) in masks.iter_mut().zip(block.chunks_exact(8)) {
            *m = newlines(word);
            any |= *m;
        }
        if any != 0 {
            for (j, &m) in masks.iter().enumerate() {
                let mut m = m;
                while m != 0 {
                    ends.push::<WIDE>(base + 8 * j + (m.trailing_zeros() / 8) as usize);
                    m &= m - 1;
                }
            }
        }
        base += 32;
        if base == SAMPLE && bytes.len() > 2 * SAMPLE {
            // Size the vector from the density of the sample, so it grows at most once more.
            // Only when the first estimate is short: a reallocation copies the vector.
            let lows = &mut ends.lows;
            let expect = (lows.len() as u64 * bytes.len() as u64 / SAMPLE as u64) as usize;
            if lows.capacity() < expect {
                lows.reserve((expect + expect / 16 + 16).saturating_sub(lows.len()));
            }
        }
    }
    for i in memchr::memchr_iter(b'\n', blocks.remainder()) {
        ends.push::<WIDE>(base + i);
    }
}

/// The high bit of every `\n` byte of an eight-byte word, exactly (no borrow between bytes).
#[inline(always)]
fn newlines(word: &[u8]) -> u64 {
    const LOW7: u64 = u64::from_le_bytes([0x7F; 8]);
    const HIGH: u64 = u64::from_le_bytes([0x80; 8]);
    const LF: u64 = u64::from_le_bytes([b'\n'; 8]);
    let mut a = [0u8; 8];
    a.copy_from_slice(&word[..8]);
    let x = u64::from_le_bytes(a) ^ LF;
    !(((x & LOW7).wrapping_add(LOW7)) | x) & HIGH
}

/// Removes a leading UTF-8 byte order mark, returning whether there was one.
pub fn strip_bom(text: &str) -> (bool, &str) {
    match text.strip_prefix('\u{feff}') {
        Some(rest) => (true, rest),
        None => (false, text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(t: &str) -> Vec<(&str, Eol)> {
        let l = Lines::split(t);
        (0..l.len()).map(|i| (l.get(i), l.eol(i))).collect()
    }

    #[test]
    fn splits_every_terminator() {
        assert_eq!(parts(""), vec![]);
        assert_eq!(parts("a"), vec![("a", Eol::None)]);
        assert_eq!(parts("a\n"), vec![("a", Eol::Lf)]);
        assert_eq!(
            parts("a\r\nb\rc\n\nd"),
            vec![
                ("a", Eol::CrLf),
                ("b", Eol::Cr),
                ("c", Eol::Lf),
                ("", Eol::Lf),
                ("d", Eol::None)
            ]
        );
        assert_eq!(parts("\r\r\n"), vec![("", Eol::Cr), ("", Eol::CrLf)]);
    }

    /// The obvious reading, a character at a time.
    fn naive(t: &str) -> Vec<(&str, Eol)> {
        let b = t.as_bytes();
        let (mut out, mut start, mut i) = (Vec::new(), 0, 0);
        while i < b.len() {
            let eol = match (b[i], b.get(i + 1)) {
                (b'\r', Some(b'\n')) => Eol::CrLf,
                (b'\r', _) => Eol::Cr,
                (b'\n', _) => Eol::Lf,
                _ => {
                    i += 1;
                    continue;
                }
            };
            out.push((&t[start..i], eol));
            i += eol.len();
            start = i;
        }
        if start < b.len() {
            out.push((&t[start..], Eol::None));
        }
        out
    }

    proptest::proptest! {
        #[test]
        fn splitting_agrees_with_a_naive_reading(
            chars in proptest::collection::vec(
                proptest::sample::select(vec!['a', ' ', '\n', '\r', '\u{e9}', '\u{2028}']),
                0..70,
            ),
        ) {
            let t: String = chars.into_iter().collect();
            proptest::prop_assert_eq!(parts(&t), naive(&t));
        }
    }

    proptest::proptest! {
        /// Long texts, so the 32-byte blocks and the re-sizing after the sample are crossed.
        #[test]
        fn long_texts_split_like_a_naive_reading(
            runs in proptest::collection::vec((0usize..150, 0usize..4), 0..120),
        ) {
            let t: String = runs
                .iter()
                // U+028A is CA 8A: a byte that is a newline but for its high bit.
                .map(|&(n, k)| format!("{}\n", ["a", "\u{e9}", "\u{28a}", "\x0b"][k].repeat(n)))
                .collect();
            proptest::prop_assert_eq!(parts(&t), naive(&t));
            let cut = &t[..t.len().saturating_sub(1)];
            proptest::prop_assert_eq!(parts(cut), naive(cut));
        }
    }

    /// Every reading of `l` (spans, terminators, starts, runs of spans, slices) against the
    /// naive split of its text.
    fn check_against_naive(l: &Lines<'_>, t: &str) {
        let want = naive(t);
        assert_eq!(l.len(), want.len(), "{t:?}");
        let raw = l.raw();
        let mut pos = 0;
        for (i, &(content, eol)) in want.iter().enumerate() {
            let s = l.span(i);
            assert_eq!(
                (s.start, &t[s.start..s.end], s.eol),
                (pos, content, eol),
                "{t:?} line {i}"
            );
            assert_eq!((l.get(i), l.eol(i)), (content, eol));
            assert_eq!((raw.start(i), raw.end(i)), (s.start, s.end));
            pos = s.full_end();
        }
        assert_eq!(pos, t.len());
        assert_eq!(raw.start(want.len()), t.len(), "past the last line: {t:?}");
        for from in 0..=want.len() {
            for to in from..=want.len() + 1 {
                let run: Vec<_> = raw.spans(from, to).collect();
                let each: Vec<_> = (from..to.min(want.len()))
                    .map(|i| l.span(i))
                    .map(|s| s.start..s.end)
                    .collect();
                assert_eq!(run, each, "{t:?} spans {from}..{to}");
                if to <= want.len() {
                    let bytes: String = want[from..to]
                        .iter()
                        .map(|(c, e)| format!("{c}{}", e.as_str()))
                        .collect();
                    assert_eq!(l.slice(from, to), bytes);
                }
            }
        }
        assert_eq!(
            l.ends_with_newline(),
            want.last().is_none_or(|(_, e)| !e.is_none())
        );
    }

    #[test]
    fn four_bytes_a_line() {
        let t = "x\ny\n".repeat(5000);
        let l = Lines::split(&t);
        assert_eq!(l.len(), 10_000);
        assert!(l.steps.is_empty());
        assert!(
            l.ends.capacity() * 4 <= 4 * 10_000 * 9 / 8 + 64,
            "{}",
            l.ends.capacity()
        );
        assert_eq!(std::mem::size_of_val(&l.ends[0]), 4);
    }

    #[test]
    fn every_kind_of_text_reads_back() {
        for t in [
            "",
            "a",
            "a\n",
            "\n",
            "\n\n",
            "a\r\nb\r\n",
            "a\r\nb",
            "a\rb\r",
            "\r",
            "\r\n",
            "\r\r\n\n\r",
            "\n\r",
            "a\r\nb\rc\n\nd",
            "no final newline",
            "\u{e9}\r\n\u{fc}\n",
        ] {
            check_against_naive(&Lines::split(t), t);
        }
    }

    #[test]
    fn offsets_past_the_low_part_step_the_base() {
        // A mask of 7 stores offsets modulo 8, as a 4 GiB text stores them modulo 2^32.
        let t = "ab\ncdefghijklmnopqrst\r\n\nu\rvwxyz\n\n\n0123456789abcdef";
        for mask in [1, 3, 7, 15, 31] {
            let l = Lines::split_with_mask(t, mask);
            assert!(!l.steps.is_empty(), "mask {mask}");
            assert!(l.ends.iter().all(|&e| e as usize <= mask));
            assert!(l.steps.windows(2).all(|w| w[0].line < w[1].line));
            check_against_naive(&l, t);
        }
        // A line longer than a whole stretch steps the base by more than one stretch.
        let long = format!("a\n{}\nb", "x".repeat(40));
        let l = Lines::split_with_mask(&long, 7);
        assert_eq!(l.steps, vec![Step { line: 1, base: 40 }]);
        check_against_naive(&l, &long);
        // Without `\r`, and the same text with one.
        let lf = "0123\n4567\n89\n\n\nabcdefg\nh";
        check_against_naive(&Lines::split_with_mask(lf, 3), lf);
        let crlf = lf.replace('\n', "\r\n");
        check_against_naive(&Lines::split_with_mask(&crlf, 3), &crlf);
    }

    proptest::proptest! {
        /// The stepped path (small masks) agrees with the naive reading on any text.
        #[test]
        fn stepped_split_agrees_with_a_naive_reading(
            chars in proptest::collection::vec(
                proptest::sample::select(vec!['a', 'b', '\n', '\r', '\u{e9}']),
                0..90,
            ),
            bits in 1u32..7,
        ) {
            let t: String = chars.into_iter().collect();
            let l = Lines::split_with_mask(&t, (1 << bits) - 1);
            check_against_naive(&l, &t);
            // The most frequent terminator, LF winning ties and CRLF winning over CR.
            let count = |e: Eol| naive(&t).iter().filter(|(_, x)| *x == e).count();
            let want = [Eol::Lf, Eol::CrLf, Eol::Cr]
                .into_iter()
                .filter(|&e| count(e) > 0)
                .max_by_key(|&e| (count(e), e == Eol::Lf, e == Eol::CrLf));
            proptest::prop_assert_eq!(l.dominant_eol(), want);
            proptest::prop_assert_eq!(Lines::split(&t).dominant_eol(), want);
        }
    }

    #[test]
    fn slices_and_newline_state() {
        let l = Lines::split("a\r\nb\nc");
        assert_eq!(l.slice(0, 2), "a\r\nb\n");
        assert_eq!(l.slice(1, 3), "b\nc");
        assert!(!l.ends_with_newline());
        assert_eq!(l.dominant_eol(), Some(Eol::Lf));
        assert_eq!(
            Lines::split("a\r\nb\r\nc\n").dominant_eol(),
            Some(Eol::CrLf)
        );
        assert_eq!(Lines::split("x").dominant_eol(), None);
    }
}
