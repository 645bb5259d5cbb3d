//! The performance table: every workload's median time against the floor (splitting the same
//! input into lines with `memchr` and copying it), measured in the same run, plus peak heap
//! memory above the baseline. Prints the table and writes `BENCHMARKS.md`.
//!
//! ```text
//! cargo bench --bench table              # full run, writes BENCHMARKS.md
//! cargo bench --bench table -- --smoke   # every workload once at 1/100 size, writes nothing
//! ```

use std::time::{Duration, Instant};

#[path = "support/workloads.rs"]
mod workloads;

// Counts live heap bytes and their peak, so each workload's peak is measured exactly.
#[path = "support/counting_alloc.rs"]
mod counting_alloc;
use counting_alloc::Counting;

#[global_allocator]
static ALLOC: Counting = Counting;

struct Row {
    id: &'static str,
    what: String,
    median: Duration,
    min: Duration,
    max: Duration,
    floor: Duration,
    input_bytes: usize,
    peak: usize,
}

fn stats(mut v: Vec<Duration>) -> (Duration, Duration, Duration) {
    v.sort();
    (v[v.len() / 2], v[0], v[v.len() - 1])
}

fn fmt(d: Duration) -> String {
    let us = d.as_secs_f64() * 1e6;
    if us < 1000.0 {
        format!("{us:.1} µs")
    } else if us < 1e6 {
        format!("{:.2} ms", us / 1e3)
    } else {
        format!("{:.2} s", us / 1e6)
    }
}

fn mb(b: usize) -> String {
    format!("{:.1} MB", b as f64 / 1e6)
}

/// The target of each workload, as (ratio limit, peak-memory limit as a multiple of the input).
fn target(id: &str) -> (Option<f64>, Option<f64>, &'static str) {
    match id {
        "W2" | "W3" | "W8" => (Some(3.0), Some(3.0), "≤ 3× floor, ≤ 3× memory"),
        "W4" | "W5" => (Some(6.0), None, "≤ 6× floor"),
        "W6" => (Some(10.0), None, "≤ 10× floor"),
        "W7" => (Some(50.0), None, "≤ 50× floor"),
        "W9" => (None, None, "< 64 MB"),
        "W12b" => (Some(1.05), None, "≤ 1.05× the Rust call"),
        "W13b" | "W13c" => (Some(1.5), None, "≤ 1.5× the apply alone"),
        _ => (None, None, ""),
    }
}

fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".to_string());
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    format!(
        "{cpu}, {cores} cores, {} {}",
        std::env::consts::OS,
        std::env::consts::ARCH
    )
}

fn main() {
    let smoke = std::env::args().any(|a| a == "--smoke");
    let (scale, runs) = if smoke { (100, 1) } else { (1, 9) };
    // Workload ids given as arguments (`cargo bench --bench table -- W4 W5`) run only those,
    // and leave BENCHMARKS.md alone.
    let only: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a.starts_with('W'))
        .collect();
    let mut rows = Vec::new();
    for w in workloads::all(scale) {
        if !only.is_empty() && !only.iter().any(|id| id == w.id) {
            continue;
        }
        let input_bytes: usize = w.floor_input.iter().map(String::len).sum();
        // Warm up, then time the work and the floor alternately so both see the same machine.
        (w.run)();
        workloads::floor(&w.floor_input);
        let runs = if input_bytes > 20_000_000 {
            runs.min(5)
        } else {
            runs
        };
        let mut times = Vec::new();
        let mut floors = Vec::new();
        let mut peak = 0;
        for _ in 0..runs {
            let t = Instant::now();
            match &w.baseline {
                Some(b) => b(),
                None => workloads::floor(&w.floor_input),
            }
            floors.push(t.elapsed());
            let base = counting_alloc::start_peak();
            let t = Instant::now();
            (w.run)();
            times.push(t.elapsed());
            peak = peak.max(counting_alloc::peak_since(base));
        }
        let (median, min, max) = stats(times);
        let (floor, _, _) = stats(floors);
        let row = Row {
            id: w.id,
            what: w.what,
            median,
            min,
            max,
            floor,
            input_bytes,
            peak,
        };
        println!(
            "{:<4} {:<55} {:>10} (min {:>10}, max {:>10})  floor {:>10}  ratio {:>6.2}  peak {:>8} ({:.2}× input)",
            row.id, row.what, fmt(row.median), fmt(row.min), fmt(row.max), fmt(row.floor),
            ratio(&row), mb(row.peak), row.peak as f64 / row.input_bytes.max(1) as f64
        );
        rows.push(row);
    }
    let per_byte: Vec<(&str, f64)> = rows
        .iter()
        .filter(|r| matches!(r.id, "W1" | "W2" | "W8"))
        .map(|r| (r.id, r.median.as_secs_f64() * 1e9 / r.input_bytes as f64))
        .collect();
    let spread = per_byte.iter().map(|p| p.1).fold(0.0f64, f64::max)
        / per_byte.iter().map(|p| p.1).fold(f64::MAX, f64::min);
    println!(
        "time per byte: {} (max/min {spread:.2}, target ≤ 1.5)",
        per_byte
            .iter()
            .map(|(id, ns)| format!("{id} {ns:.2} ns"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    if !only.is_empty() {
        return;
    }
    if smoke {
        println!(
            "smoke run: {} workloads ran once at 1/{scale} size",
            rows.len()
        );
        return;
    }
    let mut md =
        String::from("# Benchmarks\n\nGenerated by `cargo bench --bench table` (release build). ");
    md.push_str("Each workload runs 9 times (5 above 20 MB of input) after a warm-up; the floor — splitting the same input into lines with `memchr` and copying it into a new buffer — is measured in the same run, alternating with the workload. For W12 the \"floor\" column is the same apply called from Rust, so the ratio is the cost of the C ABI; for W13 it is the apply without a structured diff (through the C ABI for W13c), so the ratio is the cost of the diff. Peak memory is the heap high-water mark above the baseline, counted by a global allocator.\n\n");
    md.push_str(&format!(
        "Machine: {}. Shared and noisy: ratios are what count.\n\n",
        machine()
    ));
    md.push_str("| id | workload | median | min – max | floor | ratio | peak heap | target |\n|---|---|---|---|---|---|---|---|\n");
    for r in &rows {
        let (limit, mem_limit, text) = target(r.id);
        let mem_ratio = r.peak as f64 / r.input_bytes.max(1) as f64;
        let ok = limit.is_none_or(|l| ratio(r) <= l)
            && mem_limit.is_none_or(|m| mem_ratio <= m)
            && (r.id != "W9" || r.peak < 64_000_000);
        md.push_str(&format!(
            "| {} | {} | {} | {} – {} | {} | {:.2} | {} ({:.2}× input) | {} {} |\n",
            r.id,
            r.what,
            fmt(r.median),
            fmt(r.min),
            fmt(r.max),
            fmt(r.floor),
            ratio(r),
            mb(r.peak),
            mem_ratio,
            text,
            if text.is_empty() {
                ""
            } else if ok {
                "✓"
            } else {
                "✗"
            }
        ));
    }
    md.push_str(&format!(
        "\nTime per byte across W1 → W2 → W8: {} (max/min {spread:.2}; target ≤ 1.5).\n",
        per_byte
            .iter()
            .map(|(id, ns)| format!("{id} {ns:.2} ns"))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/BENCHMARKS.md");
    let existing = std::fs::read_to_string(path).unwrap_or_default();
    // Keep the hand-written notes that follow the generated table.
    let notes = existing
        .find("\n## ")
        .map(|i| existing[i..].to_string())
        .unwrap_or_default();
    std::fs::write(path, format!("{md}{notes}")).expect("write BENCHMARKS.md");
    println!("wrote {path}");
}

fn ratio(r: &Row) -> f64 {
    r.median.as_secs_f64() / r.floor.as_secs_f64().max(1e-9)
}
