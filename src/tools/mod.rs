//! The tool-calling kit: ready tool definitions that let a model send V4A patches, the Lark
//! grammar of the format, and the model instructions text.
//!
//! Definitions come in four [`Flavor`]s (OpenAI function calling, OpenAI custom tools with a
//! Lark grammar, Anthropic tool use, MCP) and two [`Shape`]s (the whole patch in one call, or
//! one file per call). They are the files of the repository's `tools/` folder, embedded at
//! build time, so an agent written in any language gets them with one call:
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
//! let flavor: Flavor = "openai-custom".parse().unwrap();
//! assert_eq!(flavor, Flavor::OpenAiCustom);
//! assert!(v4a::tools::grammar().contains("*** Begin Patch"));
//! ```

use std::fmt;
use std::str::FromStr;

use crate::error::{Error, Status};

/// Tool-definition flavours: which platform's tool format a definition follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Flavor {
    /// OpenAI function calling: `{"type": "function", "function": {..., "strict": true}}`
    /// with a JSON Schema for the arguments (Chat Completions layout; for the Responses API,
    /// lift the fields of `function` to the top level).
    OpenAi,
    /// OpenAI custom (freeform) tool: the model sends the patch text itself, constrained by
    /// a Lark grammar (`{"type": "custom", ..., "format": {"type": "grammar", ...}}`).
    OpenAiCustom,
    /// Anthropic tool use: `{"name", "description", "input_schema"}`.
    Anthropic,
    /// Model Context Protocol tool: `{"name", "title", "description", "inputSchema",
    /// "annotations"}`.
    Mcp,
}

impl Flavor {
    /// Every flavour, in the order of [`Flavor::name`]'s list: openai, openai-custom,
    /// anthropic, mcp.
    pub const ALL: [Flavor; 4] = [
        Flavor::OpenAi,
        Flavor::OpenAiCustom,
        Flavor::Anthropic,
        Flavor::Mcp,
    ];

    /// The flavour's name as the command line and [`FromStr`] spell it: `"openai"`,
    /// `"openai-custom"`, `"anthropic"` or `"mcp"`.
    pub fn name(self) -> &'static str {
        match self {
            Flavor::OpenAi => "openai",
            Flavor::OpenAiCustom => "openai-custom",
            Flavor::Anthropic => "anthropic",
            Flavor::Mcp => "mcp",
        }
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

/// The tool definition of a flavour and shape, as JSON text (the file
/// `tools/<flavor>-<shape>.json` of the repository).
///
/// The OpenAI definitions use strict mode (every property required, no others allowed); the
/// custom-tool definitions embed [`grammar`] (shape input) or [`file_grammar`] (shape file).
///
/// ```
/// let json = v4a::tools::tool_schema(v4a::tools::Flavor::Anthropic, v4a::tools::Shape::Input);
/// assert!(json.contains("\"name\": \"apply_patch\""));
/// assert!(json.contains("\"input_schema\""));
/// ```
pub fn tool_schema(flavor: Flavor, shape: Shape) -> &'static str {
    match (flavor, shape) {
        (Flavor::OpenAi, Shape::Input) => include_str!("../../tools/openai-input.json"),
        (Flavor::OpenAi, Shape::File) => include_str!("../../tools/openai-file.json"),
        (Flavor::OpenAiCustom, Shape::Input) => {
            include_str!("../../tools/openai-custom-input.json")
        }
        (Flavor::OpenAiCustom, Shape::File) => include_str!("../../tools/openai-custom-file.json"),
        (Flavor::Anthropic, Shape::Input) => include_str!("../../tools/anthropic-input.json"),
        (Flavor::Anthropic, Shape::File) => include_str!("../../tools/anthropic-file.json"),
        (Flavor::Mcp, Shape::Input) => include_str!("../../tools/mcp-input.json"),
        (Flavor::Mcp, Shape::File) => include_str!("../../tools/mcp-file.json"),
    }
}

/// The Lark grammar of a whole patch in the strict form v4a accepts (`tools/v4a.lark`):
/// the `*** Begin Patch` … `*** End Patch` envelope, LF line endings, markers written
/// exactly. Loadable by the `lark` Python package and by LLGuidance (OpenAI custom tools).
///
/// ```
/// assert!(v4a::tools::grammar().starts_with("//"));
/// ```
pub fn grammar() -> &'static str {
    include_str!("../../tools/v4a.lark")
}

/// The Lark grammar of one file's section without the envelope (`tools/file-diff.lark`),
/// used by the one-file-per-call custom tool. Its rules are those of [`grammar`]; only the
/// start rule differs.
pub fn file_grammar() -> &'static str {
    include_str!("../../tools/file-diff.lark")
}

/// The model instructions (`tools/instructions.md`): the format, the context and anchor
/// rules, and how to read v4a's errors and resend a corrected hunk. Meant for the system
/// prompt of an agent that has one of the tools.
pub fn instructions() -> &'static str {
    include_str!("../../tools/instructions.md")
}

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
        assert!(tool_schema(Flavor::OpenAi, Shape::Input).contains("\"strict\": true"));
        assert!(tool_schema(Flavor::OpenAiCustom, Shape::File).contains("\"syntax\": \"lark\""));
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
            "OpenAI-Custom".parse::<Flavor>().unwrap(),
            Flavor::OpenAiCustom
        );
        assert_eq!(" FILE ".parse::<Shape>().unwrap(), Shape::File);
    }

    #[test]
    fn unknown_names_list_the_valid_ones() {
        let err = "gemini".parse::<Flavor>().unwrap_err();
        assert_eq!(err.status(), Status::InvalidArgument);
        assert_eq!(
            err.message(),
            "unknown tool flavor \"gemini\": expected one of openai, openai-custom, anthropic, mcp"
        );
        let err = "files".parse::<Shape>().unwrap_err();
        assert_eq!(err.status(), Status::InvalidArgument);
        assert_eq!(
            err.message(),
            "unknown tool shape \"files\": expected one of input, file"
        );
    }
}
