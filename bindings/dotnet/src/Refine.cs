// Refinement as a call of its own: the character-level segments of any block of deleted and
// added lines (an editor's own diff, not only a patch's), and the limits of the refinement.

using System;
using System.Collections.Generic;

namespace V4A
{
    /// <summary>
    /// Limits of the character-level refinement; past one, a pair of lines is a whole-line
    /// change. A new instance holds the library's defaults (<c>v4a_options_init</c>).
    /// </summary>
    public sealed class RefineLimits
    {
        internal static readonly RefineLimits Default = new RefineLimits();

        /// <summary>Creates limits holding the library's defaults.</summary>
        public RefineLimits()
        {
            V4AOptionsNative d = ApplyOptions.NativeDefaults;
            MaxGraphemes = checked((long)d.RefineMaxGraphemes);
            MaxCost = checked((long)d.RefineMaxCost);
            MaxPairLines = checked((long)d.RefineMaxPairLines);
        }

        internal static RefineLimits FromNative(V4AOptionsNative d)
        {
            return new RefineLimits
            {
                MaxGraphemes = checked((long)d.RefineMaxGraphemes),
                MaxCost = checked((long)d.RefineMaxCost),
                MaxPairLines = checked((long)d.RefineMaxPairLines),
            };
        }

        /// <summary>The longest line, in grapheme clusters, whose pair is refined. Default 200,000.</summary>
        public long MaxGraphemes { get; set; }

        /// <summary>The work budget of one pair, in estimated cluster comparisons. Default 8,000,000.</summary>
        public long MaxCost { get; set; }

        /// <summary>Blocks of more than <c>MaxPairLines²</c> deleted-times-added lines are paired by position instead of by similarity. Default 200.</summary>
        public long MaxPairLines { get; set; }

        /// <summary>A copy of these limits.</summary>
        public RefineLimits Clone()
        {
            return (RefineLimits)MemberwiseClone();
        }

        internal V4AError ToNative(ref V4AOptionsNative native)
        {
            if (MaxGraphemes < 0 || MaxCost < 0 || MaxPairLines < 0)
                return V4AError.Argument("RefineLimits must be at least 0, not MaxGraphemes " + MaxGraphemes
                    + ", MaxCost " + MaxCost + ", MaxPairLines " + MaxPairLines + ".");
            native.RefineMaxGraphemes = (ulong)MaxGraphemes;
            native.RefineMaxCost = (ulong)MaxCost;
            native.RefineMaxPairLines = (ulong)MaxPairLines;
            return null;
        }
    }

    /// <summary>A deleted line paired with an added line by <see cref="Patch.RefineLines"/>, with the segments of both.</summary>
    public sealed class LinePair
    {
        internal LinePair(int deleted, int added, IReadOnlyList<Segment> deletedSegments, IReadOnlyList<Segment> addedSegments)
        {
            Deleted = deleted;
            Added = added;
            DeletedSegments = deletedSegments;
            AddedSegments = addedSegments;
        }

        /// <summary>Index of the deleted line in the deleted lines given.</summary>
        public int Deleted { get; private set; }

        /// <summary>Index of the added line in the added lines given.</summary>
        public int Added { get; private set; }

        /// <summary>The deleted line's segments (kinds equal and delete), covering it.</summary>
        public IReadOnlyList<Segment> DeletedSegments { get; private set; }

        /// <summary>The added line's segments (kinds equal and add), covering it.</summary>
        public IReadOnlyList<Segment> AddedSegments { get; private set; }
    }

    public sealed partial class Patch
    {
        /// <summary>
        /// Refines a block of deleted lines replaced by added lines, from any line diff (an
        /// editor's own, not only a patch's): pairs the lines by similarity and diffs each pair
        /// at grapheme-cluster boundaries, within <paramref name="limits"/> (<c>null</c>: the
        /// defaults) — the segments <see cref="Apply(string, string, ApplyMode, ApplyOptions)"/>
        /// with <see cref="ApplyOptions.Refine"/> gives the same block. Lines are given without
        /// their terminators; <c>null</c> is the empty line. Lines in no pair are whole-line changes.
        /// </summary>
        /// <exception cref="V4AException">A line with a lone surrogate (not UTF-16), or limits below 0.</exception>
        public static IReadOnlyList<LinePair> RefineLines(IList<string> deleted, IList<string> added, RefineLimits limits = null)
        {
            if (deleted == null) throw new ArgumentNullException("deleted");
            if (added == null) throw new ArgumentNullException("added");
            EnsureLibrary();
            V4AOptionsNative options = ApplyOptions.NativeDefaults;
            V4AError error = (limits ?? RefineLimits.Default).ToNative(ref options);
            if (error != null) throw error.ToException();
            int n = deleted.Count, m = added.Count;
            var bytes = new byte[n + m][];
            var texts = new string[n + m];
            for (int i = 0; i < n + m; i++)
            {
                string line = i < n ? deleted[i] : added[i - n];
                texts[i] = line ?? string.Empty;
                error = Utf8.Encode(texts[i], i < n ? "deleted[" + i + "]" : "added[" + (i - n) + "]", out bytes[i]);
                if (error != null) throw error.ToException();
            }
            var views = new V4ABytes[Math.Max(1, n + m)];
            var handles = new System.Runtime.InteropServices.GCHandle[n + m];
            IntPtr refinement = IntPtr.Zero;
            try
            {
                unsafe
                {
                    for (int i = 0; i < n + m; i++)
                    {
                        handles[i] = System.Runtime.InteropServices.GCHandle.Alloc(bytes[i] ?? new byte[0], System.Runtime.InteropServices.GCHandleType.Pinned);
                        views[i].Ptr = bytes[i] == null || bytes[i].Length == 0 ? null : (byte*)handles[i].AddrOfPinnedObject();
                        views[i].Len = (UIntPtr)(bytes[i] == null ? 0 : bytes[i].Length);
                    }
                    fixed (V4ABytes* v = views)
                    {
                        uint status = Native.v4a_refine_lines(n == 0 ? null : v, (UIntPtr)n, m == 0 ? null : v + n, (UIntPtr)m,
                            &options, 0 /* V4A_UNITS_BYTES: UTF-16 indices are computed here with the UTF-8 offsets */, &refinement);
                        if (refinement == IntPtr.Zero) throw V4AError.FromNative(null, status).ToException();
                        if (status != 0) throw V4AError.FromNative(Native.v4a_refinement_error(refinement), status).ToException();
                        V4ALinePairs pairs = Native.v4a_refinement_pairs(refinement);
                        V4ASegments segs = Native.v4a_refinement_segments(refinement);
                        int count = Utf8.Length(pairs.Len), total = Utf8.Length(segs.Len);
                        var result = new LinePair[count];
                        for (int k = 0; k < count; k++)
                        {
                            V4ALinePairNative* p = pairs.Ptr + k;
                            int d = (int)p->Deleted, a = (int)p->Added;
                            if (d >= n || a >= m) throw new InvalidOperationException("v4a: a pair names a line outside the block");
                            result[k] = new LinePair(d, a,
                                Segments(views[d], texts[d], segs.Ptr, total, p->DeletedSegmentStart, p->DeletedSegmentCount),
                                Segments(views[n + a], texts[n + a], segs.Ptr, total, p->AddedSegmentStart, p->AddedSegmentCount));
                        }
                        return result;
                    }
                }
            }
            finally
            {
                if (refinement != IntPtr.Zero) Native.v4a_refinement_free(refinement);
                for (int i = 0; i < handles.Length; i++) if (handles[i].IsAllocated) handles[i].Free();
            }
        }

        private static unsafe Segment[] Segments(V4ABytes line, string text, V4ASegmentNative* all, int total, uint first, uint count)
        {
            if (first > total || count > total - first)
                throw new InvalidOperationException("v4a: a pair's segments lie outside the refinement's segments");
            var list = new Segment[count];
            int textBytes = Utf8.Length(line.Len), atByte = 0, atIndex = 0;
            for (int k = 0; k < count; k++)
            {
                V4ASegmentNative* s = all + first + k;
                int b0 = Utf8.Length(s->Start), b1 = Utf8.Length(s->End);
                if (b0 > b1 || b1 > textBytes) throw new InvalidOperationException("v4a: a segment lies outside its line");
                if (b0 < atByte) { atByte = 0; atIndex = 0; }
                int i0 = Utf8.Utf16Index(line.Ptr, atByte, atIndex, b0);
                int i1 = Utf8.Utf16Index(line.Ptr, b0, i0, b1);
                atByte = b1;
                atIndex = i1;
                list[k] = new Segment((DiffKind)s->Kind, i0, i1, b0, b1, text.Substring(i0, i1 - i0));
            }
            return list;
        }
    }
}
