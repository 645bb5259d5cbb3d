//! The command line: subcommands, arguments and their help text (clap derive).

use std::path::PathBuf;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand, ValueEnum};
use v4a::tools::{Flavor, Shape};
use v4a::{Level, LineEnding, Options};

const ABOUT: &str =
    "Apply V4A patches (the `*** Begin Patch` edit format language models emit) to \
files, atomically: every operation lands, or nothing is written.";

const EXAMPLES: &str = "\
Examples:
  v4a apply fix.patch                      apply to files under the current directory
  v4a apply --dir repo --dry-run fix.patch preview the change as a diff, write nothing
  model-output | v4a apply --json -        read the patch from stdin, report as JSON
  v4a diff old.py new.py --path app.py     write the patch that turns old.py into new.py
  v4a reverse fix.patch > undo.patch       the patch that undoes fix.patch (run it first)
  v4a recover --dir repo                   finish or undo an apply a crash interrupted
  v4a schema anthropic --shape file        a tool definition for a model API

Exit status: 0 success, 1 the patch does not apply (the reason is on stderr), 2 usage
error, 3 I/O error.";

const APPLY_EXAMPLES: &str = "\
Examples:
  v4a apply fix.patch
  v4a apply --dir examples/demo --dry-run examples/demo/fix.patch
  cat fix.patch | v4a apply --dir repo -
  v4a apply --json --dry-run fix.patch | jq '.files[].hunks'

Every operation is computed in memory first; if one fails, nothing is written. Files are then
replaced through private temporary files in their own directories (fsync, rename), keeping
their owner, mode and extended attributes, under a lock (DIR/.v4a/lock) and an intent journal
(DIR/.v4a/journal): after a crash, `v4a recover` (or the next apply) puts every file back or
finishes the job. A file changed by another program meanwhile is never overwritten
(CHANGED_ON_DISK). Paths must be relative and stay inside DIR, also through symbolic links;
.git/, .hg/ and .svn/ are refused, and so are an Add or Move onto an existing file
(FILE_EXISTS) and read-only files, unless allowed.

Exit status: 0 success, 1 the patch does not apply (the diagnostic, written for the model that
sent the patch, is on stderr), 2 usage error, 3 I/O error (nothing is left half-written).";

/// The `v4a` command.
#[derive(Parser, Debug)]
#[command(name = "v4a", version, about = ABOUT, after_help = EXAMPLES)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Apply a patch to the files under a directory, atomically
    #[command(after_help = APPLY_EXAMPLES)]
    Apply(ApplyArgs),
    /// Print a V4A patch that turns OLD into NEW
    #[command(after_help = "\
Examples:
  v4a diff before/app.py after/app.py --path src/app.py
  v4a diff /dev/null new.txt --path docs/new.txt   (an Add File patch)

The patch applies back exactly: `v4a apply` of it on OLD gives NEW byte for byte. Each hunk
gets enough context, or an @@ anchor, to match one place only. A change of line terminators
or of the byte order mark cannot be carried by a V4A patch (apply keeps the file's own): when
NEW also makes one, the patch carries the rest and a warning says what it leaves out; when it
is NEW's only change, there is no patch (exit status 1).")]
    Diff(DiffArgs),
    /// Finish or undo an apply that a crash interrupted (DIR/.v4a/journal)
    #[command(after_help = "\
Examples:
  v4a recover               the current directory
  v4a recover --dir repo

An apply writes an intent journal before it replaces the first file. If it was killed, every
file of that patch is put back as it was (or, if it had committed, its cleanup is finished):
after recovery each file of the patch is all old or all new. `v4a apply` recovers first by
itself. Exit status: 0 done or nothing to do, 3 I/O error.")]
    Recover(RecoverArgs),
    /// Print the patch that undoes PATCH, from the files it applies to
    #[command(after_help = "\
Examples:
  v4a reverse fix.patch > undo.patch && v4a apply fix.patch
  v4a apply undo.patch                      (later: back to where you started)

Run it BEFORE applying PATCH: it reads the files under DIR as PATCH's sources.")]
    Reverse(ReverseArgs),
    /// Print a tool definition that lets a model send V4A patches
    #[command(after_help = "\
Examples:
  v4a schema openai-responses         OpenAI function calling (Responses API), whole patch
  v4a schema openai-chat              the same, Chat Completions layout
  v4a schema openai-responses-custom  an OpenAI custom tool constrained by the Lark grammar
  v4a schema anthropic --shape file   one file per call: path, mode, diff
  v4a schema mcp")]
    Schema(SchemaArgs),
    /// Print the Lark grammar of the patch format
    Grammar(GrammarArgs),
    /// Print the model instructions (for the system prompt of an agent using the tool)
    Instructions,
    /// Serve the tools over the Model Context Protocol (stdio), applying under DIR
    #[command(after_help = crate::mcp::HELP)]
    Mcp(crate::mcp::McpArgs),
}

#[derive(Args, Debug)]
pub struct ApplyArgs {
    /// The patch file; `-` (or nothing, when stdin is not a terminal) reads standard input
    #[arg(value_name = "PATCH")]
    pub patch: Option<PathBuf>,

    /// The directory the patch's paths are relative to
    #[arg(short = 'd', long, value_name = "DIR", default_value = ".")]
    pub dir: PathBuf,

    /// A directory holding the files as the model saw them when it wrote the patch
    /// (base-aware apply: each updated file found there is the base its hunks are located in,
    /// and the change is merged into the current file; CONFLICT when both changed the same
    /// lines).
    #[arg(long, value_name = "DIR")]
    pub base_dir: Option<PathBuf>,

    /// Write nothing; print the change as a unified diff and where each hunk landed
    #[arg(short = 'n', long)]
    pub dry_run: bool,

    /// Verify that the patch applies, quietly: write nothing, print nothing, exit status only
    #[arg(long, conflicts_with_all = ["dry_run", "json", "verbose"])]
    pub check: bool,

    /// Print the whole result (or the error) as JSON on stdout
    #[arg(long)]
    pub json: bool,

    /// With --json: add `diff`, each changed line (and its context) with its character-level
    /// changes (the unified diff is always there)
    #[arg(long, requires = "json")]
    pub json_diff: bool,

    /// Let `*** Add File` and `*** Move to` replace an existing file (default: FILE_EXISTS)
    #[arg(long)]
    pub allow_overwrite: bool,

    /// Let the patch change or delete read-only files
    #[arg(long)]
    pub allow_read_only: bool,

    /// Let the patch write inside .git/, .hg/ and .svn/
    #[arg(long)]
    pub allow_vcs: bool,

    /// Seconds to wait for another apply on DIR to finish before failing with LOCKED
    #[arg(long, value_name = "SECONDS", default_value_t = 5.0)]
    pub lock_wait: f64,

    /// Also print where each hunk landed after the summary
    #[arg(short = 'v', long)]
    pub verbose: bool,

    /// When to colour the --dry-run diff (auto: on a terminal, unless NO_COLOR is set)
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorWhen::Auto)]
    pub color: ColorWhen,

    #[command(flatten)]
    pub matching: MatchArgs,
}

#[derive(Args, Debug)]
pub struct RecoverArgs {
    /// The directory of the interrupted apply
    #[arg(short = 'd', long, value_name = "DIR", default_value = ".")]
    pub dir: PathBuf,
}

#[derive(Args, Debug)]
pub struct DiffArgs {
    /// The old file (`/dev/null` for a file to add)
    #[arg(value_name = "OLD")]
    pub old: PathBuf,

    /// The new file (`/dev/null` for a file to delete)
    #[arg(value_name = "NEW")]
    pub new: PathBuf,

    /// The path written in the patch [default: OLD, or NEW when OLD is /dev/null]
    #[arg(short = 'p', long, value_name = "P")]
    pub path: Option<String>,

    /// Unchanged lines shown around each change
    #[arg(short = 'c', long, value_name = "N", default_value_t = 3)]
    pub context: usize,
}

#[derive(Args, Debug)]
pub struct ReverseArgs {
    /// The patch file; `-` (or nothing, when stdin is not a terminal) reads standard input
    #[arg(value_name = "PATCH")]
    pub patch: Option<PathBuf>,

    /// The directory the patch's paths are relative to
    #[arg(short = 'd', long, value_name = "DIR", default_value = ".")]
    pub dir: PathBuf,

    /// The files are the ones after the patch was applied (as after `v4a apply`; the default
    /// tries the files as before the patch first, then as after it)
    #[arg(long)]
    pub applied: bool,

    #[command(flatten)]
    pub matching: MatchArgs,
}

#[derive(Args, Debug)]
pub struct SchemaArgs {
    /// The tool format
    #[arg(value_name = "FLAVOR", ignore_case = true, value_parser = flavor_parser())]
    pub flavor: Flavor,

    /// `input`: the whole patch in one call; `file`: one file per call (path, mode, diff)
    #[arg(long, value_name = "SHAPE", ignore_case = true, value_parser = shape_parser(),
          default_value = "input")]
    pub shape: Shape,
}

#[derive(Args, Debug)]
pub struct GrammarArgs {
    /// `input`: a whole patch; `file`: one file's section without the envelope
    #[arg(long, value_name = "SHAPE", ignore_case = true, value_parser = shape_parser(),
          default_value = "input")]
    pub shape: Shape,
}

/// Options that tune matching and the new text, shared by `apply` and `reverse`.
#[derive(Args, Debug, Clone)]
#[command(next_help_heading = "Matching")]
pub struct MatchArgs {
    /// Exact matches only (same as --max-level exact)
    #[arg(long, conflicts_with = "max_level")]
    pub strict: bool,

    /// The loosest match level tried [default: fold]
    #[arg(long, value_name = "LEVEL", value_parser = level_parser())]
    pub max_level: Option<Level>,

    /// The largest total fuzz accepted for one file
    #[arg(long, value_name = "N")]
    pub max_fuzz: Option<u32>,

    /// Take the first candidate instead of failing on ambiguity (older engines' behaviour)
    #[arg(long)]
    pub first_match: bool,

    /// Fail when a hunk's change is already present, instead of skipping the hunk
    #[arg(long)]
    pub already_applied_error: bool,

    /// Always end changed files with a line terminator
    #[arg(long)]
    pub ensure_final_newline: bool,

    /// The line terminator of files created by `*** Add File`
    #[arg(long, value_enum, value_name = "EOL", default_value_t = Eol::Lf)]
    pub add_file_line_ending: Eol,
}

impl MatchArgs {
    /// The engine options these flags ask for.
    pub fn options(&self) -> Options {
        let mut o = Options::default();
        if self.strict {
            o.max_level = Level::Exact;
        }
        if let Some(level) = self.max_level {
            o.max_level = level;
        }
        o.max_fuzz = self.max_fuzz;
        o.first_match = self.first_match;
        o.already_applied_is_error = self.already_applied_error;
        o.ensure_final_newline = self.ensure_final_newline;
        o.add_file_line_ending = match self.add_file_line_ending {
            Eol::Lf => LineEnding::Lf,
            Eol::Crlf => LineEnding::CrLf,
        };
        o
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorWhen {
    Auto,
    Always,
    Never,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Eol {
    Lf,
    Crlf,
}

// The value parsers list the library's own names, so the help stays in step with it.

fn level_parser() -> impl TypedValueParser<Value = Level> {
    PossibleValuesParser::new(Level::ALL.map(Level::name))
        .map(|s| Level::from_name(&s).unwrap_or_default())
}

fn flavor_parser() -> impl TypedValueParser<Value = Flavor> {
    PossibleValuesParser::new(Flavor::ALL.map(Flavor::name))
        .try_map(|s| s.parse::<Flavor>().map_err(|e| e.message().to_string()))
}

fn shape_parser() -> impl TypedValueParser<Value = Shape> {
    PossibleValuesParser::new(Shape::ALL.map(Shape::name))
        .try_map(|s| s.parse::<Shape>().map_err(|e| e.message().to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }
}
