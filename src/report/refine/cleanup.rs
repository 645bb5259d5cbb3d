//! The semantic clean-up of a diff: slides to word boundaries, absorbs small equal islands, extends changes to whole words.

use super::budget::{coalesce, Op};
use super::grapheme::{is_separator, Class, Line};

pub(super) fn clean_up(ops: Vec<Op>, a: &Line<'_>, b: &Line<'_>) -> Vec<Op> {
    let mut ops = ops;
    slide_to_boundaries(&mut ops, a, b);
    let ops = remove_islands(coalesce(ops), a);
    let mut ops = ops;
    extend_to_words(&mut ops, a, b);
    remove_islands(coalesce(ops), a)
}

/// How good a place the boundary between two clusters is for a change to start or end.
pub(super) fn boundary_score(before: Option<Class>, after: Option<Class>) -> u32 {
    match (before, after) {
        (None, _) | (_, None) => 6,
        (Some(Class::Space), _) | (_, Some(Class::Space)) => 2,
        (Some(x), Some(y)) if x != y || !matches!(x, Class::Word) => 1,
        _ => 0,
    }
}

/// A pure insertion or deletion inside repeated text can sit at several places; move each to
/// the place whose ends score best as boundaries (ties go right), without changing its size.
///
/// A change at either end of the line gets an empty equal run beside it first, so that the
/// equal clusters it slides over have a run to join (the caller's `normalize` drops it again).
pub(super) fn slide_to_boundaries(ops: &mut Vec<Op>, a: &Line<'_>, b: &Line<'_>) {
    if ops.first().is_some_and(|op| !op.equal) {
        ops.insert(0, Op::equal(0, 0, 0));
    }
    if ops.last().is_some_and(|op| !op.equal) {
        ops.push(Op::equal(a.len(), b.len(), 0));
    }
    for i in 0..ops.len() {
        let op = ops[i];
        if op.equal || (op.o0 != op.o1 && op.n0 != op.n1) {
            continue;
        }
        let left_room = if i > 0 {
            ops[i - 1].o1 - ops[i - 1].o0
        } else {
            0
        };
        let right_room = if i + 1 < ops.len() {
            ops[i + 1].o1 - ops[i + 1].o0
        } else {
            0
        };
        // Sliding all the way through an equal run onto the next change merges the two.
        let merge = (i >= 2, i + 2 < ops.len());
        let shift = if op.o0 != op.o1 {
            best_shift(a, op.o0, op.o1, (left_room, right_room), merge)
        } else {
            best_shift(b, op.n0, op.n1, (left_room, right_room), merge)
        };
        if shift == 0 {
            continue;
        }
        let mv = |x: usize| x.wrapping_add_signed(shift);
        ops[i] = Op::change(mv(op.o0), mv(op.o1), mv(op.n0), mv(op.n1));
        if i > 0 {
            ops[i - 1].o1 = mv(ops[i - 1].o1);
            ops[i - 1].n1 = mv(ops[i - 1].n1);
        }
        if i + 1 < ops.len() {
            ops[i + 1].o0 = mv(ops[i + 1].o0);
            ops[i + 1].n0 = mv(ops[i + 1].n0);
        }
    }
}

/// For the one-sided change `start..end` of `line`, with `room.0` equal clusters before it
/// and `room.1` after, the shift to the best position: one that merges it with the change
/// beyond an equal run (`merge.0` before, `merge.1` after) when it can slide that far, else the
/// one whose ends score best as boundaries (ties go right).
pub(super) fn best_shift(
    line: &Line<'_>,
    start: usize,
    end: usize,
    room: (usize, usize),
    merge: (bool, bool),
) -> isize {
    let mut left = 0;
    while left < room.0 && line.id(start - 1 - left) == line.id(end - 1 - left) {
        left += 1;
    }
    let mut right = 0;
    while right < room.1 && line.id(start + right) == line.id(end + right) {
        right += 1;
    }
    if left == 0 && right == 0 {
        return 0;
    }
    if merge.0 && left == room.0 {
        return -(left as isize);
    }
    if merge.1 && right == room.1 {
        return right as isize;
    }
    let class_at = |k: usize| (k < line.len()).then(|| line.class(k));
    let class_before = |k: usize| (k > 0).then(|| line.class(k - 1));
    let len = end - start;
    let score = |s: usize| {
        boundary_score(class_before(s), class_at(s))
            + boundary_score(class_before(s + len), class_at(s + len))
    };
    let (mut best, mut best_at) = (0, start - left);
    for s in start - left..=start + right {
        let sc = score(s);
        if sc >= best {
            best = sc;
            best_at = s;
        }
    }
    best_at as isize - start as isize
}

/// Whether the equal run `island` between the changes `before` and `after` should be shown as
/// changed: it is 1–2 clusters long, only whitespace/punctuation, or shorter than both
/// neighbouring changes.
pub(super) fn is_island(island: &Op, before: &Op, after: &Op, a: &Line<'_>) -> bool {
    let len = island.o1 - island.o0;
    len <= 2
        || (len < before.size() && len < after.size())
        || (island.o0..island.o1).all(|k| is_separator(a.class(k)))
}

/// Merges equal islands into the changes around them (input and output alternate).
pub(super) fn remove_islands(ops: Vec<Op>, a: &Line<'_>) -> Vec<Op> {
    let mut out: Vec<Op> = Vec::with_capacity(ops.len());
    for op in ops {
        out.push(op);
        while out.len() >= 3 {
            let k = out.len();
            let (before, island, after) = (out[k - 3], out[k - 2], out[k - 1]);
            if before.equal
                || !island.equal
                || after.equal
                || !is_island(&island, &before, &after, a)
            {
                break;
            }
            out.truncate(k - 3);
            out.push(Op::change(before.o0, after.o1, before.n0, after.n1));
        }
    }
    out
}

/// A change that starts or ends inside a word takes the rest of that word when the rest is
/// shorter than the change itself.
pub(super) fn extend_to_words(ops: &mut [Op], a: &Line<'_>, b: &Line<'_>) {
    let word = |c: Class| c == Class::Word;
    let last = ops.len().saturating_sub(1);
    for i in 0..ops.len() {
        let op = ops[i];
        if op.equal {
            continue;
        }
        let size = op.size();
        // Left edge.
        let starts_in_word =
            (op.o0 < op.o1 && word(a.class(op.o0))) || (op.n0 < op.n1 && word(b.class(op.n0)));
        if i > 0 && starts_in_word {
            let eq = ops[i - 1];
            let mut run = 0;
            while eq.o0 + run < eq.o1 && word(a.class(eq.o1 - 1 - run)) {
                run += 1;
            }
            if run > 0 && run < size && (run < eq.o1 - eq.o0 || i - 1 == 0) {
                ops[i - 1].o1 -= run;
                ops[i - 1].n1 -= run;
                ops[i].o0 -= run;
                ops[i].n0 -= run;
            }
        }
        // Right edge.
        let op = ops[i];
        let ends_in_word = (op.o0 < op.o1 && word(a.class(op.o1 - 1)))
            || (op.n0 < op.n1 && word(b.class(op.n1 - 1)));
        if i < last && ends_in_word {
            let eq = ops[i + 1];
            let mut run = 0;
            while eq.o0 + run < eq.o1 && word(a.class(eq.o0 + run)) {
                run += 1;
            }
            if run > 0 && run < size && (run < eq.o1 - eq.o0 || i + 1 == last) {
                ops[i + 1].o0 += run;
                ops[i + 1].n0 += run;
                ops[i].o1 += run;
                ops[i].n1 += run;
            }
        }
    }
}
