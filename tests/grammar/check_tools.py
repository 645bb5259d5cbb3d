#!/usr/bin/env python3
"""Checks the tool-calling kit in tools/ (docs/tools.md; the format: docs/format.md).

    python3 tests/grammar/check_tools.py [--vectors DIR] [--accepted FILE] [--rejected FILE]

1. Every tool definition (tools/*.json) parses and has the structure its platform documents:
   OpenAI function calling in strict mode (every property required, additionalProperties
   false, only keywords strict mode supports) in the Chat Completions layout (openai-chat-*:
   the fields inside "function") and in the Responses layout (openai-responses-*: the same
   fields at the top level), OpenAI custom tools of the Responses API with a Lark grammar
   (openai-responses-custom-*; the grammar is tools/v4a.lark or tools/file-diff.lark, byte for
   byte), Anthropic tool use
   (input_schema of type object) and MCP (inputSchema, annotations). The definitions agree
   with each other, with tools/generate.py, and with the tools_file! list of src/tools/mod.rs.
2. The Lark grammars load with the `lark` package (LALR and Earley) and use no feature that
   LLGuidance, which OpenAI custom tools run on, lacks (lookarounds, lazy quantifiers, terminal
   priorities, imports, templates).
3. The grammar agrees with v4a's strict parser:
   - samples/valid-*.patch parse, samples/invalid-*.patch do not (samples/file-valid-*.diff
     and file-invalid-*.diff likewise with the per-file grammar); every patch example in
     instructions.md and in the tool descriptions parses;
   - derived cases: a valid patch with CRLF line breaks, or without its "*** End Patch", is
     rejected; a valid one-file patch without its envelope is a valid per-file section, and
     an Update without envelope and header a valid bare diff;
   - test vectors (--vectors DIR, default tests/vectors; one folder per case holding a `patch`
     file and an `outcome` file whose first line is `status: NAME`): with
     --accepted FILE / --rejected FILE (case names, one a line: patches v4a's strict parser
     accepts / rejects with PATCH_SYNTAX or TRUNCATED_PATCH), the grammar must accept every
     accepted case and reject every rejected one. Without the lists, every case whose error
     is PATCH_SYNTAX or TRUNCATED_PATCH must be rejected (the strict form is a subset of what
     v4a accepts), and the script reports how many applying cases the grammar accepts.
     Listed cases are checked against v4a.lark whatever their kind (a bare diff is not a
     patch: the strict parser and the grammar both reject it). Besides, the diffs of the
     one-file API (a `mode` file, no envelope) are checked on their own terms: a syntax error
     must be rejected by the per-file grammar (a diff starting with a file header) or by the
     hunk rules alone (a bare diff), a missing final newline added.
   Every verdict is taken with LALR and must agree with Earley (dynamic lexer, as LLGuidance)
   and, when the `llguidance` package is installed, with LLGuidance itself.

Needs Python 3.8+ and `lark` (scripts/test-all.sh installs it; this script installs nothing). Prints
one line per check (failures only with --quiet), then `N passed, N failed`; exits 1 on any
failure.
"""

import argparse
import importlib.util
import json
import os
import re
import sys

sys.dont_write_bytecode = True  # loading tools/generate.py must leave no __pycache__ behind

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

STATUS_NAMES = [
    "OK", "INVALID_ARGUMENT", "NULL_ARGUMENT", "INVALID_UTF8", "PATCH_SYNTAX",
    "TRUNCATED_PATCH", "UNSUPPORTED_MODE", "CONTEXT_NOT_FOUND", "ANCHOR_NOT_FOUND",
    "AMBIGUOUS", "OVERLAPPING_HUNKS", "ALREADY_APPLIED", "FUZZ_LIMIT", "SEARCH_BUDGET",
    "MISSING_SOURCE", "DUPLICATE_PATH", "INTERNAL", "FILE_EXISTS", "CONFLICT",
    "CHANGED_ON_DISK", "UNSAFE_PATH", "LOCKED", "INCONSISTENT_INDENTATION",
]
SYNTAX_STATUSES = {"PATCH_SYNTAX", "TRUNCATED_PATCH"}
# Statuses the model can cause and must be told how to handle.
MODEL_FACING_STATUSES = [
    "PATCH_SYNTAX", "TRUNCATED_PATCH", "CONTEXT_NOT_FOUND", "ANCHOR_NOT_FOUND", "AMBIGUOUS",
    "OVERLAPPING_HUNKS", "DUPLICATE_PATH", "MISSING_SOURCE", "ALREADY_APPLIED", "FUZZ_LIMIT",
    "SEARCH_BUDGET", "UNSUPPORTED_MODE", "INVALID_ARGUMENT", "INVALID_UTF8",
    "INCONSISTENT_INDENTATION", "CONFLICT",
]

# The flavour names of v4a::tools::Flavor; a definition's file is tools/<flavor>-<shape>.json.
FLAVORS = ["openai-chat", "openai-responses", "openai-responses-custom", "anthropic", "mcp"]
# Flavours whose definitions carry a JSON Schema of the arguments.
SCHEMA_FLAVORS = ["openai-chat", "openai-responses", "anthropic", "mcp"]
SHAPES = ["input", "file"]
TOOL_NAMES = {"input": "apply_patch", "file": "patch_file"}
MODES = ["update", "create", "delete", "move"]
GRAMMARS = {"input": "v4a.lark", "file": "file-diff.lark"}
SHARED_MARKER = "// ---- shared rules"

# JSON Schema keywords OpenAI's strict mode supports (function calling, Structured Outputs).
OPENAI_STRICT_KEYWORDS = {
    "type", "description", "enum", "const", "properties", "required",
    "additionalProperties", "items", "anyOf", "$defs", "$ref", "pattern", "format",
    "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
    "minItems", "maxItems",
}
MCP_ANNOTATIONS = {"title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}


class Report:
    """Counts checks and prints one line per check."""

    def __init__(self, quiet):
        self.quiet = quiet
        self.passed = 0
        self.failed = 0

    def check(self, ok, name, detail=""):
        if ok:
            self.passed += 1
            if not self.quiet:
                print(f"PASS {name}")
        else:
            self.failed += 1
            print(f"FAIL {name}" + (f": {detail}" if detail else ""))
        return ok

    def problems(self, name, problems):
        """One check that passes when the list of problems is empty."""
        return self.check(not problems, name, "; ".join(problems))

    def info(self, text):
        print(f"info {text}")


# ---------------------------------------------------------------------------------------------
# lark


def import_lark():
    """Imports lark; None when it is not installed (this script installs nothing:
    scripts/test-all.sh provisions it, or `pip install lark`)."""
    try:
        import lark  # noqa: F401
        return lark
    except ImportError:
        return None


def import_llguidance():
    """LLGuidance, the engine behind OpenAI custom-tool grammars, when it is installed
    (optional: `pip install llguidance` adds its verdicts to every check)."""
    try:
        import llguidance
        return llguidance
    except ImportError:
        return None


class LLGuidanceGrammar:
    """A grammar compiled by LLGuidance, fed byte by byte (a byte-level tokenizer)."""

    class _Bytes:
        def __init__(self):
            self.tokens = [bytes([i]) for i in range(256)] + [b"<eos>"]
            self.eos_token_id = 256
            self.bos_token_id = None
            self.special_token_ids = [256]

        def __call__(self, s):
            return list(s.encode("utf-8") if isinstance(s, str) else s)

    def __init__(self, llg, text):
        tokenizer = llg.LLTokenizer(llg.TokenizerWrapper(self._Bytes()))
        grammar = llg.grammar_from("lark", text)
        is_error, messages = llg.LLMatcher.validate_grammar_with_warnings(grammar, tokenizer)
        if is_error or messages:
            raise ValueError("; ".join(messages) or "invalid grammar")
        self.matcher = llg.LLMatcher(tokenizer, grammar, log_level=0)

    def accepts(self, text):
        m = self.matcher.deep_copy()
        ok = m.consume_tokens(list(text.encode("utf-8")))
        return bool(ok) and not m.is_error() and m.is_accepting()


class Grammar:
    """One Lark grammar, parsed with LALR (the verdict) and Earley (must agree), and with
    LLGuidance when it is installed (must agree too)."""

    EARLEY_LIMIT = 200_000  # characters; the dynamic Earley lexer is slow on huge inputs

    def __init__(self, lark, text, llg=None):
        self.lark = lark
        self.lalr = lark.Lark(text, parser="lalr")
        self.earley = lark.Lark(text, parser="earley", lexer="dynamic")
        self.llg = LLGuidanceGrammar(llg, text) if llg else None

    def verdict(self, text):
        """(accepted, detail, tree): detail is the first line of the error when rejected, or
        a disagreement between the parsers (then accepted is None)."""
        if text is None:
            return False, "not valid UTF-8", None
        tree, detail = self._parse(self.lalr, text)
        if len(text) <= self.EARLEY_LIMIT:
            etree, edetail = self._parse(self.earley, text)
            if (tree is None) != (etree is None):
                return None, f"LALR and Earley disagree (LALR: {detail or 'accepts'}; " \
                             f"Earley: {edetail or 'accepts'})", None
        if self.llg is not None and self.llg.accepts(text) != (tree is not None):
            return None, f"LALR and LLGuidance disagree (LALR: {detail or 'accepts'}; " \
                         f"LLGuidance: {'rejects' if tree is not None else 'accepts'})", None
        return tree is not None, detail, tree

    def _parse(self, parser, text):
        try:
            return parser.parse(text), ""
        except self.lark.exceptions.UnexpectedInput as e:
            first = str(e).strip().splitlines()
            return None, (first[0] if first else type(e).__name__)


def operation_count(tree):
    return sum(1 for c in tree.children if hasattr(c, "data"))


def strip_envelope(text):
    """The one-operation section of an enveloped patch, every line ending with LF."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    body = lines[1:-1]
    return "".join(line + "\n" for line in body)


# ---------------------------------------------------------------------------------------------
# reading files


def read_text(path):
    with open(path, "rb") as f:
        data = f.read()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def load_json(path):
    """(value, error)"""

    def no_duplicates(pairs):
        keys = [k for k, _ in pairs]
        dups = sorted({k for k in keys if keys.count(k) > 1})
        if dups:
            raise ValueError("duplicate keys " + ", ".join(dups))
        return dict(pairs)

    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f, object_pairs_hook=no_duplicates), None
    except (OSError, ValueError) as e:
        return None, str(e)


# ---------------------------------------------------------------------------------------------
# 1. tool definitions


def is_text(v):
    return isinstance(v, str) and v.strip() != ""


def check_keys(obj, where, required, allowed, problems):
    if not isinstance(obj, dict):
        problems.append(f"{where} is not an object")
        return False
    for k in required:
        if k not in obj:
            problems.append(f"{where} lacks {k!r}")
    for k in obj:
        if k not in allowed:
            problems.append(f"{where} has unexpected key {k!r}")
    return True


def check_schema(schema, where, shape, strict, problems):
    """An object schema for the arguments of a tool of this shape."""
    if not isinstance(schema, dict):
        problems.append(f"{where} is not an object")
        return
    if schema.get("type") != "object":
        problems.append(f"{where}.type is {schema.get('type')!r}, not 'object'")
    props = schema.get("properties")
    required = schema.get("required")
    if not isinstance(props, dict) or not props:
        problems.append(f"{where}.properties is missing or empty")
        return
    if not isinstance(required, list) or not all(isinstance(r, str) for r in required):
        problems.append(f"{where}.required is not a list of names")
        required = []
    if len(set(required)) != len(required):
        problems.append(f"{where}.required repeats a name")
    for r in required:
        if r not in props:
            problems.append(f"{where}.required names {r!r}, which is not a property")
    expected = ["input"] if shape == "input" else ["path", "mode", "diff"]
    if sorted(props) != sorted(expected):
        problems.append(f"{where}.properties are {sorted(props)}, expected {sorted(expected)}")
    if sorted(required) != sorted(expected):
        problems.append(f"{where}.required is {sorted(required)}, expected {sorted(expected)}")
    if schema.get("additionalProperties") is not False:
        problems.append(f"{where}.additionalProperties is not false")
    for name, prop in props.items():
        pw = f"{where}.properties.{name}"
        if not isinstance(prop, dict):
            problems.append(f"{pw} is not an object")
            continue
        if prop.get("type") != "string":
            problems.append(f"{pw}.type is {prop.get('type')!r}, not 'string'")
        if not is_text(prop.get("description")):
            problems.append(f"{pw}.description is missing")
        if "enum" in prop:
            enum = prop["enum"]
            if not isinstance(enum, list) or not enum or len(set(map(str, enum))) != len(enum):
                problems.append(f"{pw}.enum is not a list of distinct values")
    if shape == "file":
        mode = props.get("mode", {})
        if isinstance(mode, dict) and mode.get("enum") != MODES:
            problems.append(f"{where}.properties.mode.enum is {mode.get('enum')!r}, expected {MODES}")
    if strict:
        check_openai_strict(schema, where, problems)


def check_openai_strict(node, where, problems):
    """Strict mode: every object lists all its properties as required, forbids others, and
    uses only supported keywords."""
    if isinstance(node, dict):
        for k in node:
            if k not in OPENAI_STRICT_KEYWORDS:
                problems.append(f"{where} uses {k!r}, which OpenAI strict mode does not support")
        if node.get("type") == "object" or "properties" in node:
            props = node.get("properties", {})
            if sorted(node.get("required", [])) != sorted(props):
                problems.append(f"{where}: strict mode needs every property in 'required'")
            if node.get("additionalProperties") is not False:
                problems.append(f"{where}: strict mode needs additionalProperties false")
        for k, v in node.get("properties", {}).items():
            check_openai_strict(v, f"{where}.properties.{k}", problems)
        if isinstance(node.get("items"), dict):
            check_openai_strict(node["items"], f"{where}.items", problems)
        for i, sub in enumerate(node.get("anyOf", [])):
            check_openai_strict(sub, f"{where}.anyOf[{i}]", problems)


def check_name(name, where, pattern, problems):
    if not isinstance(name, str) or not re.fullmatch(pattern, name):
        problems.append(f"{where} {name!r} does not match {pattern}")


def check_definition(flavor, shape, d, tools_dir):
    """Problems with one tool definition."""
    p = []
    want_name = TOOL_NAMES[shape]
    if flavor == "openai-chat":
        if check_keys(d, "definition", ["type", "function"], {"type", "function"}, p):
            if d.get("type") != "function":
                p.append("type is not 'function'")
            f = d.get("function")
            if check_keys(f, "function", ["name", "description", "parameters", "strict"],
                          {"name", "description", "parameters", "strict"}, p):
                check_name(f.get("name"), "function.name", r"[A-Za-z0-9_-]{1,64}", p)
                if f.get("name") != want_name:
                    p.append(f"function.name is {f.get('name')!r}, expected {want_name!r}")
                if not is_text(f.get("description")):
                    p.append("function.description is empty")
                if f.get("strict") is not True:
                    p.append("function.strict is not true")
                check_schema(f.get("parameters"), "function.parameters", shape, True, p)
    elif flavor == "openai-responses":
        keys = ["type", "name", "description", "parameters", "strict"]
        if check_keys(d, "definition", keys, set(keys), p):
            if d.get("type") != "function":
                p.append("type is not 'function'")
            check_name(d.get("name"), "name", r"[A-Za-z0-9_-]{1,64}", p)
            if d.get("name") != want_name:
                p.append(f"name is {d.get('name')!r}, expected {want_name!r}")
            if not is_text(d.get("description")):
                p.append("description is empty")
            if d.get("strict") is not True:
                p.append("strict is not true")
            check_schema(d.get("parameters"), "parameters", shape, True, p)
    elif flavor == "openai-responses-custom":
        if check_keys(d, "definition", ["type", "name", "description", "format"],
                      {"type", "name", "description", "format"}, p):
            if d.get("type") != "custom":
                p.append("type is not 'custom'")
            check_name(d.get("name"), "name", r"[A-Za-z0-9_-]{1,64}", p)
            if d.get("name") != want_name:
                p.append(f"name is {d.get('name')!r}, expected {want_name!r}")
            if not is_text(d.get("description")):
                p.append("description is empty")
            fmt = d.get("format")
            if check_keys(fmt, "format", ["type", "syntax", "definition"],
                          {"type", "syntax", "definition"}, p):
                if fmt.get("type") != "grammar":
                    p.append("format.type is not 'grammar'")
                if fmt.get("syntax") != "lark":
                    p.append("format.syntax is not 'lark'")
                grammar_file = os.path.join(tools_dir, GRAMMARS[shape])
                want = read_text(grammar_file) if os.path.exists(grammar_file) else None
                if fmt.get("definition") != want:
                    p.append(f"format.definition differs from tools/{GRAMMARS[shape]} "
                             "(run python3 tools/generate.py)")
    elif flavor == "anthropic":
        if check_keys(d, "definition", ["name", "description", "input_schema"],
                      {"name", "description", "input_schema", "cache_control", "type"}, p):
            check_name(d.get("name"), "name", r"[A-Za-z0-9_-]{1,64}", p)
            if d.get("name") != want_name:
                p.append(f"name is {d.get('name')!r}, expected {want_name!r}")
            if not is_text(d.get("description")):
                p.append("description is empty")
            check_schema(d.get("input_schema"), "input_schema", shape, False, p)
    elif flavor == "mcp":
        if check_keys(d, "definition", ["name", "title", "description", "inputSchema", "annotations"],
                      {"name", "title", "description", "inputSchema", "outputSchema",
                       "annotations", "icons", "_meta"}, p):
            check_name(d.get("name"), "name", r"[A-Za-z0-9_.-]{1,128}", p)
            if d.get("name") != want_name:
                p.append(f"name is {d.get('name')!r}, expected {want_name!r}")
            for k in ("title", "description"):
                if not is_text(d.get(k)):
                    p.append(f"{k} is empty")
            check_schema(d.get("inputSchema"), "inputSchema", shape, False, p)
            a = d.get("annotations")
            if check_keys(a, "annotations", ["destructiveHint"], MCP_ANNOTATIONS, p):
                for k, v in a.items():
                    if k != "title" and not isinstance(v, bool):
                        p.append(f"annotations.{k} is not a boolean")
                if a.get("readOnlyHint") is not False:
                    p.append("annotations.readOnlyHint must be false: the tool writes files")
                if a.get("destructiveHint") is not True:
                    p.append("annotations.destructiveHint must be true: it deletes and overwrites")
    return p


def arguments_schema(flavor, d):
    if not isinstance(d, dict):
        return None
    if flavor == "openai-chat":
        return (d.get("function") or {}).get("parameters")
    return {"openai-responses": d.get("parameters"), "anthropic": d.get("input_schema"),
            "mcp": d.get("inputSchema")}.get(flavor)


def check_tool_definitions(report, tools_dir):
    loaded = {}
    for flavor in FLAVORS:
        for shape in SHAPES:
            name = f"{flavor}-{shape}.json"
            path = os.path.join(tools_dir, name)
            if not report.check(os.path.exists(path), f"tools/{name} exists"):
                continue
            value, err = load_json(path)
            if not report.check(err is None, f"tools/{name} is valid JSON", err):
                continue
            loaded[(flavor, shape)] = value
            report.problems(f"tools/{name} has the {flavor} tool structure",
                            check_definition(flavor, shape, value, tools_dir))
    known = {f"{f}-{s}.json" for f in FLAVORS for s in SHAPES}
    extra = sorted(n for n in os.listdir(tools_dir) if n.endswith(".json") and n not in known)
    report.check(not extra, "tools/ holds no unknown JSON files", ", ".join(extra))

    for shape in SHAPES:
        schemas = {f: arguments_schema(f, loaded.get((f, shape)))
                   for f in SCHEMA_FLAVORS if (f, shape) in loaded}
        distinct = {json.dumps(s, sort_keys=True) for s in schemas.values()}
        report.check(len(distinct) <= 1,
                     f"the {shape}-shape argument schemas are the same on every platform",
                     "they differ between " + ", ".join(schemas))
    return loaded


def check_generated(report, tools_dir):
    """tools/generate.py would write exactly the JSON files that are there."""
    gen = os.path.join(tools_dir, "generate.py")
    if not os.path.exists(gen):
        report.info("tools/generate.py not found: skipped the up-to-date check")
        return
    spec = importlib.util.spec_from_file_location("v4a_tools_generate", gen)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
        built = module.build()
    except Exception as e:  # a broken generator is a failed check, not a crash
        report.check(False, "tools/generate.py runs", f"{type(e).__name__}: {e}")
        return
    stale = sorted(n for n, text in built.items()
                   if read_text(os.path.join(tools_dir, n)) != text)
    report.check(not stale, "tools/*.json are what tools/generate.py writes",
                 "out of date: " + ", ".join(stale) + " (run python3 tools/generate.py)")


def check_rust_module(report, tools_dir):
    """src/tools/mod.rs embeds every shipped file, and only files that exist."""
    mod = os.path.join(ROOT, "src", "tools", "mod.rs")
    if not os.path.exists(mod):
        report.info("src/tools/mod.rs not found: skipped the embedding check")
        return
    text = read_text(mod) or ""
    # Each file is embedded once, through the module's tools_file!("NAME") macro.
    included = set(re.findall(r'tools_file!\(\s*"([^"]+)"\s*\)', text))
    shipped = {n for n in os.listdir(tools_dir)
               if n.endswith((".json", ".lark")) or n == "instructions.md"}
    missing = sorted(included - shipped)
    unembedded = sorted(shipped - included)
    report.check(not missing, "src/tools/mod.rs embeds only files that exist", ", ".join(missing))
    report.check(not unembedded, "src/tools/mod.rs embeds every tool file", ", ".join(unembedded))


# ---------------------------------------------------------------------------------------------
# 2. grammars


LLGUIDANCE_LINT = [
    (r"\(\?<?[=!]", "a lookaround"),
    (r"[*+?}]\?", "a lazy quantifier"),
    (r"^\s*[A-Z_][A-Z0-9_]*\.-?\d+\s*:", "a terminal priority"),
    (r"^\s*%import\s+(?!common\.)", "an import other than %import common"),
    (r"^\s*%(declare|override|extend)\b", "a %declare/%override/%extend directive"),
    (r"^\s*[a-z_][a-z0-9_]*\{[^}]*\}\s*:", "a template rule"),
]


def lint_llguidance(text):
    """Features LLGuidance (OpenAI custom tools) does not support; comments are ignored."""
    found = []
    for line in text.splitlines():
        code = line.split("//", 1)[0] if not line.lstrip().startswith("//") else ""
        for pattern, what in LLGUIDANCE_LINT:
            if re.search(pattern, code):
                found.append(f"{what} in {line.strip()!r}")
    return found


def hunks_grammar(file_grammar):
    """file-diff.lark with `hunk_list` as its start: the grammar of a bare diff."""
    text, n = re.subn(r"(?m)^start: operation$", "start: hunk_list", file_grammar)
    if n != 1:
        raise ValueError("file-diff.lark has no line 'start: operation'")
    return text


def load_grammars(report, lark, tools_dir):
    grammars = {}
    texts = {}
    llg = import_llguidance()
    if llg is None:
        report.info("llguidance is not installed: verdicts come from lark only "
                    "(pip install llguidance to check them with OpenAI's grammar engine too)")
    for shape, name in GRAMMARS.items():
        path = os.path.join(tools_dir, name)
        if not report.check(os.path.exists(path), f"tools/{name} exists"):
            continue
        text = read_text(path)
        texts[shape] = text
        engines = "lark (LALR and Earley)" + (" and LLGuidance" if llg else "")
        try:
            grammars[shape] = Grammar(lark, text, llg)
            report.check(True, f"tools/{name} loads with {engines}")
        except Exception as e:
            report.check(False, f"tools/{name} loads with {engines}",
                         f"{type(e).__name__}: {str(e).strip().splitlines()[0]}")
        report.problems(f"tools/{name} uses only LLGuidance-supported Lark", lint_llguidance(text))
    if "file" in grammars:
        # The hunk rules alone: what a bare single-file diff (the file shape's "diff" for
        # mode update) must follow. Used by the checks, not shipped.
        try:
            grammars["hunks"] = Grammar(lark, hunks_grammar(texts["file"]), llg)
        except Exception as e:
            report.check(False, "the hunk rules load as a grammar of their own",
                         f"{type(e).__name__}: {str(e).strip().splitlines()[0]}")
    if len(texts) == 2:
        tails = [t[t.find(SHARED_MARKER):] if SHARED_MARKER in t else None
                 for t in texts.values()]
        report.check(tails[0] is not None and tails[0] == tails[1],
                     "v4a.lark and file-diff.lark share their rules byte for byte",
                     f"the parts from {SHARED_MARKER!r} on differ")
    return grammars


# ---------------------------------------------------------------------------------------------
# 3. acceptance


def expect(report, grammar, text, want, name):
    """One acceptance check; returns the parse tree when accepted."""
    got, detail, tree = grammar.verdict(text)
    if got is None:
        report.check(False, name, detail)
    elif want:
        report.check(got, name, f"rejected: {detail}")
    else:
        report.check(not got, name, "accepted, but v4a's strict parser rejects it")
    return tree


def derived_checks(report, grammars, text, tree, label, variants=True):
    """Checks derived from a patch that the grammar accepts: with CRLF line breaks or without
    its last line it is rejected (variants); a one-file patch without its envelope is a valid
    per-file section, and without its Update header too, a valid bare diff."""
    g = grammars.get("input")
    if variants and "\n" in text:
        expect(report, g, text.replace("\n", "\r\n"), False, f"{label} with CRLF is rejected")
    lines = text.rstrip("\n").split("\n")
    if variants and lines and lines[-1] == "*** End Patch":
        cut = "".join(line + "\n" for line in lines[:-1])
        expect(report, g, cut, False, f"{label} without *** End Patch is rejected")
    if tree is None or operation_count(tree) != 1:
        return
    section = strip_envelope(text)
    if "file" in grammars:
        expect(report, grammars["file"], section, True,
               f"{label} without its envelope is a valid per-file section")
    op = next(c for c in tree.children if hasattr(c, "data"))
    plain_update = op.data == "update_file" and all(hasattr(c, "data") for c in op.children[1:])
    if plain_update and "hunks" in grammars:
        expect(report, grammars["hunks"], section.split("\n", 1)[1], True,
               f"{label} without envelope and header is a valid bare diff")


def check_samples(report, grammars, samples_dir):
    if not os.path.isdir(samples_dir):
        report.check(False, "samples folder exists", samples_dir)
        return
    names = sorted(os.listdir(samples_dir))
    for name in names:
        path = os.path.join(samples_dir, name)
        m = re.fullmatch(r"(file-)?(valid|invalid)-.+\.(patch|diff)", name)
        if not m:
            continue
        shape = "file" if m.group(1) else "input"
        if shape not in grammars:
            continue
        want = m.group(2) == "valid"
        text = read_text(path)
        kind = "per-file section" if shape == "file" else "patch"
        verb = "parses" if want else "is rejected"
        tree = expect(report, grammars[shape], text, want, f"sample {name}: {kind} {verb}")
        if shape == "input" and want and tree is not None:
            derived_checks(report, grammars, text, tree, f"sample {name}")
    report.check(any(n.startswith("valid-") for n in names)
                 and any(n.startswith("invalid-") for n in names),
                 "samples hold valid-*.patch and invalid-*.patch files")


def fenced_blocks(markdown):
    return re.findall(r"^```[^\n]*\n(.*?)^```", markdown, flags=re.S | re.M)


def as_patch(fragment):
    """A patch built around an example: whole patches as they are, file sections and hunks
    wrapped in the envelope (and a file header). None for blocks that are not patch text."""
    text = fragment if fragment.endswith("\n") else fragment + "\n"
    first = text.split("\n", 1)[0]
    if first == "*** Begin Patch":
        return text
    if re.match(r"\*\*\* (Add|Delete|Update) File: ", first):
        return "*** Begin Patch\n" + text + "*** End Patch\n"
    if first.startswith("@@") or first[:1] in (" ", "-", "+"):
        return "*** Begin Patch\n*** Update File: example.txt\n" + text + "*** End Patch\n"
    return None


def check_examples(report, grammars, tools_dir, loaded):
    g = grammars.get("input")
    if g is None:
        return
    path = os.path.join(tools_dir, "instructions.md")
    if not report.check(os.path.exists(path), "tools/instructions.md exists"):
        return
    text = read_text(path) or ""
    missing = [s for s in MODEL_FACING_STATUSES if s not in text]
    report.check(not missing, "instructions.md explains every status a model can cause",
                 "missing: " + ", ".join(missing))
    count = 0
    for i, block in enumerate(fenced_blocks(text), 1):
        patch = as_patch(block)
        if patch is None:
            continue
        count += 1
        expect(report, g, patch, True, f"instructions.md example {i} parses")
    report.check(count >= 3, "instructions.md shows at least 3 patch examples", f"found {count}")
    for (flavor, shape), d in sorted(loaded.items()):
        desc = d.get("description") or (d.get("function") or {}).get("description") or ""
        for m in re.finditer(r"^\*\*\* Begin Patch\n.*?^\*\*\* End Patch$", desc, re.S | re.M):
            expect(report, g, m.group(0) + "\n", True,
                   f"the patch example in {flavor}-{shape}.json parses")


def read_list(path):
    with open(path, encoding="utf-8") as f:
        return [line.strip() for line in f if line.strip() and not line.lstrip().startswith("#")]


def discover_cases(vectors_dir):
    """{relative case path: folder} for every folder holding a `patch` file."""
    cases = {}
    for dirpath, dirnames, filenames in os.walk(vectors_dir):
        if "patch" in filenames and os.path.isfile(os.path.join(dirpath, "patch")):
            rel = os.path.relpath(dirpath, vectors_dir).replace(os.sep, "/")
            cases[rel] = dirpath
            dirnames[:] = []  # a case's before/ and after/ may hold a file named "patch"
        else:
            dirnames.sort()
    return cases


def find_case(cases, name):
    if name in cases:
        return cases[name]
    hits = [d for rel, d in cases.items() if rel.rsplit("/", 1)[-1] == name]
    return hits[0] if len(hits) == 1 else None


def error_status(case_dir):
    """The status of a failing vector (the first line of its `outcome` file, `status: NAME`),
    None for a success or a folder without an outcome."""
    path = os.path.join(case_dir, "outcome")
    if not os.path.isfile(path):
        return None
    text = read_text(path) or ""
    first = text.splitlines()[0].strip() if text.strip() else ""
    status = first[len("status:"):].strip() if first.startswith("status:") else first
    return None if status == "OK" else status


def vector_view(grammars, case, text):
    """Which grammar describes a vector's patch on its own terms: (grammar, text, what), or
    None when none does.

    Multi-file cases and enveloped patches: the patch grammar. Cases of the one-file API (a
    `mode` file beside the patch) without an envelope: a diff starting with a file header goes
    to the per-file grammar, anything else is a bare diff for the hunk rules; both get a final
    newline added when it is missing (v4a does not need it). An empty diff (mode delete) has
    nothing to parse."""
    single = os.path.isfile(os.path.join(case, "mode"))
    if not single or text is None or text.startswith("*** Begin Patch"):
        return grammars.get("input"), text, "patch"
    if text == "":
        return None
    if not text.endswith("\n"):
        text += "\n"
    if text.startswith("*** "):
        return grammars.get("file"), text, "one-file section"
    return grammars.get("hunks"), text, "bare diff"


def check_listed_vectors(report, grammars, cases, vectors_dir, accepted_file, rejected_file):
    """The strict parser's verdicts: v4a.lark must accept exactly the accepted cases and
    reject the rejected ones (bare diffs are not patches: strict rejects them, so does the
    grammar)."""
    g = grammars["input"]
    for list_file, want in [(accepted_file, True), (rejected_file, False)]:
        if not list_file:
            continue
        if not report.check(os.path.isfile(list_file), f"list {list_file} exists"):
            continue
        for name in read_list(list_file):
            case = find_case(cases, name)
            if not report.check(case is not None, f"vector {name}: case folder found",
                                f"no case folder in {vectors_dir}"):
                continue
            text = read_text(os.path.join(case, "patch"))
            verb = "accepts" if want else "rejects"
            tree = expect(report, g, text, want, f"vector {name}: the grammar {verb} it as v4a strict does")
            if want and tree is not None:
                derived_checks(report, grammars, text, tree, f"vector {name}", variants=False)


def check_vectors(report, grammars, vectors_dir, accepted_file, rejected_file):
    if "input" not in grammars:
        return
    cases = discover_cases(vectors_dir) if os.path.isdir(vectors_dir) else {}
    listed = bool(accepted_file or rejected_file)
    if listed:
        check_listed_vectors(report, grammars, cases, vectors_dir, accepted_file, rejected_file)
    elif not cases:
        report.info(f"no test vectors in {vectors_dir}: skipped (pass --vectors DIR)")
        return
    # Every vector on its own terms: a syntax error is rejected by the grammar of its kind of
    # input (the strict form is a subset of what v4a accepts). With the lists, enveloped
    # patches are covered by them already.
    applying = {}
    for rel, case in sorted(cases.items()):
        status = error_status(case)
        if status is not None and status not in STATUS_NAMES:
            report.check(False, f"vector {rel}: outcome file names a status",
                         f"first line is {status!r}")
            continue
        view = vector_view(grammars, case, read_text(os.path.join(case, "patch")))
        if view is None or view[0] is None or (listed and view[2] == "patch"):
            continue
        g, text, what = view
        if status in SYNTAX_STATUSES:
            expect(report, g, text, False, f"vector {rel} ({status}): the {what} is rejected")
        elif status is None and os.path.isdir(os.path.join(case, "after")):
            got, detail, _ = g.verdict(text)
            if got is None:
                report.check(False, f"vector {rel}: the parsers agree on the {what}", detail)
                continue
            total, accepted = applying.get(what, (0, 0))
            applying[what] = (total + 1, accepted + bool(got))
    for what, (total, accepted) in sorted(applying.items()):
        report.info(f"{total} vectors apply a {what}; the strict grammar accepts {accepted} "
                    "(the others use v4a's lenient syntax)")
    if not listed:
        report.info("pass --accepted/--rejected lists from v4a's strict parser to check every "
                    "vector both ways")


# ---------------------------------------------------------------------------------------------


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tools", default=os.path.join(ROOT, "tools"), help="the tools folder")
    ap.add_argument("--samples", default=os.path.join(HERE, "samples"),
                    help="sample patches: valid-*.patch, invalid-*.patch, file-(in)valid-*.diff")
    ap.add_argument("--vectors", default=os.path.join(ROOT, "tests", "vectors"),
                    help="test vector folder (default tests/vectors)")
    ap.add_argument("--accepted", help="file of vector case names v4a's strict parser accepts")
    ap.add_argument("--rejected", help="file of vector case names v4a's strict parser rejects "
                                       "(PATCH_SYNTAX, TRUNCATED_PATCH)")
    ap.add_argument("-q", "--quiet", action="store_true", help="print failures only")
    args = ap.parse_args(argv)

    report = Report(args.quiet)
    loaded = check_tool_definitions(report, args.tools)
    check_generated(report, args.tools)
    check_rust_module(report, args.tools)

    lark = import_lark()
    if report.check(lark is not None, "the lark package is available",
                    "not installed: run `pip install lark` (scripts/test-all.sh provisions it)"):
        grammars = load_grammars(report, lark, args.tools)
        check_samples(report, grammars, args.samples)
        check_examples(report, grammars, args.tools, loaded)
        check_vectors(report, grammars, args.vectors, args.accepted, args.rejected)

    print(f"{report.passed} passed, {report.failed} failed")
    return 1 if report.failed else 0


if __name__ == "__main__":
    sys.exit(main())
