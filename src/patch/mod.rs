//! The V4A format: the parsed model ([`Patch`], [`FileOp`], [`Hunk`], [`Line`]), the grammar
//! ([`Patch::parse`]), the leniency that unwraps what models really send, and path classes.

mod hunks;
mod parse;
mod path;
mod unified;
mod wrapper;

pub use path::{classify_path, PathClass};

/// What a file operation does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OpKind {
    /// `*** Add File: P`
    Add,
    /// `*** Delete File: P`
    Delete,
    /// `*** Update File: P` (with an optional `*** Move to: Q`)
    Update,
}

impl OpKind {
    /// The lower-case name (`"add"`, `"delete"`, `"update"`).
    pub fn name(self) -> &'static str {
        match self {
            OpKind::Add => "add",
            OpKind::Delete => "delete",
            OpKind::Update => "update",
        }
    }
}

/// The role of one hunk line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LineKind {
    /// ` text`: unchanged context (part of the old and the new side).
    Context,
    /// `-text`: removed (old side only).
    Delete,
    /// `+text`: added (new side only).
    Add,
}

/// One body line of a hunk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// Its role.
    pub kind: LineKind,
    /// The text after the one-character prefix, never trimmed.
    pub text: String,
    /// 1-based line of the patch text.
    pub patch_line: u32,
}

/// An `@@ text` line: a line (or the start of one) of the file that the hunk follows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Anchor {
    /// The anchor text (one space after `@@` and trailing whitespace removed).
    pub text: String,
    /// 1-based line of the patch text.
    pub patch_line: u32,
}

/// A hunk: optional stacked anchors, then body lines.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Hunk {
    /// Stacked anchors, outermost first. Empty for a bare `@@` or a first hunk without `@@`.
    pub anchors: Vec<Anchor>,
    /// Body lines in patch order.
    pub lines: Vec<Line>,
    /// `*** End of File` closed the hunk: it must sit at the end of the file.
    pub end_of_file: bool,
    /// `\ No newline at end of file` followed the last old-side line.
    pub old_no_newline: bool,
    /// `\ No newline at end of file` followed the last added line.
    pub new_no_newline: bool,
    /// 1-based patch line where the hunk starts (its first `@@` or first body line).
    pub patch_line: u32,
}

impl Hunk {
    /// The old side: context and `-` lines, in order.
    pub fn old_lines(&self) -> impl Iterator<Item = &Line> {
        self.lines.iter().filter(|l| l.kind != LineKind::Add)
    }

    /// The new side: context and `+` lines, in order.
    pub fn new_lines(&self) -> impl Iterator<Item = &Line> {
        self.lines.iter().filter(|l| l.kind != LineKind::Delete)
    }

    /// True when the hunk removes or replaces at least one line.
    pub fn has_deletions(&self) -> bool {
        self.lines.iter().any(|l| l.kind == LineKind::Delete)
    }

    /// True when the hunk changes nothing (context only).
    pub fn is_context_only(&self) -> bool {
        self.lines.iter().all(|l| l.kind == LineKind::Context)
    }
}

/// One file operation of a patch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileOp {
    /// Add, delete or update.
    pub kind: OpKind,
    /// The path exactly as written (empty for a bare single-file diff).
    pub path: String,
    /// `*** Move to:` destination, exactly as written.
    pub move_to: Option<String>,
    /// Update: the hunks. Add: one hunk holding the `+` lines. Delete: none.
    pub hunks: Vec<Hunk>,
    /// 1-based patch line of the operation's header (or of the first hunk for a bare diff).
    pub patch_line: u32,
}

impl FileOp {
    /// The path the operation writes: the move destination if any, else the path.
    pub fn target(&self) -> &str {
        self.move_to.as_deref().unwrap_or(&self.path)
    }

    /// True for an Update whose move destination differs from its path.
    pub fn is_move(&self) -> bool {
        self.destination().is_some()
    }

    /// The move destination when the file moves to another path (`None` for a `*** Move to:`
    /// naming its own path). The one source of [`FileResult::move_to`](crate::FileResult) and
    /// [`ApplyResult::destination`](crate::ApplyResult).
    pub fn destination(&self) -> Option<&str> {
        self.move_to.as_deref().filter(|m| *m != self.path)
    }
}

/// A parsed patch: its file operations in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Patch {
    /// The file operations in patch order.
    pub ops: Vec<FileOp>,
    /// False for a bare diff (hunks with no envelope and no file headers): then `ops` holds a
    /// single Update with an empty path.
    pub has_file_headers: bool,
}
