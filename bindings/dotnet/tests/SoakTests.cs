using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using Xunit;

namespace V4A.Tests
{
    /// <summary>
    /// Concurrency soak: a Parallel.For of many jobs over random shared vectors of
    /// tests/vectors/ (single-file applies by mode and by mode name, multi-file patches parsed by
    /// the job or parsed once and applied by every task, reverse and generated patches,
    /// failures with their V4AError). Each job publishes its outcome into a shared pool; other
    /// tasks read outcomes from the pool while their maker and other readers may read them too,
    /// and compare every property (texts, hunk reports, structured diff with segments, edit
    /// script, unified diff, summary, file results, error and diagnostics) with a reference
    /// computed on one thread before the loop, for a vector whose after/ or error it matches.
    /// V4A_SOAK_JOBS sets the number of jobs (default 40,000, about 3 s on Mono), V4A_SOAK_SEED the seed.
    /// </summary>
    public class SoakTests
    {
        private const int Variants = 3;
        private const int PoolSize = 256;

        private enum Kind { Apply, ApplyModeName, ParseApply, SharedApply, Reverse, MakePatch }

        private static readonly string[] ModeNames = { "update", "create", "delete", "move" };

        /// <summary>What one job returns: one of the values, or the error.</summary>
        private sealed class Outcome
        {
            public ApplyResult Result;
            public PatchResult Patch;
            public string Text;
            public V4AError Error;
        }

        private sealed class Vector
        {
            public string Name;
            public byte[] PatchBytes;
            public SortedDictionary<string, byte[]> Before = new SortedDictionary<string, byte[]>(StringComparer.Ordinal);
            public SortedDictionary<string, byte[]> After;   // null when an error is expected
            public string ErrorStatus;
            public string Mode;                              // null for a multi-file case
            public ApplyMode? ModeValue;
            public byte[] Source;                            // single-file: the source
            public Dictionary<string, string> TextSources;   // multi-file: the sources as text
            public Patch Shared;                             // parsed once, applied by every task
            public readonly ApplyOptions[] Options = new ApplyOptions[Variants];
            public readonly List<Kind> Kinds = new List<Kind>();   // weighted: a kind appears as often as it is picked
            public readonly Dictionary<Kind, string[]> References = new Dictionary<Kind, string[]>();
        }

        private sealed class Item
        {
            public Vector Vector;
            public Kind Kind;
            public int Variant;
            public int Maker;
            public Outcome Outcome;
        }

        // -------------------------------------------------------------------------------------
        // Loading the vectors and their references (one thread, before the loop).

        private static SortedDictionary<string, byte[]> ReadTree(string root)
        {
            var files = new SortedDictionary<string, byte[]>(StringComparer.Ordinal);
            if (!Directory.Exists(root)) return files;
            foreach (string f in Directory.GetFiles(root, "*", SearchOption.AllDirectories))
                files[f.Substring(root.Length + 1).Replace(Path.DirectorySeparatorChar, '/')] = File.ReadAllBytes(f);
            return files;
        }

        private static List<string> Lines(string path)
        {
            if (!File.Exists(path)) return new List<string>();
            return File.ReadAllText(path, Encoding.UTF8).Split('\n').Select(l => l.Trim()).Where(l => l.Length > 0).ToList();
        }

        private static ApplyOptions LoadOptions(string path)
        {
            var o = new ApplyOptions();
            foreach (string line in Lines(path))
            {
                int eq = line.IndexOf('=');
                string k = line.Substring(0, eq).Trim(), v = line.Substring(eq + 1).Trim();
                switch (k)
                {
                    case "max_level": o.MaxLevel = (MatchLevel)Array.IndexOf(new[] { "exact", "trim_end", "trim", "collapse", "fold" }, v); break;
                    case "max_fuzz": o.MaxFuzz = int.Parse(v, CultureInfo.InvariantCulture); break;
                    case "first_match": o.FirstMatch = v == "true"; break;
                    case "already_applied_error": o.AlreadyAppliedIsError = v == "true"; break;
                    case "ensure_final_newline": o.EnsureFinalNewline = v == "true"; break;
                    case "add_file_line_ending": o.AddFileLineEnding = v == "crlf" ? LineEnding.CrLf : LineEnding.Lf; break;
                    default: throw new FormatException("unknown option " + k);
                }
            }
            return o;
        }

        private static Vector Load(string dir)
        {
            var v = new Vector { Name = Path.GetFileName(dir), PatchBytes = File.ReadAllBytes(Path.Combine(dir, "patch")) };
            v.Before = ReadTree(Path.Combine(dir, "before"));
            // The status is the first line of the outcome file, "status: NAME".
            List<string> outcome = Lines(Path.Combine(dir, "outcome"));
            string status = outcome.Count > 0 && outcome[0].StartsWith("status: ", StringComparison.Ordinal) ? outcome[0].Substring(8) : null;
            if (status == null) throw new InvalidOperationException(v.Name + ": no `outcome` file starting with a status");
            if (status != "OK") v.ErrorStatus = status;
            else v.After = ReadTree(Path.Combine(dir, "after"));
            List<string> mode = Lines(Path.Combine(dir, "mode"));
            if (mode.Count > 0)
            {
                v.Mode = mode[0];
                int m = Array.IndexOf(ModeNames, v.Mode);
                if (m >= 0) v.ModeValue = (ApplyMode)m;
                v.Source = v.Before.Count > 0 ? v.Before.Values.First() : new byte[0];
            }
            else
            {
                v.TextSources = v.Before.ToDictionary(kv => kv.Key, kv => new UTF8Encoding(false, true).GetString(kv.Value));
                V4AError parseError;
                Patch.TryParse(Encoding.UTF8.GetString(v.PatchBytes), out v.Shared, out parseError);
            }
            // the vector's options; a full refined diff; changed lines with 1 line of context
            v.Options[0] = LoadOptions(Path.Combine(dir, "options"));
            v.Options[1] = v.Options[0].Clone();
            v.Options[1].Diff = DiffStyle.Full;
            v.Options[1].Refine = true;
            v.Options[2] = v.Options[0].Clone();
            v.Options[2].Diff = DiffStyle.Changes;
            v.Options[2].DiffContext = 1;

            if (v.Mode != null)
            {
                v.Kinds.AddRange(new[] { Kind.ApplyModeName, Kind.ApplyModeName, Kind.ApplyModeName });
                if (v.ModeValue.HasValue) v.Kinds.AddRange(new[] { Kind.Apply, Kind.Apply, Kind.Apply });
                if (v.ModeValue == ApplyMode.Update && v.After != null) v.Kinds.Add(Kind.MakePatch);
            }
            else
            {
                v.Kinds.AddRange(new[] { Kind.ParseApply, Kind.ParseApply, Kind.ParseApply });
                if (v.Shared != null) v.Kinds.AddRange(new[] { Kind.SharedApply, Kind.SharedApply, Kind.SharedApply, Kind.Reverse });
            }
            foreach (Kind kind in v.Kinds.Distinct())
            {
                var refs = new string[Variants];
                for (int variant = 0; variant < Variants; variant++) refs[variant] = Fingerprint(Run(v, kind, variant));
                v.References[kind] = refs;
            }
            CheckReferences(v);
            return v;
        }

        private static byte[] AfterText(Vector v)
        {
            return v.After.Count > 0 ? v.After.Values.First() : new byte[0];
        }

        /// <summary>The references match the vector: its after/ byte for byte, or its error's status.</summary>
        private static void CheckReferences(Vector v)
        {
            for (int variant = 0; variant < Variants; variant++)
            {
                Outcome o = Run(v, v.Mode != null ? Kind.ApplyModeName : Kind.ParseApply, variant);
                if (v.After == null)
                {
                    if (o.Error == null || o.Error.StatusName != v.ErrorStatus)
                        throw new InvalidOperationException(v.Name + ": expected " + v.ErrorStatus + ", got " + (o.Error == null ? "success" : o.Error.StatusName));
                    continue;
                }
                if (o.Error != null) throw new InvalidOperationException(v.Name + ": " + o.Error);
                if (v.Mode != null)
                {
                    if (!TestSupport.BytesEqual(o.Result.GetTextBytes(), AfterText(v)))
                        throw new InvalidOperationException(v.Name + ": the text is not after/");
                }
                else
                {
                    var files = new Dictionary<string, byte[]>(v.Before);
                    o.Patch.ApplyTo(files);
                    if (files.Count != v.After.Count || files.Any(kv => !v.After.ContainsKey(kv.Key) || !TestSupport.BytesEqual(kv.Value, v.After[kv.Key])))
                        throw new InvalidOperationException(v.Name + ": the after-state is not after/");
                }
            }
            foreach (var pair in new[] { new[] { Kind.ApplyModeName, Kind.Apply }, new[] { Kind.ParseApply, Kind.SharedApply } })
            {
                if (v.References.ContainsKey(pair[0]) && v.References.ContainsKey(pair[1]) && !v.References[pair[0]].SequenceEqual(v.References[pair[1]]))
                    throw new InvalidOperationException(v.Name + ": " + pair[0] + " and " + pair[1] + " disagree");
            }
        }

        // -------------------------------------------------------------------------------------
        // Jobs and fingerprints.

        private static Outcome Run(Vector v, Kind kind, int variant)
        {
            ApplyOptions options = v.Options[variant];
            var o = new Outcome();
            try
            {
                switch (kind)
                {
                    case Kind.Apply:
                        Patch.TryApply(v.Source, v.PatchBytes, v.ModeValue.Value, options, out o.Result, out o.Error);
                        break;
                    case Kind.ApplyModeName:
                        Patch.TryApply(v.Source, v.PatchBytes, v.Mode, options, out o.Result, out o.Error);
                        break;
                    case Kind.ParseApply:
                        using (Patch p = Patch.Parse(v.PatchBytes)) o.Patch = p.Apply(v.Before, options);
                        break;
                    case Kind.SharedApply:
                        o.Patch = v.Shared.Apply(v.Before, options);
                        break;
                    case Kind.Reverse:
                        o.Text = v.Shared.Reverse(v.TextSources, options);
                        break;
                    case Kind.MakePatch:
                        o.Text = Patch.MakePatch(Encoding.UTF8.GetString(v.Source), Encoding.UTF8.GetString(AfterText(v)), "f");
                        break;
                }
            }
            catch (V4AException e)
            {
                o.Error = e.Error;
            }
            return o;
        }

        /// <summary>Every property of an outcome, as text: two outcomes are equal when their fingerprints are.</summary>
        private static string Fingerprint(Outcome o)
        {
            var sb = new StringBuilder();
            if (o.Error != null) Error(sb, o.Error);
            if (o.Result != null) Result(sb, o.Result);
            if (o.Text != null) sb.Append("text ").Append(o.Text.Length).Append(' ').Append(o.Text).Append('\n');
            if (o.Patch != null)
            {
                sb.Append("summary ").Append(o.Patch.Summary).Append("files ").Append(o.Patch.Files.Count).Append('\n');
                foreach (FileResult f in o.Patch.Files)
                {
                    sb.Append(f.Kind).Append(' ').Append(f.Path).Append(" -> ").Append(f.MoveTo ?? "(null)").Append(' ').Append(f.TargetPath).Append('\n');
                    if (!ReferenceEquals(f.Text, f.Result.Text) && f.Text != f.Result.Text) sb.Append("FileResult.Text differs from its Result's\n");
                    Result(sb, f.Result);
                }
            }
            return sb.ToString();
        }

        private static void Error(StringBuilder sb, V4AError e)
        {
            sb.Append("error ").Append(e.Status).Append(' ').Append(e.Code).Append(' ').Append(e.StatusName).Append(' ').Append(e.Category)
                .Append("\nmessage ").Append(e.Message)
                .Append("\nline ").Append(e.Line).Append(" hunk ").Append(e.Hunk).Append(" path ").Append(e.Path ?? "(null)")
                .Append(" candidates ").Append(string.Join(",", e.Candidates))
                .Append("\nsuggestion ").Append(e.Suggestion ?? "(null)").Append("\ncorrected ").Append(e.CorrectedHunk ?? "(null)")
                .Append("\nclosest ").Append(e.ClosestStart).Append('-').Append(e.ClosestEnd).Append(' ').Append(e.ClosestSimilarity.ToString("R", CultureInfo.InvariantCulture))
                .Append(" offset ").Append(e.ByteOffset).Append(" input ").Append(e.Input ?? "(null)")
                .Append("\nToString ").Append(e.ToString()).Append('\n');
        }

        private static void Result(StringBuilder sb, ApplyResult r)
        {
            sb.Append("result ").Append(r.Text.Length).Append(' ').Append(r.Text).Append(" source ").Append(r.Source.Length).Append(' ').Append(r.Source)
                .Append(" path ").Append(r.Path ?? "(null)").Append(" destination ").Append(r.Destination ?? "(null)")
                .Append(" fuzz ").Append(r.Fuzz).Append(" changed ").Append(r.Changed)
                .Append(" bytes ").Append(r.GetTextBytes().Length)
                .Append("\nunified ").Append(r.GetUnifiedDiff(2)).Append('\n');
            foreach (HunkReport h in r.Hunks)
            {
                sb.Append("hunk ").Append(h.OldStart).Append(',').Append(h.OldLength).Append(' ').Append(h.NewStart).Append(',').Append(h.NewLength)
                    .Append(' ').Append(h.Level).Append(' ').Append(h.Fuzz).Append(' ').Append(h.Candidates).Append(' ').Append(h.Flags)
                    .Append(' ').Append(h.Reindented).Append(h.AlreadyApplied).Append(h.EndOfFile).Append(h.OutOfOrder)
                    .Append(' ').Append(h.PatchLine).Append(" levels ").Append(string.Join(",", h.LineLevels)).Append('\n');
            }
            foreach (DiffLine d in r.Lines)
            {
                sb.Append("line ").Append(d.Kind).Append(' ').Append(d.OldLine).Append(' ').Append(d.NewLine).Append(' ').Append(d.Hunk)
                    .Append(' ').Append(d.Text).Append('\n');
                foreach (Segment s in d.Segments)
                {
                    sb.Append("  segment ").Append(s.Kind).Append(' ').Append(s.Start).Append('-').Append(s.End).Append(' ').Append(s.Length)
                        .Append(' ').Append(s.Utf8Start).Append('-').Append(s.Utf8End).Append(' ').Append(s.Text).Append('\n');
                }
            }
            foreach (Change c in r.Changes)
            {
                sb.Append("change ").Append(c.OldStart).Append(',').Append(c.OldLength).Append(' ').Append(c.NewStart).Append(',').Append(c.NewLength)
                    .Append(' ').Append(c.Hunk).Append('\n');
            }
        }

        private static int EnvInt(string name, int fallback)
        {
            string s = Environment.GetEnvironmentVariable(name);
            int n;
            if (string.IsNullOrEmpty(s)) return fallback;
            if (!int.TryParse(s, out n) || n < 1) throw new FormatException(name + "=" + s + ": expected a positive number");
            return n;
        }

        // -------------------------------------------------------------------------------------

        [Fact]
        public void ParallelForOverSharedVectors()
        {
            int jobs = EnvInt("V4A_SOAK_JOBS", 40000);
            int seed = EnvInt("V4A_SOAK_SEED", 1);
            var clock = Stopwatch.StartNew();
            // A vector with base/ (base-aware apply) is VectorTests' own: the soak's jobs apply without bases.
            List<Vector> vectors = Directory.GetDirectories(TestSupport.VectorsDir)
                .Where(d => !Directory.Exists(Path.Combine(d, "base")))
                .OrderBy(d => d, StringComparer.Ordinal)
                .Select(Load)
                .ToList();
            double loading = clock.Elapsed.TotalSeconds;
            Assert.True(vectors.Count >= 150, "only " + vectors.Count + " vectors");

            var pool = new Item[PoolSize];
            var poolLock = new object();
            var failures = new ConcurrentQueue<string>();
            long checks = 0, foreignReads = 0;
            var counts = new long[Enum.GetValues(typeof(Kind)).Length];
            int threadIds = 0;
            var threadId = new ThreadLocal<int>(() => Interlocked.Increment(ref threadIds));
            try
            {
                clock.Restart();
                ParallelLoopResult loop = Parallel.For(0, jobs, new ParallelOptions { MaxDegreeOfParallelism = 8 }, i =>
                {
                    // the job: a random vector, kind and variant, the same for a seed whatever the scheduling
                    var rng = new Random(unchecked(seed * 1000003 + i));
                    Vector v = vectors[rng.Next(vectors.Count)];
                    var item = new Item { Vector = v, Kind = v.Kinds[rng.Next(v.Kinds.Count)], Variant = rng.Next(Variants), Maker = threadId.Value };
                    item.Outcome = Run(v, item.Kind, item.Variant);
                    Interlocked.Increment(ref counts[(int)item.Kind]);
                    Item other;
                    lock (poolLock)
                    {
                        pool[rng.Next(PoolSize)] = item;
                        other = pool[rng.Next(PoolSize)];
                    }
                    // another task's outcome (or this one's), read while others may read it too
                    if (other != null)
                    {
                        Interlocked.Increment(ref checks);
                        if (other.Maker != threadId.Value) Interlocked.Increment(ref foreignReads);
                        Check(other, failures);
                    }
                });
                Assert.True(loop.IsCompleted);
                foreach (Item left in pool)
                {
                    if (left != null) Check(left, failures);
                }
            }
            finally
            {
                foreach (Vector v in vectors)
                {
                    if (v.Shared != null) v.Shared.Dispose();
                }
                threadId.Dispose();
            }
            Console.WriteLine("SoakTests: " + jobs + " jobs over " + vectors.Count + " vectors in " + clock.Elapsed.TotalSeconds.ToString("0.00", CultureInfo.InvariantCulture)
                + " s (references: " + loading.ToString("0.00", CultureInfo.InvariantCulture) + " s), "
                + string.Join(", ", Enum.GetValues(typeof(Kind)).Cast<Kind>().Select(k => k + " " + counts[(int)k]))
                + "; " + checks + " shared outcomes checked, " + foreignReads + " made on another thread");
            if (!failures.IsEmpty) Assert.Fail(failures.Count + " outcomes differ from their reference:\n" + string.Join("\n", failures.Take(10)));
            Assert.True(foreignReads > 0, "no outcome was read on a thread other than its maker's");
        }

        private static void Check(Item item, ConcurrentQueue<string> failures)
        {
            string want = item.Vector.References[item.Kind][item.Variant];
            string got = Fingerprint(item.Outcome);
            if (got != want)
            {
                int at = 0;
                while (at < got.Length && at < want.Length && got[at] == want[at]) at++;
                int from = Math.Max(0, at - 60);
                failures.Enqueue(item.Vector.Name + " (" + item.Kind + ", variant " + item.Variant + ", made on thread " + item.Maker + ") differs at character " + at
                    + "\n    expected: " + Show(want, from) + "\n    actual:   " + Show(got, from));
            }
        }

        private static string Show(string s, int from)
        {
            return TestSupport.Show(Encoding.UTF8.GetBytes(s.Substring(Math.Min(from, s.Length))), 160);
        }
    }
}
