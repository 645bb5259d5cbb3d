//! Options that tune how patches are located and how results are produced.

use crate::error::{Error, Status};
use crate::level::Level;
use crate::report::RefineLimits;

/// Which line terminator `*** Add File` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum LineEnding {
    /// `\n` (the default).
    #[default]
    Lf,
    /// `\r\n`.
    CrLf,
}

impl LineEnding {
    /// The terminator bytes.
    pub fn as_str(self) -> &'static str {
        match self {
            LineEnding::Lf => "\n",
            LineEnding::CrLf => "\r\n",
        }
    }
}

/// Which structured line diff an apply computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum DiffStyle {
    /// No structured diff (the cheapest; the default).
    #[default]
    None,
    /// Every line of the file: equal, delete and add entries.
    Full,
    /// Only changed lines, with this many equal lines of context around each change.
    Changes {
        /// Number of unchanged lines kept before and after each change.
        context: u32,
    },
    /// Every line of the file, as [`Full`](DiffStyle::Full), but each run of equal lines of
    /// the same hunk (or of none) as one entry: the compact full diff of
    /// [`ApplyResult::line_diff`](crate::ApplyResult::line_diff), whose
    /// [`LineDiff::counts`](crate::LineDiff::counts) give each entry's number of lines.
    /// [`ApplyResult::diff`](crate::ApplyResult::diff), whose rows have no count, holds the
    /// [`Full`](DiffStyle::Full) rows for it.
    Runs,
}

impl DiffStyle {
    /// The customary context of a diff, 3 lines: the context of the diffs the `v4a` command
    /// prints and the C ABI's `V4A_DEFAULT_DIFF_CONTEXT`, which the bindings read.
    ///
    /// ```
    /// let style = v4a::DiffStyle::Changes { context: v4a::DiffStyle::DEFAULT_CONTEXT };
    /// # assert_eq!(style, v4a::DiffStyle::Changes { context: 3 });
    /// ```
    pub const DEFAULT_CONTEXT: u32 = 3;

    /// The style of the rows ([`DiffLine`](crate::DiffLine)s, which have no count): `Full` for
    /// `Runs`, else itself.
    pub(crate) fn rows(self) -> DiffStyle {
        match self {
            DiffStyle::Runs => DiffStyle::Full,
            other => other,
        }
    }
}

/// Options for applying patches. `Options::default()` is what models trained on other
/// engines expect, with v4a's safety rules (no guessing on ambiguity).
///
/// ```
/// let opts = v4a::Options { max_level: v4a::Level::Exact, ..v4a::Options::default() };
/// assert!(v4a::apply("a\n", "@@\n-a \n+b\n", v4a::Mode::Update, &opts).is_err());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// The loosest match level tried (default: [`Level::Fold`]). [`Level::Exact`] is strict mode.
    pub max_level: Level,
    /// The largest total fuzz accepted for one file (default: no limit).
    pub max_fuzz: Option<u32>,
    /// Take the first candidate instead of failing on ambiguity (older engines' behaviour).
    pub first_match: bool,
    /// Report a hunk whose change is already present as an error instead of a no-op.
    pub already_applied_is_error: bool,
    /// Always end the new text with a line terminator (older engines' behaviour).
    pub ensure_final_newline: bool,
    /// The terminator `*** Add File` writes.
    pub add_file_line_ending: LineEnding,
    /// Which structured line diff to compute.
    pub diff: DiffStyle,
    /// Add character-level segments to changed lines of the structured diff.
    pub refine: bool,
    /// The limits of that refinement (past them a pair of lines is a whole-line change); the
    /// same limits [`refine_lines`](crate::refine_lines) takes.
    pub refine_limits: RefineLimits,
    /// Upper bound on search work per file, in line comparisons (default 200 million).
    pub search_budget: u64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            max_level: Level::Fold,
            max_fuzz: None,
            first_match: false,
            already_applied_is_error: false,
            ensure_final_newline: false,
            add_file_line_ending: LineEnding::Lf,
            diff: DiffStyle::None,
            refine: false,
            refine_limits: RefineLimits::default(),
            search_budget: 200_000_000,
        }
    }
}

impl Options {
    /// Strict options: exact matches only.
    pub fn strict() -> Options {
        Options {
            max_level: Level::Exact,
            ..Options::default()
        }
    }

    /// Checks that the options are consistent.
    pub fn validate(&self) -> Result<(), Error> {
        if self.search_budget == 0 {
            return Err(Error::simple(
                Status::InvalidArgument,
                "options: search_budget must be greater than 0",
            ));
        }
        Ok(())
    }
}
