//! Deterministic benchmark inputs (W1–W11 of the performance issue), shared by the criterion
//! suite (`benches/apply.rs`) and the table (`benches/table.rs`).

#![allow(dead_code)]

use std::hint::black_box;

/// A small deterministic generator (PCG-style LCG), so every run sees the same inputs.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 16
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

const WORDS: [&str; 16] = [
    "value", "count", "index", "buffer", "result", "config", "handle", "offset", "length",
    "cursor", "parser", "stream", "target", "source", "record", "status",
];

/// Realistic code-like lines of mixed length and indentation (about 50 bytes each).
pub fn code_lines(n: usize, seed: u64) -> Vec<String> {
    let mut r = Rng::new(seed);
    (0..n)
        .map(|i| {
            let depth = r.below(4) as usize;
            let indent = "    ".repeat(depth);
            let a = WORDS[r.below(16) as usize];
            let b = WORDS[r.below(16) as usize];
            match r.below(6) {
                0 => format!("{indent}let {a}_{i} = {b}.get({});", r.below(1000)),
                1 => format!("{indent}if {a} > {b} {{"),
                2 => format!("{indent}}}"),
                3 => format!("{indent}// {a} and {b} are checked here ({i})"),
                4 => format!("{indent}{a}.push({b}_{i}, \"{}\");", r.below(100_000)),
                _ => format!("{indent}return {a}_{i} + {b};"),
            }
        })
        .collect()
}

pub fn join(lines: &[String]) -> String {
    let mut s = String::with_capacity(lines.iter().map(|l| l.len() + 1).sum());
    for l in lines {
        s.push_str(l);
        s.push('\n');
    }
    s
}

/// A bare hunk replacing line `at` with 3 lines of context on each side.
pub fn hunk_at(lines: &[String], at: usize, replacement: &str) -> String {
    let mut h = String::from("@@\n");
    for l in &lines[at.saturating_sub(3)..at] {
        h.push_str(&format!(" {l}\n"));
    }
    h.push_str(&format!("-{}\n+{replacement}\n", lines[at]));
    for l in &lines[at + 1..(at + 4).min(lines.len())] {
        h.push_str(&format!(" {l}\n"));
    }
    h
}

/// One benchmark case: a closure doing the work, and the bytes the floor touches.
pub struct Workload {
    pub id: &'static str,
    pub what: String,
    /// The input bytes: the floor splits them into lines and copies them.
    pub floor_input: Vec<String>,
    /// When set, the ratio is to this instead of the floor (W12: the Rust call).
    pub baseline: Option<Box<dyn Fn()>>,
    pub run: Box<dyn Fn()>,
}

/// The floor: split every input into lines with `memchr` and copy it into a new buffer.
#[inline(never)]
pub fn floor(inputs: &[String]) {
    for s in inputs {
        let mut lines: Vec<(usize, usize)> = Vec::with_capacity(s.len() / 40 + 1);
        let mut start = 0;
        for i in memchr::memchr_iter(b'\n', s.as_bytes()) {
            lines.push((start, i));
            start = i + 1;
        }
        let mut out = String::with_capacity(s.len());
        out.push_str(s);
        black_box((&lines, &out));
    }
}

/// The memcpy floor: copy every input into a new buffer and count its lines with `memchr`
/// (reading the file once and writing it once, the least an apply can do).
#[inline(never)]
pub fn memcpy_floor(inputs: &[String]) {
    for s in inputs {
        let lines = memchr::memchr_iter(b'\n', s.as_bytes()).count();
        let mut out = String::with_capacity(s.len());
        out.push_str(s);
        black_box((lines, &out));
    }
}

/// A reference search shaped like OpenAI codex's `apply-patch` (`seek_sequence`), NOT v4a and
/// not codex itself: the file split into owned lines, the hunk's old side compared at every
/// start line, line by line, until the first mismatch (quadratic on repetitive text), then the
/// new text joined. Only for the W6q row, to show how far the worst case is from it.
pub fn quadratic_reference(source: &str, old: &[String], new: &[String]) -> String {
    let lines: Vec<String> = source.split('\n').map(String::from).collect();
    let at = (0..=lines.len().saturating_sub(old.len()))
        .find(|&i| lines[i..i + old.len()] == *old)
        .expect("the reference finds the hunk");
    let mut out: Vec<&str> = lines[..at].iter().map(String::as_str).collect();
    out.extend(new.iter().map(String::as_str));
    out.extend(lines[at + old.len()..].iter().map(String::as_str));
    out.join("\n")
}

/// One apply through the C ABI, as a C caller does it.
fn c_abi_apply(source: &str, diff: &str) {
    use v4a_ffi::*;
    let mut result: *mut v4a_result = std::ptr::null_mut();
    // SAFETY: valid pointer-and-length pairs, NULL options (the defaults), a valid out pointer;
    // the result is freed once.
    unsafe {
        let status = v4a_apply(
            source.as_ptr(),
            source.len(),
            diff.as_ptr(),
            diff.len(),
            V4A_MODE_UPDATE,
            std::ptr::null(),
            &mut result,
        );
        assert_eq!(status.0, V4A_STATUS_OK);
        black_box(v4a_result_text(result));
        v4a_result_free(result);
    }
}

/// `v4a_apply` and the full line diff as columns in UTF-16 units, then both handles freed.
fn c_abi_line_diff(source: &str, diff: &str, style: v4a_ffi::v4a_diff_style) {
    use v4a_ffi::*;
    let mut result: *mut v4a_result = std::ptr::null_mut();
    let mut lines: *mut v4a_line_diff = std::ptr::null_mut();
    // SAFETY: as in `c_abi_apply`; the options struct is initialised by the library; each
    // handle is freed once.
    unsafe {
        let mut opts: v4a_options = std::mem::zeroed();
        v4a_options_init(&mut opts);
        let status = v4a_apply(
            source.as_ptr(),
            source.len(),
            diff.as_ptr(),
            diff.len(),
            V4A_MODE_UPDATE,
            &opts,
            &mut result,
        );
        assert_eq!(status.0, V4A_STATUS_OK);
        opts.diff_style = style;
        let status = v4a_result_line_diff(result, &opts, V4A_UNITS_UTF16, &mut lines);
        assert_eq!(status.0, V4A_STATUS_OK);
        black_box(v4a_line_diff_columns(lines));
        v4a_line_diff_free(lines);
        v4a_result_free(result);
    }
}

fn apply_case(id: &'static str, what: String, source: String, diff: String) -> Workload {
    let src = source.clone();
    Workload {
        id,
        what,
        floor_input: vec![source],
        baseline: None,
        run: Box::new(move || {
            let r = v4a::apply(&src, &diff, v4a::Mode::Update, &v4a::Options::default());
            black_box(r.expect("benchmark patch applies"));
        }),
    }
}

/// `scale` shrinks every size (1 = the real workloads; the smoke run uses a larger divisor).
pub fn all(scale: usize) -> Vec<Workload> {
    let s = |n: usize| (n / scale).max(50);
    let mut w = Vec::new();

    let small = code_lines(s(1_000), 1);
    let at = small.len() / 2;
    w.push(apply_case(
        "W1",
        format!("{}-line file, 1 hunk, exact", small.len()),
        join(&small),
        hunk_at(&small, at, "    changed();"),
    ));

    let big = code_lines(s(100_000), 2);
    let at = big.len() * 9 / 10;
    w.push(apply_case(
        "W2",
        format!("{}-line file, 1 hunk at 90%, exact", big.len()),
        join(&big),
        hunk_at(&big, at, "    changed();"),
    ));

    let diff: String = (0..10)
        .map(|k| {
            hunk_at(
                &big,
                10 + k * (big.len() - 20) / 10,
                &format!("    changed_{k}();"),
            )
        })
        .collect();
    w.push(apply_case(
        "W2b",
        format!("{}-line file, 10 hunks, exact", big.len()),
        join(&big),
        diff,
    ));

    let diff: String = (0..50)
        .map(|k| {
            hunk_at(
                &big,
                10 + k * (big.len() - 20) / 50,
                &format!("    changed_{k}();"),
            )
        })
        .collect();
    w.push(apply_case(
        "W3",
        format!("{}-line file, 50 hunks", big.len()),
        join(&big),
        diff,
    ));

    // Collapse: the file separates words with tabs and runs of spaces, the patch with one space
    // (the indentation kept: a patch without it cannot say how deep its added lines go).
    let mut tabbed = big.clone();
    for l in &mut tabbed[at - 3..at + 4] {
        *l = format!("{}  \tx  =\t1;", l.trim_end());
    }
    let mut spaced = tabbed.clone();
    for l in &mut spaced[at - 3..at + 4] {
        let indent = &l[..l.len() - l.trim_start().len()];
        *l = format!(
            "{indent}{}",
            l.split_whitespace().collect::<Vec<_>>().join(" ")
        );
    }
    w.push(apply_case(
        "W4",
        format!("{}-line file, 1 hunk matching at collapse", big.len()),
        join(&tabbed),
        hunk_at(&spaced, at, "changed();"),
    ));

    // Fold: the file has curly quotes and dashes, the patch ASCII look-alikes.
    let mut curly = big.clone();
    for (k, l) in curly[at - 3..at + 4].iter_mut().enumerate() {
        *l = format!("{l} // \u{201C}note {k}\u{201D} \u{2014} it\u{2019}s fine");
    }
    let ascii: Vec<String> = curly
        .iter()
        .map(|l| {
            l.replace(['\u{201C}', '\u{201D}'], "\"")
                .replace('\u{2014}', "-")
                .replace('\u{2019}', "'")
        })
        .collect();
    w.push(apply_case(
        "W5",
        format!("{}-line file, 1 hunk matching at fold", big.len()),
        join(&curly),
        hunk_at(&ascii, at, "changed();"),
    ));

    // Repetitive: identical lines around one distinct line; a 400-line hunk matching once.
    let n6 = s(20_000);
    let mut rep: Vec<String> = vec!["    x += 1;".to_string(); n6];
    rep[n6 / 2] = "    distinct();".to_string();
    let half = 200.min(n6 / 2 - 1);
    let mut d6 = String::from("@@\n");
    for _ in 0..half {
        d6.push_str("     x += 1;\n");
    }
    d6.push_str("-    distinct();\n+    replaced();\n");
    for _ in 0..half - 1 {
        d6.push_str("     x += 1;\n");
    }
    w.push(apply_case(
        "W6",
        format!("{n6} identical lines + 1, {}-line hunk", 2 * half),
        join(&rep),
        d6.clone(),
    ));

    // W6q: the codex-shaped quadratic reference on W6's input; its "floor" is v4a's W6 apply,
    // so the ratio is how many times slower the quadratic search is (target: at least 50).
    {
        let src = join(&rep);
        let (old, new): (Vec<String>, Vec<String>) = {
            let mut old = Vec::new();
            let mut new = Vec::new();
            for l in d6.lines().skip(1) {
                let (k, t) = l.split_at(1);
                if k != "+" {
                    old.push(t.to_string());
                }
                if k != "-" {
                    new.push(t.to_string());
                }
            }
            (old, new)
        };
        let (rs, rd) = (src.clone(), d6.clone());
        let qs = src.clone();
        w.push(Workload {
            id: "W6q",
            what: "W6 by a codex-shaped quadratic reference (not v4a)".to_string(),
            floor_input: vec![src],
            baseline: Some(Box::new(move || {
                let r = v4a::apply(&rs, &rd, v4a::Mode::Update, &v4a::Options::default());
                black_box(r.expect("applies"));
            })),
            run: Box::new(move || {
                black_box(quadratic_reference(&qs, &old, &new));
            }),
        });
    }

    let d7 = d6.replace("-    distinct();", "-    missing();");
    let src7 = join(&rep);
    w.push(Workload {
        id: "W7",
        what: "W6 with a hunk found nowhere (full diagnostic)".to_string(),
        floor_input: vec![src7.clone()],
        baseline: None,
        run: Box::new(move || {
            let e = v4a::apply(&src7, &d7, v4a::Mode::Update, &v4a::Options::default());
            let e = e.expect_err("W7 must not apply");
            // The closest region is found; no corrected hunk is offered, since deleting
            // `distinct()` where the patch deletes `missing()` would be another edit.
            assert!(e.diagnostics().closest.is_some());
            assert!(e.diagnostics().corrected_hunk.is_none());
            black_box(e);
        }),
    });

    let huge = code_lines(s(1_000_000), 8);
    let diff: String = (0..10)
        .map(|k| {
            hunk_at(
                &huge,
                10 + k * (huge.len() - 20) / 10,
                &format!("    changed_{k}();"),
            )
        })
        .collect();
    w.push(apply_case(
        "W8",
        format!("{}-line file, 10 hunks", huge.len()),
        join(&huge),
        diff,
    ));

    // W12: W1 and W2 through the C ABI (`v4a_apply`, then `v4a_result_free`); their ratio is
    // to the same apply called from Rust, measured in the same run.
    for (id, input) in [("W12a", &small), ("W12b", &big)] {
        let at = if input.len() > 10_000 {
            input.len() * 9 / 10
        } else {
            input.len() / 2
        };
        let src = join(input);
        let diff = hunk_at(input, at, "    changed();");
        let (rs, rd) = (src.clone(), diff.clone());
        let (cs, cd) = (src.clone(), diff);
        w.push(Workload {
            id,
            what: format!("{}-line apply through the C ABI", input.len()),
            floor_input: vec![src],
            baseline: Some(Box::new(move || {
                let r = v4a::apply(&rs, &rd, v4a::Mode::Update, &v4a::Options::default());
                black_box(r.expect("applies"));
            })),
            run: Box::new(move || c_abi_apply(&cs, &cd)),
        });
    }

    // W13: the full structured diff of W2 (100,000 lines, one hunk) beside the apply alone
    // (the baseline): as rows (`DiffStyle::Full`, one `DiffLine` per line), as columns
    // (`ApplyResult::line_diff`, what the bindings read), and as columns through the C ABI
    // (`v4a_apply` + `v4a_result_line_diff` in UTF-16 units, what the JS binding calls).
    let src13 = join(&big);
    let diff13 = hunk_at(&big, big.len() * 9 / 10, "    changed();");
    let apply13 = |opts: v4a::Options, s: String, d: String| {
        move || {
            let r = v4a::apply(&s, &d, v4a::Mode::Update, &opts).expect("applies");
            black_box(r);
        }
    };
    let full = v4a::Options {
        diff: v4a::DiffStyle::Full,
        ..v4a::Options::default()
    };
    for (id, what) in [
        (
            "W13a",
            "100000-line apply + full diff as rows (DiffStyle::Full)",
        ),
        (
            "W13b",
            "100000-line apply + full diff as columns (line_diff)",
        ),
        (
            "W13c",
            "W13b through the C ABI (v4a_result_line_diff, UTF-16)",
        ),
        (
            "W13d",
            "100000-line apply + full diff as runs (line_diff, DiffStyle::Runs)",
        ),
        (
            "W13e",
            "W13d through the C ABI (V4A_DIFF_STYLE_RUNS, UTF-16)",
        ),
    ] {
        let (s, d) = (src13.clone(), diff13.clone());
        let run: Box<dyn Fn()> = match id {
            "W13a" => Box::new(apply13(full.clone(), s, d)),
            "W13b" => Box::new(move || {
                let r = v4a::apply(&s, &d, v4a::Mode::Update, &v4a::Options::default())
                    .expect("applies");
                black_box(r.line_diff(v4a::DiffStyle::Full, None));
            }),
            "W13d" => Box::new(move || {
                let r = v4a::apply(&s, &d, v4a::Mode::Update, &v4a::Options::default())
                    .expect("applies");
                black_box(r.line_diff(v4a::DiffStyle::Runs, None));
            }),
            "W13c" => Box::new(move || c_abi_line_diff(&s, &d, v4a_ffi::V4A_DIFF_STYLE_FULL)),
            _ => Box::new(move || c_abi_line_diff(&s, &d, v4a_ffi::V4A_DIFF_STYLE_RUNS)),
        };
        let (bs, bd) = (src13.clone(), diff13.clone());
        let baseline: Box<dyn Fn()> = if id == "W13c" || id == "W13e" {
            Box::new(move || c_abi_apply(&bs, &bd))
        } else {
            Box::new(apply13(v4a::Options::default(), bs, bd))
        };
        w.push(Workload {
            id,
            what: what.to_string(),
            floor_input: vec![src13.clone()],
            baseline: Some(baseline),
            run,
        });
    }

    // Refinement of two long lines differing in 1% of places.
    let mut r = Rng::new(9);
    let n9 = s(100_000);
    let a: String = (0..n9)
        .map(|_| (b'a' + r.below(26) as u8) as char)
        .collect();
    let b: String = a
        .chars()
        .enumerate()
        .map(|(i, c)| if i % 100 == 50 { 'Z' } else { c })
        .collect();
    let (a9, b9) = (a.clone(), b.clone());
    w.push(Workload {
        id: "W9",
        what: format!("refine a pair of {n9}-character lines, 1% different"),
        floor_input: vec![a, b],
        baseline: None,
        run: Box::new(move || {
            let l = v4a::report::RefineLimits::default();
            black_box(v4a::report::refine::refine_pair(&a9, &b9, &l).expect("refines"));
        }),
    });

    // make_patch between two files differing in 1% of lines.
    let old = code_lines(s(100_000), 10);
    let mut new = old.clone();
    for k in (0..new.len()).step_by(100) {
        new[k] = format!("{} // edited", new[k]);
    }
    let (o10, n10) = (join(&old), join(&new));
    let (o, n) = (o10.clone(), n10.clone());
    w.push(Workload {
        id: "W10",
        what: format!("make_patch, two {}-line files, 1% lines differ", old.len()),
        floor_input: vec![o10, n10],
        baseline: None,
        run: Box::new(move || {
            black_box(
                v4a::make_patch(&o, &n, "f.rs", &v4a::GenerateOptions::default())
                    .expect("generates"),
            );
        }),
    });

    // A 200-file multi-file patch, each file 2,000 lines.
    let files: Vec<(String, Vec<String>)> = (0..200)
        .map(|k| {
            (
                format!("src/file_{k}.rs"),
                code_lines(s(2_000), 100 + k as u64),
            )
        })
        .collect();
    let mut patch = String::from("*** Begin Patch\n");
    for (path, lines) in &files {
        patch.push_str(&format!("*** Update File: {path}\n"));
        patch.push_str(&hunk_at(lines, lines.len() / 2, "    changed();"));
    }
    patch.push_str("*** End Patch\n");
    let sources: std::collections::HashMap<String, String> =
        files.iter().map(|(p, l)| (p.clone(), join(l))).collect();
    let floor_input: Vec<String> = sources.values().cloned().collect();
    w.push(Workload {
        id: "W11",
        what: format!("200-file patch, {} lines each", files[0].1.len()),
        floor_input,
        baseline: None,
        run: Box::new(move || {
            let p = v4a::Patch::parse(&patch).expect("parses");
            let r = p.apply(
                |path| sources.get(path).map(String::as_str),
                &v4a::Options::default(),
            );
            black_box(r.expect("applies"));
        }),
    });
    w
}
