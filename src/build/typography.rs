//! Typography: when a `-` line matched the file only after Unicode folding, and its `+`
//! replacement repeats its text with ASCII look-alikes, the unchanged parts of the new line
//! keep the file's own characters (curly quotes, dashes, no-break spaces).

use crate::locate::fold_single;

/// Folded pieces of a line: for each character (whitespace runs merged), its folded text and
/// the byte offset where it starts in the line.
fn pieces(s: &str) -> (String, Vec<(usize, usize)>) {
    // (folded offset, source offset) at every source character boundary that survives.
    let mut folded = String::new();
    let mut map = Vec::new();
    let mut in_space = false;
    for (i, c) in s.char_indices() {
        let mut piece = String::new();
        fold_single(c, &mut piece);
        if piece == " " || piece.chars().all(char::is_whitespace) && !piece.is_empty() {
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

fn source_offset(map: &[(usize, usize)], folded_offset: usize) -> Option<usize> {
    // The last source boundary at this folded offset keeps zero-width characters on the
    // unchanged side.
    map.iter()
        .filter(|(f, _)| *f == folded_offset)
        .map(|&(_, s)| s)
        .next()
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

/// Rebuilds `new` (the `+` line) so that the parts it shares with `old` (the `-` line as the
/// patch wrote it) use the characters of `file` (the `-` line as the file has it). Returns
/// `None` when the mapping is not clean.
pub(crate) fn keep_file_typography(old: &str, new: &str, file: &str) -> Option<String> {
    let (old_lead, old_body) = split_lead(old);
    let (new_lead, new_body) = split_lead(new);
    let (file_lead, file_body) = split_lead(file);
    let old_body = old_body.trim_end();
    let file_body = file_body.trim_end();
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
    if prefix == 0 && suffix == 0 {
        return None;
    }
    let (old_folded, old_map) = pieces(old_body);
    let (file_folded, file_map) = pieces(file_body);
    if old_folded != file_folded {
        return None;
    }
    let fold_at =
        |map: &[(usize, usize)], src: usize| map.iter().find(|(_, s)| *s == src).map(|&(f, _)| f);
    let f_prefix = source_offset(&file_map, fold_at(&old_map, prefix)?)?;
    let f_suffix = source_offset(&file_map, fold_at(&old_map, old_body.len() - suffix)?)?;
    if f_suffix < f_prefix {
        return None;
    }
    let middle = &new_body[prefix..new_body.len() - suffix];
    let lead = if new_lead == old_lead {
        file_lead
    } else {
        new_lead
    };
    let trail = &new_body[new_body.trim_end().len()..];
    let trail = if suffix > 0 { "" } else { trail };
    Some(format!(
        "{lead}{}{middle}{}{trail}",
        &file_body[..f_prefix],
        &file_body[f_suffix..]
    ))
}

fn split_lead(s: &str) -> (&str, &str) {
    let end = s.len() - s.trim_start().len();
    (&s[..end], &s[end..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_curly_quotes_and_dashes() {
        let file = "    msg = \u{201C}Hello \u{2014} world\u{201D}; // old";
        let old = "    msg = \"Hello - world\"; // old";
        let new = "    msg = \"Hello - world\"; // new";
        assert_eq!(
            keep_file_typography(old, new, file).unwrap(),
            "    msg = \u{201C}Hello \u{2014} world\u{201D}; // new"
        );
    }

    #[test]
    fn keeps_suffix_and_nbsp() {
        let file = "x\u{00A0}=\u{00A0}1; \u{2018}a\u{2019}";
        let old = "x = 1; 'a'";
        let new = "y = 1; 'a'";
        assert_eq!(
            keep_file_typography(old, new, file).unwrap(),
            "y\u{00A0}=\u{00A0}1; \u{2018}a\u{2019}"
        );
    }

    #[test]
    fn refuses_unclean_mappings() {
        assert_eq!(keep_file_typography("abc", "xyz", "abc"), None);
        assert_eq!(keep_file_typography("a b", "a c", "q r"), None);
    }
}
