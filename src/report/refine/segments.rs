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
