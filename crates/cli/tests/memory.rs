//! The peak memory of the command on a large change, measured as the child's own peak RSS
//! (`wait4`), against the peak of `--check` on the same change: the apply without output.

#![cfg(target_os = "linux")]

use std::path::Path;
use std::process::{Command, Stdio};

/// Runs `v4a args` with stdout to `out` and returns its peak RSS in bytes.
// The child is reaped by `wait4`, which also gives its peak.
#[allow(clippy::zombie_processes)]
fn peak_rss(args: &[&std::ffi::OsStr], out: &Path) -> u64 {
    let child = Command::new(env!("CARGO_BIN_EXE_v4a"))
        .args(args)
        .env_remove("NO_COLOR")
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(out).expect("stdout file"))
        .stderr(Stdio::null())
        .spawn()
        .expect("the v4a binary starts");
    let pid = libc::pid_t::try_from(child.id()).expect("pid");
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value, and wait4 writes only to the two places
    // given, for a child of this process that nothing else waits for.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid, "wait4");
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "v4a {args:?} exited with {status:#x}"
    );
    u64::try_from(usage.ru_maxrss).expect("ru_maxrss") * 1024
}

/// `--dry-run` streams the structured diff of its coloured preview: on a 20,000-line
/// replacement (one change block, every pair refined, 2.13 MB of input) it peaks within the
/// input's size above `--check`, the same apply without output (release 0.1 MB above it,
/// debug 1.2 MB). Materialising the diff first (the rows and their segments, then the whole
/// coloured text) took 8.6 MB above it.
#[test]
fn the_dry_run_preview_of_a_large_replacement_holds_no_structured_diff() {
    let dir = tempfile::tempdir().expect("tempdir");
    let work = dir.path().join("work");
    std::fs::create_dir(&work).expect("work dir");
    let old: Vec<String> = (0..20_000)
        .map(|i| format!("    let val{i} = comp({i}, {});", i % 97))
        .collect();
    let file: String = old.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(work.join("f.rs"), &file).expect("file");
    let mut patch = String::from("*** Begin Patch\n*** Update File: f.rs\n");
    patch.extend(old.iter().map(|l| format!("-{l}\n")));
    patch.extend(
        old.iter()
            .map(|l| format!("+{}\n", l.replace("comp(", "calc("))),
    );
    patch.push_str("*** End Patch\n");
    let patch_file = dir.path().join("p.patch");
    std::fs::write(&patch_file, &patch).expect("patch");
    let input = (file.len() + patch.len()) as u64;

    let out = dir.path().join("out.txt");
    let run = |how: &str| {
        let args = ["apply", "--color", "always", how, "--dir"];
        let mut args: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_ref()).collect();
        args.extend([work.as_os_str(), patch_file.as_os_str()]);
        peak_rss(&args, &out)
    };
    let base = run("--check");
    let peak = run("--dry-run");

    let shown = std::fs::read_to_string(&out).expect("output");
    assert!(
        shown.contains("\x1b[31m-    let val7 = \x1b[0m\x1b[7m\x1b[31mcomp\x1b[0m"),
        "the preview highlights the changed characters"
    );
    assert!(
        shown.ends_with("lines 1-20000 -> 1-20000, exact\n"),
        "{}",
        &shown[shown.len() - 200..]
    );
    let above = peak.saturating_sub(base);
    assert!(
        above <= input,
        "peak RSS {peak} bytes, {above} above --check's {base}: more than the {input} bytes of \
         input"
    );
}
