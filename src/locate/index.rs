//! The line index: every file line hashed once per level (lazily, only for the levels a search
//! reaches), and windows of lines found with a rolling hash over those line hashes. Only hash
//! hits are verified line by line, so a search costs O(lines + hits × pattern), never
//! O(lines × pattern). All work is charged to a [`Budget`].

use std::borrow::Cow;
use std::ops::Range;
use std::sync::Arc;

use rustc_hash::FxHashMap;
use unicode_normalization::UnicodeNormalization;

use super::postings::{self, Postings};
use super::prefilter;
use crate::error::{Error, Status};
use crate::level::{
    fold_map, is_ws_byte, normalize, normalize_cow, trim_end_ws, trim_ws, Folded, Level,
};
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

    /// The allowance, in units of work.
    pub(crate) fn limit(&self) -> u64 {
        self.limit
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

/// The multiplier of [`KeyHasher`]'s word mix (FxHash's).
const MIX: u64 = 0x517C_C1B7_2722_0A95;

/// A 64-bit hash of a byte stream that does not depend on how the stream is cut into pieces:
/// the normalised form of a line can be hashed as it is produced, word by word or character by
/// character, and equals the hash of the whole string ([`hash_str`]). Nothing is allocated.
#[derive(Default)]
struct KeyHasher {
    h: u64,
    /// Bytes not yet mixed in (little-endian), `fill` of them.
    word: u64,
    fill: u32,
    len: u64,
}

impl KeyHasher {
    #[inline(always)]
    fn mix(&mut self, w: u64) {
        self.h = (self.h.rotate_left(5) ^ w).wrapping_mul(MIX);
    }

    #[inline]
    fn write(&mut self, mut b: &[u8]) {
        self.len = self.len.wrapping_add(b.len() as u64);
        while self.fill != 0 {
            let Some((&first, rest)) = b.split_first() else {
                return;
            };
            self.word |= u64::from(first) << (8 * self.fill);
            self.fill += 1;
            b = rest;
            if self.fill == 8 {
                let w = self.word;
                self.mix(w);
                self.word = 0;
                self.fill = 0;
            }
        }
        let mut words = b.chunks_exact(8);
        for w in &mut words {
            let mut a = [0u8; 8];
            a.copy_from_slice(w);
            self.mix(u64::from_le_bytes(a));
        }
        // Fewer than eight bytes, and `fill` is zero here.
        let tail = words.remainder();
        let mut a = [0u8; 8];
        a[..tail.len()].copy_from_slice(tail);
        self.word = u64::from_le_bytes(a);
        self.fill = tail.len() as u32;
    }

    fn finish(mut self) -> u64 {
        let (w, len) = (self.word, self.len);
        self.mix(w);
        self.mix(len);
        let h = self.h;
        (h ^ (h >> 29)).wrapping_mul(BASE)
    }
}

pub(crate) fn hash_str(s: &str) -> u64 {
    let mut h = KeyHasher::default();
    h.write(s.as_bytes());
    h.finish()
}

/// The hash of `line` normalised at `level`, equal to `hash_str(normalize(line, level, _))`,
/// computed without building the normalised line.
fn line_key(line: &str, level: Level) -> u64 {
    let mut h = KeyHasher::default();
    stream_normalized(line, level, &mut |piece| {
        h.write(piece);
        true
    });
    h.finish()
}

/// True when `line` normalised at `level` equals `normalized` (an already normalised line),
/// decided without building the normalised line; the first differing piece ends it.
fn normalized_eq(line: &str, level: Level, normalized: &str) -> bool {
    match level {
        Level::Exact => return line == normalized,
        Level::TrimEnd => return trim_end_ws(line) == normalized,
        Level::Trim => return trim_ws(line) == normalized,
        Level::Collapse | Level::Fold => {}
    }
    if let Some(eq) = plain_prefix_decides(trim_ws(line).as_bytes(), level, normalized.as_bytes()) {
        return eq;
    }
    let mut rest = normalized.as_bytes();
    let whole = stream_normalized(line, level, &mut |piece| match rest.strip_prefix(piece) {
        Some(r) => {
            rest = r;
            true
        }
        None => false,
    });
    whole && rest.is_empty()
}

/// Decides a collapse- or fold-level comparison of a trimmed line `t` with a normalised line
/// `p` from their common prefix alone, when that prefix is plain: ASCII in `p` (so it is its
/// own normal form in `t` too: single spaces, no folding) and followed in `t` by a byte that
/// normalisation keeps where it is (an ASCII non-space, not followed by a byte that could
/// compose with it at the fold level). Then the normalised `t` starts with the prefix and that
/// byte, and differs from `p` there. `None`: the streaming comparison decides. Most lines
/// differ from a pattern line within a few bytes, so this is the common answer.
#[inline]
fn plain_prefix_decides(t: &[u8], level: Level, p: &[u8]) -> Option<bool> {
    let l = common_prefix(t, p);
    if !p[..l].is_ascii() {
        return None;
    }
    if l == t.len() {
        // `t` is an ASCII, single-spaced prefix of `p` (or all of it): its own normal form.
        return Some(l == p.len());
    }
    let next = t[l];
    if next >= 0x80 || is_ws_byte(next) {
        return None;
    }
    if level == Level::Fold && t.get(l + 1).is_some_and(|&b| b >= 0x80) {
        return None;
    }
    // `p[l]` differs from `next`, or `p` ends at `l`.
    Some(false)
}

/// The length of the longest common prefix of `a` and `b`, eight bytes at a time.
#[inline]
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let mut i = 0;
    while i + 8 <= n {
        let mut x = [0u8; 8];
        let mut y = [0u8; 8];
        x.copy_from_slice(&a[i..i + 8]);
        y.copy_from_slice(&b[i..i + 8]);
        let d = u64::from_le_bytes(x) ^ u64::from_le_bytes(y);
        if d != 0 {
            return i + (d.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < n && a[i] == b[i] {
        i += 1;
    }
    i
}

/// Feeds the normalised form of `line` at `level` (what [`normalize`] returns) to `sink` in
/// pieces, building nothing; stops as soon as `sink` returns false, and then returns false.
/// Memory is constant whatever the line (NFKC's own buffer aside, which holds one run of
/// combining marks).
fn stream_normalized(line: &str, level: Level, sink: &mut impl FnMut(&[u8]) -> bool) -> bool {
    let t = match level {
        Level::Exact => return sink(line.as_bytes()),
        Level::TrimEnd => return sink(trim_end_ws(line).as_bytes()),
        Level::Trim => return sink(trim_ws(line).as_bytes()),
        Level::Collapse | Level::Fold => trim_ws(line),
    };
    let fold = level == Level::Fold;
    let b = t.as_bytes();
    let mut c = Collapser::default();
    let mut i = 0;
    while i < b.len() {
        if is_ws_byte(b[i]) {
            c.pending = c.started;
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && !is_ws_byte(b[i]) && !(fold && b[i] >= 0x80) {
            i += 1;
        }
        if i < b.len() && fold && b[i] >= 0x80 {
            // Unicode from here: the ASCII character before it may compose with what follows,
            // so NFKC starts there (an ASCII character is a starter that nothing before it
            // composes with, so NFKC of the rest is the rest of NFKC of the whole).
            let from = if i > start { i - 1 } else { i };
            if from > start && !c.word(&b[start..from], sink) {
                return false;
            }
            return c.unicode(&t[from..], sink);
        }
        if !c.word(&b[start..i], sink) {
            return false;
        }
    }
    true
}

/// The collapse of a stream of characters: runs of ASCII whitespace become one space between
/// words, and none at either end.
#[derive(Default)]
struct Collapser {
    /// Some word was emitted.
    started: bool,
    /// Whitespace after a word: a space is due before the next one.
    pending: bool,
}

impl Collapser {
    /// Emits (a piece of) a word.
    fn word(&mut self, w: &[u8], sink: &mut impl FnMut(&[u8]) -> bool) -> bool {
        if self.pending {
            self.pending = false;
            if !sink(b" ") {
                return false;
            }
        }
        self.started = true;
        sink(w)
    }

    /// Emits the NFKC and fold of `s`, collapsed.
    fn unicode(&mut self, s: &str, sink: &mut impl FnMut(&[u8]) -> bool) -> bool {
        for n in s.nfkc() {
            let ok = match fold_map(n) {
                Folded::Gone => true,
                Folded::Char(f) => self.char(f, sink),
                Folded::Str(f) => f.chars().all(|f| self.char(f, sink)),
            };
            if !ok {
                return false;
            }
        }
        true
    }

    fn char(&mut self, f: char, sink: &mut impl FnMut(&[u8]) -> bool) -> bool {
        if f.is_ascii() && is_ws_byte(f as u8) {
            self.pending = self.started;
            return true;
        }
        let mut buf = [0u8; 4];
        self.word(f.encode_utf8(&mut buf).as_bytes(), sink)
    }
}

/// The rolling hash of a window of line keys.
fn window_hash_keys<K: LineKey>(keys: &[K]) -> u64 {
    keys.iter()
        .fold(0u64, |h, &k| h.wrapping_mul(BASE).wrapping_add(k.wide()))
}

/// A line hash as the index stores it: 32 bits of it, or 16 in a file of tiny lines (under 8
/// bytes a line on average), so that the index stays within a few bytes a line whatever the
/// lines. Keys only propose candidates: every hit is verified line by line, so a narrower key
/// costs only more verifications, never a wrong answer.
pub(crate) trait LineKey: Copy + Eq + Ord + Send + Sync + 'static {
    /// The key of a 64-bit line hash.
    fn of(hash: u64) -> Self;
    /// The key as a number, for the rolling window hash.
    fn wide(self) -> u64;
}

impl LineKey for u32 {
    #[inline(always)]
    fn of(hash: u64) -> u32 {
        (hash >> 32) as u32
    }
    #[inline(always)]
    fn wide(self) -> u64 {
        u64::from(self)
    }
}

impl LineKey for u16 {
    #[inline(always)]
    fn of(hash: u64) -> u16 {
        (hash >> 48) as u16
    }
    #[inline(always)]
    fn wide(self) -> u64 {
        u64::from(self)
    }
}

/// One level's line keys. Levels whose keys are the same for every line (a file with no
/// whitespace to trim and nothing to fold) share one vector.
pub(crate) enum Keys {
    /// 16-bit keys (a file of tiny lines).
    Narrow(Vec<u16>),
    /// 32-bit keys.
    Wide(Vec<u32>),
}

/// The keys of every line at `level`; `None` when they equal `base`'s line for line (then the
/// level shares `base`), decided while they are computed so that no second vector is built.
fn build_keys<K: LineKey>(lines: &Lines<'_>, level: Level, base: Option<&[K]>) -> Option<Vec<K>> {
    let n = lines.len();
    let key = |i: usize| K::of(line_key(lines.get(i), level));
    let mut same = 0;
    if let Some(b) = base {
        while same < n && key(same) == b[same] {
            same += 1;
        }
        if same == n {
            return None;
        }
    }
    let mut out = Vec::with_capacity(n);
    if let Some(b) = base {
        out.extend_from_slice(&b[..same]);
    }
    out.extend((same..n).map(key));
    Some(out)
}

/// The hash of a whole pattern (its lines' hashes and its length), for the exact-match cache.
fn pattern_hash<S: AsRef<str>>(lines: &[S]) -> u64 {
    lines.iter().fold(lines.len() as u64, |h, s| {
        h.wrapping_mul(BASE).wrapping_add(hash_str(s.as_ref()))
    })
}

/// Every exact match of some patterns, found together in one pass ([`LineIndex::prefetch_exact`]).
/// A pattern is looked up by its lines, never by a hash alone: two patterns with the same hash
/// must not share an answer. A pattern found somewhere is compared with the file's lines at its
/// first match (they equal it, so a query equal to them is the pattern), and only its line count
/// is kept; a pattern found nowhere keeps its lines (joined by `\n`, which no patch line holds).
/// Flat, so that thousands of hunks cost a few bytes each.
#[derive(Default)]
struct ExactCache {
    /// Pattern hash to its entry (the first pattern with that hash; a colliding one is not cached).
    by_hash: FxHashMap<u64, u32>,
    /// Per entry `[a, b, c, d]`: its matches' range `c..d` in `starts`; with matches, `a` is
    /// its line count (`b` unused); without, `a..b` is its lines' range in `text`.
    entries: Vec<[u32; 4]>,
    text: String,
    starts: Vec<u32>,
}

impl ExactCache {
    /// Room for `entries` more entries and `starts` more matches (the prefetch knows both).
    fn reserve(&mut self, entries: usize, starts: usize) {
        self.by_hash.reserve(entries);
        self.entries.reserve_exact(entries);
        self.starts.reserve_exact(starts);
    }

    /// Caches `lines`' matches `starts` (file order); nothing when the offsets do not fit.
    fn insert(&mut self, lines: &[&str], starts: &[u32]) {
        let h = pattern_hash(lines);
        if self.by_hash.contains_key(&h) {
            return;
        }
        let Ok(entry) = u32::try_from(self.entries.len()) else {
            return;
        };
        let t0 = self.text.len();
        let s0 = self.starts.len();
        let (a, b) = if starts.is_empty() {
            for (k, l) in lines.iter().enumerate() {
                if k > 0 {
                    self.text.push('\n');
                }
                self.text.push_str(l);
            }
            (t0, self.text.len())
        } else {
            (lines.len(), 0)
        };
        match [a, b, s0, s0 + starts.len()].map(u32::try_from) {
            [Ok(a), Ok(b), Ok(c), Ok(d)] => {
                self.starts.extend_from_slice(starts);
                self.entries.push([a, b, c, d]);
                self.by_hash.insert(h, entry);
            }
            _ => self.text.truncate(t0),
        }
    }

    /// The cached matches of the pattern `lines` in the file `file`, if it was prefetched.
    fn get(&self, lines: &[Cow<'_, str>], file: &Lines<'_>) -> Option<&[u32]> {
        let &e = self.by_hash.get(&pattern_hash(lines))?;
        let [a, b, c, d] = *self.entries.get(e as usize)?;
        let starts = self.starts.get(c as usize..d as usize)?;
        if let Some(&first) = starts.first() {
            // The cached pattern equals the file's lines at its first match.
            let at = first as usize;
            let same = lines.len() == a as usize
                && at + lines.len() <= file.len()
                && lines
                    .iter()
                    .enumerate()
                    .all(|(k, l)| file.get(at + k) == l.as_ref());
            return same.then_some(starts);
        }
        let mut rest = self.text.get(a as usize..b as usize)?;
        for (k, l) in lines.iter().enumerate() {
            if k > 0 {
                rest = rest.strip_prefix('\n')?;
            }
            rest = rest.strip_prefix(l.as_ref())?;
        }
        rest.is_empty().then_some(starts)
    }
}

/// The patterns [`LineIndex::prefetch_exact`] can look for in a file of `n` lines (`ids`: the
/// non-empty ones no longer than the file), their keys flat (pattern j's are
/// `pkeys[from[j]..from[j + 1]]`). Pattern numbers, key offsets, counts and starts are `u32`s
/// (the cache keeps `u32` starts): `None` for a file or patterns of 2^32 lines or more (left
/// to ordinary scans) or when no pattern can match.
fn pattern_keys<'p, K: LineKey, P: AsRef<[&'p str]>>(
    patterns: &[P],
    n: usize,
) -> Option<(Vec<u32>, Vec<K>, Vec<u32>)> {
    let total: usize = patterns.iter().map(|p| p.as_ref().len()).sum();
    if u32::try_from(n).is_err() || u32::try_from(total.max(patterns.len())).is_err() {
        return None;
    }
    let ids: Vec<u32> = (0..patterns.len())
        .filter(|&i| !patterns[i].as_ref().is_empty() && patterns[i].as_ref().len() <= n)
        .map(|i| i as u32)
        .collect();
    if ids.is_empty() {
        return None;
    }
    let mut pkeys: Vec<K> = Vec::with_capacity(total);
    let mut from: Vec<u32> = Vec::with_capacity(ids.len() + 1);
    for &i in &ids {
        from.push(pkeys.len() as u32);
        pkeys.extend(
            patterns[i as usize]
                .as_ref()
                .iter()
                .map(|l| K::of(hash_str(l))),
        );
    }
    from.push(pkeys.len() as u32);
    Some((ids, pkeys, from))
}

/// Searches at one level answered without line hashes before the hashes are computed (each
/// costs a pass over the range; the hashes pay for themselves when the level is searched often).
const LAZY_SCANS: u32 = 4;

/// Lines equal to a pattern's longest line beyond which a search computes the line hashes.
const RARE_LINE_CAP: usize = 256;

/// A sequence of pattern lines with their normalised forms cached per level.
pub(crate) struct Pattern<'p> {
    lines: Vec<&'p str>,
    normalized: [Option<Vec<Cow<'p, str>>>; 5],
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

    fn normalized(&mut self, level: Level) -> &[Cow<'p, str>] {
        let slot = &mut self.normalized[level as usize];
        if slot.is_none() {
            *slot = Some(self.lines.iter().map(|l| normalize_cow(l, level)).collect());
        }
        slot.as_deref().unwrap_or_default()
    }

    /// Frees the lines normalised at `level` (computed again if asked for): the search moves
    /// on to a looser level and holds one level's lines at a time (a long pattern's are
    /// megabytes; at the exact level they only borrow, so they are cheap to make again).
    fn forget(&mut self, level: Level) {
        self.normalized[level as usize] = None;
    }
}

/// The file's lines with lazily computed per-level line hashes.
pub(crate) struct LineIndex<'a> {
    lines: &'a Lines<'a>,
    keys: [Option<Arc<Keys>>; 5],
    /// Whether keys are 16-bit (a file of tiny lines, see [`LineKey`]).
    narrow: bool,
    /// The text's length in bytes.
    bytes: usize,
    /// Searches done per level without line hashes ([`LineIndex::scan_rare_line`]).
    lazy_scans: [u32; 5],
    scratch: String,
    /// Every exact match of some patterns, found together in one pass (see
    /// [`LineIndex::prefetch_exact`]).
    exact_cache: ExactCache,
    /// Whether some line ends in whitespace (computed on first use).
    trailing_ws: Option<bool>,
    /// Per level: where each line hash occurs, once window scans have covered the file
    /// several times over, and the lines scanned until then.
    postings: [(Option<Arc<Postings>>, usize); 5],
}

impl<'a> LineIndex<'a> {
    pub(crate) fn new(lines: &'a Lines<'a>) -> LineIndex<'a> {
        let n = lines.len();
        let bytes = lines.slice(0, n).len();
        LineIndex {
            lines,
            keys: Default::default(),
            narrow: bytes < n.saturating_mul(8),
            bytes,
            lazy_scans: [0; 5],
            scratch: String::new(),
            exact_cache: ExactCache::default(),
            trailing_ws: None,
            postings: Default::default(),
        }
    }

    /// True when some line of the file ends in whitespace. When none does, a trim-end match
    /// of lines that also match exactly is an exact match, and no trim-end search is needed.
    pub(crate) fn any_trailing_ws(&mut self, budget: &mut Budget) -> Result<bool, Error> {
        if let Some(t) = self.trailing_ws {
            return Ok(t);
        }
        budget.charge(self.lines.len() as u64)?;
        let t = (0..self.lines.len()).any(|i| {
            self.lines
                .get(i)
                .chars()
                .next_back()
                .is_some_and(char::is_whitespace)
        });
        self.trailing_ws = Some(t);
        Ok(t)
    }

    pub(crate) fn lines(&self) -> &'a Lines<'a> {
        self.lines
    }

    pub(crate) fn len(&self) -> usize {
        self.lines.len()
    }

    /// The line keys at `level`, computing them on first use (shared with a level computed
    /// before when they are the same for every line).
    fn keys(&mut self, level: Level, budget: &mut Budget) -> Result<Arc<Keys>, Error> {
        if let Some(k) = &self.keys[level as usize] {
            return Ok(Arc::clone(k));
        }
        budget.charge(self.lines.len() as u64)?;
        let base = self.keys.iter().flatten().next().cloned();
        let lines = self.lines;
        let built = match (self.narrow, base.as_deref()) {
            (true, Some(Keys::Narrow(b))) => build_keys(lines, level, Some(b)).map(Keys::Narrow),
            (false, Some(Keys::Wide(b))) => build_keys(lines, level, Some(b)).map(Keys::Wide),
            (true, _) => build_keys::<u16>(lines, level, None).map(Keys::Narrow),
            (false, _) => build_keys::<u32>(lines, level, None).map(Keys::Wide),
        };
        let keys = match (built, base) {
            (Some(k), _) => Arc::new(k),
            (None, Some(b)) => b,
            (None, None) => Arc::new(Keys::Wide(Vec::new())),
        };
        self.keys[level as usize] = Some(Arc::clone(&keys));
        Ok(keys)
    }

    /// True when file line `i` equals `normalized_pattern` at `level`.
    fn line_matches(&self, i: usize, level: Level, normalized_pattern: &str) -> bool {
        normalized_eq(self.lines.get(i), level, normalized_pattern)
    }

    /// True when file line `i` equals the pattern line `p` at `level`.
    pub(crate) fn line_eq(&mut self, i: usize, level: Level, p: &str) -> bool {
        let mut buf = String::new();
        let np = normalize(p, level, &mut buf);
        normalized_eq(self.lines.get(i), level, np)
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
        let pnorm = pattern.normalized(level);
        if level == Level::Exact && !self.exact_cache.entries.is_empty() {
            if let Some(all) = self.exact_cache.get(pnorm, self.lines) {
                let from = all.partition_point(|&s| (s as usize) < range.start);
                let cached: Vec<usize> = all[from..]
                    .iter()
                    .map(|&s| s as usize)
                    .take_while(|&s| s + m <= range.end)
                    .collect();
                // Remembered candidates are verified like fresh hash hits.
                let mut hits = cached;
                let mut found = Vec::new();
                self.verify(&mut hits, pnorm, level, limit, &mut found, budget)?;
                return Ok(found);
            }
        }
        if self.keys[level as usize].is_none() && self.lazy_scans[level as usize] < LAZY_SCANS {
            self.lazy_scans[level as usize] += 1;
            if let Some(found) = self.scan_rare_line(pnorm, level, range.clone(), limit, budget)? {
                return Ok(found);
            }
        }
        let keys = self.keys(level, budget)?;
        if self.postings[level as usize].0.is_none() {
            // A level sharing its keys with another shares that level's postings too.
            let shared = (0..5).find_map(|l| {
                let same = self.keys[l].as_ref().is_some_and(|k| Arc::ptr_eq(k, &keys));
                same.then(|| self.postings[l].0.clone()).flatten()
            });
            self.postings[level as usize].0 = shared;
        }
        match &*keys {
            Keys::Narrow(k) => self.search_keyed(k, pnorm, level, range, limit, budget),
            Keys::Wide(k) => self.search_keyed(k, pnorm, level, range, limit, budget),
        }
    }

    /// [`LineIndex::find_windows`] once the level's keys are there: from the postings when
    /// they answer, else by a rolling scan.
    fn search_keyed<K: LineKey>(
        &mut self,
        keys: &[K],
        pnorm: &[Cow<'_, str>],
        level: Level,
        range: Range<usize>,
        limit: usize,
        budget: &mut Budget,
    ) -> Result<Vec<usize>, Error> {
        match self.posting_hits(keys, pnorm, level, range.clone(), budget)? {
            Some(mut hits) => {
                let mut found = Vec::new();
                self.verify(&mut hits, pnorm, level, limit, &mut found, budget)?;
                Ok(found)
            }
            None => self.scan(keys, pnorm, level, range, limit, budget),
        }
    }

    /// The windows of `range` whose line hashes equal the pattern's at `level`, from the
    /// level's postings (built once scans at this level have covered the file several times);
    /// `None` when there are none or the pattern's rarest line is too common there, and the
    /// range is scanned instead. The candidates still need [`LineIndex::verify`].
    fn posting_hits<K: LineKey>(
        &mut self,
        keys: &[K],
        pnorm: &[Cow<'_, str>],
        level: Level,
        range: Range<usize>,
        budget: &mut Budget,
    ) -> Result<Option<Vec<usize>>, Error> {
        let n = self.len();
        let len = range.end - range.start;
        let slot = &mut self.postings[level as usize];
        if slot.0.is_none() {
            slot.1 = slot.1.saturating_add(len);
            if !postings::worth_building(slot.1, n, self.bytes) {
                return Ok(None);
            }
            budget.charge(n as u64)?;
            slot.0 = Postings::new(keys).map(Arc::new);
        }
        let Some(p) = &slot.0 else {
            return Ok(None);
        };
        let pkeys: Vec<K> = pnorm.iter().map(|l| K::of(hash_str(l))).collect();
        let mut work = 0;
        let hits = p.windows(keys, &pkeys, range, len / 4, &mut work);
        budget.charge(work)?;
        Ok(hits)
    }

    /// The windows of `range` that match, found without line hashes: every line where the
    /// pattern's longest (so likely rarest) normalised line could sit is compared with it,
    /// which usually ends at its first bytes, and the windows around the lines equal to it are
    /// verified. `None` when that line matches more than [`RARE_LINE_CAP`] lines (a repetitive
    /// file: the hashed scan is bounded whatever the repetition) or is empty.
    fn scan_rare_line(
        &mut self,
        pnorm: &[Cow<'_, str>],
        level: Level,
        range: Range<usize>,
        limit: usize,
        budget: &mut Budget,
    ) -> Result<Option<Vec<usize>>, Error> {
        let m = pnorm.len();
        let rare = (0..m).fold(0, |best, k| {
            if pnorm[k].len() > pnorm[best].len() {
                k
            } else {
                best
            }
        });
        let p: &str = &pnorm[rare];
        if p.is_empty() {
            return Ok(None);
        }
        budget.charge((range.end - range.start) as u64)?;
        if let Some(mut hits) =
            prefilter::window_starts(self.lines, pnorm, level, range.clone(), RARE_LINE_CAP)
        {
            let mut found = Vec::new();
            self.verify(&mut hits, pnorm, level, limit, &mut found, budget)?;
            return Ok(Some(found));
        }
        let mut hits = Vec::new();
        for i in range.start + rare..=range.end - m + rare {
            if self.line_matches(i, level, p) {
                if hits.len() == RARE_LINE_CAP {
                    return Ok(None);
                }
                hits.push(i - rare);
            }
        }
        let mut found = Vec::new();
        self.verify(&mut hits, pnorm, level, limit, &mut found, budget)?;
        Ok(Some(found))
    }

    fn scan<K: LineKey>(
        &mut self,
        keys: &[K],
        pnorm: &[Cow<'_, str>],
        level: Level,
        range: Range<usize>,
        limit: usize,
        budget: &mut Budget,
    ) -> Result<Vec<usize>, Error> {
        let m = pnorm.len();
        let pkeys: Vec<K> = pnorm.iter().map(|l| K::of(hash_str(l))).collect();
        let target = window_hash_keys(&pkeys);
        let mut found = Vec::new();
        budget.charge((range.end - range.start) as u64)?;
        let high = (1..m).fold(1u64, |p, _| p.wrapping_mul(BASE));
        let mut h = window_hash_keys(&keys[range.start..range.start + m]);
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
                .wrapping_sub(keys[start].wide().wrapping_mul(high))
                .wrapping_mul(BASE)
                .wrapping_add(keys[start + m].wide());
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
        pnorm: &[Cow<'_, str>],
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

    /// Finds every exact match of all `patterns` in one pass over the file, so that hunks
    /// searched afterwards need no scan of their own. A rolling hash over the shortest pattern
    /// length finds seeds; each seed is checked against the patterns that start with it.
    /// Patterns with more than `cap` matches are left to ordinary scans.
    pub(crate) fn prefetch_exact<'p, P: AsRef<[&'p str]>>(
        &mut self,
        patterns: &[P],
        cap: usize,
        budget: &mut Budget,
    ) -> Result<(), Error> {
        let keys = self.keys(Level::Exact, budget)?;
        match &*keys {
            Keys::Narrow(k) => self.prefetch_keyed(k, patterns, cap, budget),
            Keys::Wide(k) => self.prefetch_keyed(k, patterns, cap, budget),
        }
    }

    /// [`LineIndex::prefetch_exact`] with the exact keys `keys`. Flat arrays throughout (one
    /// vector of all the patterns' keys, the patterns sorted by the hash of their first lines
    /// with a bit filter in front), so thousands of hunks cost a few bytes each.
    fn prefetch_keyed<'p, K: LineKey, P: AsRef<[&'p str]>>(
        &mut self,
        keys: &[K],
        patterns: &[P],
        cap: usize,
        budget: &mut Budget,
    ) -> Result<(), Error> {
        let n = self.len();
        let Some((ids, pkeys, from)) = pattern_keys::<K, P>(patterns, n) else {
            return Ok(());
        };
        let k = ids
            .iter()
            .map(|&i| patterns[i as usize].as_ref().len())
            .min()
            .unwrap_or(0);
        let keys_of = |j: usize| from[j] as usize..from[j + 1] as usize;
        // Patterns by the hash of their first k keys, and a filter of those hashes' low bits.
        const FILTER_BITS: u32 = 16;
        let mut filter = vec![0u64; 1 << (FILTER_BITS - 6)];
        let bit = |h: u64| (h & ((1 << FILTER_BITS) - 1)) as usize;
        let mut seeds: Vec<(u64, usize)> = (0..ids.len())
            .map(|j| (window_hash_keys(&pkeys[keys_of(j)][..k]), j))
            .collect();
        seeds.sort_unstable();
        for &(h, _) in &seeds {
            filter[bit(h) / 64] |= 1 << (bit(h) % 64);
        }
        // (pattern, start) of every match, in file order; matches counted per pattern.
        let mut found: Vec<(u32, u32)> = Vec::new();
        let mut count = vec![0u32; ids.len()];
        budget.charge(n as u64)?;
        let high = (1..k).fold(1u64, |p, _| p.wrapping_mul(BASE));
        let mut h = window_hash_keys(&keys[..k]);
        for start in 0..=n - k {
            if start > 0 {
                h = h
                    .wrapping_sub(keys[start - 1].wide().wrapping_mul(high))
                    .wrapping_mul(BASE)
                    .wrapping_add(keys[start + k - 1].wide());
            }
            if filter[bit(h) / 64] & (1 << (bit(h) % 64)) == 0 {
                continue;
            }
            let first = seeds.partition_point(|&(s, _)| s < h);
            for &(_, j) in seeds[first..].iter().take_while(|&&(s, _)| s == h) {
                let p = patterns[ids[j] as usize].as_ref();
                if count[j] as usize > cap || start + p.len() > n {
                    continue;
                }
                budget.charge(p.len() as u64)?;
                if keys[start..start + p.len()] == pkeys[keys_of(j)]
                    && p.iter()
                        .enumerate()
                        .all(|(q, l)| self.lines.get(start + q) == *l)
                {
                    count[j] += 1;
                    if count[j] as usize <= cap {
                        // Both fit: j < ids.len() and start < n, checked above.
                        found.push((j as u32, start as u32));
                    }
                }
            }
        }
        drop(seeds);
        drop(pkeys);
        self.cache_found(patterns, &ids, found, &count, cap);
        Ok(())
    }

    /// Stores the matches `found` ((pattern, start), in file order) of the patterns `ids` in
    /// the exact cache, but for the patterns with more than `cap` matches.
    fn cache_found<'p, P: AsRef<[&'p str]>>(
        &mut self,
        patterns: &[P],
        ids: &[u32],
        mut found: Vec<(u32, u32)>,
        count: &[u32],
        cap: usize,
    ) {
        // Stable: each pattern's matches stay in file order.
        found.sort_by_key(|&(j, _)| j);
        self.exact_cache.reserve(ids.len(), found.len());
        let mut at = 0;
        let mut starts = Vec::new();
        for (j, &i) in ids.iter().enumerate() {
            starts.clear();
            while at < found.len() && found[at].0 as usize == j {
                starts.push(found[at].1);
                at += 1;
            }
            if count[j] as usize <= cap {
                self.exact_cache
                    .insert(patterns[i as usize].as_ref(), &starts);
            }
        }
    }

    /// Windows in `range` at the strictest level up to `max` that has any, in file order (at
    /// most `limit`). Exact matches are looked for first; looser levels are then searched in
    /// one pass at `max`, and each hit is classified by the strictest level its window matches
    /// at — the same answer as searching level by level, with one index instead of four.
    pub(crate) fn search(
        &mut self,
        pattern: &mut Pattern<'_>,
        max: Level,
        range: Range<usize>,
        limit: usize,
        budget: &mut Budget,
    ) -> Result<Option<(Level, Vec<usize>)>, Error> {
        let found = self.find_windows(pattern, Level::Exact, range.clone(), limit, budget)?;
        if !found.is_empty() {
            return Ok(Some((Level::Exact, found)));
        }
        if max == Level::Exact {
            return Ok(None);
        }
        pattern.forget(Level::Exact);
        const CLASSIFY_CAP: usize = 256;
        let hits = self.find_windows(pattern, max, range.clone(), CLASSIFY_CAP + 1, budget)?;
        if hits.len() > CLASSIFY_CAP {
            // Too many loose candidates to classify one by one: search level by level.
            for &level in &max.up_to()[1..] {
                let found = self.find_windows(pattern, level, range.clone(), limit, budget)?;
                if !found.is_empty() {
                    return Ok(Some((level, found)));
                }
            }
            return Ok(None);
        }
        let mut best: Option<(Level, Vec<usize>)> = None;
        for s in hits {
            let mut level = max;
            for &l in &max.up_to()[1..] {
                if self.window_matches(pattern, l, s, budget)? {
                    level = l;
                    break;
                }
            }
            match &mut best {
                Some((b, v)) if *b == level => v.push(s),
                Some((b, _)) if *b < level => {}
                _ => best = Some((level, vec![s])),
            }
        }
        Ok(best.map(|(l, mut v)| {
            v.truncate(limit);
            (l, v)
        }))
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
        let pnorm = pattern.normalized(level);
        Ok(pnorm
            .iter()
            .enumerate()
            .all(|(k, p)| self.line_matches(start + k, level, p)))
    }

    /// Lines in `range` whose form at `level` is `a` (at most `limit`): the keys suggest,
    /// each line is compared.
    fn find_whole_line(
        &mut self,
        a: &str,
        level: Level,
        range: Range<usize>,
        limit: usize,
        budget: &mut Budget,
    ) -> Result<Vec<usize>, Error> {
        let target = hash_str(a);
        let hits: Vec<usize> = match &*self.keys(level, budget)? {
            Keys::Narrow(k) => range.filter(|&i| k[i] == u16::of(target)).collect(),
            Keys::Wide(k) => range.filter(|&i| k[i] == u32::of(target)).collect(),
        };
        let mut out = Vec::new();
        for i in hits {
            if self.line_matches(i, level, a) {
                out.push(i);
                if out.len() >= limit {
                    break;
                }
            }
        }
        Ok(out)
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
            return self.find_whole_line(&a, level, range, limit, budget);
        }
        let a_ends_word = a.chars().next_back().is_some_and(is_word_char);
        // A prefix is judged on the head of a long line: normalising all of it for every
        // anchor would cost the whole file per hunk.
        let head_len = a.len() * 4 + 256;
        for i in range {
            let line = self.lines.get(i);
            let norm = match level {
                Level::Exact => line,
                Level::TrimEnd => trim_end_ws(line),
                Level::Trim => trim_ws(line),
                _ if line.len() > 2 * head_len => {
                    let mut cut = head_len;
                    while !line.is_char_boundary(cut) {
                        cut -= 1;
                    }
                    let head = normalize(&line[..cut], level, &mut self.scratch);
                    if head.len() >= a.len() + 64 {
                        // Long enough that its start is the start of the whole line's form.
                        let mut keep = head.len() - 32;
                        while !head.is_char_boundary(keep) {
                            keep -= 1;
                        }
                        let hit = head[..keep].starts_with(a.as_str())
                            && (!a_ends_word
                                || !head[a.len()..].chars().next().is_some_and(is_word_char));
                        if hit {
                            out.push(i);
                            if out.len() >= limit {
                                break;
                            }
                        }
                        continue;
                    }
                    normalize(line, level, &mut self.scratch)
                }
                _ => normalize(line, level, &mut self.scratch),
            };
            // A prefix ends at a token boundary: `def run` never finds `def run_server():`.
            let hit = norm.starts_with(a.as_str())
                && (!a_ends_word || !norm[a.len()..].chars().next().is_some_and(is_word_char));
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

/// Letters, digits and `_`: the characters a token boundary separates.
fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
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
                    crate::level::normalized(file[s + k], level)
                        == crate::level::normalized(p, level)
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
            // A prefetched index answers exact searches the same.
            let mut pre = LineIndex::new(&lines);
            pre.prefetch_exact(&[pat.clone(), vec!["a"]], 3, &mut budget).unwrap();
            let mut p = Pattern::new(pat.clone());
            let from = from.min(file.len());
            let got = pre.find_windows(&mut p, Level::Exact, from..file.len(), usize::MAX, &mut budget).unwrap();
            let want: Vec<usize> = naive(&file[from..], &pat, Level::Exact).into_iter().map(|s| s + from).collect();
            proptest::prop_assert_eq!(got, want);
            // `search` answers like a level-by-level search.
            let from = from.min(file.len());
            let mut p = Pattern::new(pat.clone());
            let got = index.search(&mut p, Level::Fold, from..file.len(), usize::MAX, &mut budget).unwrap();
            let want = Level::ALL.iter().find_map(|&l| {
                let c: Vec<usize> = naive(&file[from..], &pat, l).into_iter().map(|s| s + from).collect();
                (!c.is_empty()).then_some((l, c))
            });
            proptest::prop_assert_eq!(got, want);
        }
    }

    /// A pattern that shares its hash with a cached one is never answered from that entry:
    /// a cached pattern found somewhere is compared with the file's lines at its first match
    /// (its text is not kept), one found nowhere with its kept text.
    #[test]
    fn a_colliding_pattern_is_not_answered_from_the_cache() {
        let text = "# a\n# b\n# c\n# a\n# b\n# c\n";
        let lines = Lines::split(text);
        let mut index = LineIndex::new(&lines);
        let mut budget = Budget::new(u64::MAX);
        // A found pattern (at 0 and 3), and one found nowhere.
        index.exact_cache.insert(&["# a", "# b"], &[0, 3]);
        index.exact_cache.insert(&["zzz"], &[]);
        // Queries given those entries' hashes, as a collision would: each its own answer.
        for (entry, query, want) in [
            (0, vec!["# b", "# c"], vec![1, 4]),
            (0, vec!["# a"], vec![0, 3]),
            (1, vec!["# c"], vec![2, 5]),
        ] {
            index
                .exact_cache
                .by_hash
                .insert(pattern_hash(&query), entry);
            let mut p = Pattern::new(query.clone());
            let got = index
                .find_windows(&mut p, Level::Exact, 0..6, usize::MAX, &mut budget)
                .unwrap();
            assert_eq!(got, want, "{query:?}");
        }
        // The cached patterns themselves are answered from their entries.
        let mut p = Pattern::new(vec!["# a", "# b"]);
        let got = index
            .find_windows(&mut p, Level::Exact, 0..6, usize::MAX, &mut budget)
            .unwrap();
        assert_eq!(got, vec![0, 3]);
    }

    /// A remembered answer is never trusted: positions in the exact-match cache that do not
    /// hold the pattern (as a hash collision would give) are dropped, and a pattern that only
    /// shares a hash with a cached one gets its own answer.
    #[test]
    fn cached_candidates_are_verified() {
        let text = "auth = check()\nif not auth:\n    deny()\n# a\n# b\n# c\n";
        let lines = Lines::split(text);
        let mut index = LineIndex::new(&lines);
        let mut budget = Budget::new(u64::MAX);
        let pat = vec!["# a", "# b"];
        // Poison the cache as a colliding pattern would: wrong positions for this pattern.
        index.exact_cache.insert(&pat, &[0, 3]);
        let mut p = Pattern::new(pat.clone());
        let got = index
            .find_windows(&mut p, Level::Exact, 0..6, usize::MAX, &mut budget)
            .unwrap();
        assert_eq!(got, vec![3]);
        // Prefetching patterns keys the cache by their lines: another pattern is never
        // answered from it.
        let mut pre = LineIndex::new(&lines);
        pre.prefetch_exact(
            &[vec!["auth = check()", "if not auth:", "    deny()"]],
            8,
            &mut budget,
        )
        .unwrap();
        let mut q = Pattern::new(vec!["# b", "# c"]);
        let got = pre
            .find_windows(&mut q, Level::Exact, 0..6, usize::MAX, &mut budget)
            .unwrap();
        assert_eq!(got, vec![4]);
    }

    /// Normalised text built piece by piece, as the streaming normaliser hands it out.
    fn streamed(line: &str, level: Level) -> String {
        let mut out = Vec::new();
        assert!(stream_normalized(line, level, &mut |piece| {
            out.extend_from_slice(piece);
            true
        }));
        String::from_utf8(out).expect("pieces of UTF-8 cut at character boundaries")
    }

    proptest::proptest! {
        /// The streaming normaliser gives exactly what `normalize` builds, its hash is the hash
        /// of the built string, and the streaming comparison agrees with comparing built strings.
        #[test]
        fn streaming_agrees_with_normalize(
            chars in proptest::collection::vec(proptest::sample::select(vec![
                'a', 'e', 'Z', ';', ' ', ' ', '\t', '\x0B', '\x0C', '\x01', '\u{301}', '\u{e9}',
                '\u{2014}', '\u{201C}', '\u{2026}', '\u{200B}', '\u{A0}', '\u{3000}', '\u{FF45}',
                '\u{FB01}', '\u{FDFA}', '\u{AD}', '\u{1E9B}', '\u{323}', '\u{2028}',
            ]), 0..24),
            other in proptest::collection::vec(proptest::sample::select(vec![
                'a', 'e', ' ', '\u{301}', '\u{e9}', '-', '"', '.', '\u{2014}',
            ]), 0..8),
        ) {
            let line: String = chars.into_iter().collect();
            let other: String = other.into_iter().collect();
            for level in Level::ALL {
                let built = crate::level::normalized(&line, level);
                proptest::prop_assert_eq!(&streamed(&line, level), &built, "{:?} {:?}", line, level);
                proptest::prop_assert_eq!(line_key(&line, level), hash_str(&built));
                proptest::prop_assert!(normalized_eq(&line, level, &built));
                let o = crate::level::normalized(&other, level);
                proptest::prop_assert_eq!(normalized_eq(&line, level, &o), built == o);
                let joined = format!("{line}{other}");
                proptest::prop_assert_eq!(
                    normalized_eq(&joined, level, &built),
                    crate::level::normalized(&joined, level) == built
                );
            }
        }

        /// The key hash does not depend on how its input is cut into pieces.
        #[test]
        fn key_hash_ignores_the_cuts(
            bytes in proptest::collection::vec(0u8..=255, 0..40),
            cuts in proptest::collection::vec(0usize..40, 0..6),
        ) {
            let mut whole = KeyHasher::default();
            whole.write(&bytes);
            let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c.min(bytes.len())).collect();
            cuts.sort_unstable();
            let mut pieces = KeyHasher::default();
            let mut at = 0;
            for c in cuts.into_iter().chain([bytes.len()]) {
                pieces.write(&bytes[at..c]);
                at = c;
            }
            proptest::prop_assert_eq!(whole.finish(), pieces.finish());
        }
    }

    /// One line of U+FDFA (NFKC makes 18 characters of each) compared and hashed at the fold
    /// level without building its normalised form: a mismatch ends at the first piece.
    #[test]
    fn expanding_line_is_streamed() {
        let line = "\u{FDFA}".repeat(10_000);
        assert!(!normalized_eq(&line, Level::Fold, "end"));
        let built = crate::level::normalized(&line, Level::Fold);
        assert_eq!(built.len(), 10_000 * 33);
        assert!(normalized_eq(&line, Level::Fold, &built));
        assert_eq!(line_key(&line, Level::Fold), hash_str(&built));
    }

    /// A search answered from the pattern's rarest line equals the hashed search, and a line
    /// too common sends it to the hashed search.
    #[test]
    fn rare_line_search_falls_back_when_common() {
        let mut text = "  x  =  1;\n".repeat(RARE_LINE_CAP + 10);
        text.push_str("  a   b  c   d\n  x = 1;\n");
        let lines = Lines::split(&text);
        let n = lines.len();
        let mut budget = Budget::new(u64::MAX);
        let mut lazy = LineIndex::new(&lines);
        let mut p = Pattern::new(vec!["a b c d", "x = 1;"]);
        let got = lazy
            .find_windows(&mut p, Level::Collapse, 0..n, usize::MAX, &mut budget)
            .unwrap();
        assert_eq!(got, vec![n - 2]);
        assert!(lazy.keys[Level::Collapse as usize].is_none());
        let mut q = Pattern::new(vec!["x = 1;", "x = 1;"]);
        let got = lazy
            .find_windows(&mut q, Level::Collapse, 0..n, usize::MAX, &mut budget)
            .unwrap();
        assert_eq!(got.len(), RARE_LINE_CAP + 9);
        assert!(lazy.keys[Level::Collapse as usize].is_some());
    }

    proptest::proptest! {
        /// Lines long enough for 32-bit keys (the proptest above has tiny lines: 16-bit keys),
        /// with whitespace that gives some levels keys of their own.
        #[test]
        fn wide_keys_agree_with_naive_search(
            file in proptest::collection::vec(proptest::sample::select(vec!["alpha = 1;", "  alpha = 1;", "alpha = 1;  ", "beta(  2 )", "beta( 2 )", "\u{201C}quoted\u{201D}", "\"quoted\""]), 0..40),
            pat in proptest::collection::vec(proptest::sample::select(vec!["alpha = 1;", "beta( 2 )", "\"quoted\""]), 1..4),
        ) {
            let text: String = file.iter().map(|l| format!("{l}\n")).collect();
            let lines = Lines::split(&text);
            let mut index = LineIndex::new(&lines);
            proptest::prop_assert!(!index.narrow || file.is_empty());
            let mut budget = Budget::new(u64::MAX);
            for level in Level::ALL.iter().rev().copied() {
                let mut p = Pattern::new(pat.clone());
                let got = index.find_windows(&mut p, level, 0..file.len(), usize::MAX, &mut budget).unwrap();
                proptest::prop_assert_eq!(got, naive(&file, &pat, level));
            }
        }
    }

    /// A file whose lines normalise to themselves keeps one key vector for every level, and a
    /// file of tiny lines stores 16-bit keys (the index within a few bytes a line).
    #[test]
    fn levels_share_identical_keys() {
        let text: String = (0..3000)
            .map(|i| if i % 3 == 0 { "x\n" } else { "y\n" })
            .collect();
        let lines = Lines::split(&text);
        let mut index = LineIndex::new(&lines);
        assert!(index.narrow);
        let mut budget = Budget::new(u64::MAX);
        let exact = index.keys(Level::Exact, &mut budget).unwrap();
        let fold = index.keys(Level::Fold, &mut budget).unwrap();
        assert!(Arc::ptr_eq(&exact, &fold));
        assert!(matches!(&*exact, Keys::Narrow(k) if k.len() == 3000));
        // One line with trailing whitespace: the trim levels get keys of their own.
        let text = format!("{text}x \n");
        let lines = Lines::split(&text);
        let mut index = LineIndex::new(&lines);
        let exact = index.keys(Level::Exact, &mut budget).unwrap();
        let trim = index.keys(Level::TrimEnd, &mut budget).unwrap();
        assert!(!Arc::ptr_eq(&exact, &trim));
        let mut p = Pattern::new(vec!["y", "x"]);
        let got = index
            .find_windows(&mut p, Level::TrimEnd, 0..3001, usize::MAX, &mut budget)
            .unwrap();
        assert_eq!(got, (0..1000).map(|k| 3 * k + 2).collect::<Vec<_>>());
        let mut p = Pattern::new(vec!["y", "x"]);
        let got = index
            .find_windows(&mut p, Level::Exact, 0..3001, usize::MAX, &mut budget)
            .unwrap();
        assert_eq!(got.len(), 999);
    }

    /// 16-bit keys collide for many distinct lines; every hit is verified, so a search still
    /// finds exactly the windows that match.
    #[test]
    fn narrow_key_collisions_are_verified() {
        // Distinct short lines: far more than 65,536 would be needed to avoid all collisions.
        let text: String = (0..70_000u32)
            .map(|i| format!("{}\n", i % 99_991))
            .collect();
        let lines = Lines::split(&text);
        let mut index = LineIndex::new(&lines);
        assert!(index.narrow);
        let mut budget = Budget::new(u64::MAX);
        let mut p = Pattern::new(vec!["12345", "12346"]);
        let got = index
            .find_windows(&mut p, Level::Exact, 0..70_000, usize::MAX, &mut budget)
            .unwrap();
        assert_eq!(got, vec![12345]);
        let mut q = Pattern::new(vec!["12346", "12345"]);
        let got = index
            .find_windows(&mut q, Level::Exact, 0..70_000, usize::MAX, &mut budget)
            .unwrap();
        assert!(got.is_empty());
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
