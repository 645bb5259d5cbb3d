//! The line index: every file line hashed once per level (lazily, only for the levels a search
//! reaches), and windows of lines found with a rolling hash over those line hashes. Only hash
//! hits are verified line by line, so a search costs O(lines + hits × pattern), never
//! O(lines × pattern). All work is charged to a [`Budget`].

use std::hash::Hasher;
use std::ops::Range;

use rustc_hash::FxHasher;

use super::level::{normalize, trim_end_ws, trim_ws, Level};
use crate::error::{Error, Status};
use crate::text::Lines;

/// Search work allowance, in line comparisons or hash steps.
#[derive(Debug)]
pub(crate) struct Budget {
    limit: u64,
    used: u64,
}

impl Budget {
    pub(crate) fn new(limit: u64) -> Budget {
        Budget { limit, used: 0 }
    }

    /// Charges `units` of work; fails with [`Status::SearchBudget`] past the limit.
    pub(crate) fn charge(&mut self, units: u64) -> Result<(), Error> {
        self.used = self.used.saturating_add(units);
        if self.used > self.limit {
            return Err(Error::simple(
                Status::SearchBudget,
                format!(
                    "searching for the hunk took more than the search budget of {} line \
                     comparisons; the file is very repetitive. Add an \"@@\" anchor line or more \
                     distinctive context so the place is easier to find.",
                    self.limit
                ),
            ));
        }
        Ok(())
    }
}

/// Multiplier of the rolling window hash (odd, so invertible modulo 2^64).
const BASE: u64 = 0x9E37_79B9_7F4A_7C15;

pub(crate) fn hash_str(s: &str) -> u64 {
    let mut h = FxHasher::default();
    h.write(s.as_bytes());
    h.write_u8(0xff);
    h.finish()
}

/// A sequence of pattern lines with their normalised forms cached per level.
pub(crate) struct Pattern<'p> {
    lines: Vec<&'p str>,
    normalized: [Option<Vec<String>>; 5],
}

impl<'p> Pattern<'p> {
    pub(crate) fn new(lines: Vec<&'p str>) -> Pattern<'p> {
        Pattern {
            lines,
            normalized: Default::default(),
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.lines.len()
    }

    fn normalized(&mut self, level: Level) -> &[String] {
        let slot = &mut self.normalized[level as usize];
        if slot.is_none() {
            let mut buf = String::new();
            *slot = Some(
                self.lines
                    .iter()
                    .map(|l| normalize(l, level, &mut buf).to_string())
                    .collect(),
            );
        }
        slot.as_deref().unwrap_or_default()
    }
}

/// The file's lines with lazily computed per-level line hashes.
pub(crate) struct LineIndex<'a> {
    lines: &'a Lines<'a>,
    keys: [Option<Vec<u64>>; 5],
    scratch: String,
}

impl<'a> LineIndex<'a> {
    pub(crate) fn new(lines: &'a Lines<'a>) -> LineIndex<'a> {
        LineIndex {
            lines,
            keys: Default::default(),
            scratch: String::new(),
        }
    }

    pub(crate) fn lines(&self) -> &'a Lines<'a> {
        self.lines
    }

    pub(crate) fn len(&self) -> usize {
        self.lines.len()
    }

    /// The line hashes at `level`, computing them on first use.
    fn keys(&mut self, level: Level, budget: &mut Budget) -> Result<&[u64], Error> {
        if self.keys[level as usize].is_none() {
            budget.charge(self.lines.len() as u64)?;
            let mut buf = String::new();
            let keys = (0..self.lines.len())
                .map(|i| hash_str(normalize(self.lines.get(i), level, &mut buf)))
                .collect();
            self.keys[level as usize] = Some(keys);
        }
        Ok(self.keys[level as usize].as_deref().unwrap_or_default())
    }

    /// True when file line `i` equals `normalized_pattern` at `level`.
    fn line_matches(&mut self, i: usize, level: Level, normalized_pattern: &str) -> bool {
        normalize(self.lines.get(i), level, &mut self.scratch) == normalized_pattern
    }

    /// True when file line `i` equals the pattern line `p` at `level`.
    pub(crate) fn line_eq(&mut self, i: usize, level: Level, p: &str) -> bool {
        let mut buf = String::new();
        let np = normalize(p, level, &mut buf);
        normalize(self.lines.get(i), level, &mut self.scratch) == np
    }

    /// The strictest level at which file line `i` equals pattern line `p` (up to `max`).
    pub(crate) fn line_level(&mut self, i: usize, p: &str, max: Level) -> Option<Level> {
        max.up_to().iter().copied().find(|&l| self.line_eq(i, l, p))
    }

    /// Start lines of windows within `range` where every pattern line equals the file line at
    /// `level`, in file order. Stops after `limit` verified matches.
    pub(crate) fn find_windows(
        &mut self,
        pattern: &mut Pattern<'_>,
        level: Level,
        range: Range<usize>,
        limit: usize,
        budget: &mut Budget,
    ) -> Result<Vec<usize>, Error> {
        let m = pattern.len();
        let found = Vec::new();
        if m == 0
            || range.end > self.len()
            || range.end < range.start
            || range.end - range.start < m
        {
            return Ok(found);
        }
        let pnorm: Vec<String> = pattern.normalized(level).to_vec();
        let target = pnorm
            .iter()
            .fold(0u64, |h, s| h.wrapping_mul(BASE).wrapping_add(hash_str(s)));
        self.keys(level, budget)?;
        let keys = self.keys[level as usize].take().unwrap_or_default();
        let result = self.scan(&keys, &pnorm, target, level, range, limit, budget);
        self.keys[level as usize] = Some(keys);
        result
    }

    #[allow(clippy::too_many_arguments)]
    fn scan(
        &mut self,
        keys: &[u64],
        pnorm: &[String],
        target: u64,
        level: Level,
        range: Range<usize>,
        limit: usize,
        budget: &mut Budget,
    ) -> Result<Vec<usize>, Error> {
        let m = pnorm.len();
        let mut found = Vec::new();
        budget.charge((range.end - range.start) as u64)?;
        let high = (1..m).fold(1u64, |p, _| p.wrapping_mul(BASE));
        let mut h = keys[range.start..range.start + m]
            .iter()
            .fold(0u64, |h, &k| h.wrapping_mul(BASE).wrapping_add(k));
        let mut hits = Vec::new();
        let last = range.end - m;
        let mut start = range.start;
        loop {
            if h == target {
                hits.push(start);
            }
            if start == last {
                break;
            }
            h = h
                .wrapping_sub(keys[start].wrapping_mul(high))
                .wrapping_mul(BASE)
                .wrapping_add(keys[start + m]);
            start += 1;
            if hits.len() > limit.saturating_mul(4).saturating_add(64) {
                // Plenty of hits: verify what we have before scanning further.
                self.verify(&mut hits, pnorm, level, limit, &mut found, budget)?;
                if found.len() >= limit {
                    return Ok(found);
                }
            }
        }
        self.verify(&mut hits, pnorm, level, limit, &mut found, budget)?;
        Ok(found)
    }

    fn verify(
        &mut self,
        hits: &mut Vec<usize>,
        pnorm: &[String],
        level: Level,
        limit: usize,
        found: &mut Vec<usize>,
        budget: &mut Budget,
    ) -> Result<(), Error> {
        for &s in hits.iter() {
            if found.len() >= limit {
                break;
            }
            budget.charge(pnorm.len() as u64)?;
            if pnorm
                .iter()
                .enumerate()
                .all(|(k, p)| self.line_matches(s + k, level, p))
            {
                found.push(s);
            }
        }
        hits.clear();
        Ok(())
    }

    /// True when the window starting at `start` matches the pattern at `level`.
    pub(crate) fn window_matches(
        &mut self,
        pattern: &mut Pattern<'_>,
        level: Level,
        start: usize,
        budget: &mut Budget,
    ) -> Result<bool, Error> {
        let m = pattern.len();
        if start + m > self.len() {
            return Ok(false);
        }
        budget.charge(m as u64)?;
        let pnorm = pattern.normalized(level).to_vec();
        Ok(pnorm
            .iter()
            .enumerate()
            .all(|(k, p)| self.line_matches(start + k, level, p)))
    }

    /// Lines in `range` equal to `anchor` at `level` (or starting with it when `prefix`).
    pub(crate) fn find_line(
        &mut self,
        anchor: &str,
        level: Level,
        prefix: bool,
        range: Range<usize>,
        limit: usize,
        budget: &mut Budget,
    ) -> Result<Vec<usize>, Error> {
        let mut buf = String::new();
        let a = normalize(anchor, level, &mut buf).to_string();
        let mut out = Vec::new();
        let range = range.start..range.end.min(self.len());
        if range.start >= range.end {
            return Ok(out);
        }
        budget.charge((range.end - range.start) as u64)?;
        if !prefix {
            let target = hash_str(&a);
            let keys = self.keys(level, budget)?;
            let hits: Vec<usize> = range.filter(|&i| keys[i] == target).collect();
            for i in hits {
                if self.line_matches(i, level, &a) {
                    out.push(i);
                    if out.len() >= limit {
                        break;
                    }
                }
            }
            return Ok(out);
        }
        for i in range {
            let line = self.lines.get(i);
            let hit = match level {
                Level::Exact => line.starts_with(a.as_str()),
                Level::TrimEnd => trim_end_ws(line).starts_with(a.as_str()),
                Level::Trim => trim_ws(line).starts_with(a.as_str()),
                _ => normalize(line, level, &mut self.scratch).starts_with(a.as_str()),
            };
            if hit {
                out.push(i);
                if out.len() >= limit {
                    break;
                }
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The naive reference: compare every window line by line.
    fn naive(file: &[&str], pat: &[&str], level: Level) -> Vec<usize> {
        if pat.is_empty() || pat.len() > file.len() {
            return vec![];
        }
        (0..=file.len() - pat.len())
            .filter(|&s| {
                pat.iter().enumerate().all(|(k, p)| {
                    super::super::level::normalized(file[s + k], level)
                        == super::super::level::normalized(p, level)
                })
            })
            .collect()
    }

    proptest::proptest! {
        #[test]
        fn index_agrees_with_naive_search(
            file in proptest::collection::vec(proptest::sample::select(vec!["a", " a", "a ", "b", "\tb", "c  d", "c d", "\u{201C}q\u{201D}", "\"q\"", ""]), 0..40),
            pat in proptest::collection::vec(proptest::sample::select(vec!["a", "b", " b", "c d", "\"q\"", ""]), 1..4),
            from in 0usize..10,
        ) {
            let text: String = file.iter().map(|l| format!("{l}\n")).collect();
            let lines = Lines::split(&text);
            let mut index = LineIndex::new(&lines);
            let mut budget = Budget::new(u64::MAX);
            for level in Level::ALL {
                let mut p = Pattern::new(pat.clone());
                let from = from.min(file.len());
                let got = index.find_windows(&mut p, level, from..file.len(), usize::MAX, &mut budget).unwrap();
                let want: Vec<usize> = naive(&file[from..], &pat, level).into_iter().map(|s| s + from).collect();
                proptest::prop_assert_eq!(got, want);
            }
        }
    }

    #[test]
    fn budget_is_enforced() {
        let text = "x\n".repeat(1000);
        let lines = Lines::split(&text);
        let mut index = LineIndex::new(&lines);
        let mut budget = Budget::new(500);
        let mut p = Pattern::new(vec!["x", "x"]);
        let e = index
            .find_windows(&mut p, Level::Exact, 0..1000, usize::MAX, &mut budget)
            .unwrap_err();
        assert_eq!(e.status(), Status::SearchBudget);
    }
}
