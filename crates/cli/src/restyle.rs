//! `v4a diff` on files that also differ in their line terminators or byte order mark, which a
//! V4A patch cannot carry (`v4a apply` keeps each file's own): the new text is rewritten in the
//! old file's style, and what was left out is said in a warning.

/// A text rewritten in another text's terminators and BOM, and what that dropped.
pub struct Restyled {
    /// The new text with the old text's BOM and line terminator.
    pub text: String,
    /// What the new text changes that the patch cannot carry, for the warning (empty: nothing).
    pub dropped: Vec<String>,
}

/// The terminator every terminated line of `text` uses, `None` when there is none, `Err` when
/// they are mixed.
fn uniform_eol(text: &str) -> Result<Option<&'static str>, ()> {
    let mut seen: Option<&'static str> = None;
    let bytes = text.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        let eol = match b {
            b'\n' if i > 0 && bytes[i - 1] == b'\r' => "\r\n",
            b'\n' => "\n",
            b'\r' if bytes.get(i + 1) == Some(&b'\n') => continue,
            b'\r' => "\r",
            _ => continue,
        };
        match seen {
            None => seen = Some(eol),
            Some(s) if s == eol => {}
            Some(_) => return Err(()),
        }
    }
    Ok(seen)
}

/// The name of a terminator in a warning.
fn eol_name(eol: Result<Option<&'static str>, ()>) -> &'static str {
    match eol {
        Ok(Some("\r\n")) => "CRLF",
        Ok(Some("\r")) => "CR",
        Ok(Some(_)) => "LF",
        Ok(None) => "none",
        Err(()) => "mixed",
    }
}

/// `text`'s lines (content only) with their terminators replaced by `eol`; the last line keeps
/// its lack of a terminator.
fn with_eol(text: &str, eol: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 16);
    let mut rest = text;
    while let Some(i) = rest.find(['\n', '\r']) {
        out.push_str(&rest[..i]);
        out.push_str(eol);
        let len = if rest[i..].starts_with("\r\n") { 2 } else { 1 };
        rest = &rest[i + len..];
    }
    out.push_str(rest);
    out
}

/// `new` in the style of `old`: `old`'s BOM (or none), and `old`'s terminator on every line
/// when `old` uses one terminator throughout and `new` uses another. A text whose terminators
/// are mixed, or an `old` without any, leaves `new`'s terminators as they are (the engine then
/// says what it cannot express).
pub fn to_style_of(old: &str, new: &str) -> Restyled {
    let mut dropped = Vec::new();
    let (old_bom, new_bom) = (old.starts_with('\u{feff}'), new.starts_with('\u{feff}'));
    let body = new.strip_prefix('\u{feff}').unwrap_or(new);
    if old_bom != new_bom {
        dropped.push(if new_bom {
            "adds a byte order mark".to_string()
        } else {
            "removes the byte order mark".to_string()
        });
    }
    let (old_eol, new_eol) = (uniform_eol(old), uniform_eol(body));
    let body = match (old_eol, new_eol) {
        (Ok(Some(o)), Ok(Some(n))) if o != n => {
            dropped.push(format!(
                "changes the line terminators from {} to {}",
                eol_name(old_eol),
                eol_name(new_eol)
            ));
            with_eol(body, o)
        }
        (Ok(Some(o)), Err(())) => {
            dropped.push(format!(
                "changes the line terminators from {} to {}",
                eol_name(old_eol),
                eol_name(new_eol)
            ));
            with_eol(body, o)
        }
        _ => body.to_string(),
    };
    let text = if old_bom {
        format!("\u{feff}{body}")
    } else {
        body
    };
    Restyled { text, dropped }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rewrites_terminators_and_bom_in_the_old_style() {
        let r = to_style_of("a\r\nb\r\n", "a\nc\n");
        assert_eq!(r.text, "a\r\nc\r\n");
        assert_eq!(r.dropped, ["changes the line terminators from CRLF to LF"]);
        let r = to_style_of("\u{feff}a\n", "a\nb");
        assert_eq!(r.text, "\u{feff}a\nb");
        assert_eq!(r.dropped, ["removes the byte order mark"]);
        let r = to_style_of("a\n", "\u{feff}a\r\nb\n");
        assert_eq!(r.text, "a\nb\n");
        assert_eq!(r.dropped.len(), 2);
    }

    #[test]
    fn leaves_what_it_cannot_restyle() {
        // Mixed old terminators: nothing to convert to.
        let r = to_style_of("a\r\nb\n", "a\nb\nc\n");
        assert_eq!(r.text, "a\nb\nc\n");
        assert!(r.dropped.is_empty());
        // An old text without a terminator.
        let r = to_style_of("a", "a\r\nb\r\n");
        assert_eq!(r.text, "a\r\nb\r\n");
        assert!(r.dropped.is_empty());
        // Same style: unchanged.
        let r = to_style_of("a\r\n", "b\r\n");
        assert_eq!(r.text, "b\r\n");
        assert!(r.dropped.is_empty());
        // A lone CR stays a terminator of its own.
        assert_eq!(with_eol("a\rb\r\nc\nd", "\n"), "a\nb\nc\nd");
    }
}
