//! `--json`: the whole result, or the error, as one JSON document (its shape is documented in
//! the README, section "The `v4a` command"). Hunk numbers are 1-based, like the messages.

use serde_json::{json, Value};
use v4a::{ApplyResult, DiffLine, FileResult, HunkReport};
use v4a_workspace::{FileChange, FileOutcome, Outcome};

use crate::failure::Failure;
use crate::render::CONTEXT;

/// The document for a patch that applied (`written`: the files were changed on disk).
pub fn success(outcome: &Outcome, dry_run: bool) -> Value {
    json!({
        "ok": true,
        "dry_run": dry_run,
        "written": outcome.written,
        "summary": outcome.summary(),
        "recovered": outcome.recovered.as_ref().map(|r| json!({
            "action": format!("{:?}", r.action).to_lowercase(),
            "files": r.files,
        })),
        "notes": outcome.notes,
        "files": outcome
            .result
            .files
            .iter()
            .zip(&outcome.files)
            .map(|(f, o)| file(f, o))
            .collect::<Vec<_>>(),
    })
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

fn file(f: &FileResult, o: &FileOutcome) -> Value {
    let a = &f.applied;
    json!({
        "operation": f.kind.name(),
        "path": f.path,
        "move_to": f.move_to,
        "change": match o.change {
            FileChange::Added => "added",
            FileChange::Modified => "modified",
            FileChange::Moved => "moved",
            FileChange::Deleted => "deleted",
            _ => "unchanged",
        },
        "changed": o.change != FileChange::Unchanged,
        "binary": o.binary,
        "fuzz": a.fuzz,
        "hunks": a.hunks.iter().enumerate().map(|(i, h)| hunk(i, h)).collect::<Vec<_>>(),
        "diff": a.diff.iter().map(|d| diff_line(a, d)).collect::<Vec<_>>(),
        "unified_diff": a.unified_diff(CONTEXT as usize),
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

fn diff_line(a: &ApplyResult, d: &DiffLine) -> Value {
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
