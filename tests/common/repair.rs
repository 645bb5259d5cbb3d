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
    /// An ambiguous anchor line dropped from the hunk.
    DroppedAnchor,
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

/// Drops a hunk's trailing empty context lines and ends it with `*** End of File`.
fn end_of_file(hunk: &mut Vec<String>) {
    while hunk.len() > 1 && hunk.last().is_some_and(|l| l.trim().is_empty()) {
        hunk.pop();
    }
    hunk.push("*** End of File".to_string());
}

/// The patch with the fix the error offers applied, or `None` when it offers none that can be
/// applied mechanically.
pub fn repaired(patch: &str, err: &Error) -> Option<(Fix, String)> {
    let d = err.diagnostics();
    let lines: Vec<&str> = patch.lines().collect();
    let spans = hunk_spans(&lines);
    let span = *spans.get((d.hunk? as usize).checked_sub(1)?)?;
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
        end_of_file(&mut with);
        Fix::EndOfFile
    } else if let Some(anchor) = s.strip_prefix("@@ ") {
        let on_anchor = d
            .patch_line
            .map(|p| p as usize - 1)
            .filter(|&p| p >= span.0 && p < span.0 + anchors && lines[p].starts_with("@@"));
        match (err.status(), on_anchor) {
            (Status::AnchorNotFound | Status::Ambiguous, Some(p)) => {
                with[p - span.0] = format!("@@ {anchor}");
                Fix::ReplacedAnchor
            }
            (Status::ContextNotFound, _) => {
                // "use the anchor ... instead"
                with.drain(..anchors);
                with.insert(0, format!("@@ {anchor}"));
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

/// How many refusals in a row a repair follows (one per failing hunk, as a model resends).
pub const ROUNDS: usize = 8;

/// One way a "To pick line N" sentence offers.
enum Way {
    /// `add the anchor "@@ …"`.
    Anchor(String),
    /// `add the anchor "@@ …" before "@@ …" (patch line X)`.
    AnchorBefore(String, usize),
    /// Context lines to start and to end the hunk with.
    Context(Vec<String>, Vec<String>),
    /// `drop the anchor "@@ …" (patch line X)`, and maybe `and start the hunk with …` (the
    /// context lines to start and to end the hunk with).
    DropAnchor(usize, Vec<String>, Vec<String>),
}

/// A `"…"` at the start of `s` (`\"` and `\\` escaped), unquoted, and the rest of `s`.
fn take_quoted(s: &str) -> Option<(String, &str)> {
    let mut chars = s.strip_prefix('"')?.char_indices();
    let mut out = String::new();
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => out.push(chars.next()?.1),
            '"' => return Some((out, &s[1 + i + 1..])),
            c => out.push(c),
        }
    }
    None
}

/// `"a", "b" (lines 3–4)` at the start of `s`: the lines, and the rest after the parenthesis.
fn take_lines(s: &str) -> Option<(Vec<String>, &str)> {
    let (first, mut rest) = take_quoted(s)?;
    let mut out = vec![first];
    while rest.starts_with(", \"") {
        let (l, r) = take_quoted(&rest[2..])?;
        out.push(l);
        rest = r;
    }
    let rest = rest.strip_prefix(" (line")?;
    let close = rest.find(')')?;
    Some((out, &rest[close + 1..]))
}

/// The ways of a "To pick line N: …" sentence (after the colon), in order.
fn ways(mut s: &str) -> Vec<Way> {
    let mut out = Vec::new();
    loop {
        let way;
        if let Some(r) = s.strip_prefix("drop the anchor ") {
            let Some((_, r)) = take_quoted(r) else { break };
            let Some((x, r)) = r
                .strip_prefix(" (patch line ")
                .and_then(|r| r.split_once(')'))
            else {
                break;
            };
            let Ok(x) = x.parse::<usize>() else { break };
            s = r;
            let (mut start, mut end) = (Vec::new(), Vec::new());
            if let Some(r) = s.strip_prefix(" and ") {
                let mut more = ways(r);
                match more.first_mut() {
                    Some(Way::Context(a, b)) => {
                        start = std::mem::take(a);
                        end = std::mem::take(b);
                    }
                    _ => break,
                }
                // The context way ends the sentence part.
                s = "";
            }
            way = Way::DropAnchor(x, start, end);
        } else if let Some(r) = s.strip_prefix("add the anchor ") {
            let Some((a, r)) = take_quoted(r) else { break };
            let Some(a) = a.strip_prefix("@@ ") else {
                break;
            };
            let Some(close) = r.find(')') else { break };
            s = &r[close + 1..];
            // `before "@@ …" (patch line X)`: stacked before the anchor on patch line X.
            let before = s.strip_prefix(" before ").and_then(|r| {
                let (_, r) = r.split_once(" (patch line ")?;
                let (x, r) = r.split_once(')')?;
                Some((x.parse::<usize>().ok()?, r))
            });
            way = match before {
                Some((x, r)) => {
                    s = r;
                    Way::AnchorBefore(a.to_string(), x)
                }
                None => Way::Anchor(a.to_string()),
            };
        } else if let Some(r) = s
            .strip_prefix("start the hunk with the context lines ")
            .or_else(|| s.strip_prefix("start the hunk with the context line "))
        {
            let Some((start, r)) = take_lines(r) else {
                break;
            };
            let end = r
                .strip_prefix(" and end it with the context lines ")
                .or_else(|| r.strip_prefix(" and end it with the context line "));
            match end.map(take_lines) {
                Some(Some((end, r))) => {
                    way = Way::Context(start, end);
                    s = r;
                }
                Some(None) => break,
                None => {
                    way = Way::Context(start, Vec::new());
                    s = r;
                }
            }
        } else if let Some(r) = s
            .strip_prefix("end the hunk with the context lines ")
            .or_else(|| s.strip_prefix("end the hunk with the context line "))
        {
            let Some((end, r)) = take_lines(r) else { break };
            way = Way::Context(Vec::new(), end);
            s = r;
        } else {
            break;
        }
        out.push(way);
        match s.strip_prefix(", or ") {
            Some(r) => s = r,
            None => break,
        }
    }
    out
}

/// For an ambiguity: each candidate's fixes as the message words them (`To pick line N:
/// ...`), each applied to the patch, with the candidate's 1-based line and how many context
/// lines the fix puts before the hunk. A model that knows which place it meant takes that
/// candidate's fix.
pub fn choices(patch: &str, err: &Error) -> Vec<(u32, Fix, String, u32)> {
    let d = err.diagnostics();
    let lines: Vec<&str> = patch.lines().collect();
    let spans = hunk_spans(&lines);
    let Some(&span) = d.hunk.and_then(|h| spans.get((h as usize).checked_sub(1)?)) else {
        return Vec::new();
    };
    let hunk = &lines[span.0..span.1];
    let anchors = hunk.iter().take_while(|l| l.starts_with("@@")).count();
    let mut out = Vec::new();
    let msg = err.message();
    if msg.contains("drop the empty line and end the hunk with \"*** End of File\"") {
        // The trailing-empty-line ambiguity: the end-of-file reading is one candidate.
        let n = msg
            .split_once("it also fits the end of the file (line ")
            .and_then(|(_, rest)| rest.split(',').next())
            .and_then(|n| n.parse::<u32>().ok());
        if let Some(n) = n {
            let mut with: Vec<String> = hunk.iter().map(|l| l.to_string()).collect();
            end_of_file(&mut with);
            out.push((n, Fix::EndOfFile, splice(&lines, span, &with), 0));
        }
    }
    for sentence in msg.lines() {
        let Some(rest) = sentence.strip_prefix("To pick line ") else {
            continue;
        };
        let Some((n, way)) = rest.split_once(": ") else {
            continue;
        };
        let Ok(n) = n.parse::<u32>() else { continue };
        for way in ways(way) {
            let mut with: Vec<String> = hunk.iter().map(|l| l.to_string()).collect();
            let (fix, before) = match way {
                Way::Anchor(a) => {
                    if anchors == 1 && hunk[0].trim() == "@@" {
                        with[0] = format!("@@ {a}");
                    } else {
                        with.insert(anchors, format!("@@ {a}"));
                    }
                    (Fix::AddedAnchor, 0)
                }
                Way::AnchorBefore(a, x) => {
                    let Some(at) = x.checked_sub(1 + span.0).filter(|&at| at < anchors) else {
                        continue;
                    };
                    with.insert(at, format!("@@ {a}"));
                    (Fix::AddedAnchor, 0)
                }
                Way::DropAnchor(x, start, end) => {
                    let Some(at) = x.checked_sub(1 + span.0).filter(|&at| at < anchors) else {
                        continue;
                    };
                    let anchors = if anchors == 1 {
                        with[0] = "@@".to_string();
                        1
                    } else {
                        with.remove(at);
                        anchors - 1
                    };
                    let end_at = with
                        .iter()
                        .rposition(|l| !l.starts_with("*** "))
                        .map_or(with.len(), |i| i + 1);
                    for (k, c) in end.into_iter().enumerate() {
                        with.insert(end_at + k, c);
                    }
                    let before = start.len() as u32;
                    for (k, c) in start.into_iter().enumerate() {
                        with.insert(anchors + k, c);
                    }
                    (Fix::DroppedAnchor, before)
                }
                Way::Context(start, end) => {
                    let at = with
                        .iter()
                        .rposition(|l| !l.starts_with("*** "))
                        .map_or(with.len(), |i| i + 1);
                    for (k, c) in end.into_iter().enumerate() {
                        with.insert(at + k, c);
                    }
                    let before = start.len() as u32;
                    for (k, c) in start.into_iter().enumerate() {
                        with.insert(anchors + k, c);
                    }
                    (Fix::AddedContext, before)
                }
            };
            out.push((n, fix, splice(&lines, span, &with), before));
        }
    }
    out
}

/// Whether hunk `h` (1-based) of a patch resent with the fix "to pick line `n`", which added
/// `before` context lines ahead of the hunk, landed there: its old side starts `before` lines
/// above line `n` (for an insertion without added context, right after line `n` too).
pub fn lands_on(r: &v4a::ApplyResult, h: u32, (n, before): (u32, u32)) -> bool {
    let at = r
        .hunks
        .get((h as usize).saturating_sub(1))
        .map_or(0, |x| x.old_start);
    at + before == n || (before == 0 && at + 1 == n)
}

/// Applies `patch` to `source`, following the fix of each refusal as a model would (up to
/// `rounds` in all; for an ambiguity, the fix of the candidate it meant), and compares the
/// result with `want`. `Wrong` also covers a fix "to pick line N" that lands elsewhere.
pub fn outcome(source: &str, patch: &str, want: &str, rounds: usize) -> Outcome {
    let err = match apply(source, patch, Mode::Update, &Options::default()) {
        Ok(r) if r.text == want => return Outcome::Intended,
        Ok(_) => return Outcome::Wrong,
        Err(e) => e,
    };
    if std::env::var_os("V4A_REPAIR_TRACE").is_some() {
        eprintln!("[round {rounds}] patch:\n{patch}[msg] {}\n", err.message());
    }
    if rounds == 0 {
        return Outcome::Refused;
    }
    if err.status() == Status::Ambiguous {
        let picks = choices(patch, &err);
        if !picks.is_empty() {
            let mut best = Outcome::Refused;
            for (n, _, p, before) in picks {
                if let (Ok(r), Some(h)) = (
                    apply(source, &p, Mode::Update, &Options::default()),
                    err.diagnostics().hunk,
                ) {
                    if !lands_on(&r, h, (n, before)) {
                        return Outcome::Wrong;
                    }
                }
                if outcome(source, &p, want, rounds - 1) == Outcome::Intended {
                    best = Outcome::Intended;
                }
            }
            return best;
        }
    }
    match repaired(patch, &err) {
        Some((_, p)) if p != patch => outcome(source, &p, want, rounds - 1),
        _ => Outcome::Refused,
    }
}
