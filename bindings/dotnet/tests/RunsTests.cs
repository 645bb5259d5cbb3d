using System;
using System.Collections.Generic;
using System.Linq;
using Xunit;

namespace V4A.Tests
{
    /// <summary>
    /// The compact full diff (<see cref="DiffStyle.Runs"/>): each run of equal lines is one entry
    /// with its <see cref="DiffLine.Count"/>; expanded with <see cref="DiffLine.ExpandRuns"/> it
    /// is the <see cref="DiffStyle.Full"/> diff entry for entry, on random edits and at the edges
    /// (CRLF, lone CR, a BOM, no final newline, empty files, add-only, delete-all).
    /// </summary>
    public class RunsTests
    {
        private static string Show(DiffLine l)
        {
            return l + "|" + l.OldLine + "|" + l.NewLine + "|" + l.Hunk + "|" + l.Count + "|" +
                string.Join(",", l.Segments.Select(s => s.Kind + ":" + s.Text));
        }

        private static IReadOnlyList<DiffLine> CheckRuns(string source, string diff, ApplyMode mode)
        {
            ApplyResult full = Patch.Apply(source, diff, mode, new ApplyOptions { Diff = DiffStyle.Full, Refine = true });
            ApplyResult runs = Patch.Apply(source, diff, mode, new ApplyOptions { Diff = DiffStyle.Runs, Refine = true });
            Assert.Equal(full.Lines.Select(Show).ToArray(), DiffLine.ExpandRuns(runs.Lines).Select(Show).ToArray());
            Assert.All(full.Lines, l => Assert.Equal(1, l.Count));
            for (int i = 0; i < runs.Lines.Count; i++)
            {
                DiffLine d = runs.Lines[i];
                Assert.True(d.Count >= 1);
                if (d.Kind != DiffKind.Equal) Assert.Equal(1, d.Count);
                if (i > 0 && d.Kind == DiffKind.Equal && runs.Lines[i - 1].Kind == DiffKind.Equal)
                    Assert.NotEqual(runs.Lines[i - 1].Hunk, d.Hunk);
            }
            Assert.Equal(full.Lines.Count(l => l.Kind != DiffKind.Add),
                runs.Lines.Where(l => l.Kind != DiffKind.Add).Sum(l => l.Count));
            return runs.Lines;
        }

        [Fact]
        public void ARunIsOneEntry()
        {
            IReadOnlyList<DiffLine> runs = CheckRuns("a\r\nb\r\nc\r\nd\r\ne\r\nf\r\ng\r\nh\r\n", "@@\n-g\n+G\n", ApplyMode.Update);
            Assert.Equal(new[] { 6, 1, 1, 1 }, runs.Select(l => l.Count).ToArray());
            Assert.Equal("a\r\nb\r\nc\r\nd\r\ne\r\nf", runs[0].Text);
            Assert.Equal(1, runs[0].OldLine);
            Assert.Null(runs[0].Hunk);
            Assert.Equal(8, runs[3].OldLine);
        }

        [Fact]
        public void RunsAtTheEdges()
        {
            var cases = new[]
            {
                new[] { "a\nb\nc\nd\n", "a\nb\nX\nd\n" },
                new[] { "a\rb\rc\rd\r", "a\rb\rc\rY\r" },
                new[] { "a\nb\r\nc\rd\ne", "a\nb\r\nc\rd\nf" },
                new[] { "\uFEFFa\nb\nc\n", "\uFEFFa\nb\nc\nd\n" },
                new[] { "\uFEFFa\nb", "\uFEFFZ\nb" },
                new[] { "one\ntwo\nthree", "one\ntwo\nthree\nfour" },
                new[] { "", "new\nlines\n" },
                new[] { "gone\nall\n", "" },
                new[] { "\n\n\n\n", "\n\nx\n\n" },
                new[] { "é\nü 😀\r\nß\n", "é\nü 😀\r\nss\n" },
            };
            int checkedCases = 0;
            foreach (string[] c in cases)
            {
                string patch;
                try { patch = Patch.MakePatch(c[0], c[1], "f"); }
                catch (V4AException) { continue; }
                checkedCases++;
                CheckRuns(c[0], patch, ApplyMode.Update);
            }
            Assert.True(checkedCases >= 8, checkedCases + " cases made a patch");
            CheckRuns("", "+a\n+b\n", ApplyMode.Create);
            CheckRuns("a\nb\n", "", ApplyMode.Delete);
        }

        [Fact]
        public void RunsOfRandomEdits()
        {
            var rng = new Random(7);
            string[] eols = { "\n", "\r\n", "\r" };
            for (int round = 0; round < 200; round++)
            {
                string eol = eols[rng.Next(3)];
                int n = 1 + rng.Next(40);
                var lines = Enumerable.Range(0, n).Select(i => "line " + new string('é', i % 3) + (char)('a' + i % 26)).ToList();
                var old = lines.ToList();
                for (int e = rng.Next(4); e >= 0; e--)
                {
                    int at = rng.Next(lines.Count + 1);
                    int del = Math.Min(rng.Next(3), lines.Count - at);
                    lines.RemoveRange(at, del);
                    lines.InsertRange(at, Enumerable.Range(0, rng.Next(3)).Select(k => "added " + round + "." + e + "." + k));
                }
                string bom = rng.Next(2) == 1 ? "\uFEFF" : "", final = rng.Next(2) == 1 ? eol : "";
                Func<List<string>, string> join = l => l.Count == 0 ? bom : bom + string.Join(eol, l) + final;
                string a = join(old), b = join(lines);
                if (a == b) continue;
                string patch;
                try { patch = Patch.MakePatch(a, b, "f"); }
                catch (V4AException) { continue; }
                CheckRuns(a, patch, ApplyMode.Update);
            }
        }
    }
}
