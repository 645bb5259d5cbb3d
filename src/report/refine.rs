//! Character-level refinement (placeholder until the refinement module lands).
use crate::report::DiffKind;

/// A run of bytes within one line's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    /// Equal, Delete or Add.
    pub kind: DiffKind,
    /// Start byte offset in the line.
    pub start: usize,
    /// End byte offset in the line.
    pub end: usize,
}

/// Limits of the refinement.
#[derive(Clone, Copy, Debug, Default)]
pub struct RefineLimits {}

/// Pairs deleted and added lines.
pub fn pair_lines(_d: &[&str], _a: &[&str], _l: &RefineLimits) -> Vec<(usize, usize)> {
    Vec::new()
}

/// Refines one pair.
pub fn refine_pair(_o: &str, _n: &str, _l: &RefineLimits) -> Option<(Vec<Segment>, Vec<Segment>)> {
    None
}
