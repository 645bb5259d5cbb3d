//! Quoting lines for messages and judging how similar two lines are.

use std::ops::Range;

use crate::level::{normalized, Level};
use crate::locate::index::{Budget, LineIndex};

/// "40, 88 and 131" from 0-based lines.
pub(crate) fn line_list(lines: &[usize]) -> String {
    let shown: Vec<String> = lines.iter().take(20).map(|l| (l + 1).to_string()).collect();
    let mut s = match shown.len() {
        0 => String::new(),
        1 => shown[0].clone(),
        k => format!("{} and {}", shown[..k - 1].join(", "), shown[k - 1]),
    };
    if lines.len() > 20 {
        s = format!("{} … ({} in all)", shown.join(", "), lines.len());
    }
    s
}

/// How many characters of a line a message quotes.
const QUOTE_CHARS: usize = 240;

/// A line quoted with its whitespace made visible: `·` space, `→` tab, `\u{..}` for other
/// invisible characters. Long lines are cut after [`QUOTE_CHARS`] characters.
pub(crate) fn visible(line: &str) -> String {
    let mut out = String::with_capacity(line.len().min(QUOTE_CHARS * 4) + 2);
    out.push('"');
    let total = line.chars().count();
    for c in line.chars().take(QUOTE_CHARS) {
        match c {
            ' ' => out.push('·'),
            '\t' => out.push('→'),
            '"' => out.push_str("\\\""),
            c if c.is_whitespace()
                || c.is_control()
                || matches!(c, '\u{200B}'..='\u{200D}' | '\u{2060}' | '\u{FEFF}') =>
            {
                out.push_str(&format!("\\u{{{:04X}}}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
    if total > QUOTE_CHARS {
        out.push_str(&format!(" (… {} more characters)", total - QUOTE_CHARS));
    }
    out
}

/// At most `keep` bytes of each end of a long line (on character boundaries): similarity of
/// huge lines is judged on their ends, so diagnostics stay cheap.
fn ends_of(line: &str, keep: usize) -> std::borrow::Cow<'_, str> {
    if line.len() <= 2 * keep {
        return std::borrow::Cow::Borrowed(line);
    }
    let mut a = keep;
    while !line.is_char_boundary(a) {
        a -= 1;
    }
    let mut b = line.len() - keep;
    while !line.is_char_boundary(b) {
        b += 1;
    }
    std::borrow::Cow::Owned(format!("{}{}", &line[..a], &line[b..]))
}

/// Similarity of two lines in 0.0..=1.0: character-bigram Dice on their folded forms.
pub(crate) fn similarity(a: &str, b: &str) -> f64 {
    let a = normalized(&ends_of(a, 2048), Level::Fold);
    let b = normalized(&ends_of(b, 2048), Level::Fold);
    if a == b {
        return 1.0;
    }
    let bigrams = |s: &str| -> Vec<(char, char)> {
        let cs: Vec<char> = s.chars().collect();
        let mut v: Vec<(char, char)> = cs.windows(2).map(|w| (w[0], w[1])).collect();
        if v.is_empty() {
            v.extend(cs.first().map(|&c| (c, '\0')));
        }
        v.sort_unstable();
        v
    };
    let (x, y) = (bigrams(&a), bigrams(&b));
    if x.is_empty() || y.is_empty() {
        return 0.0;
    }
    let (mut i, mut j, mut common) = (0, 0, 0usize);
    while i < x.len() && j < y.len() {
        match x[i].cmp(&y[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                common += 1;
                i += 1;
                j += 1;
            }
        }
    }
    2.0 * common as f64 / (x.len() + y.len()) as f64
}

/// The `k` lines of `range` most similar to `text` (best first), with their similarity.
pub(crate) fn closest_lines(
    index: &mut LineIndex<'_>,
    text: &str,
    range: Range<usize>,
    k: usize,
    budget: &mut Budget,
) -> Vec<(usize, f64)> {
    let lines = index.lines();
    let mut best: Vec<(usize, f64)> = Vec::new();
    let want = normalized(text, Level::Fold);
    for i in range {
        if budget.charge(1).is_err() {
            break;
        }
        let line = lines.get(i);
        let mut s = similarity(line, text);
        let mut head = line.len().min(text.len() * 4 + 64);
        while !line.is_char_boundary(head) {
            head -= 1;
        }
        if !want.is_empty() && normalized(&line[..head], Level::Fold).starts_with(&want) {
            s = s.max(0.9);
        }
        if s >= 0.4 {
            best.push((i, s));
            best.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            best.truncate(k);
        }
    }
    best
}
