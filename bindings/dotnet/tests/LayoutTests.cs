using System;
using System.Runtime.InteropServices;
using Xunit;

namespace V4A.Tests
{
    /// <summary>
    /// The P/Invoke structs have the sizes and field offsets of include/v4a.h (the values
    /// tests/c/layout.h asserts in C), on 32- and 64-bit processes alike (P = pointer size).
    /// </summary>
    public class LayoutTests
    {
        private static readonly int P = IntPtr.Size;

        private static void Size<T>(int expected) where T : struct
        {
            Assert.Equal(expected, Marshal.SizeOf(typeof(T)));
        }

        private static void Offset<T>(string field, int expected) where T : struct
        {
            Assert.Equal(expected, (int)Marshal.OffsetOf(typeof(T), field));
        }

        [Fact]
        public void PointerSizedFields()
        {
            Assert.Equal(P, UIntPtr.Size);
            unsafe
            {
                Assert.Equal(2 * P, sizeof(V4ABytes));
                Assert.Equal(72, sizeof(V4AOptionsNative));
                Assert.Equal(40 + 12 * P, sizeof(V4AErrorNative));
                Assert.Equal(16 + 4 * P, sizeof(V4ADiffLineNative));
                Assert.Equal(8 + 5 * P, sizeof(V4AFileResultNative));
            }
        }

        [Fact]
        public void Views()
        {
            Size<V4ABytes>(2 * P);
            Offset<V4ABytes>("Ptr", 0);
            Offset<V4ABytes>("Len", P);
            Size<V4AU32s>(2 * P);
            Offset<V4AU32s>("Len", P);
            Size<V4AHunkReports>(2 * P);
            Offset<V4AHunkReports>("Len", P);
            Size<V4ADiffLines>(2 * P);
            Offset<V4ADiffLines>("Len", P);
            Size<V4ASegments>(2 * P);
            Offset<V4ASegments>("Len", P);
            Size<V4AChanges>(2 * P);
            Offset<V4AChanges>("Len", P);
            Size<V4AOps>(2 * P);
            Offset<V4AOps>("Len", P);
            Size<V4AFileResults>(2 * P);
            Offset<V4AFileResults>("Len", P);
        }

        [Fact]
        public void Source()
        {
            Size<V4ASourceNative>(2 * P + 8);
            Offset<V4ASourceNative>("Ptr", 0);
            Offset<V4ASourceNative>("Len", P);
            Offset<V4ASourceNative>("Present", 2 * P);
            Offset<V4ASourceNative>("Reserved", 2 * P + 4);
        }

        [Fact]
        public void Options()
        {
            Size<V4AOptionsNative>(72);
            string[] fields = { "StructSize", "MaxLevel", "MaxFuzz", "FirstMatch", "AlreadyAppliedIsError", "EnsureFinalNewline", "AddFileLineEnding", "DiffStyle", "DiffContext", "Refine", "SearchBudget" };
            for (int i = 0; i < fields.Length; i++) Offset<V4AOptionsNative>(fields[i], 4 * i);
            Offset<V4AOptionsNative>("RefineMaxGraphemes", 48);
            Offset<V4AOptionsNative>("RefineMaxCost", 56);
            Offset<V4AOptionsNative>("RefineMaxPairLines", 64);
            Size<V4ALinePairNative>(24);
            Size<V4ADiffColumnsNative>(12 * P);
            Offset<V4ADiffColumnsNative>("Counts", 11 * P);
            Offset<V4ADiffColumnsNative>("Segments", 9 * P);
            string[] pair = { "Deleted", "Added", "DeletedSegmentStart", "DeletedSegmentCount", "AddedSegmentStart", "AddedSegmentCount" };
            for (int i = 0; i < pair.Length; i++) Offset<V4ALinePairNative>(pair[i], 4 * i);
            Size<V4AGenerateOptionsNative>(12);
            Offset<V4AGenerateOptionsNative>("StructSize", 0);
            Offset<V4AGenerateOptionsNative>("Context", 4);
            Offset<V4AGenerateOptionsNative>("MaxContext", 8);
        }

        [Fact]
        public void Error()
        {
            Size<V4AErrorNative>(40 + 12 * P);
            Offset<V4AErrorNative>("Status", 0);
            Offset<V4AErrorNative>("PatchLine", 4);
            Offset<V4AErrorNative>("Hunk", 8);
            Offset<V4AErrorNative>("ClosestStart", 12);
            Offset<V4AErrorNative>("ClosestEnd", 16);
            Offset<V4AErrorNative>("Reserved", 20);
            Offset<V4AErrorNative>("ClosestSimilarity", 24);
            Offset<V4AErrorNative>("ByteOffset", 32);
            Offset<V4AErrorNative>("Message", 40);
            Offset<V4AErrorNative>("Path", 40 + 2 * P);
            Offset<V4AErrorNative>("Input", 40 + 4 * P);
            Offset<V4AErrorNative>("Suggestion", 40 + 6 * P);
            Offset<V4AErrorNative>("CorrectedHunk", 40 + 8 * P);
            Offset<V4AErrorNative>("Candidates", 40 + 10 * P);
        }

        [Fact]
        public void DiffLineAndSegment()
        {
            Size<V4ASegmentNative>(8 + 2 * P);
            Offset<V4ASegmentNative>("Kind", 0);
            Offset<V4ASegmentNative>("Reserved", 4);
            Offset<V4ASegmentNative>("Start", 8);
            Offset<V4ASegmentNative>("End", 8 + P);
            Size<V4ADiffLineNative>(16 + 4 * P);
            Offset<V4ADiffLineNative>("Kind", 0);
            Offset<V4ADiffLineNative>("Hunk", 4);
            Offset<V4ADiffLineNative>("OldLine", 8);
            Offset<V4ADiffLineNative>("NewLine", 12);
            Offset<V4ADiffLineNative>("Text", 16);
            Offset<V4ADiffLineNative>("SegmentStart", 16 + 2 * P);
            Offset<V4ADiffLineNative>("SegmentCount", 16 + 3 * P);
        }

        [Fact]
        public void HunkReportAndChange()
        {
            Size<V4AHunkReportNative>(40 + 2 * P);
            string[] fields = { "OldStart", "OldLen", "NewStart", "NewLen", "Level", "Fuzz", "Candidates", "Flags", "PatchLine", "Reserved", "LineLevels" };
            for (int i = 0; i < fields.Length; i++) Offset<V4AHunkReportNative>(fields[i], 4 * i);
            Size<V4AChangeNative>(20);
            string[] change = { "OldStart", "OldLen", "NewStart", "NewLen", "Hunk" };
            for (int i = 0; i < change.Length; i++) Offset<V4AChangeNative>(change[i], 4 * i);
        }

        [Fact]
        public void OpAndFileResult()
        {
            Size<V4AOpNative>(24 + 4 * P);
            string[] fields = { "Kind", "PathClass", "MoveToClass", "PatchLine", "HunkCount", "Reserved" };
            for (int i = 0; i < fields.Length; i++) Offset<V4AOpNative>(fields[i], 4 * i);
            Offset<V4AOpNative>("Path", 24);
            Offset<V4AOpNative>("MoveTo", 24 + 2 * P);
            Size<V4AFileResultNative>(8 + 5 * P);
            Offset<V4AFileResultNative>("Kind", 0);
            Offset<V4AFileResultNative>("Reserved", 4);
            Offset<V4AFileResultNative>("Path", 8);
            Offset<V4AFileResultNative>("MoveTo", 8 + 2 * P);
            Offset<V4AFileResultNative>("Result", 8 + 4 * P);
        }

        [Fact]
        public void WorkspaceStructs()
        {
            Size<V4AWorkspaceOptionsNative>(24 + P);
            string[] fields = { "StructSize", "DryRun", "AllowOverwrite", "AllowReadOnly", "AllowVcs", "LockWaitMs", "Engine" };
            for (int i = 0; i < fields.Length; i++) Offset<V4AWorkspaceOptionsNative>(fields[i], 4 * i);
            Size<V4AWorkspaceFileNative>(16 + 9 * P);
            string[] file = { "Kind", "Change", "Binary", "Reserved" };
            for (int i = 0; i < file.Length; i++) Offset<V4AWorkspaceFileNative>(file[i], 4 * i);
            Offset<V4AWorkspaceFileNative>("Path", 16);
            Offset<V4AWorkspaceFileNative>("MoveTo", 16 + 2 * P);
            Offset<V4AWorkspaceFileNative>("SourceKey", 16 + 4 * P);
            Offset<V4AWorkspaceFileNative>("TargetKey", 16 + 6 * P);
            Offset<V4AWorkspaceFileNative>("Result", 16 + 8 * P);
            Size<V4AWorkspaceFiles>(2 * P);
            Offset<V4AWorkspaceFiles>("Len", P);
            Size<V4ABytesList>(2 * P);
            Offset<V4ABytesList>("Len", P);
            var o = new V4AWorkspaceOptionsNative();
            unsafe { Native.v4a_workspace_options_init(&o); }
            Assert.Equal((uint)Marshal.SizeOf(typeof(V4AWorkspaceOptionsNative)), o.StructSize);
            Assert.Equal(5000u, o.LockWaitMs);
        }

        [Fact]
        public void OptionsStructSizeIsWhatTheLibraryWrites()
        {
            var o = new V4AOptionsNative();
            var g = new V4AGenerateOptionsNative();
            unsafe
            {
                Native.v4a_options_init(&o);
                Native.v4a_generate_options_init(&g);
            }
            Assert.Equal((uint)Marshal.SizeOf(typeof(V4AOptionsNative)), o.StructSize);
            Assert.Equal((uint)Marshal.SizeOf(typeof(V4AGenerateOptionsNative)), g.StructSize);
        }
    }
}
