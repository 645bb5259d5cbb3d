//! Target `merge`: base-aware apply (SPEC §3.2), a patch written against the text the model
//! saw, carried to the text as it is now.

use engine::{apply, apply_with_base, ApplyResult, DiffStyle, Error, Mode, Options, Status};

use super::common::*;
use super::SEP;

/// `merge`: a 6-byte header (bytes 0-3 [`decode_options`], the mode aside: always Update;
/// byte 4 where the drift goes; byte 5 bit 0: the drift replaces a line instead of inserting
/// before it), then the base, `0xFF`, the patch, `0xFF`, and the drift lines (lossily decoded;
/// split at LF).
///
/// * with `base == current`, `apply_with_base` gives exactly `apply`'s result, or its error;
/// * when the patch applies to the base and changes it, the current text is the base with the
///   drift lines inserted (or replacing one line) away from every hunk (at least one base line
///   between the drift and a hunk's lines); the drift lines may copy base lines, the hunk's
///   included: `apply_with_base` then merges, giving the plain result with the same drift, or
///   refuses with `CONFLICT`, or with `AMBIGUOUS` naming at least two places (the drift copied
///   the hunk's lines, and the alignment has two readings); never another outcome (never the
///   edit carried to a copy).
pub fn merge(data: &[u8]) {
    let (h, rest) = header::<6>(data);
    let mut parts = rest.split(|&b| b == SEP);
    let base = lossy(parts.next().unwrap_or_default());
    let patch = lossy(parts.next().unwrap_or_default());
    let drift = lossy(parts.next().unwrap_or_default());
    let opts = decode_options([h[0] & !3, h[1], h[2], h[3]]);
    let plain = apply(&base, &patch, Mode::Update, &opts);
    let same = apply_with_base(&base, &base, &patch, Mode::Update, &opts);
    match (&plain, &same) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "base == current, but the result differs"),
        (Err(a), Err(b)) => {
            assert_eq!(
                (a.status(), a.message()),
                (b.status(), b.message()),
                "base == current, but the error differs"
            );
            check_error(b, &[]);
        }
        _ => panic!("base == current, but the outcome differs: {plain:?} / {same:?}"),
    }
    let Ok(a) = plain else { return };
    check_drift(&base, &patch, &a, &drift, h[4], h[5] & 1 != 0, &opts);
}

/// The independent-drift half of [`merge`].
#[allow(clippy::too_many_arguments)]
fn check_drift(
    base: &str,
    patch: &str,
    a: &ApplyResult,
    drift: &str,
    at: u8,
    replace: bool,
    opts: &Options,
) {
    if !a.changed()
        || a.hunks.iter().any(|h| h.already_applied)
        || base.contains(['\r', '\u{feff}'])
        || drift.contains('\r')
        || !(base.is_empty() || base.ends_with('\n'))
    {
        return;
    }
    let old = lines(base);
    let new = lines(&a.text);
    let n = old.len();
    let k = usize::from(at) % (n + 1);
    if replace && k == n {
        return;
    }
    // At least one base line between the drift and every hunk's lines.
    let away = a.hunks.iter().all(|h| {
        let s = h.old_start as usize - 1;
        let e = s + h.old_len as usize;
        if replace {
            k + 1 < s || k > e
        } else {
            k < s || k > e
        }
    });
    if !away {
        return;
    }
    let drift_lines: Vec<&str> = drift.split('\n').collect();
    let splice = |l: &[(&str, &str)], at: usize, remove: usize| -> String {
        let mut out = String::new();
        for (c, t) in &l[..at] {
            out.push_str(c);
            out.push_str(t);
        }
        for d in &drift_lines {
            out.push_str(d);
            out.push('\n');
        }
        for (c, t) in &l[at + remove..] {
            out.push_str(c);
            out.push_str(t);
        }
        out
    };
    let remove = usize::from(replace);
    let current = splice(&old, k, remove);
    // Base line k in the patched text: shifted by the changes before it (every change lies
    // inside a hunk, so wholly before or wholly after k).
    let mut shift = 0isize;
    for ch in &a.changes {
        if ch.old_lines().start < k {
            shift += ch.new_len as isize - ch.old_len as isize;
        }
    }
    let at_new = (k as isize + shift) as usize;
    if at_new + remove > new.len() {
        return;
    }
    let expected = splice(&new, at_new, remove);
    // The plain apply's options, with the default search budget: a small budget may be
    // spent on the second text.
    let opts = Options {
        diff: DiffStyle::None,
        refine: false,
        search_budget: Options::default().search_budget,
        ..opts.clone()
    };
    let merged: Result<ApplyResult, Error> =
        apply_with_base(&current, base, patch, Mode::Update, &opts);
    match merged {
        Ok(m) => assert_eq!(
            m.text, expected,
            "a merge with independent drift at base line {} gives another text:\ncurrent:\n{current}",
            k + 1
        ),
        Err(e) => {
            check_error(&e, &[]);
            match e.status() {
                Status::Conflict => {}
                Status::Ambiguous => assert!(
                    e.diagnostics().candidates.len() >= 2,
                    "an ambiguous merge names fewer than two places: {e:?}"
                ),
                _ => panic!(
                    "independent drift at base line {}: neither a merge nor a refusal: {e:?}",
                    k + 1
                ),
            }
        }
    }
}
