//! The window of the file most similar to a hunk's old side.

use std::ops::Range;

use rustc_hash::FxHashMap;

use super::text::{closest_lines, similarity};
use crate::level::{normalize, Level};
use crate::locate::index::{hash_str, Budget, LineIndex};

/// A window of the file and how similar it is to a hunk's old side.
pub(crate) struct Region {
    pub start: usize,
    pub end: usize,
    pub similarity: f64,
}

/// Finds the window of the file most similar to `old`: line-hash votes on diagonals (rare
/// lines vote; frequent ones carry no information), then a similarity score on the best few.
pub(crate) fn closest_region(
    index: &mut LineIndex<'_>,
    old: &[&str],
    range: Range<usize>,
    exclude: Option<Range<usize>>,
    budget: &mut Budget,
) -> Option<Region> {
    let m = old.len();
    if m == 0 || range.is_empty() {
        return None;
    }
    let mut diagonals = diagonal_votes(index, old, range.clone(), budget);
    diagonals.truncate(if exclude.is_some() { 16 } else { 8 });
    if exclude.is_some() {
        // Looking for the best place away from one window: lines merely similar to the first
        // old-side lines propose places too.
        for (k, l) in old.iter().enumerate().take(4) {
            for (j, _) in closest_lines(index, l, range.clone(), 3, budget) {
                diagonals.push((j as isize - k as isize, 0));
            }
        }
    } else if diagonals.is_empty() {
        // Nothing shares a line: score windows by line similarity at a few spread positions.
        let step = (range.len() / 64).max(1);
        diagonals = range
            .clone()
            .step_by(step)
            .map(|s| (s as isize, 0))
            .collect();
    }
    best_window(index, old, &range, exclude.as_ref(), &diagonals)
}

/// Diagonals (file line minus old-side line) with the number of lines that vote for them,
/// most votes first. Lines occurring more than 64 times in `range` vote only when no rarer
/// line is shared.
fn diagonal_votes(
    index: &mut LineIndex<'_>,
    old: &[&str],
    range: Range<usize>,
    budget: &mut Budget,
) -> Vec<(isize, u32)> {
    let lines = index.lines();
    let mut buf = String::new();
    // The old side's lines as (fold-level hash, line), sorted: the lines of a key are one run,
    // named by the run's first position. 16 bytes a line; a hash map of vectors took about
    // 80 (a 50,000-line hunk: 4.2 MB).
    let mut keys: Vec<(u64, usize)> = old
        .iter()
        .enumerate()
        .map(|(i, l)| (hash_str(normalize(l, Level::Fold, &mut buf)), i))
        .collect();
    keys.sort_unstable();
    let run_of = |key: u64| {
        let at = keys.partition_point(|&(k, _)| k < key);
        keys.get(at).is_some_and(|&(k, _)| k == key).then_some(at)
    };
    let lines_of = |run: usize| {
        let key = keys[run].0;
        keys[run..]
            .iter()
            .take_while(move |&&(k, _)| k == key)
            .map(|&(_, i)| i)
    };
    // Occurrences of the keys in the range, in file order, as (run, file line): at most 65 a
    // key (65 make it frequent).
    let mut found = vec![0u8; keys.len()];
    let mut occurrences: Vec<(usize, usize)> = Vec::new();
    for j in range {
        if budget.charge(1).is_err() {
            break;
        }
        let key = hash_str(normalize(lines.get(j), Level::Fold, &mut buf));
        if let Some(run) = run_of(key) {
            if found[run] <= 64 {
                found[run] += 1;
                occurrences.push((run, j));
            }
        }
    }
    let mut votes: FxHashMap<isize, u32> = FxHashMap::default();
    let mut vote = |run: usize, j: usize| {
        for i in lines_of(run) {
            *votes.entry(j as isize - i as isize).or_default() += 1;
        }
    };
    let mut rare_seen = false;
    for &(run, j) in &occurrences {
        if found[run] <= 64 {
            rare_seen = true;
            vote(run, j);
        }
    }
    if !rare_seen {
        // Every shared line is frequent: the first 16 occurrences of each vote.
        let mut taken = vec![0u8; keys.len()];
        for &(run, j) in &occurrences {
            if taken[run] < 16 {
                taken[run] += 1;
                vote(run, j);
            }
        }
    }
    let mut diagonals: Vec<(isize, u32)> = votes.into_iter().collect();
    diagonals.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    diagonals
}

/// The window, among those the diagonals propose and away from `exclude`, whose lines are the
/// most similar to `old` on average.
fn best_window(
    index: &mut LineIndex<'_>,
    old: &[&str],
    range: &Range<usize>,
    exclude: Option<&Range<usize>>,
    diagonals: &[(isize, u32)],
) -> Option<Region> {
    let lines = index.lines();
    let m = old.len();
    // The windows are ranked on at most SCORED_LINES line comparisons in all (evenly spaced
    // lines of a long hunk); the winner is then scored on every line.
    let step = (m * diagonals.len()).div_ceil(SCORED_LINES).max(1);
    let score = |start: usize, end: usize, step: usize| -> f64 {
        let (mut total, mut count) = (0.0, 0usize);
        for (k, p) in old.iter().enumerate().step_by(step) {
            if start + k < end {
                total += similarity(lines.get(start + k), p);
            }
            count += 1;
        }
        total / count.max(1) as f64
    };
    let mut best: Option<Region> = None;
    for &(d, _) in diagonals {
        let start = d.clamp(range.start as isize, range.end as isize - 1) as usize;
        let end = (start + m).min(range.end);
        if exclude.is_some_and(|x| start < x.end && x.start < end.max(start + 1)) {
            continue;
        }
        let s = score(start, end, step);
        if best.as_ref().is_none_or(|b| s > b.similarity) {
            best = Some(Region {
                start,
                end,
                similarity: s,
            });
        }
    }
    if step > 1 {
        if let Some(b) = best.as_mut() {
            b.similarity = score(b.start, b.end, 1);
        }
    }
    best
}

/// How many line comparisons rank the candidate windows of one hunk.
const SCORED_LINES: usize = 1 << 16;
