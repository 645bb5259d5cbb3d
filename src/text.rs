//! A text split into lines, each line a byte range plus its own terminator.
//!
//! Splitting is zero-copy (`memchr`): a [`Lines`] holds offsets into the caller's text. Every
//! line keeps its own terminator (LF, CRLF, lone CR, or none on the last line), which is what
//! lets the builder reproduce untouched lines byte for byte.

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
/// Compact: per line, the byte offset where its content ends and its terminator (9 bytes a
/// line); a line starts where the previous one's terminator ends.
#[derive(Clone, Debug)]
pub struct Lines<'a> {
    text: &'a str,
    ends: Vec<usize>,
    eols: Vec<Eol>,
}

impl<'a> Lines<'a> {
    /// Splits `text` at LF, CRLF and lone CR.
    pub fn split(text: &'a str) -> Lines<'a> {
        let bytes = text.as_bytes();
        let estimate = bytes.len() / 32 + 1;
        let mut ends = Vec::with_capacity(estimate);
        let mut eols = Vec::with_capacity(estimate);
        let mut start = 0;
        if memchr::memchr(b'\r', bytes).is_some() {
            for i in memchr::memchr2_iter(b'\n', b'\r', bytes) {
                if i < start {
                    continue; // the \n of a \r\n already consumed
                }
                ends.push(i);
                if bytes[i] == b'\n' {
                    eols.push(Eol::Lf);
                    start = i + 1;
                } else if bytes.get(i + 1) == Some(&b'\n') {
                    eols.push(Eol::CrLf);
                    start = i + 2;
                } else {
                    eols.push(Eol::Cr);
                    start = i + 1;
                }
            }
        } else {
            lf_ends(bytes, &mut ends);
            eols.resize(ends.len(), Eol::Lf);
            start = ends.last().map_or(0, |e| e + 1);
        }
        if start < bytes.len() {
            ends.push(bytes.len());
            eols.push(Eol::None);
        }
        Lines { text, ends, eols }
    }

    /// Number of lines.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Where line `i` (0-based) starts, ends, and its terminator.
    #[inline]
    pub fn span(&self, i: usize) -> LineSpan {
        let start = if i == 0 {
            0
        } else {
            self.ends[i - 1] + self.eols[i - 1].len()
        };
        LineSpan {
            start,
            end: self.ends[i],
            eol: self.eols[i],
        }
    }

    /// The content of line `i` (0-based), without its terminator.
    #[inline]
    pub fn get(&self, i: usize) -> &'a str {
        let s = self.span(i);
        &self.text[s.start..s.end]
    }

    /// Where each line's content ends, and its terminator (a line starts where the previous
    /// one's terminator ends): the index itself, for a pass over every line.
    pub(crate) fn raw(&self) -> (&[usize], &[Eol]) {
        (&self.ends, &self.eols)
    }

    /// The terminator of line `i`.
    pub fn eol(&self, i: usize) -> Eol {
        self.eols[i]
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
        self.eols.last().is_none_or(|e| !e.is_none())
    }

    /// The most frequent terminator (LF wins ties), or `None` when no line has one.
    pub fn dominant_eol(&self) -> Option<Eol> {
        let (mut lf, mut crlf, mut cr) = (0usize, 0usize, 0usize);
        for e in &self.eols {
            match e {
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

/// Bytes scanned before the line vector is sized from the line density seen so far.
const SAMPLE: usize = 4096;

/// Appends the offset of every `\n` in `bytes` to `ends`, 32 bytes at a time: four
/// eight-byte words tested at once without a branch ([`newlines`]), then one step per line. A
/// `memchr` call per line pays its set-up on every line, which dominates on short lines (about
/// 1.5× slower on 12- and 34-byte lines here).
fn lf_ends(bytes: &[u8], ends: &mut Vec<usize>) {
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
                    ends.push(base + 8 * j + (m.trailing_zeros() / 8) as usize);
                    m &= m - 1;
                }
            }
        }
        base += 32;
        if base == SAMPLE && bytes.len() > 2 * SAMPLE {
            // Size the vector from the density of the sample, so it grows at most once more.
            // Only when the first estimate is short: a reallocation copies the vector.
            let expect = (ends.len() as u64 * bytes.len() as u64 / SAMPLE as u64) as usize;
            if ends.capacity() < expect {
                ends.reserve((expect + expect / 16 + 16).saturating_sub(ends.len()));
            }
        }
    }
    ends.extend(memchr::memchr_iter(b'\n', blocks.remainder()).map(|i| base + i));
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
