//! The native baseline of the JS benchmark.
//!
//! Usage: `v4a-js-native-baseline DIR`. Writes `ID.source` and `ID.diff` into DIR for each
//! workload (W1: 1,000 lines, W2: 100,000 lines, W6: 20,000 identical lines and a 400-line
//! hunk, the same bytes as `benches/support/workloads.rs`), then times `v4a::apply` on each
//! without and with the full structured diff, and prints one line per measurement:
//! `ID STYLE NANOSECONDS_PER_CALL` (the median of 9 batches).

use std::hint::black_box;
use std::time::Instant;

#[path = "../../../../../benches/support/workloads.rs"]
mod workloads;

fn time(source: &str, diff: &str, opts: &v4a::Options) -> f64 {
    let once = || black_box(v4a::apply(source, diff, v4a::Mode::Update, opts)).is_ok();
    assert!(once(), "the workload applies");
    let start = Instant::now();
    let mut n = 0u32;
    while start.elapsed().as_millis() < 100 || n < 3 {
        once();
        n += 1;
    }
    let per_batch = n.div_ceil(4).max(1);
    let mut batches: Vec<f64> = (0..9)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..per_batch {
                once();
            }
            t.elapsed().as_nanos() as f64 / f64::from(per_batch)
        })
        .collect();
    batches.sort_by(f64::total_cmp);
    batches[4]
}

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
    let cases = [
        (
            "W1",
            workloads::join(&w1),
            workloads::hunk_at(&w1, 500, "    changed();"),
        ),
        (
            "W2",
            workloads::join(&w2),
            workloads::hunk_at(&w2, 90_000, "    changed();"),
        ),
        ("W6", workloads::join(&rep), d6),
    ];
    for (id, source, diff) in &cases {
        std::fs::write(format!("{dir}/{id}.source"), source).expect("writable DIR");
        std::fs::write(format!("{dir}/{id}.diff"), diff).expect("writable DIR");
    }
    for (id, source, diff) in &cases {
        for (style, diff_style) in [
            ("none", v4a::DiffStyle::None),
            ("full", v4a::DiffStyle::Full),
        ] {
            let opts = v4a::Options {
                diff: diff_style,
                ..v4a::Options::default()
            };
            println!("{id} {style} {:.0}", time(source, diff, &opts));
        }
    }
}
