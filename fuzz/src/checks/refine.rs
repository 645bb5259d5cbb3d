//! Target `refine`: character-level refinement.

use engine::report::refine::{pair_lines, refine_pair, RefineLimits};
use engine::{DiffKind, Segment};

use super::common::*;

/// `refine`: a 1-byte header choosing the limits (bits 0-1: default, a cost cap of 2 000, a
/// 48-cluster line cap, or pairing by position past 2×2 lines), then the old and the new text
/// separated by `0xFF` (lossily decoded).
///
/// * `refine_pair` on the two texts: each side's segments cover it exactly, in order, on
///   grapheme boundaries, with alternating kinds, and the equal segments spell the same text on
///   both sides;
/// * `pair_lines` on their lines: pairs strictly increasing and in range; a block paired with
///   itself pairs every line with itself; every pair refines as above.
pub fn refine(data: &[u8]) {
    let (h, rest) = header::<1>(data);
    let (old, new) = split_once(rest);
    let (old, new) = (lossy(old), lossy(new));
    let defaults = RefineLimits::default();
    let limits = match h[0] & 3 {
        0 => defaults,
        1 => RefineLimits {
            max_cost: 2_000,
            ..defaults
        },
        2 => RefineLimits {
            max_graphemes: 48,
            ..defaults
        },
        _ => RefineLimits {
            max_pair_lines: 2,
            ..defaults
        },
    };
    check_pair(&old, &new, &limits);
    let dels: Vec<&str> = old.split('\n').collect();
    let adds: Vec<&str> = new.split('\n').collect();
    let pairs = pair_lines(&dels, &adds, &limits);
    for w in pairs.windows(2) {
        assert!(w[0].0 < w[1].0 && w[0].1 < w[1].1, "pairs cross: {pairs:?}");
    }
    for &(d, a) in &pairs {
        assert!(
            d < dels.len() && a < adds.len(),
            "pair out of range: {pairs:?}"
        );
        check_pair(dels[d], adds[a], &limits);
    }
    let same = pair_lines(&dels, &dels, &limits);
    let diagonal: Vec<(usize, usize)> = (0..dels.len()).map(|i| (i, i)).collect();
    assert_eq!(same, diagonal, "a block paired with itself");
}

fn check_pair(old: &str, new: &str, limits: &RefineLimits) {
    let Some((ds, adds)) = refine_pair(old, new, limits) else {
        return;
    };
    check_segments(old, &ds, DiffKind::Delete);
    check_segments(new, &adds, DiffKind::Add);
    let equal = |line: &str, segs: &[Segment]| -> String {
        segs.iter()
            .filter(|s| s.kind == DiffKind::Equal)
            .map(|s| &line[s.start..s.end])
            .collect()
    };
    assert_eq!(equal(old, &ds), equal(new, &adds), "equal segments differ");
    if old == new {
        assert!(ds.iter().all(|s| s.kind == DiffKind::Equal), "{ds:?}");
    }
}
