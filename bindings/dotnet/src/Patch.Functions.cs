using System;
using System.Collections.Generic;
using System.Threading;

namespace V4A
{
    // The static members of Patch: the single-file apply, generation, the tool kit and the
    // library's names. Patch.cs has the parsed multi-file patch (Parse, Apply, Reverse).
    public sealed partial class Patch
    {
        /// <summary>The ABI version this binding was written for (<c>V4A_ABI_VERSION</c>).</summary>
        public const int ExpectedAbiVersion = (int)Native.AbiVersion;

        private static int libraryChecked;

        /// <summary>The version of the loaded native library (<c>"0.1.0"</c>).</summary>
        public static string Version
        {
            get
            {
                EnsureLibrary();
                unsafe { return Utf8.FromCString(Native.v4a_version()); }
            }
        }

        /// <summary>The ABI version of the loaded native library; equal to <see cref="ExpectedAbiVersion"/> (checked on first use).</summary>
        public static int AbiVersion
        {
            get
            {
                EnsureLibrary();
                return (int)Native.v4a_abi_version();
            }
        }

        // ---------------------------------------------------------------------------------
        // Single-file apply
        // ---------------------------------------------------------------------------------

        /// <summary>
        /// Applies a single-file diff to <paramref name="source"/>: a bare diff (hunks only) or
        /// a <c>*** Begin Patch</c> envelope naming exactly one file whose operation agrees with
        /// <paramref name="mode"/>. <c>null</c> is the empty text.
        /// </summary>
        /// <returns>The new text, the source and the reports, in managed memory.</returns>
        /// <exception cref="V4AException">The subclass of the failure's status, with the message written for the model and its diagnostics.</exception>
        public static ApplyResult Apply(string source, string diff, ApplyMode mode, ApplyOptions options = null)
        {
            ApplyResult result;
            V4AError error;
            if (!TryApply(source, diff, mode, options, out result, out error)) throw error.ToException();
            return result;
        }

        /// <summary>
        /// <see cref="Apply(string, string, ApplyMode, ApplyOptions)"/> with the mode given by
        /// name: <c>"update"</c>, <c>"create"</c>, <c>"delete"</c> or <c>"move"</c>, as the
        /// <c>mode</c> field of the one-file-per-call tool. Any other name is
        /// <see cref="V4AUnsupportedModeException"/>, with a message for the model.
        /// </summary>
        public static ApplyResult Apply(string source, string diff, string mode, ApplyOptions options = null)
        {
            ApplyResult result;
            V4AError error;
            if (!TryApply(source, diff, mode, options, out result, out error)) throw error.ToException();
            return result;
        }

        /// <summary>
        /// <see cref="Apply(string, string, ApplyMode, ApplyOptions)"/> over UTF-8 bytes (a file
        /// read with <c>File.ReadAllBytes</c>; Unity's <c>TextAsset.bytes</c>). <c>null</c> is
        /// empty. Bytes that are not UTF-8 are <see cref="V4AInvalidUtf8Exception"/> with the
        /// offset of the first invalid byte. <see cref="ApplyResult.GetTextBytes"/> gives the
        /// new bytes.
        /// </summary>
        public static ApplyResult Apply(byte[] source, byte[] diff, ApplyMode mode, ApplyOptions options = null)
        {
            ApplyResult result;
            V4AError error;
            if (!TryApply(source, diff, mode, options, out result, out error)) throw error.ToException();
            return result;
        }

        /// <summary><see cref="Apply(byte[], byte[], ApplyMode, ApplyOptions)"/> with the mode given by name.</summary>
        public static ApplyResult Apply(byte[] source, byte[] diff, string mode, ApplyOptions options = null)
        {
            ApplyResult result;
            V4AError error;
            if (!TryApply(source, diff, mode, options, out result, out error)) throw error.ToException();
            return result;
        }

        /// <summary>
        /// <see cref="Apply(string, string, ApplyMode, ApplyOptions)"/> without exceptions: returns
        /// <c>true</c> with the result, or <c>false</c> with the error (status, message for the
        /// model, diagnostics). For loops where a failing patch is routine.
        /// </summary>
        public static bool TryApply(string source, string diff, ApplyMode mode, ApplyOptions options, out ApplyResult result, out V4AError error)
        {
            return TryApplyStrings(source, diff, mode, null, options, out result, out error);
        }

        /// <summary><see cref="TryApply(string, string, ApplyMode, ApplyOptions, out ApplyResult, out V4AError)"/> with the default options.</summary>
        public static bool TryApply(string source, string diff, ApplyMode mode, out ApplyResult result, out V4AError error)
        {
            return TryApply(source, diff, mode, null, out result, out error);
        }

        /// <summary><see cref="TryApply(string, string, ApplyMode, ApplyOptions, out ApplyResult, out V4AError)"/> with the mode given by name.</summary>
        public static bool TryApply(string source, string diff, string mode, ApplyOptions options, out ApplyResult result, out V4AError error)
        {
            result = null;
            byte[] m;
            error = Utf8.Encode(mode, "the mode", out m);
            if (error != null) return false;
            return TryApplyStrings(source, diff, 0, m, options, out result, out error);
        }

        /// <summary>Encodes the source into the reused buffer and the diff into its own array, then applies.</summary>
        private static bool TryApplyStrings(string source, string diff, ApplyMode mode, byte[] modeName, ApplyOptions options, out ApplyResult result, out V4AError error)
        {
            result = null;
            byte[] s = null, d = null;
            int sourceLength = 0;
            try
            {
                error = Utf8.EncodeRented(source, "the source", out s, out sourceLength) ?? Utf8.Encode(diff, "the diff", out d);
                if (error != null) return false;
                error = ApplyCore(s ?? Utf8.Empty, sourceLength, source, d, (uint)mode, modeName, options, out result);
                return error == null;
            }
            finally
            {
                Utf8.Return(s);
            }
        }

        /// <summary><see cref="TryApply(string, string, ApplyMode, ApplyOptions, out ApplyResult, out V4AError)"/> over UTF-8 bytes.</summary>
        public static bool TryApply(byte[] source, byte[] diff, ApplyMode mode, ApplyOptions options, out ApplyResult result, out V4AError error)
        {
            source = source ?? Utf8.Empty;
            error = ApplyCore(source, source.Length, null, diff ?? Utf8.Empty, (uint)mode, null, options, out result);
            return error == null;
        }

        /// <summary><see cref="TryApply(byte[], byte[], ApplyMode, ApplyOptions, out ApplyResult, out V4AError)"/> with the default options.</summary>
        public static bool TryApply(byte[] source, byte[] diff, ApplyMode mode, out ApplyResult result, out V4AError error)
        {
            return TryApply(source, diff, mode, null, out result, out error);
        }

        /// <summary><see cref="TryApply(byte[], byte[], ApplyMode, ApplyOptions, out ApplyResult, out V4AError)"/> with the mode given by name.</summary>
        public static bool TryApply(byte[] source, byte[] diff, string mode, ApplyOptions options, out ApplyResult result, out V4AError error)
        {
            result = null;
            byte[] m;
            error = Utf8.Encode(mode, "the mode", out m);
            if (error != null) return false;
            source = source ?? Utf8.Empty;
            error = ApplyCore(source, source.Length, null, diff ?? Utf8.Empty, 0, m, options, out result);
            return error == null;
        }

        /// <summary>
        /// The one apply: pins the inputs ((null, 0) when empty), calls the library, copies the
        /// result and frees it in <c>finally</c>. The source is the first
        /// <paramref name="sourceLength"/> bytes of <paramref name="source"/>.
        /// <paramref name="modeName"/> non-null selects <c>v4a_apply_mode_name</c>.
        /// </summary>
        private static unsafe V4AError ApplyCore(byte[] source, int sourceLength, string sourceString, byte[] diff, uint mode, byte[] modeName, ApplyOptions options, out ApplyResult result)
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
                fixed (byte* pinned = source)
                fixed (byte* d = diff)
                {
                    byte* s = sourceLength == 0 ? null : pinned;
                    if (modeName == null)
                    {
                        status = Native.v4a_apply(s, (UIntPtr)sourceLength, d, (UIntPtr)diff.Length, mode, &o, &r);
                    }
                    else
                    {
                        fixed (byte* m = modeName)
                        {
                            status = Native.v4a_apply_mode_name(
                                s, (UIntPtr)sourceLength, d, (UIntPtr)diff.Length, m, (UIntPtr)modeName.Length, &o, &r);
                        }
                    }
                }
                if (r == IntPtr.Zero) return V4AError.InternalNoHandle();
                if (status != 0) return V4AError.FromNative(Native.v4a_result_error(r), status);
                return ApplyResult.FromNative(r, sourceString, sourceLength, options, out result);
            }
            finally
            {
                Native.v4a_result_free(r);
            }
        }

        // ---------------------------------------------------------------------------------
        // Generation
        // ---------------------------------------------------------------------------------

        /// <summary>
        /// Writes a V4A patch (<c>*** Update File:</c> envelope) that turns
        /// <paramref name="oldText"/> into <paramref name="newText"/>, adding context or an
        /// <c>@@</c> anchor until every hunk is unique. Applying it to the old text gives the
        /// new text byte for byte. Differences a V4A patch cannot express (a changed line
        /// terminator, an added or removed BOM) are <see cref="V4AInvalidArgumentException"/>.
        /// </summary>
        public static unsafe string MakePatch(string oldText, string newText, string path, GenerateOptions options = null)
        {
            EnsureLibrary();
            byte[] a = Encode(oldText, "the old text"), b = Encode(newText, "the new text"), p = Encode(path, "the path");
            V4AGenerateOptionsNative o;
            ThrowIf((options ?? new GenerateOptions()).ToNative(out o));
            IntPtr t = IntPtr.Zero;
            uint status;
            fixed (byte* pa = a)
            fixed (byte* pb = b)
            fixed (byte* pp = p)
            {
                status = Native.v4a_make_patch(pa, (UIntPtr)a.Length, pb, (UIntPtr)b.Length, pp, (UIntPtr)p.Length, &o, &t);
            }
            return TakeText(status, t);
        }

        /// <summary>
        /// <see cref="MakePatch"/> for a file that also moves to <paramref name="destination"/>
        /// (<c>*** Move to:</c>, omitted when it equals the path).
        /// </summary>
        public static unsafe string MakeMovePatch(string oldText, string newText, string path, string destination, GenerateOptions options = null)
        {
            EnsureLibrary();
            byte[] a = Encode(oldText, "the old text"), b = Encode(newText, "the new text");
            byte[] p = Encode(path, "the path"), q = Encode(destination, "the destination");
            V4AGenerateOptionsNative o;
            ThrowIf((options ?? new GenerateOptions()).ToNative(out o));
            IntPtr t = IntPtr.Zero;
            uint status;
            fixed (byte* pa = a)
            fixed (byte* pb = b)
            fixed (byte* pp = p)
            fixed (byte* pq = q)
            {
                status = Native.v4a_make_move_patch(
                    pa, (UIntPtr)a.Length, pb, (UIntPtr)b.Length, pp, (UIntPtr)p.Length, pq, (UIntPtr)q.Length, &o, &t);
            }
            return TakeText(status, t);
        }

        /// <summary>Writes a patch that adds <paramref name="path"/> with <paramref name="text"/>.</summary>
        public static unsafe string MakeAddPatch(string path, string text)
        {
            EnsureLibrary();
            byte[] p = Encode(path, "the path"), x = Encode(text, "the text");
            IntPtr t = IntPtr.Zero;
            uint status;
            fixed (byte* pp = p)
            fixed (byte* px = x)
            {
                status = Native.v4a_make_add_patch(pp, (UIntPtr)p.Length, px, (UIntPtr)x.Length, &t);
            }
            return TakeText(status, t);
        }

        /// <summary>Writes a patch that deletes <paramref name="path"/>.</summary>
        public static unsafe string MakeDeletePatch(string path)
        {
            EnsureLibrary();
            byte[] p = Encode(path, "the path");
            IntPtr t = IntPtr.Zero;
            uint status;
            fixed (byte* pp = p)
            {
                status = Native.v4a_make_delete_patch(pp, (UIntPtr)p.Length, &t);
            }
            return TakeText(status, t);
        }

        /// <summary>
        /// The form of <paramref name="line"/> that <paramref name="level"/> compares (trailing
        /// whitespace removed, trimmed, whitespace collapsed, Unicode folded): for showing a
        /// model why two lines match.
        /// </summary>
        public static unsafe string Normalize(string line, MatchLevel level)
        {
            EnsureLibrary();
            byte[] l = Encode(line, "the line");
            IntPtr t = IntPtr.Zero;
            uint status;
            fixed (byte* pl = l)
            {
                status = Native.v4a_normalize(pl, (UIntPtr)l.Length, (uint)level, &t);
            }
            return TakeText(status, t);
        }

        // ---------------------------------------------------------------------------------
        // Paths, names, the tool-calling kit
        // ---------------------------------------------------------------------------------

        /// <summary>
        /// Classifies a path as written in a patch: relative and inside the root, absolute,
        /// escaping with <c>..</c>, empty, containing NUL, or with a drive prefix. Only
        /// <see cref="PathClass.Relative"/> is safe to write under a workspace root.
        /// </summary>
        public static unsafe PathClass ClassifyPath(string path)
        {
            EnsureLibrary();
            byte[] p = Encode(path, "the path");
            uint cls = 0;
            uint status;
            fixed (byte* pp = p)
            {
                status = Native.v4a_classify_path(pp, (UIntPtr)p.Length, &cls);
            }
            if (status != 0) throw new V4AError((V4AStatus)status, "v4a_classify_path failed: " + StatusName((V4AStatus)status)).ToException();
            return (PathClass)cls;
        }

        /// <summary>Whether <paramref name="path"/> is <see cref="PathClass.Relative"/>: inside the root, safe to write.</summary>
        public static bool IsSafePath(string path)
        {
            return ClassifyPath(path) == PathClass.Relative;
        }

        /// <summary>
        /// A ready tool definition (JSON text) for a platform and a shape: OpenAI function calling,
        /// OpenAI custom tool with a Lark grammar, Anthropic tool use or MCP; the whole patch per
        /// call (<c>apply_patch</c>) or one file per call (<c>patch_file</c>).
        /// </summary>
        public static unsafe string ToolSchema(ToolFlavor flavor, ToolShape shape)
        {
            EnsureLibrary();
            V4ABytes b = Native.v4a_tool_schema((uint)flavor, (uint)shape);
            if (b.Ptr == null)
                throw new V4AError(V4AStatus.InvalidArgument, "unknown tool flavour " + (uint)flavor + " or shape " + (uint)shape + ".").ToException();
            return Utf8.Decode(b);
        }

        private static string grammar, fileGrammar, instructions;

        /// <summary>The Lark grammar of a whole patch in the canonical form (<c>tools/v4a.lark</c>).</summary>
        public static string Grammar
        {
            get
            {
                if (grammar == null) { EnsureLibrary(); grammar = Utf8.Decode(Native.v4a_grammar()); }
                return grammar;
            }
        }

        /// <summary>The Lark grammar of one file's section without the envelope (<c>tools/file-diff.lark</c>), for the one-file-per-call custom tool.</summary>
        public static string FileGrammar
        {
            get
            {
                if (fileGrammar == null) { EnsureLibrary(); fileGrammar = Utf8.Decode(Native.v4a_file_grammar()); }
                return fileGrammar;
            }
        }

        /// <summary>The model instructions (<c>tools/instructions.md</c>) for the system prompt of an agent that has one of the tools.</summary>
        public static string Instructions
        {
            get
            {
                if (instructions == null) { EnsureLibrary(); instructions = Utf8.Decode(Native.v4a_instructions()); }
                return instructions;
            }
        }

        /// <summary>The stable name of a status (<c>"AMBIGUOUS"</c>); <c>"UNKNOWN"</c> for a code the library does not know.</summary>
        public static unsafe string StatusName(V4AStatus status)
        {
            EnsureLibrary();
            return Utf8.FromCString(Native.v4a_status_str((uint)status));
        }

        /// <summary>A one-line description of a status's category (<c>"ambiguous match"</c>).</summary>
        public static unsafe string StatusCategory(V4AStatus status)
        {
            EnsureLibrary();
            return Utf8.FromCString(Native.v4a_status_category((uint)status));
        }

        /// <summary>The stable name of a match level (<c>"exact"</c>, <c>"trim_end"</c>, <c>"trim"</c>, <c>"collapse"</c>, <c>"fold"</c>).</summary>
        public static unsafe string LevelName(MatchLevel level)
        {
            EnsureLibrary();
            return Utf8.FromCString(Native.v4a_level_str((uint)level));
        }

        // ---------------------------------------------------------------------------------
        // Helpers
        // ---------------------------------------------------------------------------------

        /// <summary>
        /// Loads the library on first use and checks its ABI version, with a clear message
        /// when the library cannot be found.
        /// </summary>
        internal static void EnsureLibrary()
        {
            if (Volatile.Read(ref libraryChecked) != 0) return;
            uint abi;
            try
            {
                abi = Native.v4a_abi_version();
            }
            catch (DllNotFoundException e)
            {
                throw new DllNotFoundException(
                    "The native library of v4a (libv4a.so, libv4a.dylib or libv4a.dll) was not found. "
                    + "Build it with `cargo build --release` (on Windows, copy target/release/v4a.dll as libv4a.dll) "
                    + "and put it next to the application (or in the NuGet package's runtimes/<rid>/native/ "
                    + "folder, or Unity's Assets/Plugins/<platform>/). "
                    + e.Message, e);
            }
            if (abi != Native.AbiVersion)
            {
                throw new InvalidOperationException(
                    "The loaded libv4a has ABI version " + abi + "; this binding needs ABI version "
                    + Native.AbiVersion + ". Use the library and the binding of the same release.");
            }
            Volatile.Write(ref libraryChecked, 1);
        }

        internal static byte[] Encode(string s, string what)
        {
            byte[] bytes;
            ThrowIf(Utf8.Encode(s, what, out bytes));
            return bytes;
        }

        internal static void ThrowIf(V4AError error)
        {
            if (error != null) throw error.ToException();
        }

        /// <summary>Reads and frees a text handle made by a call that returned <paramref name="status"/>.</summary>
        internal static string TakeText(uint status, IntPtr text)
        {
            string value;
            ThrowIf(TakeText(status, text, out value));
            return value;
        }

        internal static unsafe V4AError TakeText(uint status, IntPtr text, out string value)
        {
            value = null;
            try
            {
                if (text == IntPtr.Zero) return V4AError.InternalNoHandle();
                if (status != 0) return V4AError.FromNative(Native.v4a_text_error(text), status);
                value = Utf8.Decode(Native.v4a_text_bytes(text));
                return null;
            }
            finally
            {
                Native.v4a_text_free(text);
            }
        }
    }
}
