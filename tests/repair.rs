//! The repair rate on saved drift cases (issue 15 item 4): for every refused case, the fix the
//! refusal offers (corrected hunk, suggested anchor or context line) is applied mechanically
//! and the result compared with the truth. The oracle part runs in `tests/oracle.rs`.
//!
//! `V4A_DRIFT_CASES=/path/to/DRIFT_WORK/cases cargo test -p v4a --test repair -- --ignored`
//! (each case directory holds `patch.v4a`, `target` and `truth`, as the drift benchmark saves
//! them). Prints the tally; fails on any fix that applies to something other than the truth.

#[path = "common/repair.rs"]
mod repair;

use std::collections::BTreeMap;
use std::path::PathBuf;

use repair::{choices, outcome, repaired, Outcome, ROUNDS};
use v4a::{apply, Mode, Options};

#[test]
#[ignore = "needs saved drift cases: set V4A_DRIFT_CASES"]
fn drift_refusals_repair_to_the_truth() {
    let dir = PathBuf::from(
        std::env::var_os("V4A_DRIFT_CASES").expect("set V4A_DRIFT_CASES to a drift cases dir"),
    );
    let mut ids: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("read V4A_DRIFT_CASES")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("patch.v4a").is_file())
        .collect();
    ids.sort();
    let (mut cases, mut refused, mut offered) = (0usize, 0usize, 0usize);
    let mut tally: BTreeMap<String, usize> = BTreeMap::new();
    let mut wrong = Vec::new();
    let mut unrepaired = Vec::new();
    for case in &ids {
        let read = |f: &str| std::fs::read_to_string(case.join(f)).ok();
        let (Some(patch), Some(target), Some(truth)) =
            (read("patch.v4a"), read("target"), read("truth"))
        else {
            continue;
        };
        cases += 1;
        let Err(err) = apply(&target, &patch, Mode::Update, &Options::default()) else {
            continue;
        };
        refused += 1;
        let name = case.file_name().map(|n| n.to_string_lossy().to_string());
        let name = name.unwrap_or_default();
        let key = |what: &str| format!("{:?} / {what}", err.status());
        let fix = match (choices(&patch, &err).first(), repaired(&patch, &err)) {
            (Some((_, fix, _, _)), _) => Some(format!("{fix:?} (the candidate meant)")),
            (None, Some((fix, _))) => Some(format!("{fix:?}")),
            (None, None) => None,
        };
        match fix {
            None => *tally.entry(key("no mechanical fix")).or_default() += 1,
            Some(fix) => {
                offered += 1;
                let o = outcome(&target, &patch, &truth, ROUNDS);
                *tally.entry(key(&format!("{fix} -> {o:?}"))).or_default() += 1;
                match o {
                    Outcome::Wrong => wrong.push(format!("{name} ({fix})")),
                    Outcome::Refused => unrepaired.push(format!("{name} ({fix})")),
                    Outcome::Intended => {}
                }
            }
        }
    }
    let intended = offered - wrong.len() - unrepaired.len();
    eprintln!(
        "repair (drift): {cases} cases, {refused} refused, {offered} offer a fix; applied \
         mechanically: {intended} intended ({:.1}%), {} refused again, {} wrong",
        100.0 * intended as f64 / offered.max(1) as f64,
        unrepaired.len(),
        wrong.len()
    );
    for (k, v) in &tally {
        eprintln!("  {v:5}  {k}");
    }
    eprintln!("refused again: {}", unrepaired.join(", "));
    assert!(cases > 0, "no cases under {}", dir.display());
    assert!(
        wrong.is_empty(),
        "fixes that apply wrongly: {}",
        wrong.join(", ")
    );
}
