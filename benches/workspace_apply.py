#!/usr/bin/env python3
"""Issue 16's targets for a workspace apply, measured on the `v4a` command (release build):

- time: the whole `v4a apply --dir` process on a 100,000-line file (one edit) against a copy
  of the same file with fsync of the file and of its directory (what durability needs),
  measured in the same run, alternating; target within 1.5x;
- memory: peak RSS of `v4a apply` on a 1,000,000-line file (one edit) against the file plus
  the patch; target within 2.2x.

Usage: python3 benches/workspace_apply.py [--v4a target/release/v4a] [--runs 9] [--dir DIR]
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def make_file(path, lines):
    with open(path, "w") as f:
        for i in range(lines):
            f.write(f"    line {i:08d} of the file, with some text to make it realistic = {i * 7}\n")


def patch_for(lines, name):
    mid = lines // 2
    old = f"    line {mid:08d} of the file, with some text to make it realistic = {mid * 7}"
    return (f"*** Begin Patch\n*** Update File: {name}\n@@\n-{old}\n+{old} # edited\n"
            "*** End Patch\n")


def run(cmd, stdin=None):
    """Wall time and peak RSS (bytes) of a child process."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE if stdin else None,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if stdin:
        p.stdin.write(stdin.encode())
        p.stdin.close()
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    err = p.stderr.read().decode(errors="replace")
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{cmd[0]} failed: {err}")
    return wall, ru.ru_maxrss * 1024, ru.ru_utime, ru.ru_stime


def copy_fsync(src, dst_dir):
    t0 = time.perf_counter()
    dst = os.path.join(dst_dir, "copy.txt")
    with open(src, "rb") as f, open(dst, "wb") as g:
        shutil.copyfileobj(f, g, 1 << 20)
        g.flush()
        os.fsync(g.fileno())
    d = os.open(dst_dir, os.O_RDONLY)
    os.fsync(d)
    os.close(d)
    return time.perf_counter() - t0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--v4a", default="target/release/v4a")
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--dir", default=None, help="where to make the files (default: a temp dir)")
    a = ap.parse_args()
    top = tempfile.mkdtemp(prefix="v4a-ws-bench-", dir=a.dir)
    try:
        # Time: 100,000 lines.
        work = os.path.join(top, "t")
        os.mkdir(work)
        src = os.path.join(top, "orig-100k.txt")
        make_file(src, 100_000)
        patch = patch_for(100_000, "a.txt")
        apply_t, copy_t = [], []
        for _ in range(a.runs):
            shutil.copyfile(src, os.path.join(work, "a.txt"))
            copy_t.append(copy_fsync(src, work))
            apply_t.append(run([a.v4a, "apply", "--dir", work, "-"], patch)[0])
        size = os.path.getsize(src)
        ma, mc = statistics.median(apply_t), statistics.median(copy_t)
        print(f"time, 100,000 lines ({size / 1e6:.1f} MB), median of {a.runs}: "
              f"v4a apply {ma * 1000:.1f} ms (min {min(apply_t) * 1000:.1f}), "
              f"copy+fsync+dir fsync {mc * 1000:.1f} ms (min {min(copy_t) * 1000:.1f}): "
              f"{ma / mc:.2f}x (target 1.5x)")
        # Memory: 1,000,000 lines.
        src = os.path.join(top, "orig-1m.txt")
        make_file(src, 1_000_000)
        patch = patch_for(1_000_000, "a.txt")
        size = os.path.getsize(src)
        peaks, user, sys_t = [], [], []
        for _ in range(3):
            shutil.copyfile(src, os.path.join(work, "a.txt"))
            _, rss, ut, st = run([a.v4a, "apply", "--dir", work, "-"], patch)
            peaks.append(rss)
            user.append(ut)
            sys_t.append(st)
        peak = min(peaks)
        print(f"memory, 1,000,000 lines ({size / 1e6:.1f} MB): peak RSS {peak / 1e6:.1f} MB = "
              f"{peak / (size + len(patch)):.2f}x the file plus the patch (target 2.2x); "
              f"user {min(user):.2f} s, sys {min(sys_t):.2f} s")
    finally:
        shutil.rmtree(top)


if __name__ == "__main__":
    main()
