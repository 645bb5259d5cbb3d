//! The tool-calling kit as static, NUL-terminated strings.
//!
//! `v4a::tools` returns the files of `tools/` as `&'static str` without a terminating NUL;
//! C views need one, so the same files are embedded here with a NUL appended. A unit test
//! checks that both copies are byte-identical.

use crate::boundary::ffi_boundary;
use crate::constants::{v4a_flavor, v4a_shape};
use crate::cstr::static_view;
use crate::views::v4a_bytes;
use engine::tools::{Flavor, Shape};

/// A file of `tools/` with a NUL appended.
macro_rules! tools_file {
    ($name:literal) => {
        concat!(include_str!(concat!("../../../tools/", $name)), "\0")
    };
}

pub(crate) fn tool_schema_nul(flavor: Flavor, shape: Shape) -> &'static str {
    match (flavor, shape) {
        (Flavor::OpenAi, Shape::Input) => tools_file!("openai-input.json"),
        (Flavor::OpenAi, Shape::File) => tools_file!("openai-file.json"),
        (Flavor::OpenAiCustom, Shape::Input) => tools_file!("openai-custom-input.json"),
        (Flavor::OpenAiCustom, Shape::File) => tools_file!("openai-custom-file.json"),
        (Flavor::Anthropic, Shape::Input) => tools_file!("anthropic-input.json"),
        (Flavor::Anthropic, Shape::File) => tools_file!("anthropic-file.json"),
        (Flavor::Mcp, Shape::Input) => tools_file!("mcp-input.json"),
        (Flavor::Mcp, Shape::File) => tools_file!("mcp-file.json"),
    }
}

pub(crate) const GRAMMAR_NUL: &str = tools_file!("v4a.lark");
pub(crate) const FILE_GRAMMAR_NUL: &str = tools_file!("file-diff.lark");
pub(crate) const INSTRUCTIONS_NUL: &str = tools_file!("instructions.md");

/// The tool definition (JSON text) of a flavour (`V4A_FLAVOR_*`: OpenAI function calling,
/// OpenAI custom tool with a Lark grammar, Anthropic tool use, MCP) and a shape
/// (`V4A_SHAPE_INPUT`: the whole patch per call, tool `apply_patch`; `V4A_SHAPE_FILE`: one
/// file per call with `path`, `mode`, `diff`, tool `patch_file`). Static, like the other
/// tool-kit getters: valid for the life of the process, never freed. Absent (`{NULL, 0}`)
/// for a flavour or shape that names no constant.
#[no_mangle]
pub extern "C" fn v4a_tool_schema(flavor: v4a_flavor, shape: v4a_shape) -> v4a_bytes {
    ffi_boundary! {
        let flavor = Flavor::ALL.get(flavor as usize);
        let shape = Shape::ALL.get(shape as usize);
        Ok(match (flavor, shape) {
            (Some(&f), Some(&s)) => static_view(tool_schema_nul(f, s)),
            _ => v4a_bytes::EMPTY,
        })
    }
}

/// The Lark grammar of a whole patch in the canonical form (`tools/v4a.lark`). Static.
#[no_mangle]
pub extern "C" fn v4a_grammar() -> v4a_bytes {
    ffi_boundary! {
        Ok(static_view(GRAMMAR_NUL))
    }
}

/// The Lark grammar of one file's section without the envelope (`tools/file-diff.lark`), used
/// by the one-file-per-call custom tool. Static.
#[no_mangle]
pub extern "C" fn v4a_file_grammar() -> v4a_bytes {
    ffi_boundary! {
        Ok(static_view(FILE_GRAMMAR_NUL))
    }
}

/// The model instructions (`tools/instructions.md`) for the system prompt of an agent that
/// has one of the tools: the format, the context and anchor rules, and how to read v4a's
/// errors. Static.
#[no_mangle]
pub extern "C" fn v4a_instructions() -> v4a_bytes {
    ffi_boundary! {
        Ok(static_view(INSTRUCTIONS_NUL))
    }
}
