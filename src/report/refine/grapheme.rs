//! Grapheme clusters: interning and classification.

use std::collections::HashMap;

use unicode_segmentation::UnicodeSegmentation;

/// Maps clusters of more than one `char` to ids above the code-point range.
#[derive(Default)]
pub(super) struct Interner<'a> {
    pub(super) multi: HashMap<&'a str, u32>,
}

impl<'a> Interner<'a> {
    pub(super) fn id(&mut self, g: &'a str) -> u32 {
        let mut chars = g.chars();
        if let (Some(c), None) = (chars.next(), chars.next()) {
            return c as u32;
        }
        let next = 0x11_0000 + self.multi.len() as u32;
        *self.multi.entry(g).or_insert(next)
    }
}

/// One line split into grapheme clusters.
pub(super) struct Line<'a> {
    pub(super) text: &'a str,
    /// Byte offset of each cluster, then `text.len()`.
    pub(super) bounds: Vec<u32>,
    /// Interned id of each cluster.
    pub(super) ids: Vec<u32>,
}

impl<'a> Line<'a> {
    pub(super) fn new(text: &'a str, interner: &mut Interner<'a>, max: usize) -> Option<Self> {
        u32::try_from(text.len()).ok()?;
        let cap = text.chars().count();
        let mut bounds = Vec::with_capacity(cap.min(max) + 1);
        let mut ids = Vec::with_capacity(cap.min(max));
        for (at, g) in text.grapheme_indices(true) {
            if ids.len() == max {
                return None;
            }
            bounds.push(at as u32);
            ids.push(interner.id(g));
        }
        bounds.push(text.len() as u32);
        Some(Line { text, bounds, ids })
    }

    pub(super) fn len(&self) -> usize {
        self.ids.len()
    }

    /// Byte offset of cluster `i` (`len()` gives the end of the text).
    pub(super) fn at(&self, i: usize) -> usize {
        self.bounds[i] as usize
    }

    pub(super) fn class(&self, i: usize) -> Class {
        classify(&self.text[self.at(i)..self.at(i + 1)])
    }

    pub(super) fn id(&self, i: usize) -> u32 {
        self.ids[i]
    }
}

/// Coarse character class of a cluster, by its first `char`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Class {
    /// Letters, digits, `_` of space-separated scripts.
    Word,
    /// CJK ideographs, kana, hangul: each cluster is a word of its own.
    Wide,
    Space,
    Punct,
    /// Symbols, emoji, controls.
    Other,
}

pub(super) fn classify(g: &str) -> Class {
    let c = g.chars().next().unwrap_or(' ');
    if c.is_whitespace() {
        Class::Space
    } else if c.is_ascii_punctuation() || is_unicode_punct(c) {
        Class::Punct
    } else if is_wide(c) {
        Class::Wide
    } else if c.is_alphanumeric() || c == '_' {
        Class::Word
    } else {
        Class::Other
    }
}

pub(super) fn is_unicode_punct(c: char) -> bool {
    matches!(c,
        '\u{A1}' | '\u{A7}' | '\u{AB}' | '\u{B6}' | '\u{B7}' | '\u{BB}' | '\u{BF}'
        | '\u{2010}'..='\u{2027}' | '\u{2030}'..='\u{205E}'
        | '\u{3001}'..='\u{3003}' | '\u{3008}'..='\u{3011}' | '\u{3014}'..='\u{301F}'
        | '\u{FF01}'..='\u{FF0F}' | '\u{FF1A}'..='\u{FF20}' | '\u{FF3B}'..='\u{FF40}'
        | '\u{FF5B}'..='\u{FF65}')
}

pub(super) fn is_wide(c: char) -> bool {
    matches!(c,
        '\u{1100}'..='\u{11FF}' | '\u{2E80}'..='\u{A4CF}' | '\u{A960}'..='\u{A97F}'
        | '\u{AC00}'..='\u{D7FF}' | '\u{F900}'..='\u{FAFF}' | '\u{FF66}'..='\u{FFDC}'
        | '\u{20000}'..='\u{3FFFF}')
}

pub(super) fn is_separator(class: Class) -> bool {
    matches!(class, Class::Space | Class::Punct)
}
