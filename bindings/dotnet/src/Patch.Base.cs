using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;

namespace V4A
{
    /// <summary>Base-aware apply: the diff was written against the text the model saw.</summary>
    public sealed partial class Patch
    {
        // ---------------------------------------------------------------------------------
        // Single file
        // ---------------------------------------------------------------------------------

        /// <summary>
        /// <see cref="Apply(string, string, ApplyMode, ApplyOptions)"/> for a diff written
        /// against <paramref name="baseText"/>, the text the model saw (what the read tool
        /// returned), applied to <paramref name="source"/>, the text as it is now. The hunks
        /// are located in the base (the usual levels and rules apply there) and the change is
        /// carried into the source by a three-way merge; those hunks report
        /// <see cref="HunkReport.Merged"/>, with their ranges in the source. When the base
        /// equals the source, the result is exactly <c>Apply</c>'s. An empty (or <c>null</c>)
        /// base is a base: the model saw an empty file; without a base, call <c>Apply</c>.
        /// Modes create and delete do not use the base.
        /// </summary>
        /// <exception cref="V4AConflictException">A hunk changes lines that the source also changed since the base; the message shows the three versions and says how to resend the hunk.</exception>
        /// <exception cref="V4AException">Any other failure, as for <c>Apply</c> (a hunk found in neither text says that the file changed since the model read it).</exception>
        public static ApplyResult ApplyWithBase(string source, string baseText, string diff, ApplyMode mode, ApplyOptions options = null)
        {
            ApplyResult result;
            V4AError error;
            if (!TryApplyWithBase(source, baseText, diff, mode, options, out result, out error)) throw error.ToException();
            return result;
        }

        /// <summary><see cref="ApplyWithBase(string, string, string, ApplyMode, ApplyOptions)"/> over UTF-8 bytes (<c>null</c> is empty).</summary>
        public static ApplyResult ApplyWithBase(byte[] source, byte[] baseText, byte[] diff, ApplyMode mode, ApplyOptions options = null)
        {
            ApplyResult result;
            V4AError error;
            if (!TryApplyWithBase(source, baseText, diff, mode, options, out result, out error)) throw error.ToException();
            return result;
        }

        /// <summary><see cref="ApplyWithBase(string, string, string, ApplyMode, ApplyOptions)"/> without exceptions: <c>false</c> with the error (a conflict included).</summary>
        public static bool TryApplyWithBase(string source, string baseText, string diff, ApplyMode mode, ApplyOptions options, out ApplyResult result, out V4AError error)
        {
            result = null;
            byte[] s, b = null, d = null;
            error = Utf8.Encode(source, "the source", out s);
            if (error == null) error = Utf8.Encode(baseText, "the base", out b);
            if (error == null) error = Utf8.Encode(diff, "the diff", out d);
            if (error != null) return false;
            error = ApplyWithBaseCore(s, source, b, d, (uint)mode, options, out result);
            return error == null;
        }

        /// <summary><see cref="TryApplyWithBase(string, string, string, ApplyMode, ApplyOptions, out ApplyResult, out V4AError)"/> over UTF-8 bytes.</summary>
        public static bool TryApplyWithBase(byte[] source, byte[] baseText, byte[] diff, ApplyMode mode, ApplyOptions options, out ApplyResult result, out V4AError error)
        {
            error = ApplyWithBaseCore(source ?? Utf8.Empty, null, baseText ?? Utf8.Empty, diff ?? Utf8.Empty, (uint)mode, options, out result);
            return error == null;
        }

        /// <summary>Pins the inputs, calls <c>v4a_apply_with_base</c>, copies the result and frees it.</summary>
        private static unsafe V4AError ApplyWithBaseCore(byte[] source, string sourceString, byte[] baseText, byte[] diff, uint mode, ApplyOptions options, out ApplyResult result)
        {
            result = null;
            EnsureLibrary();
            if (options == null) options = ApplyOptions.Default;
            V4AOptionsNative o;
            V4AError error = options.NativeForApply(out o);
            if (error != null) return error;
            IntPtr r = IntPtr.Zero;
            try
            {
                uint status;
                // fixed gives NULL for an empty array: (NULL, 0), the empty input.
                fixed (byte* s = source)
                fixed (byte* b = baseText)
                fixed (byte* d = diff)
                {
                    status = Native.v4a_apply_with_base(
                        s, (UIntPtr)source.Length, b, (UIntPtr)baseText.Length, d, (UIntPtr)diff.Length, mode, &o, &r);
                }
                if (r == IntPtr.Zero) return V4AError.InternalNoHandle();
                if (status != 0) return V4AError.FromNative(Native.v4a_result_error(r), status);
                return ApplyResult.FromNative(r, sourceString, source.Length, options, out result);
            }
            finally
            {
                Native.v4a_result_free(r);
            }
        }

        // ---------------------------------------------------------------------------------
        // Multi-file
        // ---------------------------------------------------------------------------------

        /// <summary>
        /// <see cref="Apply(IReadOnlyDictionary{string, string}, ApplyOptions)"/> for a patch
        /// written against <paramref name="bases"/>, the texts the model saw (path as written in
        /// the patch → text), applied to <paramref name="files"/>, the texts as they are now;
        /// atomically. An Update whose path <paramref name="bases"/> lacks is applied as by
        /// <c>Apply</c>; the others are merged as
        /// <see cref="ApplyWithBase(string, string, string, ApplyMode, ApplyOptions)"/> does, and a
        /// conflict in any file fails the whole patch (<see cref="V4AConflictException"/>, whose
        /// error's path names the file).
        /// </summary>
        public PatchResult ApplyWithBases(IReadOnlyDictionary<string, string> files, IReadOnlyDictionary<string, string> bases, ApplyOptions options = null)
        {
            if (files == null) throw new ArgumentNullException("files");
            if (bases == null) throw new ArgumentNullException("bases");
            return ApplyWithBases(Lookup(files), Lookup(bases), options);
        }

        /// <summary>
        /// <see cref="ApplyWithBases(IReadOnlyDictionary{string, string}, IReadOnlyDictionary{string, string}, ApplyOptions)"/>
        /// asking <paramref name="readFile"/> for the current text of each file an Update or
        /// Delete reads and <paramref name="readBase"/> for the base of each Update (the path as
        /// written in the patch; <c>null</c>: no such file, or no known base). Exceptions they
        /// throw propagate.
        /// </summary>
        public PatchResult ApplyWithBases(Func<string, string> readFile, Func<string, string> readBase, ApplyOptions options = null)
        {
            PatchResult result;
            V4AError error;
            if (!TryApplyWithBases(readFile, readBase, options, out result, out error)) throw error.ToException();
            return result;
        }

        /// <summary><see cref="ApplyWithBases(Func{string, string}, Func{string, string}, ApplyOptions)"/> without exceptions for a patch that does not apply.</summary>
        public bool TryApplyWithBases(Func<string, string> readFile, Func<string, string> readBase, ApplyOptions options, out PatchResult result, out V4AError error)
        {
            if (readFile == null) throw new ArgumentNullException("readFile");
            if (readBase == null) throw new ArgumentNullException("readBase");
            result = null;
            PatchSource[] sources;
            error = SourcesOf(readFile, out sources);
            if (error != null) return false;
            byte[][] bases;
            error = BasesOf(readBase, out bases);
            if (error != null) return false;
            PatchResult r = null;
            ApplyOptions opts = options ?? ApplyOptions.Default;
            error = WithSources(sources, opts, (p, s, n, o) =>
            {
                var pins = new GCHandle[bases.Length];
                var natives = new V4ASourceNative[bases.Length];
                IntPtr set = IntPtr.Zero;
                try
                {
                    uint status;
                    unsafe
                    {
                        for (int i = 0; i < bases.Length; i++)
                        {
                            if (bases[i] == null) continue;
                            natives[i].Present = 1;
                            if (bases[i].Length == 0) continue;  // (NULL, 0): an empty base
                            pins[i] = GCHandle.Alloc(bases[i], GCHandleType.Pinned);
                            natives[i].Ptr = (byte*)pins[i].AddrOfPinnedObject();
                            natives[i].Len = (UIntPtr)bases[i].Length;
                        }
                        fixed (V4ASourceNative* b = natives)
                        {
                            status = Native.v4a_patch_apply_with_bases(
                                p, (V4ASourceNative*)s, n, b, (UIntPtr)natives.Length, (V4AOptionsNative*)o, &set);
                        }
                    }
                    if (set == IntPtr.Zero) return V4AError.InternalNoHandle();
                    if (status != 0)
                    {
                        unsafe { return V4AError.FromNative(Native.v4a_result_set_error(set), status); }
                    }
                    return PatchResult.FromNative(set, sources, opts, out r);
                }
                finally
                {
                    Native.v4a_result_set_free(set);
                    for (int i = 0; i < pins.Length; i++)
                        if (pins[i].IsAllocated) pins[i].Free();
                }
            });
            result = r;
            return error == null;
        }

        private static Func<string, string> Lookup(IReadOnlyDictionary<string, string> texts)
        {
            return path => { string text; return texts.TryGetValue(path, out text) ? text : null; };
        }

        /// <summary>The base of every Update operation, aligned with the operations (null: unknown).</summary>
        private V4AError BasesOf(Func<string, string> readBase, out byte[][] bases)
        {
            bases = new byte[Operations.Count][];
            for (int i = 0; i < bases.Length; i++)
            {
                PatchOperation op = Operations[i];
                if (op.Kind != OperationKind.Update) continue;
                string text = readBase(op.Path);
                if (text == null) continue;
                V4AError error = Utf8.Encode(text, "the base of " + op.Path, out bases[i]);
                if (error != null) return error;
            }
            return null;
        }
    }
}
