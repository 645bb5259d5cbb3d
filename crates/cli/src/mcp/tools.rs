//! The tools the server lists. The edit tool is the kit's MCP definition
//! (`v4a::tools::tool_schema(Flavor::Mcp, shape)`, the files `tools/mcp-*.json`), so its name,
//! description and input schema have one source; the preview takes the same input. Every
//! result has an output schema: the edit and the preview return the document of
//! `v4a apply --json`, `read_file` the file's text.

use std::sync::Arc;

use rmcp::model::{JsonObject, Tool, ToolAnnotations};
use serde_json::{json, Value};
use v4a::tools::{Flavor, Shape};

/// The preview tool's name.
pub const PREVIEW: &str = "preview_patch";
/// The read tool's name.
pub const READ: &str = "read_file";

/// The kit's edit tool for `shape` (`apply_patch` or `patch_file`), with its output schema.
pub fn edit(shape: Shape) -> Tool {
    let mut tool: Tool = serde_json::from_str(v4a::tools::tool_schema(Flavor::Mcp, shape))
        .unwrap_or_else(|e| panic!("tools/mcp-{shape}.json is not an MCP tool: {e}"));
    tool.output_schema = Some(object(result_schema()));
    tool
}

/// The dry run of the edit tool: the same arguments, nothing written.
pub fn preview(shape: Shape) -> Tool {
    let edit = edit(shape);
    let what = match shape {
        Shape::Input => "a V4A patch (the same `input` as apply_patch)",
        Shape::File => "a one-file V4A diff (the same `path`, `mode` and `diff` as patch_file)",
    };
    let mut tool = Tool::new(
        PREVIEW,
        format!(
            "Preview {what} without writing anything: shows the unified diff of every file it \
             would change and where each hunk would land (line range, match level, fuzz). It \
             fails with the same message apply would give. Use it to check a risky patch \
             before applying it."
        ),
        edit.input_schema.clone(),
    )
    .with_title("Preview patch")
    .annotate(
        ToolAnnotations::with_title("Preview patch")
            .read_only(true)
            .destructive(false)
            .idempotent(true)
            .open_world(false),
    );
    tool.output_schema = Some(object(result_schema()));
    tool
}

/// `read_file`: a file's current text, which the server remembers as what the model saw.
pub fn read() -> Tool {
    let input = json!({
        "type": "object",
        "properties": {
            "path": {
                "type": "string",
                "description": "Path of the file, relative to the workspace root."
            }
        },
        "required": ["path"],
        "additionalProperties": false
    });
    let output = json!({
        "type": "object",
        "properties": {
            "path": {"type": "string", "description": "The path as given."},
            "text": {"type": "string", "description": "The file's whole text, byte for byte."},
            "bytes": {"type": "integer", "minimum": 0},
            "lines": {"type": "integer", "minimum": 0}
        },
        "required": ["path", "text", "bytes", "lines"]
    });
    let mut tool = Tool::new(
        READ,
        "Read a text file under the workspace root and return its whole text exactly (no line \
         numbers added). Copy context and '-' lines for a patch from this text. Paths are \
         relative to the root; paths outside it are refused.",
        object(input),
    )
    .with_title("Read file")
    .annotate(
        ToolAnnotations::with_title("Read file")
            .read_only(true)
            .destructive(false)
            .idempotent(true)
            .open_world(false),
    );
    tool.output_schema = Some(object(output));
    tool
}

fn object(v: Value) -> Arc<JsonObject> {
    match v {
        Value::Object(o) => Arc::new(o),
        _ => Arc::new(JsonObject::new()),
    }
}

/// The JSON Schema of the `v4a apply --json` document (success or failure).
fn result_schema() -> Value {
    let nullable_int = json!({"type": ["integer", "null"]});
    let hunk = json!({
        "type": "object",
        "properties": {
            "hunk": {"type": "integer", "description": "1-based hunk number in the file."},
            "patch_line": {"type": "integer"},
            "old_start": {"type": "integer"}, "old_len": {"type": "integer"},
            "new_start": {"type": "integer"}, "new_len": {"type": "integer"},
            "level": {"type": "string", "description": "The loosest match level used."},
            "line_levels": {"type": "array", "items": {"type": "string"}},
            "fuzz": {"type": "integer"},
            "candidates": {"type": "integer"},
            "flags": {"type": "array", "items": {"type": "string"}}
        },
        "required": ["hunk", "patch_line", "old_start", "old_len", "new_start", "new_len",
                     "level", "fuzz", "flags"]
    });
    let diff_line = json!({
        "type": "object",
        "properties": {
            "kind": {"enum": ["equal", "delete", "add"]},
            "old_line": nullable_int, "new_line": nullable_int, "hunk": nullable_int,
            "text": {"type": "string"},
            "segments": {"type": "array", "items": {
                "type": "object",
                "properties": {
                    "kind": {"type": "string"},
                    "start": {"type": "integer"}, "end": {"type": "integer"}
                }
            }}
        },
        "required": ["kind", "text"]
    });
    let file = json!({
        "type": "object",
        "properties": {
            "operation": {"enum": ["add", "delete", "update"]},
            "path": {"type": "string"},
            "move_to": {"type": ["string", "null"]},
            "changed": {"type": "boolean"},
            "fuzz": {"type": "integer"},
            "hunks": {"type": "array", "items": hunk},
            "diff": {"type": "array", "items": diff_line},
            "unified_diff": {"type": "string"}
        },
        "required": ["operation", "path", "changed", "fuzz", "hunks", "diff", "unified_diff"]
    });
    json!({
        "type": "object",
        "description": "The result as `v4a apply --json` prints it.",
        "properties": {
            "ok": {"type": "boolean", "description": "The patch applies."},
            "dry_run": {"type": "boolean"},
            "written": {"type": "boolean", "description": "The files were changed on disk."},
            "summary": {"type": "string"},
            "files": {"type": "array", "items": file},
            "exit_code": {"type": "integer"},
            "error": {
                "type": "object",
                "properties": {
                    "status": {"type": "string"},
                    "message": {"type": "string", "description": "Written for the model."},
                    "candidates": {"type": ["array", "null"], "items": {"type": "integer"}}
                },
                "required": ["status", "message"]
            }
        },
        "required": ["ok", "dry_run", "written"]
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_edit_tools_are_the_kits_definitions() {
        for shape in Shape::ALL {
            let kit: Value =
                serde_json::from_str(v4a::tools::tool_schema(Flavor::Mcp, shape)).unwrap();
            let tool = serde_json::to_value(edit(shape)).unwrap();
            for key in ["name", "title", "description", "inputSchema", "annotations"] {
                assert_eq!(tool[key], kit[key], "{shape}: {key}");
            }
            assert_eq!(tool["outputSchema"]["type"], "object");
            let preview = serde_json::to_value(preview(shape)).unwrap();
            assert_eq!(preview["inputSchema"], kit["inputSchema"]);
            assert_eq!(preview["annotations"]["readOnlyHint"], true);
        }
    }
}
