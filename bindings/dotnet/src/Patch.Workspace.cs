// The workspace layer (files on disk) over v4a_workspace_apply and v4a_workspace_recover:
// Patch.ApplyToDirectory, Patch.RecoverDirectory, their options and results, and the native
// declarations they use.

#pragma warning disable 0649, 0169 // fields written by the native library, read through pointers

using System;
using System.Collections.Generic;
using System.Collections.ObjectModel;
using System.Runtime.InteropServices;

namespace V4A
{
    /// <summary>What <see cref="Patch.ApplyToDirectory"/> did to a file (in a dry run, what it would do).</summary>
    public enum FileChange : uint
    {
        /// <summary>A new file was created (or, when allowed, an existing one replaced).</summary>
        Added = 0,
        /// <summary>The file's content changed in place.</summary>
        Modified = 1,
        /// <summary>The file moved to its destination (with or without edits).</summary>
        Moved = 2,
        /// <summary>The file was removed.</summary>
        Deleted = 3,
        /// <summary>Nothing to do (every hunk already applied, or an Add whose file already holds that text); not written.</summary>
        Unchanged = 4,
    }

    /// <summary>What was done about an earlier apply that a crash interrupted.</summary>
    public enum RecoveryAction : uint
    {
        /// <summary>There was no interrupted apply.</summary>
        None = 0,
        /// <summary>It had not committed: every file is as it was before it.</summary>
        Undone = 1,
        /// <summary>It had committed: every file is new and its cleanup is finished.</summary>
        Finished = 2,
    }

    /// <summary>The kind of failure of a workspace call (<see cref="V4AError.Failure"/>).</summary>
    public enum WorkspaceFailure : uint
    {
        /// <summary>Not a workspace failure (or none).</summary>
        None = 0,
        /// <summary>The patch does not apply or the files refuse it; the status says why (unsafe path, file exists, changed on disk, ...).</summary>
        Patch = 1,
        /// <summary><see cref="V4AStatus.IoError"/>: a path needed as a file is a directory or a special file, or the reverse.</summary>
        PathConflict = 2,
        /// <summary><see cref="V4AStatus.IoError"/>: a file the patch would change is read-only and <see cref="DirectoryOptions.AllowReadOnly"/> is off.</summary>
        ReadOnly = 3,
        /// <summary><see cref="V4AStatus.IoError"/>: the operating system refused a read or a write.</summary>
        Io = 4,
    }

    /// <summary>How <see cref="Patch.ApplyToDirectory"/> treats the files it meets. The defaults are the library's.</summary>
    public sealed class DirectoryOptions
    {
        /// <summary>Compute everything and make every check an apply makes before writing, then write nothing (a preview).</summary>
        public bool DryRun { get; set; }
        /// <summary><c>*** Add File</c> and <c>*** Move to</c> may replace an existing file (default: <see cref="V4AFileExistsException"/>).</summary>
        public bool AllowOverwrite { get; set; }
        /// <summary>Read-only files may be changed and removed (default: refused).</summary>
        public bool AllowReadOnly { get; set; }
        /// <summary>Paths inside <c>.git/</c>, <c>.hg/</c>, <c>.svn/</c> may be written (default: <see cref="V4AUnsafePathException"/>).</summary>
        public bool AllowVcs { get; set; }
        /// <summary>How long to wait for another apply on the same directory before <see cref="V4ALockedException"/>; null for the default (5 s).</summary>
        public TimeSpan? LockWait { get; set; }
        /// <summary>The engine's options (levels, fuzz, line endings, the structured diff); null for the defaults.</summary>
        public ApplyOptions Engine { get; set; }
        /// <summary>
        /// The texts the model saw, by the path of each Update operation (null: unknown). Those
        /// files' hunks are located in their base and merged into the file as it is now.
        /// </summary>
        public Func<string, string> ReadBase { get; set; }
    }

    /// <summary>The outcome of one file operation of <see cref="Patch.ApplyToDirectory"/>.</summary>
    public sealed class DirectoryFileResult
    {
        internal DirectoryFileResult() { }
        /// <summary>Add, delete or update.</summary>
        public OperationKind Kind { get; internal set; }
        /// <summary>What happened to the file.</summary>
        public FileChange Change { get; internal set; }
        /// <summary>The file is not UTF-8 text: deleted or moved as bytes (<see cref="Result"/> holds no text).</summary>
        public bool Binary { get; internal set; }
        /// <summary>The path as written in the patch.</summary>
        public string Path { get; internal set; }
        /// <summary>The <c>*** Move to</c> destination as written; null without one.</summary>
        public string MoveTo { get; internal set; }
        /// <summary>The file the operation names, root-relative with <c>.</c>, <c>..</c> and links resolved.</summary>
        public string SourceKey { get; internal set; }
        /// <summary>Where the new text went, in the same form; null for a deletion.</summary>
        public string TargetKey { get; internal set; }
        /// <summary>The engine's result: the new text, the original source, the reports.</summary>
        public ApplyResult Result { get; internal set; }
    }

    /// <summary>The outcome of <see cref="Patch.ApplyToDirectory"/> or <see cref="Patch.RecoverDirectory"/>.</summary>
    public sealed class DirectoryResult
    {
        internal DirectoryResult() { }
        /// <summary>One outcome per file operation, in patch order (none for a recovery).</summary>
        public IReadOnlyList<DirectoryFileResult> Files { get; internal set; }
        /// <summary>The summary other engines print (<c>Success. Updated the following files:</c>, <c>A</c>/<c>M</c>/<c>D</c> lines); empty for a recovery.</summary>
        public string Summary { get; internal set; }
        /// <summary>Files were written (false for a dry run or when nothing changed).</summary>
        public bool Written { get; internal set; }
        /// <summary>What was done about an earlier interrupted apply (an apply recovers one first).</summary>
        public RecoveryAction Recovery { get; internal set; }
        /// <summary>The files of the recovered apply.</summary>
        public IReadOnlyList<string> Recovered { get; internal set; }
        /// <summary>Attributes that could not be kept, and cleanup the next call will finish.</summary>
        public IReadOnlyList<string> Notes { get; internal set; }
    }

    /// <summary><see cref="V4AStatus.IoError"/>: the workspace layer could not read or write (see <see cref="V4AError.Failure"/>).</summary>
    public sealed class V4AIoErrorException : V4AException
    {
        /// <summary>Wraps an error.</summary>
        public V4AIoErrorException(V4AError error) : base(error) { }
    }

    /// <summary><c>v4a_workspace_options</c>.</summary>
    [StructLayout(LayoutKind.Sequential)]
    internal unsafe struct V4AWorkspaceOptionsNative
    {
        public uint StructSize;
        public uint DryRun;
        public uint AllowOverwrite;
        public uint AllowReadOnly;
        public uint AllowVcs;
        public uint LockWaitMs;
        public V4AOptionsNative* Engine;
    }

    /// <summary><c>v4a_workspace_file</c>.</summary>
    [StructLayout(LayoutKind.Sequential)]
    internal struct V4AWorkspaceFileNative
    {
        public uint Kind;
        public uint Change;
        public uint Binary;
        public uint Reserved;
        public V4ABytes Path;
        public V4ABytes MoveTo;
        public V4ABytes SourceKey;
        public V4ABytes TargetKey;
        public IntPtr Result;
    }

    /// <summary><c>v4a_workspace_files</c>.</summary>
    [StructLayout(LayoutKind.Sequential)]
    internal unsafe struct V4AWorkspaceFiles
    {
        public V4AWorkspaceFileNative* Ptr;
        public UIntPtr Len;
    }

    /// <summary><c>v4a_bytes_list</c>.</summary>
    [StructLayout(LayoutKind.Sequential)]
    internal unsafe struct V4ABytesList
    {
        public V4ABytes* Ptr;
        public UIntPtr Len;
    }

    internal static unsafe partial class Native
    {
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern uint v4a_workspace_options_init(V4AWorkspaceOptionsNative* options);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern uint v4a_workspace_apply(
            byte* root, UIntPtr rootLen, IntPtr patch, V4ASourceNative* bases, UIntPtr basesLen,
            V4AWorkspaceOptionsNative* options, IntPtr* resultOut);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern uint v4a_workspace_recover(byte* root, UIntPtr rootLen, IntPtr* resultOut);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern void v4a_workspace_result_free(IntPtr result);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern uint v4a_workspace_result_status(IntPtr result);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern V4AErrorNative* v4a_workspace_result_error(IntPtr result);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern uint v4a_workspace_result_failure(IntPtr result);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern uint v4a_workspace_result_needs_recovery(IntPtr result);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern uint v4a_workspace_result_written(IntPtr result);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern V4AWorkspaceFiles v4a_workspace_result_files(IntPtr result);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern V4ABytes v4a_workspace_result_summary(IntPtr result);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern V4ABytes v4a_workspace_result_notes(IntPtr result);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern uint v4a_workspace_result_recovery(IntPtr result);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern V4ABytesList v4a_workspace_result_recovered(IntPtr result);
    }

    public sealed partial class Patch
    {
        /// <summary>
        /// Applies this patch to the files under <paramref name="directory"/> through the library's
        /// workspace layer: every path is resolved under the directory through directory handles (a
        /// path that is absolute, climbs out with <c>..</c>, goes through a symbolic link out of
        /// the directory or names <c>.git/</c> is <see cref="V4AUnsafePathException"/>), every
        /// result is computed in memory first, then the files are replaced in one crash-safe
        /// transaction (an intent journal in <c>directory/.v4a/</c>) under the directory's lock; a
        /// file changed on disk since it was read is <see cref="V4AChangedOnDiskException"/>.
        /// Either every file is written or none is. Failures of the operating system are
        /// <see cref="V4AIoErrorException"/>.
        /// </summary>
        public DirectoryResult ApplyToDirectory(string directory, DirectoryOptions options = null)
        {
            DirectoryResult result;
            V4AError error;
            if (!TryApplyToDirectory(directory, options, out result, out error)) throw error.ToException();
            return result;
        }

        /// <summary><see cref="ApplyToDirectory"/> without exceptions: false with the error on failure.</summary>
        public bool TryApplyToDirectory(string directory, DirectoryOptions options, out DirectoryResult result, out V4AError error)
        {
            if (directory == null) throw new ArgumentNullException("directory");
            result = null;
            DirectoryOptions opts = options ?? new DirectoryOptions();
            byte[] root;
            error = Utf8.Encode(directory, "the directory", out root);
            if (error != null) return false;
            byte[][] bases = null;
            if (opts.ReadBase != null)
            {
                error = BasesOf(opts.ReadBase, out bases);
                if (error != null) return false;
            }
            // The apply computes no structured diff: each file's diff is read afterwards as
            // columns (v4a_result_line_diff), as Patch.Apply does.
            ApplyOptions engineOptions = opts.Engine ?? ApplyOptions.Default;
            V4AOptionsNative engine;
            error = engineOptions.NativeForApply(out engine);
            if (error != null) return false;
            if (opts.LockWait.HasValue && (opts.LockWait.Value < TimeSpan.Zero || opts.LockWait.Value.TotalMilliseconds > uint.MaxValue))
            {
                error = V4AError.Argument("DirectoryOptions.LockWait is " + opts.LockWait.Value + ": expected 0 up to about 49 days");
                return false;
            }
            EnsureLibrary();
            int n = bases == null ? 0 : bases.Length;
            var pins = new GCHandle[n];
            var natives = new V4ASourceNative[n];
            IntPtr r = IntPtr.Zero;
            bool added = false;
            try
            {
                handle.DangerousAddRef(ref added);
                uint status;
                unsafe
                {
                    V4AWorkspaceOptionsNative o;
                    Native.v4a_workspace_options_init(&o);
                    o.DryRun = opts.DryRun ? 1u : 0u;
                    o.AllowOverwrite = opts.AllowOverwrite ? 1u : 0u;
                    o.AllowReadOnly = opts.AllowReadOnly ? 1u : 0u;
                    o.AllowVcs = opts.AllowVcs ? 1u : 0u;
                    if (opts.LockWait.HasValue) o.LockWaitMs = (uint)opts.LockWait.Value.TotalMilliseconds;
                    o.Engine = &engine;
                    for (int i = 0; i < n; i++)
                    {
                        if (bases[i] == null) continue;
                        natives[i].Present = 1;
                        if (bases[i].Length == 0) continue;  // (NULL, 0): an empty base
                        pins[i] = GCHandle.Alloc(bases[i], GCHandleType.Pinned);
                        natives[i].Ptr = (byte*)pins[i].AddrOfPinnedObject();
                        natives[i].Len = (UIntPtr)bases[i].Length;
                    }
                    fixed (byte* d = root)
                    fixed (V4ASourceNative* b = natives)
                    {
                        status = Native.v4a_workspace_apply(
                            d, (UIntPtr)root.Length, handle.DangerousGetHandle(), b, (UIntPtr)n, &o, &r);
                    }
                }
                error = FromNative(r, status, engineOptions, out result);
                return error == null;
            }
            finally
            {
                Native.v4a_workspace_result_free(r);
                for (int i = 0; i < pins.Length; i++)
                    if (pins[i].IsAllocated) pins[i].Free();
                if (added) handle.DangerousRelease();
            }
        }

        /// <summary>
        /// Finishes or undoes an apply to <paramref name="directory"/> that a crash interrupted
        /// (<c>v4a recover</c>): afterwards every file of that apply is all old or all new, and the
        /// journal and the lock are gone. <see cref="DirectoryResult.Recovery"/> says what was done.
        /// </summary>
        public static DirectoryResult RecoverDirectory(string directory)
        {
            if (directory == null) throw new ArgumentNullException("directory");
            byte[] root;
            V4AError error = Utf8.Encode(directory, "the directory", out root);
            if (error != null) throw error.ToException();
            EnsureLibrary();
            IntPtr r = IntPtr.Zero;
            try
            {
                uint status;
                unsafe
                {
                    fixed (byte* d = root)
                    {
                        status = Native.v4a_workspace_recover(d, (UIntPtr)root.Length, &r);
                    }
                }
                DirectoryResult result;
                error = FromNative(r, status, null, out result);
                if (error != null) throw error.ToException();
                return result;
            }
            finally
            {
                Native.v4a_workspace_result_free(r);
            }
        }

        /// <summary>
        /// Copies a directory result; each file's structured diff is read as columns in the
        /// style of <paramref name="diffOptions"/> (<c>null</c>: the files' own diffs).
        /// </summary>
        private static unsafe V4AError FromNative(IntPtr r, uint status, ApplyOptions diffOptions, out DirectoryResult result)
        {
            result = null;
            if (r == IntPtr.Zero) return V4AError.InternalNoHandle();
            if (status != 0)
            {
                V4AError e = V4AError.FromNative(Native.v4a_workspace_result_error(r), status);
                e.Failure = (WorkspaceFailure)Native.v4a_workspace_result_failure(r);
                e.NeedsRecovery = Native.v4a_workspace_result_needs_recovery(r) == 1;
                return e;
            }
            V4AWorkspaceFiles files = Native.v4a_workspace_result_files(r);
            int n = Utf8.Length(files.Len);
            var list = new DirectoryFileResult[n];
            for (int i = 0; i < n; i++)
            {
                V4AWorkspaceFileNative* f = files.Ptr + i;
                ApplyResult applied;
                V4AError error = ApplyResult.FromNative(f->Result, null, 0, diffOptions, out applied);
                if (error != null) return error;
                list[i] = new DirectoryFileResult
                {
                    Kind = (OperationKind)f->Kind,
                    Change = (FileChange)f->Change,
                    Binary = f->Binary == 1,
                    Path = Utf8.Decode(f->Path),
                    MoveTo = Utf8.DecodeOrNull(f->MoveTo),
                    SourceKey = Utf8.Decode(f->SourceKey),
                    TargetKey = Utf8.DecodeOrNull(f->TargetKey),
                    Result = applied,
                };
            }
            V4ABytesList rec = Native.v4a_workspace_result_recovered(r);
            var recovered = new string[Utf8.Length(rec.Len)];
            for (int i = 0; i < recovered.Length; i++) recovered[i] = Utf8.Decode(rec.Ptr[i]);
            string notes = Utf8.Decode(Native.v4a_workspace_result_notes(r));
            result = new DirectoryResult
            {
                Files = new ReadOnlyCollection<DirectoryFileResult>(list),
                Summary = Utf8.Decode(Native.v4a_workspace_result_summary(r)),
                Written = Native.v4a_workspace_result_written(r) == 1,
                Recovery = (RecoveryAction)Native.v4a_workspace_result_recovery(r),
                Recovered = new ReadOnlyCollection<string>(recovered),
                Notes = new ReadOnlyCollection<string>(notes.Length == 0 ? new string[0] : notes.Split('\n')),
            };
            return null;
        }
    }
}
