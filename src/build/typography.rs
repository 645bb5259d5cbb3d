//! Typography (SPEC §4): when a line matched the file only after Unicode folding, added text
//! follows the file's characters.
//!
//! Two mechanisms. **The character map** of a hunk is learned from its matched lines: where
//! the patch has one character and the file another that folds the same (ASCII quotes for
//! curly ones or the other way round, dashes), and that character never appears unchanged, the
//! map turns it into the file's character in every `+` line of the hunk. ASCII quotes that the
//! file writes as curly pairs become opening or closing quotes by position. **A replaced line**
//! keeps the file's exact characters in the parts the `+` line shares with the `-` line it
//! replaces (including no-break spaces and zero-width characters), and the map applies to the
//! rest. Folding is never applied to output: only characters that fold alike are exchanged.

use std::borrow::Cow;

use crate::level::{normalized, Level};
use crate::locate::fold_single;

/// The characters a hunk's matched lines show the file writes differently from the patch.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct CharMap {
    /// Patch character → file character.
    plain: Vec<(char, char)>,
    /// ASCII quote → the file's (opening, closing) pair, chosen by position.
    quotes: Vec<(char, (char, char))>,
}

/// The curly pair an ASCII quote folds from.
fn curly_pair(c: char) -> Option<(char, char)> {
    match c {
        '"' => Some(('\u{201C}', '\u{201D}')),
        '\'' => Some(('\u{2018}', '\u{2019}')),
        _ => None,
    }
}

/// Quotes, apostrophes, primes, hyphens, dashes and minus signs: the only characters the map
/// exchanges (never letters or digits, which folding also unifies: `²` and `2`).
fn typographic(c: char) -> bool {
    !c.is_alphanumeric() && matches!(fold_one(c).as_str(), "\"" | "'" | "-")
}

/// True when a quote after `prev` opens: at the start, after whitespace or an opening bracket.
fn opens(prev: Option<char>) -> bool {
    prev.is_none_or(|p| p.is_whitespace() || "([{<\u{2014}\u{2013}".contains(p))
}

/// The folded form of one character ("" for zero-width characters).
fn fold_one(c: char) -> String {
    let mut s = String::new();
    fold_single(c, &mut s);
    s
}

/// Non-whitespace characters with their folded forms and the character before them.
fn folded_chars(s: &str) -> Vec<(char, String, Option<char>)> {
    let mut out = Vec::new();
    let mut prev = None;
    for c in s.chars() {
        let f = fold_one(c);
        if !c.is_whitespace() && !f.is_empty() && !f.chars().all(char::is_whitespace) {
            out.push((c, f, prev));
        }
        prev = Some(c);
    }
    out
}

impl CharMap {
    /// Learns the map from (patch line, file line) pairs of matched lines. A pair whose
    /// characters do not fold alike one for one adds what it can: runs that fold alike but
    /// not one for one (an ellipsis for three dots, a ligature) are skipped.
    pub(crate) fn learn<'a>(pairs: impl Iterator<Item = (&'a str, &'a str)>) -> CharMap {
        // (patch char, file char, whether the file char sits where a quote opens)
        let mut seen: Vec<(char, char, bool)> = Vec::new();
        for (p, f) in pairs {
            let (pc, fc) = (folded_chars(p), folded_chars(f));
            let fold_p: String = pc.iter().map(|x| x.1.as_str()).collect();
            let fold_f: String = fc.iter().map(|x| x.1.as_str()).collect();
            if fold_p != fold_f {
                continue;
            }
            let (mut i, mut j) = (0, 0);
            while i < pc.len() && j < fc.len() {
                if pc[i].1 == fc[j].1 {
                    if typographic(pc[i].0) && typographic(fc[j].0) {
                        seen.push((pc[i].0, fc[j].0, opens(fc[j].2)));
                    }
                    i += 1;
                    j += 1;
                    continue;
                }
                // Skip a run that folds alike on both sides but not one for one.
                let (mut a, mut b) = (pc[i].1.len(), fc[j].1.len());
                i += 1;
                j += 1;
                while a != b {
                    if a < b && i < pc.len() {
                        a += pc[i].1.len();
                        i += 1;
                    } else if b < a && j < fc.len() {
                        b += fc[j].1.len();
                        j += 1;
                    } else {
                        break;
                    }
                }
            }
        }
        let mut map = CharMap::default();
        let mut chars: Vec<char> = seen.iter().map(|s| s.0).collect();
        chars.sort_unstable();
        chars.dedup();
        for c in chars {
            let targets: Vec<(char, bool)> = seen
                .iter()
                .filter(|s| s.0 == c)
                .map(|s| (s.1, s.2))
                .collect();
            if targets.iter().any(|t| t.0 == c) {
                continue; // the file also writes it as the patch does
            }
            if let Some((open, close)) = curly_pair(c) {
                let by_position = targets
                    .iter()
                    .all(|&(t, at_open)| t == if at_open { open } else { close });
                if by_position {
                    map.quotes.push((c, (open, close)));
                }
                continue;
            }
            let t = targets[0].0;
            if targets.iter().all(|x| x.0 == t) {
                map.plain.push((c, t));
            }
        }
        map
    }

    /// True when the map changes nothing.
    pub(crate) fn is_empty(&self) -> bool {
        self.plain.is_empty() && self.quotes.is_empty()
    }

    /// `s` with the map applied; `prev` is the character written before it.
    pub(crate) fn apply<'s>(&self, s: &'s str, prev: Option<char>) -> Cow<'s, str> {
        let mapped =
            |c: char| self.plain.iter().any(|m| m.0 == c) || self.quotes.iter().any(|m| m.0 == c);
        if !s.chars().any(mapped) {
            return Cow::Borrowed(s);
        }
        let mut out = String::with_capacity(s.len() + 8);
        let mut last = prev;
        for c in s.chars() {
            let to = if let Some(&(_, t)) = self.plain.iter().find(|m| m.0 == c) {
                t
            } else if let Some(&(_, (open, close))) = self.quotes.iter().find(|m| m.0 == c) {
                if opens(last) {
                    open
                } else {
                    close
                }
            } else {
                c
            };
            out.push(to);
            last = Some(to);
        }
        Cow::Owned(out)
    }
}

/// Folded pieces of a line: for each character (whitespace runs merged), its folded text and
/// the byte offset where it starts in the line.
fn pieces(s: &str) -> (String, Vec<(usize, usize)>) {
    // (folded offset, source offset) at every source character boundary that survives.
    let mut folded = String::new();
    let mut map = Vec::new();
    let mut in_space = false;
    for (i, c) in s.char_indices() {
        let mut piece = fold_one(c);
        if !piece.is_empty() && piece.chars().all(char::is_whitespace) {
            if in_space {
                continue;
            }
            in_space = true;
            piece = " ".to_string();
        } else if !piece.is_empty() {
            in_space = false;
        }
        map.push((folded.len(), i));
        folded.push_str(&piece);
    }
    map.push((folded.len(), s.len()));
    (folded, map)
}

fn common_prefix_chars(a: &str, b: &str) -> usize {
    a.char_indices()
        .zip(b.chars())
        .take_while(|((_, x), y)| x == y)
        .last()
        .map_or(0, |((i, x), _)| i + x.len_utf8())
}

fn common_suffix_chars(a: &str, b: &str) -> usize {
    a.chars()
        .rev()
        .zip(b.chars().rev())
        .take_while(|(x, y)| x == y)
        .map(|(x, _)| x.len_utf8())
        .sum()
}

/// Rebuilds the body of `new` (the `+` line after its indentation) so that the parts it
/// shares with `old` (the `-` line as the patch wrote it) use the characters of `file` (the
/// `-` line as the file has it), and the rest follows `map`. The `+` line's own trailing
/// whitespace ends it. Returns `None` when the lines do not line up (the caller then writes the
/// body through the map alone).
pub(crate) fn keep_file_typography(
    old: &str,
    new: &str,
    file: &str,
    map: &CharMap,
) -> Option<String> {
    let old_body = trim_ws(old);
    let new_trimmed = new.trim_start_matches([' ', '\t']);
    let new_body = new_trimmed.trim_end_matches([' ', '\t']);
    let trail = &new_trimmed[new_body.len()..];
    let file_body = trim_ws(file);
    let prefix = common_prefix_chars(old_body, new_body);
    let mut suffix = common_suffix_chars(old_body, new_body);
    if prefix + suffix > old_body.len().min(new_body.len()) {
        suffix = old_body.len().min(new_body.len()) - prefix;
        while !old_body.is_char_boundary(old_body.len() - suffix)
            || !new_body.is_char_boundary(new_body.len() - suffix)
        {
            suffix -= 1;
        }
    }
    // A boundary strictly inside a run of whitespace and zero-width characters would split
    // the run between the file's copy and the patch's: the whole run goes with the change.
    let in_run = |c: char| c.is_whitespace() || fold_one(c).is_empty();
    let run_before = |at: usize| old_body[..at].chars().next_back().is_some_and(in_run);
    let run_after = |at: usize| old_body[at..].chars().next().is_some_and(in_run);
    let mut prefix = prefix;
    if run_before(prefix) && run_after(prefix) {
        while run_before(prefix) {
            prefix -= old_body[..prefix]
                .chars()
                .next_back()
                .map_or(0, char::len_utf8);
        }
    }
    let at = old_body.len() - suffix;
    if run_before(at) && run_after(at) {
        while suffix > 0 && run_after(old_body.len() - suffix) {
            let c = old_body[old_body.len() - suffix..].chars().next();
            suffix -= c.map_or(0, char::len_utf8);
        }
    }
    if prefix == 0 && suffix == 0 {
        return None;
    }
    let (old_folded, old_map) = pieces(old_body);
    let (file_folded, file_map) = pieces(file_body);
    if old_folded != file_folded {
        return None;
    }
    let fold_at = |src: usize| old_map.iter().find(|(_, s)| *s == src).map(|&(f, _)| f);
    // The file's boundary at a folded offset. The prefix ends at the first boundary there and
    // the suffix starts at the last, so that characters folding to nothing (zero-width) at the
    // edge of the change, and whitespace the change removed, go with the change.
    let first_at = |f: usize| file_map.iter().find(|(x, _)| *x == f).map(|&(_, s)| s);
    let last_at = |f: usize| file_map.iter().rfind(|(x, _)| *x == f).map(|&(_, s)| s);
    let f_prefix = first_at(fold_at(prefix)?)?;
    let f_suffix = last_at(fold_at(old_body.len() - suffix)?)?;
    if f_suffix < f_prefix {
        return None;
    }
    let head = &file_body[..f_prefix];
    let middle = map.apply(
        &new_body[prefix..new_body.len() - suffix],
        head.chars().last(),
    );
    let body = format!("{head}{middle}{}{trail}", &file_body[f_suffix..]);
    // The line must read as the patch wrote it: anything else is no clean mapping.
    (normalized(&body, Level::Fold) == normalized(new_body, Level::Fold)).then_some(body)
}

/// Removes leading and trailing spaces and tabs (the indentation and the trailing whitespace).
fn trim_ws(s: &str) -> &str {
    s.trim_matches([' ', '\t'])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn learn(pairs: &[(&str, &str)]) -> CharMap {
        CharMap::learn(pairs.iter().copied())
    }

    #[test]
    fn keeps_curly_quotes_and_dashes() {
        let file = "msg = \u{201C}Hello \u{2014} world\u{201D}; // old";
        let old = "msg = \"Hello - world\"; // old";
        let new = "msg = \"Hello - world\"; // new";
        let map = learn(&[(old, file)]);
        assert_eq!(
            keep_file_typography(old, new, file, &map).unwrap(),
            "msg = \u{201C}Hello \u{2014} world\u{201D}; // new"
        );
    }

    #[test]
    fn keeps_suffix_and_nbsp() {
        let file = "x\u{00A0}=\u{00A0}1; \u{2018}a\u{2019}";
        let old = "x = 1; 'a'";
        let new = "y = 1; 'a'";
        assert_eq!(
            keep_file_typography(old, new, file, &CharMap::default()).unwrap(),
            "y\u{00A0}=\u{00A0}1; \u{2018}a\u{2019}"
        );
    }

    #[test]
    fn added_text_follows_the_file_quotes() {
        let file = "with open(path, \"w\") as f:";
        let old = "with open(path, \u{201C}w\u{201D}) as f:";
        let new = "with open(path, \u{201C}w\u{201D}, encoding=\u{201C}utf-8\u{201D}) as f:";
        let map = learn(&[(old, file)]);
        assert_eq!(
            keep_file_typography(old, new, file, &map).unwrap(),
            "with open(path, \"w\", encoding=\"utf-8\") as f:"
        );
        // ASCII quotes in the patch, curly pairs in the file: by position.
        let map = learn(&[(
            "say \"hi\" or \"bye\"",
            "say \u{201C}hi\u{201D} or \u{201C}bye\u{201D}",
        )]);
        assert_eq!(
            map.apply("\"a\" (\"b\")", None),
            "\u{201C}a\u{201D} (\u{201C}b\u{201D})"
        );
    }

    #[test]
    fn letters_and_digits_are_never_mapped() {
        let map = learn(&[
            ("x2 \"a\"", "x\u{b2} \u{201C}a\u{201D}"),
            ("AB", "\u{FF21}\u{FF22}"),
        ]);
        assert_eq!(map.apply("2 A \"", None), "2 A \u{201C}");
    }

    #[test]
    fn mixed_files_map_nothing() {
        // The file writes '"' both ways: no map.
        let map = learn(&[("a \"b\"", "a \u{201C}b\u{201D}"), ("c \"d\"", "c \"d\"")]);
        assert!(map.is_empty());
        // An ellipsis for three dots and a ligature are skipped, the quotes still learned.
        let map = learn(&[("\"fi...\"", "\u{201C}\u{FB01}\u{2026}\u{201D}")]);
        assert_eq!(map.apply("\"x\"", None), "\u{201C}x\u{201D}");
    }

    #[test]
    fn trailing_whitespace_is_the_added_lines() {
        let file = "  /// see \"P\" to Closed. ";
        let old = "  /// see \u{201C}P\u{201D} to Closed. ";
        let new = "  /// state closed. ";
        let map = learn(&[(old, file)]);
        assert_eq!(
            keep_file_typography(old, new, file, &map).unwrap(),
            "/// state closed. "
        );
    }

    #[test]
    fn refuses_unclean_mappings() {
        let m = CharMap::default();
        assert_eq!(keep_file_typography("abc", "xyz", "abc", &m), None);
        assert_eq!(keep_file_typography("a b", "a c", "q r", &m), None);
    }
}
