//! Property tests: random texts with random non-overlapping edits, written as a V4A patch by a
//! test-side writer, apply back exactly at every line-ending style; random input never panics.

use proptest::prelude::*;
use v4a::{apply, apply_bytes, Mode, Options, Patch};

/// One edit: replace old lines `start..end` with `new` lines.
#[derive(Clone, Debug)]
struct Edit {
    start: usize,
    end: usize,
    new: Vec<String>,
}

const CONTEXT: usize = 2;

/// Writes the edits as V4A hunks with `CONTEXT` lines of context, merging edits whose
/// context would touch.
fn write_patch(old: &[String], edits: &[Edit]) -> String {
    let mut out = String::new();
    let mut i = 0;
    while i < edits.len() {
        let mut j = i;
        while j + 1 < edits.len() && edits[j + 1].start - edits[j].end <= 2 * CONTEXT {
            j += 1;
        }
        out.push_str("@@\n");
        let from = edits[i].start.saturating_sub(CONTEXT);
        let mut pos = from;
        for e in &edits[i..=j] {
            for l in &old[pos..e.start] {
                out.push_str(&format!(" {l}\n"));
            }
            for l in &old[e.start..e.end] {
                out.push_str(&format!("-{l}\n"));
            }
            for l in &e.new {
                out.push_str(&format!("+{l}\n"));
            }
            pos = e.end;
        }
        let to = (edits[j].end + CONTEXT).min(old.len());
        for l in &old[pos..to] {
            out.push_str(&format!(" {l}\n"));
        }
        i = j + 1;
    }
    out
}

fn apply_edits(old: &[String], edits: &[Edit]) -> Vec<String> {
    let mut out = Vec::new();
    let mut pos = 0;
    for e in edits {
        out.extend_from_slice(&old[pos..e.start]);
        out.extend(e.new.iter().cloned());
        pos = e.end;
    }
    out.extend_from_slice(&old[pos..]);
    out
}

fn join(lines: &[String], eol: &str, final_newline: bool, bom: bool) -> String {
    let mut s = String::from(if bom { "\u{feff}" } else { "" });
    for (i, l) in lines.iter().enumerate() {
        s.push_str(l);
        if i + 1 < lines.len() || final_newline {
            s.push_str(eol);
        }
    }
    s
}

fn word() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "alpha",
        "beta",
        "  gamma",
        "\tdelta",
        "épsilon",
        "ζeta 😀",
        "x = 1;",
        "}",
        "{",
        "",
    ])
    .prop_map(str::to_string)
}

prop_compose! {
    fn case()(n in 1usize..40)(
        n in Just(n),
        words in prop::collection::vec(word(), n),
        raw_edits in prop::collection::vec((0usize..40, 0usize..3, prop::collection::vec(word(), 0..3)), 1..6),
        eol in prop::sample::select(vec!["\n", "\r\n", "\r"]),
        final_newline in any::<bool>(),
        bom in any::<bool>(),
    ) -> (Vec<String>, Vec<Edit>, &'static str, bool, bool) {
        // Unique old lines, so every hunk has exactly one place.
        let old: Vec<String> = words.iter().enumerate().map(|(i, w)| format!("{w} #{i}")).collect();
        let mut edits: Vec<Edit> = Vec::new();
        let mut sorted = raw_edits.clone();
        sorted.sort_by_key(|e| e.0);
        let mut next_free = 0;
        for (k, (s, len, new)) in sorted.into_iter().enumerate() {
            let start = s.min(n);
            if start < next_free { continue; }
            let new: Vec<String> = new.iter().enumerate().map(|(j, w)| format!("{w} new{k}.{j}")).collect();
            // An edit that changes nothing deletes a line instead.
            let len = if len == 0 && new.is_empty() { 1 } else { len };
            let end = (start + len).min(n);
            if start == end && new.is_empty() { continue; }
            edits.push(Edit { start, end, new });
            next_free = end + 1;
        }
        (old, edits, eol, final_newline, bom)
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, max_global_rejects: 1_000_000, ..ProptestConfig::default() })]

    #[test]
    fn written_patches_apply_back_exactly((old, edits, eol, final_newline, bom) in case()) {
        prop_assume!(!edits.is_empty());
        let source = join(&old, eol, final_newline, bom);
        let patch = write_patch(&old, &edits);
        let new = apply_edits(&old, &edits);
        // A one-line file without a final newline has no terminator to copy: LF is used.
        let new_eol = if old.len() == 1 && !final_newline { "\n" } else { eol };
        let expected = join(&new, new_eol, final_newline, bom);
        let r = apply(&source, &patch, Mode::Update, &Options::default());
        let r = match r {
            Ok(r) => r,
            Err(e) => return Err(TestCaseError::fail(format!("{}\npatch:\n{patch}", e.message()))),
        };
        prop_assert_eq!(&r.text, &expected, "patch:\n{}", patch);
        prop_assert_eq!(r.fuzz, 0);
        prop_assert_eq!(&r.source, &source);
        // The same patch inside an envelope through the multi-file API.
        let env = format!("*** Begin Patch\n*** Update File: f.txt\n{patch}*** End Patch\n");
        let parsed = Patch::parse(&env).unwrap();
        let m = parsed.apply(|_| Some(source.as_str()), &Options::default()).unwrap();
        prop_assert_eq!(&m.files[0].applied.text, &expected);
    }

    #[test]
    fn random_bytes_never_panic(source in prop::collection::vec(any::<u8>(), 0..200), patch in prop::collection::vec(any::<u8>(), 0..200)) {
        for mode in Mode::ALL {
            let _ = apply_bytes(&source, &patch, mode, &Options::default());
        }
    }

    #[test]
    fn patch_like_text_never_panics(
        source in prop::collection::vec(prop::sample::select(vec!["a", "b", " a", "", "\u{201C}q\u{201D}", "\t\tx", "\r"]), 0..20),
        parts in prop::collection::vec(prop::sample::select(vec![
            "*** Begin Patch", "*** End Patch", "*** Update File: f", "*** Add File: g", "*** Delete File: f",
            "*** Move to: h", "*** End of File", "@@", "@@ a", "@@ -1,2 +1,2 @@ b", " a", "-a", "+b", "- b", "+", " ",
            "", "\\ No newline at end of file", "```", "<<EOF", "EOF", "\tx", "--- a/f", "+++ b/f",
        ]), 0..25),
        first_match in any::<bool>(),
    ) {
        let src = source.join("\n");
        let patch = parts.join("\n");
        let opts = Options { first_match, diff: v4a::DiffStyle::Full, refine: true, ..Options::default() };
        for mode in Mode::ALL {
            if let Ok(r) = apply(&src, &patch, mode, &opts) {
                let _ = r.unified_diff(3);
            }
        }
        if let Ok(p) = Patch::parse(&patch) {
            let _ = p.apply(|_| Some(src.as_str()), &opts);
        }
    }
}

fn repetitive_line() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "x",
        "x",
        "x",
        "y",
        "    x",
        "\tfn f() {",
        "}",
        "",
        "z = 1",
        "z  = 1",
        "\u{201C}q\u{201D}",
    ])
    .prop_map(str::to_string)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, max_global_rejects: 1_000_000, ..ProptestConfig::default() })]

    /// `apply(old, make_patch(old, new)) == new` byte for byte, on repetitive texts where
    /// uniqueness is hard, at every line-ending style and final-newline state.
    #[test]
    fn generated_patches_apply_back_exactly(
        old in prop::collection::vec(repetitive_line(), 0..30),
        new in prop::collection::vec(repetitive_line(), 0..30),
        eol in prop::sample::select(vec!["\n", "\r\n", "\r"]),
        old_nl in any::<bool>(),
        new_nl in any::<bool>(),
        bom in any::<bool>(),
    ) {
        let old_t = join(&old, eol, old_nl, bom);
        let new_t = join(&new, eol, new_nl, bom);
        let patch = v4a::make_patch(&old_t, &new_t, "f.txt", &v4a::GenerateOptions::default());
        // A text without any terminator (empty, or one line without a final newline) gives
        // added lines nothing to copy: they get LF, so other styles are not expressible there.
        let no_terminator = old.is_empty() || old.len() == 1 && !old_nl;
        let expressible = eol == "\n" || !no_terminator || new.len() <= 1 && !(new.len() == 1 && new_nl);
        let patch = match patch {
            Ok(p) => p,
            Err(e) if !expressible && e.status() == v4a::Status::InvalidArgument => return Ok(()),
            Err(e) => return Err(TestCaseError::fail(format!("make_patch failed: {}", e.message()))),
        };
        if old_t == new_t {
            // Identical texts give an envelope with no operation: an empty patch, refused.
            let e = Patch::parse(&patch).unwrap_err();
            prop_assert_eq!(e.status(), v4a::Status::PatchSyntax);
            return Ok(());
        }
        let p = Patch::parse(&patch).unwrap();
        let r = p.apply(|_| Some(old_t.as_str()), &Options::default());
        let r = match r {
            Ok(r) => r,
            Err(e) => return Err(TestCaseError::fail(format!("{}\npatch:\n{patch}", e.message()))),
        };
        let got = r.files.first().map_or(old_t.clone(), |f| f.applied.text.clone());
        prop_assert_eq!(got, new_t, "patch:\n{}", patch);
    }

    /// Applying a patch and then its reverse gives every file back byte for byte.
    #[test]
    fn reverse_patches_undo((old, edits, eol, final_newline, bom) in case()) {
        prop_assume!(!edits.is_empty());
        let source = join(&old, eol, final_newline, bom);
        let patch = format!(
            "*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.txt\n{}*** Add File: n.txt\n+new\n*** End Patch\n",
            write_patch(&old, &edits)
        );
        let parsed = Patch::parse(&patch).unwrap();
        let opts = Options::default();
        let forward = parsed.apply(|_| Some(source.as_str()), &opts).unwrap();
        // Emptying a file loses its terminator style: restoring CRLF/CR lines is not expressible.
        prop_assume!(eol == "\n" || forward.files[0].applied.text.contains(eol));
        let undo = parsed.reverse(|_| Some(source.as_str()), &opts).unwrap();
        let undo_parsed = Patch::parse(&undo).unwrap();
        let moved = forward.files[0].applied.text.clone();
        let back = undo_parsed.apply(|p| match p {
            "b.txt" => Some(moved.clone()),
            "n.txt" => Some("new\n".to_string()),
            _ => None,
        }, &opts).unwrap();
        prop_assert_eq!(back.files.len(), 2);
        prop_assert_eq!(back.files[0].kind, v4a::OpKind::Delete);
        prop_assert_eq!(back.files[1].target(), "a.txt");
        prop_assert_eq!(&back.files[1].applied.text, &source, "undo:\n{}", undo);
    }

    /// The reverse written from the files after the patch undoes it too.
    #[test]
    fn reverse_from_the_applied_files_undoes((old, edits, eol, final_newline, bom) in case()) {
        prop_assume!(!edits.is_empty());
        let source = join(&old, eol, final_newline, bom);
        let patch = format!(
            "*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.txt\n{}*** Add File: n.txt\n+new\n*** End Patch\n",
            write_patch(&old, &edits)
        );
        let parsed = Patch::parse(&patch).unwrap();
        let opts = Options::default();
        let forward = parsed.apply(|_| Some(source.as_str()), &opts).unwrap();
        prop_assume!(eol == "\n" || forward.files[0].applied.text.contains(eol));
        // The written patches never say "\ No newline at end of file", so they do not carry
        // a missing final newline of the source: the files after cannot tell it.
        prop_assume!(final_newline);
        let moved = forward.files[0].applied.text.clone();
        let after = |p: &str| match p {
            "b.txt" => Some(moved.clone()),
            "n.txt" => Some("new\n".to_string()),
            _ => None,
        };
        let undo = match parsed.reverse_applied(after, &opts) {
            Ok(u) => u,
            // The inverted hunk can be ambiguous in the patched text (the patch wrote a line
            // that occurs twice there): a refusal, never a wrong reverse.
            Err(e) if e.status() == v4a::Status::Ambiguous => return Ok(()),
            // A hunk of deletions alone (no context line) inverts to an insertion nothing in
            // the files after says the place of: refused, never guessed.
            Err(e)
                if e.status() == v4a::Status::InvalidArgument
                    && parsed.ops[0].hunks.iter().any(|h| {
                        h.lines.iter().all(|l| l.kind == v4a::LineKind::Delete)
                    }) =>
            {
                return Ok(())
            }
            Err(e) => return Err(TestCaseError::fail(format!("{}\npatch:\n{patch}", e.message()))),
        };
        let back = Patch::parse(&undo).unwrap().apply(after, &opts).unwrap();
        prop_assert_eq!(back.files[1].target(), "a.txt");
        prop_assert_eq!(&back.files[1].applied.text, &source, "undo:\n{}", undo);
    }
}

/// The lines of a text with their terminators, read one byte at a time (LF, CRLF, lone CR).
fn read_lines(t: &str) -> Vec<(&str, &str)> {
    let b = t.as_bytes();
    let (mut out, mut start, mut i) = (Vec::new(), 0, 0);
    while i < b.len() {
        let len = match (b[i], b.get(i + 1)) {
            (b'\r', Some(b'\n')) => 2,
            (b'\r', _) | (b'\n', _) => 1,
            _ => {
                i += 1;
                continue;
            }
        };
        out.push((&t[start..i], &t[i..i + len]));
        i += len;
        start = i;
    }
    if start < b.len() {
        out.push((&t[start..], ""));
    }
    out
}

prop_compose! {
    /// A file of short lines (many empty) with random terminators, and one edit.
    fn eol_case()(n in 1usize..10)(
        kinds in prop::collection::vec(prop::sample::select(vec!["", "", "a", "b c"]), n),
        eols in prop::collection::vec(prop::sample::select(vec!["\n", "\r\n", "\r"]), n),
        final_newline in any::<bool>(),
        start in 0..=n,
        len in 0usize..3,
        new in prop::collection::vec(prop::sample::select(vec!["", "", "X"]), 0..3),
    ) -> (Vec<String>, Vec<&'static str>, bool, Edit) {
        let n = kinds.len();
        let end = (start + len).min(n);
        (kinds.iter().map(|k| k.to_string()).collect(), eols, final_newline, Edit { start, end, new: new.iter().map(|k| k.to_string()).collect() })
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, max_global_rejects: 1_000_000, ..ProptestConfig::default() })]

    /// Terminators never merge lines (SPEC §4): with random terminators, the result read back
    /// has exactly the expected lines, and every kept line keeps its terminator — except the
    /// last line, whose terminator follows the final-newline state, and an empty LF line that
    /// a deletion brought next to a lone CR, which takes that CR.
    #[test]
    fn terminators_never_merge_lines((old, eols, final_newline, edit) in eol_case()) {
        prop_assume!(edit.start < edit.end || !edit.new.is_empty());
        prop_assume!(final_newline || old.last().is_some_and(|l| !l.is_empty()));
        let mut source = String::new();
        for (i, l) in old.iter().enumerate() {
            source.push_str(l);
            if i + 1 < old.len() || final_newline {
                source.push_str(eols[i]);
            }
        }
        // A lone CR before an empty LF line is a CRLF: such a source has other lines.
        prop_assume!(read_lines(&source).len() == old.len());
        // The whole file as context: the hunk has exactly one place.
        let mut patch = String::from("@@\n");
        for (i, l) in old.iter().enumerate() {
            if i == edit.start {
                patch.extend(edit.new.iter().map(|l| format!("+{l}\n")));
            }
            let prefix = if (edit.start..edit.end).contains(&i) { '-' } else { ' ' };
            patch.push_str(&format!("{prefix}{l}\n"));
        }
        if edit.start == old.len() {
            patch.extend(edit.new.iter().map(|l| format!("+{l}\n")));
        }
        // The hunk is the whole file: it ends there (a trailing empty context line alone is
        // weak evidence of where a hunk ends).
        patch.push_str("*** End of File\n");
        let expected = apply_edits(&old, std::slice::from_ref(&edit));
        // An empty last line without a terminator is no line at all: not expressible.
        prop_assume!(final_newline || expected.last().is_none_or(|l| !l.is_empty()));
        let r = apply(&source, &patch, Mode::Update, &Options::default())
            .map_err(|e| TestCaseError::fail(format!("{}\npatch:\n{patch}", e.message())))?;
        let got = read_lines(&r.text);
        let texts: Vec<&str> = got.iter().map(|(t, _)| *t).collect();
        prop_assert_eq!(&texts, &expected, "source {:?} result {:?}", source, r.text);
        let last = got.len().saturating_sub(1);
        for (i, old_eol) in eols.iter().enumerate() {
            if (edit.start..edit.end).contains(&i) {
                continue;
            }
            let j = if i < edit.start { i } else { i - (edit.end - edit.start) + edit.new.len() };
            let eol = got[j].1;
            if j == last {
                prop_assert_eq!(eol.is_empty(), !final_newline);
            } else if i + 1 == old.len() && !final_newline {
                prop_assert!(!eol.is_empty());
            } else if old[i].is_empty() && *old_eol == "\n" && j > 0 && got[j - 1].1 == "\r" {
                prop_assert_eq!(eol, "\r", "source {:?} result {:?}", source, r.text);
            } else {
                prop_assert_eq!(eol, *old_eol, "line {} of source {:?} result {:?}", i + 1, source, r.text);
            }
        }
    }
}

/// A token of a line and the ways a file or a model may write it (the first is ASCII).
fn typo_forms() -> Vec<Vec<&'static str>> {
    vec![
        vec!["x"],
        vec!["total"],
        vec!["=", "="],
        vec!["\"", "\u{201C}", "\u{201D}"],
        vec!["'", "\u{2018}", "\u{2019}"],
        vec!["-", "\u{2014}", "\u{2013}", "\u{2212}"],
        vec!["...", "\u{2026}"],
        vec![
            " ",
            "  ",
            "\t",
            "\u{00A0}",
            " \u{200B}",
            "\u{200B} ",
            " \u{200B} ",
            "\u{2003}",
        ],
        vec!["\u{200B}", "", "\u{FEFF}"],
    ]
}

prop_compose! {
    /// A line as tokens, the file's and the patch's renderings of it, and an edit of the
    /// patch's rendering (tokens `from..to` replaced by `insert`).
    fn typo_case()(tokens in prop::collection::vec(0usize..9, 1..12))(
        file_forms in prop::collection::vec(0usize..8, tokens.len()),
        patch_forms in prop::collection::vec(0usize..8, tokens.len()),
        from in 0..=tokens.len(),
        len in 0usize..4,
        insert in prop::collection::vec((0usize..9, 0usize..8), 0..4),
        tokens in Just(tokens),
    ) -> (Vec<usize>, Vec<usize>, Vec<usize>, usize, usize, Vec<(usize, usize)>) {
        let to = (from + len).min(tokens.len());
        (tokens, file_forms, patch_forms, from, to, insert)
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6000, max_global_rejects: 1_000_000, ..ProptestConfig::default() })]

    /// Typography (SPEC §4): a fold-level replacement writes the file's characters, never
    /// other text: the result line folds exactly like the `+` line (no whitespace the patch
    /// removed survives, no character it added is lost), and it is one line.
    #[test]
    fn fold_level_replacements_fold_like_the_added_line(
        (tokens, file_forms, patch_forms, from, to, insert) in typo_case(),
    ) {
        let forms = typo_forms();
        let render = |t: usize, f: usize| forms[t][f % forms[t].len()];
        // Lines start with a word: indentation is another property's business.
        let file: String = "x".chars().chain(tokens.iter().zip(&file_forms).flat_map(|(&t, &f)| render(t, f).chars())).collect();
        let mut old: Vec<&str> = vec!["x"];
        old.extend(tokens.iter().zip(&patch_forms).map(|(&t, &f)| render(t, f)));
        let (from, to) = (from + 1, to + 1);
        let mut new: Vec<&str> = old[..from].to_vec();
        new.extend(insert.iter().map(|&(t, f)| render(t, f)));
        new.extend_from_slice(&old[to..]);
        let (old, new) = (old.concat(), new.concat());
        let fold = |s: &str| v4a::normalized(s, v4a::Level::Fold);
        prop_assume!(!fold(&file).is_empty() && fold(&file) == fold(&old));
        let source = format!("begin\n{file}\nend\n");
        let patch = format!("@@\n begin\n-{old}\n+{new}\n end\n");
        let r = apply(&source, &patch, Mode::Update, &Options::default())
            .map_err(|e| TestCaseError::fail(format!("{}\npatch:\n{patch}", e.message())))?;
        prop_assume!(r.hunks[0].level == v4a::Level::Fold);
        let lines: Vec<&str> = r.text.split('\n').collect();
        prop_assert_eq!(lines.len(), 4, "result {:?}", r.text);
        prop_assert_eq!(lines[0], "begin");
        prop_assert_eq!(lines[2], "end");
        prop_assert_eq!(fold(lines[1]), fold(&new), "file {:?} old {:?} new {:?} result {:?}", file, old, new, lines[1]);
    }
}

/// An indentation of `level` levels in a style: 0 = 4 spaces, 1 = 2 spaces, 2 = a tab,
/// 3 = 8 spaces.
fn indent(style: usize, level: usize) -> String {
    match style {
        0 => "    ".repeat(level),
        1 => "  ".repeat(level),
        2 => "\t".repeat(level),
        _ => "        ".repeat(level),
    }
}

prop_compose! {
    /// A nested file (the level of each line), the line to replace, the levels of the lines
    /// replacing it (relative: 0 = the replaced line's level, 1 = one deeper), the file's and
    /// the patch's styles and the patch's shift in levels (-1, 0, +1).
    fn indent_case()(steps in prop::collection::vec(0usize..3, 2..14))(
        j in 0..steps.len(),
        new in prop::collection::vec(0usize..2, 1..4),
        file_style in 0usize..3,
        patch_style in 0usize..4,
        shift in 0usize..3,
        steps in Just(steps),
    ) -> (Vec<usize>, usize, Vec<usize>, usize, usize, isize) {
        // A walk: each line at most one level deeper than the one before.
        let mut levels = vec![0usize];
        for s in &steps[1..] {
            let prev = *levels.last().unwrap_or(&0);
            levels.push(match s { 0 => prev + 1, 1 => prev, _ => prev.saturating_sub(1) });
        }
        (levels, j, new, file_style, patch_style, shift as isize - 1)
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 5000, max_global_rejects: 1_000_000, ..ProptestConfig::default() })]

    /// The indentation map (SPEC §4) never writes a guessed depth: a patch written with
    /// another unit, style or a consistent shift (column 0 clamped) either lands with exactly
    /// the file's indentation at the intended depth, or is refused with
    /// INCONSISTENT_INDENTATION.
    #[test]
    fn reindented_lines_land_at_the_intended_depth(
        (levels, j, new, file_style, patch_style, shift) in indent_case(),
    ) {
        let n = levels.len();
        let new_levels: Vec<usize> = new.iter().map(|d| levels[j] + d).collect();
        // The file must show its unit: an unindented file has no style to follow.
        prop_assume!(levels.iter().any(|&l| l > 0));
        let patch_level = |l: usize| (l as isize + shift).max(0) as usize;
        // With a shift left, column 0 is clamped: one level deeper reads as column 0 too, so
        // only depths the patch can still tell apart are intended (or the replaced line's).
        prop_assume!(shift >= 0 || new_levels.iter().all(|&l| l >= 2 || l == levels[j]));
        let line = |i: usize, style: usize, l: usize| format!("{}s{i}", indent(style, l));
        let source: String = (0..n).map(|i| line(i, file_style, levels[i]) + "\n").collect();
        let mut patch = String::from("@@\n");
        let (from, to) = (j.saturating_sub(2), (j + 3).min(n));
        for (i, &level) in levels.iter().enumerate().take(to).skip(from) {
            let text = line(i, patch_style, patch_level(level));
            if i == j {
                patch.push_str(&format!("-{text}\n"));
                for (k, &l) in new_levels.iter().enumerate() {
                    patch.push_str(&format!("+{}n{k}\n", indent(patch_style, patch_level(l))));
                }
            } else {
                patch.push_str(&format!(" {text}\n"));
            }
        }
        let mut expected = String::new();
        for (i, &level) in levels.iter().enumerate() {
            if i == j {
                for (k, &l) in new_levels.iter().enumerate() {
                    expected.push_str(&format!("{}n{k}\n", indent(file_style, l)));
                }
            } else {
                expected.push_str(&(line(i, file_style, level) + "\n"));
            }
        }
        match apply(&source, &patch, Mode::Update, &Options::default()) {
            // Matched exactly (the window's lines all at column 0): no map applies, the
            // patch's indentation is written as given (SPEC §4 maps at the trim level only).
            Ok(r) if r.hunks[0].level < v4a::Level::Trim && (patch_style != file_style || shift != 0) => {}
            Ok(r) => prop_assert_eq!(&r.text, &expected, "source:\n{}patch:\n{}", source, patch),
            Err(e) => prop_assert_eq!(
                e.status(),
                v4a::Status::InconsistentIndentation,
                "{}\nsource:\n{}patch:\n{}", e.message(), source, patch
            ),
        }
    }
}
