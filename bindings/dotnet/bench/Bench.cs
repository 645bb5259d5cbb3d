// Measures what the C# binding adds to an apply (W12 of the performance issue): the same
// workloads as benches/support/workloads.rs (W1: a 1,000-line file, W2: a 100,000-line file,
// one exact hunk each, generated with the same deterministic generator), applied
//   - through V4APatch.Apply (string in, UTF-8 encoding, pinning, copying every result field
//     into managed objects, freeing the native result), and
//   - through v4a_apply called directly from C# on UTF-8 bytes prepared once, freeing the
//     result without reading it (the native call alone).
// The two alternate within each round; medians are reported, with min–max. No assertion on
// time: a report only.
//
// Usage: mono Bench.exe [--smoke]

using System;
using System.Collections.Generic;
using System.Diagnostics;
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
            if (seconds >= 1e-3) return (seconds * 1e3).ToString("0.00") + " ms";
            return (seconds * 1e6).ToString("0.0") + " µs";
        }

        private static void Run(string id, int lineCount, ulong seed, double at, int rounds)
        {
            List<string> lines = CodeLines(lineCount, seed);
            string source = string.Concat(lines.Select(l => l + "\n"));
            string diff = HunkAt(lines, (int)(lines.Count * at), "    changed();");
            byte[] sourceBytes = Encoding.UTF8.GetBytes(source), diffBytes = Encoding.UTF8.GetBytes(diff);
            var plain = new ApplyOptions { UnifiedDiff = false };
            var withDiff = new ApplyOptions();
            string expected = V4APatch.Apply(source, diff, ApplyMode.Update, plain).Text;
            if (expected.Length != source.Length - lines[(int)(lines.Count * at)].Length + "    changed();".Length)
                throw new InvalidOperationException(id + ": the benchmark patch did not apply as expected");

            var managed = new List<double>();
            var managedDiff = new List<double>();
            var native = new List<double>();
            var sw = new Stopwatch();
            for (int round = -Math.Max(3, rounds / 10); round < rounds; round++)
            {
                sw.Restart();
                ApplyResult r = V4APatch.Apply(source, diff, ApplyMode.Update, plain);
                double tm = sw.Elapsed.TotalSeconds;
                if (r.Text.Length != expected.Length) throw new InvalidOperationException("wrong text");

                sw.Restart();
                IntPtr result = IntPtr.Zero;
                uint status;
                fixed (byte* s = sourceBytes)
                fixed (byte* d = diffBytes)
                {
                    status = v4a_apply(s, (UIntPtr)sourceBytes.Length, d, (UIntPtr)diffBytes.Length, 0, null, &result);
                }
                v4a_result_free(result);
                double tn = sw.Elapsed.TotalSeconds;
                if (status != 0) throw new InvalidOperationException("v4a_apply failed: " + status);

                sw.Restart();
                r = V4APatch.Apply(source, diff, ApplyMode.Update, withDiff);
                double td = sw.Elapsed.TotalSeconds;
                if (r.UnifiedDiff.Length == 0) throw new InvalidOperationException("no unified diff");

                if (round < 0) continue; // warm-up
                managed.Add(tm);
                native.Add(tn);
                managedDiff.Add(td);
            }
            double m = Median(managed), n = Median(native), md = Median(managedDiff);
            Console.WriteLine(string.Format(
                "{0} {1}-line file ({2:0.0} MB), 1 hunk: C# V4APatch.Apply {3} ({4} – {5}); native v4a_apply from C# {6} ({7} – {8}); ratio {9:0.00}; with UnifiedDiff rendered {10} (ratio {11:0.00})",
                id, lineCount, sourceBytes.Length / 1e6, Time(m), Time(managed.Min()), Time(managed.Max()),
                Time(n), Time(native.Min()), Time(native.Max()), m / n, Time(md), md / n));
        }

        public static int Main(string[] args)
        {
            bool smoke = args.Contains("--smoke");
            string runtime = Type.GetType("Mono.Runtime") != null ? "Mono" : ".NET";
            Console.WriteLine("C# binding overhead (" + (smoke ? "smoke run, timings meaningless" : "medians")
                + "; " + runtime + ", " + (IntPtr.Size * 8) + "-bit, " + Environment.ProcessorCount + " cores)");
            Run("W1", 1000, 1, 0.5, smoke ? 3 : 3000);
            Run("W2", 100000, 2, 0.9, smoke ? 2 : 60);
            return 0;
        }
    }
}
