using System.Collections.Generic;
using System.Linq;
using System.Text.RegularExpressions;
using Xunit;

namespace V4A.Tests
{
    /// <summary>
    /// The structured diff is read from the columns of <c>v4a_result_line_diff</c> (UTF-16
    /// indices into the result's own strings): checked against the texts themselves on files
    /// with non-ASCII characters, surrogate pairs, CRLF, lone CR, a BOM and no final newline,
    /// in every style and through the single-file and multi-file calls.
    /// </summary>
    public class DiffColumnTests
    {
        private const string Source =
            "\uFEFFfirst é\r\n" +
            "second 😀 line\r\n" +
            "third\rfourth ü\n" +
            "fifth\n" +
            "sixth 𝄞\n" +
            "seventh\n" +
            "eighth";

        private const string Diff =
            "@@\n" +
            " first é\n" +
            "-second 😀 line\n" +
            "+second 😀 row\n" +
            " third\n" +
            "@@\n" +
            " sixth 𝄞\n" +
            " seventh\n" +
            "-eighth\n" +
            "+eighth ✓\n" +
            "+ninth 😀\n";

        /// <summary>The lines of a text as the engine splits them: LF, CRLF, lone CR; BOM and no phantom last line excluded.</summary>
        private static string[] LinesOf(string text)
        {
            if (text.StartsWith("\uFEFF")) text = text.Substring(1);
            var lines = Regex.Split(text, "\r\n|\r|\n").ToList();
            if (lines.Count > 0 && lines[lines.Count - 1].Length == 0) lines.RemoveAt(lines.Count - 1);
            return lines.ToArray();
        }

        private static void CheckFull(ApplyResult r)
        {
            // Equal and deleted lines are the source, equal and added lines the new text, in order.
            Assert.Equal(LinesOf(r.Source), r.Lines.Where(l => l.Kind != DiffKind.Add).Select(l => l.Text).ToArray());
            Assert.Equal(LinesOf(r.Text), r.Lines.Where(l => l.Kind != DiffKind.Delete).Select(l => l.Text).ToArray());
            Assert.Equal(Enumerable.Range(1, LinesOf(r.Source).Length).Select(i => (int?)i).ToArray(),
                r.Lines.Where(l => l.Kind != DiffKind.Add).Select(l => l.OldLine).ToArray());
            Assert.Equal(Enumerable.Range(1, LinesOf(r.Text).Length).Select(i => (int?)i).ToArray(),
                r.Lines.Where(l => l.Kind != DiffKind.Delete).Select(l => l.NewLine).ToArray());
            Assert.All(r.Lines.Where(l => l.Kind == DiffKind.Add), l => Assert.Null(l.OldLine));
            Assert.All(r.Lines.Where(l => l.Kind == DiffKind.Delete), l => Assert.Null(l.NewLine));
        }

        [Fact]
        public void TheFullDiffIsTheTextsLineByLine()
        {
            ApplyResult r = Patch.Apply(Source, Diff, ApplyMode.Update, new ApplyOptions { Diff = DiffStyle.Full });
            CheckFull(r);
            Assert.Equal(
                new[] { " first é", "-second 😀 line", "+second 😀 row", " third", " fourth ü", " fifth", " sixth 𝄞", " seventh", "-eighth", "+eighth ✓", "+ninth 😀" },
                r.Lines.Select(l => l.ToString()).ToArray());
            // Hunk 1 covers lines 1-3, hunk 2 lines 6-8; lines 4 and 5 belong to none.
            Assert.Equal(new int?[] { 1, 1, 1, 1, null, null, 2, 2, 2, 2, 2 }, r.Lines.Select(l => l.Hunk).ToArray());
        }

        [Fact]
        public void TheChangesOnlyDiffKeepsItsContext()
        {
            ApplyResult r = Patch.Apply(Source, Diff, ApplyMode.Update, new ApplyOptions { Diff = DiffStyle.Changes, DiffContext = 0 });
            Assert.Equal(new[] { "-second 😀 line", "+second 😀 row", "-eighth", "+eighth ✓", "+ninth 😀" },
                r.Lines.Select(l => l.ToString()).ToArray());
            Assert.Equal(new int?[] { 2, null, 8, null, null }, r.Lines.Select(l => l.OldLine).ToArray());
            Assert.Equal(new int?[] { null, 2, null, 8, 9 }, r.Lines.Select(l => l.NewLine).ToArray());
            ApplyResult one = Patch.Apply(Source, Diff, ApplyMode.Update, new ApplyOptions { Diff = DiffStyle.Changes, DiffContext = 1 });
            Assert.Equal(new[] { " first é", "-second 😀 line", "+second 😀 row", " third", " seventh", "-eighth", "+eighth ✓", "+ninth 😀" },
                one.Lines.Select(l => l.ToString()).ToArray());
        }

        [Fact]
        public void SegmentsFromTheColumnsIndexTheLineAndItsBytes()
        {
            ApplyResult r = Patch.Apply(Source, Diff, ApplyMode.Update, new ApplyOptions { Diff = DiffStyle.Full, Refine = true });
            CheckFull(r);
            DiffLine del = r.Lines[1], add = r.Lines[2];
            Assert.Equal(new[] { "Equal:second 😀 ", "Delete:line" }, del.Segments.Select(s => s.Kind + ":" + s.Text).ToArray());
            Assert.Equal(new[] { "Equal:second 😀 ", "Add:row" }, add.Segments.Select(s => s.Kind + ":" + s.Text).ToArray());
            foreach (DiffLine line in r.Lines)
            {
                int at = 0;
                foreach (Segment s in line.Segments)
                {
                    Assert.Equal(at, s.Start);
                    Assert.Equal(line.Text.Substring(s.Start, s.Length), s.Text);
                    Assert.Equal(System.Text.Encoding.UTF8.GetByteCount(line.Text.Substring(0, s.Start)), s.Utf8Start);
                    Assert.Equal(System.Text.Encoding.UTF8.GetByteCount(line.Text.Substring(0, s.End)), s.Utf8End);
                    at = s.End;
                }
                if (line.Segments.Count > 0) Assert.Equal(line.Text.Length, at);
            }
            Assert.Empty(r.Lines[0].Segments);
        }

        [Fact]
        public void TheMultiFileCallReadsTheSameDiff()
        {
            var options = new ApplyOptions { Diff = DiffStyle.Full, Refine = true };
            ApplyResult single = Patch.Apply(Source, Diff, ApplyMode.Update, options);
            string patch = "*** Begin Patch\n*** Update File: a.txt\n" + Diff + "*** End Patch\n";
            using (Patch p = Patch.Parse(patch))
            {
                PatchResult multi = p.Apply(new Dictionary<string, string> { { "a.txt", Source } }, options);
                ApplyResult file = multi.Files.Single().Result;
                CheckFull(file);
                Assert.Equal(single.Lines.Select(l => l + "|" + l.OldLine + "|" + l.NewLine + "|" + l.Hunk + "|" + string.Join(",", l.Segments.Select(s => s.Text))),
                    file.Lines.Select(l => l + "|" + l.OldLine + "|" + l.NewLine + "|" + l.Hunk + "|" + string.Join(",", l.Segments.Select(s => s.Text))));
            }
        }

        [Fact]
        public void TheDirectoryCallReadsTheSameDiff()
        {
            // Every style, refined or not: a directory apply's files read their diff from the
            // columns too, entry for entry what the single-file call reads.
            string dir = System.IO.Path.Combine(System.IO.Path.GetTempPath(), "v4a-cs-dircols-" + System.Guid.NewGuid().ToString("N"));
            System.IO.Directory.CreateDirectory(dir);
            try
            {
                string file = System.IO.Path.Combine(dir, "a.txt");
                string patch = "*** Begin Patch\n*** Update File: a.txt\n" + Diff + "*** End Patch\n";
                var styles = new[]
                {
                    new ApplyOptions { Diff = DiffStyle.Full, Refine = true },
                    new ApplyOptions { Diff = DiffStyle.Full },
                    new ApplyOptions { Diff = DiffStyle.Changes, DiffContext = 1, Refine = true },
                    new ApplyOptions { Diff = DiffStyle.None, Refine = true },
                };
                foreach (ApplyOptions options in styles)
                {
                    System.IO.File.WriteAllBytes(file, new System.Text.UTF8Encoding(false).GetBytes(Source));
                    ApplyResult single = Patch.Apply(Source, Diff, ApplyMode.Update, options);
                    using (Patch p = Patch.Parse(patch))
                    {
                        DirectoryResult r = p.ApplyToDirectory(dir, new DirectoryOptions { Engine = options });
                        ApplyResult got = r.Files.Single().Result;
                        Assert.Equal(single.Text, got.Text);
                        Assert.Equal(Source, got.Source);
                        if (options.Diff == DiffStyle.Full) CheckFull(got);
                        if (options.Diff == DiffStyle.None) Assert.Empty(got.Lines);
                        else Assert.NotEmpty(got.Lines);
                        System.Func<DiffLine, string> show = l => l + "|" + l.OldLine + "|" + l.NewLine + "|" + l.Hunk + "|" +
                            string.Join(",", l.Segments.Select(s => s.Kind + ":" + s.Start + "-" + s.End + "/" + s.Utf8Start + "-" + s.Utf8End + ":" + s.Text));
                        Assert.Equal(single.Lines.Select(show).ToArray(), got.Lines.Select(show).ToArray());
                    }
                }
            }
            finally
            {
                System.IO.Directory.Delete(dir, true);
            }
        }

        [Fact]
        public void NoDiffUnlessAskedFor()
        {
            Assert.Empty(Patch.Apply(Source, Diff, ApplyMode.Update).Lines);
            Assert.Empty(Patch.Apply(Source, Diff, ApplyMode.Update, new ApplyOptions { Diff = DiffStyle.None, Refine = true }).Lines);
        }
    }
}
