//! Re-indentation (SPEC §4, the indentation map): when a hunk matched only with its
//! indentation ignored, learn from its matched lines how the patch's indentation maps onto the
//! file's, and indent the added lines by that map.
//!
//! The map is learned in two parts. **Seen indentations**: each patch indentation (as written)
//! maps to the file indentation of the matched lines that carry it. **The step**, for a patch
//! indentation no matched line carries: a prefix the file adds to (or lacks from) every patch
//! indentation, or, when the patch and the file indent in different units (2 spaces for 4,
//! spaces for tabs), a number of levels the file adds, counted in each side's unit. Lines the
//! patch wrote at column 0 that are deeper in the file are "clamped": the model shifted
//! everything left and column 0 could not go further; they fit a step that adds indentation.
//!
//! When a patch indentation maps to several file indentations, an added line replacing a `-`
//! line of the same patch indentation takes that line's file indentation; with a clamped step,
//! the nearest matched lines of that patch indentation before and after it decide when they
//! agree. Anything else is refused: a guessed indentation is a wrong edit in Python or YAML.

use rustc_hash::FxHashMap;

use crate::patch::{Line, LineKind};
use crate::text::Lines;

/// An indentation unit: a tab, or a number of spaces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Unit {
    /// One tab per level (spaces after the tabs are alignment).
    Tab,
    /// This many spaces per level.
    Spaces(usize),
}

impl Unit {
    /// The indentation as (levels, alignment spaces), when it is written in this unit.
    fn levels(self, indent: &str) -> Option<(usize, usize)> {
        match self {
            Unit::Tab => {
                // Spaces after tabs are alignment; two or more spaces and no tab are another
                // style (a line indented with spaces), not alignment at depth 0.
                let tabs = indent.len() - indent.trim_start_matches('\t').len();
                let align = indent.len() - tabs;
                (only(&indent[tabs..], ' ') && (tabs > 0 || align < 2)).then_some((tabs, align))
            }
            Unit::Spaces(w) => only(indent, ' ').then_some((indent.len() / w, indent.len() % w)),
        }
    }

    fn render(self, levels: usize, align: usize) -> String {
        match self {
            Unit::Tab => format!("{}{}", "\t".repeat(levels), " ".repeat(align)),
            Unit::Spaces(w) => " ".repeat(levels * w + align),
        }
    }
}

/// The unit of a run of indentations (of non-blank lines, in order): tabs when most indented
/// lines start with a tab, else the most frequent step between a line and a deeper next line
/// (the smaller one on a tie), else the greatest common divisor of the widths.
pub(crate) fn detect_unit<'a>(indents: impl Iterator<Item = &'a str>) -> Option<Unit> {
    let (mut tabs, mut spaces, mut gcd) = (0usize, 0usize, 0usize);
    let mut steps = [0usize; 17];
    let mut prev: Option<usize> = None;
    for indent in indents {
        if indent.starts_with('\t') {
            tabs += 1;
            prev = None;
            continue;
        }
        if !only(indent, ' ') {
            prev = None;
            continue;
        }
        let w = indent.len();
        if w > 0 {
            spaces += 1;
            gcd = gcd_of(gcd, w);
        }
        if let Some(p) = prev {
            if w > p && w - p < steps.len() {
                steps[w - p] += 1;
            }
        }
        prev = Some(w);
    }
    if tabs == 0 && spaces == 0 {
        return None;
    }
    if tabs > spaces {
        return Some(Unit::Tab);
    }
    let best = (1..steps.len())
        .filter(|&s| steps[s] > 0)
        .max_by_key(|&s| (steps[s], std::cmp::Reverse(s)));
    Some(Unit::Spaces(best.unwrap_or(gcd.max(1))))
}

fn gcd_of(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd_of(b, a % b)
    }
}

/// The leading spaces and tabs of a line.
pub(crate) fn leading_ws(s: &str) -> &str {
    let end = s.find(|c: char| c != ' ' && c != '\t').unwrap_or(s.len());
    &s[..end]
}

fn only(s: &str, c: char) -> bool {
    s.chars().all(|x| x == c)
}

/// The step for patch indentations no matched line carries.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Step {
    /// The file has this prefix before every patch indentation (column-0 patch lines may be
    /// clamped: shallower in the file than the prefix).
    Prefix(String),
    /// Every patch indentation starts with this prefix, which the file lacks.
    Strip(String),
    /// The file has `offset` more levels, each side counted in its own unit.
    Levels {
        patch: Unit,
        file: Unit,
        offset: isize,
    },
}

impl Step {
    fn apply(&self, indent: &str) -> Option<String> {
        match self {
            Step::Prefix(d) => Some(format!("{d}{indent}")),
            Step::Strip(d) => indent.strip_prefix(d.as_str()).map(str::to_string),
            Step::Levels {
                patch,
                file,
                offset,
            } => {
                let Some((levels, align)) = patch.levels(indent) else {
                    // An added line not written in the patch's unit but in the file's, under
                    // a map that keeps every depth: the model copied it from the file (its
                    // context went through another editor's tab setting). Kept as written.
                    return (*offset == 0 && file.levels(indent).is_some())
                        .then(|| indent.to_string());
                };
                let levels = usize::try_from(levels as isize + offset).ok()?;
                Some(file.render(levels, align))
            }
        }
    }

    /// True when the step adds indentation, so that column-0 patch lines may be clamped.
    fn clamps(&self) -> bool {
        match self {
            Step::Prefix(_) => true,
            Step::Strip(_) => false,
            Step::Levels { offset, .. } => *offset > 0,
        }
    }
}

/// One matched old-side line: its patch and file indentation and where it sits in the body.
#[derive(Clone, Copy, Debug)]
struct Pair<'a> {
    body_index: usize,
    patch: &'a str,
    file: &'a str,
    file_line: usize,
}

/// The prefix step, if every pair fits one.
fn prefix_step(pairs: &[Pair<'_>]) -> Option<Step> {
    let shifted: Vec<&Pair<'_>> = pairs.iter().filter(|p| !p.patch.is_empty()).collect();
    let d = match shifted.first() {
        Some(first) => first.file.strip_suffix(first.patch)?,
        None => pairs.iter().map(|p| p.file).max_by_key(|f| f.len())?,
    };
    if d.is_empty() {
        return None;
    }
    let fits = |p: &Pair<'_>| {
        p.file.strip_suffix(p.patch) == Some(d) || p.patch.is_empty() && d.starts_with(p.file)
    };
    pairs.iter().all(fits).then(|| Step::Prefix(d.to_string()))
}

/// The strip step, if every pair fits one.
fn strip_step(pairs: &[Pair<'_>]) -> Option<Step> {
    let first = pairs.first()?;
    let d = first.patch.strip_suffix(first.file)?;
    (!d.is_empty()
        && pairs
            .iter()
            .all(|p| p.patch.strip_suffix(p.file) == Some(d)))
    .then(|| Step::Strip(d.to_string()))
}

/// The level step, if every pair fits one.
fn level_step(pairs: &[Pair<'_>], patch: Unit, file: Unit) -> Option<Step> {
    let levels: Vec<((usize, usize), (usize, usize))> = pairs
        .iter()
        .map(|p| Some((patch.levels(p.patch)?, file.levels(p.file)?)))
        .collect::<Option<_>>()?;
    let offset = match levels.iter().find(|((pl, pa), _)| *pl > 0 || *pa > 0) {
        Some(((pl, _), (fl, _))) => *fl as isize - *pl as isize,
        None => levels.iter().map(|(_, (fl, _))| *fl as isize).max()?,
    };
    let fits = |&((pl, pa), (fl, fa)): &((usize, usize), (usize, usize))| {
        pa == fa && fl as isize == pl as isize + offset
            || pl == 0 && pa == 0 && offset > 0 && (fl as isize) < offset
    };
    levels.iter().all(fits).then_some(Step::Levels {
        patch,
        file,
        offset,
    })
}

/// Why a hunk's added lines cannot be indented: the added line and the matched lines.
#[derive(Clone, Debug)]
pub(crate) struct Inconsistent {
    /// Index in the hunk body of the added line that has no indentation in the file.
    pub body_index: usize,
    /// The matched lines: (0-based file line, patch indentation, file indentation).
    pub matched: Vec<(usize, String, String)>,
}

/// The new text of each added line (`None`: unchanged) of a hunk whose old side matched the
/// file from `start` with indentation ignored. `file_unit` gives the file's indentation unit
/// (asked at most once, only when the patch and the file disagree).
pub(crate) fn indent_added_lines(
    body: &[Line],
    start: usize,
    lines: &Lines<'_>,
    file_unit: &mut dyn FnMut() -> Option<Unit>,
) -> Result<Vec<Option<String>>, Inconsistent> {
    let pairs = matched_pairs(body, start, lines);
    let mut result = vec![None; body.len()];
    let adds = body
        .iter()
        .enumerate()
        .filter(|(_, l)| l.kind == LineKind::Add && !l.text.trim().is_empty());
    if pairs.iter().all(|p| p.patch == p.file) || adds.clone().next().is_none() {
        return Ok(result);
    }
    let steps = candidate_steps(&pairs, patch_unit(body), file_unit());
    let mut mapping = Mapping::new(&pairs, steps, paired_deletions(body));
    mapping.tab_width = expanded_tab_width(&pairs);
    for (i, l) in adds {
        let indent = leading_ws(&l.text);
        let Some(new_indent) = mapping.indent_for(i, indent) else {
            return Err(mapping.inconsistent(i));
        };
        if new_indent != indent {
            result[i] = Some(format!("{new_indent}{}", &l.text[indent.len()..]));
        }
    }
    Ok(result)
}

/// The old-side lines of `body` (matched to the file from `start`) that are not blank on
/// either side, with their patch and file indentation.
fn matched_pairs<'a>(body: &'a [Line], start: usize, lines: &Lines<'a>) -> Vec<Pair<'a>> {
    body.iter()
        .enumerate()
        .filter(|(_, l)| l.kind != LineKind::Add)
        .zip(start..)
        .map(|((i, l), k)| (i, l, k, lines.get(k)))
        .filter(|(_, l, _, f)| !l.text.trim().is_empty() && !f.trim().is_empty())
        .map(|(i, l, k, f)| Pair {
            body_index: i,
            patch: leading_ws(&l.text),
            file: leading_ws(f),
            file_line: k,
        })
        .collect()
}

/// The patch's unit: its added lines may be written in the file's own style (the quoted
/// lines went through another editor's tab setting), so when the quoted lines indent with
/// tabs, or the whole body's unit is of another kind than theirs, the quoted lines decide;
/// otherwise every line does (the added lines show the step between depths).
fn patch_unit(body: &[Line]) -> Option<Unit> {
    let unit_of = |added: bool| {
        detect_unit(
            body.iter()
                .filter(|l| (added || l.kind != LineKind::Add) && !l.text.trim().is_empty())
                .map(|l| leading_ws(&l.text)),
        )
    };
    match (unit_of(false), unit_of(true)) {
        (Some(Unit::Spaces(_)), Some(Unit::Spaces(k))) => Some(Unit::Spaces(k)),
        (Some(quoted), _) => Some(quoted),
        (None, all) => all,
    }
}

/// The steps every pair fits: both kinds of step when both fit, the likelier first (the
/// prefix or strip step when the units agree or one is unknown, the level step otherwise):
/// an indentation one cannot write (a tab in a space-unit patch) may still follow the other.
fn candidate_steps(
    pairs: &[Pair<'_>],
    patch_unit: Option<Unit>,
    file_unit: Option<Unit>,
) -> Vec<Step> {
    let by_prefix = || prefix_step(pairs).or_else(|| strip_step(pairs));
    let by_levels = || match (patch_unit, file_unit) {
        (Some(p), Some(f)) => level_step(pairs, p, f),
        _ => None,
    };
    if patch_unit == file_unit || patch_unit.is_none() || file_unit.is_none() {
        [by_prefix(), by_levels()]
    } else {
        [by_levels(), by_prefix()]
    }
    .into_iter()
    .flatten()
    .collect()
}

/// What maps an added line's patch indentation to the file's: the matched pairs (hashed by
/// patch indentation), the steps they fit, and the `-` line each added line replaces.
struct Mapping<'p, 'a> {
    pairs: &'p [Pair<'a>],
    /// Patch indentation → the pairs carrying it (in body order), hashed once: a hunk may
    /// hold many thousands of lines.
    by_indent: FxHashMap<&'a str, Vec<usize>>,
    steps: Vec<Step>,
    paired: Vec<Option<usize>>,
    /// The one tab width at which every matched line's patch indentation, tabs expanded,
    /// is its file indentation (see [`expanded_tab_width`]).
    tab_width: Option<usize>,
}

impl<'p, 'a> Mapping<'p, 'a> {
    fn new(pairs: &'p [Pair<'a>], steps: Vec<Step>, paired: Vec<Option<usize>>) -> Self {
        let mut by_indent: FxHashMap<&'a str, Vec<usize>> = FxHashMap::default();
        for (n, p) in pairs.iter().enumerate() {
            by_indent.entry(p.patch).or_default().push(n);
        }
        Mapping {
            pairs,
            by_indent,
            steps,
            paired,
            tab_width: None,
        }
    }

    /// The file indentation of the added line at body index `i` written with `indent`: the
    /// one file indentation of the matched lines that carry `indent`, else resolved among
    /// several, else the first step that maps it, else kept when already the file's style.
    fn indent_for(&self, i: usize, indent: &str) -> Option<String> {
        let pairs = self.pairs;
        let seen: &[usize] = self.by_indent.get(indent).map_or(&[], Vec::as_slice);
        let first = seen.first().map(|&n| pairs[n].file);
        if let Some(f) = first.filter(|f| seen.iter().all(|&n| pairs[n].file == *f)) {
            Some(f.to_string())
        } else if !seen.is_empty() {
            resolve_several(pairs, seen, self.paired[i], i, self.steps.first())
        } else {
            self.steps
                .iter()
                .find_map(|s| s.apply(indent))
                .or_else(|| self.expanded(i, indent))
                .or_else(|| in_file_style(pairs, indent, self.paired[i]))
        }
    }

    /// The added line at body index `i` written with `indent`, under the tab-expansion map:
    /// its tabs expanded at the one tab width every matched line fits. Not for a line that
    /// replaces a `-` line at another file indentation (the replaced line decides, see
    /// [`in_file_style`]).
    fn expanded(&self, i: usize, indent: &str) -> Option<String> {
        let width = self.tab_width?;
        let new = expand_tabs(indent, width);
        let replaced = self.paired[i].and_then(|d| self.pairs.iter().find(|p| p.body_index == d));
        match replaced {
            Some(p) if p.file != new => None,
            _ => Some(new),
        }
    }

    /// The error for the added line at body index `i`, which has no file indentation.
    fn inconsistent(&self, i: usize) -> Inconsistent {
        Inconsistent {
            body_index: i,
            matched: self
                .pairs
                .iter()
                .map(|p| (p.file_line, p.patch.to_string(), p.file.to_string()))
                .collect(),
        }
    }
}

/// An indentation with its tabs expanded to the next multiple of `width` columns.
fn expand_tabs(indent: &str, width: usize) -> String {
    let mut out = String::with_capacity(indent.len() * width);
    for c in indent.chars() {
        if c == '\t' {
            let pad = width - out.len() % width;
            out.extend(std::iter::repeat_n(' ', pad));
        } else {
            out.push(c);
        }
    }
    out
}

/// The tab-expansion map: the quoted lines went through an editor that turned the file's
/// leading spaces into tabs (a tab every `width` columns), while the added lines may keep the
/// file's spaces. It holds when the file indents the matched lines with spaces only, at least
/// one patch indentation holds a tab, and exactly one tab width (1 to 8) turns every patch
/// indentation into its file indentation. Each patch space is then one column and each tab
/// runs to the next tab stop, so every added line has one file indentation, tabs or not.
/// Used only where no step maps a line: it is a map of characters, not of depths.
fn expanded_tab_width(pairs: &[Pair<'_>]) -> Option<usize> {
    if pairs.iter().any(|p| !only(p.file, ' ')) || !pairs.iter().any(|p| p.patch.contains('\t')) {
        return None;
    }
    let mut fits = (1..=8).filter(|&w| pairs.iter().all(|p| expand_tabs(p.patch, w) == p.file));
    let width = fits.next()?;
    fits.next().is_none().then_some(width)
}

/// An added line whose indentation no matched line of the patch carries and no step maps,
/// kept as written when it is already the file's: the file indentation of the `-` line it
/// replaces, or, when the quoted lines use tabs where the file uses none or the other way
/// round (they went through another editor's tab setting) while the added line is written in
/// the file's style, the file indentation of a matched line.
fn in_file_style(pairs: &[Pair<'_>], indent: &str, paired: Option<usize>) -> Option<String> {
    if let Some(p) = paired.and_then(|d| pairs.iter().find(|p| p.body_index == d)) {
        return (p.file == indent).then(|| indent.to_string());
    }
    let patch_tabs = pairs.iter().any(|p| p.patch.contains('\t'));
    let file_tabs = pairs.iter().any(|p| p.file.contains('\t'));
    let keep = patch_tabs != file_tabs
        && indent.contains('\t') == file_tabs
        && pairs.iter().any(|p| p.file == indent);
    keep.then(|| indent.to_string())
}

/// A patch indentation that maps to several file indentations (`seen`: the pairs carrying it,
/// in body order): the replaced line of the same patch indentation decides; with a clamped
/// step, the nearest matched lines of that patch indentation before and after the added line
/// (body index `at`) decide when they agree.
fn resolve_several(
    pairs: &[Pair<'_>],
    seen: &[usize],
    paired: Option<usize>,
    at: usize,
    step: Option<&Step>,
) -> Option<String> {
    if let Some(d) = paired {
        let k = seen.partition_point(|&n| pairs[n].body_index < d);
        if let Some(&n) = seen.get(k).filter(|&&n| pairs[n].body_index == d) {
            return Some(pairs[n].file.to_string());
        }
    }
    if !step.is_some_and(Step::clamps) {
        return None;
    }
    let k = seen.partition_point(|&n| pairs[n].body_index < at);
    let before = k.checked_sub(1).map(|k| pairs[seen[k]].file);
    let after = seen.get(k).map(|&n| pairs[n].file);
    match (before, after) {
        (Some(b), Some(a)) if b == a => Some(b.to_string()),
        (Some(f), None) | (None, Some(f)) => Some(f.to_string()),
        _ => None,
    }
}

/// For each body line, the `-` line an added line replaces: in a run of `-` lines followed by
/// `+` lines, the k-th `+` line replaces the k-th `-` line.
fn paired_deletions(body: &[Line]) -> Vec<Option<usize>> {
    let mut out = vec![None; body.len()];
    let mut deleted: Vec<usize> = Vec::new();
    let mut adds = 0usize;
    for (i, l) in body.iter().enumerate() {
        match l.kind {
            LineKind::Context => {
                deleted.clear();
                adds = 0;
            }
            LineKind::Delete => {
                if adds > 0 {
                    deleted.clear();
                    adds = 0;
                }
                deleted.push(i);
            }
            LineKind::Add => {
                out[i] = deleted.get(adds).copied();
                adds += 1;
            }
        }
    }
    out
}

/// Describes an indentation for a message: "no indentation", "8 spaces", "2 tabs", or the
/// characters in order when they mix.
pub(crate) fn describe(indent: &str) -> String {
    let count = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    if indent.is_empty() {
        "no indentation".to_string()
    } else if only(indent, ' ') {
        count(indent.len(), "space")
    } else if only(indent, '\t') {
        count(indent.len(), "tab")
    } else {
        let tabs = indent.len() - indent.trim_start_matches('\t').len();
        if tabs > 0 && only(&indent[tabs..], ' ') {
            format!(
                "{} then {}",
                count(tabs, "tab"),
                count(indent.len() - tabs, "space")
            )
        } else {
            format!("{indent:?}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(lines: &[&str]) -> Vec<Line> {
        lines
            .iter()
            .enumerate()
            .map(|(i, l)| {
                let kind = match l.as_bytes()[0] {
                    b'+' => LineKind::Add,
                    b'-' => LineKind::Delete,
                    _ => LineKind::Context,
                };
                Line {
                    kind,
                    text: l[1..].to_string(),
                    patch_line: i as u32 + 1,
                }
            })
            .collect()
    }

    /// The added lines of `patch` indented against `file`, where the hunk's old side starts
    /// at line `start` (0-based).
    fn run(file: &[&str], start: usize, patch: &[&str]) -> Result<Vec<String>, usize> {
        let b = body(patch);
        let unit = detect_unit(file.iter().map(|l| leading_ws(l)));
        let text = file.join("\n");
        let out = indent_added_lines(&b, start, &Lines::split(&text), &mut || unit)
            .map_err(|e| e.body_index)?;
        Ok(b.iter()
            .zip(out)
            .filter(|(l, _)| l.kind == LineKind::Add)
            .map(|(l, o)| o.unwrap_or_else(|| l.text.clone()))
            .collect())
    }

    #[test]
    fn units() {
        let u = |l: &[&str]| detect_unit(l.iter().copied());
        assert_eq!(u(&["", "    ", "        ", "    "]), Some(Unit::Spaces(4)));
        assert_eq!(u(&["  ", "    ", "    ", "      "]), Some(Unit::Spaces(2)));
        assert_eq!(u(&["\t", "\t\t", "    "]), Some(Unit::Tab));
        assert_eq!(u(&["        ", "        "]), Some(Unit::Spaces(8)));
        assert_eq!(u(&["", ""]), None);
    }

    #[test]
    fn a_consistent_shift() {
        let file = ["    if x:", "        y = 1"];
        assert_eq!(
            run(
                &file,
                0,
                &[
                    " if x:",
                    "-    y = 1",
                    "+    y = 2",
                    "+    if z:",
                    "+        w"
                ]
            ),
            Ok(vec![
                "        y = 2".into(),
                "        if z:".into(),
                "            w".into()
            ])
        );
        let file = ["if x:", "    y = 1"];
        assert_eq!(
            run(
                &file,
                0,
                &["     if x:", "-         y = 1", "+         y = 2", "+    z"]
            ),
            Ok(vec!["    y = 2".into(), "z".into()])
        );
    }

    #[test]
    fn column_0_lines_that_cannot_shift() {
        let file = [
            "class A:",
            "    def f(self):",
            "        x = 1",
            "        y = 2",
        ];
        let patch = [
            " class A:",
            " def f(self):",
            "     x = 1",
            "-    y = 2",
            "+    y = 3",
        ];
        assert_eq!(run(&file, 0, &patch), Ok(vec!["        y = 3".into()]));
        // A new method after the last method, at the patch's column 0: a method.
        let patch = [" class A:", " def f(self):", "+def g(self):"];
        assert_eq!(run(&file, 0, &patch), Ok(vec!["    def g(self):".into()]));
        // Between `class A:` (column 0) and `def f` (4 spaces): no way to tell.
        let patch = [" class A:", "+x = 5", " def f(self):"];
        assert_eq!(run(&file, 0, &patch), Err(1));
    }

    #[test]
    fn units_that_differ() {
        let file = [
            "class C:",
            "    def add(self, item):",
            "        self.items.append(item)",
        ];
        let patch = [
            "   def add(self, item):",
            "-    self.items.append(item)",
            "+    if item.qty > 0:",
            "+      self.items.append(item)",
        ];
        assert_eq!(
            run(&file, 1, &patch),
            Ok(vec![
                "        if item.qty > 0:".into(),
                "            self.items.append(item)".into()
            ])
        );
        let file = ["func f() {", "\tif x {", "\t\ty = 1", "\t}"];
        let patch = [
            "-        if x {",
            "+        if !x {",
            "+                return",
            "+        }",
        ];
        assert_eq!(
            run(&file, 1, &patch),
            Ok(vec!["\tif !x {".into(), "\t\treturn".into(), "\t}".into()])
        );
        let file = ["a:", "    b: 1"];
        assert_eq!(
            run(&file, 1, &[" \tb: 1", "+\tc:", "+\t\td: 2"]),
            Ok(vec!["    c:".into(), "        d: 2".into()])
        );
    }

    #[test]
    fn added_lines_already_in_the_files_style() {
        // The quoted lines were converted to tabs, the added lines kept the file's spaces.
        let file = ["def f():", "    if a:", "        x = 1", "    y = 2"];
        let patch = [
            " \tif a:",
            "-\t\tx = 1",
            "+        x = 2",
            "+        if b:",
            "+            z = 3",
            " \ty = 2",
        ];
        assert_eq!(
            run(&file, 1, &patch),
            Ok(vec![
                "        x = 2".into(),
                "        if b:".into(),
                "            z = 3".into()
            ])
        );
        // The other way round: a tab file, quoted lines in spaces, added lines in tabs.
        let file = ["func f() {", "\tif x {", "\t\ty = 1", "\t}"];
        let patch = [
            "     if x {",
            "-        y = 1",
            "+\t\ty = 2",
            "+\t\t\treturn",
            "     }",
        ];
        assert_eq!(
            run(&file, 1, &patch),
            Ok(vec!["\t\ty = 2".into(), "\t\t\treturn".into()])
        );
        // The added lines mix both styles: each is still placed by the map.
        let patch = [
            "     if x {",
            "-        y = 1",
            "+        y = 2",
            "+\t\t\treturn",
            "     }",
        ];
        assert_eq!(
            run(&file, 1, &patch),
            Ok(vec!["\t\ty = 2".into(), "\t\t\treturn".into()])
        );
        // A map that shifts every depth does not keep a line in the file's style as written:
        // it cannot tell whether that line was shifted too.
        let file = ["class A:", "    def f(self):", "        x = 1"];
        let patch = [" def f(self):", "-\tx = 1", "+            x = 2"];
        assert_eq!(run(&file, 1, &patch), Err(2));
        let patch = [" def f(self):", "-\tx = 1", "+\tx = 2"];
        assert_eq!(run(&file, 1, &patch), Ok(vec!["        x = 2".into()]));
    }
    #[test]
    fn added_lines_at_a_file_indentation_the_map_cannot_reach() {
        // A 2-space file whose quoted lines had 4 spaces turned into a tab: no step fits
        // ("  " and "\t" both stand for themselves and for 4 spaces).
        let file = [
            "describe(() => {",
            "  it('x', () => {",
            "    const a = 1",
            "    const m = 2",
            "  })",
            "})",
        ];
        let patch = [
            "   it('x', () => {",
            " \tconst a = 1",
            "-\tconst m = 2",
            "+    const m = 3",
            "+    const n = 4",
            "   })",
        ];
        assert_eq!(
            run(&file, 1, &patch),
            Ok(vec!["    const m = 3".into(), "    const n = 4".into()])
        );
        // An added line at a depth no matched line has: every patch space is one column and
        // every tab runs to the next multiple of 4 (the one width that fits each matched
        // line), so its 6 spaces are 6 columns.
        let patch = [
            "   it('x', () => {",
            " \tconst a = 1",
            "+      deeper = 1",
            "+\t\tdeepest = 1",
            " \tconst m = 2",
        ];
        assert_eq!(
            run(&file, 1, &patch),
            Ok(vec![
                "      deeper = 1".into(),
                "        deepest = 1".into()
            ])
        );
        // A replacement at another depth than the line it replaces is not the file's style.
        let patch = [
            "   it('x', () => {",
            "-\tconst a = 1",
            "+      const a = 2",
            " \tconst m = 2",
        ];
        assert_eq!(run(&file, 1, &patch), Err(2));
    }

    #[test]
    fn quoted_lines_with_the_files_spaces_turned_into_tabs() {
        // A 2-space file whose quoted lines had each 4 columns turned into a tab (a tab
        // then 2 spaces for 6): no depth step fits, the tab expansion at width 4 does.
        let file = [
            "describe(() => {",
            "  it('x', () => {",
            "    const s = {",
            "      a: 1,",
            "    }",
            "  })",
            "})",
        ];
        let patch = [
            " \t  a: 1,",
            " \t}",
            "   })",
            "+  it('y', () => {",
            "+    const t = {",
            "+      b: 2,",
            "+\t\t  c: 3,",
            "+    }",
            "+  })",
            " })",
        ];
        assert_eq!(
            run(&file, 3, &patch),
            Ok(vec![
                "  it('y', () => {".into(),
                "    const t = {".into(),
                "      b: 2,".into(),
                "          c: 3,".into(),
                "    }".into(),
                "  })".into(),
            ])
        );
        // Two tab widths fit ("  \t" is 4 columns at width 2 and at width 4): the expansion
        // is not used, and a depth no matched line has is refused.
        let file = ["a {", "    b", "}"];
        let patch = ["   \tb", "+      c", " }"];
        assert_eq!(run(&file, 1, &patch), Err(1));
        // A file indented with tabs: the expansion does not apply (spaces could not be
        // written back as the file's tabs without a guess).
        let file = ["a {", "\t\tb", "}"];
        let patch = ["         b", "+    \t c", " }"];
        assert_eq!(run(&file, 1, &patch), Err(1));
        // A replacement at another file indentation than the expansion gives is refused.
        let file = ["a {", "  b {", "    c", "  }", "}"];
        let patch = ["   b {", "-\tc", "+      c2", "   }"];
        assert_eq!(run(&file, 1, &patch), Err(2));
    }

    #[test]
    fn no_consistent_map_is_refused() {
        let file = ["def f():", "    if a:", "        x = 1", "    y = 2"];
        let patch = ["     if a:", "     x = 1", "+    w = 0", "     y = 2"];
        assert_eq!(run(&file, 1, &patch), Err(2));
        // The replaced line decides for its replacement.
        let patch = ["     if a:", "     x = 1", "-    y = 2", "+    y = 3"];
        assert_eq!(run(&file, 1, &patch), Ok(vec!["    y = 3".into()]));
        // Nothing to indent: nothing refused.
        let patch = ["     if a:", "     x = 1", "-    y = 2", "+"];
        assert_eq!(run(&file, 1, &patch), Ok(vec!["".into()]));
    }

    #[test]
    fn descriptions() {
        assert_eq!(describe(""), "no indentation");
        assert_eq!(describe("    "), "4 spaces");
        assert_eq!(describe("\t"), "1 tab");
        assert_eq!(describe("\t  "), "1 tab then 2 spaces");
        assert_eq!(describe(" \t"), "\" \\t\"");
    }
}
