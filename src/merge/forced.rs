//! Whether EVERY reading of the drift carries the patch's change to the same place (SPEC §3.2:
//! two readings are a refusal, never a guess).
//!
//! The diff of the base and the current text is one reading of the change made since the
//! model read the file: one alignment that keeps the most base lines. With repeated lines there
//! are often several such alignments, and the merge must not depend on which one the diff
//! happened to pick. So, for each change of the patch, the merge checks in all of them at
//! once (the prefix and suffix tables of the longest common subsequence):
//!
//! * a change that removes or replaces base lines `s..e`: its first and last line are kept by
//!   every alignment, each at one and the same current line (the lines between then follow:
//!   the diff's alignment keeps them all, and no alignment keeps more);
//! * a pure insertion at base position `p`: every alignment cuts the texts at `p` at the same
//!   current line (so no alignment puts a change made since at that very place, or around it).
//!
//! Then every alignment gives the merge the same text. The tables are computed in the band of
//! diagonals an alignment that keeps the most lines can use (`n × d` cells, `d` the lines
//! changed since), within [`MAX_CELLS`]; a drift too large to check is refused, not guessed.

use std::ops::Range;

use super::align::{intern, Reading};
use super::Edit;

/// The most table cells computed (each direction). A 10,000-line file with 5,000 lines
/// changed since stays well within it.
const MAX_CELLS: usize = 100_000_000;

/// What must be the same in every alignment for one change of the patch.
#[derive(Clone, Debug)]
pub(super) enum Need {
    /// Base line `i` is kept, at one current line.
    Line(usize),
    /// The texts are cut at base position `p` at one current line.
    Cut(usize),
}

/// A change of the patch that some alignment as good as the diff's carries elsewhere (or
/// drops): the first one found, as a [`Reading`] (`there` may be empty when the other
/// alignment removes the line instead), or `None` when every alignment agrees.
/// `needs`: (hunk, the base lines of the change, what must be fixed).
pub(super) fn unforced(
    base: &[&str],
    cur: &[&str],
    theirs: &[Edit],
    windows: &[Range<usize>],
    needs: &[(usize, Range<usize>, Need)],
) -> Option<Reading> {
    if theirs.is_empty() || needs.is_empty() {
        return None;
    }
    let Some(t) = Tables::new(base, cur, theirs, windows, needs) else {
        let (hunk, lines, _) = &needs[0];
        return Some(Reading {
            hunk: *hunk,
            lines: lines.clone(),
            here: lines.start,
            there: Vec::new(),
        });
    };
    // The places each hunk's lines stand together at in an alignment as good as the diff's.
    let placements: Vec<Vec<usize>> = windows.iter().map(|w| t.together(w)).collect();
    // When every hunk's lines can stand together, the alignments that keep them so are the
    // readings (the hunk's own lines say the others are not what the model saw).
    if placements.iter().all(|p| !p.is_empty()) {
        return windows
            .iter()
            .zip(&placements)
            .enumerate()
            .find_map(|(h, (w, p))| t.hunk_unforced(theirs, needs, h, w, p));
    }
    needs
        .iter()
        .find_map(|(hunk, lines, need)| t.need_unforced(theirs, *hunk, lines, need))
}

/// Whether every alignment as good as the diff's keeps each of base lines `lines`, each at
/// one current line (the same one in all of them). `false` when the drift is too large to
/// check.
pub(super) fn fixed_lines(base: &[&str], cur: &[&str], theirs: &[Edit], lines: &[usize]) -> bool {
    if theirs.is_empty() {
        return true;
    }
    let needs: Vec<_> = lines
        .iter()
        .map(|&i| (0, i..i + 1, Need::Line(i)))
        .collect();
    Tables::new(base, cur, theirs, &[], &needs).is_some_and(|t| lines.iter().all(|&i| t.fixed(i)))
}

/// The prefix and suffix tables of the longest common subsequence of the interned base `b`
/// and current text `c`, in the band, at the rows the checks read.
struct Tables {
    b: Vec<u32>,
    c: Vec<u32>,
    band: Band,
    f: Vec<(usize, Vec<i32>)>,
    g: Vec<(usize, Vec<i32>)>,
    /// The lines an alignment as good as the diff's keeps.
    opt: i32,
}

impl Tables {
    /// The tables for the rows the hunks' windows and the needs read; `None` when the band is
    /// over [`MAX_CELLS`] (a drift too large to check).
    fn new(
        base: &[&str],
        cur: &[&str],
        theirs: &[Edit],
        windows: &[Range<usize>],
        needs: &[(usize, Range<usize>, Need)],
    ) -> Option<Tables> {
        let (b, c) = intern(base, cur);
        let (n, m) = (b.len(), c.len());
        let kept = n - theirs.iter().map(|t| t.base.len()).sum::<usize>();
        let (dn, dm) = (n - kept.min(n), m - kept.min(m));
        let band = Band {
            dn,
            dm,
            w: dn + dm + 1,
        };
        if (n + 1).saturating_mul(band.w) > MAX_CELLS {
            return None;
        }
        let mut f_rows: Vec<usize> = Vec::new();
        let mut g_rows: Vec<usize> = Vec::new();
        for w in windows.iter().filter(|w| !w.is_empty()) {
            f_rows.push(w.start);
            g_rows.push(w.end);
        }
        for (_, lines, need) in needs {
            match *need {
                Need::Line(i) => {
                    f_rows.push(i);
                    g_rows.push(i + 1);
                }
                Need::Cut(p) => {
                    f_rows.extend([p, p.saturating_sub(1)]);
                    g_rows.extend([p, p + 1, p.min(n)]);
                }
            }
            f_rows.extend([lines.start.saturating_sub(1), lines.end.min(n)]);
            g_rows.extend([lines.start, (lines.end + 1).min(n)]);
        }
        let f = band.forward(&b, &c, &f_rows);
        let g = band.backward(&b, &c, &g_rows);
        Some(Tables {
            b,
            c,
            band,
            f,
            g,
            opt: kept as i32,
        })
    }

    fn n(&self) -> usize {
        self.b.len()
    }

    fn m(&self) -> usize {
        self.c.len()
    }

    fn at(&self, rows: &[(usize, Vec<i32>)], i: usize, j: usize) -> i32 {
        let row = rows.iter().find(|(r, _)| *r == i).map(|(_, v)| v);
        match (row, self.band.index(i, j)) {
            (Some(v), Some(k)) => v[k],
            _ => NEG,
        }
    }

    /// The prefix table: the most lines `b[..i]` and `c[..j]` keep.
    fn fw(&self, i: usize, j: usize) -> i32 {
        self.at(&self.f, i, j)
    }

    /// The suffix table: the most lines `b[i..]` and `c[j..]` keep.
    fn bw(&self, i: usize, j: usize) -> i32 {
        self.at(&self.g, i, j)
    }

    fn js(&self, i: usize) -> Range<usize> {
        self.band.columns(i, self.m())
    }

    /// The current lines at which base lines `w` stand together in an alignment as good as
    /// the diff's.
    fn together(&self, w: &Range<usize>) -> Vec<usize> {
        let m = self.m();
        if w.is_empty() || w.len() > m {
            return Vec::new();
        }
        self.js(w.start)
            .filter(|&j| j + w.len() <= m && self.b[w.clone()] == self.c[j..j + w.len()])
            .filter(|&j| {
                self.fw(w.start, j) + w.len() as i32 + self.bw(w.end, j + w.len()) == self.opt
            })
            .collect()
    }

    /// Hunk `h` (base lines `w`, standing together at current lines `p`) must have one such
    /// place, the diff's own, and nothing of the change made since at its ends where the
    /// patch inserts.
    fn hunk_unforced(
        &self,
        theirs: &[Edit],
        needs: &[(usize, Range<usize>, Need)],
        h: usize,
        w: &Range<usize>,
        p: &[usize],
    ) -> Option<Reading> {
        let here = map_kept(theirs, w.start);
        let split = theirs.iter().any(|t| {
            if t.base.is_empty() {
                w.start < t.base.start && t.base.start < w.end
            } else {
                t.base.start < w.end && w.start < t.base.end
            }
        });
        if p.len() > 1 || split || here != Some(p[0]) {
            return Some(Reading {
                hunk: h,
                lines: w.clone(),
                here: here.unwrap_or(p[0]),
                there: p.iter().copied().filter(|&j| Some(j) != here).collect(),
            });
        }
        let (j, m) = (p[0], self.m());
        needs
            .iter()
            .filter(|(hunk, _, _)| *hunk == h)
            .find_map(|(_, lines, need)| {
                let Need::Cut(q) = *need else { return None };
                let loose = (q == w.start && j > 0 && self.fw(q, j - 1) == self.fw(q, j))
                    || (q == w.end
                        && j + w.len() < m
                        && self.bw(q, j + w.len() + 1) == self.bw(q, j + w.len()));
                loose.then(|| Reading {
                    hunk: h,
                    lines: lines.clone(),
                    here: j,
                    there: Vec::new(),
                })
            })
    }

    /// Whether base line `i` is kept at one current line by every alignment, and dropped by
    /// none.
    fn fixed(&self, i: usize) -> bool {
        let (b, c, m, opt) = (&self.b, &self.c, self.m(), self.opt);
        let places = self
            .js(i)
            .filter(|&j| j < m && b[i] == c[j])
            .filter(|&j| self.fw(i, j) + 1 + self.bw(i + 1, j + 1) == opt)
            .count();
        places == 1 && !self.js(i).any(|j| self.fw(i, j) + self.bw(i + 1, j) == opt)
    }

    /// One change of the patch (base lines `lines`, of hunk `hunk`), checked in every
    /// alignment: the first reading found that carries it elsewhere, or drops it.
    fn need_unforced(
        &self,
        theirs: &[Edit],
        hunk: usize,
        lines: &Range<usize>,
        need: &Need,
    ) -> Option<Reading> {
        let (b, c, n, m, opt) = (&self.b, &self.c, self.n(), self.m(), self.opt);
        let unsure = |here| Reading {
            hunk,
            lines: lines.clone(),
            here,
            there: Vec::new(),
        };
        // A change the current text made too (the merge found them the same) is no guess
        // when no alignment keeps the line it removes.
        let shared = match *need {
            Need::Line(i) => map_kept(theirs, i).is_none(),
            Need::Cut(p) => theirs.iter().any(|t| t.base == (p..p)),
        };
        if shared {
            // (An insertion the current text made too: the lines around it must each be kept
            // at one place by every alignment.)
            let doubt = match *need {
                Need::Line(i) => {
                    self.js(i)
                        .filter(|&j| j < m && b[i] == c[j])
                        .any(|j| self.fw(i, j) + 1 + self.bw(i + 1, j + 1) == opt)
                        || (lines.start > 0 && !self.fixed(lines.start - 1))
                        || (lines.end < n && !self.fixed(lines.end))
                }
                Need::Cut(p) => (p > 0 && !self.fixed(p - 1)) || (p < n && !self.fixed(p)),
            };
            return doubt.then(|| unsure(lines.start));
        }
        let (places, dropped): (Vec<usize>, bool) = match *need {
            Need::Line(i) => (
                self.js(i)
                    .filter(|&j| j < m && b[i] == c[j])
                    .filter(|&j| self.fw(i, j) + 1 + self.bw(i + 1, j + 1) == opt)
                    .collect(),
                self.js(i).any(|j| self.fw(i, j) + self.bw(i + 1, j) == opt),
            ),
            // At either end of the file, every alignment must cut there at one line.
            Need::Cut(p) if p == 0 || p == n => (
                self.js(p)
                    .filter(|&j| self.fw(p, j) + self.bw(p, j) == opt)
                    .collect(),
                false,
            ),
            Need::Cut(p) => {
                insertion_places(b, c, p, opt, &|i, j| self.fw(i, j), &|i, j| self.bw(i, j))
            }
        };
        if places.len() == 1 && !dropped {
            return None;
        }
        Some(other_places(theirs, hunk, lines, need, &places, n))
    }
}

/// The reading of a change some alignment carries to `places` (or drops): where the diff's
/// alignment has it, and the other places, shown as the base lines around the change (for an
/// insertion, the line before it and the line after it).
fn other_places(
    theirs: &[Edit],
    hunk: usize,
    lines: &Range<usize>,
    need: &Need,
    places: &[usize],
    n: usize,
) -> Reading {
    let (lines, offset) = match *need {
        Need::Line(i) => (lines.clone(), i - lines.start),
        Need::Cut(p) => {
            let around = p.saturating_sub(1)..(p + 1).min(n);
            (around, usize::from(p > 0))
        }
    };
    let here_line = map_kept(theirs, lines.start + offset);
    let mut there: Vec<usize> = places
        .iter()
        .filter(|&&j| Some(j) != here_line)
        .map(|&j| j.saturating_sub(offset))
        .collect();
    there.sort_unstable();
    there.dedup();
    let here = here_line.map_or(lines.start, |h| h.saturating_sub(offset));
    there.retain(|&j| j != here);
    Reading {
        hunk,
        lines,
        here,
        there,
    }
}

/// Where an insertion at base position `p` (inside the file) lands in each alignment that
/// keeps `opt` lines (`f`, `g`: the prefix and suffix tables), and whether one of them has a
/// change of its own at that very place (lines inserted between base lines `p - 1` and `p`,
/// or a change of both): then the order is a guess. The insertion goes right after base line
/// `p - 1` where that is kept, else right before base line `p` (a change made since that ends
/// at `p` comes before it, one that starts there after it).
fn insertion_places(
    b: &[u32],
    c: &[u32],
    p: usize,
    opt: i32,
    f: &dyn Fn(usize, usize) -> i32,
    g: &dyn Fn(usize, usize) -> i32,
) -> (Vec<usize>, bool) {
    let m = c.len();
    let mut places = Vec::new();
    // Base line p - 1 kept at j: the insertion lands at j + 1.
    let kept_before: Vec<usize> = (0..m)
        .filter(|&j| b[p - 1] == c[j] && f(p - 1, j) + 1 + g(p, j + 1) == opt)
        .collect();
    places.extend(kept_before.iter().map(|&j| j + 1));
    // Base line p - 1 dropped and base line p kept at j: it lands at j.
    let mut overlap = false;
    for j in (0..m).filter(|&j| b[p] == c[j]) {
        if f(p - 1, j) + 1 + g(p + 1, j + 1) == opt {
            places.push(j);
        }
        // Lines inserted between the two kept base lines.
        if kept_before
            .iter()
            .any(|&i| i + 1 < j && f(p - 1, i) + 2 + g(p + 1, j + 1) == opt)
        {
            overlap = true;
        }
    }
    // Both lines dropped by one change.
    overlap |= (0..=m).any(|j| f(p - 1, j) + g(p + 1, j) == opt);
    places.sort_unstable();
    places.dedup();
    (places, overlap)
}

/// The current line the diff's alignment gives base line (or position) `i`.
fn map_kept(theirs: &[Edit], i: usize) -> Option<usize> {
    let mut shift = 0isize;
    for t in theirs {
        if t.base.end <= i && (t.base.start < i || t.base.is_empty()) {
            shift += t.side.len() as isize - t.base.len() as isize;
        } else if t.base.start <= i && i < t.base.end {
            return None;
        }
    }
    usize::try_from(i as isize + shift).ok()
}

/// A cell no alignment of the band reaches.
const NEG: i32 = i32::MIN / 4;

/// The diagonals `j - i` in `-dn..=dm` (`w` of them): every cell of an alignment that keeps
/// `n - dn` base lines lies on them, and the band's tables are exact on such cells.
struct Band {
    dn: usize,
    dm: usize,
    w: usize,
}

impl Band {
    /// The band index of cell (i, j), if it is in the band.
    fn index(&self, i: usize, j: usize) -> Option<usize> {
        let k = j as isize - i as isize + self.dn as isize;
        (0..self.w as isize).contains(&k).then_some(k as usize)
    }

    /// The columns of row `i` in the band (at most `m`).
    fn columns(&self, i: usize, m: usize) -> Range<usize> {
        i.saturating_sub(self.dn)..(i + self.dm).min(m) + 1
    }

    /// The rows `wanted` of the prefix table: `f[i][j]`, the most lines `b[..i]` and `c[..j]`
    /// keep (in the band).
    fn forward(&self, b: &[u32], c: &[u32], wanted: &[usize]) -> Vec<(usize, Vec<i32>)> {
        let (n, m, w) = (b.len(), c.len(), self.w);
        let mut out = Vec::new();
        let (mut prev, mut row) = (vec![NEG; w], vec![NEG; w]);
        for i in 0..=n {
            row.fill(NEG);
            for j in self.columns(i, m) {
                let k = j + self.dn - i;
                row[k] = if i == 0 || j == 0 {
                    0
                } else {
                    let mut v = if k + 1 < w { prev[k + 1] } else { NEG };
                    if k >= 1 {
                        v = v.max(row[k - 1]);
                    }
                    if b[i - 1] == c[j - 1] && prev[k] > NEG {
                        v = v.max(prev[k] + 1);
                    }
                    v
                };
            }
            if wanted.contains(&i) {
                out.push((i, row.clone()));
            }
            std::mem::swap(&mut prev, &mut row);
        }
        out
    }

    /// The rows `wanted` of the suffix table: `g[i][j]`, the most lines `b[i..]` and `c[j..]`
    /// keep (in the band).
    fn backward(&self, b: &[u32], c: &[u32], wanted: &[usize]) -> Vec<(usize, Vec<i32>)> {
        let (n, m, w) = (b.len(), c.len(), self.w);
        let mut out = Vec::new();
        let (mut next, mut row) = (vec![NEG; w], vec![NEG; w]);
        for i in (0..=n).rev() {
            row.fill(NEG);
            for j in self.columns(i, m).rev() {
                let k = j + self.dn - i;
                row[k] = if i == n || j == m {
                    0
                } else {
                    let mut v = if k >= 1 { next[k - 1] } else { NEG };
                    if k + 1 < w {
                        v = v.max(row[k + 1]);
                    }
                    if b[i] == c[j] && next[k] > NEG {
                        v = v.max(next[k] + 1);
                    }
                    v
                };
            }
            if wanted.contains(&i) {
                out.push((i, row.clone()));
            }
            std::mem::swap(&mut next, &mut row);
        }
        out
    }
}
