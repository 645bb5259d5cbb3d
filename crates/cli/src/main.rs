//! `v4a`: applies V4A patches to files under a directory, atomically; previews them as a
//! coloured diff; writes patches from two files, undo patches, and the tool-calling kit.
//!
//! The engine computes; the workspace layer (`v4a-workspace`) reads and writes the files,
//! confined to the directory, crash-safe and under a lock; this program parses arguments,
//! prints, and maps failures to exit codes (0 success, 1 the patch does not apply, 2 usage,
//! 3 I/O).

mod cli;
mod failure;
#[cfg(test)]
mod fixture;
mod json;
mod mcp;
mod render;
mod restyle;

use std::collections::HashMap;
use std::io::{self, IsTerminal, Read, Write as _};
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use v4a::{GenerateOptions, OpKind, Patch};
use v4a_workspace::{escape_path, Outcome, RecoveryAction, Workspace, WorkspaceOptions};

use cli::{ApplyArgs, Cli, ColorWhen, Command, DiffArgs, RecoverArgs, ReverseArgs};
use failure::Failure;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let code = match cli.command {
        Command::Apply(args) => apply(&args),
        Command::Diff(args) => report(diff(&args)),
        Command::Reverse(args) => report(reverse(&args)),
        Command::Recover(args) => report(recover(&args)),
        Command::Schema(args) => report(print(v4a::tools::tool_schema(args.flavor, args.shape))),
        Command::Grammar(args) => report(print(match args.shape {
            v4a::tools::Shape::Input => v4a::tools::grammar(),
            v4a::tools::Shape::File => v4a::tools::file_grammar(),
        })),
        Command::Instructions => report(print(v4a::tools::instructions())),
        Command::Mcp(args) => mcp::run(&args),
    };
    ExitCode::from(code)
}

/// Prints a failure on stderr and returns its exit code.
fn report(result: Result<(), Failure>) -> u8 {
    match result {
        Ok(()) => 0,
        Err(f) => {
            eprintln!("{f}");
            f.exit_code()
        }
    }
}

// ---------------------------------------------------------------------------------------------
// apply
// ---------------------------------------------------------------------------------------------

fn apply(args: &ApplyArgs) -> u8 {
    // No structured diff from the engine: it costs several times the file's size. The preview
    // (`render::file_diff`) and `--json-diff` (`json::Success`) stream it from the edit script
    // as they write, holding none of it.
    let opts = workspace_options(args);
    let outcome = apply_files(args, &opts).and_then(|outcome| {
        if args.check {
            Ok(())
        } else if args.json {
            print_json(&json::Success {
                outcome: &outcome,
                dry_run: args.dry_run,
                diff: args.json_diff,
            })
        } else if args.dry_run {
            write_colored(args.color, |w| render::preview(w, &outcome.result))
        } else {
            let mut text = String::new();
            if let Some(r) = &outcome.recovered {
                text.push_str(&recovered_line(r));
            }
            text.push_str(&outcome.summary());
            for n in &outcome.notes {
                text.push_str(&format!("note: {}\n", v4a_workspace::escape_message(n)));
            }
            if args.verbose {
                text.push('\n');
                render::report(&mut text, &outcome.result);
            }
            print_colored(&text, args.color)
        }
    });
    match outcome {
        Ok(()) => 0,
        Err(f) if args.check => f.exit_code(),
        Err(f) if args.json => {
            // The JSON document replaces the message on stderr; a failure to print it is
            // reported the usual way.
            match print_json(&json::failure(&f, args.dry_run)) {
                Ok(()) => f.exit_code(),
                Err(e) => report(Err(e)),
            }
        }
        Err(f) => report(Err(f)),
    }
}

/// The workspace options the flags ask for.
fn workspace_options(args: &ApplyArgs) -> WorkspaceOptions {
    WorkspaceOptions {
        engine: args.matching.options(),
        allow_overwrite: args.allow_overwrite,
        allow_read_only: args.allow_read_only,
        allow_vcs: args.allow_vcs,
        lock_wait: Duration::from_secs_f64(args.lock_wait.clamp(0.0, 3600.0)),
        bases: Default::default(),
    }
}

/// The bases of `--base-dir`: for each updated file, its copy under DIR, if there is one.
/// Only relative paths that stay inside DIR are looked up.
fn read_bases(patch: &Patch, dir: &Path) -> Result<HashMap<String, Vec<u8>>, Failure> {
    let mut bases = HashMap::new();
    for op in patch.ops.iter().filter(|op| op.kind == v4a::OpKind::Update) {
        if v4a::classify_path(&op.path) != v4a::PathClass::Relative {
            continue;
        }
        let file = dir.join(&op.path);
        match std::fs::read(&file) {
            Ok(bytes) => {
                bases.insert(op.path.clone(), bytes);
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => {
                return Err(Failure::io(
                    None,
                    format!(
                        "cannot read the base {}: {e}",
                        escape_path(&file.to_string_lossy())
                    ),
                ))
            }
        }
    }
    Ok(bases)
}

/// Reads the patch and applies it through the workspace layer (a preview for --dry-run and
/// --check).
fn apply_files(args: &ApplyArgs, opts: &WorkspaceOptions) -> Result<Outcome, Failure> {
    let (patch, workspace) = load(args.patch.as_deref(), &args.dir)?;
    let with_bases;
    let opts = match &args.base_dir {
        Some(dir) => {
            with_bases = WorkspaceOptions {
                bases: read_bases(&patch, dir)?,
                ..opts.clone()
            };
            &with_bases
        }
        None => opts,
    };
    let outcome = if args.dry_run || args.check {
        workspace.preview(&patch, opts)?
    } else {
        workspace.apply(&patch, opts)?
    };
    Ok(outcome)
}

fn recovered_line(r: &v4a_workspace::Recovery) -> String {
    let files: Vec<String> = r.files.iter().map(|f| escape_path(f)).collect();
    match r.action {
        RecoveryAction::Finished => format!(
            "Recovered an interrupted apply: it had completed; its cleanup was finished ({}).\n",
            files.join(", ")
        ),
        _ => format!(
            "Recovered an interrupted apply: undone, every file is as it was before it ({}).\n",
            if files.is_empty() {
                "no file had been replaced yet".to_string()
            } else {
                files.join(", ")
            }
        ),
    }
}

fn recover(args: &RecoverArgs) -> Result<(), Failure> {
    let ws = Workspace::open(&args.dir)?;
    match ws.recover()? {
        None => print("Nothing to recover: no interrupted apply."),
        Some(r) => print(&recovered_line(&r)),
    }
}

/// Reads, decodes and parses the patch, and opens the directory it applies to.
fn load(patch: Option<&Path>, dir: &Path) -> Result<(Patch, Workspace), Failure> {
    let bytes = read_patch(patch)?;
    let text = std::str::from_utf8(&bytes).map_err(|e| v4a::Error::invalid_utf8("patch", e))?;
    let patch = v4a::Patch::parse(text)?;
    let workspace = Workspace::open(dir).map_err(|e| match e {
        v4a_workspace::Error::Io { message, .. } => Failure::io(None, message),
        e => Failure::from(e),
    })?;
    Ok((patch, workspace))
}

/// The patch's bytes: from the file, or from stdin for `-` (or no argument, when stdin is
/// not a terminal).
fn read_patch(path: Option<&Path>) -> Result<Vec<u8>, Failure> {
    let from_stdin = match path {
        Some(p) => p == Path::new("-"),
        None => {
            if io::stdin().is_terminal() {
                return Err(Failure::Usage(
                    "no patch given: name a patch file, or pipe the patch to standard input \
                     (see `v4a apply --help`)"
                        .into(),
                ));
            }
            true
        }
    };
    if from_stdin {
        let mut bytes = Vec::new();
        io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| Failure::io(None, format!("cannot read the patch from stdin: {e}")))?;
        Ok(bytes)
    } else {
        let p = path.unwrap_or(Path::new("-"));
        std::fs::read(p)
            .map_err(|e| Failure::io(None, format!("cannot read the patch {}: {e}", p.display())))
    }
}

// ---------------------------------------------------------------------------------------------
// diff, reverse
// ---------------------------------------------------------------------------------------------

fn diff(args: &DiffArgs) -> Result<(), Failure> {
    let old = read_text(&args.old, "old file")?;
    let new = read_text(&args.new, "new file")?;
    let path = match &args.path {
        Some(p) => p.clone(),
        None => default_patch_path(if old.is_some() { &args.old } else { &args.new }),
    };
    let gen = GenerateOptions {
        context: args.context,
        max_context: GenerateOptions::default().max_context.max(args.context),
    };
    let patch = match (old, new) {
        (Some(old), Some(new)) => {
            let restyled = restyle::to_style_of(&old, &new);
            let what = restyled.dropped.join(" and ");
            if restyled.dropped.is_empty() {
                v4a::make_patch(&old, &new, &path, &gen)?
            } else if restyled.text == old {
                return Err(Failure::Patch(v4a::Error::simple(
                    v4a::Status::InvalidArgument,
                    format!(
                        "{path}: NEW differs from OLD only in that it {what}, which a V4A patch \
                         cannot carry (`v4a apply` keeps each file's own line terminators and \
                         byte order mark), so there is no patch to print. Convert the file \
                         itself (for example with dos2unix or unix2dos)."
                    ),
                )));
            } else {
                let patch = v4a::make_patch(&old, &restyled.text, &path, &gen)?;
                eprintln!(
                    "{}",
                    v4a_workspace::escape_message(&format!(
                        "v4a: warning: {path}: NEW also {what}, which a V4A patch cannot carry \
                         (`v4a apply` keeps each file's own line terminators and byte order \
                         mark): applying this patch to OLD gives NEW's lines in OLD's style."
                    ))
                );
                patch
            }
        }
        (None, Some(new)) => v4a::make_add_patch(&path, &new),
        (Some(_), None) => v4a::make_delete_patch(&path),
        (None, None) => {
            return Err(Failure::Usage(
                "OLD and NEW cannot both be /dev/null".into(),
            ))
        }
    };
    print(&patch)
}

/// A file's text; `None` for `/dev/null`.
fn read_text(path: &Path, what: &str) -> Result<Option<String>, Failure> {
    if path == Path::new("/dev/null") {
        return Ok(None);
    }
    let bytes = std::fs::read(path)
        .map_err(|e| Failure::io(None, format!("cannot read {}: {e}", path.display())))?;
    String::from_utf8(bytes)
        .map(Some)
        .map_err(|e| Failure::Patch(v4a::Error::invalid_utf8(what, e.utf8_error())))
}

/// The path a generated patch names by default: the file as given, with `/` separators, or
/// only its name when it was given as an absolute path (which `apply` would refuse).
fn default_patch_path(p: &Path) -> String {
    let shown = if p.is_absolute() {
        p.file_name().map(Path::new).unwrap_or(p)
    } else {
        p
    };
    let s = shown.to_string_lossy().replace('\\', "/");
    s.strip_prefix("./").map(str::to_string).unwrap_or(s)
}

fn reverse(args: &ReverseArgs) -> Result<(), Failure> {
    let (patch, workspace) = load(args.patch.as_deref(), &args.dir)?;
    let opts = args.matching.options();
    // The files as after the patch: each operation's written path (a Delete writes none).
    let after_paths: Vec<&str> = patch
        .ops
        .iter()
        .filter(|op| op.kind != OpKind::Delete)
        .map(|op| op.target())
        .collect();
    if args.applied {
        let after = read_sources(&workspace, &after_paths)?;
        return print(&patch.reverse_applied(|p| after.get(p).map(Vec::as_slice), &opts)?);
    }
    // The files as before the patch; when they look patched (a hunk already applied, a moved
    // file missing), the files as after it, as `git apply -R` users expect.
    let before_paths: Vec<&str> = patch
        .ops
        .iter()
        .filter(|op| op.kind != OpKind::Add)
        .map(|op| op.path.as_str())
        .collect();
    let before = read_sources(&workspace, &before_paths)?;
    match patch.reverse(|p| before.get(p).map(Vec::as_slice), &opts) {
        Ok(undo) => print(&undo),
        Err(e)
            if matches!(
                e.status(),
                v4a::Status::AlreadyApplied | v4a::Status::MissingSource
            ) =>
        {
            let after = read_sources(&workspace, &after_paths)?;
            match patch.reverse_applied(|p| after.get(p).map(Vec::as_slice), &opts) {
                Ok(undo) => print(&undo),
                Err(_) => Err(e.into()),
            }
        }
        Err(e) => Err(e.into()),
    }
}

/// Reads `paths` with the confinement of an apply; a file that does not exist is left out
/// (the engine reports it as a missing source).
fn read_sources<'a>(
    workspace: &Workspace,
    paths: &[&'a str],
) -> Result<HashMap<&'a str, Vec<u8>>, Failure> {
    let opts = WorkspaceOptions::default();
    let mut sources = HashMap::new();
    for &p in paths {
        match workspace.read(p, &opts) {
            Ok(b) => {
                sources.insert(p, b);
            }
            Err(e) if e.status() == Some(v4a::Status::MissingSource) => {}
            Err(e) => return Err(e.into()),
        }
    }
    Ok(sources)
}

// ---------------------------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------------------------

/// Writes `text` to stdout (with a final newline). A closed pipe (`v4a grammar | head`) is
/// not an error.
fn print(text: &str) -> Result<(), Failure> {
    let mut out = io::stdout().lock();
    let r = out.write_all(text.as_bytes()).and_then(|()| {
        if !text.is_empty() && !text.ends_with('\n') {
            out.write_all(b"\n")?;
        }
        out.flush()
    });
    output_result(r)
}

/// Writes text holding ANSI styles; they are dropped unless colour is on.
fn print_colored(text: &str, when: ColorWhen) -> Result<(), Failure> {
    write_colored(when, |w| w.write_all(text.as_bytes()))
}

/// Standard output for `write`, its ANSI escapes dropped when colour is off.
fn write_colored(
    when: ColorWhen,
    write: impl FnOnce(&mut dyn io::Write) -> io::Result<()>,
) -> Result<(), Failure> {
    let choice = match when {
        ColorWhen::Auto => anstream::ColorChoice::Auto,
        ColorWhen::Always => anstream::ColorChoice::Always,
        ColorWhen::Never => anstream::ColorChoice::Never,
    };
    let mut out = anstream::AutoStream::new(io::stdout().lock(), choice);
    output_result(write(&mut out).and_then(|()| out.flush()))
}

/// Writes `doc` to standard output as it is serialised (never whole in memory), then a newline.
fn print_json(doc: &impl serde::Serialize) -> Result<(), Failure> {
    let mut out = io::BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let r = serde_json::to_writer_pretty(&mut out, doc)
        .map_err(|e| match e.io_error_kind() {
            Some(kind) => io::Error::new(kind, e.to_string()),
            None => io::Error::other(format!("cannot write JSON: {e}")),
        })
        .and_then(|()| out.write_all(b"\n"))
        .and_then(|()| out.flush());
    output_result(r)
}

fn output_result(r: io::Result<()>) -> Result<(), Failure> {
    match r {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(Failure::io(
            None,
            format!("cannot write to standard output: {e}"),
        )),
        _ => Ok(()),
    }
}
