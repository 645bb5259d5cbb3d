//! The tool-calling kit as static, NUL-terminated strings.
//!
//! The engine embeds each file of `tools/` once, with a NUL appended
//! (`engine::tools::with_nul`); its Rust functions return the text without the NUL, these
//! views point at the same bytes and keep the NUL after their length.

use crate::boundary::ffi_boundary;
use crate::constants::{v4a_flavor, v4a_shape};
use crate::cstr::static_view;
use crate::views::v4a_bytes;
use engine::tools::{with_nul, Flavor, Shape};

/// The tool definition (JSON text) of a flavour (`V4A_FLAVOR_*`: OpenAI function calling in
/// the Chat Completions or the Responses layout, OpenAI custom tool of the Responses API with
/// a Lark grammar, Anthropic tool use, MCP) and a shape
/// (`V4A_SHAPE_INPUT`: the whole patch per call, tool `apply_patch`; `V4A_SHAPE_FILE`: one
/// file per call with `path`, `mode`, `diff`, tool `patch_file`). Static, like the other
/// tool-kit getters: valid for the life of the process, never freed. Absent (`{NULL, 0}`)
/// for a flavour or shape that names no constant.
#[no_mangle]
pub extern "C" fn v4a_tool_schema(flavor: v4a_flavor, shape: v4a_shape) -> v4a_bytes {
    ffi_boundary! {
        let flavor = Flavor::from_code(flavor);
        let shape = Shape::ALL.get(shape as usize);
        Ok(match (flavor, shape) {
            (Some(f), Some(&s)) => static_view(with_nul::tool_schema(f, s)),
            _ => v4a_bytes::ABSENT,
        })
    }
}

/// The Lark grammar of a whole patch in the canonical form (`tools/v4a.lark`). Static.
#[no_mangle]
pub extern "C" fn v4a_grammar() -> v4a_bytes {
    ffi_boundary! {
        Ok(static_view(with_nul::GRAMMAR))
    }
}

/// The Lark grammar of one file's section without the envelope (`tools/file-diff.lark`), used
/// by the one-file-per-call custom tool. Static.
#[no_mangle]
pub extern "C" fn v4a_file_grammar() -> v4a_bytes {
    ffi_boundary! {
        Ok(static_view(with_nul::FILE_GRAMMAR))
    }
}

/// The model instructions (`tools/instructions.md`) for the system prompt of an agent that
/// has one of the tools: the format, the context and anchor rules, and how to read v4a's
/// errors. Static.
#[no_mangle]
pub extern "C" fn v4a_instructions() -> v4a_bytes {
    ffi_boundary! {
        Ok(static_view(with_nul::INSTRUCTIONS))
    }
}
