namespace V4A
{
    /// <summary>
    /// Options for applying patches. A new instance holds the library's defaults (read from
    /// <c>v4a_options_init</c>, never copied here); passing <c>null</c> to an apply method
    /// means the defaults.
    /// An instance is only read by the calls it is passed to, so one instance may be shared
    /// by several threads as long as nobody changes it meanwhile.
    /// </summary>
    public sealed class ApplyOptions
    {
        /// <summary>The library's defaults (<c>v4a_options_init</c>), read once.</summary>
        private static readonly V4AOptionsNative Defaults = ReadDefaults();

        internal static V4AOptionsNative NativeDefaults { get { return Defaults; } }

        private static unsafe V4AOptionsNative ReadDefaults()
        {
            Patch.EnsureLibrary();
            var d = new V4AOptionsNative();
            uint status = Native.v4a_options_init(&d);
            if (status != 0) throw V4AError.FromNative(null, status).ToException();
            return d;
        }

        /// <summary>The default <see cref="SearchBudget"/> (200,000,000 line comparisons), as the library says.</summary>
        public static long DefaultSearchBudget { get { return (long)Defaults.SearchBudget; } }

        /// <summary>
        /// The customary context of a diff, as the library says (<c>V4A_DEFAULT_DIFF_CONTEXT</c>, 3):
        /// the default <see cref="DiffContext"/> and the context of <see cref="ApplyResult.GetUnifiedDiff()"/>.
        /// </summary>
        public static int DefaultDiffContext { get { return checked((int)Defaults.DiffContext); } }

        /// <summary>Creates options holding the library's defaults.</summary>
        public ApplyOptions()
        {
            V4AOptionsNative d = Defaults;
            MaxLevel = (MatchLevel)d.MaxLevel;
            MaxFuzz = d.MaxFuzz == Native.NoFuzzLimit ? (int?)null : checked((int)d.MaxFuzz);
            FirstMatch = d.FirstMatch != 0;
            AlreadyAppliedIsError = d.AlreadyAppliedIsError != 0;
            EnsureFinalNewline = d.EnsureFinalNewline != 0;
            AddFileLineEnding = (LineEnding)d.AddFileLineEnding;
            Diff = (DiffStyle)d.DiffStyle;
            DiffContext = checked((int)d.DiffContext);
            Refine = d.Refine != 0;
            RefineLimits = RefineLimits.FromNative(d);
            SearchBudget = checked((long)d.SearchBudget);
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

        /// <summary>Context lines around each change for <see cref="DiffStyle.Changes"/>. Default <see cref="DefaultDiffContext"/> (3).</summary>
        public int DiffContext { get; set; }

        /// <summary>Add character-level segments to the changed lines of the structured diff. Default <c>false</c>.</summary>
        public bool Refine { get; set; }

        /// <summary>The limits of that refinement (the limits <see cref="Patch.RefineLines"/> takes). Default: a new <see cref="V4A.RefineLimits"/> (the library's defaults).</summary>
        public RefineLimits RefineLimits { get; set; }

        /// <summary>Upper bound on search work per file, in line comparisons (<see cref="V4AStatus.SearchBudget"/> above it). Must be greater than 0. Default 200,000,000.</summary>
        public long SearchBudget { get; set; }

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
            V4AError limits = (RefineLimits ?? RefineLimits.Default).ToNative(ref native);
            if (limits != null) return limits;
            return null;
        }

        /// <summary>
        /// <see cref="ToNative(out V4AOptionsNative)"/> for an apply whose structured diff is read
        /// afterwards as columns (<c>v4a_result_line_diff</c>, see <c>ApplyResult.FromNative</c>):
        /// the apply itself computes no diff.
        /// </summary>
        internal V4AError NativeForApply(out V4AOptionsNative native)
        {
            V4AError error = ToNative(out native);
            native.DiffStyle = (uint)DiffStyle.None;
            return error;
        }

        /// <summary>A copy of these options.</summary>
        public ApplyOptions Clone()
        {
            var copy = (ApplyOptions)MemberwiseClone();
            if (RefineLimits != null) copy.RefineLimits = RefineLimits.Clone();
            return copy;
        }
    }

    /// <summary>
    /// Options for <see cref="Patch.MakePatch(string, string, string, GenerateOptions)"/>;
    /// a new instance holds the defaults (<c>v4a_generate_options_init</c>).
    /// </summary>
    public sealed class GenerateOptions
    {
        /// <summary>The library's defaults (<c>v4a_generate_options_init</c>), read once.</summary>
        private static readonly V4AGenerateOptionsNative Defaults = ReadDefaults();

        private static unsafe V4AGenerateOptionsNative ReadDefaults()
        {
            Patch.EnsureLibrary();
            var d = new V4AGenerateOptionsNative();
            uint status = Native.v4a_generate_options_init(&d);
            if (status != 0) throw V4AError.FromNative(null, status).ToException();
            return d;
        }

        /// <summary>Creates options holding the library's defaults: 3 lines of context, at most 50.</summary>
        public GenerateOptions()
        {
            Context = checked((int)Defaults.Context);
            MaxContext = checked((int)Defaults.MaxContext);
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
