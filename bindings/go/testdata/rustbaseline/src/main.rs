//! The Rust baseline of the Go benchmark.
//!
//! Usage: `v4a-go-rust-baseline SOURCE_FILE DIFF_FILE`. Prints `ready TEXT_LEN WORKLOAD`
//! (the length of the patched text, and `W1`/`W2` when the inputs are byte for byte the
//! workloads of `benches/support/workloads.rs`, else `-`), then reads one number N per line
//! on stdin, applies the patch N times with `v4a::apply` and the default options, and prints
//! the elapsed wall-clock and CPU nanoseconds (`WALL CPU`; CPU is 0 where `getrusage` is not
//! available). Exits at the end of input.

use std::hint::black_box;
use std::io::{BufRead, Write};
use std::time::Instant;

/// The benchmark inputs of the repository (W1, W2 are what the Go benchmark sends): the same
/// bytes for the same seed.
#[path = "../../../../../benches/support/workloads.rs"]
mod workloads;

/// The process's CPU time (user + system) in nanoseconds, from `getrusage`.
#[cfg(all(unix, target_pointer_width = "64"))]
fn cpu_ns() -> u128 {
    #[repr(C)]
    struct Timeval {
        sec: i64,
        usec: i64,
    }
    #[repr(C)]
    struct Rusage {
        utime: Timeval,
        stime: Timeval,
        rest: [i64; 14],
    }
    extern "C" {
        fn getrusage(who: i32, usage: *mut Rusage) -> i32;
    }
    let mut r = Rusage {
        utime: Timeval { sec: 0, usec: 0 },
        stime: Timeval { sec: 0, usec: 0 },
        rest: [0; 14],
    };
    // SAFETY: `r` has the layout of `struct rusage` on 64-bit Unix; RUSAGE_SELF is 0.
    if unsafe { getrusage(0, &mut r) } != 0 {
        return 0;
    }
    let us =
        (r.utime.sec + r.stime.sec) as i128 * 1_000_000 + (r.utime.usec + r.stime.usec) as i128;
    us.max(0) as u128 * 1000
}

#[cfg(not(all(unix, target_pointer_width = "64")))]
fn cpu_ns() -> u128 {
    0
}

fn which_workload(source: &str, diff: &str) -> &'static str {
    let w1 = workloads::code_lines(1_000, 1);
    if source == workloads::join(&w1) && diff == workloads::hunk_at(&w1, 500, "    changed();") {
        return "W1";
    }
    let w2 = workloads::code_lines(100_000, 2);
    if source == workloads::join(&w2) && diff == workloads::hunk_at(&w2, 90_000, "    changed();") {
        return "W2";
    }
    "-"
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 3 {
        eprintln!("usage: {} SOURCE_FILE DIFF_FILE", args[0]);
        std::process::exit(2);
    }
    let source = std::fs::read_to_string(&args[1]).expect("readable UTF-8 source");
    let diff = std::fs::read_to_string(&args[2]).expect("readable UTF-8 diff");
    let opts = v4a::Options::default();
    // Only the length is kept: holding the result would change the allocator's heap between
    // the timed calls (glibc trims a free top chunk), which the Go and C callers do not hold.
    let text_len = match v4a::apply(&source, &diff, v4a::Mode::Update, &opts) {
        Ok(r) => r.text.len(),
        Err(e) => {
            eprintln!("the patch does not apply: {e}");
            std::process::exit(1);
        }
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    writeln!(out, "ready {} {}", text_len, which_workload(&source, &diff)).unwrap();
    out.flush().unwrap();
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let Ok(n) = line.trim().parse::<u64>() else {
            break;
        };
        let cpu = cpu_ns();
        let start = Instant::now();
        for _ in 0..n {
            let r = v4a::apply(
                black_box(&source),
                black_box(&diff),
                v4a::Mode::Update,
                &opts,
            );
            black_box(r.expect("applies"));
        }
        let wall = start.elapsed().as_nanos();
        writeln!(out, "{wall} {}", cpu_ns().saturating_sub(cpu)).unwrap();
        out.flush().unwrap();
    }
}
