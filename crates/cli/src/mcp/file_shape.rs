//! The one-file tool's call (`path`, `mode`, `diff`) as a one-operation patch, so that it is
//! applied through the same door as a whole patch. The rules are those of the kit's file shape
//! (`tools/README.md`): update takes the hunks, create the `+` lines, delete nothing, move a
//! one-file `*** Move to:` patch; a diff with a file header must name `path` and agree with
//! `mode`.

use v4a::{Diagnostics, Error, FileOp, LineKind, Mode, OpKind, Patch, Status};

/// The patch that does what the call asks.
pub fn to_patch(path: &str, mode: &str, diff: &str) -> Result<Patch, Error> {
    let mode: Mode = mode.parse()?;
    let op = match mode {
        Mode::Delete => delete(path, diff)?,
        Mode::Create => create(path, diff)?,
        Mode::Update | Mode::Move => edit(path, mode, diff)?,
    };
    Ok(Patch {
        ops: vec![op],
        has_file_headers: true,
    })
}

fn delete(path: &str, diff: &str) -> Result<FileOp, Error> {
    if !diff.trim().is_empty() {
        let op = single(diff)?;
        if op.kind != OpKind::Delete {
            return Err(mismatch(&op, Mode::Delete));
        }
        same_path(&op, path)?;
    }
    Ok(FileOp {
        kind: OpKind::Delete,
        path: path.to_string(),
        move_to: None,
        hunks: Vec::new(),
        patch_line: 1,
    })
}

fn create(path: &str, diff: &str) -> Result<FileOp, Error> {
    if diff.is_empty() {
        // An empty file.
        return Ok(FileOp {
            kind: OpKind::Add,
            path: path.to_string(),
            move_to: None,
            hunks: Vec::new(),
            patch_line: 1,
        });
    }
    let op = single(diff)?;
    match op.kind {
        OpKind::Add => {
            same_path(&op, path)?;
            Ok(op)
        }
        // A bare diff: one hunk of `+` lines, no anchor.
        OpKind::Update if op.path.is_empty() => {
            let [hunk] = op.hunks.as_slice() else {
                return Err(not_plus_lines(op.patch_line));
            };
            if !hunk.anchors.is_empty() {
                return Err(not_plus_lines(hunk.patch_line));
            }
            if let Some(l) = hunk.lines.iter().find(|l| l.kind != LineKind::Add) {
                return Err(Error::syntax(
                    l.patch_line,
                    format!(
                        "line {}: in create mode every line of the diff must start with '+'",
                        l.patch_line
                    ),
                ));
            }
            Ok(FileOp {
                kind: OpKind::Add,
                path: path.to_string(),
                ..op
            })
        }
        _ => Err(mismatch(&op, Mode::Create)),
    }
}

fn edit(path: &str, mode: Mode, diff: &str) -> Result<FileOp, Error> {
    let mut op = single(diff)?;
    if op.path.is_empty() {
        // A bare diff: the hunks of `path`.
        op.path = path.to_string();
    } else {
        same_path(&op, path)?;
    }
    let agrees = op.kind == OpKind::Update && (op.is_move() == (mode == Mode::Move));
    if !agrees {
        return Err(mismatch(&op, mode));
    }
    Ok(op)
}

/// The one file operation of `diff`.
fn single(diff: &str) -> Result<FileOp, Error> {
    let patch = v4a::Patch::parse(diff)?;
    let n = patch.ops.len();
    match <[FileOp; 1]>::try_from(patch.ops) {
        Ok([op]) => Ok(op),
        Err(_) => Err(Error::simple(
            Status::InvalidArgument,
            format!(
                "the diff names {n} files, but patch_file changes one file per call; send \
                 one call per file"
            ),
        )),
    }
}

fn same_path(op: &FileOp, path: &str) -> Result<(), Error> {
    if op.path == path {
        return Ok(());
    }
    Err(Error::new(
        Status::InvalidArgument,
        format!(
            "the diff's header (patch line {}) names {:?} but \"path\" is {path:?}: they must \
             be the same file",
            op.patch_line, op.path
        ),
        Diagnostics {
            patch_line: Some(op.patch_line),
            path: Some(path.to_string()),
            ..Diagnostics::default()
        },
    ))
}

fn mismatch(op: &FileOp, mode: Mode) -> Error {
    let what = match op.kind {
        OpKind::Add => "adds",
        OpKind::Delete => "deletes",
        OpKind::Update if op.is_move() => "moves",
        OpKind::Update => "updates",
    };
    let hint = match mode {
        Mode::Update => "for update, send only the hunks (\"@@\" lines, then ' ', '-', '+' lines)",
        Mode::Create => "for create, send the new file's lines, each starting with '+'",
        Mode::Delete => "for delete, send an empty diff",
        Mode::Move => {
            "for move, send \"*** Begin Patch\", \"*** Update File: PATH\", \"*** Move to: \
             NEW_PATH\", any hunks, \"*** End Patch\""
        }
    };
    Error::new(
        Status::InvalidArgument,
        format!(
            "the diff {what} {} but the mode is {}: {hint}",
            if op.path.is_empty() {
                "a file"
            } else {
                &op.path
            },
            mode.name()
        ),
        Diagnostics {
            patch_line: Some(op.patch_line),
            path: (!op.path.is_empty()).then(|| op.path.clone()),
            ..Diagnostics::default()
        },
    )
}

fn not_plus_lines(line: u32) -> Error {
    Error::syntax(
        line,
        "in create mode the diff is the new file's lines, each starting with '+', without \
         \"@@\" lines",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_mode_becomes_one_operation_on_the_path() {
        let p = to_patch("a.txt", "update", "@@\n-one\n+two\n").unwrap();
        assert_eq!(p.ops[0].kind, OpKind::Update);
        assert_eq!(p.ops[0].path, "a.txt");
        let p = to_patch("n.txt", "create", "+x\n+y\n").unwrap();
        assert_eq!(
            (p.ops[0].kind, p.ops[0].hunks[0].lines.len()),
            (OpKind::Add, 2)
        );
        let p = to_patch("n.txt", "create", "").unwrap();
        assert!(p.ops[0].hunks.is_empty());
        let p = to_patch("d.txt", "delete", "").unwrap();
        assert_eq!(p.ops[0].kind, OpKind::Delete);
        let mv = "*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.txt\n*** End Patch\n";
        let p = to_patch("a.txt", "move", mv).unwrap();
        assert_eq!(p.ops[0].move_to.as_deref(), Some("b.txt"));
    }

    #[test]
    fn a_diff_that_disagrees_with_the_call_is_refused() {
        let mv = "*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.txt\n*** End Patch\n";
        let e = to_patch("a.txt", "update", mv).unwrap_err();
        assert!(
            e.message().contains("moves a.txt but the mode is update"),
            "{}",
            e.message()
        );
        let e = to_patch("other.txt", "move", mv).unwrap_err();
        assert!(e
            .message()
            .contains("names \"a.txt\" but \"path\" is \"other.txt\""));
        let e = to_patch("n.txt", "create", "+x\n y\n").unwrap_err();
        assert!(
            e.message().contains("must start with '+'"),
            "{}",
            e.message()
        );
        let e = to_patch("a.txt", "rename", "").unwrap_err();
        assert_eq!(e.status(), Status::UnsupportedMode);
        let two = "*** Begin Patch\n*** Add File: a\n+1\n*** Add File: b\n+2\n*** End Patch\n";
        let e = to_patch("a", "create", two).unwrap_err();
        assert!(e.message().contains("names 2 files"), "{}", e.message());
        let e = to_patch("d.txt", "delete", "@@\n-x\n").unwrap_err();
        assert!(
            e.message().contains("but the mode is delete"),
            "{}",
            e.message()
        );
    }
}
