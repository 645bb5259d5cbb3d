//! Target `apply`: single-file apply.

use engine::{apply_bytes, DiffStyle, Mode, Options, Patch, Status};

use super::common::*;

/// `apply`: a 4-byte header ([`decode_options`], with the mode in byte 0), then the source,
/// `0xFF`, and the patch (to the end of the input; both may be invalid UTF-8).
///
/// * no panic; errors are well formed ([`check_error`]);
/// * on success every invariant of [`check_applied`] holds: the source comes back unchanged,
///   hunk ranges lie inside the texts, the edit script and the structured diff rebuild the new
///   text, kept lines keep their terminators, refine segments lie inside their line, on
///   grapheme boundaries, and cover it;
/// * with a small search budget, an outcome other than `SEARCH_BUDGET` is the same with the
///   default budget; a success without first-match is the same success with first-match.
pub fn apply(data: &[u8]) {
    let (h, rest) = header::<4>(data);
    let (source, patch) = split_once(rest);
    let mode = Mode::ALL[usize::from(h[0] & 3)];
    let opts = decode_options(h);
    let r = apply_bytes(source, patch, mode, &opts);
    let kind = match mode {
        Mode::Create => Kind::Create,
        Mode::Delete => Kind::Delete,
        Mode::Update | Mode::Move => Kind::Update,
    };
    match &r {
        Ok(a) => {
            let src = std::str::from_utf8(source).unwrap_or("");
            check_applied(a, src, kind, &opts);
            if kind == Kind::Update {
                if let Ok(p) = Patch::parse(&lossy(patch)) {
                    check_hunks(a, &p.ops[0].hunks);
                }
            }
        }
        Err(e) => {
            check_error(e, &[("source", source), ("patch", patch)]);
            if opts.search_budget == DEFAULT_BUDGET {
                assert_ne!(
                    e.status(),
                    Status::SearchBudget,
                    "a small input exhausted the budget"
                );
            }
        }
    }
    let plain = Options {
        diff: DiffStyle::None,
        refine: false,
        ..opts.clone()
    };
    if opts.search_budget != DEFAULT_BUDGET
        && !matches!(&r, Err(e) if e.status() == Status::SearchBudget)
    {
        let again = apply_bytes(
            source,
            patch,
            mode,
            &Options {
                search_budget: DEFAULT_BUDGET,
                ..plain.clone()
            },
        );
        assert_eq!(
            outcome(&r),
            outcome(&again),
            "a larger search budget changed the outcome"
        );
    }
    if let (Ok(a), false) = (&r, opts.first_match) {
        let first = apply_bytes(
            source,
            patch,
            mode,
            &Options {
                first_match: true,
                ..plain
            },
        );
        match first {
            Ok(b) => assert_eq!(a.text, b.text, "first_match changed a unique result"),
            Err(e) => panic!("first_match fails where the unique search succeeded: {e:?}"),
        }
    }
}
