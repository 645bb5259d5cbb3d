//! The tool-calling kit: ready tool definitions that let a model send V4A patches, the Lark
//! grammar of the format, and the model instructions text.
//!
//! Definitions come in five [`Flavor`]s (OpenAI function calling in the Chat Completions and
//! in the Responses layout, OpenAI custom tools with a Lark grammar, Anthropic tool use, MCP)
//! and two [`Shape`]s (the whole patch in one call, or one file per call). They are the files
//! `tools/<flavor>-<shape>.json` of the repository's `tools/` folder, embedded at build time,
//! so an agent written in any language gets them with one call:
//!
//! ```
//! use v4a::tools::{tool_schema, Flavor, Shape};
//!
//! for flavor in Flavor::ALL {
//!     for shape in Shape::ALL {
//!         let json = tool_schema(flavor, shape);
//!         assert!(json.starts_with('{'));
//!     }
//! }
//! let flavor: Flavor = "openai-responses-custom".parse().unwrap();
//! assert_eq!(flavor, Flavor::OpenAiResponsesCustom);
//! assert!(v4a::tools::grammar().contains("*** Begin Patch"));
//! ```

use std::fmt;
use std::str::FromStr;

use crate::error::{Error, Status};

/// Tool-definition flavours: which platform's tool format a definition follows.
///
/// Each flavour has a fixed number, [`Flavor::code`] (the C ABI's `V4A_FLAVOR_*`); new
/// flavours get new numbers, so the enum is `#[non_exhaustive]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Flavor {
    /// OpenAI function calling, Chat Completions layout (`tools` of
    /// `/v1/chat/completions`): `{"type": "function", "function": {"name", "description",
    /// "parameters", "strict": true}}`, a strict JSON Schema for the arguments.
    OpenAiChat = 0,
    /// OpenAI custom (freeform) tool, Responses layout (`tools` of `/v1/responses`): the
    /// model sends the patch text itself, constrained by a Lark grammar (`{"type": "custom",
    /// "name", "description", "format": {"type": "grammar", "syntax": "lark", "definition"}}`).
    OpenAiResponsesCustom = 1,
    /// Anthropic tool use: `{"name", "description", "input_schema"}`.
    Anthropic = 2,
    /// Model Context Protocol tool: `{"name", "title", "description", "inputSchema",
    /// "annotations"}`.
    Mcp = 3,
    /// OpenAI function calling, Responses layout (`tools` of `/v1/responses`): `{"type":
    /// "function", "name", "description", "parameters", "strict": true}`, the fields of the
    /// Chat layout's `function` at the top level.
    OpenAiResponses = 4,
}

impl Flavor {
    /// Every flavour, in the order of [`Flavor::name`]'s list: openai-chat, openai-responses,
    /// openai-responses-custom, anthropic, mcp.
    pub const ALL: [Flavor; 5] = [
        Flavor::OpenAiChat,
        Flavor::OpenAiResponses,
        Flavor::OpenAiResponsesCustom,
        Flavor::Anthropic,
        Flavor::Mcp,
    ];

    /// The flavour's name as the command line and [`FromStr`] spell it, and the start of its
    /// files' names (`tools/<name>-<shape>.json`): `"openai-chat"`, `"openai-responses"`,
    /// `"openai-responses-custom"`, `"anthropic"` or `"mcp"`.
    pub fn name(self) -> &'static str {
        match self {
            Flavor::OpenAiChat => "openai-chat",
            Flavor::OpenAiResponses => "openai-responses",
            Flavor::OpenAiResponsesCustom => "openai-responses-custom",
            Flavor::Anthropic => "anthropic",
            Flavor::Mcp => "mcp",
        }
    }

    /// The flavour's number, fixed for good: the C ABI's `V4A_FLAVOR_*` constant (0
    /// openai-chat, 1 openai-responses-custom, 2 anthropic, 3 mcp, 4 openai-responses).
    pub fn code(self) -> u32 {
        self as u32
    }

    /// The flavour of a number ([`Flavor::code`]), or `None` for a number that names none.
    ///
    /// ```
    /// use v4a::tools::Flavor;
    /// assert_eq!(Flavor::from_code(4), Some(Flavor::OpenAiResponses));
    /// assert_eq!(Flavor::from_code(5), None);
    /// ```
    pub fn from_code(code: u32) -> Option<Flavor> {
        Flavor::ALL.into_iter().find(|f| f.code() == code)
    }
}

impl fmt::Display for Flavor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Flavor {
    type Err = Error;

    /// Parses a flavour name (ASCII case ignored); any other text is an
    /// [`Status::InvalidArgument`] error that lists the valid names.
    fn from_str(s: &str) -> Result<Flavor, Error> {
        Flavor::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| unknown("tool flavor", s, &Flavor::ALL.map(Flavor::name)))
    }
}

/// Tool shapes: one whole patch per call, or one file per call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// One argument, `input`: the whole patch, `*** Begin Patch` … `*** End Patch`, any number
    /// of files. Tool name `apply_patch`.
    Input,
    /// One file per call: `path`, `mode` (`update`, `create`, `delete` or `move`) and `diff`
    /// (the hunks, the `+` lines of a new file, nothing, or the one-file `*** Move to:`
    /// patch). For the custom flavour, whose input is a single string, the call is that
    /// file's section (`*** Update File: PATH` and its hunks, ...) without the envelope.
    /// Tool name `patch_file`.
    File,
}

impl Shape {
    /// Every shape: input, file.
    pub const ALL: [Shape; 2] = [Shape::Input, Shape::File];

    /// The shape's name as the command line and [`FromStr`] spell it: `"input"` or `"file"`.
    pub fn name(self) -> &'static str {
        match self {
            Shape::Input => "input",
            Shape::File => "file",
        }
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Shape {
    type Err = Error;

    /// Parses a shape name (ASCII case ignored); any other text is an
    /// [`Status::InvalidArgument`] error that lists the valid names.
    fn from_str(s: &str) -> Result<Shape, Error> {
        Shape::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| unknown("tool shape", s, &Shape::ALL.map(Shape::name)))
    }
}

fn unknown(what: &str, given: &str, valid: &[&str]) -> Error {
    Error::simple(
        Status::InvalidArgument,
        format!(
            "unknown {what} {given:?}: expected one of {}",
            valid.join(", ")
        ),
    )
}

/// A file of the repository's `tools/` folder, embedded once with a NUL appended: the Rust
/// functions return it without the NUL, the C ABI (crate `v4a-ffi`) with it.
macro_rules! tools_file {
    ($name:literal) => {
        concat!(include_str!(concat!("../../tools/", $name)), "\0")
    };
}

/// The embedded files with their terminating NUL, for the C ABI (crate `v4a-ffi`), which
/// hands them out as static C strings. Not part of the stable Rust API: use
/// [`tool_schema`], [`grammar`], [`file_grammar`] and [`instructions`].
#[doc(hidden)]
pub mod with_nul {
    use super::{Flavor, Shape};

    /// [`super::tool_schema`] followed by a NUL.
    pub fn tool_schema(flavor: Flavor, shape: Shape) -> &'static str {
        match (flavor, shape) {
            (Flavor::OpenAiChat, Shape::Input) => tools_file!("openai-chat-input.json"),
            (Flavor::OpenAiChat, Shape::File) => tools_file!("openai-chat-file.json"),
            (Flavor::OpenAiResponses, Shape::Input) => tools_file!("openai-responses-input.json"),
            (Flavor::OpenAiResponses, Shape::File) => tools_file!("openai-responses-file.json"),
            (Flavor::OpenAiResponsesCustom, Shape::Input) => {
                tools_file!("openai-responses-custom-input.json")
            }
            (Flavor::OpenAiResponsesCustom, Shape::File) => {
                tools_file!("openai-responses-custom-file.json")
            }
            (Flavor::Anthropic, Shape::Input) => tools_file!("anthropic-input.json"),
            (Flavor::Anthropic, Shape::File) => tools_file!("anthropic-file.json"),
            (Flavor::Mcp, Shape::Input) => tools_file!("mcp-input.json"),
            (Flavor::Mcp, Shape::File) => tools_file!("mcp-file.json"),
        }
    }

    /// [`super::grammar`] followed by a NUL.
    pub const GRAMMAR: &str = tools_file!("v4a.lark");
    /// [`super::file_grammar`] followed by a NUL.
    pub const FILE_GRAMMAR: &str = tools_file!("file-diff.lark");
    /// [`super::instructions`] followed by a NUL.
    pub const INSTRUCTIONS: &str = tools_file!("instructions.md");
}

/// An embedded file without its NUL.
fn strip_nul(with_nul: &'static str) -> &'static str {
    with_nul.strip_suffix('\0').unwrap_or(with_nul)
}

/// The tool definition of a flavour and shape, as JSON text (the file
/// `tools/<flavor>-<shape>.json` of the repository, e.g. `tools/openai-chat-input.json`).
///
/// The OpenAI function definitions use strict mode (every property required, no others
/// allowed); the custom-tool definitions embed [`grammar`] (shape input) or [`file_grammar`]
/// (shape file).
///
/// ```
/// let json = v4a::tools::tool_schema(v4a::tools::Flavor::Anthropic, v4a::tools::Shape::Input);
/// assert!(json.contains("\"name\": \"apply_patch\""));
/// assert!(json.contains("\"input_schema\""));
/// ```
pub fn tool_schema(flavor: Flavor, shape: Shape) -> &'static str {
    strip_nul(with_nul::tool_schema(flavor, shape))
}

/// The Lark grammar of a whole patch in the strict form v4a accepts (`tools/v4a.lark`):
/// the `*** Begin Patch` … `*** End Patch` envelope, LF line endings, markers written
/// exactly. Loadable by the `lark` Python package and by LLGuidance (OpenAI custom tools).
///
/// ```
/// assert!(v4a::tools::grammar().starts_with("//"));
/// ```
pub fn grammar() -> &'static str {
    strip_nul(with_nul::GRAMMAR)
}

/// The Lark grammar of one file's section without the envelope (`tools/file-diff.lark`),
/// used by the one-file-per-call custom tool. Its rules are those of [`grammar`]; only the
/// start rule differs.
pub fn file_grammar() -> &'static str {
    strip_nul(with_nul::FILE_GRAMMAR)
}

/// The model instructions (`tools/instructions.md`): the format, the context and anchor
/// rules, and how to read v4a's errors and resend a corrected hunk. Meant for the system
/// prompt of an agent that has one of the tools.
pub fn instructions() -> &'static str {
    strip_nul(with_nul::INSTRUCTIONS)
}

#[cfg(test)]
mod examples;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_flavor_and_shape_has_a_definition() {
        for flavor in Flavor::ALL {
            for shape in Shape::ALL {
                let json = tool_schema(flavor, shape);
                assert!(json.trim_start().starts_with('{'), "{flavor}-{shape}");
                assert!(json.trim_end().ends_with('}'), "{flavor}-{shape}");
                let name = match shape {
                    Shape::Input => "\"name\": \"apply_patch\"",
                    Shape::File => "\"name\": \"patch_file\"",
                };
                assert!(json.contains(name), "{flavor}-{shape} names its tool");
            }
        }
        for flavor in [Flavor::OpenAiChat, Flavor::OpenAiResponses] {
            for shape in Shape::ALL {
                assert!(tool_schema(flavor, shape).contains("\"strict\": true"));
            }
        }
        assert!(tool_schema(Flavor::OpenAiChat, Shape::Input).contains("\"function\": {"));
        assert!(!tool_schema(Flavor::OpenAiResponses, Shape::Input).contains("\"function\":"));
        let custom = tool_schema(Flavor::OpenAiResponsesCustom, Shape::File);
        assert!(custom.contains("\"syntax\": \"lark\""));
        assert!(tool_schema(Flavor::Mcp, Shape::File).contains("\"destructiveHint\": true"));
        assert!(tool_schema(Flavor::Anthropic, Shape::File).contains("\"move\""));
    }

    #[test]
    fn grammars_and_instructions_are_embedded() {
        assert!(grammar().contains("start: BEGIN_PATCH operation+ END_PATCH"));
        assert!(file_grammar().contains("start: operation"));
        let shared = "// ---- shared rules";
        let tail = |g: &'static str| &g[g.find(shared).expect("shared-rules marker")..];
        assert_eq!(tail(grammar()), tail(file_grammar()));
        assert!(instructions().contains("*** Begin Patch"));
        assert!(instructions().contains("AMBIGUOUS"));
    }

    #[test]
    fn names_round_trip() {
        for flavor in Flavor::ALL {
            assert_eq!(flavor.name().parse::<Flavor>().unwrap(), flavor);
            assert_eq!(flavor.to_string(), flavor.name());
        }
        for shape in Shape::ALL {
            assert_eq!(shape.name().parse::<Shape>().unwrap(), shape);
            assert_eq!(shape.to_string(), shape.name());
        }
        assert_eq!(
            "OpenAI-Responses-Custom".parse::<Flavor>().unwrap(),
            Flavor::OpenAiResponsesCustom
        );
        for flavor in Flavor::ALL {
            assert_eq!(Flavor::from_code(flavor.code()), Some(flavor));
        }
        let codes: Vec<u32> = Flavor::ALL.map(Flavor::code).to_vec();
        assert_eq!(codes, [0, 4, 1, 2, 3], "the C numbers never change");
        assert_eq!(Flavor::from_code(5), None);
        assert_eq!(Flavor::from_code(u32::MAX), None);
        assert_eq!(" FILE ".parse::<Shape>().unwrap(), Shape::File);
    }

    #[test]
    fn unknown_names_list_the_valid_ones() {
        let err = "gemini".parse::<Flavor>().unwrap_err();
        assert_eq!(err.status(), Status::InvalidArgument);
        assert_eq!(
            err.message(),
            "unknown tool flavor \"gemini\": expected one of openai-chat, openai-responses, openai-responses-custom, anthropic, mcp"
        );
        let err = "files".parse::<Shape>().unwrap_err();
        assert_eq!(err.status(), Status::InvalidArgument);
        assert_eq!(
            err.message(),
            "unknown tool shape \"files\": expected one of input, file"
        );
    }
}
