using System;
using System.Collections.Generic;
using System.IO;
using System.Text;

namespace V4A.Tests
{
    /// <summary>Helpers shared by the test classes.</summary>
    internal static class TestSupport
    {
        private static string repoRoot;

        /// <summary>Parses <paramref name="text"/>, applies it over <paramref name="files"/> and disposes it.</summary>
        public static PatchResult ApplyPatch(string text, IReadOnlyDictionary<string, string> files, ApplyOptions options = null)
        {
            using (var p = Patch.Parse(text)) return p.Apply(files, options);
        }

        /// <summary>Parses <paramref name="text"/>, applies it with <paramref name="readFile"/> and disposes it.</summary>
        public static PatchResult ApplyPatch(string text, Func<string, string> readFile, ApplyOptions options = null)
        {
            using (var p = Patch.Parse(text)) return p.Apply(readFile, options);
        }

        /// <summary>Parses <paramref name="text"/>, writes its reverse over <paramref name="files"/> and disposes it.</summary>
        public static string Reverse(string text, IReadOnlyDictionary<string, string> files, ApplyOptions options = null)
        {
            using (var p = Patch.Parse(text)) return p.Reverse(files, options);
        }

        /// <summary>
        /// The repository root: $V4A_REPO_ROOT, else the first directory above the test
        /// assembly or the working directory that holds tests/vectors/README.md.
        /// </summary>
        public static string RepoRoot
        {
            get
            {
                if (repoRoot != null) return repoRoot;
                string env = Environment.GetEnvironmentVariable("V4A_REPO_ROOT");
                if (!string.IsNullOrEmpty(env)) return repoRoot = env;
                foreach (string start in new[] { AppDomain.CurrentDomain.BaseDirectory, Directory.GetCurrentDirectory() })
                {
                    for (var dir = new DirectoryInfo(start); dir != null; dir = dir.Parent)
                    {
                        if (File.Exists(Path.Combine(dir.FullName, "tests", "vectors", "README.md")))
                            return repoRoot = dir.FullName;
                    }
                }
                throw new InvalidOperationException(
                    "cannot find the repository root (tests/vectors): set V4A_REPO_ROOT");
            }
        }

        public static string VectorsDir
        {
            get { return Path.Combine(RepoRoot, "tests", "vectors"); }
        }

        /// <summary>Bytes shown as a quoted string: printable ASCII as is, the rest escaped.</summary>
        public static string Show(byte[] bytes, int max = 400)
        {
            var sb = new StringBuilder("\"");
            for (int i = 0; i < bytes.Length && i < max; i++)
            {
                byte b = bytes[i];
                if (b == (byte)'\n') sb.Append("\\n");
                else if (b == (byte)'\r') sb.Append("\\r");
                else if (b == (byte)'\t') sb.Append("\\t");
                else if (b == (byte)'"' || b == (byte)'\\') sb.Append('\\').Append((char)b);
                else if (b >= 0x20 && b < 0x7F) sb.Append((char)b);
                else sb.Append("\\x").Append(b.ToString("x2"));
            }
            sb.Append('"');
            if (bytes.Length > max) sb.Append("... (" + bytes.Length + " bytes)");
            return sb.ToString();
        }

        public static bool BytesEqual(byte[] a, byte[] b)
        {
            if (a.Length != b.Length) return false;
            for (int i = 0; i < a.Length; i++)
                if (a[i] != b[i]) return false;
            return true;
        }

        /// <summary>Where two byte strings first differ, shown around that place.</summary>
        public static string ShowDiff(byte[] expected, byte[] actual)
        {
            if (expected.Length <= 800 && actual.Length <= 800)
                return "    expected: " + Show(expected, 800) + "\n    actual:   " + Show(actual, 800) + "\n";
            int first = 0;
            while (first < expected.Length && first < actual.Length && expected[first] == actual[first]) first++;
            int from = Math.Max(0, first - 120);
            Func<byte[], string> window = b =>
            {
                int start = Math.Min(from, b.Length);
                int len = Math.Min(first + 120, b.Length) - start;
                var part = new byte[Math.Max(0, len)];
                Array.Copy(b, start, part, 0, part.Length);
                return Show(part, 800);
            };
            return "    expected " + expected.Length + " bytes, actual " + actual.Length + " bytes; first difference at byte " + first
                + "\n    expected[" + from + "..]: " + window(expected) + "\n    actual[" + from + "..]:   " + window(actual) + "\n";
        }
    }
}
