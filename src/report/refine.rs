//! Character-level refinement of changed lines (SPEC §6).
//!
//! Within one change block of the line diff, [`pair_lines`] pairs deleted lines with added lines
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

use std::collections::HashMap;
use std::convert::Infallible;
use std::ops::Range;

use similar::algorithms::{myers, DiffHook};
use unicode_segmentation::UnicodeSegmentation;

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
#[derive(Clone, Copy, Debug)]
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
const SIGNATURE_MAX: usize = 512;

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
    let old_sigs: Vec<Signature> = deleted.iter().map(|l| Signature::new(l)).collect();
    let new_sigs: Vec<Signature> = added.iter().map(|l| Signature::new(l)).collect();
    let sim = |i: usize, j: usize| -> f64 {
        if deleted[i] == added[j] {
            1.0
        } else {
            old_sigs[i].dice(&new_sigs[j])
        }
    };

    let cap = limits.max_pair_lines.saturating_mul(limits.max_pair_lines);
    if n.saturating_mul(m) > cap {
        return (0..n.min(m))
            .filter(|&i| sim(i, i) >= PAIR_THRESHOLD)
            .map(|i| (i, i))
            .collect();
    }

    // Weighted longest-common-subsequence over the similarity matrix: dp[i][j] is the best
    // total weight pairing deleted[..i] with added[..j].
    let w = m + 1;
    let mut weight = vec![f64::NEG_INFINITY; n * m];
    let mut dp = vec![0.0f64; (n + 1) * w];
    for i in 0..n {
        for j in 0..m {
            let s = sim(i, j);
            if s >= PAIR_THRESHOLD {
                // A tiny penalty for distance from the block's diagonal breaks ties between
                // equally similar candidates in favour of the positional one.
                let skew = (i as f64 / n as f64 - j as f64 / m as f64).abs();
                weight[i * m + j] = s - PAIR_BASELINE - 1e-9 * skew;
            }
            let diag = dp[i * w + j] + weight[i * m + j];
            dp[(i + 1) * w + j + 1] = dp[i * w + j + 1].max(dp[(i + 1) * w + j]).max(diag);
        }
    }
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

// ---------------------------------------------------------------------------------------------
// Grapheme clusters

/// Maps clusters of more than one `char` to ids above the code-point range.
#[derive(Default)]
struct Interner<'a> {
    multi: HashMap<&'a str, u32>,
}

impl<'a> Interner<'a> {
    fn id(&mut self, g: &'a str) -> u32 {
        let mut chars = g.chars();
        if let (Some(c), None) = (chars.next(), chars.next()) {
            return c as u32;
        }
        let next = 0x11_0000 + self.multi.len() as u32;
        *self.multi.entry(g).or_insert(next)
    }
}

/// One line split into grapheme clusters.
struct Line<'a> {
    text: &'a str,
    /// Byte offset of each cluster, then `text.len()`.
    bounds: Vec<u32>,
    /// Interned id of each cluster.
    ids: Vec<u32>,
}

impl<'a> Line<'a> {
    fn new(text: &'a str, interner: &mut Interner<'a>, max: usize) -> Option<Self> {
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

    fn len(&self) -> usize {
        self.ids.len()
    }

    /// Byte offset of cluster `i` (`len()` gives the end of the text).
    fn at(&self, i: usize) -> usize {
        self.bounds[i] as usize
    }

    fn class(&self, i: usize) -> Class {
        classify(&self.text[self.at(i)..self.at(i + 1)])
    }

    fn id(&self, i: usize) -> u32 {
        self.ids[i]
    }
}

/// Coarse character class of a cluster, by its first `char`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    /// Letters, digits, `_` of space-separated scripts.
    Word,
    /// CJK ideographs, kana, hangul: each cluster is a word of its own.
    Wide,
    Space,
    Punct,
    /// Symbols, emoji, controls.
    Other,
}

fn classify(g: &str) -> Class {
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

fn is_unicode_punct(c: char) -> bool {
    matches!(c,
        '\u{A1}' | '\u{A7}' | '\u{AB}' | '\u{B6}' | '\u{B7}' | '\u{BB}' | '\u{BF}'
        | '\u{2010}'..='\u{2027}' | '\u{2030}'..='\u{205E}'
        | '\u{3001}'..='\u{3003}' | '\u{3008}'..='\u{3011}' | '\u{3014}'..='\u{301F}'
        | '\u{FF01}'..='\u{FF0F}' | '\u{FF1A}'..='\u{FF20}' | '\u{FF3B}'..='\u{FF40}'
        | '\u{FF5B}'..='\u{FF65}')
}

fn is_wide(c: char) -> bool {
    matches!(c,
        '\u{1100}'..='\u{11FF}' | '\u{2E80}'..='\u{A4CF}' | '\u{A960}'..='\u{A97F}'
        | '\u{AC00}'..='\u{D7FF}' | '\u{F900}'..='\u{FAFF}' | '\u{FF66}'..='\u{FFDC}'
        | '\u{20000}'..='\u{3FFFF}')
}

fn is_separator(class: Class) -> bool {
    matches!(class, Class::Space | Class::Punct)
}

// ---------------------------------------------------------------------------------------------
// Diff within a work budget

/// Average chunk length (a power of two) of the coarse pass over long middles.
const CHUNK_AVG: u32 = 32;
/// Longest chunk of the coarse pass.
const CHUNK_MAX: usize = 128;
/// Middles whose estimated work is at most this are diffed directly, without the coarse pass.
const DIRECT_MAX: usize = 1 << 20;
/// Largest exact table (in cells, one byte each) we let `similar` build for a lopsided pair.
const TABLE_MAX: usize = 1 << 20;

/// Worst-case work estimate of `similar`'s Myers diff of `n` against `m` clusters, in
/// comparisons: its exact search costs at most about `n * m`, its bounded search on large
/// inputs about `(n + m) * max(√(n + m), 256)`. `usize::MAX` when `similar` would solve the
/// pair with an exact table (a side of at most 64 clusters against one of at least 512) of
/// more than [`TABLE_MAX`] cells, to keep memory small.
fn work(n: usize, m: usize) -> usize {
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
struct EqualRuns {
    runs: Vec<(usize, usize, usize)>,
}

impl DiffHook for EqualRuns {
    type Error = Infallible;

    fn equal(&mut self, old_index: usize, new_index: usize, len: usize) -> Result<(), Infallible> {
        self.runs.push((old_index, new_index, len));
        Ok(())
    }
}

/// Appends the equal runs of `old[o]` against `new[n]` to `runs`.
fn myers_runs(old: &[u32], o: Range<usize>, new: &[u32], n: Range<usize>, runs: &mut EqualRuns) {
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
fn chunk_ends(ids: &[u32]) -> Vec<usize> {
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
struct Op {
    equal: bool,
    o0: usize,
    o1: usize,
    n0: usize,
    n1: usize,
}

impl Op {
    fn equal(o: usize, n: usize, len: usize) -> Op {
        Op {
            equal: true,
            o0: o,
            o1: o + len,
            n0: n,
            n1: n + len,
        }
    }

    fn change(o0: usize, o1: usize, n0: usize, n1: usize) -> Op {
        Op {
            equal: false,
            o0,
            o1,
            n0,
            n1,
        }
    }

    fn is_empty(&self) -> bool {
        self.o0 == self.o1 && self.n0 == self.n1
    }

    /// Size of a change: the longer of its two sides.
    fn size(&self) -> usize {
        (self.o1 - self.o0).max(self.n1 - self.n0)
    }
}

/// Interns the chunks of `ids` ending at `ends`.
fn name_chunks<'a>(
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
fn chunked(
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
fn diff(a: &Line<'_>, b: &Line<'_>, max_cost: usize) -> Option<Vec<Op>> {
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
    Some(normalize(ops))
}

/// Drops empty ops and merges adjacent ops of the same kind, so that equal runs and changes
/// alternate.
fn normalize(ops: Vec<Op>) -> Vec<Op> {
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

// ---------------------------------------------------------------------------------------------
// Semantic clean-up

fn clean_up(ops: Vec<Op>, a: &Line<'_>, b: &Line<'_>) -> Vec<Op> {
    let mut ops = ops;
    slide_to_boundaries(&mut ops, a, b);
    let ops = remove_islands(normalize(ops), a);
    let mut ops = ops;
    extend_to_words(&mut ops, a, b);
    remove_islands(normalize(ops), a)
}

/// How good a place the boundary between two clusters is for a change to start or end.
fn boundary_score(before: Option<Class>, after: Option<Class>) -> u32 {
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
fn slide_to_boundaries(ops: &mut Vec<Op>, a: &Line<'_>, b: &Line<'_>) {
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
fn best_shift(
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
fn is_island(island: &Op, before: &Op, after: &Op, a: &Line<'_>) -> bool {
    let len = island.o1 - island.o0;
    len <= 2
        || (len < before.size() && len < after.size())
        || (island.o0..island.o1).all(|k| is_separator(a.class(k)))
}

/// Merges equal islands into the changes around them (input and output alternate).
fn remove_islands(ops: Vec<Op>, a: &Line<'_>) -> Vec<Op> {
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
fn extend_to_words(ops: &mut [Op], a: &Line<'_>, b: &Line<'_>) {
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

// ---------------------------------------------------------------------------------------------
// Output

fn whole(kind: DiffKind, text: &str) -> Vec<Segment> {
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

fn push(out: &mut Vec<Segment>, kind: DiffKind, start: usize, end: usize) {
    if start == end {
        return;
    }
    match out.last_mut() {
        Some(last) if last.kind == kind && last.end == start => last.end = end,
        _ => out.push(Segment { kind, start, end }),
    }
}

fn segments(ops: &[Op], a: &Line<'_>, b: &Line<'_>) -> (Vec<Segment>, Vec<Segment>) {
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

// ---------------------------------------------------------------------------------------------
// Line similarity

/// Sorted hashes of a line's character bigrams (whitespace trimmed and collapsed, with start and
/// end markers), sampled down to about [`SIGNATURE_MAX`] for long lines: only hashes whose low
/// `shift` bits are zero are kept, so two signatures compare on a common sample.
struct Signature {
    /// Distinct bigram hashes (sorted) with their counts.
    hashes: Vec<(u32, u32)>,
    shift: u32,
}

impl Signature {
    fn new(line: &str) -> Signature {
        const START: u32 = 0x11_0000;
        const END: u32 = 0x11_0001;
        let mut all = Vec::new();
        let mut prev = START;
        let mut pending_space = false;
        for c in line.trim().chars() {
            if c.is_whitespace() {
                pending_space = true;
                continue;
            }
            if pending_space {
                all.push(pair_hash(prev, ' ' as u32));
                prev = ' ' as u32;
                pending_space = false;
            }
            all.push(pair_hash(prev, c as u32));
            prev = c as u32;
        }
        all.push(pair_hash(prev, END));
        all.sort_unstable();
        let mut hashes: Vec<(u32, u32)> = Vec::new();
        for h in all {
            match hashes.last_mut() {
                Some((last, count)) if *last == h => *count += 1,
                _ => hashes.push((h, 1)),
            }
        }
        // Sample distinct bigrams (by hash) only when there are many of them, so a long line
        // over a small alphabet keeps every bigram.
        let mut shift = 0;
        while shift < 31
            && hashes
                .iter()
                .filter(|(h, _)| h & ((1u32 << shift) - 1) == 0)
                .count()
                > SIGNATURE_MAX
        {
            shift += 1;
        }
        if shift > 0 {
            let mask = (1u32 << shift) - 1;
            hashes.retain(|(h, _)| h & mask == 0);
            hashes.shrink_to_fit();
        }
        Signature { hashes, shift }
    }

    /// Dice coefficient of the two bigram multisets, on their common sample.
    fn dice(&self, other: &Signature) -> f64 {
        let mask = (1u32 << self.shift.max(other.shift)) - 1;
        let (xs, ys) = (&self.hashes, &other.hashes);
        let next = |v: &[(u32, u32)], mut k: usize| {
            while k < v.len() && v[k].0 & mask != 0 {
                k += 1;
            }
            k
        };
        let (mut i, mut j) = (next(xs, 0), next(ys, 0));
        let (mut common, mut total) = (0u64, 0u64);
        while i < xs.len() || j < ys.len() {
            if i < xs.len() && (j == ys.len() || xs[i].0 < ys[j].0) {
                total += u64::from(xs[i].1);
                i = next(xs, i + 1);
            } else if j < ys.len() && (i == xs.len() || ys[j].0 < xs[i].0) {
                total += u64::from(ys[j].1);
                j = next(ys, j + 1);
            } else {
                common += u64::from(xs[i].1.min(ys[j].1));
                total += u64::from(xs[i].1) + u64::from(ys[j].1);
                i = next(xs, i + 1);
                j = next(ys, j + 1);
            }
        }
        if total == 0 {
            0.0
        } else {
            2.0 * common as f64 / total as f64
        }
    }
}

fn pair_hash(x: u32, y: u32) -> u32 {
    // splitmix64 finaliser over the 42-bit pair.
    let mut z = ((x as u64) << 21 | y as u64).wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (z ^ (z >> 31)) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use DiffKind::{Add as A, Delete as D, Equal as E};

    type Parts<'a> = Vec<(DiffKind, &'a str)>;

    fn parts<'a>(text: &'a str, segs: &[Segment]) -> Parts<'a> {
        segs.iter()
            .map(|s| (s.kind, &text[s.start..s.end]))
            .collect()
    }

    fn refine<'a>(old: &'a str, new: &'a str) -> (Parts<'a>, Parts<'a>) {
        let (a, b) = refine_pair(old, new, &RefineLimits::default()).expect("refined");
        check(old, new, &a, &b);
        (parts(old, &a), parts(new, &b))
    }

    /// Every invariant of a refinement result.
    fn check(old: &str, new: &str, a: &[Segment], b: &[Segment]) {
        for (text, segs, changed) in [(old, a, D), (new, b, A)] {
            let bounds: Vec<usize> = text
                .grapheme_indices(true)
                .map(|(i, _)| i)
                .chain([text.len()])
                .collect();
            let mut at = 0;
            for (k, s) in segs.iter().enumerate() {
                assert!(s.kind == E || s.kind == changed, "{s:?} in {text:?}");
                assert_eq!(s.start, at, "gap or overlap in {text:?}: {segs:?}");
                assert!(s.start < s.end, "empty segment in {text:?}: {segs:?}");
                assert!(text.is_char_boundary(s.start) && text.is_char_boundary(s.end));
                assert!(
                    bounds.binary_search(&s.start).is_ok(),
                    "split cluster: {text:?} {s:?}"
                );
                assert!(
                    bounds.binary_search(&s.end).is_ok(),
                    "split cluster: {text:?} {s:?}"
                );
                if k > 0 {
                    assert_ne!(segs[k - 1].kind, s.kind, "unmerged segments in {text:?}");
                }
                at = s.end;
            }
            assert_eq!(at, text.len(), "segments do not cover {text:?}");
        }
        let equal = |text: &str, segs: &[Segment]| -> Vec<String> {
            segs.iter()
                .filter(|s| s.kind == E)
                .map(|s| text[s.start..s.end].to_string())
                .collect()
        };
        assert_eq!(equal(old, a).concat(), equal(new, b).concat());
        let concat = |text: &str, segs: &[Segment]| -> String {
            segs.iter().map(|s| &text[s.start..s.end]).collect()
        };
        assert_eq!(concat(old, a), old);
        assert_eq!(concat(new, b), new);
    }

    // --- refine_pair: exact outputs --------------------------------------------------------

    #[test]
    fn ascii_word_change() {
        assert_eq!(
            refine("the quick brown fox", "the quick red fox"),
            (
                vec![(E, "the quick "), (D, "brown"), (E, " fox")],
                vec![(E, "the quick "), (A, "red"), (E, " fox")]
            )
        );
        assert_eq!(
            refine("if (a && b) {", "if (a || b) {"),
            (
                vec![(E, "if (a "), (D, "&&"), (E, " b) {")],
                vec![(E, "if (a "), (A, "||"), (E, " b) {")]
            )
        );
        assert_eq!(
            refine("getUserName(x)", "getUserId(x)"),
            (
                vec![(E, "getUser"), (D, "Name"), (E, "(x)")],
                vec![(E, "getUser"), (A, "Id"), (E, "(x)")]
            )
        );
    }

    #[test]
    fn insertion_at_start_and_end() {
        assert_eq!(
            refine("world", "hello world"),
            (vec![(E, "world")], vec![(A, "hello "), (E, "world")])
        );
        assert_eq!(
            refine("hello", "hello world"),
            (vec![(E, "hello")], vec![(E, "hello"), (A, " world")])
        );
        assert_eq!(
            refine("hello world", "world"),
            (vec![(D, "hello "), (E, "world")], vec![(E, "world")])
        );
        assert_eq!(
            refine("x;", "x"),
            (vec![(E, "x"), (D, ";")], vec![(E, "x")])
        );
    }

    #[test]
    fn insertion_slides_to_word_boundary() {
        assert_eq!(
            refine("foo(a, b)", "foo(a, c, b)"),
            (
                vec![(E, "foo(a, b)")],
                vec![(E, "foo(a, "), (A, "c, "), (E, "b)")]
            )
        );
        assert_eq!(
            refine("hello world", "hello brave new world"),
            (
                vec![(E, "hello world")],
                vec![(E, "hello "), (A, "brave new "), (E, "world")]
            )
        );
        assert_eq!(
            refine("let v = compute(a, b);", "let v = compute(a, b, c);"),
            (
                vec![(E, "let v = compute(a, b);")],
                vec![(E, "let v = compute(a, b"), (A, ", c"), (E, ");")]
            )
        );
    }

    #[test]
    fn emoji_with_modifiers_is_never_split() {
        // 👍🏽 and 👍🏿 share the 👍 code point; a char-level diff would keep it equal.
        assert_eq!(
            refine("ok 👍🏽 done", "ok 👍🏿 done"),
            (
                vec![(E, "ok "), (D, "👍🏽"), (E, " done")],
                vec![(E, "ok "), (A, "👍🏿"), (E, " done")]
            )
        );
        assert_eq!(refine("👍🏽", "👍"), (vec![(D, "👍🏽")], vec![(A, "👍")]));
        // ZWJ sequences: the family differs only in its last member.
        assert_eq!(
            refine("a 👨\u{200d}👩\u{200d}👧 b", "a 👨\u{200d}👩\u{200d}👦 b"),
            (
                vec![(E, "a "), (D, "👨\u{200d}👩\u{200d}👧"), (E, " b")],
                vec![(E, "a "), (A, "👨\u{200d}👩\u{200d}👦"), (E, " b")]
            )
        );
    }

    #[test]
    fn flags_are_never_split() {
        assert_eq!(
            refine("flag 🇫🇷!", "flag 🇩🇪!"),
            (
                vec![(E, "flag "), (D, "🇫🇷"), (E, "!")],
                vec![(E, "flag "), (A, "🇩🇪"), (E, "!")]
            )
        );
        // 🇫🇷 and 🇫🇮 share their first regional indicator.
        assert_eq!(
            refine("go 🇫🇷 now", "go 🇫🇮 now"),
            (
                vec![(E, "go "), (D, "🇫🇷"), (E, " now")],
                vec![(E, "go "), (A, "🇫🇮"), (E, " now")]
            )
        );
        assert_eq!(
            refine("🇫🇷🇩🇪 x", "🇩🇪 x"),
            (vec![(D, "🇫🇷"), (E, "🇩🇪 x")], vec![(E, "🇩🇪 x")])
        );
    }

    #[test]
    fn combining_marks_stay_with_their_base() {
        assert_eq!(
            refine("cafe\u{301} ok", "cafe\u{300} ok"),
            (
                vec![(E, "caf"), (D, "e\u{301}"), (E, " ok")],
                vec![(E, "caf"), (A, "e\u{300}"), (E, " ok")]
            )
        );
        // Removing the accent changes the whole cluster.
        assert_eq!(
            refine("re\u{301}sume\u{301}", "resume\u{301}"),
            (
                vec![(E, "r"), (D, "e\u{301}"), (E, "sume\u{301}")],
                vec![(E, "r"), (A, "e"), (E, "sume\u{301}")]
            )
        );
    }

    #[test]
    fn cjk() {
        assert_eq!(
            refine("我爱北京天安门", "我爱上海天安门"),
            (
                vec![(E, "我爱"), (D, "北京"), (E, "天安门")],
                vec![(E, "我爱"), (A, "上海"), (E, "天安门")]
            )
        );
        assert_eq!(
            refine("東京は晴れです", "東京は雨です"),
            (
                vec![(E, "東京は"), (D, "晴れ"), (E, "です")],
                vec![(E, "東京は"), (A, "雨"), (E, "です")]
            )
        );
    }

    #[test]
    fn crlf_inside_lines_is_one_cluster() {
        assert_eq!(
            refine("a\r\nb", "a\nb"),
            (
                vec![(E, "a"), (D, "\r\n"), (E, "b")],
                vec![(E, "a"), (A, "\n"), (E, "b")]
            )
        );
        assert_eq!(
            refine("a\rb", "a\r\nb"),
            (
                vec![(E, "a"), (D, "\r"), (E, "b")],
                vec![(E, "a"), (A, "\r\n"), (E, "b")]
            )
        );
        assert_eq!(
            refine("x = 1;\r\n", "x = 12;\r\n"),
            (
                vec![(E, "x = 1;\r\n")],
                vec![(E, "x = 1"), (A, "2"), (E, ";\r\n")]
            )
        );
    }

    #[test]
    fn reordered_words() {
        assert_eq!(
            refine("alpha beta gamma", "gamma alpha beta"),
            (
                vec![(E, "alpha beta"), (D, " gamma")],
                vec![(A, "gamma "), (E, "alpha beta")]
            )
        );
        assert_eq!(
            refine("one two three", "three two one"),
            (
                vec![(D, "one"), (E, " two "), (D, "three")],
                vec![(A, "three"), (E, " two "), (A, "one")]
            )
        );
    }

    #[test]
    fn identical_and_empty_lines() {
        assert_eq!(
            refine("same 👍🏽", "same 👍🏽"),
            (vec![(E, "same 👍🏽")], vec![(E, "same 👍🏽")])
        );
        assert_eq!(refine("", ""), (vec![], vec![]));
        assert_eq!(refine("", "new"), (vec![], vec![(A, "new")]));
        assert_eq!(refine("old", ""), (vec![(D, "old")], vec![]));
    }

    #[test]
    fn islands_between_changes_are_absorbed() {
        // The one-letter island "b" and the word rest "d" are absorbed.
        assert_eq!(
            refine("abcd", "xbyd"),
            (vec![(D, "abcd")], vec![(A, "xbyd")])
        );
        // Whitespace/punctuation-only islands are absorbed.
        assert_eq!(
            refine("x = 1", "y = 2"),
            (vec![(D, "x = 1")], vec![(A, "y = 2")])
        );
        // A word island is kept.
        assert_eq!(
            refine("red apple pie", "big apple tart"),
            (
                vec![(D, "red"), (E, " apple "), (D, "pie")],
                vec![(A, "big"), (E, " apple "), (A, "tart")]
            )
        );
        // Unrelated lines become one change.
        assert_eq!(
            refine("fn main() {", "let total = 0;"),
            (vec![(D, "fn main() {")], vec![(A, "let total = 0;")])
        );
    }

    #[test]
    fn short_word_rest_joins_the_change() {
        assert_eq!(
            refine("a test here", "a toast here"),
            (
                vec![(E, "a "), (D, "te"), (E, "st here")],
                vec![(E, "a "), (A, "toa"), (E, "st here")]
            )
        );
        assert_eq!(
            refine("colour", "color"),
            (vec![(E, "colo"), (D, "u"), (E, "r")], vec![(E, "color")])
        );
    }

    #[test]
    fn limits() {
        let tight = RefineLimits {
            max_graphemes: 10,
            ..RefineLimits::default()
        };
        assert_eq!(refine_pair("0123456789", "0123456789x", &tight), None);
        assert!(refine_pair("0123456789", "012345678x", &tight).is_some());
        // No diff work is needed for identical or one-sided pairs.
        assert!(refine_pair("0123456789abc", "0123456789abc", &tight).is_some());
        assert!(refine_pair("", "0123456789abc", &tight).is_some());

        let broke = RefineLimits {
            max_cost: 10,
            ..RefineLimits::default()
        };
        assert_eq!(refine_pair("abcdefgh", "hgfedcba", &broke), None);
        // Prefix/suffix trimming is free: a one-cluster middle needs no budget.
        assert!(refine_pair("abcdefgh", "abcXefgh", &broke).is_some());
        let none = RefineLimits {
            max_cost: 0,
            ..RefineLimits::default()
        };
        assert_eq!(
            refine_pair("abc", "abXc", &none).map(|(a, b)| (parts("abc", &a), parts("abXc", &b))),
            Some((vec![(E, "abc")], vec![(E, "ab"), (A, "X"), (E, "c")]))
        );
    }

    /// Deterministic pseudo-random text.
    fn noise(seed: u64, len: usize, alphabet: &[char]) -> Vec<char> {
        let mut x = seed | 1;
        (0..len)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                alphabet[(x % alphabet.len() as u64) as usize]
            })
            .collect()
    }

    #[test]
    fn long_line_with_one_change() {
        let alphabet: Vec<char> = "abcdefghij klmnopqrstuvwxyz".chars().collect();
        let old: String = noise(7, 50_000, &alphabet).into_iter().collect();
        let new = format!("{}XYZ{}", &old[..25_000], &old[25_003..]);
        let (a, b) = refine(&old, &new);
        assert_eq!(
            a,
            vec![
                (E, &old[..25_000]),
                (D, &old[25_000..25_003]),
                (E, &old[25_003..])
            ]
        );
        assert_eq!(
            b,
            vec![(E, &new[..25_000]), (A, "XYZ"), (E, &new[25_003..])]
        );
    }

    /// A 100 000-character pair differing in 1% of places (one substituted character every
    /// 100, each inside a stretch of lowercase letters) refines exactly, quickly, even in debug
    /// builds.
    #[test]
    fn very_long_lines_differing_in_one_percent() {
        let alphabet: Vec<char> = "abcdefghijklmnopqrstuvwxyz".chars().collect();
        let old = noise(42, 100_000, &alphabet);
        let mut new = old.clone();
        let places: Vec<usize> = (50..old.len()).step_by(100).collect();
        for &i in &places {
            new[i] = (b'A' + (i / 100 % 26) as u8) as char; // never equal to the lowercase original
        }
        let (old, new): (String, String) = (old.into_iter().collect(), new.into_iter().collect());
        let start = std::time::Instant::now();
        let (a, b) = refine_pair(&old, &new, &RefineLimits::default()).expect("within limits");
        let elapsed = start.elapsed();
        check(&old, &new, &a, &b);
        let mut want_a = Vec::new();
        let mut want_b = Vec::new();
        let mut at = 0;
        for &i in &places {
            want_a.push(Segment {
                kind: E,
                start: at,
                end: i,
            });
            want_a.push(Segment {
                kind: D,
                start: i,
                end: i + 1,
            });
            want_b.push(Segment {
                kind: E,
                start: at,
                end: i,
            });
            want_b.push(Segment {
                kind: A,
                start: i,
                end: i + 1,
            });
            at = i + 1;
        }
        want_a.push(Segment {
            kind: E,
            start: at,
            end: old.len(),
        });
        want_b.push(Segment {
            kind: E,
            start: at,
            end: new.len(),
        });
        let first_diff = |x: &[Segment], y: &[Segment]| {
            let k = x
                .iter()
                .zip(y)
                .position(|(p, q)| p != q)
                .unwrap_or(x.len().min(y.len()));
            (k, x.get(k).copied(), y.get(k).copied(), x.len(), y.len())
        };
        assert!(
            a == want_a,
            "old side differs at {:?}",
            first_diff(&a, &want_a)
        );
        assert!(
            b == want_b,
            "new side differs at {:?}",
            first_diff(&b, &want_b)
        );
        assert!(elapsed.as_secs_f64() < 10.0, "took {elapsed:?}");
    }

    #[test]
    fn very_long_unrelated_lines_fall_back() {
        let alphabet: Vec<char> = "abcdefghijklmnopqrstuvwxyz ".chars().collect();
        let old: String = noise(1, 100_000, &alphabet).into_iter().collect();
        let new: String = noise(2, 100_000, &alphabet).into_iter().collect();
        assert_eq!(refine_pair(&old, &new, &RefineLimits::default()), None);
    }

    // --- pair_lines ------------------------------------------------------------------------

    fn pairs(deleted: &[&str], added: &[&str]) -> Vec<(usize, usize)> {
        let p = pair_lines(deleted, added, &RefineLimits::default());
        for w in p.windows(2) {
            assert!(
                w[0].0 < w[1].0 && w[0].1 < w[1].1,
                "crossing or repeated: {p:?}"
            );
        }
        p
    }

    #[test]
    fn rewritten_line_pairs_with_its_rewrite() {
        let deleted = ["    let total = compute(a, b);"];
        let added = [
            "    // Sum everything up before returning.",
            "    use std::io::Write;",
            "    let total = compute(a, b, c);",
        ];
        assert_eq!(pairs(&deleted, &added), vec![(0, 2)]);
        // And with lines removed around it.
        let deleted = [
            "    println!(\"debug\");",
            "    let x = old_value + 1;",
            "    drop(guard);",
        ];
        let added = ["    let x = new_value + 1;"];
        assert_eq!(pairs(&deleted, &added), vec![(1, 0)]);
    }

    #[test]
    fn several_rewrites_pair_in_order() {
        let deleted = ["fn alpha(x: u32) -> u32 {", "    x + 1", "}"];
        let added = ["/// Doc.", "fn alpha(x: u64) -> u64 {", "    x + 2", "}"];
        assert_eq!(pairs(&deleted, &added), vec![(0, 1), (1, 2), (2, 3)]);
    }

    #[test]
    fn pairs_never_cross() {
        // Both lines moved past each other: only one of them can pair.
        let deleted = ["let first_value = 1;", "let second_value = 2;"];
        let added = ["let second_value = 20;", "let first_value = 10;"];
        let p = pairs(&deleted, &added);
        assert_eq!(p.len(), 1, "{p:?}");
    }

    #[test]
    fn unrelated_lines_do_not_pair() {
        assert_eq!(pairs(&["fn main() {"], &["    return Err(error);"]), vec![]);
        assert_eq!(pairs(&["}"], &["});"]), vec![]);
        assert_eq!(pairs(&["x"], &["y"]), vec![]);
        assert_eq!(pairs(&[], &["a"]), vec![]);
        assert_eq!(pairs(&["a"], &[]), vec![]);
    }

    #[test]
    fn identical_and_whitespace_only_changes_pair() {
        assert_eq!(pairs(&["same"], &["other line", "same"]), vec![(0, 1)]);
        assert_eq!(pairs(&["  if x {"], &["\tif x {"]), vec![(0, 0)]);
        assert_eq!(pairs(&[""], &["   "]), vec![(0, 0)]);
    }

    #[test]
    fn large_blocks_pair_by_position() {
        let limits = RefineLimits {
            max_pair_lines: 2,
            ..RefineLimits::default()
        };
        let deleted = ["let a = 1;", "let b = 2;", "fn main() {"];
        let added = ["let a = 10;", "zzzz", "fn main() {}"];
        assert_eq!(pair_lines(&deleted, &added, &limits), vec![(0, 0), (2, 2)]);
    }

    #[test]
    fn long_lines_are_compared_on_a_sample() {
        let alphabet: Vec<char> = "abcdefghijklmnopqrstuvwxyz ".chars().collect();
        let long: String = noise(3, 20_000, &alphabet).into_iter().collect();
        let edited = format!("{}XX{}", &long[..10_000], &long[10_000..]);
        let other: String = noise(4, 20_000, &alphabet).into_iter().collect();
        let sig = Signature::new(&long);
        assert!(sig.hashes.len() <= 4 * SIGNATURE_MAX && sig.shift > 0);
        assert!(sig.dice(&Signature::new(&edited)) > 0.9);
        assert_eq!(pairs(&[&long], &[&other, &edited]), vec![(0, 1)]);
    }

    // --- properties ------------------------------------------------------------------------

    /// Pieces that exercise cluster boundaries.
    fn atom() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec![
            "a",
            "b",
            "c",
            "x",
            "_",
            "Z",
            "0",
            "7",
            " ",
            "  ",
            "\t",
            ",",
            ".",
            "(",
            ")",
            ";",
            "-",
            "\r\n",
            "\r",
            "\n",
            "e\u{301}",
            "\u{301}",
            "\u{300}",
            "👍",
            "👍🏽",
            "🏿",
            "\u{200d}",
            "👨\u{200d}👩\u{200d}👧",
            "🇫",
            "🇷",
            "🇫🇷",
            "🇩🇪",
            "漢",
            "字",
            "は",
            "한",
            "é",
            "ß",
            "\u{1F600}",
            "\u{FE0F}",
            "क्षि",
        ])
    }

    fn text(max: usize) -> impl Strategy<Value = String> {
        prop::collection::vec(atom(), 0..max).prop_map(|v| v.concat())
    }

    /// `base` with a few random edits.
    fn edited() -> impl Strategy<Value = (String, String)> {
        (
            prop::collection::vec(atom(), 0..120),
            prop::collection::vec((any::<prop::sample::Index>(), 0u8..3, atom()), 0..12),
        )
            .prop_map(|(base, edits)| {
                let mut new = base.clone();
                for (at, op, piece) in edits {
                    let i = if new.is_empty() {
                        0
                    } else {
                        at.index(new.len() + 1)
                    };
                    match op {
                        0 if i < new.len() => {
                            new.remove(i);
                        }
                        1 if i < new.len() => new[i] = piece,
                        _ => new.insert(i, piece),
                    }
                }
                (base.concat(), new.concat())
            })
    }

    /// A long line (taking the chunked path) and a copy with a few scattered edits.
    fn long_edited() -> impl Strategy<Value = (String, String)> {
        (
            prop::collection::vec(atom(), 2_000..6_000),
            prop::collection::vec((any::<prop::sample::Index>(), atom()), 1..20),
        )
            .prop_map(|(base, edits)| {
                let mut new = base.clone();
                for (at, piece) in edits {
                    let i = at.index(new.len());
                    new[i] = piece;
                }
                (base.concat(), new.concat())
            })
    }

    fn any_limits() -> impl Strategy<Value = RefineLimits> {
        (
            prop::sample::select(vec![0usize, 50, 2_000, 100_000, 8_000_000]),
            1usize..400,
        )
            .prop_map(|(max_cost, max_graphemes)| RefineLimits {
                max_cost,
                max_graphemes,
                ..RefineLimits::default()
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn segments_cover_and_reconstruct(
            (old, new) in prop_oneof![edited(), (text(60), text(60))],
            lim in any_limits(),
        ) {
            if let Some((a, b)) = refine_pair(&old, &new, &lim) {
                check(&old, &new, &a, &b);
            }
            let (a, b) = refine_pair(&old, &new, &RefineLimits::default()).expect("small pair");
            check(&old, &new, &a, &b);
        }

        #[test]
        fn pairs_are_increasing_and_similar(
            deleted in prop::collection::vec(text(12), 0..8),
            added in prop::collection::vec(text(12), 0..8),
            max_pair_lines in 1usize..10,
        ) {
            let del: Vec<&str> = deleted.iter().map(String::as_str).collect();
            let add: Vec<&str> = added.iter().map(String::as_str).collect();
            let lim = RefineLimits { max_pair_lines, ..RefineLimits::default() };
            let p = pair_lines(&del, &add, &lim);
            for w in p.windows(2) {
                prop_assert!(w[0].0 < w[1].0 && w[0].1 < w[1].1);
            }
            for &(i, j) in &p {
                prop_assert!(i < del.len() && j < add.len());
                let sim = if del[i] == add[j] {
                    1.0
                } else {
                    Signature::new(del[i]).dice(&Signature::new(add[j]))
                };
                prop_assert!(sim >= PAIR_THRESHOLD);
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        #[test]
        fn long_lines_with_scattered_edits_refine((old, new) in long_edited()) {
            let (a, b) = refine_pair(&old, &new, &RefineLimits::default()).expect("within limits");
            check(&old, &new, &a, &b);
            // Scattered single-atom edits leave most of the line equal.
            let equal: usize = a.iter().filter(|s| s.kind == E).map(|s| s.end - s.start).sum();
            prop_assert!(equal * 2 > old.len(), "{equal} of {}", old.len());
        }
    }
}
