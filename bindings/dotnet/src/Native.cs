// The C ABI of include/v4a.h, declared for P/Invoke. Every signature is blittable: pointers,
// UIntPtr for size_t, uint for uint32_t, ulong for uint64_t, and structs made of those, so the
// runtime passes arguments as they are, with no marshalling stubs. Handles are IntPtr.
//
// Keep this file in step with the header: the layout tests (tests/LayoutTests.cs) check every
// struct's size and field offsets against the values tests/c/layout.h asserts in C.

#pragma warning disable 0649, 0169 // fields written by the native library, read through pointers

using System;
using System.Runtime.InteropServices;

namespace V4A
{
    /// <summary>A view of bytes owned by a native handle (<c>v4a_bytes</c>).</summary>
    [StructLayout(LayoutKind.Sequential)]
    internal unsafe struct V4ABytes
    {
        public byte* Ptr;
        public UIntPtr Len;
    }

    /// <summary><c>v4a_u32s</c>.</summary>
    [StructLayout(LayoutKind.Sequential)]
    internal unsafe struct V4AU32s
    {
        public uint* Ptr;
        public UIntPtr Len;
    }

    /// <summary><c>v4a_options</c>.</summary>
    [StructLayout(LayoutKind.Sequential)]
    internal struct V4AOptionsNative
    {
        public uint StructSize;
        public uint MaxLevel;
        public uint MaxFuzz;
        public uint FirstMatch;
        public uint AlreadyAppliedIsError;
        public uint EnsureFinalNewline;
        public uint AddFileLineEnding;
        public uint DiffStyle;
        public uint DiffContext;
        public uint Refine;
        public ulong SearchBudget;
        public ulong RefineMaxGraphemes;
        public ulong RefineMaxCost;
        public ulong RefineMaxPairLines;
    }

    /// <summary><c>v4a_line_pair</c>.</summary>
    [StructLayout(LayoutKind.Sequential)]
    internal struct V4ALinePairNative
    {
        public uint Deleted;
        public uint Added;
        public uint DeletedSegmentStart;
        public uint DeletedSegmentCount;
        public uint AddedSegmentStart;
        public uint AddedSegmentCount;
    }

    /// <summary><c>v4a_diff_columns</c>: the structured diff as arrays (<c>v4a_line_diff_columns</c>).</summary>
    [StructLayout(LayoutKind.Sequential)]
    internal unsafe struct V4ADiffColumnsNative
    {
        public UIntPtr Len;
        public byte* Kinds;
        public uint* OldLines;
        public uint* NewLines;
        public uint* Hunks;
        public UIntPtr* Starts;
        public UIntPtr* Ends;
        public uint* SegmentStarts;
        public uint* SegmentCounts;
        public V4ASegments Segments;
        public uint* Counts;
    }

    /// <summary><c>v4a_line_pairs</c>.</summary>
    [StructLayout(LayoutKind.Sequential)]
    internal unsafe struct V4ALinePairs
    {
        public V4ALinePairNative* Ptr;
        public UIntPtr Len;
    }

    /// <summary><c>v4a_generate_options</c>.</summary>
    [StructLayout(LayoutKind.Sequential)]
    internal struct V4AGenerateOptionsNative
    {
        public uint StructSize;
        public uint Context;
        public uint MaxContext;
    }

    /// <summary><c>v4a_error</c>.</summary>
    [StructLayout(LayoutKind.Sequential)]
    internal struct V4AErrorNative
    {
        public uint Status;
        public uint PatchLine;
        public uint Hunk;
        public uint ClosestStart;
        public uint ClosestEnd;
        public uint Reserved;
        public double ClosestSimilarity;
        public ulong ByteOffset;
        public V4ABytes Message;
        public V4ABytes Path;
        public V4ABytes Input;
        public V4ABytes Suggestion;
        public V4ABytes CorrectedHunk;
        public V4AU32s Candidates;
    }

    /// <summary><c>v4a_hunk_report</c>.</summary>
    [StructLayout(LayoutKind.Sequential)]
    internal struct V4AHunkReportNative
    {
        public uint OldStart;
        public uint OldLen;
        public uint NewStart;
        public uint NewLen;
        public uint Level;
        public uint Fuzz;
        public uint Candidates;
        public uint Flags;
        public uint PatchLine;
        public uint Reserved;
        public V4AU32s LineLevels;
    }

    /// <summary><c>v4a_hunk_reports</c>.</summary>
    [StructLayout(LayoutKind.Sequential)]
    internal unsafe struct V4AHunkReports
    {
        public V4AHunkReportNative* Ptr;
        public UIntPtr Len;
    }

    /// <summary><c>v4a_diff_line</c>.</summary>
    [StructLayout(LayoutKind.Sequential)]
    internal struct V4ADiffLineNative
    {
        public uint Kind;
        public uint Hunk;
        public uint OldLine;
        public uint NewLine;
        public V4ABytes Text;
        public UIntPtr SegmentStart;
        public UIntPtr SegmentCount;
    }

    /// <summary><c>v4a_diff_lines</c>.</summary>
    [StructLayout(LayoutKind.Sequential)]
    internal unsafe struct V4ADiffLines
    {
        public V4ADiffLineNative* Ptr;
        public UIntPtr Len;
    }

    /// <summary><c>v4a_segment</c>.</summary>
    [StructLayout(LayoutKind.Sequential)]
    internal struct V4ASegmentNative
    {
        public uint Kind;
        public uint Reserved;
        public UIntPtr Start;
        public UIntPtr End;
    }

    /// <summary><c>v4a_segments</c>.</summary>
    [StructLayout(LayoutKind.Sequential)]
    internal unsafe struct V4ASegments
    {
        public V4ASegmentNative* Ptr;
        public UIntPtr Len;
    }

    /// <summary><c>v4a_change</c>.</summary>
    [StructLayout(LayoutKind.Sequential)]
    internal struct V4AChangeNative
    {
        public uint OldStart;
        public uint OldLen;
        public uint NewStart;
        public uint NewLen;
        public uint Hunk;
    }

    /// <summary><c>v4a_changes</c>.</summary>
    [StructLayout(LayoutKind.Sequential)]
    internal unsafe struct V4AChanges
    {
        public V4AChangeNative* Ptr;
        public UIntPtr Len;
    }

    /// <summary><c>v4a_unified_diff_input</c>.</summary>
    [StructLayout(LayoutKind.Sequential)]
    internal struct V4AUnifiedDiffInput
    {
        public V4ABytes Source;
        public V4ABytes Text;
        public V4ABytes Path;
        public V4ABytes Destination;
        public V4AChanges Changes;
        public uint Context;
        public uint Reserved;
    }

    /// <summary><c>v4a_op</c>.</summary>
    [StructLayout(LayoutKind.Sequential)]
    internal struct V4AOpNative
    {
        public uint Kind;
        public uint PathClass;
        public uint MoveToClass;
        public uint PatchLine;
        public uint HunkCount;
        public uint Reserved;
        public V4ABytes Path;
        public V4ABytes MoveTo;
    }

    /// <summary><c>v4a_ops</c>.</summary>
    [StructLayout(LayoutKind.Sequential)]
    internal unsafe struct V4AOps
    {
        public V4AOpNative* Ptr;
        public UIntPtr Len;
    }

    /// <summary><c>v4a_source</c>.</summary>
    [StructLayout(LayoutKind.Sequential)]
    internal unsafe struct V4ASourceNative
    {
        public byte* Ptr;
        public UIntPtr Len;
        public uint Present;
        public uint Reserved;
    }

    /// <summary><c>v4a_file_result</c>.</summary>
    [StructLayout(LayoutKind.Sequential)]
    internal struct V4AFileResultNative
    {
        public uint Kind;
        public uint Reserved;
        public V4ABytes Path;
        public V4ABytes MoveTo;
        public IntPtr Result;
    }

    /// <summary><c>v4a_file_results</c>.</summary>
    [StructLayout(LayoutKind.Sequential)]
    internal unsafe struct V4AFileResults
    {
        public V4AFileResultNative* Ptr;
        public UIntPtr Len;
    }

    /// <summary>The exports of libv4a. Handles (<c>v4a_result*</c>, ...) are IntPtr.</summary>
    internal static unsafe partial class Native
    {
        /// <summary>
        /// The library name given to the runtime's native library loader: <c>libv4a</c>, which
        /// it finds as <c>libv4a.so</c> (Linux), <c>libv4a.dylib</c> (macOS) or <c>libv4a.dll</c>
        /// (Windows). Not <c>v4a</c>: on Windows that is <c>v4a.dll</c>, the managed
        /// <c>V4A.dll</c> to a case-insensitive file system (an application folder, Unity's
        /// Plugins folder). Cargo names the Windows library <c>v4a.dll</c>: the build and
        /// packaging copy it as <c>libv4a.dll</c> (V4A.csproj, test.sh). On iOS, Unity links the
        /// static library into the player and exports are found in the process itself.
        /// </summary>
#if UNITY_IOS && !UNITY_EDITOR
        internal const string Library = "__Internal";
#else
        internal const string Library = "libv4a";
#endif

        /// <summary>The ABI version these declarations describe (<c>V4A_ABI_VERSION</c>).</summary>
        internal const uint AbiVersion = 2;

        internal const uint NoFuzzLimit = uint.MaxValue;

        /// <summary><c>V4A_UNITS_UTF16</c>: offsets in UTF-16 code units, the indices of .NET strings.</summary>
        internal const uint UnitsUtf16 = 1;
        internal const ulong NoOffset = ulong.MaxValue;

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern byte* v4a_version();

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern uint v4a_abi_version();

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern byte* v4a_status_str(uint status);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern byte* v4a_status_category(uint status);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern byte* v4a_level_str(uint level);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern uint v4a_options_init(V4AOptionsNative* options);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern uint v4a_refine_lines(
            V4ABytes* deleted, UIntPtr deletedCount, V4ABytes* added, UIntPtr addedCount,
            V4AOptionsNative* options, uint units, IntPtr* refinementOut);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern void v4a_refinement_free(IntPtr refinement);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern uint v4a_refinement_status(IntPtr refinement);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern uint v4a_result_line_diff(IntPtr result, V4AOptionsNative* options, uint units, IntPtr* diffOut);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern void v4a_line_diff_free(IntPtr diff);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern V4AErrorNative* v4a_line_diff_error(IntPtr diff);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern V4ADiffColumnsNative v4a_line_diff_columns(IntPtr diff);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern V4AErrorNative* v4a_refinement_error(IntPtr refinement);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern V4ALinePairs v4a_refinement_pairs(IntPtr refinement);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern V4ASegments v4a_refinement_segments(IntPtr refinement);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern uint v4a_generate_options_init(V4AGenerateOptionsNative* options);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern uint v4a_apply(
            byte* source, UIntPtr sourceLen, byte* diff, UIntPtr diffLen, uint mode,
            V4AOptionsNative* options, IntPtr* resultOut);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern uint v4a_apply_mode_name(
            byte* source, UIntPtr sourceLen, byte* diff, UIntPtr diffLen, byte* modeName,
            UIntPtr modeNameLen, V4AOptionsNative* options, IntPtr* resultOut);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern uint v4a_apply_with_base(
            byte* source, UIntPtr sourceLen, byte* baseText, UIntPtr baseLen, byte* diff, UIntPtr diffLen,
            uint mode, V4AOptionsNative* options, IntPtr* resultOut);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern void v4a_result_free(IntPtr result);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern uint v4a_result_status(IntPtr result);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern V4AErrorNative* v4a_result_error(IntPtr result);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern V4ABytes v4a_result_text(IntPtr result);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern V4ABytes v4a_result_source(IntPtr result);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern V4ABytes v4a_result_path(IntPtr result);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern V4ABytes v4a_result_destination(IntPtr result);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern uint v4a_result_fuzz(IntPtr result);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern V4AHunkReports v4a_result_hunks(IntPtr result);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern V4ADiffLines v4a_result_diff(IntPtr result);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern V4ASegments v4a_result_segments(IntPtr result);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern V4AChanges v4a_result_changes(IntPtr result);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern uint v4a_result_unified_diff(IntPtr result, uint context, IntPtr* textOut);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern uint v4a_unified_diff(V4AUnifiedDiffInput* input, IntPtr* textOut);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern void v4a_text_free(IntPtr text);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern uint v4a_text_status(IntPtr text);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern V4ABytes v4a_text_bytes(IntPtr text);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern V4AErrorNative* v4a_text_error(IntPtr text);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern uint v4a_patch_parse(byte* patch, UIntPtr patchLen, IntPtr* patchOut);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern uint v4a_patch_parse_strict(byte* patch, UIntPtr patchLen, IntPtr* patchOut);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern void v4a_patch_free(IntPtr patch);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern uint v4a_patch_status(IntPtr patch);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern V4AErrorNative* v4a_patch_error(IntPtr patch);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern V4AOps v4a_patch_ops(IntPtr patch);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern uint v4a_patch_apply(
            IntPtr patch, V4ASourceNative* sources, UIntPtr sourcesLen, V4AOptionsNative* options,
            IntPtr* resultSetOut);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern uint v4a_patch_apply_with_bases(
            IntPtr patch, V4ASourceNative* sources, UIntPtr sourcesLen, V4ASourceNative* bases,
            UIntPtr basesLen, V4AOptionsNative* options, IntPtr* resultSetOut);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern void v4a_result_set_free(IntPtr resultSet);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern uint v4a_result_set_status(IntPtr resultSet);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern V4AErrorNative* v4a_result_set_error(IntPtr resultSet);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern V4AFileResults v4a_result_set_files(IntPtr resultSet);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern V4ABytes v4a_result_set_summary(IntPtr resultSet);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern uint v4a_patch_reverse(
            IntPtr patch, V4ASourceNative* sources, UIntPtr sourcesLen, V4AOptionsNative* options,
            IntPtr* textOut);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern uint v4a_classify_path(byte* path, UIntPtr pathLen, uint* classOut);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern uint v4a_make_patch(
            byte* oldText, UIntPtr oldLen, byte* newText, UIntPtr newLen, byte* path, UIntPtr pathLen,
            V4AGenerateOptionsNative* options, IntPtr* textOut);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern uint v4a_make_move_patch(
            byte* oldText, UIntPtr oldLen, byte* newText, UIntPtr newLen, byte* path, UIntPtr pathLen,
            byte* destination, UIntPtr destinationLen, V4AGenerateOptionsNative* options,
            IntPtr* textOut);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern uint v4a_make_add_patch(
            byte* path, UIntPtr pathLen, byte* text, UIntPtr textLen, IntPtr* textOut);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern uint v4a_make_delete_patch(byte* path, UIntPtr pathLen, IntPtr* textOut);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern uint v4a_normalize(byte* line, UIntPtr lineLen, uint level, IntPtr* textOut);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern V4ABytes v4a_tool_schema(uint flavor, uint shape);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern V4ABytes v4a_grammar();

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern V4ABytes v4a_file_grammar();

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern V4ABytes v4a_instructions();
    }
}
