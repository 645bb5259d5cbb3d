//! `--json`: the whole result, or the error, as one JSON document (its shape is documented in
//! docs/cli.md, section "`--json`"). Hunk numbers are 1-based, like the messages.
//!
//! The document of a success is written as it is serialised ([`Success`] implements
//! `Serialize`): hunks and `diff` entries are produced one at a time, so that the output of a
//! large change is never held as a tree of values (a 50,000-line replacement made one of
//! 70 MB). The per-line `diff` is in the command's document only with `--json-diff`; the MCP
//! server's structured content always has it.

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::{json, Value};
use v4a::{ApplyResult, DiffEntry, FileResult, HunkReport, Segment};
use v4a_workspace::{FileChange, FileOutcome, Outcome};

use crate::failure::Failure;
use crate::render::{for_each_diff_entry, CONTEXT};

/// The document for a patch that applied, as a value, with the per-line `diff` (the MCP
/// server's structured content).
pub fn success(outcome: &Outcome, dry_run: bool) -> Value {
    let doc = Success {
        outcome,
        dry_run,
        diff: true,
    };
    serde_json::to_value(doc).unwrap_or(Value::Null)
}

/// The document for a patch that applied (`written`: the files were changed on disk),
/// serialised as it is written.
pub struct Success<'a> {
    /// What was applied.
    pub outcome: &'a Outcome,
    /// `--dry-run`: nothing was written.
    pub dry_run: bool,
    /// Each file has `diff`, the per-line structured diff (`--json-diff`).
    pub diff: bool,
}

impl Serialize for Success<'_> {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let outcome = self.outcome;
        let mut m = ser.serialize_map(None)?;
        m.serialize_entry("ok", &true)?;
        m.serialize_entry("dry_run", &self.dry_run)?;
        m.serialize_entry("written", &outcome.written)?;
        m.serialize_entry("summary", &outcome.summary())?;
        let recovered = outcome.recovered.as_ref().map(|r| {
            json!({
                "action": format!("{:?}", r.action).to_lowercase(),
                "files": r.files,
            })
        });
        m.serialize_entry("recovered", &recovered)?;
        m.serialize_entry("notes", &outcome.notes)?;
        let files = outcome.result.files.iter().zip(&outcome.files);
        let files = files.map(|(f, o)| File(f, o, self.diff));
        m.serialize_entry("files", &Seq::new(files))?;
        m.end()
    }
}

/// A sequence serialised from an iterator, item by item.
struct Seq<I>(std::cell::Cell<Option<I>>);

impl<I> Seq<I> {
    fn new(items: I) -> Seq<I> {
        Seq(std::cell::Cell::new(Some(items)))
    }
}

impl<I> Serialize for Seq<I>
where
    I: Iterator,
    I::Item: Serialize,
{
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        match self.0.take() {
            Some(items) => ser.collect_seq(items),
            None => ser.collect_seq(std::iter::empty::<I::Item>()),
        }
    }
}

/// One file of a success document (with `diff` when the flag is set).
struct File<'a>(&'a FileResult, &'a FileOutcome, bool);

impl Serialize for File<'_> {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let File(f, o, with_diff) = *self;
        let a = &f.applied;
        let mut m = ser.serialize_map(None)?;
        m.serialize_entry("operation", f.kind.name())?;
        m.serialize_entry("path", &f.path)?;
        m.serialize_entry("move_to", &f.move_to)?;
        let change = match o.change {
            FileChange::Added => "added",
            FileChange::Modified => "modified",
            FileChange::Moved => "moved",
            FileChange::Deleted => "deleted",
            _ => "unchanged",
        };
        m.serialize_entry("change", change)?;
        m.serialize_entry("changed", &(o.change != FileChange::Unchanged))?;
        m.serialize_entry("binary", &o.binary)?;
        m.serialize_entry("fuzz", &a.fuzz)?;
        let hunks = a.hunks.iter().enumerate().map(|(i, h)| hunk(i, h));
        m.serialize_entry("hunks", &Seq::new(hunks))?;
        if with_diff {
            m.serialize_entry("diff", &Diff(a))?;
        }
        m.serialize_entry("unified_diff", &a.unified_diff(CONTEXT as usize))?;
        m.end()
    }
}

/// The per-line `diff` of one file: the changed lines with [`CONTEXT`] lines of context,
/// refined to characters with the default limits, entry by entry as
/// [`for_each_diff_entry`] gives them: streamed from the result's edit script, the rows and
/// their segments never held (those of a 50,000-line replacement are several times its text),
/// unless the apply computed them (the MCP server's dry run).
struct Diff<'a>(&'a ApplyResult<'static>);

impl Serialize for Diff<'_> {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let mut seq = ser.serialize_seq(None)?;
        for_each_diff_entry(self.0, |e| seq.serialize_element(&Entry(e)))?;
        seq.end()
    }
}

/// One entry of `diff`.
struct Entry<'a>(DiffEntry<'a>);

impl Serialize for Entry<'_> {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let e = &self.0;
        let mut m = ser.serialize_map(None)?;
        m.serialize_entry("kind", e.kind.name())?;
        m.serialize_entry("old_line", &e.old_line)?;
        m.serialize_entry("new_line", &e.new_line)?;
        m.serialize_entry("hunk", &e.hunk)?;
        m.serialize_entry("text", e.text)?;
        let segments = e.segments.iter().map(|s| SegmentOf(*s));
        m.serialize_entry("segments", &Seq::new(segments))?;
        m.end()
    }
}

/// One character-level segment of an entry.
struct SegmentOf(Segment);

impl Serialize for SegmentOf {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let mut m = ser.serialize_map(Some(3))?;
        m.serialize_entry("kind", self.0.kind.name())?;
        m.serialize_entry("start", &self.0.start)?;
        m.serialize_entry("end", &self.0.end)?;
        m.end()
    }
}

/// The document for a failure.
pub fn failure(f: &Failure, dry_run: bool) -> Value {
    json!({
        "ok": false,
        "dry_run": dry_run,
        "written": false,
        "exit_code": f.exit_code(),
        "error": error(f),
    })
}

fn hunk(i: usize, h: &HunkReport) -> Value {
    let flags: Vec<&str> = [
        (h.reindented, "reindented"),
        (h.already_applied, "already_applied"),
        (h.end_of_file, "end_of_file"),
        (h.out_of_order, "out_of_order"),
        (h.merged, "merged"),
        (h.anchor_ignored, "anchor_ignored"),
        (h.context_relaxed, "context_relaxed"),
    ]
    .into_iter()
    .filter_map(|(on, name)| on.then_some(name))
    .collect();
    json!({
        "hunk": i + 1,
        "patch_line": h.patch_line,
        "old_start": h.old_start,
        "old_len": h.old_len,
        "new_start": h.new_start,
        "new_len": h.new_len,
        "level": h.level.name(),
        "line_levels": h.line_levels.iter().map(|l| l.name()).collect::<Vec<_>>(),
        "fuzz": h.fuzz,
        "candidates": h.candidates,
        "flags": flags,
    })
}

/// The entry as the document had it when the diff was materialised first: the reference
/// the streamed entries must match byte for byte.
#[cfg(test)]
fn diff_line(a: &ApplyResult, d: &v4a::DiffLine) -> Value {
    json!({
        "kind": d.kind.name(),
        "old_line": d.old_line,
        "new_line": d.new_line,
        "hunk": d.hunk,
        "text": a.line_text(d),
        "segments": a.line_segments(d).iter().map(|s| json!({
            "kind": s.kind.name(),
            "start": s.start,
            "end": s.end,
        })).collect::<Vec<_>>(),
    })
}

fn error(f: &Failure) -> Value {
    match f {
        Failure::Patch(e) => {
            let d = e.diagnostics();
            json!({
                "status": e.status().name(),
                "code": e.status().code(),
                "category": e.status().category(),
                "message": e.message(),
                "path": d.path,
                "patch_line": d.patch_line,
                "hunk": d.hunk,
                "candidates": d.candidates,
                "suggestion": d.suggestion,
                "closest": d.closest.as_ref().map(|c| json!({
                    "start_line": c.start_line,
                    "end_line": c.end_line,
                    "similarity": c.similarity,
                })),
                "corrected_hunk": d.corrected_hunk,
                "byte_offset": d.byte_offset,
                "input": d.input,
            })
        }
        Failure::Path(p) => json!({
            "status": p.status,
            // DUPLICATE_PATH is the engine's status; the others are the command's own.
            "code": v4a::Status::from_name(p.status).map(|s| s.code()),
            "category": match p.status {
                "READ_ONLY" => "read-only file",
                _ => "path conflict",
            },
            "message": p.message,
            "path": p.path,
            "patch_line": p.patch_line,
        }),
        Failure::Usage(m) => json!({
            "status": "USAGE",
            "code": Value::Null,
            "category": "usage error",
            "message": m,
        }),
        Failure::Io(io) => json!({
            "status": "IO_ERROR",
            "code": Value::Null,
            "category": "I/O error",
            "message": io.message,
            "path": io.path,
            "needs_recovery": io.needs_recovery,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use v4a::{DiffStyle, RefineLimits};

    /// The document with `--json-diff` as it was written when the engine materialised the
    /// diff first (`Options::diff` and `refine`, then each `DiffLine` as a value).
    fn materialised(outcome: &Outcome) -> String {
        let mut doc = success(outcome, false);
        let files = doc["files"].as_array_mut().expect("files");
        for (file, f) in files.iter_mut().zip(&outcome.result.files) {
            let mut a = f.applied.clone();
            let style = DiffStyle::Changes { context: CONTEXT };
            a.compute_diff_with(style, Some(&RefineLimits::default()));
            file["diff"] = Value::Array(a.diff.iter().map(|d| diff_line(&a, d)).collect());
        }
        serde_json::to_string_pretty(&doc).expect("json")
    }

    /// The fixture's streamed document is byte for byte the materialised one.
    #[test]
    fn the_streamed_diff_is_the_materialised_one_byte_for_byte() {
        let (_dir, outcome) = crate::fixture::outcome();
        let doc = Success {
            outcome: &outcome,
            dry_run: false,
            diff: true,
        };
        let streamed = serde_json::to_string_pretty(&doc).expect("json");
        assert!(streamed.contains("\"segments\": [\n            {"));
        assert_eq!(streamed, materialised(&outcome));
    }

    /// The rows an apply computed with `render::with_rows` (the MCP server's dry run) make
    /// the same document, and the same preview, as the streamed diff.
    #[test]
    fn the_rows_of_the_apply_are_the_streamed_diff() {
        let (_dir, streamed) = crate::fixture::outcome();
        let opts = crate::render::with_rows(v4a::Options::default());
        let (_dir, rows) = crate::fixture::outcome_with(opts);
        assert!(rows.result.files.iter().any(|f| !f.applied.diff.is_empty()));
        assert!(streamed
            .result
            .files
            .iter()
            .all(|f| f.applied.diff.is_empty()));
        let doc = |outcome| {
            let doc = Success {
                outcome,
                dry_run: true,
                diff: true,
            };
            serde_json::to_string_pretty(&doc).expect("json")
        };
        assert_eq!(doc(&rows), doc(&streamed));
        let preview = |outcome: &Outcome| {
            let mut out = Vec::new();
            crate::render::preview(&mut out, &outcome.result).expect("preview");
            out
        };
        assert_eq!(preview(&rows), preview(&streamed));
    }
}
