"""`v4a mcp` driven by a real client: the official MCP Python SDK (the `mcp` package).

Usage: python client.py PATH/TO/v4a   (run.sh installs the SDK in a venv and calls this)

Each check starts a server over stdio on a fresh temporary root, as an editor would, and
talks to it only through the SDK's ClientSession. With V4A_MCP_TRANSCRIPT=1 the results of one
apply and one ambiguity are printed as the client saw them. The last line is
"N passed, N failed" (", N skipped" when the Inspector is absent).
"""

import asyncio
import json
import os
import subprocess
import sys
import tempfile
import traceback
from contextlib import asynccontextmanager
from pathlib import Path

import mcp
from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client
from mcp_types.version import LATEST_HANDSHAKE_VERSION

V4A = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else "v4a"
TRANSCRIPT = os.environ.get("V4A_MCP_TRANSCRIPT") == "1"
CHECKS = []


def check(fn):
    CHECKS.append(fn)
    return fn


@asynccontextmanager
async def server(root, *extra):
    params = StdioServerParameters(command=V4A, args=["mcp", "--root", str(root), *extra])
    with open(os.devnull, "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write) as session:
                init = await session.initialize()
                yield session, init


def patch(*lines):
    return "\n".join(["*** Begin Patch", *lines, "*** End Patch"]) + "\n"


def text_of(result):
    assert len(result.content) == 1, result.content
    assert result.content[0].type == "text"
    return result.content[0].text


def show(title, result):
    if TRANSCRIPT:
        dump = result.model_dump(by_alias=True, exclude_none=True)
        sc = dump.get("structuredContent") or {}
        for f in sc.get("files", []):
            f["diff"] = f"[{len(f['diff'])} structured diff lines]"
        print(f"--- {title} ---\n{json.dumps(dump, indent=2)}")


def expect(cond, what):
    if not cond:
        raise AssertionError(what)


@check
async def initialise_and_list_the_tools(root):
    async with server(root) as (s, init):
        # The client asks for its newest handshake version; the server agrees to it.
        expect(init.protocol_version == LATEST_HANDSHAKE_VERSION, init.protocol_version)
        print(f"negotiated protocol version: {init.protocol_version} "
              f"(server {init.server_info.name} {init.server_info.version})")
        instructions = subprocess.run([V4A, "instructions"], capture_output=True, text=True,
                                      check=True).stdout
        expect(init.instructions.rstrip("\n") == instructions.rstrip("\n"),
               "the instructions are the kit's")
        expect(init.capabilities.tools is not None, "tools capability")
        listed = (await s.list_tools()).tools
        names = sorted(t.name for t in listed)
        expect(names == ["apply_patch", "preview_patch", "read_file"], names)
        for t in listed:
            again = types.Tool.model_validate(t.model_dump(by_alias=True, exclude_none=True))
            expect(again == t, f"{t.name} round-trips as the SDK's Tool")
            expect(t.output_schema and t.output_schema["type"] == "object", t.name)
        kit = json.loads(subprocess.run([V4A, "schema", "mcp"], capture_output=True, text=True,
                                        check=True).stdout)
        apply = next(t for t in listed if t.name == "apply_patch")
        expect(apply.input_schema == kit["inputSchema"], "one source for the input schema")
        expect(apply.description == kit["description"], "one source for the description")
        preview = next(t for t in listed if t.name == "preview_patch")
        expect(preview.annotations.read_only_hint is True, "the preview is read-only")


@check
async def the_stateless_lifecycle_of_2026_07_28(root):
    """The newest revision has no initialize: the client discovers, then every request
    carries its own version."""
    (root / "a.txt").write_text("a\n")
    params = StdioServerParameters(command=V4A, args=["mcp", "--root", str(root)])
    with open(os.devnull, "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write) as s:
                found = await s.discover()
                print(f"discover: protocol version {s.protocol_version}, "
                      f"server supports {found.supported_versions}")
                expect(s.protocol_version == "2026-07-28", s.protocol_version)
                names = sorted(t.name for t in (await s.list_tools()).tools)
                expect(names == ["apply_patch", "preview_patch", "read_file"], names)
                r = await s.call_tool("apply_patch", {"input": patch(
                    "*** Update File: a.txt", "@@", "-a", "+b")})
                expect(not r.is_error and r.structured_content["written"], text_of(r))
    expect((root / "a.txt").read_text() == "b\n", "applied")


@check
async def apply_a_multi_file_patch(root):
    (root / "src").mkdir()
    (root / "src/app.py").write_text("class App:\n    def run(self):\n        x = 1\n"
                                     "        y = 2\n        return x + y\n")
    (root / "old.txt").write_text("bye\n")
    (root / "name.txt").write_text("keep\n")
    p = patch("*** Update File: src/app.py", "@@ def run(self):", "         x = 1",
              "-        y = 2", "+        y = 3", "         return x + y",
              "*** Add File: docs/notes.md", "+# Notes",
              "*** Delete File: old.txt",
              "*** Update File: name.txt", "*** Move to: moved/name.txt")
    async with server(root) as (s, _):
        r = await s.call_tool("apply_patch", {"input": p})
        show("apply (multi-file)", r)
        expect(not r.is_error, text_of(r))
        expect(text_of(r) == "Success. Updated the following files:\nM src/app.py\n"
               "A docs/notes.md\nD old.txt\nM moved/name.txt\n", text_of(r))
        sc = r.structured_content
        expect(sc["ok"] and sc["written"] and not sc["dry_run"], sc)
        expect([f["operation"] for f in sc["files"]] == ["update", "add", "delete", "update"], sc)
        expect(sc["files"][0]["hunks"][0]["old_start"] == 3, sc["files"][0]["hunks"])
    expect("        y = 3\n" in (root / "src/app.py").read_text(), "edited")
    expect((root / "docs/notes.md").read_text() == "# Notes\n", "added")
    expect(not (root / "old.txt").exists(), "deleted")
    expect((root / "moved/name.txt").read_text() == "keep\n" and not (root / "name.txt").exists(),
           "moved")


@check
async def an_ambiguous_hunk_names_its_candidates_and_writes_nothing(root):
    text = "def a():\n    return 0\n\ndef b():\n    return 0\n"
    (root / "dup.py").write_text(text)
    p = patch("*** Update File: dup.py", "@@", "-    return 0", "+    return 1")
    async with server(root) as (s, _):
        r = await s.call_tool("apply_patch", {"input": p})
        show("ambiguity", r)
        expect(r.is_error, "an ambiguity is a tool error")
        msg = text_of(r)
        err = r.structured_content["error"]
        expect(err["status"] == "AMBIGUOUS", err)
        expect(err["candidates"] == [2, 5], err)
        expect(msg == err["message"], "the text is the engine's message")
        expect("lines 2 and 5" in msg and "@@ def" in msg, msg)
    expect((root / "dup.py").read_text() == text, "nothing written")


@check
async def paths_outside_the_root_are_refused(root):
    inside = root / "in"
    inside.mkdir()
    (root / "secret.txt").write_text("secret\n")
    os.symlink(root / "secret.txt", inside / "link.txt")
    (inside / "ok.txt").write_text("ok\n")
    async with server(inside) as (s, _):
        for path in ["../escape.txt", "/tmp/v4a-mcp-escape.txt", "link.txt", "a/../../x.txt"]:
            op = "*** Update File: " if path == "link.txt" else "*** Add File: "
            body = ["@@", "-secret", "+pwned"] if path == "link.txt" else ["+pwned"]
            r = await s.call_tool("apply_patch", {"input": patch(
                "*** Update File: ok.txt", "@@", "-ok", "+changed", op + path, *body)})
            expect(r.is_error, path)
            expect(r.structured_content["error"]["status"] == "UNSAFE_PATH", r.structured_content)
            expect(path in text_of(r), text_of(r))
        r = await s.call_tool("read_file", {"path": "../secret.txt"})
        expect(r.is_error and "secret" not in text_of(r).split(":", 1)[-1].replace(
            "../secret.txt", ""), text_of(r))
        r = await s.call_tool("read_file", {"path": "link.txt"})
        expect(r.is_error and "outside" in text_of(r), text_of(r))
    expect((root / "secret.txt").read_text() == "secret\n", "the link's target is untouched")
    expect((inside / "ok.txt").read_text() == "ok\n", "the patch's other file is untouched")
    expect(not (root / "escape.txt").exists() and not Path("/tmp/v4a-mcp-escape.txt").exists(),
           "nothing created outside")


@check
async def a_preview_shows_the_diff_and_writes_nothing(root):
    (root / "a.txt").write_text("one\ntwo\nthree\n")
    p = patch("*** Update File: a.txt", "@@", " one", "-two", "+2", " three",
              "*** Add File: new.txt", "+new")
    async with server(root) as (s, _):
        r = await s.call_tool("preview_patch", {"input": p})
        expect(not r.is_error, text_of(r))
        t = text_of(r)
        expect("--- a/a.txt" in t and "+++ b/a.txt" in t and "-two\n+2\n" in t, t)
        expect("Dry run: nothing was written" in t and "\x1b[" not in t, t)
        sc = r.structured_content
        expect(sc["dry_run"] and not sc["written"], sc)
        expect("-two" in sc["files"][0]["unified_diff"], sc)
        bad = await s.call_tool("preview_patch", {"input": patch(
            "*** Update File: a.txt", "@@", "-four", "+4")})
        expect(bad.is_error and bad.structured_content["error"]["status"] == "CONTEXT_NOT_FOUND",
               text_of(bad))
    expect((root / "a.txt").read_text() == "one\ntwo\nthree\n", "unchanged")
    expect(not (root / "new.txt").exists(), "not created")


@check
async def read_then_apply(root):
    body = "[server]\nport = 80\nhost = \"a\"\n"
    (root / "conf.ini").write_bytes(body.encode())
    async with server(root) as (s, _):
        r = await s.call_tool("read_file", {"path": "conf.ini"})
        expect(not r.is_error and text_of(r) == body, text_of(r))
        expect(r.structured_content == {"path": "conf.ini", "bytes": len(body), "lines": 3,
                                        "text": body}, r.structured_content)
        lines = text_of(r).splitlines()
        r = await s.call_tool("apply_patch", {"input": patch(
            "*** Update File: conf.ini", "@@ " + lines[0], "-" + lines[1], "+port = 8080")})
        expect(not r.is_error and "Note:" not in text_of(r), text_of(r))
        expect((root / "conf.ini").read_text() == body.replace("80", "8080"), "applied")
        # Someone else edits the file after the model read it: the apply is located in what the
        # model saw, merged into the file as it is now, and says so.
        r = await s.call_tool("read_file", {"path": "conf.ini"})
        (root / "conf.ini").write_text("; edited by hand\n" + (root / "conf.ini").read_text())
        r = await s.call_tool("apply_patch", {"input": patch(
            "*** Update File: conf.ini", "@@", "-host = \"a\"", "+host = \"b\"")})
        expect(not r.is_error and "conf.ini had changed since read_file showed it" in text_of(r),
               text_of(r))
        # The record follows the server's own applies: the next patch is not flagged.
        r = await s.call_tool("apply_patch", {"input": patch(
            "*** Update File: conf.ini", "@@", "-; edited by hand", "+; edited")})
        expect(not r.is_error and "Note:" not in text_of(r), text_of(r))
        for bad, why in [({"path": "nope.txt"}, "does not exist"), ({"path": "."}, "directory"),
                         ({"file": "conf.ini"}, "unknown argument")]:
            r = await s.call_tool("read_file", bad)
            expect(r.is_error and why in text_of(r), text_of(r))
    expect((root / "conf.ini").read_text() == "; edited\n[server]\nport = 8080\nhost = \"b\"\n",
           "both edits kept")


@check
async def read_file_is_the_base_of_a_later_apply(root):
    (root / "job.py").write_text("def run():\n    retries = 1\n")
    async with server(root) as (s, _):
        r = await s.call_tool("read_file", {"path": "job.py"})
        expect(not r.is_error, text_of(r))
        # Since the read, someone duplicated the function: the hunk's line now occurs twice,
        # and only the base says which one the model meant.
        (root / "job.py").write_text("def run_old():\n    retries = 1\n\ndef run():\n    retries = 1\n")
        r = await s.call_tool("apply_patch", {"input": patch(
            "*** Update File: job.py", "@@ def run():", "-    retries = 1", "+    retries = 3")})
        expect(not r.is_error and "merged into its current text" in text_of(r), text_of(r))
        expect((root / "job.py").read_text()
               == "def run_old():\n    retries = 1\n\ndef run():\n    retries = 3\n", "merged")
        # Now the file changes the very line the next patch changes: CONFLICT, nothing written.
        r = await s.call_tool("read_file", {"path": "job.py"})
        (root / "job.py").write_text("def run_old():\n    retries = 1\n\ndef run():\n    retries = 5\n")
        r = await s.call_tool("apply_patch", {"input": patch(
            "*** Update File: job.py", "@@ def run():", "-    retries = 3", "+    retries = 4")})
        expect(r.is_error and "conflicts with a change made to job.py" in text_of(r)
               and r.structured_content["error"]["status"] == "CONFLICT", text_of(r))
        expect((root / "job.py").read_text().endswith("retries = 5\n"), "nothing written")


@check
async def read_only_serves_reading_and_previews(root):
    (root / "a.txt").write_text("a\n")
    async with server(root, "--read-only") as (s, _):
        names = sorted(t.name for t in (await s.list_tools()).tools)
        expect(names == ["preview_patch", "read_file"], names)
        p = patch("*** Update File: a.txt", "@@", "-a", "+b")
        r = await s.call_tool("apply_patch", {"input": p})
        expect(r.is_error and "read-only" in text_of(r), text_of(r))
        r = await s.call_tool("preview_patch", {"input": p})
        expect(not r.is_error and not r.structured_content["written"], text_of(r))
    expect((root / "a.txt").read_text() == "a\n", "unchanged")


@check
async def the_one_file_tool(root):
    (root / "a.py").write_text("def total(items):\n    subtotal = sum(items)\n"
                               "    return subtotal\n")
    async with server(root, "--one-file-tool") as (s, _):
        listed = {t.name: t for t in (await s.list_tools()).tools}
        expect(sorted(listed) == ["patch_file", "preview_patch", "read_file"], sorted(listed))
        kit = json.loads(subprocess.run([V4A, "schema", "mcp", "--shape", "file"],
                                        capture_output=True, text=True, check=True).stdout)
        expect(listed["patch_file"].input_schema == kit["inputSchema"], "the kit's file shape")
        expect(listed["preview_patch"].input_schema == kit["inputSchema"], "preview: same input")
        diff = ("@@ def total(items):\n     subtotal = sum(items)\n-    return subtotal\n"
                "+    return round(subtotal, 2)\n")
        r = await s.call_tool("preview_patch", {"path": "a.py", "mode": "update", "diff": diff})
        expect(not r.is_error and "+    return round(subtotal, 2)" in text_of(r), text_of(r))
        r = await s.call_tool("patch_file", {"path": "a.py", "mode": "update", "diff": diff})
        expect(not r.is_error, text_of(r))
        r = await s.call_tool("patch_file", {"path": "b.md", "mode": "create", "diff": "+# B\n"})
        expect(not r.is_error, text_of(r))
        r = await s.call_tool("patch_file", {"path": "b.md", "mode": "delete", "diff": ""})
        expect(not r.is_error, text_of(r))
        r = await s.call_tool("patch_file", {"path": "a.py", "mode": "rename", "diff": ""})
        expect(r.is_error and r.structured_content["error"]["status"] == "UNSUPPORTED_MODE",
               text_of(r))
        r = await s.call_tool("patch_file", {"path": "../x", "mode": "create", "diff": "+x\n"})
        expect(r.is_error and r.structured_content["error"]["status"] == "UNSAFE_PATH",
               text_of(r))
    expect("return round(subtotal, 2)" in (root / "a.py").read_text(), "updated")
    expect(not (root / "b.md").exists() and not (root.parent / "x").exists(), "deleted, refused")


@check
async def concurrent_applies_keep_every_edit(root):
    n = 12
    (root / "many.txt").write_text("".join(f"# {i}\nv{i} = 0\n" for i in range(n)))
    async with server(root) as (s, _):
        calls = [s.call_tool("apply_patch", {"input": patch(
            "*** Update File: many.txt", f"@@ # {i}", f"-v{i} = 0", f"+v{i} = 1")})
            for i in range(n)]
        calls += [s.call_tool("read_file", {"path": "many.txt"}) for _ in range(4)]
        results = await asyncio.gather(*calls)
        expect(not any(r.is_error for r in results), [text_of(r) for r in results if r.is_error])
    expect((root / "many.txt").read_text() == "".join(f"# {i}\nv{i} = 1\n" for i in range(n)),
           "no edit lost")


@check
async def a_request_over_the_size_limit_is_a_protocol_error(root):
    (root / "a.txt").write_text("a\n")
    async with server(root, "--max-request-bytes", "65536") as (s, _):
        big = patch("*** Add File: big.txt", *(["+" + "x" * 99] * 2000))
        try:
            await s.call_tool("apply_patch", {"input": big})
            raise AssertionError("an oversized request was accepted")
        except mcp.MCPError as e:
            expect(e.code == -32600 and "request too large" in e.message, (e.code, e.message))
        # The session goes on.
        r = await s.call_tool("read_file", {"path": "a.txt"})
        expect(text_of(r) == "a\n", text_of(r))
    expect(not (root / "big.txt").exists(), "nothing written")


INSPECTOR = os.environ.get("V4A_MCP_INSPECTOR", "")


@check
async def the_inspectors_command_line_lists_and_calls_the_tools(root):
    """The MCP Inspector (`@modelcontextprotocol/inspector --cli`), when run.sh found npm."""
    if not INSPECTOR:
        return "skipped: no MCP Inspector (V4A_MCP_INSPECTOR unset)"
    (root / "a.txt").write_text("hello\n")

    def inspect(*args):
        out = subprocess.run([INSPECTOR, "--cli", V4A, "mcp", "--root", str(root), *args],
                             capture_output=True, text=True, timeout=60)
        expect(out.returncode == 0, out.stderr)
        return json.loads(out.stdout)

    listed = await asyncio.to_thread(inspect, "--method", "tools/list")
    names = sorted(t["name"] for t in listed["tools"])
    expect(names == ["apply_patch", "preview_patch", "read_file"], names)
    for t in listed["tools"]:
        types.Tool.model_validate(t)
    called = await asyncio.to_thread(inspect, "--method", "tools/call", "--tool-name",
                                     "read_file", "--tool-arg", "path=a.txt")
    expect(called["content"][0]["text"] == "hello\n" and called["isError"] is False, called)


async def main():
    passed = failed = skipped = 0
    for fn in CHECKS:
        with tempfile.TemporaryDirectory(prefix="v4a-mcp-") as d:
            root = Path(d) / "root"
            root.mkdir()
            try:
                note = await asyncio.wait_for(fn(root), timeout=120)
                if note:
                    skipped += 1
                    print(f"skip {fn.__name__} ({note})")
                else:
                    passed += 1
                    print(f"ok   {fn.__name__}")
            except BaseException:  # noqa: BLE001 - report every failure and go on
                failed += 1
                print(f"FAIL {fn.__name__}\n{traceback.format_exc()}")
    print(f"{passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
