//! Where each line's hash occurs, for one level: the file's line numbers sorted by (hash,
//! line). A window search over a long range then looks at the lines sharing the hash of the
//! pattern's rarest line instead of rolling over every line of the range. It is built only
//! once searches at a level have scanned the file several times over (many hunks each
//! searching a long range: hunks listed in reverse file order search everything after the
//! hunk placed before them), and answers exactly as a scan would: the same windows, in file
//! order, each verified line by line (hashes only propose candidates).

use std::ops::Range;

use super::index::LineKey;

/// Files shorter than this are always scanned (an index would not pay for itself).
const MIN_LINES: usize = 1024;

/// Lines scanned at one level, in multiples of the file's length, before its postings are
/// built.
const SCANS_BEFORE_BUILD: usize = 4;

/// Line numbers sorted by their line key, then by line: 4 bytes a line (a lookup reads each
/// probed line's key from the level's keys; a sorted copy of the keys would double it).
pub(crate) struct Postings {
    order: Vec<u32>,
}

impl Postings {
    /// Builds the postings of `keys` (one key per file line); `None` for a file too long to
    /// number lines in 32 bits.
    pub(crate) fn new<K: LineKey>(keys: &[K]) -> Option<Postings> {
        let n = u32::try_from(keys.len()).ok()?;
        let mut order: Vec<u32> = (0..n).collect();
        order.sort_unstable_by_key(|&i| (keys[i as usize], i));
        Some(Postings { order })
    }

    /// The file lines whose key is `key`, in file order.
    fn lines_of<K: LineKey>(&self, keys: &[K], key: K) -> &[u32] {
        let from = self.order.partition_point(|&i| keys[i as usize] < key);
        let to = from + self.order[from..].partition_point(|&i| keys[i as usize] == key);
        &self.order[from..to]
    }

    /// Window starts in `range` (of windows of `pattern_keys.len()` lines) whose lines' hashes
    /// all equal the pattern's, in file order; `None` when the pattern's rarest line occurs more
    /// often than `max_candidates` times, so that a scan is cheaper. The caller verifies the
    /// lines. `work` is the number of postings and hashes looked at.
    pub(crate) fn windows<K: LineKey>(
        &self,
        keys: &[K],
        pattern_keys: &[K],
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
            .map(|(j, &k)| (j, self.lines_of(keys, k)))
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

/// Bytes of text a line must average for postings to be built: their 4 bytes a line stay
/// within half the text, so the index (line offsets, keys, postings) stays within a small
/// multiple of the input even on files of tiny lines (issue 15: peak memory within 4x).
const MIN_BYTES_PER_LINE: usize = 8;

/// Whether postings should be built for a level after `scanned` lines of searches at it, in a
/// file of `n` lines and `bytes` bytes.
pub(crate) fn worth_building(scanned: usize, n: usize, bytes: usize) -> bool {
    n >= MIN_LINES
        && n <= u32::MAX as usize
        && bytes >= n.saturating_mul(MIN_BYTES_PER_LINE)
        && scanned >= n.saturating_mul(SCANS_BEFORE_BUILD)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive(keys: &[u32], pat: &[u32], range: Range<usize>) -> Vec<usize> {
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
            keys in proptest::collection::vec(0u32..4, 0..60),
            pat in proptest::collection::vec(0u32..4, 1..4),
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

    /// Postings (4 bytes a line) are built only for lines of 8 bytes or more on average: on a
    /// file of tiny lines they would take more memory than the text.
    #[test]
    fn no_postings_for_tiny_lines() {
        let n = 100_000;
        assert!(worth_building(4 * n, n, 8 * n));
        assert!(!worth_building(4 * n, n, 8 * n - 1));
        assert!(!worth_building(4 * n - 1, n, 8 * n));
        assert!(!worth_building(4 * 100, 100, 8 * 100));
    }

    #[test]
    fn a_common_seed_is_left_to_the_scan() {
        let keys = vec![7u16; 100];
        let p = Postings::new(&keys).unwrap();
        let mut work = 0;
        assert!(p.windows(&keys, &[7, 7], 0..100, 10, &mut work).is_none());
        assert_eq!(
            p.windows(&keys, &[7, 7], 0..5, 10, &mut work),
            Some(vec![0, 1, 2, 3])
        );
    }
}
