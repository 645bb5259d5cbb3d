//! Crash safety of `v4a apply`: the command is killed with SIGKILL at random moments while it
//! applies a multi-file patch, hundreds of times. Every file must then be byte-identical to
//! either its old or its new content — never truncated, never a temporary file under a real
//! name — and a second run of the same patch must complete (already-applied hunks are no-ops)
//! or say that the patch was already applied.

#![cfg(unix)]

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const FILES: usize = 6;

fn content(seed: usize, lines: usize) -> String {
    (0..lines)
        .map(|i| {
            format!(
                "    let value_{seed}_{i} = compute({i}, \"{}\");\n",
                i * 7 % 13
            )
        })
        .collect()
}

/// The workspace before: `f0..f5.txt` and `gone.txt`.
fn before() -> BTreeMap<String, Vec<u8>> {
    let mut m = BTreeMap::new();
    for k in 0..FILES {
        m.insert(format!("f{k}.txt"), content(k, 4_000).into_bytes());
    }
    m.insert("gone.txt".into(), content(99, 4_000).into_bytes());
    m
}

/// Updates every file near its end, adds one file, deletes one.
fn patch() -> String {
    let mut p = String::from("*** Begin Patch\n");
    for k in 0..FILES {
        let lines: Vec<String> = content(k, 4_000).lines().map(str::to_string).collect();
        p.push_str(&format!(
            "*** Update File: f{k}.txt\n@@\n {}\n-{}\n+    let changed_{k} = true;\n",
            lines[3_000], lines[3_001]
        ));
    }
    p.push_str("*** Add File: new.txt\n");
    for line in content(50, 4_000).lines() {
        p.push_str(&format!("+{line}\n"));
    }
    p.push_str("*** Delete File: gone.txt\n*** End Patch\n");
    p
}

fn after(before: &BTreeMap<String, Vec<u8>>, patch: &str) -> BTreeMap<String, Vec<u8>> {
    let parsed = v4a::parse_patch(patch).unwrap();
    let r = v4a::apply_patch(
        &parsed,
        |p| before.get(p).cloned(),
        &v4a::Options::default(),
    )
    .unwrap();
    let mut m = before.clone();
    for f in r.files {
        match f.kind {
            v4a::OpKind::Delete => {
                m.remove(&f.path);
            }
            _ => {
                m.insert(f.target().to_string(), f.applied.text.into_bytes());
            }
        }
    }
    m
}

fn reset(dir: &Path, files: &BTreeMap<String, Vec<u8>>) {
    let _ = fs::remove_dir_all(dir);
    fs::create_dir_all(dir).unwrap();
    for (p, c) in files {
        fs::write(dir.join(p), c).unwrap();
    }
}

fn run(dir: &Path, patch: &Path) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_v4a"))
        .arg("apply")
        .arg("--dir")
        .arg(dir)
        .arg(patch)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Checks the directory after a kill: every name is an expected file with its old or new
/// content, or a leftover temporary file. Returns how many files hold new content.
fn check(
    dir: &Path,
    old: &BTreeMap<String, Vec<u8>>,
    new: &BTreeMap<String, Vec<u8>>,
    trial: usize,
) -> usize {
    let mut changed = 0;
    let names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    for name in &names {
        if name.starts_with(".v4a-") && name.ends_with(".tmp") {
            continue; // an unfinished temporary file, never under a real name
        }
        let bytes = fs::read(dir.join(name)).unwrap();
        let is_old = old.get(name) == Some(&bytes);
        let is_new = new.get(name) == Some(&bytes);
        assert!(
            is_old || is_new,
            "trial {trial}: {name} is neither its old nor its new content ({} bytes)",
            bytes.len()
        );
        if is_new && !is_old {
            changed += 1;
        }
    }
    for name in old.keys().chain(new.keys()) {
        let present = names.contains(name);
        assert!(
            present || !old.contains_key(name) || !new.contains_key(name),
            "trial {trial}: {name} disappeared"
        );
    }
    if !names.contains(&"gone.txt".to_string()) {
        changed += 1;
    }
    changed
}

#[test]
fn sigkill_at_random_moments_leaves_every_file_old_or_new() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("work");
    let patch_path = root.path().join("change.patch");
    let text = patch();
    fs::write(&patch_path, &text).unwrap();
    let old = before();
    let new = after(&old, &text);

    // How long an uninterrupted run takes, to spread the kills over it.
    reset(&dir, &old);
    let t = Instant::now();
    let out = run(&dir, &patch_path).wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let full = t.elapsed();
    assert_eq!(check(&dir, &old, &new, 0), FILES + 2);

    let trials = 250;
    let mut rng: u64 = 0x5eed;
    let (mut untouched, mut partial, mut complete) = (0, 0, 0);
    for trial in 1..=trials {
        reset(&dir, &old);
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        // Most of a run is computing in memory; spread the kills over its second part.
        let span = full.as_micros() as u64;
        let delay = Duration::from_micros(span * 3 / 10 + (rng >> 33) % (span + 1));
        let mut child = run(&dir, &patch_path);
        std::thread::sleep(delay);
        let _ = child.kill(); // SIGKILL
        let _ = child.wait();
        match check(&dir, &old, &new, trial) {
            0 => untouched += 1,
            n if n == FILES + 2 => complete += 1,
            _ => partial += 1,
        }
        // A second run finishes the job: hunks already applied are no-ops.
        let out = run(&dir, &patch_path).wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        if out.status.success() {
            assert_eq!(
                check(&dir, &old, &new, trial),
                FILES + 2,
                "trial {trial}: rerun did not finish"
            );
        } else {
            assert!(
                stderr.contains("already"),
                "trial {trial}: rerun failed: {stderr}"
            );
        }
    }
    eprintln!(
        "{trials} SIGKILL trials over a {full:?} run: {untouched} before any write, {partial} midway, {complete} after the last write"
    );
    assert!(
        partial > 0,
        "no kill landed midway: the trials prove nothing"
    );
}
