//! The native baseline of the JS benchmark.
//!
//! Usage: `v4a-js-native-baseline DIR`. Writes `ID.source` and `ID.diff` into DIR for each
//! workload (W1: 1,000 lines, W2: 100,000 lines, W6: 20,000 identical lines and a 400-line
//! hunk, the same bytes as `benches/support/workloads.rs`) and prints `ready`. Then reads
//! commands `ID STYLE N` on stdin (STYLE `none`; `full`: with the full structured diff as the
//! JS binding asks for it, columns in UTF-16 units; `runs`: the same with each run of equal
//! lines as one entry) and answers
//! each with the wall-clock nanoseconds of N calls of `v4a::apply`, so the JS side can
//! alternate its own batches with these. Exits at the end of input.

use std::collections::HashMap;
use std::hint::black_box;
use std::io::{BufRead, Write};
use std::time::Instant;

#[path = "../../../../../benches/support/workloads.rs"]
mod workloads;

fn main() {
    let dir = std::env::args()
        .nth(1)
        .expect("usage: v4a-js-native-baseline DIR");
    let w1 = workloads::code_lines(1_000, 1);
    let w2 = workloads::code_lines(100_000, 2);
    let n6 = 20_000;
    let mut rep: Vec<String> = vec!["    x += 1;".to_string(); n6];
    rep[n6 / 2] = "    distinct();".to_string();
    let half = 200;
    let mut d6 = String::from("@@\n");
    for _ in 0..half {
        d6.push_str("     x += 1;\n");
    }
    d6.push_str("-    distinct();\n+    replaced();\n");
    for _ in 0..half - 1 {
        d6.push_str("     x += 1;\n");
    }
    let cases: HashMap<&str, (String, String)> = HashMap::from([
        (
            "W1",
            (
                workloads::join(&w1),
                workloads::hunk_at(&w1, 500, "    changed();"),
            ),
        ),
        (
            "W2",
            (
                workloads::join(&w2),
                workloads::hunk_at(&w2, 90_000, "    changed();"),
            ),
        ),
        ("W6", (workloads::join(&rep), d6)),
    ]);
    for (id, (source, diff)) in &cases {
        std::fs::write(format!("{dir}/{id}.source"), source).expect("writable DIR");
        std::fs::write(format!("{dir}/{id}.diff"), diff).expect("writable DIR");
        assert!(v4a::apply(source, diff, v4a::Mode::Update, &v4a::Options::default()).is_ok());
    }
    let mut out = std::io::stdout().lock();
    writeln!(out, "ready")
        .and_then(|()| out.flush())
        .expect("stdout");
    for line in std::io::stdin().lock().lines() {
        let line = line.expect("stdin");
        let words: Vec<&str> = line.split_whitespace().collect();
        let [id, style, n] = words[..] else {
            panic!("expected `ID STYLE N`, got {line:?}");
        };
        let (source, diff) = &cases[id];
        let n: u32 = n.parse().expect("a count");
        let start = Instant::now();
        for _ in 0..n {
            let r = v4a::apply(source, diff, v4a::Mode::Update, &v4a::Options::default());
            match (style, r) {
                // What the JS binding asks for: the apply, then the full diff as columns in
                // UTF-16 units (v4a_result_line_diff).
                ("full", Ok(r)) => {
                    let d = r.line_diff(v4a::DiffStyle::Full, None);
                    black_box(d.into_utf16(&r.source, &r.text));
                    black_box(r);
                }
                // The compact full diff (`diff: "runs"`): each run of equal lines one entry.
                ("runs", Ok(r)) => {
                    let d = r.line_diff(v4a::DiffStyle::Runs, None);
                    black_box(d.into_utf16(&r.source, &r.text));
                    black_box(r);
                }
                // The full diff as rows (`DiffStyle::Full`, one DiffLine per line).
                ("rows", _) => {
                    let opts = v4a::Options {
                        diff: v4a::DiffStyle::Full,
                        ..v4a::Options::default()
                    };
                    black_box(v4a::apply(source, diff, v4a::Mode::Update, &opts)).ok();
                }
                (_, r) => {
                    black_box(r).ok();
                }
            }
        }
        writeln!(out, "{}", start.elapsed().as_nanos())
            .and_then(|()| out.flush())
            .expect("stdout");
    }
}
