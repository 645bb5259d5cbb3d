using System;
using System.Collections.Generic;
using System.Collections.ObjectModel;
using System.Text;
using System.Text.RegularExpressions;

namespace V4A
{
    /// <summary>
    /// The outcome of a successful apply: the new text, the original source and the reports,
    /// copied into managed memory (the native result is already freed). Immutable.
    /// </summary>
    public sealed class ApplyResult
    {
        private static readonly IReadOnlyList<HunkReport> NoHunks = new ReadOnlyCollection<HunkReport>(new HunkReport[0]);
        private static readonly IReadOnlyList<DiffLine> NoLines = new ReadOnlyCollection<DiffLine>(new DiffLine[0]);
        private static readonly IReadOnlyList<Change> NoChanges = new ReadOnlyCollection<Change>(new Change[0]);

        private ApplyResult() { }

        /// <summary>The new text (empty for a deleted file).</summary>
        public string Text { get; private set; }

        /// <summary>The original source, unchanged (empty for an added file): rolling back reads this one property.</summary>
        public string Source { get; private set; }

        /// <summary>The file's path as written in the patch; <c>null</c> for a bare diff.</summary>
        public string Path { get; private set; }

        /// <summary>The <c>*** Move to:</c> destination as written in the patch; <c>null</c> without one.</summary>
        public string Destination { get; private set; }

        /// <summary>The total fuzz of the file (the sum of its hunks'): 0 when every line matched exactly.</summary>
        public int Fuzz { get; private set; }

        /// <summary>One report per hunk, in patch order (empty for an added or a deleted file).</summary>
        public IReadOnlyList<HunkReport> Hunks { get; private set; }

        /// <summary>The structured line diff, when <see cref="ApplyOptions.Diff"/> asked for one (else empty).</summary>
        public IReadOnlyList<DiffLine> Lines { get; private set; }

        /// <summary>The edit script: every run of changed lines, in file order (always computed).</summary>
        public IReadOnlyList<Change> Changes { get; private set; }

        /// <summary>
        /// Renders the change as a unified diff with the library's default context,
        /// <see cref="ApplyOptions.DefaultDiffContext"/> lines (<c>V4A_DEFAULT_DIFF_CONTEXT</c>);
        /// see <see cref="GetUnifiedDiff(int)"/>.
        /// </summary>
        public string GetUnifiedDiff()
        {
            return GetUnifiedDiff(ApplyOptions.DefaultDiffContext);
        }

        /// <summary>
        /// Renders the change as a unified diff (<c>---</c>/<c>+++</c>/<c>@@ -a,b +c,d @@</c>)
        /// with <paramref name="context"/> lines of context (<see cref="GetUnifiedDiff()"/>: the
        /// library's default, <see cref="ApplyOptions.DefaultDiffContext"/>), for logs and review; empty when
        /// nothing changed. It is rendered on each call, never during the apply. The library
        /// renders it (<c>v4a_unified_diff</c>) from <see cref="Source"/>, <see cref="Text"/>,
        /// <see cref="Path"/>, <see cref="Destination"/> and <see cref="Changes"/>: the same text
        /// as its rendering of the live result. Each call encodes the two texts to UTF-8 again and
        /// the library splits both into lines, so it costs time proportional to the file.
        /// </summary>
        /// <exception cref="V4AInvalidArgumentException"><paramref name="context"/> is negative.</exception>
        public unsafe string GetUnifiedDiff(int context)
        {
            if (context < 0)
                throw V4AError.Argument("the unified diff's context must be at least 0, not " + context + ".").ToException();
            if (!Changed) return string.Empty; // what the library renders for an unchanged text
            Patch.EnsureLibrary();
            var changes = new V4AChangeNative[Changes.Count];
            for (int i = 0; i < changes.Length; i++)
            {
                Change c = Changes[i];
                changes[i] = new V4AChangeNative
                {
                    OldStart = (uint)c.OldStart,
                    OldLen = (uint)c.OldLength,
                    NewStart = (uint)c.NewStart,
                    NewLen = (uint)c.NewLength,
                    Hunk = (uint)c.Hunk,
                };
            }
            byte[] source = null, text = null;
            int sourceLength, textLength;
            try
            {
                // Both texts came from the library (or were encoded for it): valid UTF-16.
                Patch.ThrowIf(Utf8.EncodeRented(Source, "the source", out source, out sourceLength));
                Patch.ThrowIf(Utf8.EncodeRented(Text, "the text", out text, out textLength));
                byte[] path = Patch.Encode(Path, "the path"), destination = Patch.Encode(Destination, "the destination");
                IntPtr rendered = IntPtr.Zero;
                uint status;
                fixed (byte* ps = source)
                fixed (byte* pt = text)
                fixed (byte* pp = path)
                fixed (byte* pd = destination)
                fixed (V4AChangeNative* pc = changes)
                {
                    V4AUnifiedDiffInput input = new V4AUnifiedDiffInput();
                    input.Source.Ptr = sourceLength == 0 ? null : ps;
                    input.Source.Len = (UIntPtr)sourceLength;
                    input.Text.Ptr = textLength == 0 ? null : pt;
                    input.Text.Len = (UIntPtr)textLength;
                    input.Path.Ptr = pp;
                    input.Path.Len = (UIntPtr)path.Length;
                    input.Destination.Ptr = pd;
                    input.Destination.Len = (UIntPtr)destination.Length;
                    input.Changes.Ptr = pc;
                    input.Changes.Len = (UIntPtr)changes.Length;
                    input.Context = (uint)context;
                    status = Native.v4a_unified_diff(&input, &rendered);
                }
                return Patch.TakeText(status, rendered);
            }
            finally
            {
                Utf8.Return(text);
                Utf8.Return(source);
            }
        }

        /// <summary>Whether the new text differs from the source (compares the two strings).</summary>
        public bool Changed { get { return !string.Equals(Text, Source, StringComparison.Ordinal); } }

        /// <summary>
        /// The new text as UTF-8 bytes, exactly as the engine produced them (the text is always
        /// valid UTF-8, so this round trip is byte for byte): for writing the file.
        /// </summary>
        public byte[] GetTextBytes()
        {
            return Encoding.UTF8.GetBytes(Text);
        }

        /// <summary>
        /// Copies a successful native result. <paramref name="source"/> is the caller's source
        /// string when it has one: the native source is the same bytes, so when the lengths agree
        /// the string is reused instead of decoded again.
        /// </summary>
        internal static V4AError FromNative(IntPtr r, string source, int sourceBytes, out ApplyResult result)
        {
            return FromNative(r, source, sourceBytes, null, out result);
        }

        /// <summary>
        /// <see cref="FromNative(IntPtr, string, int, out ApplyResult)"/> for a result applied
        /// without a structured diff (<see cref="ApplyOptions.NativeForApply"/>): the diff that
        /// <paramref name="diffOptions"/> asks for is read as columns
        /// (<c>v4a_result_line_diff</c>, UTF-16 indices), each line's text a substring of
        /// <see cref="Text"/> or <see cref="Source"/>, instead of one native struct and one
        /// decoded string per line. <c>null</c>: read the result's own diff.
        /// </summary>
        internal static unsafe V4AError FromNative(IntPtr r, string source, int sourceBytes, ApplyOptions diffOptions, out ApplyResult result)
        {
            result = null;
            var a = new ApplyResult();
            a.Text = Utf8.Decode(Native.v4a_result_text(r));
            V4ABytes src = Native.v4a_result_source(r);
            a.Source = source != null && Utf8.Length(src.Len) == sourceBytes ? source : Utf8.Decode(src);
            a.Path = Utf8.DecodeOrNull(Native.v4a_result_path(r));
            a.Destination = Utf8.DecodeOrNull(Native.v4a_result_destination(r));
            a.Fuzz = checked((int)Native.v4a_result_fuzz(r));
            a.Hunks = ReadHunks(Native.v4a_result_hunks(r));
            if (diffOptions == null || diffOptions.Diff == DiffStyle.None)
            {
                a.Lines = ReadLines(Native.v4a_result_diff(r), Native.v4a_result_segments(r));
            }
            else
            {
                IReadOnlyList<DiffLine> lines;
                V4AError error = ReadColumns(r, diffOptions, a.Source, a.Text, out lines);
                if (error != null) return error;
                a.Lines = lines;
            }
            a.Changes = ReadChanges(Native.v4a_result_changes(r));
            result = a;
            return null;
        }

        private static unsafe IReadOnlyList<HunkReport> ReadHunks(V4AHunkReports v)
        {
            int n = Utf8.Length(v.Len);
            if (n == 0) return NoHunks;
            var hunks = new HunkReport[n];
            for (int i = 0; i < n; i++) hunks[i] = new HunkReport(v.Ptr + i);
            return new ReadOnlyCollection<HunkReport>(hunks);
        }

        private static unsafe IReadOnlyList<Change> ReadChanges(V4AChanges v)
        {
            int n = Utf8.Length(v.Len);
            if (n == 0) return NoChanges;
            var changes = new Change[n];
            for (int i = 0; i < n; i++) changes[i] = new Change(v.Ptr + i);
            return new ReadOnlyCollection<Change>(changes);
        }

        /// <summary>
        /// The structured diff of the live result <paramref name="r"/> in the style of
        /// <paramref name="options"/>, read from <c>v4a_result_line_diff</c>'s columns in UTF-16
        /// units: every line's text sliced out of <paramref name="source"/> (equal and deleted
        /// lines) or <paramref name="text"/> (added lines).
        /// </summary>
        private static unsafe V4AError ReadColumns(IntPtr r, ApplyOptions options, string source, string text, out IReadOnlyList<DiffLine> lines)
        {
            lines = NoLines;
            V4AOptionsNative o;
            V4AError error = options.ToNative(out o);
            if (error != null) return error;
            IntPtr d = IntPtr.Zero;
            try
            {
                uint status = Native.v4a_result_line_diff(r, &o, Native.UnitsUtf16, &d);
                if (d == IntPtr.Zero) return V4AError.InternalNoHandle();
                if (status != 0) return V4AError.FromNative(Native.v4a_line_diff_error(d), status);
                V4ADiffColumnsNative c = Native.v4a_line_diff_columns(d);
                int n = Utf8.Length(c.Len);
                if (n == 0) return null;
                int segmentTotal = Utf8.Length(c.Segments.Len);
                var list = new DiffLine[n];
                for (int i = 0; i < n; i++)
                {
                    var kind = (DiffKind)c.Kinds[i];
                    string side = kind == DiffKind.Add ? text : source;
                    int start = Utf8.Length(c.Starts[i]), end = Utf8.Length(c.Ends[i]);
                    if (start > end || end > side.Length)
                        throw new InvalidOperationException("v4a: a diff line lies outside its text");
                    string line = side.Substring(start, end - start);
                    list[i] = new DiffLine(kind, c.OldLines[i], c.NewLines[i], c.Hunks[i], line,
                        ColumnSegments(line, c.Segments.Ptr, segmentTotal, c.SegmentStarts[i], c.SegmentCounts[i]),
                        c.Counts == null ? 1 : checked((int)c.Counts[i]));
                }
                lines = new ReadOnlyCollection<DiffLine>(list);
                return null;
            }
            finally
            {
                Native.v4a_line_diff_free(d);
            }
        }

        /// <summary>
        /// The segments of one line of the columns, whose offsets are UTF-16 indices into
        /// <paramref name="line"/>; their UTF-8 offsets are counted from the line's text.
        /// </summary>
        private static unsafe IReadOnlyList<Segment> ColumnSegments(string line, V4ASegmentNative* segments, int segmentTotal, uint first, uint count)
        {
            if (count == 0) return DiffLine.NoSegments;
            if (first > segmentTotal || count > segmentTotal - first)
                throw new InvalidOperationException("v4a: a diff line's segments lie outside the result's segments");
            var list = new Segment[count];
            int atIndex = 0, atByte = 0;
            for (int k = 0; k < count; k++)
            {
                V4ASegmentNative* s = segments + first + k;
                int i0 = Utf8.Length(s->Start), i1 = Utf8.Length(s->End);
                if (i0 > i1 || i1 > line.Length)
                    throw new InvalidOperationException("v4a: a segment lies outside its line");
                if (i0 < atIndex) { atIndex = 0; atByte = 0; }
                int b0 = atByte + Encoding.UTF8.GetByteCount(line.ToCharArray(atIndex, i0 - atIndex));
                int b1 = b0 + Encoding.UTF8.GetByteCount(line.ToCharArray(i0, i1 - i0));
                atIndex = i1;
                atByte = b1;
                list[k] = new Segment((DiffKind)s->Kind, i0, i1, b0, b1, line.Substring(i0, i1 - i0));
            }
            return new ReadOnlyCollection<Segment>(list);
        }

        private static unsafe IReadOnlyList<DiffLine> ReadLines(V4ADiffLines v, V4ASegments segments)
        {
            int n = Utf8.Length(v.Len);
            if (n == 0) return NoLines;
            int segmentTotal = Utf8.Length(segments.Len);
            var lines = new DiffLine[n];
            for (int i = 0; i < n; i++) lines[i] = new DiffLine(v.Ptr + i, segments.Ptr, segmentTotal);
            return new ReadOnlyCollection<DiffLine>(lines);
        }
    }

    /// <summary>Where one hunk landed and how well it matched.</summary>
    public sealed class HunkReport
    {
        internal unsafe HunkReport(V4AHunkReportNative* h)
        {
            OldStart = checked((int)h->OldStart);
            OldLength = checked((int)h->OldLen);
            NewStart = checked((int)h->NewStart);
            NewLength = checked((int)h->NewLen);
            Level = (MatchLevel)h->Level;
            Fuzz = checked((int)h->Fuzz);
            Candidates = checked((int)h->Candidates);
            Flags = (HunkFlags)h->Flags;
            PatchLine = checked((int)h->PatchLine);
            int n = Utf8.Length(h->LineLevels.Len);
            var levels = new MatchLevel[n];
            for (int i = 0; i < n; i++) levels[i] = (MatchLevel)h->LineLevels.Ptr[i];
            LineLevels = new ReadOnlyCollection<MatchLevel>(levels);
        }

        /// <summary>First line (1-based) of the original text the hunk covers; for a pure insertion (<see cref="OldLength"/> 0), the line before which the new lines were inserted.</summary>
        public int OldStart { get; private set; }

        /// <summary>Number of original lines the hunk covers (context and removed).</summary>
        public int OldLength { get; private set; }

        /// <summary>First line (1-based) of the hunk in the new text.</summary>
        public int NewStart { get; private set; }

        /// <summary>Number of lines the hunk occupies in the new text (context and added).</summary>
        public int NewLength { get; private set; }

        /// <summary>The level its old side matched at.</summary>
        public MatchLevel Level { get; private set; }

        /// <summary>The hunk's fuzz: its level's, its anchors', and 1000 for an end-of-file hunk found elsewhere.</summary>
        public int Fuzz { get; private set; }

        /// <summary>Candidate places at the deciding level (more than 1 with <see cref="ApplyOptions.FirstMatch"/>, or when the patch makes the same edit in as many hunks as it has places, which then take one place each in file order).</summary>
        public int Candidates { get; private set; }

        /// <summary>Re-indented, already applied, end of file, out of order.</summary>
        public HunkFlags Flags { get; private set; }

        /// <summary>1-based patch line where the hunk starts.</summary>
        public int PatchLine { get; private set; }

        /// <summary>For each old-side line (context and removed, in order), the strictest level it matches at; for an already-applied hunk, the levels of its new side.</summary>
        public IReadOnlyList<MatchLevel> LineLevels { get; private set; }

        /// <summary>Added lines were re-indented to the file's indentation.</summary>
        public bool Reindented { get { return (Flags & HunkFlags.Reindented) != 0; } }

        /// <summary>The change was already present; nothing was changed.</summary>
        public bool AlreadyApplied { get { return (Flags & HunkFlags.AlreadyApplied) != 0; } }

        /// <summary>Placed at the end of the file.</summary>
        public bool EndOfFile { get { return (Flags & HunkFlags.EndOfFile) != 0; } }

        /// <summary>Found before the previous hunk (out of file order).</summary>
        public bool OutOfOrder { get { return (Flags & HunkFlags.OutOfOrder) != 0; } }

        /// <summary>Located in the base and merged into the current text (<see cref="HunkFlags.Merged"/>).</summary>
        public bool Merged { get { return (Flags & HunkFlags.Merged) != 0; } }

        /// <summary>The hunk's anchors did not help and were set aside (<see cref="HunkFlags.AnchorIgnored"/>).</summary>
        public bool AnchorIgnored { get { return (Flags & HunkFlags.AnchorIgnored) != 0; } }

        /// <summary>Found only with some context lines relaxed (<see cref="HunkFlags.ContextRelaxed"/>).</summary>
        public bool ContextRelaxed { get { return (Flags & HunkFlags.ContextRelaxed) != 0; } }
    }

    /// <summary>One entry of the structured line diff.</summary>
    public sealed class DiffLine
    {
        internal static readonly IReadOnlyList<Segment> NoSegments = new ReadOnlyCollection<Segment>(new Segment[0]);

        /// <summary>A line read from the columns of a line diff (0: no line number, no hunk).</summary>
        internal DiffLine(DiffKind kind, uint oldLine, uint newLine, uint hunk, string text, IReadOnlyList<Segment> segments, int count)
        {
            Kind = kind;
            if (hunk != 0) Hunk = checked((int)hunk);
            if (oldLine != 0) OldLine = checked((int)oldLine);
            if (newLine != 0) NewLine = checked((int)newLine);
            Text = text;
            Segments = segments;
            Count = count;
        }

        /// <summary>Line <paramref name="j"/> of the run <paramref name="run"/>, whose text is <paramref name="text"/>.</summary>
        private DiffLine(DiffLine run, int j, string text)
        {
            Kind = run.Kind;
            Hunk = run.Hunk;
            OldLine = run.OldLine + j;
            NewLine = run.NewLine + j;
            Text = text;
            Segments = j == 0 ? run.Segments : NoSegments;
            Count = 1;
        }

        /// <summary>
        /// The lines of a <see cref="DiffStyle.Runs"/> diff as <see cref="DiffStyle.Full"/> gives
        /// them: each run of equal lines split at its terminators (LF, CRLF, lone CR) into one
        /// line each with consecutive line numbers; the other entries as they are.
        /// </summary>
        public static IReadOnlyList<DiffLine> ExpandRuns(IEnumerable<DiffLine> diff)
        {
            var list = new List<DiffLine>();
            foreach (DiffLine d in diff)
            {
                if (d.Count <= 1)
                {
                    list.Add(d);
                    continue;
                }
                string[] texts = Regex.Split(d.Text, "\r\n|\r|\n");
                for (int j = 0; j < d.Count; j++) list.Add(new DiffLine(d, j, j < texts.Length ? texts[j] : ""));
            }
            return new ReadOnlyCollection<DiffLine>(list);
        }

        internal unsafe DiffLine(V4ADiffLineNative* l, V4ASegmentNative* segments, int segmentTotal)
        {
            Kind = (DiffKind)l->Kind;
            if (l->Hunk != 0) Hunk = checked((int)l->Hunk);
            if (l->OldLine != 0) OldLine = checked((int)l->OldLine);
            if (l->NewLine != 0) NewLine = checked((int)l->NewLine);
            Text = Utf8.Decode(l->Text);
            Count = 1;
            int count = Utf8.Length(l->SegmentCount);
            if (count == 0)
            {
                Segments = NoSegments;
                return;
            }
            int start = Utf8.Length(l->SegmentStart);
            if (start > segmentTotal || count > segmentTotal - start)
                throw new InvalidOperationException("v4a: a diff line's segments lie outside the result's segments");
            int textBytes = Utf8.Length(l->Text.Len);
            var list = new Segment[count];
            // Walk the line's bytes once, converting each byte offset to a UTF-16 index.
            int atByte = 0, atIndex = 0;
            for (int k = 0; k < count; k++)
            {
                V4ASegmentNative* s = segments + start + k;
                int b0 = Utf8.Length(s->Start), b1 = Utf8.Length(s->End);
                if (b0 > b1 || b1 > textBytes)
                    throw new InvalidOperationException("v4a: a segment lies outside its line");
                if (b0 < atByte) { atByte = 0; atIndex = 0; }
                int i0 = Utf8.Utf16Index(l->Text.Ptr, atByte, atIndex, b0);
                int i1 = Utf8.Utf16Index(l->Text.Ptr, b0, i0, b1);
                atByte = b1;
                atIndex = i1;
                list[k] = new Segment((DiffKind)s->Kind, i0, i1, b0, b1, Text.Substring(i0, i1 - i0));
            }
            Segments = new ReadOnlyCollection<Segment>(list);
        }

        /// <summary><see cref="DiffKind.Equal"/>, <see cref="DiffKind.Delete"/> or <see cref="DiffKind.Add"/>.</summary>
        public DiffKind Kind { get; private set; }

        /// <summary>1-based line in the original text; <c>null</c> for an added line.</summary>
        public int? OldLine { get; private set; }

        /// <summary>1-based line in the new text; <c>null</c> for a deleted line.</summary>
        public int? NewLine { get; private set; }

        /// <summary>1-based number of the hunk the line belongs to (changed lines and a hunk's context lines); <c>null</c> for none.</summary>
        public int? Hunk { get; private set; }

        /// <summary>The line's text, terminator excluded.</summary>
        public string Text { get; private set; }

        /// <summary>
        /// Character-level segments covering <see cref="Text"/> when <see cref="ApplyOptions.Refine"/>
        /// asked for them; empty when the line is unchanged or unpaired, or refinement was not
        /// requested or exceeded its limits.
        /// </summary>
        public IReadOnlyList<Segment> Segments { get; private set; }

        /// <summary>
        /// The number of lines the entry stands for: 1, except for an equal entry of a
        /// <see cref="DiffStyle.Runs"/> diff, a whole run of equal lines — original lines
        /// <see cref="OldLine"/> to <see cref="OldLine"/> + Count − 1, new lines from
        /// <see cref="NewLine"/> — whose <see cref="Text"/> runs from the first line's start to
        /// the last line's end: the terminators between them included (LF, CRLF or lone CR, as
        /// in the file), the last one's excluded. <see cref="ExpandRuns"/> splits it.
        /// </summary>
        public int Count { get; private set; }

        /// <summary>The line as a diff would show it: <c>' '</c>, <c>'-'</c> or <c>'+'</c>, then the text.</summary>
        public override string ToString()
        {
            return (Kind == DiffKind.Delete ? "-" : Kind == DiffKind.Add ? "+" : " ") + Text;
        }
    }

    /// <summary>
    /// A character-level change of part of a line. <see cref="Start"/> and <see cref="End"/>
    /// are .NET string (UTF-16) indices into <see cref="DiffLine.Text"/>, converted from the
    /// native UTF-8 byte offsets (kept in <see cref="Utf8Start"/> and <see cref="Utf8End"/>).
    /// Segments fall on grapheme-cluster boundaries: a surrogate pair, an emoji with its
    /// modifiers or a combining accent is never split.
    /// </summary>
    public sealed class Segment
    {
        internal Segment(DiffKind kind, int start, int end, int utf8Start, int utf8End, string text)
        {
            Kind = kind;
            Start = start;
            End = end;
            Utf8Start = utf8Start;
            Utf8End = utf8End;
            Text = text;
        }

        /// <summary><see cref="DiffKind.Equal"/>, <see cref="DiffKind.Delete"/> or <see cref="DiffKind.Add"/>.</summary>
        public DiffKind Kind { get; private set; }

        /// <summary>Start index (UTF-16 code units) in the line's text.</summary>
        public int Start { get; private set; }

        /// <summary>End index (exclusive, UTF-16 code units) in the line's text.</summary>
        public int End { get; private set; }

        /// <summary><see cref="End"/> minus <see cref="Start"/>.</summary>
        public int Length { get { return End - Start; } }

        /// <summary>Start byte offset in the line's UTF-8 text, as the C ABI reports it.</summary>
        public int Utf8Start { get; private set; }

        /// <summary>End byte offset (exclusive) in the line's UTF-8 text.</summary>
        public int Utf8End { get; private set; }

        /// <summary>The segment's text: <c>line.Text.Substring(Start, Length)</c>.</summary>
        public string Text { get; private set; }
    }

    /// <summary>A run of changed lines: <see cref="OldLength"/> original lines from <see cref="OldStart"/> were replaced by <see cref="NewLength"/> new lines from <see cref="NewStart"/>.</summary>
    public sealed class Change
    {
        internal unsafe Change(V4AChangeNative* c)
        {
            OldStart = checked((int)c->OldStart);
            OldLength = checked((int)c->OldLen);
            NewStart = checked((int)c->NewStart);
            NewLength = checked((int)c->NewLen);
            Hunk = checked((int)c->Hunk);
        }

        /// <summary>First removed line of the original text (1-based, BOM excluded); for a pure insertion, the line before which lines were added.</summary>
        public int OldStart { get; private set; }

        /// <summary>Number of removed lines.</summary>
        public int OldLength { get; private set; }

        /// <summary>First added line of the new text (1-based); for a pure deletion, the line the removed lines would have preceded.</summary>
        public int NewStart { get; private set; }

        /// <summary>Number of added lines.</summary>
        public int NewLength { get; private set; }

        /// <summary>1-based number of the hunk that made the change.</summary>
        public int Hunk { get; private set; }
    }
}
