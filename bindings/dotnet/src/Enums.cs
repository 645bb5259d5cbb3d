using System;

namespace V4A
{
    /// <summary>
    /// The stable status codes of v4a (<c>V4A_STATUS_*</c>): the numbers never change, in every
    /// language. Every failure is a <see cref="V4AException"/> subclass carrying one of them.
    /// </summary>
    public enum V4AStatus : uint
    {
        /// <summary>Success.</summary>
        Ok = 0,
        /// <summary>An argument is out of range or inconsistent (a value that names no constant, several files given to the single-file call, a string that is not valid UTF-16).</summary>
        InvalidArgument = 1,
        /// <summary>A required pointer was NULL (only seen by C callers).</summary>
        NullArgument = 2,
        /// <summary>An input is not valid UTF-8; <see cref="V4AError.ByteOffset"/> is the first invalid byte.</summary>
        InvalidUtf8 = 3,
        /// <summary>The patch does not follow the V4A grammar; <see cref="V4AError.Line"/> is the patch line.</summary>
        PatchSyntax = 4,
        /// <summary>The patch starts with <c>*** Begin Patch</c> but has no <c>*** End Patch</c>.</summary>
        TruncatedPatch = 5,
        /// <summary>The mode is not update, create, delete or move.</summary>
        UnsupportedMode = 6,
        /// <summary>A hunk's old side was not found; the error has the closest region and a corrected hunk.</summary>
        ContextNotFound = 7,
        /// <summary>An <c>@@</c> anchor line was not found.</summary>
        AnchorNotFound = 8,
        /// <summary>A hunk or anchor matches several places; the error lists every candidate and a fix.</summary>
        Ambiguous = 9,
        /// <summary>Two hunks change the same lines.</summary>
        OverlappingHunks = 10,
        /// <summary>The change is already there (an error only with <see cref="ApplyOptions.AlreadyAppliedIsError"/>).</summary>
        AlreadyApplied = 11,
        /// <summary>The total fuzz exceeds <see cref="ApplyOptions.MaxFuzz"/>.</summary>
        FuzzLimit = 12,
        /// <summary>Locating a hunk exceeded <see cref="ApplyOptions.SearchBudget"/>.</summary>
        SearchBudget = 13,
        /// <summary>An operation reads a file whose source was not supplied.</summary>
        MissingSource = 14,
        /// <summary>Two operations of one patch touch the same path.</summary>
        DuplicatePath = 15,
        /// <summary>A bug in v4a: a panic was caught at the native boundary. Please report it.</summary>
        Internal = 16,
        /// <summary>An Add File or Move to names a file that already exists.</summary>
        FileExists = 17,
        /// <summary>Base-aware apply: a hunk changes lines the current text also changed.</summary>
        Conflict = 18,
        /// <summary>A file changed on disk after it was read; nothing was written.</summary>
        ChangedOnDisk = 19,
        /// <summary>A path leaves the root or names version-control metadata.</summary>
        UnsafePath = 20,
        /// <summary>Another apply holds the root's lock.</summary>
        Locked = 21,
        /// <summary>The matched lines admit no consistent indentation map.</summary>
        InconsistentIndentation = 22,
        /// <summary>Workspace layer: the operating system refused a read or a write, a path needed as a file is a directory (or the reverse), or a read-only file would be changed (<see cref="V4AError.Failure"/> says which).</summary>
        IoError = 23,
    }

    /// <summary>What the single-file <see cref="Patch.Apply(string, string, ApplyMode, ApplyOptions)"/> does with the diff.</summary>
    public enum ApplyMode : uint
    {
        /// <summary>Apply the diff's hunks to the source.</summary>
        Update = 0,
        /// <summary>Build a new file from the diff's <c>+</c> lines; the source is ignored.</summary>
        Create = 1,
        /// <summary>Return empty text and list every source line as removed.</summary>
        Delete = 2,
        /// <summary>Apply edits like <see cref="Update"/> and report the destination.</summary>
        Move = 3,
    }

    /// <summary>
    /// How two lines are compared, strictest first. A looser level adds to a hunk's fuzz
    /// (exact 0, trim-end 1, trim 10, collapse 50, fold 100).
    /// </summary>
    public enum MatchLevel : uint
    {
        /// <summary>Bytes equal (line terminator excluded). Fuzz 0.</summary>
        Exact = 0,
        /// <summary>Equal after removing trailing whitespace. Fuzz 1.</summary>
        TrimEnd = 1,
        /// <summary>Equal after removing leading and trailing whitespace. Fuzz 10.</summary>
        Trim = 2,
        /// <summary>Trimmed, every internal whitespace run one space. Fuzz 50.</summary>
        Collapse = 3,
        /// <summary>Collapsed after Unicode folding (NFKC, quotes, dashes, spaces, zero-width characters). Fuzz 100.</summary>
        Fold = 4,
    }

    /// <summary>The line terminator that <c>*** Add File</c> (and <see cref="ApplyMode.Create"/>) writes.</summary>
    public enum LineEnding : uint
    {
        /// <summary><c>\n</c> (the default).</summary>
        Lf = 0,
        /// <summary><c>\r\n</c>.</summary>
        CrLf = 1,
    }

    /// <summary>Which structured line diff <see cref="ApplyResult.Lines"/> holds.</summary>
    public enum DiffStyle : uint
    {
        /// <summary>No structured diff (the cheapest; the default).</summary>
        None = 0,
        /// <summary>Every line of the file.</summary>
        Full = 1,
        /// <summary>Changed lines with <see cref="ApplyOptions.DiffContext"/> lines of context.</summary>
        Changes = 2,
        /// <summary>
        /// Every line of the file as <see cref="Full"/>, but each run of equal lines (of one hunk,
        /// or of none) as one <see cref="DiffLine"/> whose <see cref="DiffLine.Count"/> is its
        /// number of lines: the cheap full diff. <see cref="DiffLine.ExpandRuns"/> turns it into
        /// the <see cref="Full"/> lines.
        /// </summary>
        Runs = 3,
    }

    /// <summary>The kind of a structured diff line or of a character-level segment.</summary>
    public enum DiffKind : uint
    {
        /// <summary>Unchanged.</summary>
        Equal = 0,
        /// <summary>Removed (old side only).</summary>
        Delete = 1,
        /// <summary>Added (new side only).</summary>
        Add = 2,
    }

    /// <summary>Flags of a <see cref="HunkReport"/>.</summary>
    [Flags]
    public enum HunkFlags : uint
    {
        /// <summary>No flag.</summary>
        None = 0,
        /// <summary>Added lines were re-indented to the file's indentation.</summary>
        Reindented = 1,
        /// <summary>The change was already present; nothing was changed.</summary>
        AlreadyApplied = 2,
        /// <summary>Placed at the end of the file (<c>*** End of File</c>).</summary>
        EndOfFile = 4,
        /// <summary>Found before the previous hunk (out of file order).</summary>
        OutOfOrder = 8,
        /// <summary>
        /// Located in the base and carried into the current text by a three-way merge
        /// (<c>Patch.ApplyWithBase</c>, <c>Patch.ApplyWithBases</c>); the report's ranges are
        /// in the current text.
        /// </summary>
        Merged = 16,
        /// <summary>
        /// The hunk's <c>@@</c> anchors did not help (not found, or found more than once) and
        /// were set aside; its old side is unique where a hunk without anchors is searched.
        /// </summary>
        AnchorIgnored = 32,
        /// <summary>
        /// Found only with some context lines relaxed: they differ from the file (whose lines
        /// are kept), every <c>-</c> line matches, and the place is unique (300 fuzz per line).
        /// </summary>
        ContextRelaxed = 64,
    }

    /// <summary>The kind of a file operation of a multi-file patch.</summary>
    public enum OperationKind : uint
    {
        /// <summary><c>*** Add File</c>.</summary>
        Add = 0,
        /// <summary><c>*** Delete File</c>.</summary>
        Delete = 1,
        /// <summary><c>*** Update File</c>, with an optional <c>*** Move to</c>.</summary>
        Update = 2,
    }

    /// <summary>
    /// The class of a path as written in a patch. Only <see cref="Relative"/> is safe to write
    /// under a workspace root.
    /// </summary>
    public enum PathClass : uint
    {
        /// <summary>Relative, and stays inside the root (<c>src/a.rs</c>, <c>a/../b</c>).</summary>
        Relative = 0,
        /// <summary>Absolute (<c>/etc/passwd</c>, <c>\\server\share</c>).</summary>
        Absolute = 1,
        /// <summary>Relative but climbs out of the root with <c>..</c>.</summary>
        ParentEscape = 2,
        /// <summary>Empty or only whitespace.</summary>
        Empty = 3,
        /// <summary>Contains a NUL character.</summary>
        Nul = 4,
        /// <summary>Starts with a Windows drive prefix (<c>C:</c>).</summary>
        DrivePrefix = 5,
    }

    /// <summary>The tool-calling platform a tool definition is written for.</summary>
    public enum ToolFlavor : uint
    {
        /// <summary>OpenAI function calling (strict JSON Schema), Chat Completions layout (<c>{"type": "function", "function": {...}}</c>).</summary>
        OpenAIChat = 0,
        /// <summary>OpenAI custom (freeform) tool with a Lark grammar, Responses layout.</summary>
        OpenAIResponsesCustom = 1,
        /// <summary>Anthropic tool use.</summary>
        Anthropic = 2,
        /// <summary>Model Context Protocol.</summary>
        Mcp = 3,
        /// <summary>OpenAI function calling (strict JSON Schema), Responses layout (<c>{"type": "function", "name": ..., "strict": true}</c>).</summary>
        OpenAIResponses = 4,
    }

    /// <summary>The shape of a tool definition.</summary>
    public enum ToolShape : uint
    {
        /// <summary>The whole patch in one call (<c>input</c>), tool <c>apply_patch</c>.</summary>
        Input = 0,
        /// <summary>One file per call (<c>path</c>, <c>mode</c>, <c>diff</c>), tool <c>patch_file</c>.</summary>
        File = 1,
    }
}
