#!/usr/bin/env python3
"""Writes seed inputs for every fuzz target from the shared test vectors (tests/vectors/).

Usage: python3 fuzz/seed.py [OUT_DIR]   (default: fuzz/seeds; one folder per target)

The encoding is the one `fuzz/src/checks/` decodes: a small header of option bits, then parts
separated by the byte 0xFF. Seeds are named after their vector, so a seed that cmin keeps says
where it came from. Run `cargo fuzz cmin` afterwards to fold them into fuzz/corpus/.
"""

import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VECTORS = os.path.join(ROOT, "tests", "vectors")
SEP = b"\xff"

MODES = {"update": 0, "create": 1, "delete": 2, "move": 3}
LEVELS = {"exact": 0, "trim_end": 1, "trim": 2, "collapse": 3, "fold": 4}


def read(path):
    with open(path, "rb") as f:
        return f.read()


def files_under(folder):
    """Relative path -> bytes of every file under folder."""
    out = {}
    if not os.path.isdir(folder):
        return out
    for dirpath, _, names in os.walk(folder):
        for name in names:
            full = os.path.join(dirpath, name)
            out[os.path.relpath(full, folder).replace(os.sep, "/")] = read(full)
    return out


def options_header(options, mode=0, diff=0, refine=False):
    """The 4-byte options header of checks::decode_options."""
    b0 = mode & 3
    level = LEVELS.get(options.get("max_level", "fold"), 4)
    b0 |= level << 2
    if options.get("first_match") == "true":
        b0 |= 0x20
    if options.get("already_applied_error") == "true":
        b0 |= 0x40
    if options.get("ensure_final_newline") == "true":
        b0 |= 0x80
    b1 = diff & 3
    if diff >= 2:
        b1 |= 3 << 2  # three lines of context
    if refine:
        b1 |= 0x20
    if options.get("add_file_line_ending") == "crlf":
        b1 |= 0x40
    b3 = 0
    if "max_fuzz" in options:
        fuzz = int(options["max_fuzz"])
        b3 = fuzz + 1 if fuzz < 127 else 128 + min(fuzz // 50, 127)
    return bytes([b0, b1, 0, b3])


def ffi_header(options, mode):
    """The 16-byte header of checks::ffi: valid options with a changes diff and refinement,
    arguments passed as they are, the mode, three lines of unified-diff context."""
    h = bytearray(options_header(options, 0, diff=2, refine=True))
    h += bytes([0x01, mode, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3])
    return bytes(h)


def reading_paths(patch):
    """Paths of the operations that read a file (Update, Delete), in patch order."""
    text = patch.decode("utf-8", "replace")
    paths = []
    for line in text.replace("\r\n", "\n").split("\n"):
        m = re.match(r"\s*\*\*\* (Update|Delete) File:(.*)$", line)
        if m:
            paths.append(m.group(2).strip())
    return paths


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "fuzz", "seeds")
    seeds = {t: {} for t in ("parse", "apply", "multi", "refine", "make_patch", "reverse", "ffi", "merge")}
    for name in sorted(os.listdir(VECTORS)):
        case = os.path.join(VECTORS, name)
        if not os.path.isdir(case):
            continue
        patch = read(os.path.join(case, "patch"))
        before = files_under(os.path.join(case, "before"))
        after = files_under(os.path.join(case, "after"))
        options = {}
        if os.path.exists(os.path.join(case, "options")):
            for line in read(os.path.join(case, "options")).decode().splitlines():
                if "=" in line:
                    k, v = line.split("=", 1)
                    options[k.strip()] = v.strip()
        seeds["parse"][name] = patch
        mode_path = os.path.join(case, "mode")
        if os.path.exists(mode_path):
            mode = MODES.get(read(mode_path).decode().strip())
            if mode is None:
                continue
            source = next(iter(before.values()), b"")
            new = next(iter(after.values()), b"")
            seeds["apply"][name] = options_header(options, mode) + source + SEP + patch
            seeds["apply"][name + "-diff"] = (
                options_header(options, mode, diff=1, refine=True) + source + SEP + patch
            )
            seeds["ffi"][name] = ffi_header(options, mode) + source + SEP + patch + SEP + new
            if mode == 0:
                # merge: the base, the patch, and drift lines at three places.
                for k in (0, 3, 255):
                    h = options_header(options, 0) + bytes([k, k & 1])
                    seeds["merge"][f"{name}-{k}"] = h + source + SEP + patch + SEP + b"drift = 1"
            if os.path.isdir(os.path.join(case, "after")):
                seeds["make_patch"][name] = bytes([3]) + source + SEP + new
                seeds["refine"][name] = bytes([0]) + source + SEP + new
            continue
        paths = reading_paths(patch)
        sources = [before.get(p, b"") for p in paths]
        multi = options_header(options) + SEP.join([patch] + sources)
        seeds["multi"][name] = multi
        seeds["ffi"][name] = ffi_header(options, 0) + SEP.join([b"", patch] + sources)
        if os.path.isdir(os.path.join(case, "after")):
            seeds["reverse"][name] = multi
            if len(paths) == 1 and paths[0] in before:
                seeds["apply"][name] = options_header(options, 0, diff=2, refine=True) + before[paths[0]] + SEP + patch
                for p, new in after.items():
                    seeds["make_patch"][name] = bytes([3]) + before[paths[0]] + SEP + new
                    seeds["refine"][name] = bytes([1]) + before[paths[0]] + SEP + new
                    break
    for target, by_name in seeds.items():
        folder = os.path.join(out, target)
        os.makedirs(folder, exist_ok=True)
        for name, data in by_name.items():
            with open(os.path.join(folder, "seed-" + name), "wb") as f:
                f.write(data)
        print(f"{target}: {len(by_name)} seeds in {folder}")


if __name__ == "__main__":
    main()
