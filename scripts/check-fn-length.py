#!/usr/bin/env python3
"""Lists every function of the non-test Rust code longer than a limit (80 lines by default).

Scans `src/` and `crates/*/src` (run from the repository root, or pass `--root`), leaving out
test code: items under `#[cfg(test)]` (a `mod tests { … }` block, a function, an impl) and the
files of `#[cfg(test)] mod name;` declarations, and any `tests/` directory. A function's
length runs from its `fn` line to its closing brace, both included (doc comments and
attributes are not counted).

The scan relies on rustfmt's layout (run `cargo fmt --all` first): an item's closing brace is
the first later line that is exactly its own indentation followed by `}`.

Prints `file:line name length` for each function over the limit, longest first, and exits 1
if there is any; exits 0 when there is none, and 2 when a file cannot be scanned (an item
without a closing brace: not rustfmt'd, or the scan is wrong).

Usage: scripts/check-fn-length.py [--limit N] [--root DIR] [FILE.rs ...]
       scripts/check-fn-length.py --self-test   (checks the scan on a tree it writes)
"""

import argparse
import os
import re
import sys
import tempfile

FN = re.compile(
    r'^(?P<indent>\s*)(?:pub(?:\([^)]*\))?\s+)?(?:default\s+)?(?:const\s+)?(?:async\s+)?'
    r'(?:unsafe\s+)?(?:extern\s+"[^"]*"\s+)?fn\s+(?P<name>\w+)\s*[(<]'
)
CFG_TEST = re.compile(r'^(?P<indent>\s*)#\[cfg\(test\)\]\s*$')
MOD_DECL = re.compile(r'^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(?P<name>\w+)\s*;')
ATTR = re.compile(r'^\s*#\[')


class ScanError(Exception):
    """A file whose layout the scan does not understand."""


def closing_line(lines, start, indent):
    """The index of the line that closes the item opened at `start` (indented by `indent`)."""
    close = indent + '}'
    for j in range(start, len(lines)):
        if lines[j].rstrip() == close:
            return j
    raise ScanError(f'line {start + 1}: no closing "{close}" at this indentation')


def body_start(lines, i, indent):
    """For the `fn` at line `i`: the index of the line opening its body, or None when the
    function is a declaration without a body (`fn f();` in a trait or an extern block)."""
    for j in range(i, len(lines)):
        text = lines[j].rstrip()
        if j > i and FN.match(lines[j]):
            break
        if text.endswith(';'):
            return None
        if text.endswith('{') or (j == i and '{' in text and text.endswith('}')):
            return j
    raise ScanError(f'line {i + 1}: the signature of this function does not end')


def test_module_files(path, name):
    """The files a `#[cfg(test)] mod name;` in `path` may refer to."""
    base = os.path.basename(path)
    parent = os.path.dirname(path)
    if base not in ('lib.rs', 'main.rs', 'mod.rs'):
        parent = os.path.join(parent, base[:-3])
    return {
        os.path.normpath(os.path.join(parent, name + '.rs')),
        os.path.normpath(os.path.join(parent, name, 'mod.rs')),
    }


def scan(path, limit, skip_files):
    """The functions of `path` over `limit` lines, as (length, path, line, name); adds the
    files of its test modules to `skip_files`."""
    with open(path, encoding='utf-8') as f:
        lines = f.read().split('\n')
    found = []
    i = 0
    while i < len(lines):
        line = lines[i]
        test = CFG_TEST.match(line)
        if test:
            # Skip the attributed item: past further attributes to the item itself.
            j = i + 1
            while j < len(lines) and ATTR.match(lines[j]):
                j += 1
            if j >= len(lines):
                break
            decl = MOD_DECL.match(lines[j])
            if decl:
                skip_files |= test_module_files(path, decl.group('name'))
                i = j + 1
            elif lines[j].rstrip().endswith(';'):
                i = j + 1
            else:
                item_indent = re.match(r'\s*', lines[j]).group(0)
                i = closing_line(lines, j, item_indent) + 1
            continue
        m = FN.match(line)
        if m:
            indent = m.group('indent')
            opens = body_start(lines, i, indent)
            if opens is not None:
                text = lines[opens].rstrip()
                one_line = opens == i and text.endswith('}') and not text.endswith('{')
                end = opens if one_line else closing_line(lines, opens, indent)
                length = end - i + 1
                if length > limit:
                    found.append((length, path, i + 1, m.group('name')))
        i += 1
    return found


def rust_files(root):
    """The non-test `.rs` files under `src/` and `crates/*/src` of `root`, sorted."""
    dirs = [os.path.join(root, 'src')]
    crates = os.path.join(root, 'crates')
    if os.path.isdir(crates):
        for c in sorted(os.listdir(crates)):
            dirs.append(os.path.join(crates, c, 'src'))
    out = []
    for d in dirs:
        for dirpath, dirnames, filenames in os.walk(d):
            dirnames[:] = sorted(n for n in dirnames if n != 'tests')
            out.extend(os.path.join(dirpath, f) for f in sorted(filenames) if f.endswith('.rs'))
    return out


def self_test():
    """Scans a small tree of every case the scan must get right; 0 when the result is the
    expected one."""
    def body(n):
        return ''.join(f'    let _ = {k};\n' for k in range(n))

    files = {
        # Counted: over the limit (82 lines), a multi-line signature with a where clause in an
        # impl (90); not counted: exactly the limit, a trait declaration spanning lines, a
        # one-line function, everything under #[cfg(test)].
        'src/lib.rs': 'mod a;\npub trait T {\n    fn decl(\n        x: u32,\n    ) -> u32;\n'
        '    fn short(&self) {}\n}\n\npub fn long_one() {\n' + body(80) + '}\n\n'
        'pub fn at_limit() {\n' + body(78) + '}\n\n#[cfg(test)]\n#[allow(dead_code)]\n'
        'mod tests {\n    fn long_test() {\n' + body(100) + '    }\n}\n',
        'src/a.rs': '#[cfg(test)]\nmod tests;\nimpl S {\n'
        '    pub(crate) fn generic<T>(&self, t: T) -> T\n    where\n        T: Clone,\n    {\n'
        + body(85) + '    }\n}\n',
        # The file of a #[cfg(test)] module, and a tests/ directory: not scanned.
        'src/a/tests.rs': 'fn in_test_file() {\n' + body(90) + '}\n',
        'crates/x/src/tests/t.rs': 'fn in_tests_dir() {\n' + body(90) + '}\n',
        'crates/x/src/lib.rs': 'pub unsafe extern "C" fn ffi_long() {\n' + body(81) + '}\n',
    }
    expected = [
        (90, 'src/a.rs', 4, 'generic'),
        (83, 'crates/x/src/lib.rs', 1, 'ffi_long'),
        (82, 'src/lib.rs', 9, 'long_one'),
    ]
    with tempfile.TemporaryDirectory() as root:
        for rel, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
            with open(os.path.join(root, rel), 'w', encoding='utf-8') as f:
                f.write(text)
        skip = set()
        found = []
        for path in rust_files(root):
            found.extend(scan(path, 80, skip))
        got = sorted(
            ((n, os.path.relpath(p, root), line, name) for n, p, line, name in found
             if os.path.normpath(p) not in skip),
            key=lambda f: (-f[0], f[1]),
        )
        broken = os.path.join(root, 'broken.rs')
        with open(broken, 'w', encoding='utf-8') as f:
            f.write('fn broken() {\n  }\n')
        try:
            scan(broken, 80, set())
            refused = False
        except ScanError:
            refused = True
    ok = got == expected and refused
    if not ok:
        print(f'check-fn-length self-test FAILED: got {got}, want {expected}; '
              f'an unclosed function refused: {refused}', file=sys.stderr)
    else:
        print('check-fn-length self-test: ok')
    return 0 if ok else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--limit', type=int, default=80, help='the longest allowed function (lines)')
    ap.add_argument('--root', default='.', help='the repository root (default: .)')
    ap.add_argument('--self-test', action='store_true', help='check the scan itself')
    ap.add_argument('files', nargs='*', help='scan these files instead of the whole tree')
    args = ap.parse_args()
    if args.self_test:
        return self_test()
    if args.files:
        files = args.files
    else:
        files = rust_files(args.root)
        if not files:
            print(f'check-fn-length: no Rust files under {args.root}/src', file=sys.stderr)
            return 2
    skip = set()
    found = []
    for path in files:
        try:
            found.extend(scan(path, args.limit, skip))
        except ScanError as e:
            print(f'check-fn-length: {path}: {e}', file=sys.stderr)
            return 2
    # A test module's file is known only after its parent is scanned: drop its functions.
    found = [f for f in found if os.path.normpath(f[1]) not in skip]
    for length, path, line, name in sorted(found, key=lambda f: (-f[0], f[1], f[2])):
        rel = os.path.relpath(path, args.root) if not args.files else path
        print(f'{rel}:{line} {name} {length}')
    if found:
        print(f'{len(found)} function(s) over {args.limit} lines', file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
