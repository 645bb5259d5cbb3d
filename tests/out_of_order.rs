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

/// A 64-bit LCG: deterministic cases without a dependency.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// One case of repeated blocks: a file where `    value = 1` occurs up to 5 times among unique
/// lines, a patch that edits some copies (each hunk the same edit, some with a line of context
/// after it) and some unique lines, in file order or `shuffle`d. Returns the source, the patch,
/// the text meant and whether the hunks are in file order.
fn repeated_blocks(rng: &mut Rng, shuffle: bool) -> (String, String, String, bool) {
    let mut lines: Vec<String> = Vec::new();
    let (mut copies, mut unique) = (Vec::new(), Vec::new());
    for j in 0..4 + rng.below(5) {
        if copies.len() < 5 && rng.below(10) < 6 {
            copies.push(lines.len());
            lines.push("    value = 1".to_string());
        } else {
            unique.push(lines.len());
            lines.push(format!("    unique {j} {}", rng.below(100)));
        }
        lines.push(if rng.below(10) < 7 {
            format!("x{j}")
        } else {
            String::new()
        });
    }
    let mut hunks: Vec<(usize, String)> = Vec::new();
    let mut meant = lines.clone();
    for &c in &copies {
        if rng.below(3) > 0 {
            meant[c] = "    value = 2".to_string();
            let mut h = String::from("@@\n-    value = 1\n+    value = 2\n");
            if rng.below(10) < 3 {
                h.push_str(&format!(" {}\n", lines[c + 1]));
            }
            hunks.push((c, h));
        }
    }
    for &u in &unique {
        if rng.below(3) == 0 {
            meant[u] = format!("{} edited", lines[u]);
            hunks.push((u, format!("@@\n-{0}\n+{0} edited\n", lines[u])));
        }
    }
    hunks.sort();
    let in_order = !shuffle || hunks.len() < 2;
    if !in_order {
        for k in (1..hunks.len()).rev() {
            hunks.swap(k, rng.below(k as u64 + 1) as usize);
        }
    }
    let join = |v: &[String]| v.iter().map(|l| format!("{l}\n")).collect::<String>();
    let patch: String = hunks.iter().map(|(_, h)| h.as_str()).collect();
    (join(&lines), patch, join(&meant), in_order)
}

#[test]
fn repeated_blocks_never_land_elsewhere_than_meant() {
    // The adversary of the region rule and of repeated edits: copies of one line, the same
    // edit made to some of them, patches in file order and shuffled. In file order a patch
    // lands as meant or is refused. Shuffled, the region rule reads it in file order (SPEC
    // §3.2) and can be misled when nothing in the patch shows the shuffle; once a hunk lands
    // out of order, the shuffle is shown, and nothing may land elsewhere than meant.
    let mut rng = Rng(17);
    let (mut landed, mut refused) = (0, 0);
    for case in 0..4_000 {
        let (source, patch, meant, in_order) = repeated_blocks(&mut rng, case % 2 == 1);
        if patch.is_empty() {
            continue;
        }
        match apply(&source, &patch, Mode::Update, &Options::default()) {
            Ok(r) if in_order || r.hunks.iter().any(|h| h.out_of_order) => {
                assert_eq!(r.text, meant, "case {case}:\n{patch}\n{source}");
                landed += 1;
            }
            Ok(_) => {}
            Err(_) => refused += 1,
        }
    }
    // Both outcomes occur: the test is not vacuous.
    assert!(
        landed > 500 && refused > 500,
        "landed {landed}, refused {refused}"
    );
}
