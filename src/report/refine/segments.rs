//! From diff operations to the segments of each line.

use super::budget::Op;
use super::grapheme::Line;
use super::Segment;
use crate::report::DiffKind;

pub(super) fn whole(kind: DiffKind, text: &str) -> Vec<Segment> {
    if text.is_empty() {
        Vec::new()
    } else {
        vec![Segment {
            kind,
            start: 0,
            end: text.len(),
        }]
    }
}

pub(super) fn push(out: &mut Vec<Segment>, kind: DiffKind, start: usize, end: usize) {
    if start == end {
        return;
    }
    match out.last_mut() {
        Some(last) if last.kind == kind && last.end == start => last.end = end,
        _ => out.push(Segment { kind, start, end }),
    }
}

pub(super) fn segments(ops: &[Op], a: &Line<'_>, b: &Line<'_>) -> (Vec<Segment>, Vec<Segment>) {
    let (mut old, mut new) = (Vec::new(), Vec::new());
    for op in ops {
        let (ok, nk) = if op.equal {
            (DiffKind::Equal, DiffKind::Equal)
        } else {
            (DiffKind::Delete, DiffKind::Add)
        };
        push(&mut old, ok, a.at(op.o0), a.at(op.o1));
        push(&mut new, nk, b.at(op.n0), b.at(op.n1));
    }
    (old, new)
}

/// Converts the byte offsets of `segs` (segments of `line`) to UTF-16 code-unit indices.
pub(crate) fn segments_to_utf16(line: &str, segs: &mut [Segment]) {
    if segs.is_empty() || line.is_ascii() {
        return;
    }
    let mut map = Vec::with_capacity(line.len() + 1);
    let mut units = 0usize;
    for &b in line.as_bytes() {
        map.push(units);
        units += utf16_units(b);
    }
    map.push(units);
    for seg in segs {
        seg.start = map.get(seg.start).copied().unwrap_or(units);
        seg.end = map.get(seg.end).copied().unwrap_or(units);
    }
}

/// UTF-16 code units that start at byte `b` of UTF-8 (0 for a continuation byte).
pub(crate) fn utf16_units(b: u8) -> usize {
    match b {
        0x80..=0xbf => 0,
        0xf0..=0xff => 2,
        _ => 1,
    }
}
