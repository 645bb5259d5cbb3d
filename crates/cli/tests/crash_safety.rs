//! Crash atomicity of `v4a apply` (SPEC §5.2): the command is killed with SIGKILL at spread
//! moments of a multi-file apply (updates in three directories, an Add into a new directory, a
//! Move, a Delete), 300 times; then `v4a recover` runs. After it, the directory must be
//! exactly the tree before the patch or exactly the tree after it: every file all old or all
//! new, no temporary file, no backup, no journal, no lock, no directory left over.
//!
//! The kill moments are spread over the apply by a slow step (`V4A_TEST_SLOW_MS`, a hook that
//! exists in debug builds only), so the test does not depend on the machine's speed: a kill
//! lands before, during or after the renames whatever the load. Release builds skip it.

#![cfg(unix)]

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const TRIALS: usize = 300;
/// The pause before each step of the apply (two per file, seven files).
const SLOW_MS: u64 = 2;

fn v4a() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_v4a"));
    c.env_remove("V4A_TEST_FAIL_WRITE")
        .env_remove("V4A_TEST_SLOW_MS");
    c
}

/// Every entry under `dir`: files with their bytes, directories as `/`.
fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(dir: &Path, prefix: &str, out: &mut BTreeMap<String, Vec<u8>>) {
        for e in fs::read_dir(dir).expect("readable directory") {
            let e = e.expect("entry");
            let name = format!("{prefix}{}", e.file_name().to_string_lossy());
            if e.file_type().expect("type").is_dir() {
                out.insert(format!("{name}/"), Vec::new());
                walk(&e.path(), &format!("{name}/"), out);
            } else {
                out.insert(name, fs::read(e.path()).expect("readable file"));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, "", &mut out);
    out
}

fn lines(seed: usize, n: usize) -> String {
    (0..n).map(|i| format!("value {seed} {i}\n")).collect()
}

const BEFORE: &[(&str, usize)] = &[
    ("a.txt", 1),
    ("d1/b.txt", 2),
    ("d2/c.txt", 3),
    ("d2/deep/e.txt", 4),
    ("m.txt", 5),
    ("gone.txt", 6),
];

fn patch() -> String {
    let mut p = String::from("*** Begin Patch\n");
    for (path, seed) in &BEFORE[..4] {
        p.push_str(&format!(
            "*** Update File: {path}\n@@\n value {seed} 50\n-value {seed} 51\n+changed {seed}\n"
        ));
    }
    p.push_str("*** Add File: d3/new/n.txt\n+brand new\n");
    p.push_str("*** Update File: m.txt\n*** Move to: d1/moved.txt\n@@\n-value 5 10\n+moved 5\n");
    p.push_str("*** Delete File: gone.txt\n*** End Patch\n");
    p
}

fn setup(dir: &Path) {
    for (path, seed) in BEFORE {
        let p = dir.join(path);
        fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        fs::write(p, lines(*seed, 200)).expect("write");
    }
}

#[test]
fn three_hundred_kills_leave_every_trial_all_old_or_all_new_after_recovery() {
    if !cfg!(debug_assertions) {
        eprintln!("skipped: the slow-step hook exists in debug builds only");
        return;
    }
    // A kill -9 tests the process, not the disk: on a RAM file system (where fsync costs
    // nothing) the 300 trials take seconds instead of minutes.
    let shm = Path::new("/dev/shm");
    let tmp = if shm.is_dir() {
        tempfile::tempdir_in(shm)
    } else {
        tempfile::tempdir()
    }
    .expect("temporary directory");
    let patch_file = tmp.path().join("p.patch");
    fs::write(&patch_file, patch()).expect("patch");

    // The two acceptable outcomes.
    let base = tmp.path().join("base");
    setup(&base);
    let before = tree(&base);
    let out = v4a()
        .args(["apply", "--dir"])
        .arg(&base)
        .arg(&patch_file)
        .output()
        .expect("v4a runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let after = tree(&base);
    assert_ne!(before, after);

    // How long an undisturbed slow apply takes, to spread the kills over it.
    let probe = tmp.path().join("probe");
    setup(&probe);
    let t = Instant::now();
    let out = v4a()
        .env("V4A_TEST_SLOW_MS", SLOW_MS.to_string())
        .args(["apply", "--dir"])
        .arg(&probe)
        .arg(&patch_file)
        .output()
        .expect("v4a runs");
    assert!(out.status.success());
    let span = t.elapsed().as_micros() as u64 + 2_000;

    let (mut old, mut new, mut recovered, mut killed) = (0, 0, 0, 0);
    let start = Instant::now();
    for trial in 0..TRIALS {
        let dir = tmp.path().join(format!("t{trial}"));
        setup(&dir);
        let mut child = v4a()
            .env("V4A_TEST_SLOW_MS", SLOW_MS.to_string())
            .args(["apply", "--dir"])
            .arg(&dir)
            .arg(&patch_file)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("v4a starts");
        // Spread the kills evenly over one and a half times the probe's span (the machine may
        // be slower now than during the probe), in a scrambled order.
        let at = (trial as u64 * 7_919) % TRIALS as u64 * span * 3 / 2 / TRIALS as u64;
        std::thread::sleep(Duration::from_micros(at));
        let _ = child.kill();
        let status = child.wait().expect("v4a ends");
        if status.signal() == Some(9) {
            killed += 1;
        }
        let rec = v4a()
            .args(["recover", "--dir"])
            .arg(&dir)
            .output()
            .expect("v4a recover runs");
        assert!(
            rec.status.success(),
            "trial {trial}: recover failed: {}",
            String::from_utf8_lossy(&rec.stderr)
        );
        if String::from_utf8_lossy(&rec.stdout).starts_with("Recovered") {
            recovered += 1;
        }
        let got = tree(&dir);
        if got == before {
            old += 1;
        } else if got == after {
            new += 1;
        } else {
            let diff: Vec<&String> = got
                .keys()
                .chain(before.keys())
                .filter(|k| got.get(*k) != before.get(*k) && got.get(*k) != after.get(*k))
                .collect();
            panic!("trial {trial} (killed at {at} us): neither all old nor all new: {diff:?}");
        }
        fs::remove_dir_all(&dir).expect("cleanup");
    }
    eprintln!(
        "{TRIALS} trials in {:.1} s (apply span {span} us): {killed} killed by SIGKILL, \
         {recovered} recovered from a journal, {old} all old, {new} all new",
        start.elapsed().as_secs_f64()
    );
    assert_eq!(old + new, TRIALS);
    assert!(
        killed > TRIALS / 4,
        "many trials must really be killed midway ({killed})"
    );
    assert!(
        recovered > 0,
        "some kills must land while the journal exists"
    );
    assert!(
        old > 0 && new > 0,
        "kills must land both before and after the commit"
    );
}
