//! The repair rate (issue 15 item 4): a refused patch's offered fix applied mechanically, as a
//! model that follows the message would, and the result compared with the intended text.

#![allow(dead_code)]

use v4a::{apply, Error, Mode, Options, Status};

/// What a refusal offered, applied to the patch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Fix {
    /// The hunk replaced by `Diagnostics::corrected_hunk`.
    CorrectedHunk,
    /// An anchor line replaced by the suggested one.
    ReplacedAnchor,
    /// The suggested anchor added to the hunk.
    AddedAnchor,
    /// The suggested context line added at the start or the end of the hunk.
    AddedContext,
    /// `*** End of File` added to the hunk.
    EndOfFile,
}

/// What the repaired patch did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Outcome {
    /// The intended text.
    Intended,
    /// Refused again.
    Refused,
    /// Applied, but not as intended.
    Wrong,
}

/// The line ranges (0-based, end exclusive) of the hunks of a one-file patch, in order.
fn hunk_spans(lines: &[&str]) -> Vec<(usize, usize)> {
    let mut spans: Vec<(usize, usize)> = Vec::new();
    let mut open: Option<usize> = None;
    for (i, l) in lines.iter().enumerate() {
        let starts = l.starts_with("@@") && (i == 0 || !lines[i - 1].starts_with("@@"));
        let ends = l.starts_with("*** ") && *l != "*** End of File";
        if starts || ends {
            if let Some(s) = open.take() {
                spans.push((s, i));
            }
        }
        if starts {
            open = Some(i);
        }
    }
    if let Some(s) = open {
        spans.push((s, lines.len()));
    }
    spans
}

/// The patch with lines `span` replaced by `with`.
fn splice(lines: &[&str], span: (usize, usize), with: &[String]) -> String {
    let mut out: Vec<String> = lines[..span.0].iter().map(|l| l.to_string()).collect();
    out.extend(with.iter().cloned());
    out.extend(lines[span.1..].iter().map(|l| l.to_string()));
    let mut s = out.join("\n");
    s.push('\n');
    s
}

/// The patch with the fix the error offers applied, or `None` when it offers none that can be
/// applied mechanically.
pub fn repaired(patch: &str, err: &Error) -> Option<(Fix, String)> {
    let d = err.diagnostics();
    let lines: Vec<&str> = patch.lines().collect();
    let spans = hunk_spans(&lines);
    let span = *spans.get(d.hunk?)?;
    let hunk = &lines[span.0..span.1];
    if let Some(c) = &d.corrected_hunk {
        let mut with: Vec<String> = c.lines().map(str::to_string).collect();
        for tail in hunk.iter().rev().take_while(|l| l.starts_with("*** ")) {
            with.push(tail.to_string());
        }
        return Some((Fix::CorrectedHunk, splice(&lines, span, &with)));
    }
    let s = d.suggestion.as_deref()?;
    let anchors = hunk.iter().take_while(|l| l.starts_with("@@")).count();
    let mut with: Vec<String> = hunk.iter().map(|l| l.to_string()).collect();
    let fix = if s == "*** End of File" {
        with.push(s.to_string());
        Fix::EndOfFile
    } else if let Some(anchor) = s.strip_prefix("@@ ") {
        let on_anchor = d.patch_line.map(|p| p as usize - 1).filter(|&p| {
            p >= span.0 && p < span.0 + anchors && lines[p].starts_with("@@")
        });
        match (err.status(), on_anchor) {
            (Status::AnchorNotFound | Status::Ambiguous, Some(p)) => {
                with[p - span.0] = format!("@@ {anchor}");
                Fix::ReplacedAnchor
            }
            _ => {
                if anchors == 1 && hunk[0].trim() == "@@" {
                    with[0] = format!("@@ {anchor}");
                } else {
                    with.insert(anchors, format!("@@ {anchor}"));
                }
                Fix::AddedAnchor
            }
        }
    } else if let Some(context) = s.strip_prefix(' ') {
        let msg = err.message();
        let start = format!("start the hunk with the context line \" {context}\"");
        let end = format!("end the hunk with the context line \" {context}\"");
        let first = msg.find(&start);
        let last = msg.find(&end);
        match (first, last) {
            (Some(a), b) if b.is_none_or(|b| a < b) => with.insert(anchors, format!(" {context}")),
            (_, Some(_)) => {
                let at = with
                    .iter()
                    .rposition(|l| !l.starts_with("*** "))
                    .map_or(with.len(), |i| i + 1);
                with.insert(at, format!(" {context}"));
            }
            _ => return None,
        }
        Fix::AddedContext
    } else {
        return None;
    };
    Some((fix, splice(&lines, span, &with)))
}

/// Applies the repaired patch to `source` and compares with `want`.
pub fn outcome(source: &str, patch: &str, want: &str) -> Outcome {
    match apply(source, patch, Mode::Update, &Options::default()) {
        Ok(r) if r.text == want => Outcome::Intended,
        Ok(_) => Outcome::Wrong,
        Err(_) => Outcome::Refused,
    }
}
