#!/usr/bin/env python3
"""Writes the tool definitions in this folder from one source: the texts below and the grammars.

    python3 tools/generate.py          # rewrite the ten *.json files
    python3 tools/generate.py --check  # exit 1 if a *.json file differs from what would be written

The JSON files are what ships (the Rust library embeds them with include_str!); edit the texts
here, or the .lark grammars, then run this script. tests/grammar/check_tools.py runs the check.
Standard library only.
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

NAME_INPUT = "apply_patch"
NAME_FILE = "patch_file"
MODES = ["update", "create", "delete", "move"]

HUNK_RULES = """Hunk rules:
- Hunk lines start with " " (unchanged context), "-" (remove) or "+" (add), then the line's text exactly as in the file, indentation included. Show about 3 unchanged lines above and below each change. Never use line numbers.
- "@@ text" names a line the hunk comes after, usually the enclosing class or function; stack "@@" lines to narrow it down (outermost first). A bare "@@" starts a hunk with no anchor. Every hunk after the first starts with "@@".
- A hunk must match exactly one place in the file: if its lines could occur twice, add an "@@" anchor or more context. Keep hunks in file order.
- "*** End of File" right after a hunk pins it to the end of the file."""

ON_ERROR = """If the call fails, nothing was changed. The error names a status (e.g. AMBIGUOUS, CONTEXT_NOT_FOUND, PATCH_SYNTAX), the hunk and the patch line, and says how to fix it: candidate lines and an anchor to add, or the file's real lines as a corrected hunk. Fix the patch and send it again."""

PATCH_EXAMPLE = """*** Begin Patch
*** Update File: src/app.py
@@ class App:
@@     def run(self):
         x = 1
-        y = 2
+        y = 3
         return x + y
*** Add File: docs/notes.md
+# Notes
*** Delete File: old/tmp.txt
*** End Patch"""

FILE_OPERATIONS = """File operations, one section per file, markers at column 0:
- "*** Add File: PATH", then the new file's lines, each prefixed with "+".
- "*** Delete File: PATH" alone.
- "*** Update File: PATH", optionally "*** Move to: NEW_PATH" to rename, then hunks."""

INPUT_DESCRIPTION = f"""Create, edit, rename and delete text files with one V4A patch. The whole patch is applied or none of it is.

{PATCH_EXAMPLE}

{FILE_OPERATIONS}

{HUNK_RULES}

{ON_ERROR}"""

CUSTOM_INPUT_DESCRIPTION = f"""Create, edit, rename and delete text files with one V4A patch. Send the patch text itself as the input (not JSON, no code fence). The whole patch is applied or none of it is.

{PATCH_EXAMPLE}

{FILE_OPERATIONS}

{HUNK_RULES}

{ON_ERROR}"""

INPUT_PROPERTY = 'The whole patch text, from "*** Begin Patch" to "*** End Patch", with "\\n" line breaks.'

HUNKS_EXAMPLE = """@@ def total(items):
     subtotal = sum(items)
-    return subtotal
+    return round(subtotal, 2)"""

FILE_DESCRIPTION = f"""Create, edit, rename or delete ONE text file per call with a V4A diff. "mode" says what to do with "path"; "diff" carries the lines:
- update: the file's hunks, without "*** Begin Patch" and without a file header, e.g.
{HUNKS_EXAMPLE}
- create: the new file, every line prefixed with "+".
- delete: an empty string.
- move: a one-file patch that renames (and optionally edits): "*** Begin Patch", "*** Update File: PATH", "*** Move to: NEW_PATH", any hunks, "*** End Patch".

{HUNK_RULES}

{ON_ERROR}"""

CUSTOM_FILE_DESCRIPTION = f"""Create, edit, rename or delete ONE text file per call. Send that file's V4A section itself as the input (not JSON, no code fence, no "*** Begin Patch" envelope), ending with a newline:
- "*** Update File: PATH", then its hunks, e.g.
*** Update File: src/cart.py
{HUNKS_EXAMPLE}
- "*** Update File: PATH", "*** Move to: NEW_PATH", then any hunks: rename (and edit).
- "*** Add File: PATH", then the new file, every line prefixed with "+".
- "*** Delete File: PATH" alone.

{HUNK_RULES}

{ON_ERROR}"""

PATH_PROPERTY = "Path of the file, relative to the workspace root (for move: the current path)."
MODE_PROPERTY = (
    'update: edit an existing file; create: write a new file from "+" lines; '
    'delete: remove the file (diff empty); move: rename the file (diff holds the "*** Move to:" patch).'
)
DIFF_PROPERTY = (
    'update: hunks ("@@ anchor" lines, then " ", "-", "+" lines); create: "+" lines; '
    'delete: empty; move: "*** Begin Patch", "*** Update File: PATH", "*** Move to: NEW_PATH", '
    'any hunks, "*** End Patch".'
)


def _object(properties):
    # Every property required and no others: what OpenAI's strict mode demands, and right for
    # the other platforms too.
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


INPUT_SCHEMA = _object({"input": {"type": "string", "description": INPUT_PROPERTY}})
FILE_SCHEMA = _object(
    {
        "path": {"type": "string", "description": PATH_PROPERTY},
        "mode": {"type": "string", "enum": MODES, "description": MODE_PROPERTY},
        "diff": {"type": "string", "description": DIFF_PROPERTY},
    }
)


def _annotations(title):
    # MCP tool annotations: it writes and deletes files in the workspace (destructive), a
    # retried pure insertion inserts twice (not idempotent), and it touches nothing outside.
    return {
        "title": title,
        "readOnlyHint": False,
        "destructiveHint": True,
        "idempotentHint": False,
        "openWorldHint": False,
    }


def _read(name):
    with open(os.path.join(HERE, name), encoding="utf-8", newline="") as f:
        return f.read()


def _openai_function(name, description, parameters):
    # OpenAI function calling, strict mode: the fields of the Responses API's function tool
    # (`tools` of /v1/responses: {"type": "function", "name", ...} at the top level); the
    # Chat Completions API (`tools` of /v1/chat/completions) nests them in "function".
    return {"name": name, "description": description, "parameters": parameters, "strict": True}


def build():
    """Returns {file name: JSON text} for every tool definition.

    Files are named <flavor>-<shape>.json after v4a::tools::Flavor::name and Shape::name.
    """
    grammar = _read("v4a.lark")
    file_grammar = _read("file-diff.lark")
    input_function = _openai_function(NAME_INPUT, INPUT_DESCRIPTION, INPUT_SCHEMA)
    file_function = _openai_function(NAME_FILE, FILE_DESCRIPTION, FILE_SCHEMA)
    defs = {
        "openai-chat-input.json": {"type": "function", "function": input_function},
        "openai-chat-file.json": {"type": "function", "function": file_function},
        "openai-responses-input.json": {"type": "function", **input_function},
        "openai-responses-file.json": {"type": "function", **file_function},
        # OpenAI custom (freeform) tools, Responses layout (`tools` of /v1/responses).
        "openai-responses-custom-input.json": {
            "type": "custom",
            "name": NAME_INPUT,
            "description": CUSTOM_INPUT_DESCRIPTION,
            "format": {"type": "grammar", "syntax": "lark", "definition": grammar},
        },
        "openai-responses-custom-file.json": {
            "type": "custom",
            "name": NAME_FILE,
            "description": CUSTOM_FILE_DESCRIPTION,
            "format": {"type": "grammar", "syntax": "lark", "definition": file_grammar},
        },
        "anthropic-input.json": {
            "name": NAME_INPUT,
            "description": INPUT_DESCRIPTION,
            "input_schema": INPUT_SCHEMA,
        },
        "anthropic-file.json": {
            "name": NAME_FILE,
            "description": FILE_DESCRIPTION,
            "input_schema": FILE_SCHEMA,
        },
        "mcp-input.json": {
            "name": NAME_INPUT,
            "title": "Apply patch",
            "description": INPUT_DESCRIPTION,
            "inputSchema": INPUT_SCHEMA,
            "annotations": _annotations("Apply patch"),
        },
        "mcp-file.json": {
            "name": NAME_FILE,
            "title": "Patch one file",
            "description": FILE_DESCRIPTION,
            "inputSchema": FILE_SCHEMA,
            "annotations": _annotations("Patch one file"),
        },
    }
    return {name: json.dumps(d, indent=2, ensure_ascii=False) + "\n" for name, d in defs.items()}


def main(argv):
    check = "--check" in argv[1:]
    stale = []
    for name, text in build().items():
        path = os.path.join(HERE, name)
        current = _read(name) if os.path.exists(path) else None
        if current == text:
            continue
        if check:
            stale.append(name)
        else:
            with open(path, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
            print(f"wrote tools/{name}")
    if stale:
        print("out of date (run python3 tools/generate.py): " + ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
