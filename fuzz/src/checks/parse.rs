//! Target `parse`: the parser.

use engine::{Hunk, LineKind, OpKind, Patch};

use super::common::*;

/// `parse`: the whole input is patch text (lossily decoded).
///
/// * strict-accepted ⇒ lenient-accepted, with the same result;
/// * every error has a status, a message and a patch line within the text;
/// * a parsed patch is well formed (no empty hunk, no duplicate path, ...), and written back in
///   the canonical form it parses strictly to the same operations.
pub fn parse(data: &[u8]) {
    let text = lossy(data);
    let lenient = Patch::parse(&text);
    let strict = Patch::parse_strict(&text);
    let line_count = text.split('\n').count() as u32;
    for r in [&lenient, &strict] {
        if let Err(e) = r {
            check_error(e, &[]);
            if let Some(l) = e.diagnostics().patch_line {
                assert!(
                    l >= 1 && l <= line_count,
                    "patch line {l} of {line_count}: {e:?}"
                );
            }
        }
    }
    match (&strict, &lenient) {
        (Ok(s), Ok(l)) => assert_eq!(s, l, "strict and lenient parses differ"),
        (Ok(_), Err(e)) => panic!("strict parse accepts, lenient rejects: {e:?}"),
        _ => {}
    }
    let Ok(p) = lenient else { return };
    check_patch(&p, line_count);
    if let Some(canonical) = render_canonical(&p) {
        let again = if p.has_file_headers {
            Patch::parse_strict(&canonical)
        } else {
            Patch::parse(&canonical)
        };
        let again = again.unwrap_or_else(|e| {
            panic!("the canonical form does not parse: {e:?}\n{canonical}");
        });
        assert_eq!(
            without_lines(&again),
            without_lines(&p),
            "the canonical form parses differently:\n{canonical}"
        );
    }
    // A plain unified diff of the same patch parses to the same operations (SPEC §2.3).
    if let Some(unified) = render_unified(&p) {
        let again = Patch::parse(&unified)
            .unwrap_or_else(|e| panic!("the unified form does not parse: {e:?}\n{unified}"));
        assert_eq!(
            without_lines(&again).ops,
            without_lines(&p).ops,
            "the unified form parses differently:\n{unified}"
        );
    }
}

/// The patch as a plain unified diff (`git diff`), or `None` when it holds what a unified diff
/// cannot carry as the same patch: a bare diff, a move, an `*** End of File` hunk, stacked
/// anchors or an anchor with surrounding whitespace, a path with whitespace or quotes, a hunk
/// line that would read as a file header, a carriage return, an empty Add File.
fn render_unified(p: &Patch) -> Option<String> {
    if !p.has_file_headers || p.ops.is_empty() {
        return None;
    }
    let mut s = String::new();
    for op in &p.ops {
        let path = op.path.as_str();
        if path.is_empty()
            || path.contains(|c: char| c.is_whitespace() || c == '"' || c == '\\')
            || path == "/dev/null"
            || op.move_to.is_some()
        {
            return None;
        }
        s.push_str(&format!("diff --git a/{path} b/{path}\n"));
        match op.kind {
            OpKind::Delete => {
                s.push_str(&format!(
                    "deleted file mode 100644\n--- a/{path}\n+++ /dev/null\n"
                ));
                continue;
            }
            OpKind::Add => {
                let h = &op.hunks[0];
                if h.lines.is_empty() {
                    return None;
                }
                s.push_str(&format!(
                    "new file mode 100644\n--- /dev/null\n+++ b/{path}\n"
                ));
                s.push_str(&format!("@@ -0,0 +1,{} @@\n", h.lines.len()));
                for l in &h.lines {
                    s.push_str(&format!("+{}\n", l.text));
                }
                if h.new_no_newline {
                    s.push_str(NO_NL);
                }
                continue;
            }
            OpKind::Update => s.push_str(&format!("--- a/{path}\n+++ b/{path}\n")),
        }
        for h in &op.hunks {
            if h.end_of_file || h.anchors.len() > 1 {
                return None;
            }
            let (old, new) = (h.old_lines().count(), h.new_lines().count());
            s.push_str(&format!("@@ -1,{old} +1,{new} @@"));
            if let Some(a) = h.anchors.first() {
                if a.text != a.text.trim() {
                    return None;
                }
                s.push_str(&format!(" {}", a.text));
            }
            s.push('\n');
            push_body(&mut s, h);
        }
    }
    // A hunk line that starts like a header reads as one, in git as here.
    let body: Vec<&str> = s.lines().collect();
    (!header_like_in_hunks(&body) && !s.contains('\r')).then_some(s)
}

/// True when a hunk line of a rendered unified diff starts like a file header or a hunk
/// header (`diff `, `Index: `, `--- ` before `+++ `, `@@`), so that git would read it so too.
fn header_like_in_hunks(body: &[&str]) -> bool {
    let mut in_hunk = false;
    for (i, l) in body.iter().enumerate() {
        if l.starts_with("diff --git ") {
            in_hunk = false;
            continue;
        }
        if l.starts_with("@@ -") {
            in_hunk = true;
            continue;
        }
        if in_hunk
            && (l.starts_with("diff ")
                || l.starts_with("Index: ")
                || l.starts_with("--- ") && body.get(i + 1).is_some_and(|n| n.starts_with("+++ ")))
        {
            return true;
        }
    }
    false
}

fn check_patch(p: &Patch, line_count: u32) {
    // An empty envelope is a patch of no operations (make_patch writes one for equal texts).
    if !p.has_file_headers {
        assert!(p.ops.len() == 1 && p.ops[0].path.is_empty() && p.ops[0].kind == OpKind::Update);
    }
    let mut written = std::collections::HashSet::new();
    for op in &p.ops {
        assert!(op.patch_line >= 1 && op.patch_line <= line_count, "{op:?}");
        if p.has_file_headers {
            assert!(!op.path.trim().is_empty(), "an empty path: {op:?}");
            assert!(
                written.insert(op.path.as_str()),
                "duplicate path {:?}",
                op.path
            );
            if op.is_move() {
                assert!(
                    written.insert(op.target()),
                    "move onto a claimed path: {op:?}"
                );
            }
        }
        match op.kind {
            OpKind::Add => assert_eq!(op.hunks.len(), 1, "Add with {} hunks", op.hunks.len()),
            OpKind::Delete => assert!(op.hunks.is_empty()),
            OpKind::Update => assert!(!op.hunks.is_empty() || op.move_to.is_some(), "{op:?}"),
        }
        for h in &op.hunks {
            if op.kind == OpKind::Update {
                assert!(!h.lines.is_empty(), "an empty hunk: {h:?}");
            } else {
                assert!(
                    h.lines.iter().all(|l| l.kind == engine::LineKind::Add),
                    "{h:?}"
                );
            }
            assert!(h.patch_line >= 1 && h.patch_line <= line_count);
            for l in &h.lines {
                assert!(l.patch_line >= h.patch_line && l.patch_line <= line_count);
                assert!(!l.text.contains('\n'));
            }
            for a in &h.anchors {
                assert!(
                    !a.text.trim().is_empty() && a.text == a.text.trim_end(),
                    "{a:?}"
                );
            }
        }
    }
}

/// The patch with every patch line number set to 0.
fn without_lines(p: &Patch) -> Patch {
    let mut p = p.clone();
    for op in &mut p.ops {
        op.patch_line = 0;
        for h in &mut op.hunks {
            h.patch_line = 0;
            h.anchors.iter_mut().for_each(|a| a.patch_line = 0);
            h.lines.iter_mut().for_each(|l| l.patch_line = 0);
        }
    }
    p
}

/// The patch in the canonical form, or `None` when it holds text the canonical form cannot
/// carry (a carriage return, an anchor that reads as a unified hunk header).
fn render_canonical(p: &Patch) -> Option<String> {
    let mut s = String::new();
    if p.has_file_headers {
        s.push_str("*** Begin Patch\n");
    }
    for op in &p.ops {
        match op.kind {
            OpKind::Add => {
                s.push_str(&format!("*** Add File: {}\n", op.path));
                let h = &op.hunks[0];
                for l in &h.lines {
                    s.push_str(&format!("+{}\n", l.text));
                }
                if h.new_no_newline {
                    s.push_str(NO_NL);
                }
                continue;
            }
            OpKind::Delete => {
                s.push_str(&format!("*** Delete File: {}\n", op.path));
                continue;
            }
            OpKind::Update => {}
        }
        if p.has_file_headers {
            s.push_str(&format!("*** Update File: {}\n", op.path));
        }
        if let Some(m) = &op.move_to {
            s.push_str(&format!("*** Move to: {m}\n"));
        }
        for h in &op.hunks {
            if h.anchors.is_empty() {
                s.push_str("@@\n");
            }
            for a in &h.anchors {
                let t = a.text.trim_start();
                let b = t.as_bytes();
                if t.starts_with("...")
                    || b.first() == Some(&b'-') && b.get(1).is_some_and(u8::is_ascii_digit)
                {
                    return None;
                }
                s.push_str(&format!("@@ {}\n", a.text));
            }
            push_body(&mut s, h);
            if h.end_of_file {
                s.push_str("*** End of File\n");
            }
        }
    }
    if p.has_file_headers {
        s.push_str("*** End Patch\n");
    }
    (!s.contains('\r')).then_some(s)
}

/// The marker after a line that ends its side of the file without a newline.
const NO_NL: &str = "\\ No newline at end of file\n";

/// Appends a hunk's body lines, each with its prefix, and the [`NO_NL`] markers after the
/// lines that end each side without a newline.
fn push_body(s: &mut String, h: &Hunk) {
    let last_of = |k: LineKind| h.lines.iter().rposition(|l| l.kind == k);
    let (last_del, last_add) = (last_of(LineKind::Delete), last_of(LineKind::Add));
    let mut markers = Vec::new();
    match (h.old_no_newline, h.new_no_newline) {
        (true, true) if last_del.is_some() && last_add.is_some() => {
            markers.extend(last_del);
            markers.extend(last_add);
        }
        (true, true) => markers.extend(last_of(LineKind::Context)),
        (true, false) => markers.extend(last_del),
        (false, true) => markers.extend(last_add),
        (false, false) => {}
    }
    for (i, l) in h.lines.iter().enumerate() {
        let prefix = match l.kind {
            LineKind::Context => ' ',
            LineKind::Delete => '-',
            LineKind::Add => '+',
        };
        s.push_str(&format!("{prefix}{}\n", l.text));
        if markers.contains(&i) {
            s.push_str(NO_NL);
        }
    }
}
