using System;
using System.Collections.Generic;

namespace V4A
{
    /// <summary>
    /// A failure reported by v4a: the stable <see cref="Status"/>, the <see cref="Message"/>
    /// written for the model that produced the patch, and the structured diagnostics. Returned
    /// by the <c>Try</c> methods and carried by every <see cref="V4AException"/>. Immutable.
    /// </summary>
    public sealed class V4AError
    {
        private static readonly IReadOnlyList<int> NoCandidates = new int[0];

        internal V4AError(V4AStatus status, string message)
        {
            Status = status;
            Message = message ?? string.Empty;
            Candidates = NoCandidates;
        }

        /// <summary>The stable status code (never <see cref="V4AStatus.Ok"/>).</summary>
        public V4AStatus Status { get; private set; }

        /// <summary>The numeric status code, the same in every language (<c>V4A_STATUS_*</c>).</summary>
        public int Code { get { return (int)Status; } }

        /// <summary>The stable name of the status (<c>"AMBIGUOUS"</c>).</summary>
        public string StatusName { get { return Patch.StatusName(Status); } }

        /// <summary>A one-line description of the status's category (<c>"ambiguous match"</c>).</summary>
        public string Category { get { return Patch.StatusCategory(Status); } }

        /// <summary>The message, written for the model that produced the patch: send it back as the tool result.</summary>
        public string Message { get; private set; }

        /// <summary>1-based line of the patch text (as the caller gave it) where the problem is; <c>null</c> when absent.</summary>
        public int? Line { get; private set; }

        /// <summary>1-based number of the failing hunk within its file operation; <c>null</c> when absent.</summary>
        public int? Hunk { get; private set; }

        /// <summary>The file the failing operation works on, exactly as written in the patch; <c>null</c> for a bare diff or an error that concerns no file.</summary>
        public string Path { get; private set; }

        /// <summary>For ambiguity and overlap: the 1-based file lines of every candidate place (empty otherwise).</summary>
        public IReadOnlyList<int> Candidates { get; private set; }

        /// <summary>For ambiguity: a concrete fix (an anchor line or context that makes the hunk unique); <c>null</c> when absent.</summary>
        public string Suggestion { get; private set; }

        /// <summary>For not-found errors: the hunk rewritten with the file's real lines, ready to resend; <c>null</c> when absent.</summary>
        public string CorrectedHunk { get; private set; }

        /// <summary>For not-found errors: the first line (1-based) of the closest region of the file; <c>null</c> when absent.</summary>
        public int? ClosestStart { get; private set; }

        /// <summary>For not-found errors: the last line (1-based, inclusive) of the closest region; <c>null</c> when absent.</summary>
        public int? ClosestEnd { get; private set; }

        /// <summary>How similar the closest region is to the hunk's old side, from 0.0 to 1.0 (0.0 when absent).</summary>
        public double ClosestSimilarity { get; private set; }

        /// <summary>For <see cref="V4AStatus.InvalidUtf8"/>: the offset of the first invalid byte in the input named by <see cref="Input"/>; <c>null</c> when absent.</summary>
        public long? ByteOffset { get; private set; }

        /// <summary>For <see cref="V4AStatus.InvalidUtf8"/>: which input is at fault (<c>"source"</c>, <c>"patch"</c>, ...); <c>null</c> when absent.</summary>
        public string Input { get; private set; }

        /// <summary>For a workspace call (<see cref="Patch.ApplyToDirectory"/>): the kind of failure; <see cref="WorkspaceFailure.None"/> otherwise.</summary>
        public WorkspaceFailure Failure { get; internal set; }

        /// <summary>For a workspace call: a rollback could not finish and the intent journal was kept; call <see cref="Patch.RecoverDirectory"/>. Unless set, nothing was changed on disk.</summary>
        public bool NeedsRecovery { get; internal set; }

        /// <summary>The status name and the message.</summary>
        public override string ToString()
        {
            return StatusName + ": " + Message;
        }

        /// <summary>Throws this error as the <see cref="V4AException"/> subclass of its status.</summary>
        public V4AException ToException()
        {
            return V4AException.For(this);
        }

        internal static V4AError Argument(string message)
        {
            return new V4AError(V4AStatus.InvalidArgument, message);
        }

        internal static V4AError InternalNoHandle()
        {
            return new V4AError(
                V4AStatus.Internal,
                "internal error in v4a: a panic was caught at the native boundary (a bug in v4a: please report it)");
        }

        /// <summary>Copies a native error (owned by a handle that is still alive).</summary>
        internal static unsafe V4AError FromNative(V4AErrorNative* e, uint statusFallback)
        {
            if (e == null)
            {
                var status = statusFallback == 0 ? V4AStatus.Internal : (V4AStatus)statusFallback;
                return new V4AError(status, "v4a returned status " + Patch.StatusName(status) + " without an error");
            }
            var error = new V4AError((V4AStatus)e->Status, Utf8.Decode(e->Message));
            if (e->PatchLine != 0) error.Line = checked((int)e->PatchLine);
            if (e->Hunk != 0) error.Hunk = checked((int)e->Hunk);
            // A bare diff has no path: null, as documented, even if the library gives "".
            error.Path = Utf8.DecodeOrNull(e->Path);
            if (error.Path != null && error.Path.Length == 0) error.Path = null;
            error.Input = Utf8.DecodeOrNull(e->Input);
            error.Suggestion = Utf8.DecodeOrNull(e->Suggestion);
            error.CorrectedHunk = Utf8.DecodeOrNull(e->CorrectedHunk);
            if (e->ClosestStart != 0) error.ClosestStart = checked((int)e->ClosestStart);
            if (e->ClosestEnd != 0) error.ClosestEnd = checked((int)e->ClosestEnd);
            error.ClosestSimilarity = e->ClosestSimilarity;
            if (e->ByteOffset != Native.NoOffset) error.ByteOffset = checked((long)e->ByteOffset);
            int n = Utf8.Length(e->Candidates.Len);
            if (n > 0)
            {
                var candidates = new int[n];
                for (int i = 0; i < n; i++) candidates[i] = checked((int)e->Candidates.Ptr[i]);
                error.Candidates = candidates;
            }
            return error;
        }
    }

    /// <summary>
    /// The exception every v4a failure is thrown as: one subclass per status
    /// (<see cref="V4AAmbiguousException"/>, <see cref="V4AContextNotFoundException"/>, ...),
    /// with the structured diagnostics of <see cref="Error"/>. <see cref="Exception.Message"/>
    /// is the message written for the model.
    /// </summary>
    public class V4AException : Exception
    {
        /// <summary>Wraps an error (use <see cref="V4AError.ToException"/> to get the right subclass).</summary>
        public V4AException(V4AError error)
            : base(error == null ? "v4a error" : error.Message)
        {
            if (error == null) throw new ArgumentNullException("error");
            Error = error;
        }

        /// <summary>The error: status, message and diagnostics.</summary>
        public V4AError Error { get; private set; }

        /// <summary>The stable status code.</summary>
        public V4AStatus Status { get { return Error.Status; } }

        /// <summary>1-based patch line of the problem; <c>null</c> when absent.</summary>
        public int? Line { get { return Error.Line; } }

        /// <summary>1-based number of the failing hunk; <c>null</c> when absent.</summary>
        public int? Hunk { get { return Error.Hunk; } }

        /// <summary>The file the failing operation works on, as written in the patch; <c>null</c> when absent.</summary>
        public string Path { get { return Error.Path; } }

        /// <summary>For ambiguity and overlap: the 1-based file lines of every candidate place.</summary>
        public IReadOnlyList<int> Candidates { get { return Error.Candidates; } }

        /// <summary>For ambiguity: a concrete fix; <c>null</c> when absent.</summary>
        public string Suggestion { get { return Error.Suggestion; } }

        /// <summary>For not-found errors: the corrected hunk, ready to resend; <c>null</c> when absent.</summary>
        public string CorrectedHunk { get { return Error.CorrectedHunk; } }

        /// <summary>The exception of an error's status.</summary>
        internal static V4AException For(V4AError error)
        {
            switch (error.Status)
            {
                case V4AStatus.InvalidArgument: return new V4AInvalidArgumentException(error);
                case V4AStatus.NullArgument: return new V4ANullArgumentException(error);
                case V4AStatus.InvalidUtf8: return new V4AInvalidUtf8Exception(error);
                case V4AStatus.PatchSyntax: return new V4APatchSyntaxException(error);
                case V4AStatus.TruncatedPatch: return new V4ATruncatedPatchException(error);
                case V4AStatus.UnsupportedMode: return new V4AUnsupportedModeException(error);
                case V4AStatus.ContextNotFound: return new V4AContextNotFoundException(error);
                case V4AStatus.AnchorNotFound: return new V4AAnchorNotFoundException(error);
                case V4AStatus.Ambiguous: return new V4AAmbiguousException(error);
                case V4AStatus.OverlappingHunks: return new V4AOverlappingHunksException(error);
                case V4AStatus.AlreadyApplied: return new V4AAlreadyAppliedException(error);
                case V4AStatus.FuzzLimit: return new V4AFuzzLimitException(error);
                case V4AStatus.SearchBudget: return new V4ASearchBudgetException(error);
                case V4AStatus.MissingSource: return new V4AMissingSourceException(error);
                case V4AStatus.DuplicatePath: return new V4ADuplicatePathException(error);
                case V4AStatus.Internal: return new V4AInternalException(error);
                case V4AStatus.FileExists: return new V4AFileExistsException(error);
                case V4AStatus.Conflict: return new V4AConflictException(error);
                case V4AStatus.ChangedOnDisk: return new V4AChangedOnDiskException(error);
                case V4AStatus.UnsafePath: return new V4AUnsafePathException(error);
                case V4AStatus.Locked: return new V4ALockedException(error);
                case V4AStatus.InconsistentIndentation: return new V4AInconsistentIndentationException(error);
                case V4AStatus.IoError: return new V4AIoErrorException(error);
                default: return new V4AException(error);
            }
        }
    }

    /// <summary><see cref="V4AStatus.InvalidArgument"/>: an argument is out of range or inconsistent.</summary>
    public sealed class V4AInvalidArgumentException : V4AException
    {
        /// <summary>Wraps an error.</summary>
        public V4AInvalidArgumentException(V4AError error) : base(error) { }
    }

    /// <summary><see cref="V4AStatus.NullArgument"/>: a required native pointer was NULL.</summary>
    public sealed class V4ANullArgumentException : V4AException
    {
        /// <summary>Wraps an error.</summary>
        public V4ANullArgumentException(V4AError error) : base(error) { }
    }

    /// <summary><see cref="V4AStatus.InvalidUtf8"/>: an input is not UTF-8 (see <see cref="V4AError.ByteOffset"/>).</summary>
    public sealed class V4AInvalidUtf8Exception : V4AException
    {
        /// <summary>Wraps an error.</summary>
        public V4AInvalidUtf8Exception(V4AError error) : base(error) { }
    }

    /// <summary><see cref="V4AStatus.PatchSyntax"/>: the patch does not follow the grammar (see <see cref="V4AException.Line"/>).</summary>
    public sealed class V4APatchSyntaxException : V4AException
    {
        /// <summary>Wraps an error.</summary>
        public V4APatchSyntaxException(V4AError error) : base(error) { }
    }

    /// <summary><see cref="V4AStatus.TruncatedPatch"/>: <c>*** Begin Patch</c> without <c>*** End Patch</c>.</summary>
    public sealed class V4ATruncatedPatchException : V4AException
    {
        /// <summary>Wraps an error.</summary>
        public V4ATruncatedPatchException(V4AError error) : base(error) { }
    }

    /// <summary><see cref="V4AStatus.UnsupportedMode"/>: a mode other than update, create, delete or move.</summary>
    public sealed class V4AUnsupportedModeException : V4AException
    {
        /// <summary>Wraps an error.</summary>
        public V4AUnsupportedModeException(V4AError error) : base(error) { }
    }

    /// <summary><see cref="V4AStatus.ContextNotFound"/>: a hunk's old side is nowhere (see <see cref="V4AException.CorrectedHunk"/>).</summary>
    public sealed class V4AContextNotFoundException : V4AException
    {
        /// <summary>Wraps an error.</summary>
        public V4AContextNotFoundException(V4AError error) : base(error) { }
    }

    /// <summary><see cref="V4AStatus.AnchorNotFound"/>: an <c>@@</c> anchor is nowhere.</summary>
    public sealed class V4AAnchorNotFoundException : V4AException
    {
        /// <summary>Wraps an error.</summary>
        public V4AAnchorNotFoundException(V4AError error) : base(error) { }
    }

    /// <summary><see cref="V4AStatus.Ambiguous"/>: a hunk or anchor matches several places (see <see cref="V4AException.Candidates"/> and <see cref="V4AException.Suggestion"/>).</summary>
    public sealed class V4AAmbiguousException : V4AException
    {
        /// <summary>Wraps an error.</summary>
        public V4AAmbiguousException(V4AError error) : base(error) { }
    }

    /// <summary><see cref="V4AStatus.OverlappingHunks"/>: two hunks change the same lines.</summary>
    public sealed class V4AOverlappingHunksException : V4AException
    {
        /// <summary>Wraps an error.</summary>
        public V4AOverlappingHunksException(V4AError error) : base(error) { }
    }

    /// <summary><see cref="V4AStatus.AlreadyApplied"/>: the change is already there (only with <see cref="ApplyOptions.AlreadyAppliedIsError"/>).</summary>
    public sealed class V4AAlreadyAppliedException : V4AException
    {
        /// <summary>Wraps an error.</summary>
        public V4AAlreadyAppliedException(V4AError error) : base(error) { }
    }

    /// <summary><see cref="V4AStatus.FuzzLimit"/>: the total fuzz exceeds <see cref="ApplyOptions.MaxFuzz"/>.</summary>
    public sealed class V4AFuzzLimitException : V4AException
    {
        /// <summary>Wraps an error.</summary>
        public V4AFuzzLimitException(V4AError error) : base(error) { }
    }

    /// <summary><see cref="V4AStatus.SearchBudget"/>: locating exceeded <see cref="ApplyOptions.SearchBudget"/>.</summary>
    public sealed class V4ASearchBudgetException : V4AException
    {
        /// <summary>Wraps an error.</summary>
        public V4ASearchBudgetException(V4AError error) : base(error) { }
    }

    /// <summary><see cref="V4AStatus.MissingSource"/>: the caller did not supply a file the patch reads.</summary>
    public sealed class V4AMissingSourceException : V4AException
    {
        /// <summary>Wraps an error.</summary>
        public V4AMissingSourceException(V4AError error) : base(error) { }
    }

    /// <summary><see cref="V4AStatus.DuplicatePath"/>: two operations touch one path.</summary>
    public sealed class V4ADuplicatePathException : V4AException
    {
        /// <summary>Wraps an error.</summary>
        public V4ADuplicatePathException(V4AError error) : base(error) { }
    }

    /// <summary><see cref="V4AStatus.Internal"/>: a bug in v4a (a caught panic). Please report it.</summary>
    public sealed class V4AInternalException : V4AException
    {
        /// <summary>Wraps an error.</summary>
        public V4AInternalException(V4AError error) : base(error) { }
    }

    /// <summary><see cref="V4AStatus.FileExists"/>: an Add File or Move to names a file that already exists.</summary>
    public sealed class V4AFileExistsException : V4AException
    {
        /// <summary>Wraps an error.</summary>
        public V4AFileExistsException(V4AError error) : base(error) { }
    }

    /// <summary><see cref="V4AStatus.Conflict"/>: base-aware apply: a hunk changes lines the current text also changed.</summary>
    public sealed class V4AConflictException : V4AException
    {
        /// <summary>Wraps an error.</summary>
        public V4AConflictException(V4AError error) : base(error) { }
    }

    /// <summary><see cref="V4AStatus.ChangedOnDisk"/>: a file changed on disk after it was read; nothing was written.</summary>
    public sealed class V4AChangedOnDiskException : V4AException
    {
        /// <summary>Wraps an error.</summary>
        public V4AChangedOnDiskException(V4AError error) : base(error) { }
    }

    /// <summary><see cref="V4AStatus.UnsafePath"/>: a path leaves the root or names version-control metadata.</summary>
    public sealed class V4AUnsafePathException : V4AException
    {
        /// <summary>Wraps an error.</summary>
        public V4AUnsafePathException(V4AError error) : base(error) { }
    }

    /// <summary><see cref="V4AStatus.Locked"/>: another apply holds the root's lock.</summary>
    public sealed class V4ALockedException : V4AException
    {
        /// <summary>Wraps an error.</summary>
        public V4ALockedException(V4AError error) : base(error) { }
    }

    /// <summary><see cref="V4AStatus.InconsistentIndentation"/>: the matched lines admit no consistent indentation map.</summary>
    public sealed class V4AInconsistentIndentationException : V4AException
    {
        /// <summary>Wraps an error.</summary>
        public V4AInconsistentIndentationException(V4AError error) : base(error) { }
    }
}
