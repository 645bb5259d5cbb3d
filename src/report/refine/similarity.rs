//! Line similarity: the Dice coefficient of character bigrams, with signatures for cheap scoring.

use super::SIGNATURE_MAX;

/// Sorted hashes of a line's character bigrams (whitespace trimmed and collapsed, with start and
/// end markers), sampled down to about [`SIGNATURE_MAX`] for long lines: only hashes whose low
/// `shift` bits are zero are kept, so two signatures compare on a common sample.
pub(super) struct Signature {
    /// Distinct bigram hashes (sorted) with their counts.
    pub(super) hashes: Vec<(u32, u32)>,
    pub(super) shift: u32,
}

impl Signature {
    pub(super) fn new(line: &str) -> Signature {
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
    pub(super) fn dice(&self, other: &Signature) -> f64 {
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

pub(super) fn pair_hash(x: u32, y: u32) -> u32 {
    // splitmix64 finaliser over the 42-bit pair.
    let mut z = ((x as u64) << 21 | y as u64).wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (z ^ (z >> 31)) as u32
}
