// Measures what the C# binding adds to an apply (W12 of the performance issue): the same
// workloads as benches/support/workloads.rs (W1: a 1,000-line file, W2: a 100,000-line file,
// one exact hunk each, generated with the same deterministic generator), applied
//   - csharp:  Patch.Apply(source, diff, ApplyMode.Update) with the default options, the
//              call the README reports: string in, UTF-8 encoding, pinning, copying every
//              result field into managed objects, freeing the native result;
//   - native:  v4a_apply called directly from C# on UTF-8 bytes prepared once, freeing the
//              result without reading it (the native call alone, through P/Invoke);
//   - rust:    v4a::apply from Rust, in the helper process of the Go benchmark
//              (bindings/go/testdata/rustbaseline, named by V4A_RUST_BASELINE; test.sh --bench
//              builds it), fed the same bytes: the same work with the same default options;
// and, to split the C# call's extra cost:
//   - unified: csharp, then ApplyResult.GetUnifiedDiff() (rendered on each call);
//   - diff:    csharp with ApplyOptions.Diff = DiffStyle.Full (every line as a DiffLine, read
//              from the columns of v4a_result_line_diff); its ratio to csharp is the cost of
//              the full structured diff in C#;
//   - encode:  the source encoded to UTF-8 into a reused buffer, alone (the way in);
//   - decode:  a string decoded from the new text's UTF-8 bytes, alone (the way out).
// The variants alternate in rounds of n calls each, so that a noisy machine slows them alike
// and each variant pays for the garbage collections its own allocations bring. Reported: the
// median time per call over the rounds (min – max), wall-clock and, on Linux, CPU time of the
// whole process (getrusage: every thread, the collector's too; steadier on a shared
// machine), the collections per 1,000 calls, and the ratios. No assertion on time: a report.
//
// Usage: mono Bench.exe [--smoke]     (V4A_RUST_BASELINE=<helper> adds the Rust baseline)

using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Runtime.InteropServices;
using System.Text;
using V4A;

namespace V4A.Bench
{
    public static unsafe class Program
    {
        [DllImport("v4a", CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        private static extern uint v4a_apply(byte* source, UIntPtr sourceLen, byte* diff, UIntPtr diffLen, uint mode, void* options, IntPtr* resultOut);

        [DllImport("v4a", CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        private static extern void v4a_result_free(IntPtr result);

        [DllImport("libc", EntryPoint = "getrusage")]
        private static extern int getrusage(int who, long* usage);

        /// <summary>The generator of benches/support/workloads.rs (a PCG-style LCG).</summary>
        private sealed class Rng
        {
            private ulong state;

            public Rng(ulong seed)
            {
                unchecked { state = seed * 0x9E3779B97F4A7C15UL | 1; }
            }

            public ulong Next()
            {
                unchecked { state = state * 6364136223846793005UL + 1442695040888963407UL; }
                return state >> 16;
            }

            public int Below(int n)
            {
                return (int)(Next() % (ulong)n);
            }
        }

        private static readonly string[] Words =
        {
            "value", "count", "index", "buffer", "result", "config", "handle", "offset", "length",
            "cursor", "parser", "stream", "target", "source", "record", "status",
        };

        private static List<string> CodeLines(int n, ulong seed)
        {
            var r = new Rng(seed);
            var lines = new List<string>(n);
            for (int i = 0; i < n; i++)
            {
                string indent = new string(' ', 4 * r.Below(4));
                string a = Words[r.Below(16)], b = Words[r.Below(16)];
                switch (r.Below(6))
                {
                    case 0: lines.Add(indent + "let " + a + "_" + i + " = " + b + ".get(" + r.Below(1000) + ");"); break;
                    case 1: lines.Add(indent + "if " + a + " > " + b + " {"); break;
                    case 2: lines.Add(indent + "}"); break;
                    case 3: lines.Add(indent + "// " + a + " and " + b + " are checked here (" + i + ")"); break;
                    case 4: lines.Add(indent + a + ".push(" + b + "_" + i + ", \"" + r.Below(100000) + "\");"); break;
                    default: lines.Add(indent + "return " + a + "_" + i + " + " + b + ";"); break;
                }
            }
            return lines;
        }

        private static string HunkAt(List<string> lines, int at, string replacement)
        {
            var h = new StringBuilder("@@\n");
            for (int k = Math.Max(0, at - 3); k < at; k++) h.Append(' ').Append(lines[k]).Append('\n');
            h.Append('-').Append(lines[at]).Append("\n+").Append(replacement).Append('\n');
            for (int k = at + 1; k < Math.Min(at + 4, lines.Count); k++) h.Append(' ').Append(lines[k]).Append('\n');
            return h.ToString();
        }

        private static double Median(List<double> xs)
        {
            var s = xs.OrderBy(x => x).ToList();
            return s.Count % 2 == 1 ? s[s.Count / 2] : (s[s.Count / 2 - 1] + s[s.Count / 2]) / 2;
        }

        private static string Time(double seconds)
        {
            if (seconds >= 1e-3) return (seconds * 1e3).ToString("0.00", CultureInfo.InvariantCulture) + " ms";
            return (seconds * 1e6).ToString("0.0", CultureInfo.InvariantCulture) + " µs";
        }

        private static string Ratio(double x)
        {
            return x.ToString("0.00", CultureInfo.InvariantCulture);
        }

        private static bool cpuAvailable = File.Exists("/proc/self/stat");

        /// <summary>The CPU time of the whole process (user + system, every thread) in seconds; NaN where unknown.</summary>
        private static double ProcessCpu()
        {
            if (!cpuAvailable) return double.NaN;
            try
            {
                long* u = stackalloc long[18]; // struct rusage on 64-bit Linux: two timevals, then 14 longs
                if (IntPtr.Size != 8 || getrusage(0, u) != 0) return double.NaN;
                return u[0] + u[2] + (u[1] + u[3]) / 1e6;
            }
            catch (Exception e) when (e is DllNotFoundException || e is EntryPointNotFoundException)
            {
                cpuAvailable = false;
                return double.NaN;
            }
        }

        /// <summary>Per-call times of one variant over the rounds.</summary>
        private sealed class Timing
        {
            public readonly string Name;
            public readonly List<double> Wall = new List<double>(), Cpu = new List<double>();
            public long Calls, Collections, MajorCollections;

            public Timing(string name)
            {
                Name = name;
            }

            public void Measure(int n, Action<int> run)
            {
                int g0 = GC.CollectionCount(0), g1 = GC.CollectionCount(GC.MaxGeneration);
                double c0 = ProcessCpu();
                var sw = Stopwatch.StartNew();
                run(n);
                double wall = sw.Elapsed.TotalSeconds;
                double cpu = ProcessCpu() - c0;
                Add(n, wall, cpu);
                Collections += GC.CollectionCount(0) - g0;
                MajorCollections += GC.CollectionCount(GC.MaxGeneration) - g1;
            }

            public void Add(int n, double wall, double cpu)
            {
                Wall.Add(wall / n);
                if (!double.IsNaN(cpu)) Cpu.Add(cpu / n);
                Calls += n;
            }

            public double WallMedian { get { return Median(Wall); } }

            public double CpuMedian { get { return Cpu.Count == Wall.Count && Cpu.Count > 0 ? Median(Cpu) : double.NaN; } }

            public string Describe()
            {
                string s = string.Format(CultureInfo.InvariantCulture, "{0,-8} wall {1} ({2} – {3})",
                    Name, Time(WallMedian), Time(Wall.Min()), Time(Wall.Max()));
                if (!double.IsNaN(CpuMedian)) s += ", cpu " + Time(CpuMedian);
                if (Calls > 0 && Name != "rust")
                {
                    s += string.Format(CultureInfo.InvariantCulture, ", {0:0.0} collections per 1,000 calls ({1:0.0} major)",
                        1000.0 * Collections / Calls, 1000.0 * MajorCollections / Calls);
                }
                return s;
            }
        }

        /// <summary>The Rust helper of the Go benchmark, applying the same patch with v4a::apply.</summary>
        private sealed class RustBaseline : IDisposable
        {
            private readonly Process process;
            private readonly string dir;
            public readonly string Workload;

            private RustBaseline(Process p, string dir, string workload)
            {
                process = p;
                this.dir = dir;
                Workload = workload;
            }

            /// <summary>Starts the helper on the inputs; null when V4A_RUST_BASELINE is unset.</summary>
            public static RustBaseline Start(byte[] source, byte[] diff, int expectedTextBytes)
            {
                string bin = Environment.GetEnvironmentVariable("V4A_RUST_BASELINE");
                if (string.IsNullOrEmpty(bin)) return null;
                string dir = Path.Combine(Path.GetTempPath(), "v4a-bench-" + Guid.NewGuid().ToString("N"));
                Directory.CreateDirectory(dir);
                File.WriteAllBytes(Path.Combine(dir, "source"), source);
                File.WriteAllBytes(Path.Combine(dir, "diff"), diff);
                var info = new ProcessStartInfo(bin, "\"" + Path.Combine(dir, "source") + "\" \"" + Path.Combine(dir, "diff") + "\"")
                {
                    UseShellExecute = false,
                    RedirectStandardInput = true,
                    RedirectStandardOutput = true,
                };
                Process p = Process.Start(info);
                string[] ready = (p.StandardOutput.ReadLine() ?? "").Split(' ');
                if (ready.Length != 3 || ready[0] != "ready" || ready[1] != expectedTextBytes.ToString(CultureInfo.InvariantCulture))
                    throw new InvalidOperationException("the Rust baseline " + bin + " did not start as expected: " + string.Join(" ", ready));
                return new RustBaseline(p, dir, ready[2]);
            }

            /// <summary>Applies n times in the helper; its wall-clock and CPU seconds.</summary>
            public void Run(int n, out double wall, out double cpu)
            {
                process.StandardInput.WriteLine(n.ToString(CultureInfo.InvariantCulture));
                process.StandardInput.Flush();
                string[] parts = (process.StandardOutput.ReadLine() ?? "").Split(' ');
                if (parts.Length != 2) throw new InvalidOperationException("the Rust baseline stopped");
                wall = long.Parse(parts[0], CultureInfo.InvariantCulture) / 1e9;
                long c = long.Parse(parts[1], CultureInfo.InvariantCulture);
                cpu = c > 0 ? c / 1e9 : double.NaN;
            }

            public void Dispose()
            {
                process.StandardInput.Close();
                process.WaitForExit();
                Directory.Delete(dir, true);
            }
        }

        /// <summary>Where the decode variant's strings go, so that they are not optimised away.</summary>
        internal static string Sink;

        private static void Run(string id, int lineCount, ulong seed, double at, bool smoke)
        {
            List<string> lines = CodeLines(lineCount, seed);
            string source = string.Concat(lines.Select(l => l + "\n"));
            string diff = HunkAt(lines, (int)(lines.Count * at), "    changed();");
            byte[] sourceBytes = Encoding.UTF8.GetBytes(source), diffBytes = Encoding.UTF8.GetBytes(diff);
            var strict = new UTF8Encoding(false, true);
            byte[] encodeBuffer = new byte[source.Length * 3];
            ApplyResult first = Patch.Apply(source, diff, ApplyMode.Update);
            string expected = first.Text;
            if (expected.Length != source.Length - lines[(int)(lines.Count * at)].Length + "    changed();".Length)
                throw new InvalidOperationException(id + ": the benchmark patch did not apply as expected");
            if (string.IsNullOrEmpty(first.GetUnifiedDiff())) throw new InvalidOperationException(id + ": no unified diff");
            byte[] textBytes = Encoding.UTF8.GetBytes(expected);

            var csharp = new Timing("csharp");
            var native = new Timing("native");
            var unified = new Timing("unified");
            var fullDiff = new Timing("diff");
            var diffOptions = new ApplyOptions { Diff = DiffStyle.Full };
            int entries = Patch.Apply(source, diff, ApplyMode.Update, diffOptions).Lines.Count;
            if (entries != lines.Count + 1)
                throw new InvalidOperationException(id + ": the full diff has " + entries + " entries, not " + (lines.Count + 1));
            var encode = new Timing("encode");
            var decode = new Timing("decode");
            var rust = new Timing("rust");
            using (RustBaseline rb = smoke ? null : RustBaseline.Start(sourceBytes, diffBytes, textBytes.Length))
            {
                // Calls per round: about 20 ms of C# applies.
                var sw = Stopwatch.StartNew();
                for (int i = 0; i < 3; i++) Patch.Apply(source, diff, ApplyMode.Update);
                double per = sw.Elapsed.TotalSeconds / 3;
                int n = smoke ? 1 : Math.Max(1, (int)(0.020 / Math.Max(per, 1e-6)));
                var began = Stopwatch.StartNew();
                int warmup = smoke ? 0 : 2;
                for (int round = -warmup; smoke ? round < 2 : (round < 15 || began.Elapsed.TotalSeconds < 3); round++)
                {
                    if (round == 0)
                    {
                        foreach (Timing t in new[] { csharp, native, unified, fullDiff, encode, decode, rust })
                        {
                            t.Wall.Clear();
                            t.Cpu.Clear();
                            t.Calls = t.Collections = t.MajorCollections = 0;
                        }
                    }
                    csharp.Measure(n, k =>
                    {
                        for (int i = 0; i < k; i++)
                        {
                            ApplyResult r = Patch.Apply(source, diff, ApplyMode.Update);
                            if (r.Text.Length != expected.Length) throw new InvalidOperationException("wrong text");
                        }
                    });
                    native.Measure(n, k =>
                    {
                        for (int i = 0; i < k; i++)
                        {
                            IntPtr result = IntPtr.Zero;
                            uint status;
                            fixed (byte* s = sourceBytes)
                            fixed (byte* d = diffBytes)
                            {
                                status = v4a_apply(s, (UIntPtr)sourceBytes.Length, d, (UIntPtr)diffBytes.Length, 0, null, &result);
                            }
                            v4a_result_free(result);
                            if (status != 0) throw new InvalidOperationException("v4a_apply failed: " + status);
                        }
                    });
                    unified.Measure(n, k =>
                    {
                        for (int i = 0; i < k; i++)
                        {
                            ApplyResult r = Patch.Apply(source, diff, ApplyMode.Update);
                            if (r.GetUnifiedDiff().Length == 0) throw new InvalidOperationException("no unified diff");
                        }
                    });
                    fullDiff.Measure(n, k =>
                    {
                        for (int i = 0; i < k; i++)
                        {
                            ApplyResult r = Patch.Apply(source, diff, ApplyMode.Update, diffOptions);
                            if (r.Lines.Count != entries) throw new InvalidOperationException("wrong diff");
                        }
                    });
                    encode.Measure(n, k =>
                    {
                        for (int i = 0; i < k; i++)
                        {
                            if (strict.GetBytes(source, 0, source.Length, encodeBuffer, 0) != sourceBytes.Length)
                                throw new InvalidOperationException("wrong encoding");
                        }
                    });
                    decode.Measure(n, k =>
                    {
                        for (int i = 0; i < k; i++) Sink = Encoding.UTF8.GetString(textBytes, 0, textBytes.Length);
                    });
                    if (rb != null)
                    {
                        double rustWall, rustCpu;
                        rb.Run(n, out rustWall, out rustCpu);
                        rust.Add(n, rustWall, rustCpu);
                    }
                }

                Console.WriteLine(string.Format(CultureInfo.InvariantCulture,
                    "{0}: {1}-line file ({2:0.000} MB), 1 hunk; {3} rounds of {4} calls, per call:",
                    id, lineCount, sourceBytes.Length / 1e6, csharp.Wall.Count, n));
                foreach (Timing t in new[] { csharp, native, unified, fullDiff, encode, decode })
                    Console.WriteLine("  " + t.Describe());
                if (rb != null) Console.WriteLine("  " + rust.Describe() + " (" + rb.Workload + ")");
                bool cpu = !double.IsNaN(csharp.CpuMedian) && !double.IsNaN(native.CpuMedian);
                string ratios = "  ratios (wall" + (cpu ? "; cpu" : "") + "): csharp/native " + Ratio(csharp.WallMedian / native.WallMedian)
                    + (cpu ? "; " + Ratio(csharp.CpuMedian / native.CpuMedian) : "")
                    + ", unified/native " + Ratio(unified.WallMedian / native.WallMedian)
                    + (cpu ? "; " + Ratio(unified.CpuMedian / native.CpuMedian) : "")
                    + ", diff/csharp " + Ratio(fullDiff.WallMedian / csharp.WallMedian)
                    + (cpu ? "; " + Ratio(fullDiff.CpuMedian / csharp.CpuMedian) : "");
                if (rb != null)
                {
                    bool rustCpu = cpu && !double.IsNaN(rust.CpuMedian);
                    ratios += ", csharp/rust " + Ratio(csharp.WallMedian / rust.WallMedian)
                        + (rustCpu ? "; " + Ratio(csharp.CpuMedian / rust.CpuMedian) : "")
                        + ", native/rust " + Ratio(native.WallMedian / rust.WallMedian)
                        + (rustCpu ? "; " + Ratio(native.CpuMedian / rust.CpuMedian) : "");
                }
                Console.WriteLine(ratios);
            }
        }

        public static int Main(string[] args)
        {
            bool smoke = args.Contains("--smoke");
            string runtime = Type.GetType("Mono.Runtime") != null ? "Mono" : ".NET";
            Console.WriteLine("C# binding overhead (" + (smoke ? "smoke run, timings meaningless" : "medians")
                + "; " + runtime + ", " + (IntPtr.Size * 8) + "-bit, " + Environment.ProcessorCount + " cores"
                + (smoke || Environment.GetEnvironmentVariable("V4A_RUST_BASELINE") != null ? "" : "; set V4A_RUST_BASELINE for the Rust baseline")
                + ")");
            Run("W1", 1000, 1, 0.5, smoke);
            Run("W2", 100000, 2, 0.9, smoke);
            return 0;
        }
    }
}
