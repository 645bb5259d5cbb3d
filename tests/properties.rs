//! Property tests: random texts with random non-overlapping edits, written as a V4A patch by a
//! test-side writer, apply back exactly at every line-ending style; random input never panics.

use proptest::prelude::*;
use v4a::{apply, apply_bytes, parse_patch, Mode, Options};

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
        let parsed = parse_patch(&env).unwrap();
        let m = v4a::apply_patch(&parsed, |_| Some(source.as_str()), &Options::default()).unwrap();
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
        if let Ok(p) = parse_patch(&patch) {
            let _ = v4a::apply_patch(&p, |_| Some(src.as_str()), &opts);
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
        let p = parse_patch(&patch).unwrap();
        let r = v4a::apply_patch(&p, |_| Some(old_t.as_str()), &Options::default());
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
        let parsed = parse_patch(&patch).unwrap();
        let opts = Options::default();
        let forward = v4a::apply_patch(&parsed, |_| Some(source.as_str()), &opts).unwrap();
        // Emptying a file loses its terminator style: restoring CRLF/CR lines is not expressible.
        prop_assume!(eol == "\n" || forward.files[0].applied.text.contains(eol));
        let undo = v4a::reverse(&parsed, |_| Some(source.as_str()), &opts).unwrap();
        let undo_parsed = parse_patch(&undo).unwrap();
        let moved = forward.files[0].applied.text.clone();
        let back = v4a::apply_patch(&undo_parsed, |p| match p {
            "b.txt" => Some(moved.clone()),
            "n.txt" => Some("new\n".to_string()),
            _ => None,
        }, &opts).unwrap();
        prop_assert_eq!(back.files.len(), 2);
        prop_assert_eq!(back.files[0].kind, v4a::OpKind::Delete);
        prop_assert_eq!(back.files[1].target(), "a.txt");
        prop_assert_eq!(&back.files[1].applied.text, &source, "undo:\n{}", undo);
    }

    /// The reverse written from the files after the patch undoes it too; and the reverse
    /// written from the files before, given the patched files instead, is an error that says
    /// so, never an empty patch.
    #[test]
    fn reverse_from_the_applied_files_undoes((old, edits, eol, final_newline, bom) in case()) {
        prop_assume!(!edits.is_empty());
        let source = join(&old, eol, final_newline, bom);
        let patch = format!(
            "*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.txt\n{}*** Add File: n.txt\n+new\n*** End Patch\n",
            write_patch(&old, &edits)
        );
        let parsed = parse_patch(&patch).unwrap();
        let opts = Options::default();
        let forward = v4a::apply_patch(&parsed, |_| Some(source.as_str()), &opts).unwrap();
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
        let undo = match v4a::reverse_applied(&parsed, after, &opts) {
            Ok(u) => u,
            // The inverted hunk can be ambiguous in the patched text (the patch wrote a line
            // that occurs twice there): a refusal, never a wrong reverse.
            Err(e) if e.status() == v4a::Status::Ambiguous => return Ok(()),
            Err(e) => return Err(TestCaseError::fail(format!("{}\npatch:\n{patch}", e.message()))),
        };
        let back = v4a::apply_patch(&parse_patch(&undo).unwrap(), after, &opts).unwrap();
        prop_assert_eq!(back.files[1].target(), "a.txt");
        prop_assert_eq!(&back.files[1].applied.text, &source, "undo:\n{}", undo);
        let has_deletions = parsed.ops[0].hunks.iter().any(|h| h.has_deletions());
        if has_deletions && moved != source {
            // `reverse` given the patched files: the patch is already applied there.
            let wrong = v4a::reverse(&parsed, |p: &str| match p {
                "a.txt" => Some(moved.clone()),
                _ => None,
            }, &opts);
            if let Ok(u) = &wrong {
                prop_assert!(u.contains("@@"), "an empty reverse: {}", u);
            }
        }
    }
}
