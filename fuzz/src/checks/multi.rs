//! Target `multi`: multi-file apply.

use std::collections::BTreeMap;

use engine::{apply_patch_indexed, OpKind, Patch};

use super::common::*;

/// `multi`: [`decode_multi`]. Applies the patch with `apply_patch_indexed` and `Patch::apply`
/// (by path), which must agree; on success each file result is checked with
/// [`check_applied`] and equals applying its operation alone; on failure, the first operation
/// that fails alone fails with the same status (atomicity: one bad operation, one error).
pub fn multi(data: &[u8]) {
    let (opts, text, sources) = decode_multi(data);
    let Ok(patch) = Patch::parse(&text) else {
        return;
    };
    let by_op = sources_by_op(&patch, &sources);
    let indexed = apply_patch_indexed(&patch, |i, _| by_op[i], &opts);
    let by_path: BTreeMap<&str, &[u8]> = patch
        .ops
        .iter()
        .zip(&by_op)
        .filter_map(|(op, s)| s.map(|s| (op.path.as_str(), s)))
        .collect();
    let named = patch.apply(|p| by_path.get(p).copied(), &opts);
    match (&indexed, &named) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "Patch::apply and apply_patch_indexed differ"),
        (Err(a), Err(b)) => assert_eq!(a.status(), b.status()),
        _ => panic!("Patch::apply and apply_patch_indexed disagree: {indexed:?} / {named:?}"),
    }
    let alone = |i: usize| {
        let one = Patch {
            ops: vec![patch.ops[i].clone()],
            has_file_headers: patch.has_file_headers,
        };
        apply_patch_indexed(&one, |_, _| by_op[i], &opts)
    };
    match indexed {
        Ok(r) => {
            assert_eq!(r.files.len(), patch.ops.len());
            for (i, (f, op)) in r.files.iter().zip(&patch.ops).enumerate() {
                assert_eq!((f.kind, &f.path), (op.kind, &op.path));
                assert_eq!(f.target(), op.target());
                let src = by_op[i].map(|s| std::str::from_utf8(s).expect("applied non-UTF-8"));
                let kind = match op.kind {
                    OpKind::Add => Kind::Create,
                    OpKind::Delete => Kind::Delete,
                    OpKind::Update => Kind::Update,
                };
                check_applied(&f.applied, src.unwrap_or(""), kind, &opts);
                check_hunks(&f.applied, &op.hunks);
                let single = alone(i).unwrap_or_else(|e| panic!("op {i} fails alone: {e:?}"));
                assert_eq!(&single.files[0], f, "op {i} gives another result alone");
            }
            let summary = r.summary();
            assert_eq!(summary.lines().count(), 1 + r.files.len());
        }
        Err(e) => {
            // An invalid source is named by its path: check the offset against that source.
            // (A bare diff's empty path is not named.)
            let path = e.diagnostics().path.as_deref().unwrap_or("");
            let i = patch.ops.iter().position(|op| op.path == path);
            let src = i.and_then(|i| by_op[i]).unwrap_or_default();
            check_error(&e, &[("source", src)]);
            let first = (0..patch.ops.len()).find_map(|i| alone(i).err());
            let first = first.unwrap_or_else(|| panic!("fails, but every op applies alone: {e:?}"));
            assert_eq!(first.status(), e.status(), "{first:?} / {e:?}");
        }
    }
}
