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
    /// Patch.Apply over the files of before/; `options`, `expect` and `error` checks; the whole
    /// after-state compared byte for byte; and every file result's unified diff (rendered from
    /// the copied parts) compared with the library's rendering of the live native result.
    /// </summary>
    public class VectorTests
    {
        /// <summary>The smallest number of vectors the suite may hold (as the Rust runner).</summary>
        private const int MinVectors = 150;

        private static readonly string[] KnownEntries = { "patch", "before", "after", "error", "mode", "options", "expect" };
        private static readonly string[] FlagNames = { "reindented", "already_applied", "end_of_file", "out_of_order" };
        private static readonly string[] LevelNames = { "exact", "trim_end", "trim", "collapse", "fold" };
        private static readonly string[] ErrorChecks = { "contains", "line", "hunk", "path", "candidates", "offset", "suggestion", "corrected" };

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

        private sealed class ErrorSpec
        {
            public string Status;
            public List<KeyValuePair<string, string>> Checks = new List<KeyValuePair<string, string>>();
        }

        /// <summary>One line of an `expect` file; Path null for the default file.</summary>
        private sealed class Expectation
        {
            public string Line;
            public string Path;
            public string What;   // "fuzz", "hunks", "level", "flags", "old", "new"
            public int Index;     // 1-based hunk number for the hunk checks
            public string Value;
        }

        /// <summary>What an apply produced: the files after it, and each updated file's result with its names.</summary>
        private sealed class Produced
        {
            public SortedDictionary<string, byte[]> Files = new SortedDictionary<string, byte[]>(StringComparer.Ordinal);
            public List<KeyValuePair<string[], ApplyResult>> Applied = new List<KeyValuePair<string[], ApplyResult>>();
            /// <summary>Every file result (added, deleted and moved files too), in patch order.</summary>
            public List<ApplyResult> All = new List<ApplyResult>();
        }

        /// <summary>The contexts of the unified diff cross-check.</summary>
        private static readonly int[] UnifiedContexts = { 0, 1, 3, 5 };

        private sealed class Case
        {
            public string Name;
            public byte[] Patch;
            public SortedDictionary<string, byte[]> Before;
            public SortedDictionary<string, byte[]> After;   // null when an error is expected
            public ErrorSpec Error;
            public string Mode;
            public ApplyOptions Options;
            public List<Expectation> Expect = new List<Expectation>();

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

            /// <summary>Non-empty lines of a small text file, without their terminators.</summary>
            private static List<string> LinesOf(string text)
            {
                return text.Split('\n')
                    .Select(l => l.EndsWith("\r", StringComparison.Ordinal) ? l.Substring(0, l.Length - 1) : l)
                    .Where(l => l.Trim().Length > 0)
                    .ToList();
            }

            private static int ParseInt(string s, string what)
            {
                int n;
                if (!int.TryParse(s.Trim(), out n) || n < 0) throw new FormatException(what + ": expected a number, found \"" + s + "\"");
                return n;
            }

            private static MatchLevel ParseLevel(string s)
            {
                int i = Array.IndexOf(LevelNames, s);
                if (i < 0) throw new FormatException("unknown level \"" + s + "\"");
                return (MatchLevel)i;
            }

            private static bool ParseBool(string k, string v)
            {
                if (v == "true") return true;
                if (v == "false") return false;
                throw new FormatException("option " + k + ": expected true or false, found \"" + v + "\"");
            }

            public static Case Load(string dir)
            {
                var c = new Case { Name = Path.GetFileName(dir) };
                foreach (string entry in Directory.GetFileSystemEntries(dir).Select(Path.GetFileName))
                {
                    if (!KnownEntries.Contains(entry)) throw new FormatException("bad vector: unknown entry \"" + entry + "\"");
                }
                string patchPath = Path.Combine(dir, "patch");
                if (!File.Exists(patchPath)) throw new FormatException("bad vector: missing `patch` file");
                c.Patch = File.ReadAllBytes(patchPath);
                c.Before = ReadTree(Path.Combine(dir, "before"));

                string error = ReadText(Path.Combine(dir, "error"));
                if (error != null)
                {
                    List<string> lines = LinesOf(error);
                    if (lines.Count == 0) throw new FormatException("bad vector: `error` is empty");
                    c.Error = new ErrorSpec { Status = lines[0].Trim() };
                    if (c.Error.Status == "OK" || !Enum.GetValues(typeof(V4AStatus)).Cast<V4AStatus>().Any(s => global::V4A.Patch.StatusName(s) == c.Error.Status))
                        throw new FormatException("bad vector: `error` names an unknown status \"" + c.Error.Status + "\"");
                    foreach (string l in lines.Skip(1))
                    {
                        int at = l.IndexOf(": ", StringComparison.Ordinal);
                        if (at < 0) throw new FormatException("bad vector: bad error check \"" + l + "\"");
                        string k = l.Substring(0, at);
                        if (!ErrorChecks.Contains(k)) throw new FormatException("bad vector: unknown error check \"" + k + "\"");
                        c.Error.Checks.Add(new KeyValuePair<string, string>(k, l.Substring(at + 2)));
                    }
                }
                string afterDir = Path.Combine(dir, "after");
                if (c.Error != null && Directory.Exists(afterDir)) throw new FormatException("bad vector: both `after/` and `error`");
                c.After = c.Error != null ? null : ReadTree(afterDir);

                string mode = ReadText(Path.Combine(dir, "mode"));
                if (mode != null)
                {
                    c.Mode = mode.Trim();
                    if (c.Before.Count > 1) throw new FormatException("bad vector: a `mode` case holds at most one file in before/");
                    if (c.After != null && c.After.Count > 1) throw new FormatException("bad vector: a `mode` case holds at most one file in after/");
                }

                c.Options = new ApplyOptions();
                string options = ReadText(Path.Combine(dir, "options"));
                if (options != null)
                {
                    foreach (string l in LinesOf(options))
                    {
                        int eq = l.IndexOf('=');
                        if (eq < 0) throw new FormatException("bad vector: bad option line \"" + l + "\"");
                        string k = l.Substring(0, eq).Trim(), v = l.Substring(eq + 1).Trim();
                        switch (k)
                        {
                            case "max_level": c.Options.MaxLevel = ParseLevel(v); break;
                            case "max_fuzz": c.Options.MaxFuzz = ParseInt(v, "max_fuzz"); break;
                            case "first_match": c.Options.FirstMatch = ParseBool(k, v); break;
                            case "already_applied_error": c.Options.AlreadyAppliedIsError = ParseBool(k, v); break;
                            case "ensure_final_newline": c.Options.EnsureFinalNewline = ParseBool(k, v); break;
                            case "add_file_line_ending":
                                if (v == "lf") c.Options.AddFileLineEnding = LineEnding.Lf;
                                else if (v == "crlf") c.Options.AddFileLineEnding = LineEnding.CrLf;
                                else throw new FormatException("add_file_line_ending: expected lf or crlf, found \"" + v + "\"");
                                break;
                            default: throw new FormatException("bad vector: unknown option \"" + k + "\"");
                        }
                    }
                }

                string expect = ReadText(Path.Combine(dir, "expect"));
                if (expect != null)
                {
                    if (c.Error != null) throw new FormatException("bad vector: `expect` is for success cases only");
                    foreach (string l in LinesOf(expect)) c.Expect.Add(ParseExpect(l));
                }
                return c;
            }

            private static Expectation ParseExpect(string line)
            {
                int colon = line.IndexOf(':');
                if (colon < 0) throw new FormatException("expect line without ':': \"" + line + "\"");
                string rhs = line.Substring(colon + 1).Trim();
                string[] words = line.Substring(0, colon).Split(new[] { ' ', '\t' }, StringSplitOptions.RemoveEmptyEntries);
                var e = new Expectation { Line = line, Value = rhs };
                int w = 0;
                if (words.Length == 2 && words[0] == "fuzz")
                {
                    e.Path = words[1];
                    e.What = "fuzz";
                    ParseInt(rhs, line);
                    return e;
                }
                if (words.Length == 0) throw new FormatException("empty expect key: \"" + line + "\"");
                if (words[0] != "fuzz" && words[0] != "hunks" && words[0] != "hunk")
                {
                    e.Path = words[0];
                    w = 1;
                }
                string[] rest = words.Skip(w).ToArray();
                if (rest.Length == 1 && rest[0] == "fuzz" && e.Path == null) { e.What = "fuzz"; ParseInt(rhs, line); return e; }
                if (rest.Length == 1 && rest[0] == "hunks") { e.What = "hunks"; ParseInt(rhs, line); return e; }
                if (rest.Length == 3 && rest[0] == "hunk")
                {
                    e.Index = ParseInt(rest[1], line);
                    if (e.Index == 0) throw new FormatException("hunk numbers are 1-based: \"" + line + "\"");
                    e.What = rest[2];
                    switch (e.What)
                    {
                        case "level":
                            ParseLevel(rhs);
                            break;
                        case "flags":
                            if (rhs != "none")
                                foreach (string f in rhs.Split(',').Select(s => s.Trim()))
                                    if (!FlagNames.Contains(f)) throw new FormatException("unknown flag \"" + f + "\" in \"" + line + "\"");
                            break;
                        case "old":
                        case "new":
                            ParseRange(rhs);
                            break;
                        default:
                            throw new FormatException("unknown hunk check \"" + e.What + "\" in \"" + line + "\"");
                    }
                    return e;
                }
                throw new FormatException("unknown expect line \"" + line + "\"");
            }

            private static int[] ParseRange(string s)
            {
                string[] parts = s.Split(',');
                if (parts.Length != 2) throw new FormatException("expected START,LEN, found \"" + s + "\"");
                return new[] { ParseInt(parts[0], "range start"), ParseInt(parts[1], "range length") };
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
                produced.Applied.Add(new KeyValuePair<string[], ApplyResult>(new string[0], result));
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
                        result = patch.Apply(new Dictionary<string, byte[]>(Before), Options);
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
                        if (f.Kind != OperationKind.Update) continue;
                        var keys = f.MoveTo != null ? new[] { f.Path, f.MoveTo } : new[] { f.Path };
                        produced.Applied.Add(new KeyValuePair<string[], ApplyResult>(keys, f.Result));
                        // The result's Source is the file as given, byte for byte.
                        if (!TestSupport.BytesEqual(Encoding.UTF8.GetBytes(f.Result.Source), Before[f.Path]))
                            throw new InvalidOperationException("Result.Source of " + f.Path + " differs from before/" + f.Path);
                    }
                }
                return true;
            }

            public string Run()
            {
                Produced produced;
                V4AError error;
                bool ok = Mode != null ? RunSingle(out produced, out error) : RunMulti(out produced, out error);
                var report = new StringBuilder();
                if (Error != null && !ok)
                {
                    foreach (string p in CheckError(error)) report.Append("  ").Append(p).Append('\n');
                    if (report.Length > 0) report.Append(Describe(error));
                }
                else if (Error != null)
                {
                    report.Append("  expected error " + Error.Status + ", but the patch applied\n");
                    foreach (var kv in produced.Files)
                        report.Append("    produced " + kv.Key + ": " + TestSupport.Show(kv.Value) + "\n");
                }
                else if (!ok)
                {
                    report.Append("  expected success, got an error\n").Append(Describe(error));
                }
                else
                {
                    if (Mode != null)
                    {
                        byte[] want = After.Count > 0 ? After.Values.First() : new byte[0];
                        byte[] got = produced.Files.Count > 0 ? produced.Files.Values.First() : new byte[0];
                        if (!TestSupport.BytesEqual(want, got))
                            report.Append("  text differs\n").Append(TestSupport.ShowDiff(want, got));
                    }
                    else
                    {
                        foreach (string path in After.Keys.Union(produced.Files.Keys).OrderBy(p => p, StringComparer.Ordinal))
                        {
                            byte[] w, g;
                            bool hasW = After.TryGetValue(path, out w), hasG = produced.Files.TryGetValue(path, out g);
                            if (hasW && hasG && !TestSupport.BytesEqual(w, g))
                                report.Append("  " + path + " differs\n").Append(TestSupport.ShowDiff(w, g));
                            else if (hasW && !hasG)
                                report.Append("  " + path + ": expected in after/, missing from the result\n");
                            else if (!hasW && hasG)
                                report.Append("  " + path + ": present in the result, not expected: " + TestSupport.Show(g) + "\n");
                        }
                    }
                    foreach (Expectation e in Expect)
                    {
                        string problem = Check(e, produced);
                        if (problem != null) report.Append("  ").Append(problem).Append('\n');
                    }
                    foreach (string problem in CrossCheckUnified(produced)) report.Append("  ").Append(problem).Append('\n');
                }
                return report.ToString();
            }

            /// <summary>
            /// Compares each file result's unified diff (<see cref="ApplyResult.GetUnifiedDiff"/>) with the library's
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

            private static string Describe(V4AError e)
            {
                return "    status: " + e.StatusName + "\n    message: " + e.Message
                    + "\n    line: " + e.Line + ", hunk: " + e.Hunk + ", path: " + e.Path
                    + ", candidates: [" + string.Join(",", e.Candidates) + "], offset: " + e.ByteOffset
                    + "\n    suggestion: " + e.Suggestion + "\n    corrected: " + e.CorrectedHunk + "\n";
            }

            private List<string> CheckError(V4AError e)
            {
                var problems = new List<string>();
                if (e.StatusName != Error.Status) problems.Add("status: expected " + Error.Status + ", got " + e.StatusName);
                foreach (var check in Error.Checks)
                {
                    string v = check.Value;
                    bool ok;
                    switch (check.Key)
                    {
                        case "contains": ok = e.Message.Contains(v); break;
                        case "line": ok = e.Line.HasValue && e.Line.Value.ToString() == v.Trim(); break;
                        case "hunk": ok = e.Hunk.HasValue && e.Hunk.Value.ToString() == v.Trim(); break;
                        case "path": ok = e.Path == v; break;
                        case "candidates":
                            {
                                var want = v.Split(',').Select(x => x.Trim()).Where(x => x.Length > 0).Select(x => int.Parse(x)).ToArray();
                                ok = want.SequenceEqual(e.Candidates);
                                break;
                            }
                        case "offset": ok = e.ByteOffset.HasValue && e.ByteOffset.Value.ToString() == v.Trim(); break;
                        case "suggestion": ok = e.Suggestion != null && e.Suggestion.Contains(v); break;
                        case "corrected": ok = e.CorrectedHunk != null && e.CorrectedHunk.Contains(v); break;
                        default: ok = false; break;
                    }
                    if (!ok) problems.Add("check failed: `" + check.Key + ": " + v + "`");
                }
                return problems;
            }

            private static string FlagsOf(HunkReport h)
            {
                var names = new List<string>();
                if (h.Reindented) names.Add("reindented");
                if (h.AlreadyApplied) names.Add("already_applied");
                if (h.EndOfFile) names.Add("end_of_file");
                if (h.OutOfOrder) names.Add("out_of_order");
                return string.Join(",", names.OrderBy(n => n, StringComparer.Ordinal));
            }

            private static string Check(Expectation e, Produced p)
            {
                ApplyResult a = e.Path == null
                    ? p.Applied.Select(x => x.Value).FirstOrDefault()
                    : p.Applied.Where(x => x.Key.Contains(e.Path)).Select(x => x.Value).FirstOrDefault();
                if (a == null) return "expect \"" + e.Line + "\": no updated file " + (e.Path ?? "(default)") + " in the result";
                switch (e.What)
                {
                    case "fuzz":
                        return a.Fuzz.ToString() == e.Value ? null : "fuzz: expected " + e.Value + ", got " + a.Fuzz;
                    case "hunks":
                        return a.Hunks.Count.ToString() == e.Value ? null : "hunks: expected " + e.Value + ", got " + a.Hunks.Count;
                }
                if (e.Index > a.Hunks.Count) return "hunk " + e.Index + ": the result has only " + a.Hunks.Count + " hunk reports";
                HunkReport h = a.Hunks[e.Index - 1];
                switch (e.What)
                {
                    case "level":
                        {
                            string got = global::V4A.Patch.LevelName(h.Level);
                            return got == e.Value ? null : "hunk " + e.Index + " level: expected " + e.Value + ", got " + got;
                        }
                    case "flags":
                        {
                            string want = e.Value == "none" ? "" : string.Join(",", e.Value.Split(',').Select(s => s.Trim()).OrderBy(n => n, StringComparer.Ordinal));
                            string got = FlagsOf(h);
                            return got == want ? null : "hunk " + e.Index + " flags: expected {" + want + "}, got {" + got + "}";
                        }
                    case "old":
                        {
                            int[] r = ParseRange(e.Value);
                            return h.OldStart == r[0] && h.OldLength == r[1] ? null
                                : "hunk " + e.Index + " old: expected " + e.Value + ", got " + h.OldStart + "," + h.OldLength;
                        }
                    default:
                        {
                            int[] r = ParseRange(e.Value);
                            return h.NewStart == r[0] && h.NewLength == r[1] ? null
                                : "hunk " + e.Index + " new: expected " + e.Value + ", got " + h.NewStart + "," + h.NewLength;
                        }
                }
            }
        }
    }
}
