//! Diffs of cluster sequences within a work budget: Myers on short middles, content-defined chunks on long ones.

use std::collections::HashMap;
use std::convert::Infallible;
use std::ops::Range;

use similar::algorithms::{myers, DiffHook};

use super::grapheme::Line;
use super::similarity::pair_hash;

/// Average chunk length (a power of two) of the coarse pass over long middles.
pub(super) const CHUNK_AVG: u32 = 32;
/// Longest chunk of the coarse pass.
pub(super) const CHUNK_MAX: usize = 128;
/// Middles whose estimated work is at most this are diffed directly, without the coarse pass.
pub(super) const DIRECT_MAX: usize = 1 << 20;
/// Largest exact table (in cells, one byte each) we let `similar` build for a lopsided pair.
pub(super) const TABLE_MAX: usize = 1 << 20;

/// Worst-case work estimate of `similar`'s Myers diff of `n` against `m` clusters, in
/// comparisons: its exact search costs at most about `n * m`, its bounded search on large
/// inputs about `(n + m) * max(√(n + m), 256)`. `usize::MAX` when `similar` would solve the
/// pair with an exact table (a side of at most 64 clusters against one of at least 512) of
/// more than [`TABLE_MAX`] cells, to keep memory small.
pub(super) fn work(n: usize, m: usize) -> usize {
    if n == 0 || m == 0 {
        return 0;
    }
    let (small, large) = (n.min(m), n.max(m));
    let cells = small.saturating_mul(large);
    if small <= 64 && large >= 512 && cells > TABLE_MAX {
        return usize::MAX;
    }
    let total = n + m;
    let sqrt = (total as f64).sqrt() as usize;
    cells.min(total.saturating_mul(total.min(sqrt.max(256))))
}

/// Collects the equal runs of a diff (changes are the gaps between them).
#[derive(Default)]
pub(super) struct EqualRuns {
    pub(super) runs: Vec<(usize, usize, usize)>,
}

impl DiffHook for EqualRuns {
    type Error = Infallible;

    fn equal(&mut self, old_index: usize, new_index: usize, len: usize) -> Result<(), Infallible> {
        self.runs.push((old_index, new_index, len));
        Ok(())
    }
}

/// Appends the equal runs of `old[o]` against `new[n]` to `runs`.
pub(super) fn myers_runs(
    old: &[u32],
    o: Range<usize>,
    new: &[u32],
    n: Range<usize>,
    runs: &mut EqualRuns,
) {
    if o.is_empty() || n.is_empty() {
        return;
    }
    if let Err(never) = myers::diff(runs, old, o, new, n) {
        match never {}
    }
}

/// Splits `ids` into content-defined chunks (a boundary follows a cluster when the hash of it
/// and its predecessor has its low bits clear, or the chunk reached [`CHUNK_MAX`]); returns
/// the chunk end offsets.
pub(super) fn chunk_ends(ids: &[u32]) -> Vec<usize> {
    let mut ends = Vec::with_capacity(ids.len() / CHUNK_AVG as usize + 1);
    let mut start = 0;
    let mut prev = u32::MAX;
    for (i, &id) in ids.iter().enumerate() {
        if pair_hash(prev, id) & (CHUNK_AVG - 1) == 0 || i + 1 - start >= CHUNK_MAX {
            ends.push(i + 1);
            start = i + 1;
        }
        prev = id;
    }
    if start < ids.len() {
        ends.push(ids.len());
    }
    ends
}

/// An equal run or a change, as cluster ranges `o0..o1` of the old line and `n0..n1` of the new.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Op {
    pub(super) equal: bool,
    pub(super) o0: usize,
    pub(super) o1: usize,
    pub(super) n0: usize,
    pub(super) n1: usize,
}

impl Op {
    pub(super) fn equal(o: usize, n: usize, len: usize) -> Op {
        Op {
            equal: true,
            o0: o,
            o1: o + len,
            n0: n,
            n1: n + len,
        }
    }

    pub(super) fn change(o0: usize, o1: usize, n0: usize, n1: usize) -> Op {
        Op {
            equal: false,
            o0,
            o1,
            n0,
            n1,
        }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.o0 == self.o1 && self.n0 == self.n1
    }

    /// Size of a change: the longer of its two sides.
    pub(super) fn size(&self) -> usize {
        (self.o1 - self.o0).max(self.n1 - self.n0)
    }
}

/// Interns the chunks of `ids` ending at `ends`.
pub(super) fn name_chunks<'a>(
    ids: &'a [u32],
    ends: &[usize],
    names: &mut HashMap<&'a [u32], u32>,
) -> Vec<u32> {
    let mut start = 0;
    ends.iter()
        .map(|&end| {
            let chunk = &ids[start..end];
            start = end;
            let next = names.len() as u32;
            *names.entry(chunk).or_insert(next)
        })
        .collect()
}

/// A region to diff at cluster level, then the equal run that follows it.
type Gap = (Range<usize>, Range<usize>, (usize, usize, usize));

/// Coarse pass over a long middle: cuts both sides into content-defined chunks, diffs the
/// chunk sequences, and returns the regions between equal chunk runs (with those runs), or
/// `None` when the chunk diff plus the regions' estimated work exceed `max_cost`.
pub(super) fn chunked(
    old: &[u32],
    o: Range<usize>,
    new: &[u32],
    n: Range<usize>,
    max_cost: usize,
) -> Option<Vec<Gap>> {
    let (ao, bo) = (&old[o.clone()], &new[n.clone()]);
    let (ae, be) = (chunk_ends(ao), chunk_ends(bo));
    let mut spent = work(ae.len(), be.len());
    if spent > max_cost {
        return None;
    }
    let mut names = HashMap::new();
    let (ac, bc) = (
        name_chunks(ao, &ae, &mut names),
        name_chunks(bo, &be, &mut names),
    );
    drop(names);
    let mut coarse = EqualRuns::default();
    myers_runs(&ac, 0..ac.len(), &bc, 0..bc.len(), &mut coarse);

    // Chunk index → absolute cluster offset.
    let at_a = |k: usize| o.start + if k == 0 { 0 } else { ae[k - 1] };
    let at_b = |k: usize| n.start + if k == 0 { 0 } else { be[k - 1] };
    let mut gaps = Vec::with_capacity(coarse.runs.len() + 1);
    let (mut ca, mut cb) = (0, 0);
    for &(x, y, len) in coarse.runs.iter().chain(&[(ac.len(), bc.len(), 0)]) {
        let (go, gn) = (at_a(ca)..at_a(x), at_b(cb)..at_b(y));
        spent = spent.saturating_add(work(go.len(), gn.len()));
        if spent > max_cost {
            return None;
        }
        gaps.push((go, gn, (at_a(x), at_b(y), at_a(x + len) - at_a(x))));
        ca = x + len;
        cb = y + len;
    }
    Some(gaps)
}

/// Diffs the two lines; `None` when the estimated work exceeds `max_cost`.
///
/// After trimming the common prefix and suffix, a small middle is diffed directly. A longer
/// one goes through [`chunked`] first, so that equal stretches cost little beyond the linear
/// chunking; if that plan exceeds the budget but a direct diff fits it, the middle is diffed
/// directly (the work then stays within about twice `max_cost`).
pub(super) fn diff(a: &Line<'_>, b: &Line<'_>, max_cost: usize) -> Option<Vec<Op>> {
    let (n, m) = (a.len(), b.len());
    let prefix = a.ids.iter().zip(&b.ids).take_while(|(x, y)| x == y).count();
    let suffix = a.ids[prefix..]
        .iter()
        .rev()
        .zip(b.ids[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (o_end, n_end) = (n - suffix, m - suffix);

    let mut runs = EqualRuns::default();
    if prefix > 0 {
        runs.runs.push((0, 0, prefix));
    }
    let (o, nn) = (prefix..o_end, prefix..n_end);
    let direct = work(o.len(), nn.len());
    if direct <= max_cost.min(DIRECT_MAX) {
        myers_runs(&a.ids, o, &b.ids, nn, &mut runs);
    } else if let Some(plan) = chunked(&a.ids, o.clone(), &b.ids, nn.clone(), max_cost) {
        for (o, nn, equal) in plan {
            myers_runs(&a.ids, o, &b.ids, nn, &mut runs);
            if equal.2 > 0 {
                runs.runs.push(equal);
            }
        }
    } else if direct <= max_cost {
        myers_runs(&a.ids, o, &b.ids, nn, &mut runs);
    } else {
        return None;
    }
    if suffix > 0 {
        runs.runs.push((o_end, n_end, suffix));
    }

    let mut ops = Vec::with_capacity(2 * runs.runs.len() + 1);
    let (mut co, mut cn) = (0, 0);
    for (o, nn, len) in runs.runs {
        if o > co || nn > cn {
            ops.push(Op::change(co, o, cn, nn));
        }
        ops.push(Op::equal(o, nn, len));
        co = o + len;
        cn = nn + len;
    }
    if co < n || cn < m {
        ops.push(Op::change(co, n, cn, m));
    }
    Some(coalesce(ops))
}

/// Drops empty ops and merges adjacent ops of the same kind, so that equal runs and changes
/// alternate.
pub(super) fn coalesce(ops: Vec<Op>) -> Vec<Op> {
    let mut out: Vec<Op> = Vec::with_capacity(ops.len());
    for op in ops {
        if op.is_empty() {
            continue;
        }
        match out.last_mut() {
            Some(last) if last.equal == op.equal => {
                debug_assert!(last.o1 == op.o0 && last.n1 == op.n0);
                last.o1 = op.o1;
                last.n1 = op.n1;
            }
            _ => out.push(op),
        }
    }
    out
}
