//! Every cost bounded, covering diagnostics (issue 15 item 5): the inputs the issue names, each
//! answered within 1 s per MB of input plus 0.1 s, with a peak heap within 4x the input and
//! the right status. `cargo bench --bench costs` (release); `V4A_COSTS=name` runs one case.
//! Prints one row per case and exits non-zero when a case misses its bound.

#[path = "support/counting_alloc.rs"]
mod counting_alloc;

use std::time::Instant;

use counting_alloc::{peak_since, start_peak, Counting};
use v4a::{apply, Level, Mode, Options, Status};

#[global_allocator]
static ALLOC: Counting = Counting;

/// One input: source, patch, options, and the status it must give (`None`: it applies).
struct Case {
    name: &'static str,
    source: String,
    patch: String,
    opts: Options,
    want: Option<Status>,
    /// Words the message must contain (the right thing blamed).
    says: &'static str,
}

/// A 64-bit LCG: deterministic inputs without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
}

/// A hunk of `m` lines alternating a near miss of a file line and an unrelated line, against
/// a file of distinct lines (the not-found diagnostics were quadratic in `m`).
fn near_misses(m: usize) -> Case {
    let n = 8_000;
    let source: String = (0..n)
        .map(|i| format!("    let value_{i} = compute({i}, {});\n", i * 7))
        .collect();
    let mut patch = String::from("@@\n");
    for k in 0..m {
        if k % 2 == 0 {
            let i = (k * 3) % n;
            patch.push_str(&format!(
                "-    let value_{i} = compute({i}, {});\n",
                i * 7 + 1
            ));
        } else {
            patch.push_str(&format!(" unrelated line number {k} of the patch\n"));
        }
    }
    patch.push_str("+    done();\n");
    Case {
        name: if m == 1000 {
            "near-miss hunk, M=1000"
        } else {
            "near-miss hunk, M=8000"
        },
        source,
        patch,
        opts: Options::default(),
        want: Some(Status::ContextNotFound),
        says: "was not found",
    }
}

/// A 10 MB file of long `é` lines and `hunks` hunks with prefix anchors (each re-normalised
/// every line).
fn accented_prefix_anchors(hunks: usize) -> Case {
    let lines = 10 * 1024 * 1024 / 400;
    let source: String = (0..lines)
        .map(|i| format!("def f{i}(): # {}\n", "é".repeat(190)))
        .collect();
    let mut patch = String::new();
    for h in 0..hunks {
        let i = (h + 1) * (lines / (hunks + 1));
        let line = format!("def f{i}(): # {}", "é".repeat(190));
        patch.push_str(&format!("@@ def f{i}()\n-{line}\n+def g{i}(): pass\n"));
    }
    Case {
        name: "10 MB of long é lines, 50 prefix-anchored hunks",
        source,
        patch,
        opts: Options::default(),
        want: None,
        says: "",
    }
}

/// One 21 MB line of U+FDFA (NFKC expands it 18-fold) and a hunk that needs a loose level.
fn one_huge_expanding_line() -> Case {
    let source = format!("{}\nend\n", "\u{FDFA}".repeat(7 * 1024 * 1024));
    // Fullwidth letters: equal to `end` only at the fold level (NFKC).
    let patch = "@@\n-\u{FF45}\u{FF4E}\u{FF44}\n+END\n".to_string();
    Case {
        name: "one 21 MB line of U+FDFA, loose level",
        source,
        patch,
        opts: Options {
            max_level: Level::Fold,
            ..Options::default()
        },
        want: None,
        says: "",
    }
}

/// 50,000 random `x`/`y` lines: a hunk found nowhere must not blame repetitiveness wrongly.
fn random_xy() -> Case {
    let mut rng = Rng(7);
    let source: String = (0..50_000)
        .map(|_| if rng.next() % 2 == 0 { "x\n" } else { "y\n" })
        .collect();
    let mut patch = String::from("@@\n");
    for _ in 0..40 {
        patch.push_str(if rng.next() % 2 == 0 { " x\n" } else { " y\n" });
    }
    patch.push_str("-z\n+w\n");
    Case {
        name: "50,000 random x/y lines, hunk found nowhere",
        source,
        patch,
        opts: Options::default(),
        want: Some(Status::ContextNotFound),
        says: "was not found",
    }
}

/// 20,000 hunks in reverse order on a file of distinct lines.
fn reversed_hunks() -> Case {
    let n = 40_000;
    let source: String = (0..n).map(|i| format!("line {i}\n")).collect();
    let mut patch = String::new();
    for h in (0..20_000).rev() {
        let i = 2 * h;
        patch.push_str(&format!("@@\n-line {i}\n+LINE {i}\n"));
    }
    Case {
        name: "20,000 hunks in reverse order",
        source,
        patch,
        opts: Options::default(),
        // Every hunk unique: it applies (the out-of-order searches share one index).
        want: None,
        says: "",
    }
}

/// Repeated edits to settle at the most cost: 2 edits, each made 8 times over the 8 copies of
/// its lines in a 40,000-line file (14 trials, one inside the other, each copying the
/// placements so far), then a hunk found nowhere, so that every trial fails at the end.
fn repeated_edits() -> Case {
    let mut source = String::new();
    let mut patch = String::new();
    for g in 0..2 {
        source.push_str(&format!("key {g}\nvalue {g}\n").repeat(8));
        for i in 0..20_000 {
            source.push_str(&format!("filler {g} {i}\n"));
        }
        patch.push_str(&format!("@@\n key {g}\n-value {g}\n+VALUE {g}\n").repeat(8));
    }
    patch.push_str("@@\n-found nowhere\n+x\n");
    Case {
        name: "16 repeated edits settled in 14 trials, the last hunk found nowhere",
        source,
        patch,
        opts: Options::default(),
        want: Some(Status::Ambiguous),
        says: "matches 8 places",
    }
}

/// A 50,000-line replacement sent again after it was applied: the already-applied check
/// compared every removed line with every added line of its run (quadratic: 7.9 s at 4,000
/// lines, about 20 minutes at 50,000).
fn applied_again() -> Case {
    let n = 50_000;
    let source: String = (0..n).map(|i| format!("new line {i}\n")).collect();
    let mut patch = String::from("@@\n");
    for i in 0..n {
        patch.push_str(&format!("-old line {i}\n"));
    }
    for i in 0..n {
        patch.push_str(&format!("+new line {i}\n"));
    }
    Case {
        name: "a 50,000-line replacement sent again (already applied)",
        source,
        patch,
        opts: Options::default(),
        want: None,
        says: "",
    }
}

fn main() {
    let only = std::env::var("V4A_COSTS").ok();
    type Make = fn() -> Case;
    let cases: [(&str, Make); 8] = [
        ("near-1000", || near_misses(1000)),
        ("near-8000", || near_misses(8000)),
        ("accents", || accented_prefix_anchors(50)),
        ("fdfa", one_huge_expanding_line),
        ("xy", random_xy),
        ("reversed", reversed_hunks),
        ("repeats", repeated_edits),
        ("applied", applied_again),
    ];
    println!(
        "| case | input MB | time s | bound s | peak MB | bound MB | status | ok |\n\
         |---|---|---|---|---|---|---|---|"
    );
    let mut failed = 0;
    for (key, make) in cases {
        if only.as_deref().is_some_and(|o| o != key) {
            continue;
        }
        let c = make();
        let input = c.source.len() + c.patch.len();
        let mb = input as f64 / (1024.0 * 1024.0);
        let base = start_peak();
        let t = Instant::now();
        let r = apply(&c.source, &c.patch, Mode::Update, &c.opts);
        let secs = t.elapsed().as_secs_f64();
        let peak = peak_since(base);
        let (status, message) = match &r {
            Ok(_) => (None, String::new()),
            Err(e) => (Some(e.status()), e.message().to_string()),
        };
        drop(r);
        let time_bound = mb + 0.1;
        let mem_bound = 4 * input;
        let right = status == c.want && message.contains(c.says);
        let ok = secs <= time_bound && peak <= mem_bound && right;
        if !ok {
            failed += 1;
        }
        println!(
            "| {} | {mb:.2} | {secs:.3} | {time_bound:.2} | {:.1} | {:.1} | {} | {} |",
            c.name,
            peak as f64 / (1024.0 * 1024.0),
            mem_bound as f64 / (1024.0 * 1024.0),
            status.map_or("applied".to_string(), |s| format!("{s:?}")),
            if ok { "yes" } else { "NO" }
        );
        if !right {
            println!(
                "    wanted {:?} saying {:?}; got: {}",
                c.want,
                c.says,
                message.chars().take(300).collect::<String>()
            );
        }
    }
    if failed > 0 {
        eprintln!("{failed} case(s) over their bound");
        std::process::exit(1);
    }
}
