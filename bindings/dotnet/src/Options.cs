namespace V4A
{
    /// <summary>
    /// Options for applying patches. A new instance holds the defaults (the same as
    /// <c>v4a_options_init</c>); passing <c>null</c> to an apply method means the defaults.
    /// An instance is only read by the calls it is passed to, so one instance may be shared
    /// by several threads as long as nobody changes it meanwhile.
    /// </summary>
    public sealed class ApplyOptions
    {
        /// <summary>The default <see cref="SearchBudget"/>: 200,000,000 line comparisons.</summary>
        public const long DefaultSearchBudget = 200000000;

        /// <summary>Creates options holding the defaults.</summary>
        public ApplyOptions()
        {
            MaxLevel = MatchLevel.Fold;
            DiffContext = 3;
            SearchBudget = DefaultSearchBudget;
            UnifiedDiff = true;
            UnifiedDiffContext = 3;
        }

        /// <summary>Options for strict mode: only exact matches (<see cref="MatchLevel.Exact"/>).</summary>
        public static ApplyOptions Strict()
        {
            return new ApplyOptions { MaxLevel = MatchLevel.Exact };
        }

        /// <summary>The loosest match level tried (default <see cref="MatchLevel.Fold"/>); <see cref="MatchLevel.Exact"/> is strict mode.</summary>
        public MatchLevel MaxLevel { get; set; }

        /// <summary>The largest total fuzz accepted for one file (<see cref="V4AStatus.FuzzLimit"/> above it); <c>null</c> (the default) for no limit.</summary>
        public int? MaxFuzz { get; set; }

        /// <summary>Take the first candidate instead of failing with <see cref="V4AStatus.Ambiguous"/> (older engines' behaviour). Default <c>false</c>.</summary>
        public bool FirstMatch { get; set; }

        /// <summary>Report a hunk whose change is already present as <see cref="V4AStatus.AlreadyApplied"/> instead of a no-op. Default <c>false</c>.</summary>
        public bool AlreadyAppliedIsError { get; set; }

        /// <summary>Always end the new text with a line terminator. Default <c>false</c> (the file's final-newline state is kept).</summary>
        public bool EnsureFinalNewline { get; set; }

        /// <summary>The terminator <c>*** Add File</c> and <see cref="ApplyMode.Create"/> write. Default <see cref="LineEnding.Lf"/>.</summary>
        public LineEnding AddFileLineEnding { get; set; }

        /// <summary>Which structured line diff <see cref="ApplyResult.Lines"/> holds. Default <see cref="DiffStyle.None"/> (empty, the cheapest).</summary>
        public DiffStyle Diff { get; set; }

        /// <summary>Context lines around each change for <see cref="DiffStyle.Changes"/>. Default 3.</summary>
        public int DiffContext { get; set; }

        /// <summary>Add character-level segments to the changed lines of the structured diff. Default <c>false</c>.</summary>
        public bool Refine { get; set; }

        /// <summary>Upper bound on search work per file, in line comparisons (<see cref="V4AStatus.SearchBudget"/> above it). Must be greater than 0. Default 200,000,000.</summary>
        public long SearchBudget { get; set; }

        /// <summary>Whether <see cref="ApplyResult.UnifiedDiff"/> holds the change as a unified diff (default <c>true</c>). It is rendered on first access, so an apply whose diff is never read does not pay for it. When <c>false</c>, the property is <c>null</c> (<see cref="ApplyResult.GetUnifiedDiff"/> still renders one).</summary>
        public bool UnifiedDiff { get; set; }

        /// <summary>Context lines of <see cref="ApplyResult.UnifiedDiff"/>. Default 3.</summary>
        public int UnifiedDiffContext { get; set; }

        internal static readonly ApplyOptions Default = new ApplyOptions();

        /// <summary>Checks the values and fills the native struct; returns null when they are valid.</summary>
        internal V4AError ToNative(out V4AOptionsNative native)
        {
            native = new V4AOptionsNative();
            if (MaxFuzz.HasValue && MaxFuzz.Value < 0)
                return V4AError.Argument("ApplyOptions.MaxFuzz must be null or at least 0, not " + MaxFuzz.Value + ".");
            if (DiffContext < 0)
                return V4AError.Argument("ApplyOptions.DiffContext must be at least 0, not " + DiffContext + ".");
            if (SearchBudget < 0)
                return V4AError.Argument("ApplyOptions.SearchBudget must be greater than 0, not " + SearchBudget + ".");
            if (UnifiedDiffContext < 0)
                return V4AError.Argument("ApplyOptions.UnifiedDiffContext must be at least 0, not " + UnifiedDiffContext + ".");
            unsafe
            {
                native.StructSize = (uint)sizeof(V4AOptionsNative);
            }
            // Values that name no constant are passed on as they are: the library refuses them
            // with INVALID_ARGUMENT and a message, never a silent default.
            native.MaxLevel = (uint)MaxLevel;
            native.MaxFuzz = MaxFuzz.HasValue ? (uint)MaxFuzz.Value : Native.NoFuzzLimit;
            native.FirstMatch = FirstMatch ? 1u : 0u;
            native.AlreadyAppliedIsError = AlreadyAppliedIsError ? 1u : 0u;
            native.EnsureFinalNewline = EnsureFinalNewline ? 1u : 0u;
            native.AddFileLineEnding = (uint)AddFileLineEnding;
            native.DiffStyle = (uint)Diff;
            native.DiffContext = (uint)DiffContext;
            native.Refine = Refine ? 1u : 0u;
            native.SearchBudget = (ulong)SearchBudget;
            return null;
        }

        /// <summary>A copy of these options.</summary>
        public ApplyOptions Clone()
        {
            return (ApplyOptions)MemberwiseClone();
        }
    }

    /// <summary>
    /// Options for <see cref="V4APatch.MakePatch(string, string, string, GenerateOptions)"/>;
    /// a new instance holds the defaults (<c>v4a_generate_options_init</c>).
    /// </summary>
    public sealed class GenerateOptions
    {
        /// <summary>Creates options holding the defaults: 3 lines of context, at most 50.</summary>
        public GenerateOptions()
        {
            Context = 3;
            MaxContext = 50;
        }

        /// <summary>Unchanged lines shown before and after each change. Default 3.</summary>
        public int Context { get; set; }

        /// <summary>The most context a hunk may grow to while it is made unique. Default 50.</summary>
        public int MaxContext { get; set; }

        internal V4AError ToNative(out V4AGenerateOptionsNative native)
        {
            native = new V4AGenerateOptionsNative();
            if (Context < 0)
                return V4AError.Argument("GenerateOptions.Context must be at least 0, not " + Context + ".");
            if (MaxContext < 0)
                return V4AError.Argument("GenerateOptions.MaxContext must be at least 0, not " + MaxContext + ".");
            unsafe
            {
                native.StructSize = (uint)sizeof(V4AGenerateOptionsNative);
            }
            native.Context = (uint)Context;
            native.MaxContext = (uint)MaxContext;
            return null;
        }
    }
}
