//! Re-indentation: when a hunk matched only with its indentation ignored, find the consistent
//! shift between the patch's indentation and the file's, and apply it to the added lines.

use std::borrow::Cow;

/// A consistent mapping from the patch's indentation to the file's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Shift {
    /// The file is indented like the patch (or no consistent shift exists).
    None,
    /// The file has this extra prefix before the patch's indentation.
    Add(String),
    /// The patch has this extra prefix that the file lacks.
    Remove(String),
    /// The patch indents with spaces, `per` spaces per tab in the file, plus `offset` tabs.
    SpacesToTabs { per: usize, offset: isize },
    /// The patch indents with tabs, `per` spaces each in the file, plus `offset` spaces.
    TabsToSpaces { per: usize, offset: isize },
}

fn leading_ws(s: &str) -> &str {
    let end = s.find(|c: char| c != ' ' && c != '\t').unwrap_or(s.len());
    &s[..end]
}

fn only(s: &str, c: char) -> bool {
    s.chars().all(|x| x == c)
}

/// Detects the shift from `(patch line, file line)` pairs of a matched hunk.
pub(crate) fn detect<'a>(pairs: impl Iterator<Item = (&'a str, &'a str)>) -> Shift {
    let ws: Vec<(&str, &str)> = pairs
        .filter(|(p, f)| !p.trim().is_empty() && !f.trim().is_empty())
        .map(|(p, f)| (leading_ws(p), leading_ws(f)))
        .collect();
    if ws.is_empty() || ws.iter().all(|(p, f)| p == f) {
        return Shift::None;
    }
    let same = |d: Vec<Option<&str>>| -> Option<String> {
        let first = d.first().copied().flatten()?;
        d.iter()
            .all(|x| *x == Some(first))
            .then(|| first.to_string())
    };
    let adds = ws
        .iter()
        .map(|(p, f)| f.strip_suffix(p))
        .collect::<Vec<_>>();
    if let Some(d) = same(adds) {
        return Shift::Add(d);
    }
    let removes = ws
        .iter()
        .map(|(p, f)| p.strip_suffix(f))
        .collect::<Vec<_>>();
    if let Some(d) = same(removes) {
        return Shift::Remove(d);
    }
    if ws.iter().all(|(p, f)| only(p, ' ') && only(f, '\t')) {
        for per in [4usize, 2, 8, 3] {
            let offsets: Vec<Option<isize>> = ws
                .iter()
                .map(|(p, f)| {
                    (p.len() % per == 0).then(|| f.len() as isize - (p.len() / per) as isize)
                })
                .collect();
            if let Some(Some(o)) = offsets.first() {
                if offsets.iter().all(|x| *x == Some(*o)) {
                    return Shift::SpacesToTabs { per, offset: *o };
                }
            }
        }
    }
    if ws.iter().all(|(p, f)| only(p, '\t') && only(f, ' ')) {
        for per in [4usize, 2, 8, 3] {
            let offsets: Vec<isize> = ws
                .iter()
                .map(|(p, f)| f.len() as isize - (per * p.len()) as isize)
                .collect();
            if offsets.iter().all(|x| *x == offsets[0]) {
                return Shift::TabsToSpaces {
                    per,
                    offset: offsets[0],
                };
            }
        }
    }
    Shift::None
}

impl Shift {
    /// True when the shift changes anything.
    pub(crate) fn is_some(&self) -> bool {
        *self != Shift::None
    }

    /// Applies the shift to the indentation of one added line.
    pub(crate) fn apply<'a>(&self, line: &'a str) -> Cow<'a, str> {
        if line.trim().is_empty() {
            return Cow::Borrowed(line);
        }
        let lead = leading_ws(line);
        let body = &line[lead.len()..];
        let new_lead: Option<String> = match self {
            Shift::None => None,
            Shift::Add(d) => Some(format!("{d}{lead}")),
            Shift::Remove(d) => lead.strip_prefix(d.as_str()).map(str::to_string),
            Shift::SpacesToTabs { per, offset } => {
                if only(lead, ' ') {
                    let tabs = (lead.len() / per) as isize + offset;
                    (tabs >= 0).then(|| {
                        format!(
                            "{}{}",
                            "\t".repeat(tabs as usize),
                            " ".repeat(lead.len() % per)
                        )
                    })
                } else {
                    None
                }
            }
            Shift::TabsToSpaces { per, offset } => {
                if only(lead, '\t') {
                    let spaces = (lead.len() * per) as isize + offset;
                    (spaces >= 0).then(|| " ".repeat(spaces as usize))
                } else {
                    None
                }
            }
        };
        match new_lead {
            Some(l) => Cow::Owned(format!("{l}{body}")),
            None => Cow::Borrowed(line),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts() {
        let s = detect([("  a", "      a"), ("    b", "        b")].into_iter());
        assert_eq!(s, Shift::Add("    ".into()));
        assert_eq!(s.apply("  c"), "      c");
        let s = detect([("        a", "    a")].into_iter());
        assert_eq!(s, Shift::Remove("    ".into()));
        let s = detect([("    a", "\ta"), ("        b", "\t\tb")].into_iter());
        assert_eq!(s, Shift::SpacesToTabs { per: 4, offset: 0 });
        assert_eq!(s.apply("            c"), "\t\t\tc");
        let s = detect([("\ta", "    a"), ("\t\tb", "        b")].into_iter());
        assert_eq!(s, Shift::TabsToSpaces { per: 4, offset: 0 });
        assert_eq!(s.apply("\t\t\tc"), "            c");
        assert_eq!(detect([("a", "a"), ("", "  ")].into_iter()), Shift::None);
        assert_eq!(
            detect([("  a", "\ta"), ("   b", "b")].into_iter()),
            Shift::None
        );
    }
}
