//! Character-level refinement of changed lines (SPEC §6).
//!
//! [`refine_lines`] refines any block of deleted and added lines (an editor's own diff as well
//! as a patch's): within one change block of the line diff, [`pair_lines`] pairs deleted lines with added lines
//! by similarity, and [`refine_pair`] diffs each pair at grapheme-cluster boundaries, returning
//! byte ranges of each line as [`Segment`]s.
//!
//! # Algorithm
//!
//! * Both lines are split into extended grapheme clusters (`unicode-segmentation`), and each
//!   cluster is interned to a `u32` (a one-`char` cluster is its own code point), so an emoji
//!   with a skin-tone modifier, a ZWJ sequence, a flag, a base letter with its combining marks or
//!   a `"\r\n"` is one indivisible symbol and segment boundaries can only fall between clusters.
//! * The common prefix and suffix (in clusters) are trimmed. A short middle is diffed with
//!   `similar`'s Myers implementation (linear space, Git-style bounded middle-snake search).
//!   A long middle is first cut into content-defined chunks (a boundary after a cluster whose
//!   hash together with its predecessor's has its low bits clear; 32 clusters on average, at
//!   most 128), the two chunk sequences are diffed, and only the regions between equal chunk
//!   runs are diffed cluster by cluster — so a long line with scattered edits costs little
//!   more than linear time.
//! * Every diff is charged, before it runs, its worst-case estimate (`n·m`, or
//!   `(n+m)·max(√(n+m), 256)` for similar's bounded search); when the total would exceed
//!   [`RefineLimits::max_cost`] the pair is not refined (`None`, a whole-line change). The
//!   outcome is therefore deterministic, not time-dependent, and the work is bounded. Memory
//!   is linear in the line lengths (about 8 bytes per cluster and side, plus `similar`'s
//!   linear working vectors).
//! * A semantic clean-up makes the highlights read well: pure insertions and deletions slide
//!   to word boundaries when the text allows it; equal islands between two changes are
//!   absorbed when they are 1–2 clusters long, consist only of whitespace/punctuation, or are
//!   shorter than the changes on both sides; and a change that starts or ends inside a word
//!   swallows the rest of that word when the rest is shorter than the change.
//! * [`pair_lines`] scores every deleted/added pair of a block by the Dice coefficient of
//!   their character bigrams and picks the non-crossing set of pairs (similarity ≥ 0.5) with
//!   the highest total by dynamic programming over the block.

mod block;
mod budget;
mod cleanup;
mod grapheme;
pub(crate) mod segments;
mod similarity;
#[cfg(test)]
mod tests;

pub use block::{refine_lines, LinePair, Refinement};
use budget::diff;
use cleanup::clean_up;
use grapheme::{Interner, Line};
use segments::{segments, whole};
use similarity::Signature;

use crate::report::DiffKind;

/// A run of bytes within one line's text.
///
/// Segments of one line cover it completely, in order, without gaps or overlaps, and adjacent
/// segments never have the same kind. Offsets are byte offsets into the line and always fall on
/// grapheme-cluster boundaries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    /// [`DiffKind::Equal`] or [`DiffKind::Delete`] on the old line; [`DiffKind::Equal`] or
    /// [`DiffKind::Add`] on the new line.
    pub kind: DiffKind,
    /// Start byte offset in the line (inclusive).
    pub start: usize,
    /// End byte offset in the line (exclusive).
    pub end: usize,
}

/// Limits of the refinement.
///
/// Past a limit the pair is not refined and is shown as a whole-line change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RefineLimits {
    /// Longest line, in grapheme clusters, that [`refine_pair`] diffs (default 200 000).
    pub max_graphemes: usize,
    /// Work budget of one [`refine_pair`] call (default 8 000 000), in estimated worst-case
    /// cluster comparisons of the diffs it runs (see the module documentation). The estimate
    /// is checked before each diff runs, so the outcome is deterministic; at the default the
    /// worst case is on the order of 100 ms in a release build, and a 100 000-cluster pair
    /// differing in 1% of places needs about 5 000 000. Segmentation, trimming and clean-up
    /// are linear and not charged.
    pub max_cost: usize,
    /// Largest change block that [`pair_lines`] pairs by similarity: when
    /// `deleted.len() * added.len()` exceeds `max_pair_lines²`, lines are paired by position
    /// instead (default 200).
    pub max_pair_lines: usize,
}

impl Default for RefineLimits {
    fn default() -> Self {
        RefineLimits {
            max_graphemes: 200_000,
            max_cost: 8_000_000,
            max_pair_lines: 200,
        }
    }
}

/// Minimum similarity (character-bigram Dice coefficient) for two lines to be paired.
const PAIR_THRESHOLD: f64 = 0.5;
/// Subtracted from the similarity of a pair when choosing the best set of pairs, so that one
/// good pair wins over two mediocre crossing ones.
const PAIR_BASELINE: f64 = 0.4;
/// Bigram signatures of longer lines are sampled down to about this many bigrams.
pub(super) const SIGNATURE_MAX: usize = 512;

/// Pairs deleted lines with added lines of one change block by similarity.
///
/// Returns `(delete index, add index)` pairs, strictly increasing in both indices (pairs never
/// cross). Only pairs whose similarity — the Dice coefficient of the character bigrams of the
/// trimmed lines, whitespace runs collapsed — is at least 0.5 are returned; among the
/// non-crossing sets of such pairs the one with the highest total similarity wins, so a
/// rewritten line pairs with its rewrite even when lines were inserted or removed around it.
/// Lines of very different content stay unpaired (whole-line changes).
///
/// Blocks larger than [`RefineLimits::max_pair_lines`] (see there) are paired by position,
/// still keeping only pairs that are similar enough.
pub fn pair_lines(deleted: &[&str], added: &[&str], limits: &RefineLimits) -> Vec<(usize, usize)> {
    let (n, m) = (deleted.len(), added.len());
    if n == 0 || m == 0 {
        return Vec::new();
    }
    let cap = limits.max_pair_lines.saturating_mul(limits.max_pair_lines);
    if n.saturating_mul(m) > cap {
        // Each pair's signatures are made and dropped in turn: a 50,000-line replacement
        // would otherwise hold 100,000 signatures (several times the lines' own bytes).
        return (0..n.min(m))
            .filter(|&i| similarity(deleted[i], added[i], None, None) >= PAIR_THRESHOLD)
            .map(|i| (i, i))
            .collect();
    }
    let (weight, dp) = pair_weights(deleted, added);
    let w = m + 1;
    let mut pairs = Vec::new();
    let (mut i, mut j) = (n, m);
    while i > 0 && j > 0 {
        let here = dp[i * w + j];
        let wt = weight[(i - 1) * m + j - 1];
        if wt.is_finite() && here == dp[(i - 1) * w + j - 1] + wt {
            pairs.push((i - 1, j - 1));
            i -= 1;
            j -= 1;
        } else if here == dp[(i - 1) * w + j] {
            i -= 1;
        } else {
            j -= 1;
        }
    }
    pairs.reverse();
    pairs
}

/// The similarity of two lines: 1 when they are equal, else the Dice coefficient of their
/// signatures (each made here unless given).
fn similarity(
    old: &str,
    new: &str,
    old_sig: Option<&Signature>,
    new_sig: Option<&Signature>,
) -> f64 {
    if old == new {
        return 1.0;
    }
    let made;
    let o = match old_sig {
        Some(s) => s,
        None => {
            made = Signature::new(old);
            &made
        }
    };
    match new_sig {
        Some(s) => o.dice(s),
        None => o.dice(&Signature::new(new)),
    }
}

/// The weights and the table of [`pair_lines`]'s weighted longest common subsequence over the
/// similarity matrix: `dp[i * (m + 1) + j]` is the best total weight pairing `deleted[..i]`
/// with `added[..j]`. Only the shorter side's signatures are kept (at most `max_pair_lines`
/// of them, as `n · m` is within its square); the longer side is the outer loop, each of its
/// signatures made once. Every cell is the same function of its three neighbours whichever
/// the loop order, so the table does not depend on it.
fn pair_weights(deleted: &[&str], added: &[&str]) -> (Vec<f64>, Vec<f64>) {
    let (n, m) = (deleted.len(), added.len());
    let w = m + 1;
    let mut weight = vec![f64::NEG_INFINITY; n * m];
    let mut dp = vec![0.0f64; (n + 1) * w];
    let mut cell = |i: usize, j: usize, s: f64| {
        if s >= PAIR_THRESHOLD {
            // A tiny penalty for distance from the block's diagonal breaks ties between
            // equally similar candidates in favour of the positional one.
            let skew = (i as f64 / n as f64 - j as f64 / m as f64).abs();
            weight[i * m + j] = s - PAIR_BASELINE - 1e-9 * skew;
        }
        let diag = dp[i * w + j] + weight[i * m + j];
        dp[(i + 1) * w + j + 1] = dp[i * w + j + 1].max(dp[(i + 1) * w + j]).max(diag);
    };
    if m <= n {
        let new_sigs: Vec<Signature> = added.iter().map(|l| Signature::new(l)).collect();
        for (i, old) in deleted.iter().enumerate() {
            let sig = Signature::new(old);
            for (j, new) in added.iter().enumerate() {
                cell(i, j, similarity(old, new, Some(&sig), Some(&new_sigs[j])));
            }
        }
    } else {
        let old_sigs: Vec<Signature> = deleted.iter().map(|l| Signature::new(l)).collect();
        for (j, new) in added.iter().enumerate() {
            let sig = Signature::new(new);
            for (i, old) in deleted.iter().enumerate() {
                cell(i, j, similarity(old, new, Some(&old_sigs[i]), Some(&sig)));
            }
        }
    }
    (weight, dp)
}

/// Character-level diff of one pair of lines at grapheme-cluster boundaries.
///
/// Returns the segments of `old` (kinds [`DiffKind::Equal`] / [`DiffKind::Delete`]) and of
/// `new` (kinds [`DiffKind::Equal`] / [`DiffKind::Add`]). Each list covers its line completely,
/// in order, as byte offsets into the line, with adjacent segments of the same kind merged (an
/// empty line has no segments). The `Equal` segments of the two sides spell the same text in
/// the same order (a one-sided change between two equal runs leaves them adjacent, hence
/// merged, on the other side).
///
/// Returns `None` when the pair exceeds the limits — a line longer than
/// [`RefineLimits::max_graphemes`] clusters, or a diff costing more than
/// [`RefineLimits::max_cost`] — and the caller shows a whole-line change.
pub fn refine_pair(
    old: &str,
    new: &str,
    limits: &RefineLimits,
) -> Option<(Vec<Segment>, Vec<Segment>)> {
    if old == new {
        return Some((whole(DiffKind::Equal, old), whole(DiffKind::Equal, new)));
    }
    if old.is_empty() || new.is_empty() {
        return Some((whole(DiffKind::Delete, old), whole(DiffKind::Add, new)));
    }

    let mut interner = Interner::default();
    let a = Line::new(old, &mut interner, limits.max_graphemes)?;
    let b = Line::new(new, &mut interner, limits.max_graphemes)?;
    drop(interner);

    let ops = diff(&a, &b, limits.max_cost)?;
    let ops = clean_up(ops, &a, &b);
    Some(segments(&ops, &a, &b))
}
