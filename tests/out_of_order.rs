//! Hunks listed in reverse file order (issue 15 item 5): each one searches the region after
//! the hunk placed before it, which grows by a hunk every time. The searches share an index of
//! the file, so the work stays linear and the patch applies within a budget that a scan of
//! every region would exceed.

use v4a::{apply, Mode, Options, Status};

fn reversed(hunks: usize) -> (String, String, String) {
    let n = 2 * hunks;
    let source: String = (0..n).map(|i| format!("line {i}\n")).collect();
    let want: String = (0..n)
        .map(|i| {
            if i % 2 == 0 {
                format!("LINE {i}\n")
            } else {
                format!("line {i}\n")
            }
        })
        .collect();
    let patch: String = (0..hunks)
        .rev()
        .map(|h| format!("@@\n-line {0}\n+LINE {0}\n", 2 * h))
        .collect();
    (source, patch, want)
}

#[test]
fn hunks_in_reverse_order_apply_in_linear_work() {
    let (source, patch, want) = reversed(3_000);
    // Scanning every region would take about 3,000² / 2 · 2 levels = 9 million steps.
    let opts = Options {
        search_budget: 1_000_000,
        ..Options::default()
    };
    let r = match apply(&source, &patch, Mode::Update, &opts) {
        Ok(r) => r,
        Err(e) => panic!("{}", e.message()),
    };
    assert_eq!(r.text, want);
    assert!(r.hunks.iter().skip(1).all(|h| h.out_of_order));
}

#[test]
fn a_reversed_hunk_found_twice_is_still_ambiguous() {
    let (source, patch, _) = reversed(2_000);
    // A second copy of line 10 before every hunk: the hunk for line 10, searched in the whole
    // file once nothing after the hunk before it matches, finds both.
    let source = format!("line 10\n{source}");
    let Err(err) = apply(&source, &patch, Mode::Update, &Options::default()) else {
        panic!("applied");
    };
    assert_eq!(err.status(), Status::Ambiguous, "{}", err.message());
    assert!(
        err.message().contains("lines 1 and 12"),
        "{}",
        err.message()
    );
}

#[test]
fn a_reversed_hunk_over_a_placed_one_is_refused() {
    let (source, mut patch, _) = reversed(2_000);
    // Line 2000 again, after the hunks: it was changed by the hunk for line 2000 already.
    patch.push_str("@@\n-line 2000\n+again\n");
    let Err(err) = apply(&source, &patch, Mode::Update, &Options::default()) else {
        panic!("applied");
    };
    assert_ne!(err.status(), Status::SearchBudget, "{}", err.message());
    assert!(err.message().contains("2001"), "{}", err.message());
}
