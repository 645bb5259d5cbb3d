//! `v4a mcp` over stdio with raw JSON-RPC lines, as a client would write them (the real-client
//! test with the MCP Python SDK is `tests/mcp/run.sh`; this one needs nothing installed).
//! Every wait for an answer has a deadline, so a server that hangs fails the test.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

use serde_json::{json, Value};

const DEADLINE: Duration = Duration::from_secs(30);

struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Session {
    fn start(root: &Path, extra: &[&str]) -> Session {
        Session::start_with(root, extra, &[])
    }

    fn start_with(root: &Path, extra: &[&str], env: &[(&str, &str)]) -> Session {
        let mut child = Command::new(env!("CARGO_BIN_EXE_v4a"))
            .envs(env.iter().copied())
            .arg("mcp")
            .arg("--root")
            .arg(root)
            .args(extra)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start v4a mcp");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Session {
            child,
            stdin,
            lines,
        }
    }

    /// A session past the handshake.
    fn ready(root: &Path, extra: &[&str]) -> Session {
        Session::ready_with(root, extra, &[])
    }

    fn ready_with(root: &Path, extra: &[&str], env: &[(&str, &str)]) -> Session {
        let mut s = Session::start_with(root, extra, env);
        let init = s.request(1, "initialize", initialize_params("2025-06-18"));
        assert_eq!(init["result"]["protocolVersion"], "2025-06-18", "{init}");
        s.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        s
    }

    fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to the server");
        stdin.flush().expect("flush");
    }

    fn send(&mut self, message: &Value) {
        let mut line = serde_json::to_vec(message).unwrap();
        line.push(b'\n');
        self.send_raw(&line);
    }

    /// The next message from the server.
    fn recv(&self) -> Value {
        let line = self
            .lines
            .recv_timeout(DEADLINE)
            .expect("the server answers in time");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON: {e}: {line}"))
    }

    /// The answer to request `id`, skipping notifications.
    fn answer(&self, id: &Value) -> Value {
        loop {
            let m = self.recv();
            if m.get("id") == Some(id) {
                return m;
            }
            assert!(
                m.get("method").is_some(),
                "an answer to another request: {m}"
            );
        }
    }

    fn request(&mut self, id: u64, method: &str, params: Value) -> Value {
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.answer(&json!(id))
    }

    /// The `result` of a `tools/call`.
    fn call(&mut self, id: u64, tool: &str, arguments: Value) -> Value {
        let a = self.request(
            id,
            "tools/call",
            json!({"name": tool, "arguments": arguments}),
        );
        a.get("result").cloned().unwrap_or_else(|| panic!("{a}"))
    }

    /// Closes stdin and waits for the server to exit.
    fn finish(mut self) -> std::process::ExitStatus {
        drop(self.stdin.take());
        for _ in 0..300 {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let _ = self.child.kill();
        panic!("the server did not exit after its input closed");
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn initialize_params(version: &str) -> Value {
    json!({
        "protocolVersion": version,
        "capabilities": {},
        "clientInfo": {"name": "raw-test", "version": "1"}
    })
}

fn patch(lines: &[&str]) -> String {
    let mut p = String::from("*** Begin Patch\n");
    for l in lines {
        p.push_str(l);
        p.push('\n');
    }
    p.push_str("*** End Patch\n");
    p
}

fn text(result: &Value) -> &str {
    result["content"][0]["text"].as_str().expect("text content")
}

#[test]
fn initialize_negotiates_the_version_and_lists_the_kits_tools() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = Session::start(dir.path(), &[]);
    let init = s.request(1, "initialize", initialize_params("2025-03-26"));
    let r = &init["result"];
    assert_eq!(r["protocolVersion"], "2025-03-26", "{init}");
    assert_eq!(r["serverInfo"]["name"], "v4a");
    assert_eq!(r["instructions"], v4a::tools::instructions());
    assert!(r["capabilities"]["tools"].is_object());
    s.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    let list = s.request(2, "tools/list", json!({}));
    let tools = list["result"]["tools"].as_array().expect("tools");
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["apply_patch", "preview_patch", "read_file"]);
    let kit: Value = serde_json::from_str(v4a::tools::tool_schema(
        v4a::tools::Flavor::Mcp,
        v4a::tools::Shape::Input,
    ))
    .unwrap();
    for key in ["description", "inputSchema", "annotations"] {
        assert_eq!(tools[0][key], kit[key], "{key}");
    }
    for t in tools {
        assert_eq!(t["outputSchema"]["type"], "object", "{t}");
    }
    assert!(s.finish().success());

    // A version the server does not know: it answers with the newest one it has.
    let mut s = Session::start(dir.path(), &[]);
    let init = s.request(1, "initialize", initialize_params("1999-01-01"));
    let v = init["result"]["protocolVersion"]
        .as_str()
        .expect("a version");
    assert!(
        v.as_bytes()[0].is_ascii_digit() && v != "1999-01-01",
        "{init}"
    );
}

#[test]
fn a_call_applies_or_is_a_tool_error_with_the_engines_message() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "one\ntwo\nthree\n").unwrap();
    let mut s = Session::ready(dir.path(), &[]);

    let ok = s.call(
        2,
        "apply_patch",
        json!({"input": patch(&["*** Update File: a.txt", "@@", " one", "-two", "+2", "*** Add File: b/c.txt", "+c"])}),
    );
    assert_eq!(ok["isError"], false, "{ok}");
    assert_eq!(
        text(&ok),
        "Success. Updated the following files:\nM a.txt\nA b/c.txt\n"
    );
    assert_eq!(ok["structuredContent"]["written"], true);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("a.txt")).unwrap(),
        "one\n2\nthree\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("b/c.txt")).unwrap(),
        "c\n"
    );

    // The second operation fails: the first is not written either.
    let bad = s.call(
        3,
        "apply_patch",
        json!({"input": patch(&["*** Update File: a.txt", "@@", "-one", "+1", "*** Update File: b/c.txt", "@@", "-missing", "+x"])}),
    );
    assert_eq!(bad["isError"], true, "{bad}");
    let error = &bad["structuredContent"]["error"];
    assert_eq!(error["status"], "CONTEXT_NOT_FOUND", "{bad}");
    assert_eq!(text(&bad), error["message"].as_str().unwrap());
    assert!(text(&bad).contains("b/c.txt"), "{}", text(&bad));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("a.txt")).unwrap(),
        "one\n2\nthree\n"
    );

    // Arguments the schema does not allow are tool errors the model can read.
    for (id, args, why) in [
        (4, json!({"input": 5}), "must be a string"),
        (5, json!({}), "missing argument \"input\""),
        (
            6,
            json!({"input": "", "path": "x"}),
            "unknown argument \"path\"",
        ),
        (7, json!({"input": "not a patch"}), ""),
    ] {
        let r = s.call(id, "apply_patch", args);
        assert_eq!(r["isError"], true, "{r}");
        assert!(text(&r).contains(why), "{}", text(&r));
    }
    assert!(s.finish().success());
}

#[test]
fn malformed_messages_get_protocol_errors_and_the_session_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = Session::ready(dir.path(), &[]);

    s.send_raw(b"{this is not json\n");
    let e = s.recv();
    assert_eq!(e["error"]["code"], -32700, "{e}");
    assert!(e.get("id").is_none_or(Value::is_null), "{e}");

    s.send_raw(b"[1, 2, 3]\n");
    assert_eq!(s.recv()["error"]["code"], -32600);

    s.send_raw(b"\"just a string\"\n");
    assert_eq!(s.recv()["error"]["code"], -32600);

    // JSON-RPC, but not an MCP request: answered with its id.
    s.send(
        &json!({"jsonrpc": "2.0", "id": 40, "method": "tools/call", "params": {"arguments": 3}}),
    );
    let e = s.answer(&json!(40));
    assert_eq!(e["error"]["code"], -32602, "{e}");
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("tools/call"),
        "{e}"
    );

    let e = s.request(41, "no/such/method", json!({}));
    assert_eq!(e["error"]["code"], -32601, "{e}");

    let e = s.request(
        42,
        "tools/call",
        json!({"name": "format_disk", "arguments": {}}),
    );
    assert_eq!(e["error"]["code"], -32602, "{e}");
    assert!(e["error"]["message"]
        .as_str()
        .unwrap()
        .contains("apply_patch"));

    // Invalid UTF-8 and a stray notification: no crash, no answer to the notification.
    s.send_raw(b"\xff\xfe\n");
    assert_eq!(s.recv()["error"]["code"], -32700);
    s.send(&json!({"jsonrpc": "2.0", "method": "notifications/whatever", "params": 1}));

    // Nesting deeper than the JSON parser goes: a parse error, not a stack overflow.
    let deep = format!("{}{}\n", "[".repeat(100_000), "]".repeat(100_000));
    s.send_raw(deep.as_bytes());
    assert_eq!(s.recv()["error"]["code"], -32700);
    let deep = format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":44,\"method\":\"tools/call\",\"params\":{{\"name\":\"read_file\",\"arguments\":{{\"path\":{}{}}}}}}}\n",
        "[".repeat(50_000),
        "]".repeat(50_000)
    );
    s.send_raw(deep.as_bytes());
    let e = s.recv();
    assert!(
        e["error"]["code"] == -32700 || e["error"]["code"] == -32600,
        "{e}"
    );

    let pong = s.request(43, "ping", json!({}));
    assert!(pong["result"].is_object(), "{pong}");
    assert!(s.finish().success());
}

#[test]
fn an_oversized_request_is_refused_and_the_session_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = Session::ready(dir.path(), &["--max-request-bytes", "4096"]);

    let big = patch(&["*** Add File: big.txt", &"+x".repeat(500_000)]);
    s.send(&json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call",
                   "params": {"name": "apply_patch", "arguments": {"input": big}}}));
    let e = s.answer(&json!(9));
    assert_eq!(e["error"]["code"], -32600, "{e}");
    assert!(e["error"]["message"]
        .as_str()
        .unwrap()
        .contains("request too large"));
    assert!(!dir.path().join("big.txt").exists());

    // The id comes after the huge part: answered without one.
    let line = format!(
        "{{\"jsonrpc\":\"2.0\",\"method\":\"tools/call\",\"params\":{{\"x\":\"{}\"}},\"id\":10}}\n",
        "y".repeat(100_000)
    );
    s.send_raw(line.as_bytes());
    let e = s.recv();
    assert_eq!(e["error"]["code"], -32600, "{e}");

    // A request just under the limit still works.
    let r = s.call(11, "read_file", json!({"path": "nope.txt"}));
    assert_eq!(r["isError"], true);

    // Endless input with no newline, then the end: the server exits without an answer.
    s.send_raw("z".repeat(2_000_000).as_bytes());
    assert!(s.finish().success());
}

/// A client that streams a huge line does not make the server hold it: its peak memory stays
/// far below the line's size.
#[cfg(target_os = "linux")]
#[test]
fn a_huge_line_is_never_held_in_memory() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = Session::ready(dir.path(), &["--max-request-bytes", "1048576"]);
    let chunk = vec![b'q'; 1 << 20];
    s.send_raw(b"{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\",\"params\":{\"x\":\"");
    for _ in 0..256 {
        s.send_raw(&chunk);
    }
    s.send_raw(b"\"}}\n");
    let e = s.answer(&json!(5));
    assert_eq!(e["error"]["code"], -32600, "{e}");
    let status = std::fs::read_to_string(format!("/proc/{}/status", s.child.id())).unwrap();
    let peak_kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM");
    assert!(
        peak_kb < 64 * 1024,
        "peak memory {peak_kb} kB after a 256 MiB line"
    );
    let pong = s.request(6, "ping", json!({}));
    assert!(pong["result"].is_object(), "{pong}");
}

#[test]
fn concurrent_calls_keep_every_edit() {
    let dir = tempfile::tempdir().unwrap();
    let n = 16;
    let body: String = (0..n).map(|i| format!("# {i}\nv{i} = 0\n")).collect();
    std::fs::write(dir.path().join("many.txt"), &body).unwrap();
    let mut s = Session::ready(dir.path(), &[]);
    for i in 0..n {
        let p = patch(&[
            "*** Update File: many.txt",
            &format!("@@ # {i}"),
            &format!("-v{i} = 0"),
            &format!("+v{i} = 1"),
        ]);
        s.send(
            &json!({"jsonrpc": "2.0", "id": 100 + i, "method": "tools/call",
                       "params": {"name": "apply_patch", "arguments": {"input": p}}}),
        );
    }
    let mut seen = Vec::new();
    while seen.len() < n {
        let m = s.recv();
        if let Some(id) = m["id"].as_u64() {
            assert_eq!(m["result"]["isError"], false, "{m}");
            seen.push(id);
        }
    }
    seen.sort();
    assert_eq!(seen, (100..100 + n as u64).collect::<Vec<_>>());
    let expected: String = (0..n).map(|i| format!("# {i}\nv{i} = 1\n")).collect();
    assert_eq!(
        std::fs::read_to_string(dir.path().join("many.txt")).unwrap(),
        expected
    );
}

/// The write of the second file fails (a test hook of debug builds): the call is a tool error
/// that says so, and the first file is back as it was.
#[cfg(debug_assertions)]
#[test]
fn a_write_that_fails_midway_leaves_every_file_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "a\n").unwrap();
    std::fs::write(dir.path().join("b.txt"), "b\n").unwrap();
    let mut s = Session::ready_with(dir.path(), &[], &[("V4A_TEST_FAIL_WRITE", "b.txt")]);
    let p = patch(&[
        "*** Update File: a.txt",
        "@@",
        "-a",
        "+A",
        "*** Update File: b.txt",
        "@@",
        "-b",
        "+B",
    ]);
    let r = s.call(2, "apply_patch", json!({ "input": p }));
    assert_eq!(r["isError"], true, "{r}");
    let error = &r["structuredContent"]["error"];
    assert_eq!(error["status"], "IO_ERROR", "{r}");
    // The workspace layer put back the file already replaced: no recovery is left to do.
    assert_eq!(error["needs_recovery"], false, "{r}");
    assert!(
        text(&r).contains("the files already replaced were put back"),
        "{}",
        text(&r)
    );
    assert!(text(&r).contains("injected failure"), "{}", text(&r));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("a.txt")).unwrap(),
        "a\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("b.txt")).unwrap(),
        "b\n"
    );
    // The server goes on.
    let r = s.call(3, "read_file", json!({"path": "a.txt"}));
    assert_eq!(text(&r), "a\n");
}

#[test]
fn read_file_refuses_what_it_cannot_show() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bin.dat"), b"ok\xff\xfe").unwrap();
    std::fs::write(dir.path().join("big.txt"), "b".repeat(5000)).unwrap();
    std::fs::write(dir.path().join("crlf.txt"), "a\r\nb\r\n").unwrap();
    let mut s = Session::ready(dir.path(), &["--max-read-bytes", "4096"]);
    let r = s.call(2, "read_file", json!({"path": "bin.dat"}));
    assert!(
        text(&r).contains("not UTF-8") && r["isError"] == true,
        "{r}"
    );
    let r = s.call(3, "read_file", json!({"path": "big.txt"}));
    assert!(
        text(&r).contains("5000 bytes") && r["isError"] == true,
        "{r}"
    );
    let r = s.call(4, "read_file", json!({"path": "crlf.txt"}));
    assert_eq!(text(&r), "a\r\nb\r\n", "byte for byte");
    assert_eq!(r["structuredContent"]["lines"], 2);
    assert_eq!(r["isError"], false);
    let r = s.call(5, "read_file", json!({"path": "/etc/passwd"}));
    assert!(text(&r).contains("absolute") && r["isError"] == true, "{r}");
    for (id, path, status) in [
        (6, "bin.dat", "NOT_TEXT"),
        (7, "big.txt", "TOO_LARGE"),
        (8, "gone.txt", "NOT_FOUND"),
        (9, ".", "UNSAFE_PATH"),
        (10, "../x", "UNSAFE_PATH"),
    ] {
        let r = s.call(id, "read_file", json!({ "path": path }));
        assert_eq!(r["structuredContent"]["error"]["status"], status, "{r}");
    }
}

#[test]
fn read_only_never_writes() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "a\n").unwrap();
    let mut s = Session::ready(dir.path(), &["--read-only"]);
    let list = s.request(2, "tools/list", json!({}));
    let names: Vec<&str> = list["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["preview_patch", "read_file"]);
    let p = patch(&[
        "*** Update File: a.txt",
        "@@",
        "-a",
        "+b",
        "*** Add File: n.txt",
        "+n",
    ]);
    let r = s.call(3, "apply_patch", json!({"input": p}));
    assert_eq!(r["isError"], true);
    let r = s.call(4, "preview_patch", json!({"input": p}));
    assert_eq!(r["isError"], false, "{r}");
    assert!(text(&r).contains("-a\n+b\n"), "{}", text(&r));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("a.txt")).unwrap(),
        "a\n"
    );
    assert!(!dir.path().join("n.txt").exists());
}

/// The server refines the per-line diff once (streamed into an apply's document; computed by
/// a dry run's apply and read by both its text and its document): what it answers is what
/// `v4a apply --json --json-diff` and `v4a apply --dry-run` print for the same patch, which
/// stream it. A refined pair, an unrefined block, and a block of more than 256 pairs (the
/// streamed walk refines those twice over).
#[test]
fn the_diff_refined_once_is_the_commands_diff() {
    let dir = tempfile::tempdir().unwrap();
    let big: Vec<String> = (0..300).map(|i| format!("let v{i} = f({i});")).collect();
    std::fs::write(dir.path().join("big.rs"), big.join("\n") + "\n").unwrap();
    std::fs::write(dir.path().join("a.py"), "def f():\n    return 1\n").unwrap();
    let mut lines = vec![
        "*** Update File: a.py".to_string(),
        "@@".into(),
        " def f():".into(),
        "-    return 1".into(),
        "+    return 2".into(),
        "+    zzz_completely_unrelated_999()".into(),
        "*** Update File: big.rs".into(),
        "@@".into(),
    ];
    lines.extend(big.iter().map(|l| format!("-{l}")));
    lines.extend(big.iter().map(|l| format!("+{}", l.replace("f(", "g("))));
    let p = patch(&lines.iter().map(String::as_str).collect::<Vec<_>>());
    let patch_file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(patch_file.path(), &p).unwrap();
    let command = |extra: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_v4a"))
            .args(["apply", "--dry-run", "--dir"])
            .arg(dir.path())
            .args(extra)
            .arg(patch_file.path())
            .env_remove("NO_COLOR")
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let doc: Value = serde_json::from_str(&command(&["--json", "--json-diff"])).unwrap();
    let shown = command(&["--color", "never"]);
    assert!(
        doc["files"][1]["diff"][0]["segments"][1]["kind"] == "delete",
        "the big block is refined: {}",
        doc["files"][1]["diff"][0]
    );

    let mut s = Session::ready(dir.path(), &[]);
    let r = s.call(2, "preview_patch", json!({"input": p}));
    assert_eq!(r["isError"], false, "{r}");
    assert_eq!(r["structuredContent"], doc);
    assert_eq!(text(&r), shown);
    let r = s.call(3, "apply_patch", json!({"input": p}));
    assert_eq!(r["isError"], false, "{r}");
    assert_eq!(r["structuredContent"]["files"], doc["files"]);
    assert!(s.finish().success());
}

#[test]
fn a_root_that_is_not_a_directory_is_an_io_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_v4a"))
        .args(["mcp", "--root"])
        .arg(dir.path().join("missing"))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot open the directory"));
    assert!(out.stdout.is_empty());
}
