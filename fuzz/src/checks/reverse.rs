//! Target `reverse`: the reverse round trips.

use std::collections::BTreeMap;

use engine::{DiffStyle, OpKind, Options, Patch, Status};

use super::common::*;

/// `reverse`: the multi-file encoding ([`decode_multi`]). When the patch applies, its reverse
/// is canonical and, applied to the files after the patch, gives back the files before it.
/// `INVALID_ARGUMENT` is accepted only when carriage returns or BOMs make the change
/// inexpressible; a patch that changes nothing has no reverse (an error saying why).
pub fn reverse_round_trip(data: &[u8]) {
    let (opts, text, sources) = decode_multi(data);
    let opts = Options {
        diff: DiffStyle::None,
        refine: false,
        ..opts
    };
    let Ok(patch) = Patch::parse(&text) else {
        return;
    };
    if !patch.has_file_headers {
        return;
    }
    let mut before: BTreeMap<String, String> = BTreeMap::new();
    for (op, s) in patch.ops.iter().zip(sources_by_op(&patch, &sources)) {
        if let Some(s) = s {
            before.insert(op.path.clone(), lossy(s));
        }
    }
    let Ok(forward) = patch.apply(|p| before.get(p), &opts) else {
        return;
    };
    let mut after = before.clone();
    for f in &forward.files {
        after.remove(&f.path);
        if f.kind != OpKind::Delete {
            after.insert(f.target().to_string(), f.applied.text.clone());
        }
    }
    // `reverse_applied` can give back only what the patch carries: every hunk placed exactly
    // (a looser match re-adds the patch's `-` lines, not the file's), none already applied
    // (its inverse would add lines that were never there), no final newline added by option,
    // no carriage return (the known CR + LF merge, FUZZING.md), no U+FEFF (an added line
    // that starts a file with one reads back as a BOM).
    let exact = forward.files.iter().all(|f| {
        f.applied
            .hunks
            .iter()
            .all(|h| h.fuzz == 0 && !h.already_applied)
    });
    let cr = before
        .values()
        .chain(after.values())
        .any(|t| t.contains(['\r', '\u{feff}']));
    if exact && !opts.ensure_final_newline && !cr {
        check_reverse_applied(&patch, &before, &after);
    }
    let inexpressible = |t: &str| t.contains('\r') || t.contains('\u{feff}');
    // A patch that changes nothing has no reverse: an error that says why (ALREADY_APPLIED
    // when a hunk was already there), never an empty patch.
    let changes_nothing = forward
        .files
        .iter()
        .all(|f| f.kind == OpKind::Update && f.move_to.is_none() && !f.applied.changed());
    let undo = match patch.reverse(|p| before.get(p), &opts) {
        Ok(u) => {
            assert!(!changes_nothing, "an empty reverse:\n{u}");
            u
        }
        Err(e) if changes_nothing => {
            let already = forward
                .files
                .iter()
                .any(|f| f.applied.hunks.iter().any(|h| h.already_applied));
            let want = if already {
                Status::AlreadyApplied
            } else {
                Status::InvalidArgument
            };
            assert_eq!(
                e.status(),
                want,
                "a reverse of a patch that changes nothing: {e:?}"
            );
            return;
        }
        Err(e) => {
            let involved = forward
                .files
                .iter()
                .any(|f| inexpressible(&f.applied.text) || inexpressible(&f.applied.source));
            assert!(
                e.status() == Status::InvalidArgument && involved,
                "reverse fails: {e:?}"
            );
            return;
        }
    };
    // Canonical, unless a path holds a carriage return (no canonical form has one).
    let undo_patch = if undo.contains('\r') {
        Patch::parse(&undo)
    } else {
        Patch::parse_strict(&undo)
    };
    let undo_patch =
        undo_patch.unwrap_or_else(|e| panic!("reverse is not canonical: {e:?}\n{undo}"));
    let back = undo_patch
        .apply(|p| after.get(p), &Options::default())
        .unwrap_or_else(|e| panic!("the reverse does not apply: {e:?}\n{undo}"));
    let mut restored = after.clone();
    for f in &back.files {
        restored.remove(&f.path);
        if f.kind != OpKind::Delete {
            restored.insert(f.target().to_string(), f.applied.text.clone());
        }
    }
    // A deleted file comes back through "*** Add File", which writes LF line endings.
    let deleted_cr = forward
        .files
        .iter()
        .any(|f| f.kind == OpKind::Delete && f.applied.source.contains('\r'));
    if !deleted_cr {
        assert_eq!(
            restored, before,
            "patch then reverse is not the identity:\n{undo}"
        );
    }
}

/// `reverse_applied`, from the files after an exact patch: when it gives a reverse, that reverse
/// applied to those files gives back the files before the patch, byte for byte (a file the
/// patch added is deleted again). A patch with a Delete File has no such reverse (the deleted
/// text is not in the patch); any other refusal is a well-formed error (an inverted hunk may
/// be ambiguous in the patched files, a CR or BOM change inexpressible), never an internal one.
fn check_reverse_applied(
    patch: &Patch,
    before: &BTreeMap<String, String>,
    after: &BTreeMap<String, String>,
) {
    let undo = match patch.reverse_applied(|p| after.get(p), &Options::default()) {
        Ok(u) => u,
        Err(e) => {
            check_error(&e, &[]);
            if patch.ops.iter().any(|op| op.kind == OpKind::Delete) {
                assert_eq!(e.status(), Status::InvalidArgument, "{e:?}");
            }
            return;
        }
    };
    assert!(
        patch.ops.iter().all(|op| op.kind != OpKind::Delete),
        "reverse_applied reversed a Delete File:\n{undo}"
    );
    let undo_patch = Patch::parse(&undo).unwrap_or_else(|e| {
        panic!("reverse_applied gives a patch that does not parse: {e:?}\n{undo}")
    });
    let back = undo_patch
        .apply(|p| after.get(p), &Options::default())
        .unwrap_or_else(|e| {
            panic!("reverse_applied's patch does not apply to the files after: {e:?}\n{undo}")
        });
    let mut restored = after.clone();
    for f in &back.files {
        restored.remove(&f.path);
        if f.kind != OpKind::Delete {
            restored.insert(f.target().to_string(), f.applied.text.clone());
        }
    }
    assert_eq!(
        &restored, before,
        "reverse_applied's patch does not give back the files before:\n{undo}\nthe patch:\n{patch:?}\nafter: {after:?}"
    );
}
