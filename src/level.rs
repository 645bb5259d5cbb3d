//! The five match levels and the normalisation behind each.
//!
//! Levels nest: two lines equal at one level are equal at every looser level. Normalisation
//! is for matching only; output is never normalised.

use unicode_normalization::UnicodeNormalization;

/// How loosely two lines are compared, strictest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum Level {
    /// Bytes equal (terminator excluded). Fuzz 0.
    Exact = 0,
    /// Equal after removing trailing whitespace. Fuzz 1.
    TrimEnd = 1,
    /// Equal after removing leading and trailing whitespace. Fuzz 10.
    Trim = 2,
    /// Trimmed, and every internal run of whitespace is one space. Fuzz 50.
    Collapse = 3,
    /// Collapsed after Unicode folding (NFKC, quotes, dashes, ellipsis, spaces, zero-width
    /// characters). Fuzz 100.
    #[default]
    Fold = 4,
}

impl Level {
    /// Every level, strictest first.
    pub const ALL: [Level; 5] = [
        Level::Exact,
        Level::TrimEnd,
        Level::Trim,
        Level::Collapse,
        Level::Fold,
    ];

    /// The fuzz a match at this level adds.
    pub fn fuzz(self) -> u32 {
        match self {
            Level::Exact => 0,
            Level::TrimEnd => 1,
            Level::Trim => 10,
            Level::Collapse => 50,
            Level::Fold => 100,
        }
    }

    /// The stable lower-case name (`"exact"`, `"trim_end"`, `"trim"`, `"collapse"`, `"fold"`).
    pub fn name(self) -> &'static str {
        match self {
            Level::Exact => "exact",
            Level::TrimEnd => "trim_end",
            Level::Trim => "trim",
            Level::Collapse => "collapse",
            Level::Fold => "fold",
        }
    }

    /// The level with this name.
    pub fn from_name(name: &str) -> Option<Level> {
        Level::ALL.iter().copied().find(|l| l.name() == name)
    }

    /// The level with this numeric value (0 = exact … 4 = fold).
    pub fn from_index(i: u32) -> Option<Level> {
        Level::ALL.get(i as usize).copied()
    }

    /// Levels from exact up to and including `self`.
    pub fn up_to(self) -> &'static [Level] {
        &Level::ALL[..=self as usize]
    }
}

/// Writes the normalised form of `line` at `level` into `out` (cleared first). Returns the
/// slice to compare: `line` itself when normalisation is a sub-slice, else `out`.
pub fn normalize<'a>(line: &'a str, level: Level, out: &'a mut String) -> &'a str {
    match level {
        Level::Exact => line,
        Level::TrimEnd => trim_end_ws(line),
        Level::Trim => trim_ws(line),
        Level::Collapse => {
            let t = trim_ws(line);
            if !scan(t).needs_collapse {
                return t;
            }
            out.clear();
            collapse_into(t, out);
            out
        }
        Level::Fold => {
            let t = trim_ws(line);
            let shape = scan(t);
            if !shape.non_ascii {
                if !shape.needs_collapse {
                    return t;
                }
                out.clear();
                collapse_into(t, out);
                return out;
            }
            out.clear();
            let mut folded = String::with_capacity(line.len());
            for c in line.nfkc() {
                fold_char(c, &mut folded);
            }
            collapse_into(trim_ws(&folded), out);
            out
        }
    }
}

/// What normalising a trimmed line at the loose levels involves.
#[derive(Debug, PartialEq, Eq)]
struct Shape {
    /// A byte outside ASCII: the fold level needs Unicode folding.
    non_ascii: bool,
    /// A whitespace run other than one space (or a control byte below `\x0E`, which takes the
    /// same careful path): the collapse level must rewrite the line.
    needs_collapse: bool,
}

/// Classifies a trimmed line in one pass, eight bytes at a time. This runs on every line of a
/// file when a hunk is searched at a loose level, so it replaces three `memchr` searches and an
/// ASCII check, whose set-up costs dominate on lines of typical length.
fn scan(t: &str) -> Shape {
    let b = t.as_bytes();
    let load = |at: usize| u64::from_le_bytes(b[at..at + 8].try_into().unwrap_or_default());
    let mut acc = Words::default();
    let whole = b.len() / 8 * 8;
    for at in (0..whole).step_by(8) {
        acc.word(load(at));
    }
    if whole < b.len() {
        if b.len() >= 8 {
            // The last eight bytes, overlapping the previous word: every pair of adjacent
            // bytes across the previous word's end lies inside it, so it needs no carry.
            acc.carry = 0;
            acc.word(load(b.len() - 8));
        } else {
            // A short line, padded with a byte that is neither a space, a control nor
            // non-ASCII (built in a register: a copy through memory stalls the load).
            let w = b.iter().rev().fold(0u64, |w, &c| (w << 8) | u64::from(c));
            acc.word(w | (u64::from_le_bytes([b'x'; 8]) << (8 * b.len())));
        }
    }
    Shape {
        non_ascii: acc.high & Words::HIGH != 0,
        needs_collapse: acc.control & Words::HIGH != 0 || acc.double != 0,
    }
}

/// Branch-free accumulators of [`scan`] over little-endian words (byte i + 1 sits eight bits
/// above byte i).
#[derive(Default)]
struct Words {
    /// Every byte's bits: a high bit means a non-ASCII byte.
    high: u64,
    /// A high bit where some byte is below 0x0E (exact as to whether there is one).
    control: u64,
    /// A high bit where a space follows a space.
    double: u64,
    /// The high bit of byte 0 set when the previous word ended with a space.
    carry: u64,
}

impl Words {
    const ONES: u64 = u64::from_le_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_le_bytes([0x80; 8]);
    const LOW7: u64 = u64::from_le_bytes([0x7F; 8]);
    const SPACES: u64 = u64::from_le_bytes([b' '; 8]);

    #[inline(always)]
    fn word(&mut self, w: u64) {
        self.high |= w;
        self.control |= w.wrapping_sub(Self::ONES * 0x0E) & !w;
        // The high bit of every space byte, exactly.
        let z = w ^ Self::SPACES;
        let spaces = !(((z & Self::LOW7).wrapping_add(Self::LOW7)) | z) & Self::HIGH;
        self.double |= spaces & ((spaces << 8) | self.carry);
        self.carry = spaces >> 56;
    }
}

/// ASCII whitespace: what the trim and collapse levels ignore. Unicode spaces (no-break,
/// em, ideographic, ...) are equal to a space only at the fold level.
pub(crate) fn is_ws(c: char) -> bool {
    c.is_ascii() && is_ws_byte(c as u8)
}

/// The byte form of [`is_ws`]. ASCII bytes never occur inside a multi-byte UTF-8 sequence,
/// so whitespace can be found byte by byte in any string.
pub(crate) fn is_ws_byte(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0B' | b'\x0C')
}

/// Removes trailing ASCII whitespace.
pub(crate) fn trim_end_ws(s: &str) -> &str {
    let b = s.as_bytes();
    let mut end = b.len();
    while end > 0 && is_ws_byte(b[end - 1]) {
        end -= 1;
    }
    &s[..end]
}

/// Removes leading and trailing ASCII whitespace.
pub(crate) fn trim_ws(s: &str) -> &str {
    let t = trim_end_ws(s);
    let b = t.as_bytes();
    let mut start = 0;
    while start < b.len() && is_ws_byte(b[start]) {
        start += 1;
    }
    &t[start..]
}

/// Appends the words of a trimmed `t` to `out`, separated by single spaces.
fn collapse_into(t: &str, out: &mut String) {
    for word in t.split(is_ws).filter(|w| !w.is_empty()) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
}

/// What folding turns one (already NFKC-normalised) character into.
pub(crate) enum Folded {
    /// The character vanishes (zero-width characters, the BOM, the soft hyphen).
    Gone,
    /// One character.
    Char(char),
    /// Several characters (the ellipsis).
    Str(&'static str),
}

/// Folds one (already NFKC-normalised) character into its ASCII look-alike, without writing it
/// anywhere: the streaming form of [`fold_char`].
pub(crate) fn fold_map(c: char) -> Folded {
    match c {
        // Single quotes, primes and look-alikes.
        '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' | '\u{2032}' | '\u{2035}'
        | '\u{02BC}' | '\u{FF07}' => Folded::Char('\''),
        // Double quotes and guillemets.
        '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' | '\u{2033}' | '\u{2036}'
        | '\u{00AB}' | '\u{00BB}' | '\u{FF02}' => Folded::Char('"'),
        // Hyphens, dashes and minus signs (the soft hyphen vanishes).
        '\u{2010}' | '\u{2011}' | '\u{2012}' | '\u{2013}' | '\u{2014}' | '\u{2015}'
        | '\u{2212}' | '\u{FE58}' | '\u{FE63}' | '\u{FF0D}' => Folded::Char('-'),
        '\u{2026}' => Folded::Str("..."),
        // Zero-width characters, the BOM and the soft hyphen vanish.
        '\u{200B}' | '\u{200C}' | '\u{200D}' | '\u{2060}' | '\u{FEFF}' | '\u{00AD}' => Folded::Gone,
        c if c.is_whitespace() => Folded::Char(' '),
        c => Folded::Char(c),
    }
}

/// Folds one (already NFKC-normalised) character into its ASCII look-alike.
pub(crate) fn fold_char(c: char, out: &mut String) {
    match fold_map(c) {
        Folded::Gone => {}
        Folded::Char(c) => out.push(c),
        Folded::Str(s) => out.push_str(s),
    }
}

/// Normalises one character at the fold level (NFKC of the character alone, then the ASCII
/// look-alike). Used to map file characters back onto patch characters.
pub(crate) fn fold_single(c: char, out: &mut String) {
    if c.is_ascii() {
        // NFKC leaves ASCII alone, and no fold maps an ASCII character but whitespace.
        out.push(if c.is_whitespace() { ' ' } else { c });
        return;
    }
    fold_single_nfkc(c, out);
}

/// [`fold_single`] through NFKC, for any character.
fn fold_single_nfkc(c: char, out: &mut String) {
    let mut buf = [0u8; 4];
    for n in c.encode_utf8(&mut buf).nfkc() {
        fold_char(n, out);
    }
}

/// The normalised line, borrowed from `line` when normalising only trims it.
pub(crate) fn normalize_cow(line: &str, level: Level) -> std::borrow::Cow<'_, str> {
    let mut buf = String::new();
    let n = normalize(line, level, &mut buf);
    if n.is_empty() {
        return std::borrow::Cow::Borrowed("");
    }
    if line.as_bytes().as_ptr_range().contains(&n.as_ptr()) {
        // A sub-slice of `line` (trimming): borrow it instead of copying.
        let start = n.as_ptr() as usize - line.as_ptr() as usize;
        return std::borrow::Cow::Borrowed(&line[start..start + n.len()]);
    }
    std::borrow::Cow::Owned(n.to_string())
}

/// Convenience: the normalised line as an owned string.
pub fn normalized(line: &str, level: Level) -> String {
    let mut out = String::new();
    normalize(line, level, &mut out).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_level() {
        let l = "\t a  \u{00A0}b\t ";
        assert_eq!(normalized(l, Level::Exact), l);
        assert_eq!(normalized(l, Level::TrimEnd), "\t a  \u{00A0}b");
        assert_eq!(normalized(l, Level::Trim), "a  \u{00A0}b");
        assert_eq!(normalized(l, Level::Collapse), "a \u{00A0}b");
        assert_eq!(normalized(l, Level::Fold), "a b");
    }

    #[test]
    fn fold_classes() {
        let cases = [
            ("\u{201C}hi\u{201D} \u{2018}x\u{2019}", "\"hi\" 'x'"),
            ("a \u{2014} b \u{2013} c \u{2212}1", "a - b - c -1"),
            ("wait\u{2026}", "wait..."),
            ("a\u{200B}b\u{FEFF}c", "abc"),
            ("\u{FF21}\u{FF22}", "AB"),
            ("x\u{2003}\u{3000}y", "x y"),
            ("\u{FB01}le", "file"),
        ];
        for (a, b) in cases {
            assert_eq!(normalized(a, Level::Fold), b, "{a:?}");
        }
    }

    #[test]
    fn scan_agrees_with_a_byte_by_byte_reading() {
        let samples = [
            "",
            "a",
            "a b",
            "a  b",
            "ab      cd",
            "abcdefg  h",
            "abcdefgh  ",
            "abcdefg \u{00A0}",
            "a\tb",
            "abcdefghijklmno\x0Bp",
            "x\x0C",
            "caf\u{00E9}",
            "\u{201C}q\u{201D}",
            "0123456 89abcdef",
            "0123456  9abcdef",
            "01234567 9abcdef",
            "0123456\u{2014}",
            "a\x01b",
            "~~~~~~~ ~~~~~~~ ~",
        ];
        for t in samples {
            let b = t.as_bytes();
            let expected = Shape {
                non_ascii: !t.is_ascii(),
                needs_collapse: b.iter().any(|&c| c < 0x0E) || t.contains("  "),
            };
            assert_eq!(scan(t), expected, "{t:?}");
        }
    }

    proptest::proptest! {
        #[test]
        fn scan_agrees_on_random_lines(
            chars in proptest::collection::vec(proptest::sample::select(vec![
                'a', ' ', '\t', '\x0B', '\x0C', '\x01', '~', '\u{00E9}', '\u{2014}',
            ]), 0..40),
        ) {
            let t: String = chars.into_iter().collect();
            let expected = Shape {
                non_ascii: !t.is_ascii(),
                needs_collapse: t.bytes().any(|c| c < 0x0E) || t.contains("  "),
            };
            proptest::prop_assert_eq!(scan(&t), expected);
        }
    }

    /// The ASCII shortcut of `fold_single` is the NFKC path's answer on every ASCII character.
    #[test]
    fn fold_single_of_ascii_is_the_nfkc_fold() {
        for b in 0u8..0x80 {
            let c = char::from(b);
            let (mut fast, mut slow) = (String::new(), String::new());
            fold_single(c, &mut fast);
            fold_single_nfkc(c, &mut slow);
            assert_eq!(fast, slow, "{c:?}");
        }
    }

    #[test]
    fn levels_nest() {
        let samples = ["a b", " a b", "a  b ", "\u{201C}a\u{201D}", "a\tb", ""];
        for x in samples {
            for y in samples {
                let mut eq = false;
                for l in Level::ALL {
                    let now = normalized(x, l) == normalized(y, l);
                    assert!(!eq || now, "{x:?} {y:?} {l:?}");
                    eq = now;
                }
            }
        }
    }
}
