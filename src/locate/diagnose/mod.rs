//! Diagnostics written for the model: for an ambiguous hunk, every candidate and a concrete fix;
//! for a hunk that is not found, the closest region, the lines that differ (whitespace made
//! visible) and a corrected hunk built from the file's real lines.

mod ambiguous;
mod anchor;
mod corrected;
mod not_found;
mod overlap;
mod placed;
mod region;
mod text;

pub(crate) use ambiguous::{
    ambiguous, ambiguous_blank_tail, ambiguous_edge_indent, ambiguous_slide,
    inconsistent_indentation, open_start, with_open_end_fix,
};
pub(crate) use anchor::{anchor_ambiguous, anchor_not_found};
pub(crate) use not_found::not_found;
pub(crate) use overlap::{with_trimmed_hunk, Overlap};
pub(crate) use placed::{
    already_applied_error, fuzz_limit, over_budget, overlapping, overlaps_placed, removed_lines,
};
pub(crate) use region::closest_region;
pub(crate) use text::similarity;
