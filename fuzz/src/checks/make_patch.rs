//! Target `make_patch`: the `make_patch` round trip.

use engine::{make_patch, GenerateOptions, Mode, Options, Patch, Status};

use super::common::*;

/// `make_patch`: a 1-byte header (bits 0-2: context lines; bits 3-4: `max_context` 50, 4, 0,
/// or both `usize::MAX`), then the old and the new text separated by `0xFF` (lossily decoded).
///
/// * a generated patch is canonical (strict parse) and applies to the old text, exactly (every
///   hunk at fuzz 0), giving the new text byte for byte; identical texts give an empty
///   envelope;
/// * `INVALID_ARGUMENT` only when the texts differ in a way a patch cannot express: a BOM added
///   or removed, or carriage returns in play; no other error.
pub fn make_patch_round_trip(data: &[u8]) {
    let (h, rest) = header::<1>(data);
    let (old, new) = split_once(rest);
    let (old, new) = (lossy(old), lossy(new));
    let context = usize::from(h[0] & 7);
    let gen = match h[0] >> 3 & 3 {
        0 => GenerateOptions {
            context,
            max_context: 50,
        },
        1 => GenerateOptions {
            context,
            max_context: 4,
        },
        2 => GenerateOptions {
            context,
            max_context: 0,
        },
        _ => GenerateOptions {
            context: usize::MAX,
            max_context: usize::MAX,
        },
    };
    match make_patch(&old, &new, "f", &gen) {
        Ok(p) => {
            if old == new {
                // Identical texts give an empty envelope (documented): an empty patch, which
                // the parser refuses (SPEC §2.3).
                assert_eq!(p, "*** Begin Patch\n*** End Patch\n");
                let e = Patch::parse_strict(&p).expect_err("an empty patch is an error");
                assert_eq!(e.status(), Status::PatchSyntax);
                return;
            }
            let parsed = Patch::parse_strict(&p)
                .unwrap_or_else(|e| panic!("generated patch is not canonical: {e:?}\n{p}"));
            assert_eq!(parsed.ops.len(), 1);
            let r = engine::apply(&old, &p, Mode::Update, &Options::default())
                .unwrap_or_else(|e| panic!("generated patch does not apply: {e:?}\n{p}"));
            assert_eq!(r.text, new, "generated patch gives another text:\n{p}");
            for h in &r.hunks {
                assert!(h.fuzz == 0 && !h.already_applied, "inexact hunk {h:?}\n{p}");
            }
        }
        Err(e) => match e.status() {
            Status::InvalidArgument => {
                let bom = |t: &str| t.starts_with('\u{feff}');
                assert!(
                    bom(&old) != bom(&new) || old.contains('\r') || new.contains('\r'),
                    "make_patch refuses an expressible change: {e:?}"
                );
            }
            _ => panic!("unexpected make_patch error: {e:?}"),
        },
    }
}
