using System;
using System.Collections.Generic;
using System.Collections.ObjectModel;
using System.Runtime.InteropServices;
using System.Text;

namespace V4A
{
    /// <summary>
    /// The entry points of v4a, which applies V4A patches (the <c>*** Begin Patch</c> edit
    /// format that language models emit) to text held in memory through the native library.
    /// Static members apply a single-file diff (<see cref="Apply(string, string, ApplyMode, ApplyOptions)"/>),
    /// write patches (<see cref="MakePatch"/>), and give the tool kit and the library's names;
    /// <see cref="Parse(string)"/> returns a parsed multi-file patch: its
    /// <see cref="Operations"/> (kind, path, destination, path class), applied atomically over
    /// sources you supply with <see cref="Apply(IReadOnlyDictionary{string, string}, ApplyOptions)"/>.
    /// A parsed patch holds a native handle: dispose it (or let the finalizer free it). It is
    /// immutable and thread-safe: one patch may be applied from several threads at once, and
    /// every static member may be called from any thread at any time.
    /// </summary>
    /// <example>
    /// <code>
    /// using (var patch = Patch.Parse(patchText))
    /// {
    ///     foreach (var op in patch.Operations)
    ///         if (!op.IsSafe) throw new InvalidOperationException("refusing " + op.Path);
    ///     var result = patch.Apply(path => File.Exists(path) ? File.ReadAllText(path) : null);
    ///     foreach (var file in result.Files) { /* write file.Text to file.TargetPath, ... */ }
    /// }
    /// </code>
    /// </example>
    public sealed partial class Patch : IDisposable
    {
        private readonly PatchHandle handle;

        private Patch(PatchHandle handle, IReadOnlyList<PatchOperation> operations)
        {
            this.handle = handle;
            Operations = operations;
        }

        /// <summary>The file operations in patch order.</summary>
        public IReadOnlyList<PatchOperation> Operations { get; private set; }

        /// <summary>
        /// Parses a patch (<c>*** Begin Patch</c> ... <c>*** End Patch</c>, or a bare diff),
        /// accepting what models really send (CRLF, heredoc and Markdown wrappers, git headers).
        /// </summary>
        /// <exception cref="V4APatchSyntaxException">The patch does not follow the grammar (with the patch line).</exception>
        /// <exception cref="V4ATruncatedPatchException"><c>*** End Patch</c> is missing.</exception>
        public static Patch Parse(string text)
        {
            Patch patch;
            V4AError error;
            if (!TryParse(text, out patch, out error)) throw error.ToException();
            return patch;
        }

        /// <summary><see cref="Parse(string)"/> over UTF-8 bytes.</summary>
        public static Patch Parse(byte[] text)
        {
            return Take(ParseCore(text ?? Utf8.Empty, false));
        }

        /// <summary>
        /// Parses only the canonical form: the envelope, LF line endings, markers written exactly,
        /// no wrappers (what <see cref="Patch.Grammar"/> describes).
        /// </summary>
        public static Patch ParseStrict(string text)
        {
            return Take(ParseCore(Patch.Encode(text, "the patch"), true));
        }

        /// <summary><see cref="ParseStrict(string)"/> over UTF-8 bytes.</summary>
        public static Patch ParseStrict(byte[] text)
        {
            return Take(ParseCore(text ?? Utf8.Empty, true));
        }

        /// <summary><see cref="Parse(string)"/> without exceptions.</summary>
        public static bool TryParse(string text, out Patch patch, out V4AError error)
        {
            patch = null;
            byte[] bytes;
            error = Utf8.Encode(text, "the patch", out bytes);
            if (error != null) return false;
            var parsed = ParseCore(bytes, false);
            patch = parsed.Key;
            error = parsed.Value;
            return error == null;
        }

        private static Patch Take(KeyValuePair<Patch, V4AError> parsed)
        {
            if (parsed.Value != null) throw parsed.Value.ToException();
            return parsed.Key;
        }

        private static unsafe KeyValuePair<Patch, V4AError> ParseCore(byte[] text, bool strict)
        {
            Patch.EnsureLibrary();
            var h = new PatchHandle();
            IntPtr p = IntPtr.Zero;
            uint status;
            fixed (byte* t = text)
            {
                status = strict
                    ? Native.v4a_patch_parse_strict(t, (UIntPtr)text.Length, &p)
                    : Native.v4a_patch_parse(t, (UIntPtr)text.Length, &p);
            }
            h.Assign(p);
            if (p == IntPtr.Zero)
            {
                return new KeyValuePair<Patch, V4AError>(null, V4AError.InternalNoHandle());
            }
            if (status != 0)
            {
                V4AError error = V4AError.FromNative(Native.v4a_patch_error(p), status);
                h.Dispose();
                return new KeyValuePair<Patch, V4AError>(null, error);
            }
            V4AOps ops = Native.v4a_patch_ops(p);
            int n = Utf8.Length(ops.Len);
            var list = new PatchOperation[n];
            for (int i = 0; i < n; i++) list[i] = new PatchOperation(ops.Ptr + i);
            return new KeyValuePair<Patch, V4AError>(new Patch(h, new ReadOnlyCollection<PatchOperation>(list)), null);
        }

        /// <summary>
        /// Applies every operation atomically: the engine computes every file's result before
        /// returning any, so either all of them come back or one exception does.
        /// <paramref name="files"/> maps a path exactly as written in the patch to the file's
        /// current text; a path it lacks is a file that does not exist
        /// (<see cref="V4AMissingSourceException"/> if an Update or Delete reads it).
        /// </summary>
        public PatchResult Apply(IReadOnlyDictionary<string, string> files, ApplyOptions options = null)
        {
            if (files == null) throw new ArgumentNullException("files");
            return Apply(path => { string text; return files.TryGetValue(path, out text) ? text : null; }, options);
        }

        /// <summary><see cref="Apply(IReadOnlyDictionary{string, string}, ApplyOptions)"/> with the files as UTF-8 bytes.</summary>
        public PatchResult Apply(IReadOnlyDictionary<string, byte[]> files, ApplyOptions options = null)
        {
            if (files == null) throw new ArgumentNullException("files");
            PatchResult result;
            V4AError error;
            if (!TryApplyCore(SourcesOf(files), options, out result, out error)) throw error.ToException();
            return result;
        }

        /// <summary>
        /// <see cref="Apply(IReadOnlyDictionary{string, string}, ApplyOptions)"/> asking
        /// <paramref name="readFile"/> for the current text of each file an Update or Delete
        /// reads (called once per such operation, with the path as written in the patch);
        /// return <c>null</c> for a file that does not exist. Exceptions it throws propagate.
        /// </summary>
        public PatchResult Apply(Func<string, string> readFile, ApplyOptions options = null)
        {
            PatchResult result;
            V4AError error;
            if (!TryApply(readFile, options, out result, out error)) throw error.ToException();
            return result;
        }

        /// <summary><see cref="Apply(IReadOnlyDictionary{string, string}, ApplyOptions)"/> without exceptions for a patch that does not apply.</summary>
        public bool TryApply(IReadOnlyDictionary<string, string> files, ApplyOptions options, out PatchResult result, out V4AError error)
        {
            if (files == null) throw new ArgumentNullException("files");
            return TryApply(path => { string text; return files.TryGetValue(path, out text) ? text : null; }, options, out result, out error);
        }

        /// <summary><see cref="Apply(Func{string, string}, ApplyOptions)"/> without exceptions for a patch that does not apply.</summary>
        public bool TryApply(Func<string, string> readFile, ApplyOptions options, out PatchResult result, out V4AError error)
        {
            if (readFile == null) throw new ArgumentNullException("readFile");
            result = null;
            PatchSource[] sources;
            error = SourcesOf(readFile, out sources);
            if (error != null) return false;
            return TryApplyCore(sources, options, out result, out error);
        }

        /// <summary>
        /// The patch that undoes this one, given the sources it applies to (as for
        /// <see cref="Apply(IReadOnlyDictionary{string, string}, ApplyOptions)"/>): Add and Delete
        /// swapped, moves back, each update's change inverted, operations in reverse order.
        /// Run it before applying; it fails with the same error the apply would.
        /// </summary>
        public string Reverse(IReadOnlyDictionary<string, string> files, ApplyOptions options = null)
        {
            if (files == null) throw new ArgumentNullException("files");
            return Reverse(path => { string text; return files.TryGetValue(path, out text) ? text : null; }, options);
        }

        /// <summary><see cref="Reverse(IReadOnlyDictionary{string, string}, ApplyOptions)"/> with a file reader.</summary>
        public string Reverse(Func<string, string> readFile, ApplyOptions options = null)
        {
            if (readFile == null) throw new ArgumentNullException("readFile");
            PatchSource[] sources;
            Patch.ThrowIf(SourcesOf(readFile, out sources));
            string text = null;
            Patch.ThrowIf(WithSources(sources, options, (p, s, n, o) =>
            {
                IntPtr t = IntPtr.Zero;
                uint status;
                unsafe { status = Native.v4a_patch_reverse(p, (V4ASourceNative*)s, n, (V4AOptionsNative*)o, &t); }
                return Patch.TakeText(status, t, out text);
            }));
            return text;
        }

        /// <summary>Frees the native patch. Idempotent; waits for no one but is safe while other threads still apply it (the handle is reference-counted).</summary>
        public void Dispose()
        {
            handle.Dispose();
        }

        // ---------------------------------------------------------------------------------

        private V4AError SourcesOf(Func<string, string> readFile, out PatchSource[] sources)
        {
            sources = new PatchSource[Operations.Count];
            for (int i = 0; i < sources.Length; i++)
            {
                PatchOperation op = Operations[i];
                if (op.Kind == OperationKind.Add) continue;
                string text = readFile(op.Path);
                if (text == null) continue;
                byte[] bytes;
                V4AError error = Utf8.Encode(text, "the source of " + op.Path, out bytes);
                if (error != null) return error;
                sources[i].Bytes = bytes;
                sources[i].Text = text;
            }
            return null;
        }

        private PatchSource[] SourcesOf(IReadOnlyDictionary<string, byte[]> files)
        {
            var sources = new PatchSource[Operations.Count];
            for (int i = 0; i < sources.Length; i++)
            {
                PatchOperation op = Operations[i];
                byte[] bytes;
                if (op.Kind != OperationKind.Add && files.TryGetValue(op.Path, out bytes))
                    sources[i].Bytes = bytes ?? Utf8.Empty;
            }
            return sources;
        }

        private delegate V4AError NativeCall(IntPtr patch, IntPtr sources, UIntPtr count, IntPtr options);

        /// <summary>
        /// Pins every source, builds the <c>v4a_source</c> array aligned with the operations and
        /// calls <paramref name="call"/> while holding a reference on the native patch.
        /// </summary>
        private unsafe V4AError WithSources(PatchSource[] sources, ApplyOptions options, NativeCall call)
        {
            Patch.EnsureLibrary();
            V4AOptionsNative o;
            V4AError error = (options ?? ApplyOptions.Default).NativeForApply(out o);
            if (error != null) return error;
            var pins = new GCHandle[sources.Length];
            var natives = new V4ASourceNative[sources.Length];
            bool added = false;
            try
            {
                handle.DangerousAddRef(ref added);
                for (int i = 0; i < sources.Length; i++)
                {
                    byte[] b = sources[i].Bytes;
                    if (b == null) continue;
                    natives[i].Present = 1;
                    if (b.Length == 0) continue;  // (NULL, 0): an empty file
                    pins[i] = GCHandle.Alloc(b, GCHandleType.Pinned);
                    natives[i].Ptr = (byte*)pins[i].AddrOfPinnedObject();
                    natives[i].Len = (UIntPtr)b.Length;
                }
                fixed (V4ASourceNative* s = natives)
                {
                    return call(handle.DangerousGetHandle(), (IntPtr)s, (UIntPtr)natives.Length, (IntPtr)(&o));
                }
            }
            finally
            {
                for (int i = 0; i < pins.Length; i++)
                    if (pins[i].IsAllocated) pins[i].Free();
                if (added) handle.DangerousRelease();
            }
        }

        private bool TryApplyCore(PatchSource[] sources, ApplyOptions options, out PatchResult result, out V4AError error)
        {
            PatchResult r = null;
            ApplyOptions opts = options ?? ApplyOptions.Default;
            error = WithSources(sources, opts, (p, s, n, o) =>
            {
                IntPtr set = IntPtr.Zero;
                try
                {
                    uint status;
                    unsafe { status = Native.v4a_patch_apply(p, (V4ASourceNative*)s, n, (V4AOptionsNative*)o, &set); }
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
                }
            });
            result = r;
            return error == null;
        }

        /// <summary>The native patch, freed by the finalizer if the patch is not disposed.</summary>
        private sealed class PatchHandle : SafeHandle
        {
            public PatchHandle() : base(IntPtr.Zero, true) { }

            public override bool IsInvalid { get { return handle == IntPtr.Zero; } }

            internal void Assign(IntPtr p)
            {
                SetHandle(p);
            }

            protected override bool ReleaseHandle()
            {
                Native.v4a_patch_free(handle);
                return true;
            }
        }
    }

    /// <summary>One operation's source for the native call: its bytes, and the caller's string when there was one.</summary>
    internal struct PatchSource
    {
        /// <summary>The file's UTF-8 bytes; null when there is no such file (present = 0).</summary>
        public byte[] Bytes;

        /// <summary>The string the bytes came from, reused for <see cref="ApplyResult.Source"/>.</summary>
        public string Text;
    }

    /// <summary>One file operation of a parsed patch.</summary>
    public sealed class PatchOperation
    {
        internal unsafe PatchOperation(V4AOpNative* op)
        {
            Kind = (OperationKind)op->Kind;
            PathClass = (PathClass)op->PathClass;
            MoveToClass = (PathClass)op->MoveToClass;
            PatchLine = checked((int)op->PatchLine);
            HunkCount = checked((int)op->HunkCount);
            Path = Utf8.Decode(op->Path);
            MoveTo = Utf8.DecodeOrNull(op->MoveTo);
        }

        /// <summary>Add, Delete or Update (a move is an Update with a <see cref="MoveTo"/>).</summary>
        public OperationKind Kind { get; private set; }

        /// <summary>The path exactly as written (empty for a bare diff).</summary>
        public string Path { get; private set; }

        /// <summary>The <c>*** Move to:</c> destination exactly as written; <c>null</c> without one.</summary>
        public string MoveTo { get; private set; }

        /// <summary>The class of <see cref="Path"/>: refuse to write anything but <see cref="V4A.PathClass.Relative"/> outside a sandbox.</summary>
        public PathClass PathClass { get; private set; }

        /// <summary>The class of <see cref="MoveTo"/>; <see cref="V4A.PathClass.Empty"/> without one.</summary>
        public PathClass MoveToClass { get; private set; }

        /// <summary>1-based patch line of the operation's header.</summary>
        public int PatchLine { get; private set; }

        /// <summary>Number of hunks (1 for an Add File, 0 for a Delete File).</summary>
        public int HunkCount { get; private set; }

        /// <summary>Whether the path (and the destination, if any) is relative and stays inside the root.</summary>
        public bool IsSafe
        {
            get { return PathClass == PathClass.Relative && (MoveTo == null || MoveToClass == PathClass.Relative); }
        }
    }

    /// <summary>The results of every file operation of a multi-file patch. Immutable.</summary>
    public sealed class PatchResult
    {
        private PatchResult() { }

        /// <summary>One result per file operation, in patch order.</summary>
        public IReadOnlyList<FileResult> Files { get; private set; }

        /// <summary>
        /// The summary other engines print, which models know: <c>Success. Updated the following
        /// files:</c> then one <c>A path</c>, <c>M path</c> or <c>D path</c> line per operation
        /// (a move is <c>M destination</c>). Send it back as the tool result.
        /// </summary>
        public string Summary { get; private set; }

        /// <summary>
        /// Carries the results over to <paramref name="files"/> (path → text): an Add writes
        /// its path, a Delete removes its path, an Update writes its text to its destination
        /// (removing the old path) when it moves, else to its path.
        /// </summary>
        public void ApplyTo(IDictionary<string, string> files)
        {
            if (files == null) throw new ArgumentNullException("files");
            foreach (FileResult f in Files)
            {
                if (f.Kind == OperationKind.Delete) files.Remove(f.Path);
                else
                {
                    if (f.MoveTo != null) files.Remove(f.Path);
                    files[f.TargetPath] = f.Text;
                }
            }
        }

        /// <summary><see cref="ApplyTo(IDictionary{string, string})"/> for files held as UTF-8 bytes.</summary>
        public void ApplyTo(IDictionary<string, byte[]> files)
        {
            if (files == null) throw new ArgumentNullException("files");
            foreach (FileResult f in Files)
            {
                if (f.Kind == OperationKind.Delete) files.Remove(f.Path);
                else
                {
                    if (f.MoveTo != null) files.Remove(f.Path);
                    files[f.TargetPath] = f.Result.GetTextBytes();
                }
            }
        }

        internal static unsafe V4AError FromNative(IntPtr set, PatchSource[] sources, ApplyOptions options, out PatchResult result)
        {
            result = null;
            var r = new PatchResult();
            V4AFileResults files = Native.v4a_result_set_files(set);
            int n = Utf8.Length(files.Len);
            var list = new FileResult[n];
            for (int i = 0; i < n; i++)
            {
                V4AFileResultNative* f = files.Ptr + i;
                // File results are aligned with the operations, and so with the sources.
                string hint = null;
                int bytes = -1;
                if (i < sources.Length && sources[i].Bytes != null)
                {
                    hint = sources[i].Text;
                    bytes = sources[i].Bytes.Length;
                }
                ApplyResult applied;
                V4AError error = ApplyResult.FromNative(f->Result, hint, bytes, options, out applied);
                if (error != null) return error;
                list[i] = new FileResult(
                    (OperationKind)f->Kind, Utf8.Decode(f->Path), Utf8.DecodeOrNull(f->MoveTo), applied);
            }
            r.Files = new ReadOnlyCollection<FileResult>(list);
            r.Summary = Utf8.Decode(Native.v4a_result_set_summary(set));
            result = r;
            return null;
        }
    }

    /// <summary>The result of one file operation of a multi-file patch.</summary>
    public sealed class FileResult
    {
        internal FileResult(OperationKind kind, string path, string moveTo, ApplyResult result)
        {
            Kind = kind;
            Path = path;
            MoveTo = moveTo;
            Result = result;
        }

        /// <summary>Add, Delete or Update.</summary>
        public OperationKind Kind { get; private set; }

        /// <summary>The path as written in the patch.</summary>
        public string Path { get; private set; }

        /// <summary>The destination when the file moves to another path (write the text there and remove <see cref="Path"/>); <c>null</c> otherwise.</summary>
        public string MoveTo { get; private set; }

        /// <summary>Where the new text goes: <see cref="MoveTo"/> when the file moves, else <see cref="Path"/>.</summary>
        public string TargetPath { get { return MoveTo ?? Path; } }

        /// <summary>The new text (empty for a deleted file).</summary>
        public string Text { get { return Result.Text; } }

        /// <summary>The file's result: new text, original source, reports.</summary>
        public ApplyResult Result { get; private set; }
    }
}
