using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text;
using Xunit;

namespace V4A.Tests
{
    /// <summary>
    /// Runs every shared test vector of tests/vectors/ through the C# API, with the semantics of
    /// the Rust runner (tests/vectors.rs; format in tests/vectors/README.md): `mode` cases through
    /// the single-file byte[] API with the mode given by name, the others through Patch.Parse and
    /// Patch.Apply over the files of before/ (Patch.ApplyWithBases with the files of base/ when the
    /// case has base/), with the case's `options`. The outcome is rendered
    /// in the canonical form and compared byte for byte with the `outcome` file, the whole
    /// after-state with `after/`; and every file result's unified diff (rendered from the copied
    /// parts) is compared with the library's rendering of the live native result.
    /// </summary>
    public class VectorTests
    {
        /// <summary>The smallest number of vectors the suite may hold (as the Rust runner).</summary>
        private const int MinVectors = 150;

        private static readonly string[] KnownEntries = { "patch", "before", "base", "after", "mode", "options", "outcome" };

        private static string[] CaseNames()
        {
            return Directory.GetDirectories(TestSupport.VectorsDir)
                .Select(Path.GetFileName)
                .OrderBy(n => n, StringComparer.Ordinal)
                .ToArray();
        }

        /// <summary>One row per case folder.</summary>
        public static IEnumerable<object[]> Cases
        {
            get { return CaseNames().Select(n => new object[] { n }); }
        }

        [Fact]
        public void VectorsAreNumerous()
        {
            string[] names = CaseNames();
            Assert.True(names.Length >= MinVectors, "tests/vectors holds " + names.Length + " cases; at least " + MinVectors + " are required");
        }

        [Theory]
        [MemberData(nameof(Cases))]
        public void Vector(string name)
        {
            Case c = Case.Load(Path.Combine(TestSupport.VectorsDir, name));
            string report = c.Run();
            if (report.Length > 0) Assert.Fail("vector " + name + ":\n" + report);
        }

        // -------------------------------------------------------------------------------------

        /// <summary>What an apply produced: the files after it, and each file result.</summary>
        private sealed class Produced
        {
            public SortedDictionary<string, byte[]> Files = new SortedDictionary<string, byte[]>(StringComparer.Ordinal);
            /// <summary>Every file result (added, deleted and moved files too), in patch order.</summary>
            public List<ApplyResult> All = new List<ApplyResult>();
            /// <summary>The operations of <see cref="All"/> (none in a mode case).</summary>
            public List<FileResult> Ops = new List<FileResult>();
        }

        /// <summary>The contexts of the unified diff cross-check.</summary>
        private static readonly int[] UnifiedContexts = { 0, 1, 3, 5 };

        private sealed class Case
        {
            public string Name;
            public byte[] Patch;
            public SortedDictionary<string, byte[]> Before;
            /// <summary>base/: the files as the model saw them; null when the folder has none.</summary>
            public SortedDictionary<string, byte[]> Base;
            public SortedDictionary<string, byte[]> After;
            public bool HasAfter;
            public string Outcome;
            public string Mode;
            public ApplyOptions Options;

            /// <summary>Every file under root, keyed by its relative path with '/' separators.</summary>
            private static SortedDictionary<string, byte[]> ReadTree(string root)
            {
                var files = new SortedDictionary<string, byte[]>(StringComparer.Ordinal);
                if (!Directory.Exists(root)) return files;
                foreach (string f in Directory.GetFiles(root, "*", SearchOption.AllDirectories))
                {
                    string rel = f.Substring(root.Length + 1).Replace(Path.DirectorySeparatorChar, '/');
                    files[rel] = File.ReadAllBytes(f);
                }
                return files;
            }

            private static string ReadText(string path)
            {
                if (!File.Exists(path)) return null;
                return new UTF8Encoding(false, true).GetString(File.ReadAllBytes(path));
            }

            private static bool ParseBool(string k, string v)
            {
                if (v == "true") return true;
                if (v == "false") return false;
                throw new FormatException("option " + k + ": expected true or false, found \"" + v + "\"");
            }

            /// <summary>The `options` file (the input of a case): key=value lines.</summary>
            private static ApplyOptions ReadOptions(string text)
            {
                var o = new ApplyOptions();
                foreach (string line in (text ?? "").Split('\n'))
                {
                    if (line.Trim().Length == 0) continue;
                    int eq = line.IndexOf('=');
                    if (eq < 0) throw new FormatException("bad vector: bad option line \"" + line + "\"");
                    string k = line.Substring(0, eq).Trim(), v = line.Substring(eq + 1).Trim();
                    int n;
                    switch (k)
                    {
                        case "max_level":
                            int level = Array.IndexOf(new[] { "exact", "trim_end", "trim", "collapse", "fold" }, v);
                            if (level < 0) throw new FormatException("unknown level \"" + v + "\"");
                            o.MaxLevel = (MatchLevel)level;
                            break;
                        case "max_fuzz":
                            if (!int.TryParse(v, out n) || n < 0) throw new FormatException("max_fuzz: expected a number, found \"" + v + "\"");
                            o.MaxFuzz = n;
                            break;
                        case "first_match": o.FirstMatch = ParseBool(k, v); break;
                        case "already_applied_error": o.AlreadyAppliedIsError = ParseBool(k, v); break;
                        case "ensure_final_newline": o.EnsureFinalNewline = ParseBool(k, v); break;
                        case "add_file_line_ending":
                            if (v == "lf") o.AddFileLineEnding = LineEnding.Lf;
                            else if (v == "crlf") o.AddFileLineEnding = LineEnding.CrLf;
                            else throw new FormatException("add_file_line_ending: expected lf or crlf, found \"" + v + "\"");
                            break;
                        default: throw new FormatException("bad vector: unknown option \"" + k + "\"");
                    }
                }
                return o;
            }

            public static Case Load(string dir)
            {
                var c = new Case { Name = Path.GetFileName(dir) };
                foreach (string entry in Directory.GetFileSystemEntries(dir).Select(Path.GetFileName))
                {
                    if (!KnownEntries.Contains(entry))
                        throw new FormatException("bad vector: unknown entry \"" + entry + "\" (old `error`/`expect` checks are converted with V4A_BLESS=1 cargo test -p v4a --test vectors)");
                }
                string patchPath = Path.Combine(dir, "patch");
                if (!File.Exists(patchPath)) throw new FormatException("bad vector: missing `patch` file");
                c.Patch = File.ReadAllBytes(patchPath);
                c.Outcome = ReadText(Path.Combine(dir, "outcome"));
                if (c.Outcome == null) throw new FormatException("bad vector: no `outcome` file (bless it: V4A_BLESS=1 cargo test -p v4a --test vectors)");
                c.Before = ReadTree(Path.Combine(dir, "before"));
                string afterDir = Path.Combine(dir, "after");
                c.HasAfter = Directory.Exists(afterDir);
                c.After = ReadTree(afterDir);
                string mode = ReadText(Path.Combine(dir, "mode"));
                if (mode != null) c.Mode = mode.Trim();
                if (Directory.Exists(Path.Combine(dir, "base")))
                {
                    if (mode != null) throw new FormatException("bad vector: a `mode` case has no base/");
                    c.Base = ReadTree(Path.Combine(dir, "base"));
                }
                c.Options = ReadOptions(ReadText(Path.Combine(dir, "options")));
                return c;
            }

            // ---------------------------------------------------------------------------------

            private bool RunSingle(out Produced produced, out V4AError error)
            {
                produced = null;
                byte[] source = Before.Count > 0 ? Before.Values.First() : new byte[0];
                ApplyResult result;
                if (!global::V4A.Patch.TryApply(source, Patch, Mode, Options, out result, out error)) return false;
                // The result's Source is the source as given, byte for byte (empty for create).
                byte[] expectedSource = Mode == "create" ? new byte[0] : source;
                if (!TestSupport.BytesEqual(Encoding.UTF8.GetBytes(result.Source), expectedSource))
                    throw new InvalidOperationException("Result.Source differs from the source given");
                produced = new Produced();
                byte[] text = result.GetTextBytes();
                if (text.Length > 0) produced.Files["<text>"] = text;
                produced.All.Add(result);
                return true;
            }

            private bool RunMulti(out Produced produced, out V4AError error)
            {
                produced = null;
                error = null;
                Patch patch;
                try
                {
                    patch = V4A.Patch.Parse(Patch);
                }
                catch (V4AException e)
                {
                    error = e.Error;
                    return false;
                }
                using (patch)
                {
                    PatchResult result;
                    try
                    {
                        result = Base == null
                            ? patch.Apply(new Dictionary<string, byte[]>(Before), Options)
                            : patch.ApplyWithBases(Texts(Before), Texts(Base), Options);
                    }
                    catch (V4AException e)
                    {
                        error = e.Error;
                        return false;
                    }
                    // The after-state: before/ plus each file result.
                    var files = new Dictionary<string, byte[]>(Before);
                    result.ApplyTo(files);
                    produced = new Produced();
                    foreach (var kv in files) produced.Files[kv.Key] = kv.Value;
                    foreach (FileResult f in result.Files)
                    {
                        produced.All.Add(f.Result);
                        produced.Ops.Add(f);
                        if (f.Kind != OperationKind.Update) continue;
                        // The result's Source is the file as given, byte for byte.
                        if (!TestSupport.BytesEqual(Encoding.UTF8.GetBytes(f.Result.Source), Before[f.Path]))
                            throw new InvalidOperationException("Result.Source of " + f.Path + " differs from before/" + f.Path);
                    }
                }
                return true;
            }

            /// <summary>The files as UTF-8 texts (a multi-file case's files are UTF-8; a BOM stays U+FEFF).</summary>
            private static Dictionary<string, string> Texts(SortedDictionary<string, byte[]> files)
            {
                return files.ToDictionary(kv => kv.Key, kv => Encoding.UTF8.GetString(kv.Value));
            }

            public string Run()
            {
                Produced produced;
                V4AError error;
                bool ok = Mode != null ? RunSingle(out produced, out error) : RunMulti(out produced, out error);
                var report = new StringBuilder();
                string got = ok ? Render(produced) : RenderError(error);
                if (got != Outcome) report.Append(LineDiff(Outcome, got));
                if (!ok)
                {
                    if (HasAfter) report.Append("  after/ exists, but the patch failed\n");
                    return report.ToString();
                }
                if (Mode != null)
                {
                    byte[] want = After.Count > 0 ? After.Values.First() : new byte[0];
                    byte[] text = produced.Files.Count > 0 ? produced.Files.Values.First() : new byte[0];
                    if (!TestSupport.BytesEqual(want, text))
                        report.Append("  text differs from after/\n").Append(TestSupport.ShowDiff(want, text));
                }
                else
                {
                    foreach (string path in After.Keys.Union(produced.Files.Keys).OrderBy(p => p, StringComparer.Ordinal))
                    {
                        byte[] w, g;
                        bool hasW = After.TryGetValue(path, out w), hasG = produced.Files.TryGetValue(path, out g);
                        if (hasW && hasG && !TestSupport.BytesEqual(w, g))
                            report.Append("  " + path + " differs from after/\n").Append(TestSupport.ShowDiff(w, g));
                        else if (hasW && !hasG)
                            report.Append("  " + path + ": expected in after/, missing from the result\n");
                        else if (!hasW && hasG)
                            report.Append("  " + path + ": present in the result, not in after/: " + TestSupport.Show(g) + "\n");
                    }
                }
                // The unified-diff cross-check replays the plain apply: not for a case with bases.
                if (Base == null)
                    foreach (string problem in CrossCheckUnified(produced)) report.Append("  ").Append(problem).Append('\n');
                return report.ToString();
            }

            // ---------------------------------------------------------------------------------
            // The canonical outcome (tests/vectors/README.md, "The outcome file")
            // ---------------------------------------------------------------------------------

            /// <summary>A string escaped for one line of an outcome file.</summary>
            private static string Esc(string s)
            {
                var b = new StringBuilder();
                foreach (char c in s)
                {
                    if (c == '\\') b.Append("\\\\");
                    else if (c == '\n') b.Append("\\n");
                    else if (c == '\r') b.Append("\\r");
                    else if (c == '\t') b.Append("\\t");
                    else if (c < 0x20 || c == 0x7f) b.Append("\\x").Append(((int)c).ToString("x2"));
                    else b.Append(c);
                }
                return b.ToString();
            }

            /// <summary>key: and one "| " line per '\n'-separated piece ("|" for an empty one).</summary>
            private static void Block(StringBuilder b, string key, string text)
            {
                b.Append(key).Append(":\n");
                foreach (string piece in text.Split('\n'))
                    b.Append(piece.Length == 0 ? "|\n" : "| " + Esc(piece) + "\n");
            }

            private static string RenderError(V4AError e)
            {
                var b = new StringBuilder();
                b.Append("status: ").Append(e.StatusName).Append('\n');
                Block(b, "message", e.Message);
                if (!string.IsNullOrEmpty(e.Path)) b.Append("path: ").Append(Esc(e.Path)).Append('\n');
                if (e.Line.HasValue) b.Append("patch_line: ").Append(e.Line.Value).Append('\n');
                if (e.Hunk.HasValue) b.Append("hunk: ").Append(e.Hunk.Value).Append('\n');
                if (e.ByteOffset.HasValue) b.Append("byte_offset: ").Append(e.ByteOffset.Value).Append('\n');
                if (!string.IsNullOrEmpty(e.Input)) b.Append("input: ").Append(Esc(e.Input)).Append('\n');
                if (e.Candidates != null && e.Candidates.Count > 0) b.Append("candidates: ").Append(string.Join(",", e.Candidates)).Append('\n');
                if (!string.IsNullOrEmpty(e.Suggestion)) Block(b, "suggestion", e.Suggestion);
                if (e.ClosestStart.HasValue)
                {
                    // Thousandths, rounded the same way by every runner.
                    ulong milli = (ulong)Math.Floor(e.ClosestSimilarity * 1000.0 + 0.5);
                    b.Append("closest: ").Append(e.ClosestStart.Value).Append('-').Append(e.ClosestEnd ?? 0)
                        .Append(" similarity=").Append(milli / 1000).Append('.').Append((milli % 1000).ToString("000")).Append('\n');
                }
                if (!string.IsNullOrEmpty(e.CorrectedHunk)) Block(b, "corrected_hunk", e.CorrectedHunk);
                return b.ToString();
            }

            private static string NoneOr(List<string> list)
            {
                return list.Count == 0 ? "none" : string.Join(",", list);
            }

            private static void RenderHunks(StringBuilder b, string indent, ApplyResult r)
            {
                b.Append(indent).Append("fuzz: ").Append(r.Fuzz).Append('\n');
                for (int i = 0; i < r.Hunks.Count; i++)
                {
                    HunkReport h = r.Hunks[i];
                    var flags = new List<string>();
                    if (h.Reindented) flags.Add("reindented");
                    if (h.AlreadyApplied) flags.Add("already_applied");
                    if (h.EndOfFile) flags.Add("end_of_file");
                    if (h.OutOfOrder) flags.Add("out_of_order");
                    if (h.Merged) flags.Add("merged");
                    if (h.AnchorIgnored) flags.Add("anchor_ignored");
                    if (h.ContextRelaxed) flags.Add("context_relaxed");
                    var levels = h.LineLevels.Select(l => global::V4A.Patch.LevelName(l)).ToList();
                    b.Append(indent).Append("hunk ").Append(i + 1).Append(": old=").Append(h.OldStart).Append(',').Append(h.OldLength)
                        .Append(" new=").Append(h.NewStart).Append(',').Append(h.NewLength)
                        .Append(" level=").Append(global::V4A.Patch.LevelName(h.Level)).Append(" fuzz=").Append(h.Fuzz)
                        .Append(" candidates=").Append(h.Candidates).Append(" patch_line=").Append(h.PatchLine)
                        .Append(" flags=").Append(NoneOr(flags)).Append(" line_levels=").Append(NoneOr(levels)).Append('\n');
                }
            }

            private string Render(Produced p)
            {
                var b = new StringBuilder("status: OK\n");
                if (Mode != null)
                {
                    b.Append("text: ").Append(p.All[0].GetTextBytes().Length).Append(" bytes\n");
                    RenderHunks(b, "", p.All[0]);
                    return b.ToString();
                }
                for (int i = 0; i < p.Ops.Count; i++)
                {
                    FileResult f = p.Ops[i];
                    b.Append("op ").Append(i + 1).Append(": ").Append(f.Kind.ToString().ToLowerInvariant()).Append(' ').Append(Esc(f.Path));
                    if (f.MoveTo != null) b.Append(" -> ").Append(Esc(f.MoveTo));
                    b.Append('\n');
                    RenderHunks(b, "  ", f.Result);
                }
                foreach (var kv in p.Files) b.Append("file ").Append(Esc(kv.Key)).Append(": ").Append(kv.Value.Length).Append(" bytes\n");
                return b.ToString();
            }

            /// <summary>The lines between the common first and last lines of two outcomes.</summary>
            private static string LineDiff(string want, string got)
            {
                string[] w = want.Split('\n'), g = got.Split('\n');
                int pre = 0, suf = 0;
                while (pre < w.Length && pre < g.Length && w[pre] == g[pre]) pre++;
                while (suf < w.Length - pre && suf < g.Length - pre && w[w.Length - 1 - suf] == g[g.Length - 1 - suf]) suf++;
                var b = new StringBuilder("  outcome differs at line " + (pre + 1) + " (- the outcome file, + this run):\n");
                for (int i = pre; i < w.Length - suf; i++) b.Append("    -").Append(w[i]).Append('\n');
                for (int i = pre; i < g.Length - suf; i++) b.Append("    +").Append(g[i]).Append('\n');
                return b.ToString();
            }

            /// <summary>
            /// Compares each file result's unified diff (<see cref="ApplyResult.GetUnifiedDiff(int)"/>) with the library's
            /// rendering of the same apply's live result (<c>v4a_result_unified_diff</c>).
            /// </summary>
            private List<string> CrossCheckUnified(Produced produced)
            {
                var problems = new List<string>();
                List<string[]> native = Mode != null ? NativeSingleUnified() : NativeMultiUnified();
                if (native.Count != produced.All.Count)
                {
                    problems.Add("the native apply gave " + native.Count + " file results, the C# one " + produced.All.Count);
                    return problems;
                }
                for (int i = 0; i < native.Count; i++)
                {
                    ApplyResult r = produced.All[i];
                    for (int k = 0; k < UnifiedContexts.Length; k++)
                    {
                        string got = r.GetUnifiedDiff(UnifiedContexts[k]);
                        if (got != native[i][k])
                            problems.Add("file " + (i + 1) + ": GetUnifiedDiff(" + UnifiedContexts[k] + ") differs from the library's:\n    library: "
                                + TestSupport.Show(Encoding.UTF8.GetBytes(native[i][k])) + "\n    c#:      " + TestSupport.Show(Encoding.UTF8.GetBytes(got)));
                    }
                    if (r.GetUnifiedDiff() != native[i][Array.IndexOf(UnifiedContexts, 3)])
                        problems.Add("file " + (i + 1) + ": GetUnifiedDiff() differs from GetUnifiedDiff(3)");
                }
                return problems;
            }

            private unsafe List<string[]> NativeSingleUnified()
            {
                byte[] source = Before.Count > 0 ? Before.Values.First() : new byte[0];
                byte[] mode = Encoding.UTF8.GetBytes(Mode);
                V4AOptionsNative o;
                if (Options.ToNative(out o) != null) throw new InvalidOperationException("bad options");
                IntPtr r = IntPtr.Zero;
                try
                {
                    uint status;
                    fixed (byte* s = source)
                    fixed (byte* d = Patch)
                    fixed (byte* m = mode)
                    {
                        status = Native.v4a_apply_mode_name(s, (UIntPtr)source.Length, d, (UIntPtr)Patch.Length, m, (UIntPtr)mode.Length, &o, &r);
                    }
                    if (status != 0) throw new InvalidOperationException("the native apply failed: " + status);
                    return new List<string[]> { RenderLive(r) };
                }
                finally
                {
                    Native.v4a_result_free(r);
                }
            }

            private unsafe List<string[]> NativeMultiUnified()
            {
                IReadOnlyList<PatchOperation> ops;
                using (V4A.Patch parsed = V4A.Patch.Parse(Patch)) ops = parsed.Operations;
                var pins = new List<System.Runtime.InteropServices.GCHandle>();
                var sources = new V4ASourceNative[ops.Count];
                IntPtr p = IntPtr.Zero, set = IntPtr.Zero;
                try
                {
                    for (int i = 0; i < ops.Count; i++)
                    {
                        byte[] b;
                        if (ops[i].Kind == OperationKind.Add || !Before.TryGetValue(ops[i].Path, out b)) continue;
                        sources[i].Present = 1;
                        if (b.Length == 0) continue;
                        var pin = System.Runtime.InteropServices.GCHandle.Alloc(b, System.Runtime.InteropServices.GCHandleType.Pinned);
                        pins.Add(pin);
                        sources[i].Ptr = (byte*)pin.AddrOfPinnedObject();
                        sources[i].Len = (UIntPtr)b.Length;
                    }
                    V4AOptionsNative o;
                    if (Options.ToNative(out o) != null) throw new InvalidOperationException("bad options");
                    uint status;
                    fixed (byte* d = Patch) status = Native.v4a_patch_parse(d, (UIntPtr)Patch.Length, &p);
                    if (status != 0) throw new InvalidOperationException("the native parse failed: " + status);
                    fixed (V4ASourceNative* s = sources) status = Native.v4a_patch_apply(p, s, (UIntPtr)sources.Length, &o, &set);
                    if (status != 0) throw new InvalidOperationException("the native apply failed: " + status);
                    V4AFileResults files = Native.v4a_result_set_files(set);
                    var all = new List<string[]>();
                    for (int i = 0; i < (int)files.Len.ToUInt64(); i++) all.Add(RenderLive(files.Ptr[i].Result));
                    return all;
                }
                finally
                {
                    Native.v4a_result_set_free(set);
                    Native.v4a_patch_free(p);
                    foreach (var pin in pins) pin.Free();
                }
            }

            /// <summary>v4a_result_unified_diff of a live result, for each of <see cref="UnifiedContexts"/>.</summary>
            private static unsafe string[] RenderLive(IntPtr result)
            {
                var out_ = new string[UnifiedContexts.Length];
                for (int k = 0; k < out_.Length; k++)
                {
                    IntPtr t = IntPtr.Zero;
                    uint status = Native.v4a_result_unified_diff(result, (uint)UnifiedContexts[k], &t);
                    out_[k] = global::V4A.Patch.TakeText(status, t);
                }
                return out_;
            }
        }
    }
}
