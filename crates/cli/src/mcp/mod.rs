//! `v4a mcp --root DIR`: the tool kit served over the Model Context Protocol (stdio), built on
//! the official Rust SDK (`rmcp`).
//!
//! Tools: the kit's edit tool (`apply_patch`, or `patch_file` with `--one-file-tool`), a
//! preview of it that writes nothing (`preview_patch`), and `read_file`. The server's
//! instructions are the kit's model instructions. Results carry text for the model and the
//! `v4a apply --json` document as structured content; a patch that does not apply is a tool
//! error whose text is the engine's message. Every file access goes through [`write::Root`].

mod file_shape;
mod shown;
mod tools;
mod transport;
mod write;

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use clap::Args;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, CustomRequest,
    CustomResult, ErrorData, Implementation, JsonObject, ListToolsResult, PaginatedRequestParams,
    ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, ServerHandler, ServiceExt};
use serde_json::{json, Value};
use v4a::tools::Shape;
use v4a::{Options, Patch};

use crate::cli::MatchArgs;
use crate::failure::Failure;

/// `v4a mcp --help`'s closing text.
pub const HELP: &str = "\
Examples:
  v4a mcp --root .                         serve the current directory
  claude mcp add v4a -- v4a mcp --root .   attach it to Claude Code
  v4a mcp --root repo --read-only          read_file and preview_patch only

Tools: apply_patch (or patch_file with --one-file-tool), preview_patch (writes nothing),
read_file. Every path is relative to DIR and confined to it; a patch applies completely or
not at all. Messages go on stdin and stdout, one JSON-RPC message per line; diagnostics go to
stderr. See docs/mcp.md.";

/// `v4a mcp`'s arguments.
#[derive(Args, Debug)]
pub struct McpArgs {
    /// The directory the tools read and write; every path is relative to it and stays inside
    #[arg(long, value_name = "DIR")]
    pub root: PathBuf,

    /// Serve only read_file and the preview: nothing is ever written
    #[arg(long)]
    pub read_only: bool,

    /// Serve the one-file tool `patch_file` (path, mode, diff) instead of `apply_patch`
    #[arg(long)]
    pub one_file_tool: bool,

    /// The largest message accepted, in bytes; a larger one gets an error response
    #[arg(long, value_name = "BYTES", default_value_t = 8 << 20,
          value_parser = clap::value_parser!(u64).range(1024..))]
    pub max_request_bytes: u64,

    /// The largest file read_file returns, in bytes
    #[arg(long, value_name = "BYTES", default_value_t = 1 << 20)]
    pub max_read_bytes: u64,

    #[command(flatten)]
    pub matching: MatchArgs,
}

/// Serves until the client closes the connection; returns the exit status.
pub fn run(args: &McpArgs) -> u8 {
    let root = match write::Root::open(&args.root) {
        Ok(root) => root,
        Err(f) => {
            eprintln!("{f}");
            return f.exit_code();
        }
    };
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("v4a: cannot start the MCP server: {e}");
            return crate::failure::EXIT_IO;
        }
    };
    let server = Server::new(root, args);
    let max = usize::try_from(args.max_request_bytes).unwrap_or(usize::MAX);
    runtime.block_on(async move {
        let (stdin, stdout) = rmcp::transport::stdio_pipes();
        match server
            .serve(transport::Lines::new(stdin, stdout, max))
            .await
        {
            Ok(running) => match running.waiting().await {
                Ok(_) => 0,
                Err(e) => {
                    eprintln!("v4a: the MCP server stopped: {e}");
                    crate::failure::EXIT_IO
                }
            },
            Err(e) => {
                eprintln!("v4a: the MCP session did not start: {e}");
                crate::failure::EXIT_IO
            }
        }
    })
}

/// The most bytes of text the server keeps of what `read_file` showed.
const SHOWN_CAP: usize = 64 << 20;

/// The requests of MCP a client may send to a server.
const MCP_METHODS: &[&str] = &[
    "initialize",
    "ping",
    "tools/list",
    "tools/call",
    "prompts/list",
    "prompts/get",
    "resources/list",
    "resources/read",
    "resources/templates/list",
    "resources/subscribe",
    "resources/unsubscribe",
    "completion/complete",
    "logging/setLevel",
];

/// The server: shared by the calls in flight.
#[derive(Clone)]
pub struct Server {
    inner: Arc<Inner>,
}

struct Inner {
    root: write::Root,
    tools: Vec<Tool>,
    /// The edit tool's shape and name.
    shape: Shape,
    edit_name: String,
    read_only: bool,
    max_read_bytes: u64,
    options: Options,
    /// What `read_file` last showed of each file (by its real path), kept up to date by the
    /// server's own applies: the base of a base-aware apply.
    shown: Mutex<shown::Shown>,
}

impl Server {
    fn new(root: write::Root, args: &McpArgs) -> Server {
        let shape = if args.one_file_tool {
            Shape::File
        } else {
            Shape::Input
        };
        let edit = tools::edit(shape);
        let edit_name = edit.name.to_string();
        let mut list = Vec::new();
        if !args.read_only {
            list.push(edit);
        }
        list.push(tools::preview(shape));
        list.push(tools::read());
        let options = args.matching.options();
        Server {
            inner: Arc::new(Inner {
                root,
                tools: list,
                shape,
                edit_name,
                read_only: args.read_only,
                max_read_bytes: args.max_read_bytes,
                options,
                shown: Mutex::new(shown::Shown::new(SHOWN_CAP)),
            }),
        }
    }
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        let mut implementation = Implementation::new("v4a", env!("CARGO_PKG_VERSION"));
        implementation.title = Some("v4a patch tools".into());
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(implementation)
            .with_instructions(v4a::tools::instructions())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.inner.tools.clone()))
    }

    /// The SDK hands a request of a known method whose params do not parse here, as a method
    /// of its own: say what is wrong instead of "method not found".
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        let method = request.method;
        if method == "tools/call" {
            let why = serde_json::from_value::<CallToolRequestParams>(
                request.params.unwrap_or(Value::Null),
            )
            .err()
            .map_or_else(String::new, |e| format!(": {e}"));
            return Err(ErrorData::invalid_params(
                format!(
                    "invalid params for tools/call (name: the tool, arguments: an object){why}"
                ),
                None,
            ));
        }
        if MCP_METHODS.contains(&method.as_str()) {
            return Err(ErrorData::invalid_params(
                format!("invalid params for {method}"),
                None,
            ));
        }
        Err(ErrorData::new(
            rmcp::model::ErrorCode::METHOD_NOT_FOUND,
            format!("method not found: {method}"),
            None,
        ))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.inner.tools.iter().find(|t| t.name == name).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let inner = self.inner.clone();
        let name = request.name.to_string();
        let arguments = request.arguments.unwrap_or_default();
        // The engine and the file system block: off the protocol thread, so that other calls
        // (and cancellations) are still read. A panic ends this call, not the server.
        let result = tokio::task::spawn_blocking(move || inner.call(&name, &arguments))
            .await
            .map_err(|e| ErrorData::internal_error(format!("the tool call failed: {e}"), None))?;
        result.map(CallToolResponse::from)
    }
}

impl Inner {
    fn call(&self, name: &str, args: &JsonObject) -> Result<CallToolResult, ErrorData> {
        if name == self.edit_name {
            if self.read_only {
                return Ok(refusal(format!(
                    "{name} is not available: this server is read-only (v4a mcp --read-only). \
                     Use {} to check a patch; nothing can be written.",
                    tools::PREVIEW
                )));
            }
            return Ok(self.apply(name, args, false));
        }
        match name {
            tools::PREVIEW => Ok(self.apply(name, args, true)),
            tools::READ => Ok(self.read(args)),
            _ => Err(ErrorData::invalid_params(
                format!(
                    "unknown tool {name:?}; this server has {}",
                    self.tools
                        .iter()
                        .map(|t| t.name.as_ref())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                None,
            )),
        }
    }

    /// The edit tool (or its preview).
    fn apply(&self, tool: &str, args: &JsonObject, dry_run: bool) -> CallToolResult {
        let patch = match self.patch(tool, args) {
            Ok(p) => p,
            Err(f) => return failed(&f, dry_run),
        };
        match self.inner_apply(&patch, dry_run) {
            Ok((text, doc)) => result(text, doc, false),
            Err(f) => failed(&f, dry_run),
        }
    }

    fn inner_apply(&self, patch: &Patch, dry_run: bool) -> Result<(String, Value), Failure> {
        // What read_file showed of each updated file is its base: the hunks are located in
        // the text the model saw and merged into the current one.
        let bases: HashMap<String, Vec<u8>> = {
            let shown = self.shown.lock().unwrap_or_else(|e| e.into_inner());
            patch
                .ops
                .iter()
                .filter(|op| op.kind == v4a::OpKind::Update)
                .filter_map(|op| {
                    let key = self.root.key(&op.path)?;
                    Some((op.path.clone(), shown.get(&key)?.as_bytes().to_vec()))
                })
                .collect()
        };
        // The per-line diff is refined once: streamed into the document of an apply; for a dry
        // run, which also shows it as text, computed by the apply and read twice.
        let applied = if dry_run {
            let opts = crate::render::with_rows(self.options.clone());
            self.root.apply(patch, &opts, bases, true)?
        } else {
            self.root.apply(patch, &self.options, bases, false)?
        };
        let doc = crate::json::success(&applied.outcome, dry_run);
        if dry_run {
            return Ok((preview_text(&applied.outcome.result), doc));
        }
        let mut text = applied.outcome.summary();
        let mut shown = self.shown.lock().unwrap_or_else(|e| e.into_inner());
        for (touched, file) in applied.files.iter().zip(&applied.outcome.result.files) {
            let Some(seen) = shown.forget(&touched.source) else {
                continue;
            };
            if let Some(before) = &touched.before {
                if seen.as_bytes() != before.as_slice() {
                    text.push_str(&format!(
                        "Note: {} had changed since read_file showed it; the patch was located \
                         in the text read_file showed and merged into its current text.\n",
                        file.path
                    ));
                }
            }
            // The model now knows the file as its patch left it.
            if let Some(target) = &touched.target {
                shown.record(target.clone(), file.applied.text.clone());
            }
        }
        Ok((text, doc))
    }

    /// The patch a call of the edit tool (or the preview) asks for.
    fn patch(&self, tool: &str, args: &JsonObject) -> Result<Patch, Failure> {
        let bad = |m: String| {
            Failure::Patch(v4a::Error::simple(
                v4a::Status::InvalidArgument,
                format!("{tool}: {m}"),
            ))
        };
        let keys: &[&str] = match self.shape {
            Shape::Input => &["input"],
            Shape::File => &["path", "mode", "diff"],
        };
        let get = |k: &str| string_arg(args, k, keys).map_err(bad);
        match self.shape {
            Shape::Input => {
                let input = get("input")?;
                Ok(v4a::Patch::parse(input)?)
            }
            Shape::File => {
                let (path, mode, diff) = (get("path")?, get("mode")?, get("diff")?);
                Ok(file_shape::to_patch(path, mode, diff)?)
            }
        }
    }

    fn read(&self, args: &JsonObject) -> CallToolResult {
        let path = match string_arg(args, "path", &["path"]) {
            Ok(p) => p,
            Err(m) => return refusal(format!("{}: {m}", tools::READ)),
        };
        match self.root.read(path, self.max_read_bytes) {
            Ok(read) => {
                let doc = json!({
                    "path": path,
                    "bytes": read.text.len(),
                    "lines": read.text.lines().count(),
                    "text": read.text,
                });
                self.shown
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .record(read.key, read.text.clone());
                result(read.text, doc, false)
            }
            Err(f) => {
                let doc = json!({
                    "ok": false,
                    "error": {"status": status_of(&f), "message": f.to_string(), "path": path},
                });
                result(f.to_string(), doc, true)
            }
        }
    }
}

/// The string argument `key`; unknown keys are refused, as the schema says.
fn string_arg<'a>(args: &'a JsonObject, key: &str, keys: &[&str]) -> Result<&'a str, String> {
    if let Some(extra) = args.keys().find(|k| !keys.contains(&k.as_str())) {
        return Err(format!(
            "unknown argument {extra:?}; the arguments are {}",
            keys.join(", ")
        ));
    }
    match args.get(key) {
        Some(Value::String(s)) => Ok(s),
        Some(other) => Err(format!(
            "argument {key:?} must be a string, not {}",
            match other {
                Value::Null => "null",
                Value::Bool(_) => "a boolean",
                Value::Number(_) => "a number",
                Value::Array(_) => "an array",
                Value::Object(_) => "an object",
                Value::String(_) => "a string",
            }
        )),
        None => Err(format!("missing argument {key:?}")),
    }
}

fn status_of(f: &Failure) -> &'static str {
    match f {
        Failure::Patch(e) => e.status().name(),
        Failure::Path(p) => p.status,
        Failure::Usage(_) => "USAGE",
        Failure::Io(_) => "IO_ERROR",
    }
}

/// The dry run's text: each file's unified diff, then where each hunk landed.
fn preview_text(r: &v4a::PatchResult) -> String {
    let mut out = Vec::new();
    // Writing to memory does not fail.
    let _ = crate::render::preview(&mut out, r);
    // The renderer writes terminal styles; the model gets plain text.
    anstream::adapter::strip_str(&String::from_utf8_lossy(&out)).to_string()
}

fn result(text: String, doc: Value, is_error: bool) -> CallToolResult {
    let content = vec![ContentBlock::text(text)];
    let mut r = if is_error {
        CallToolResult::error(content)
    } else {
        CallToolResult::success(content)
    };
    r.structured_content = Some(doc);
    r
}

/// A failed apply: the engine's message for the model, and the `--json` failure document.
fn failed(f: &Failure, dry_run: bool) -> CallToolResult {
    result(f.to_string(), crate::json::failure(f, dry_run), true)
}

/// A call the server refuses before looking at a patch.
fn refusal(message: String) -> CallToolResult {
    let f = Failure::Patch(v4a::Error::simple(v4a::Status::InvalidArgument, message));
    failed(&f, false)
}
