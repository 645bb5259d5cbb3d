//! # v4a
//!
//! Applies **V4A patches** — the anchored, line-number-free edit format that language models
//! emit through tool calls (`*** Begin Patch` … `*** End Patch`) — to text held in memory, and
//! returns the patched text with a structured account of every change.
//!
//! The edit lands where the model meant, or it does not land at all and the [`Error`] says
//! exactly how to fix the patch; every byte the patch did not mean to change (line endings,
//! BOM, final newline, indentation, typography) is preserved.
//!
//! The pipeline has one module per stage: [`patch`] (the format) → `locate` (match levels,
//! anchors, uniqueness) → `build` (the new text) → [`report`] (results).
//!
//! ```
//! use v4a::{apply, Mode, Options};
//!
//! let source = "class App:\n    def run(self):\n        x = 1\n        y = 2\n        return x + y\n";
//! let diff = "@@ class App\n@@     def run(self):\n         x = 1\n-        y = 2\n+        y = 3\n";
//! let result = apply(source, diff, Mode::Update, &Options::default()).unwrap();
//! assert_eq!(result.text, source.replace("y = 2", "y = 3"));
//! assert_eq!(result.hunks[0].old_start, 3);
//! ```
//!
//! Multi-file patches are parsed with [`Patch::parse`] and applied atomically with
//! [`Patch::apply`], over sources the caller supplies: the engine never touches the disk;
//! [`Patch::reverse`] writes the patch that undoes one.
//!
//! ```
//! use std::collections::HashMap;
//! use v4a::{Options, Patch};
//!
//! let patch = Patch::parse(
//!     "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+two\n*** Add File: b.txt\n+new\n*** End Patch\n",
//! ).unwrap();
//! let files = HashMap::from([("a.txt", "one\n")]);
//! let result = patch.apply(|p| files.get(p).copied(), &Options::default()).unwrap();
//! assert_eq!(result.files[0].applied.text, "two\n");
//! let undo = patch.reverse(|p| files.get(p).copied(), &Options::default()).unwrap();
//! assert!(undo.contains("*** Delete File: b.txt"));
//! ```

#![warn(missing_docs)]

mod apply;
mod build;
pub mod error;
mod generate;
mod level;
mod locate;
mod merge;
mod options;
pub mod patch;
pub mod report;
mod text;
pub mod tools;

pub use apply::{apply, apply_bytes, apply_with_base, FileResult, Mode, PatchResult};
#[doc(hidden)]
pub use apply::{
    apply_patch_indexed, apply_patch_indexed_with_bases, apply_patch_indexed_with_bases_owned,
};
pub use build::Change;
pub use error::{ClosestRegion, Diagnostics, Error, Status};
pub use generate::{
    make_add_patch, make_delete_patch, make_move_patch, make_patch, GenerateOptions,
};
pub use level::{normalize, normalized, Level};
pub use options::{DiffStyle, LineEnding, Options};
pub use patch::{classify_path, Anchor, FileOp, Hunk, Line, LineKind, OpKind, Patch, PathClass};
pub use report::{
    refine_lines, ApplyResult, DiffEntry, DiffKind, DiffLine, HunkReport, LineDiff, LinePair,
    RefineLimits, Refinement, Segment,
};

/// The README's examples, compiled and run as doc tests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

/// The Rust guide's examples (`docs/rust.md`), compiled and run as doc tests.
#[doc = include_str!("../docs/rust.md")]
#[cfg(doctest)]
pub struct RustGuideDoctests;

/// The tool kit guide's examples (`docs/tools.md`), compiled and run as doc tests.
#[doc = include_str!("../docs/tools.md")]
#[cfg(doctest)]
pub struct ToolsGuideDoctests;
