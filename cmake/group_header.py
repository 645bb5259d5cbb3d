#!/usr/bin/env python3
"""Groups the header cbindgen writes by object: each type next to its constants and functions.

cbindgen writes every constant, then every type, then every function. This step reorders its
declarations (never changes one) into the sections of SECTIONS below, in that order, each
with a banner; inside a section the declarations keep cbindgen's order. It is deterministic
and run by cmake/Header.cmake (the `header` target and the header_up_to_date test):

    python3 cmake/group_header.py GENERATED OUTPUT

So that each section may point to a struct of a later one, every struct is declared ahead
(`struct v4a_x;`). A section's `#define`s can name anything; its typedefs and structs must
only use those of earlier sections by value, which the C and C++ header tests check.

A new C object (a new file of crates/ffi) slots in with one line in SECTIONS: its title and
the pattern of its names. A declaration no section claims goes to a last "More" section, so
the header stays valid; give it a section.
"""

import re
import sys

# (title, names): a declaration goes to the first section whose pattern matches its name.
SECTIONS = [
    ("Shared vocabulary: the status type, byte views, arrays of uint32_t, offset units",
     r"^((v4a_status|v4a_bytes|v4a_u32s|v4a_units)$|V4A_UNITS_)"),
    ("Applying a diff to one text (the main entry point)", r"^(v4a_mode$|V4A_MODE_|v4a_apply)"),
    ("Options: how loosely hunks match, the structured diff, the search budget",
     r"^(v4a_options|V4A_OPTIONS_INIT$|v4a_level$|V4A_LEVEL_|v4a_level_str|v4a_line_ending|V4A_LINE_ENDING_"
     r"|v4a_diff_style|V4A_DIFF_STYLE_|V4A_NO_FUZZ_LIMIT|V4A_DEFAULT_DIFF_CONTEXT"
     r"|V4A_DEFAULT_SEARCH_BUDGET|V4A_DEFAULT_REFINE_|v4a_normalize)"),
    ("A result: the new text, the hunk reports, the structured diff, the edit script",
     r"^(v4a_result$|v4a_result_(?!set)|v4a_hunk_|V4A_HUNK_|v4a_diff_(kind|line)|V4A_DIFF_"
     r"(EQUAL|DELETE|ADD)$|v4a_segment|v4a_change)"),
    ("Errors: status codes and the diagnostics of a failure",
     r"^(V4A_STATUS_|v4a_status_|v4a_error$|V4A_NO_OFFSET$)"),
    ("Multi-file patches: parse, inspect, apply atomically, reverse",
     r"^(v4a_patch|v4a_op|V4A_OP_|v4a_source|v4a_path_class|V4A_PATH_|v4a_classify_path)"),
    ("The result of a multi-file patch", r"^(v4a_result_set|v4a_file_result)"),
    ("Applying a patch to a directory: the workspace layer (confined, atomic, journaled)",
     r"^(v4a_workspace|V4A_WORKSPACE_|V4A_CHANGE_|v4a_file_change$|V4A_FAILURE_|v4a_failure$"
     r"|V4A_RECOVERY_|v4a_recovery|V4A_DEFAULT_LOCK_WAIT_MS$|v4a_bytes_list$)"),
    ("Refining any block of lines: pairs and character segments",
     r"^(v4a_refine|v4a_refinement|v4a_line_pair)"),
    ("The structured diff as columns (the cheap form)", r"^(v4a_line_diff|v4a_diff_columns)"),
    ("Texts the library writes (patches, normalised lines)", r"^v4a_text"),
    ("Unified diffs from the parts of a result", r"^v4a_unified_diff"),
    ("Writing patches: generation", r"^(v4a_generate_options|V4A_GENERATE_OPTIONS_INIT$|V4A_DEFAULT_GENERATE_|v4a_make_)"),
    ("The tool-calling kit: schemas, grammars, instructions",
     r"^(v4a_flavor|V4A_FLAVOR_|v4a_shape|V4A_SHAPE_|v4a_tool_|v4a_grammar|v4a_file_grammar"
     r"|v4a_instructions)"),
    ("Versions", r"^(V4A_STRINGIFY|V4A_VERSION|V4A_ABI_VERSION$|v4a_version$|v4a_abi_version$)"),
    ("Testing the panic boundary", r"^v4a_test_"),
]

# The last line of cbindgen.toml's after_includes: the declarations follow it.
MARKER = "/* The declarations, grouped by object (cmake/group_header.py). */"
CXX_OPEN = ['#ifdef __cplusplus', 'extern "C" {', '#endif // __cplusplus']
CXX_CLOSE = ['#ifdef __cplusplus', '}  // extern "C"', '#endif  // __cplusplus']
GUARD_END = "#endif  /* V4A_H */"


def fail(message):
    sys.stderr.write("group_header.py: " + message + "\n")
    sys.exit(1)


def declarations(lines):
    """Splits cbindgen's declarations into blocks: (name, lines), in order."""
    blocks = []
    i = 0
    skip = set(CXX_OPEN + CXX_CLOSE)
    while i < len(lines):
        line = lines[i]
        if line == "" or line in skip:
            i += 1
            continue
        if line == GUARD_END:
            if any(l != "" for l in lines[i + 1:]):
                fail("text after the include guard's #endif")
            break
        start = i
        conditional = line.startswith("#if ")
        if conditional:
            i += 1
        if lines[i].startswith("/**"):
            while not lines[i].endswith("*/"):
                i += 1
            i += 1
        first = lines[i]
        if first.startswith("#define"):
            while lines[i].endswith("\\"):
                i += 1
        elif re.match(r"^(typedef )?struct \w+ \{$", first):
            while not (lines[i].startswith("}") and lines[i].endswith(";")):
                i += 1
        else:
            while not lines[i].endswith(";"):
                i += 1
        i += 1
        if conditional:
            if lines[i] != "#endif":
                fail("expected #endif after the conditional declaration at: " + first)
            i += 1
        m = (re.match(r"^#define (\w+)", first)
             or re.match(r"^typedef struct (\w+) [{\w]", first)
             or re.match(r"^typedef .*?(\w+);$", first)
             or re.match(r"^.*?(\w+)\(", first))
        if not m:
            fail("cannot name the declaration: " + first)
        blocks.append((m.group(1), lines[start:i]))
    return blocks


def banner(title):
    rule = "-" * 93
    return ["/* " + rule, " * " + title, " * " + rule + " */"]


def group(text):
    lines = text.split("\n")
    if MARKER not in lines:
        fail("the marker line of cbindgen.toml's after_includes is missing: " + MARKER)
    at = lines.index(MARKER)
    blocks = declarations(lines[at + 1:])
    patterns = [(title, re.compile(p)) for title, p in SECTIONS]
    sections = {title: [] for title, _ in SECTIONS}
    more = []
    for name, block in blocks:
        for title, p in patterns:
            if p.search(name):
                sections[title].append(block)
                break
        else:
            more.append(block)
    structs = []
    for _, block in blocks:
        for line in block:
            m = re.match(r"^typedef struct (\w+) [{\w]", line)
            if m:
                structs.append(m.group(1))
    out = lines[: at + 1] + [""] + CXX_OPEN + [""]
    out += ["/* Every struct, declared ahead so that each section may point to another's. */"]
    out += ["struct %s;" % s for s in structs] + [""]
    ordered = [(t, sections[t]) for t, _ in SECTIONS] + [("More", more)]
    for title, blocks_of in ordered:
        if not blocks_of:
            continue
        out += banner(title) + [""]
        for block in blocks_of:
            out += block + [""]
    out += CXX_CLOSE + ["", GUARD_END, ""]
    return "\n".join(out)


def main():
    if len(sys.argv) != 3:
        fail("usage: group_header.py GENERATED OUTPUT")
    with open(sys.argv[1], encoding="utf-8", newline="\n") as f:
        text = f.read()
    grouped = group(text)
    with open(sys.argv[2], "w", encoding="utf-8", newline="\n") as f:
        f.write(grouped)


if __name__ == "__main__":
    main()
