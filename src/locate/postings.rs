//! Where each line's hash occurs, for one level: the file's line numbers sorted by (hash,
//! line). A window search over a long range then looks at the lines sharing the hash of the
//! pattern's rarest line instead of rolling over every line of the range. It is built only
//! once searches at a level have scanned the file several times over (many hunks each
//! searching a long range: hunks listed in reverse file order search everything after the
//! hunk placed before them), and answers exactly as a scan would: the same windows, in file
//! order, each verified line by line (hashes only propose candidates).

use std::ops::Range;

/// Files shorter than this are always scanned (an index would not pay for itself).
const MIN_LINES: usize = 1024;

/// Lines scanned at one level, in multiples of the file's length, before its postings are
/// built.
const SCANS_BEFORE_BUILD: usize = 4;

/// Line numbers sorted by their line hash, then by line, with the hashes in that order
/// beside them (a lookup reads one array, not one hash per step).
pub(crate) struct Postings {
    sorted_keys: Vec<u64>,
    order: Vec<u32>,
}

impl Postings {
    /// Builds the postings of `keys` (one hash per file line); `None` for a file too long to
    /// number lines in 32 bits.
    pub(crate) fn new(keys: &[u64]) -> Option<Postings> {
        let n = u32::try_from(keys.len()).ok()?;
        let mut order: Vec<u32> = (0..n).collect();
        order.sort_unstable_by_key(|&i| (keys[i as usize], i));
        let sorted_keys = order.iter().map(|&i| keys[i as usize]).collect();
        Some(Postings { sorted_keys, order })
    }

    /// The file lines whose hash is `key`, in file order.
    fn lines_of(&self, key: u64) -> &[u32] {
        let from = self.sorted_keys.partition_point(|&k| k < key);
        let to = from + self.sorted_keys[from..].partition_point(|&k| k == key);
        &self.order[from..to]
    }

    /// Window starts in `range` (of windows of `pattern_keys.len()` lines) whose lines' hashes
    /// all equal the pattern's, in file order; `None` when the pattern's rarest line occurs more
    /// often than `max_candidates` times, so that a scan is cheaper. The caller verifies the
    /// lines. `work` is the number of postings and hashes looked at.
    pub(crate) fn windows(
        &self,
        keys: &[u64],
        pattern_keys: &[u64],
        range: Range<usize>,
        max_candidates: usize,
        work: &mut u64,
    ) -> Option<Vec<usize>> {
        let m = pattern_keys.len();
        if m == 0 || range.end < range.start || range.end - range.start < m {
            return Some(Vec::new());
        }
        let (j, seed) = pattern_keys
            .iter()
            .enumerate()
            .map(|(j, &k)| (j, self.lines_of(k)))
            .min_by_key(|(_, s)| s.len())?;
        *work = work.saturating_add(m as u64);
        // Line j of a window starting in range.start..=range.end - m.
        let lo = range.start + j;
        let hi = range.end - m + j;
        let from = seed.partition_point(|&p| (p as usize) < lo);
        let to = seed.partition_point(|&p| (p as usize) <= hi);
        let seed = &seed[from..to];
        if seed.len() > max_candidates {
            return None;
        }
        *work = work.saturating_add(seed.len() as u64);
        let mut out = Vec::new();
        for &p in seed {
            let start = p as usize - j;
            *work = work.saturating_add(m as u64);
            if keys[start..start + m] == *pattern_keys {
                out.push(start);
            }
        }
        Some(out)
    }
}

/// Whether postings should be built for a level after `scanned` lines of searches at it, in a
/// file of `n` lines.
pub(crate) fn worth_building(scanned: usize, n: usize) -> bool {
    n >= MIN_LINES && n <= u32::MAX as usize && scanned >= n.saturating_mul(SCANS_BEFORE_BUILD)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive(keys: &[u64], pat: &[u64], range: Range<usize>) -> Vec<usize> {
        let m = pat.len();
        if range.end < range.start + m {
            return Vec::new();
        }
        (range.start..=range.end - m)
            .filter(|&s| keys[s..s + m] == *pat)
            .collect()
    }

    proptest::proptest! {
        #[test]
        fn postings_agree_with_a_scan(
            keys in proptest::collection::vec(0u64..4, 0..60),
            pat in proptest::collection::vec(0u64..4, 1..4),
            a in 0usize..60,
            b in 0usize..60,
        ) {
            let p = Postings::new(&keys).unwrap();
            let range = a.min(b).min(keys.len())..a.max(b).min(keys.len());
            let mut work = 0;
            let got = p.windows(&keys, &pat, range.clone(), usize::MAX, &mut work).unwrap();
            proptest::prop_assert_eq!(got, naive(&keys, &pat, range));
        }
    }

    #[test]
    fn a_common_seed_is_left_to_the_scan() {
        let keys = vec![7u64; 100];
        let p = Postings::new(&keys).unwrap();
        let mut work = 0;
        assert!(p.windows(&keys, &[7, 7], 0..100, 10, &mut work).is_none());
        assert_eq!(
            p.windows(&keys, &[7, 7], 0..5, 10, &mut work),
            Some(vec![0, 1, 2, 3])
        );
    }
}
