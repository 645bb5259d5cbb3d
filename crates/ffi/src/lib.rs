//! The C ABI: a thin shell that converts arguments, calls the Rust API and stores results in
//! opaque handles. `include/v4a.h` is generated from this crate by cbindgen (see
//! `cbindgen.toml`); the conventions it documents (ownership, lifetimes, NULL, threads) are
//! implemented by the `boundary` module, which every export goes through.
//!
//! One file per C object, each with its type, the structs it hands out and its functions;
//! the shared pieces (`constants`, `views`, `boundary`, `cstr`) are leaves the objects
//! import, and this file only declares and re-exports. The modules are declared in the order
//! of the header.

#![allow(non_camel_case_types)]
// The safety contract of every export is the C header's documentation, generated from these
// doc comments: ownership, lifetimes and the (pointer, length) rules.
#![allow(clippy::missing_safety_doc)]

// Shared pieces, imported by the objects (never the other way round).
mod boundary;
mod constants;
mod cstr;
mod names;
mod views;

// The C objects and their functions, in the order of the header (one comment each keeps
// rustfmt from sorting them).
// Single-file apply, the main entry point.
mod apply;
// Its options.
mod options;
// Its result, and the error every handle may hold.
mod error;
mod result;
// Generated texts, and the unified diff rendered from a copied result.
mod text;
mod unified_diff;
// Refinement of any block of lines, and the line diff of a result as columns.
mod line_diff;
mod refine;
// Multi-file patches and their results.
mod patch;
mod result_set;
// Patch generation.
mod generate;
// The tool-calling kit.
mod tools;
// Versions and names.
mod version;
// The workspace layer: patches applied to a directory (not in the WebAssembly build).
#[cfg(not(target_arch = "wasm32"))]
mod workspace;
// The WebAssembly build's allocator for the JavaScript binding.
#[cfg(target_arch = "wasm32")]
mod wasm;

pub use apply::*;
pub use constants::*;
pub use error::v4a_error;
pub use generate::*;
pub use line_diff::*;
pub use options::{v4a_generate_options, v4a_generate_options_init, v4a_options, v4a_options_init};
pub use patch::*;
pub use refine::*;
pub use result::*;
pub use result_set::*;
pub use text::*;
pub use tools::{v4a_file_grammar, v4a_grammar, v4a_instructions, v4a_tool_schema};
pub use unified_diff::*;
pub use version::*;
pub use views::{v4a_bytes, v4a_u32s};
#[cfg(not(target_arch = "wasm32"))]
pub use workspace::*;

#[cfg(test)]
mod tests;

// The fuzz targets' corpora replayed as unit tests.
#[cfg(test)]
extern crate self as v4a_ffi;
#[cfg(test)]
mod fuzz_corpus;
