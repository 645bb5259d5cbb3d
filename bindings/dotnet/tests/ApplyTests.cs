using System;
using System.Linq;
using System.Text;
using Xunit;

namespace V4A.Tests
{
    /// <summary>The single-file API: modes, options, every field of the result, the byte[] and Try overloads.</summary>
    public class ApplyTests
    {
        private const string Source = "class App:\n    def run(self):\n        x = 1\n        y = 2\n        return x + y\n";
        private const string Diff = "@@ class App\n@@     def run(self):\n         x = 1\n-        y = 2\n+        y = 3\n";

        [Fact]
        public void UpdateReturnsTheNewTextAndTheSource()
        {
            ApplyResult r = Patch.Apply(Source, Diff, ApplyMode.Update);
            Assert.Equal(Source.Replace("y = 2", "y = 3"), r.Text);
            Assert.Equal(Source, r.Source);
            Assert.Same(Source, r.Source); // the caller's string, not a second copy
            Assert.True(r.Changed);
            Assert.Null(r.Path);
            Assert.Null(r.Destination);
            Assert.Equal(0, r.Fuzz);
            Assert.Empty(r.Lines); // no structured diff unless asked for
        }

        [Fact]
        public void HunkReportSaysWhereTheHunkLanded()
        {
            ApplyResult r = Patch.Apply(Source, Diff, ApplyMode.Update);
            HunkReport h = Assert.Single(r.Hunks);
            Assert.Equal(3, h.OldStart);
            Assert.Equal(2, h.OldLength);
            Assert.Equal(3, h.NewStart);
            Assert.Equal(2, h.NewLength);
            Assert.Equal(MatchLevel.Exact, h.Level);
            Assert.Equal(0, h.Fuzz);
            Assert.Equal(1, h.Candidates);
            Assert.Equal(HunkFlags.None, h.Flags);
            Assert.Equal(1, h.PatchLine); // the first @@ line
            Assert.Equal(new[] { MatchLevel.Exact, MatchLevel.Exact }, h.LineLevels.ToArray());
            Change c = Assert.Single(r.Changes);
            Assert.Equal(4, c.OldStart);
            Assert.Equal(1, c.OldLength);
            Assert.Equal(4, c.NewStart);
            Assert.Equal(1, c.NewLength);
            Assert.Equal(1, c.Hunk);
        }

        /// <summary>A new ApplyOptions and GenerateOptions hold the library's defaults (v4a_options_init, v4a_generate_options_init).</summary>
        [Fact]
        public void NewOptionsHoldTheLibrarysDefaults()
        {
            var o = new ApplyOptions();
            Assert.Equal(MatchLevel.Fold, o.MaxLevel);
            Assert.Null(o.MaxFuzz);
            Assert.False(o.FirstMatch || o.AlreadyAppliedIsError || o.EnsureFinalNewline || o.Refine);
            Assert.Equal(LineEnding.Lf, o.AddFileLineEnding);
            Assert.Equal(DiffStyle.None, o.Diff);
            Assert.Equal(3, o.DiffContext);
            Assert.Equal(200000000L, o.SearchBudget);
            Assert.Equal(ApplyOptions.DefaultSearchBudget, o.SearchBudget);
            var g = new GenerateOptions();
            Assert.Equal(3, g.Context);
            Assert.Equal(50, g.MaxContext);
        }

        [Fact]
        public void UnifiedDiffIsRenderedWithTheRequestedContext()
        {
            ApplyResult r = Patch.Apply(Source, Diff, ApplyMode.Update);
            string three = "--- a\n+++ b\n@@ -1,5 +1,5 @@\n class App:\n     def run(self):\n         x = 1\n-        y = 2\n+        y = 3\n         return x + y\n";
            Assert.Equal(three, r.GetUnifiedDiff());
            Assert.Equal(three, r.GetUnifiedDiff(3));
            Assert.Equal("--- a\n+++ b\n@@ -3,3 +3,3 @@\n         x = 1\n-        y = 2\n+        y = 3\n         return x + y\n", r.GetUnifiedDiff(1));
            Assert.Equal("--- a\n+++ b\n@@ -4 +4 @@\n-        y = 2\n+        y = 3\n", r.GetUnifiedDiff(0));
            Assert.Throws<V4AInvalidArgumentException>(() => r.GetUnifiedDiff(-1));

            // Paths, a move, non-ASCII text and a source given as bytes.
            string patch = "*** Begin Patch\n*** Update File: src/é.txt\n*** Move to: dst/ü.txt\n@@\n-ä\n+ö 🙂\n*** End Patch\n";
            r = Patch.Apply(Encoding.UTF8.GetBytes("ä\nß\n"), Encoding.UTF8.GetBytes(patch), ApplyMode.Move);
            Assert.Equal("--- a/src/é.txt\n+++ b/dst/ü.txt\n@@ -1,2 +1,2 @@\n-ä\n+ö 🙂\n ß\n", r.GetUnifiedDiff());

            // Added and deleted files.
            Assert.Equal("--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1 @@\n+new\n",
                Patch.Apply("", "*** Begin Patch\n*** Add File: n.txt\n+new\n*** End Patch\n", ApplyMode.Create).GetUnifiedDiff());
            Assert.Equal("--- a\n+++ b\n@@ -1 +0,0 @@\n-old\n", // the delete mode reports no path
                Patch.Apply("old\n", "*** Begin Patch\n*** Delete File: o.txt\n*** End Patch\n", ApplyMode.Delete).GetUnifiedDiff());
        }

        [Fact]
        public void UnifiedDiffRenderedFromManyThreadsIsTheSame()
        {
            ApplyResult r = Patch.Apply(Source, Diff, ApplyMode.Update);
            string[] seen = new string[16];
            System.Threading.Tasks.Parallel.For(0, seen.Length, i => { seen[i] = r.GetUnifiedDiff(); });
            Assert.All(seen, d => Assert.Equal(Patch.Apply(Source, Diff, ApplyMode.Update).GetUnifiedDiff(3), d));
        }

        [Fact]
        public void StructuredDiffWithChangesOnly()
        {
            var options = new ApplyOptions { Diff = DiffStyle.Changes, DiffContext = 1 };
            ApplyResult r = Patch.Apply(Source, Diff, ApplyMode.Update, options);
            Assert.Equal(new[] { "         x = 1", "-        y = 2", "+        y = 3", "         return x + y" },
                r.Lines.Select(l => l.ToString()).ToArray());
            DiffLine equal = r.Lines[0], del = r.Lines[1], add = r.Lines[2];
            Assert.Equal(DiffKind.Equal, equal.Kind);
            Assert.Equal(3, equal.OldLine);
            Assert.Equal(3, equal.NewLine);
            Assert.Equal(1, equal.Hunk);
            Assert.Equal(DiffKind.Delete, del.Kind);
            Assert.Equal(4, del.OldLine);
            Assert.Null(del.NewLine);
            Assert.Equal("        y = 2", del.Text);
            Assert.Equal(DiffKind.Add, add.Kind);
            Assert.Null(add.OldLine);
            Assert.Equal(4, add.NewLine);
            Assert.Equal(1, add.Hunk);
            Assert.Empty(add.Segments); // refinement not requested
        }

        [Fact]
        public void StructuredDiffFullListsEveryLine()
        {
            ApplyResult r = Patch.Apply(Source, Diff, ApplyMode.Update, new ApplyOptions { Diff = DiffStyle.Full });
            Assert.Equal(6, r.Lines.Count);
            Assert.Equal(Enumerable.Range(1, 5).Select(i => (int?)i).ToArray(), r.Lines.Where(l => l.OldLine.HasValue).Select(l => l.OldLine).ToArray());
            Assert.Null(r.Lines[0].Hunk); // line 1 lies outside the hunk
        }

        [Fact]
        public void RefinedSegmentsCoverTheLine()
        {
            var options = new ApplyOptions { Diff = DiffStyle.Changes, DiffContext = 0, Refine = true };
            ApplyResult r = Patch.Apply(Source, Diff, ApplyMode.Update, options);
            DiffLine add = r.Lines.Single(l => l.Kind == DiffKind.Add);
            Assert.Equal(new[] { "Equal:        y = ", "Add:3" }, add.Segments.Select(s => s.Kind + ":" + s.Text).ToArray());
            Assert.Equal(0, add.Segments[0].Start);
            Assert.Equal(add.Text.Length, add.Segments.Last().End);
        }

        [Fact]
        public void CreateBuildsTheFileFromPlusLines()
        {
            ApplyResult r = Patch.Apply(null, "+one\n+two\n", ApplyMode.Create);
            Assert.Equal("one\ntwo\n", r.Text);
            Assert.Equal("", r.Source);
            Assert.Empty(r.Hunks);
            r = Patch.Apply("ignored\n", "+one\n", ApplyMode.Create, new ApplyOptions { AddFileLineEnding = LineEnding.CrLf });
            Assert.Equal("one\r\n", r.Text);
            Assert.Equal("", r.Source);
        }

        [Fact]
        public void DeleteReturnsEmptyTextAndKeepsTheSource()
        {
            ApplyResult r = Patch.Apply("a\nb\n", "", ApplyMode.Delete, new ApplyOptions { Diff = DiffStyle.Full });
            Assert.Equal("", r.Text);
            Assert.Equal("a\nb\n", r.Source);
            Assert.Equal(new[] { "-a", "-b" }, r.Lines.Select(l => l.ToString()).ToArray());
        }

        [Fact]
        public void MoveReportsTheDestination()
        {
            string patch = "*** Begin Patch\n*** Update File: old.txt\n*** Move to: new.txt\n@@\n-a\n+b\n*** End Patch\n";
            ApplyResult r = Patch.Apply("a\n", patch, ApplyMode.Move);
            Assert.Equal("b\n", r.Text);
            Assert.Equal("old.txt", r.Path);
            Assert.Equal("new.txt", r.Destination);
        }

        [Theory]
        [InlineData("update", "x\n")]
        [InlineData("move", "x\n")]
        [InlineData("create", "y\n")]
        public void ModeByName(string mode, string expected)
        {
            ApplyResult r = Patch.Apply("w\n", mode == "create" ? "+y\n" : "@@\n-w\n+x\n", mode);
            Assert.Equal(expected, r.Text);
        }

        [Fact]
        public void ByteOverloadsGiveTheSameBytes()
        {
            byte[] source = Encoding.UTF8.GetBytes("\uFEFFa\r\nb\r\nc"); // BOM, CRLF, no final newline
            byte[] diff = Encoding.UTF8.GetBytes("@@\n a\n-b\n+β\n");
            ApplyResult r = Patch.Apply(source, diff, ApplyMode.Update);
            Assert.Equal("\uFEFFa\r\nβ\r\nc", r.Text);
            Assert.Equal(Encoding.UTF8.GetBytes("\uFEFFa\r\nβ\r\nc"), r.GetTextBytes());
            Assert.Equal(source, Encoding.UTF8.GetBytes(r.Source));
            Assert.Equal(r.Text, Patch.Apply(Encoding.UTF8.GetString(source), "@@\n a\n-b\n+β\n", ApplyMode.Update).Text);
        }

        [Fact]
        public void EveryByteSurvivesThroughStrings()
        {
            string source = "\uFEFFone\r\ntwo\rthree\n\0four\u00A0\u201Cq\u201D\n";
            ApplyResult r = Patch.Apply(source, "@@\n-three\n+3\n", ApplyMode.Update);
            Assert.Equal("\uFEFFone\r\ntwo\r3\n\0four\u00A0\u201Cq\u201D\n", r.Text);
        }

        [Fact]
        public void TryApplyReturnsTheResultOrTheError()
        {
            ApplyResult result;
            V4AError error;
            Assert.True(Patch.TryApply(Source, Diff, ApplyMode.Update, out result, out error));
            Assert.Null(error);
            Assert.Contains("y = 3", result.Text);

            Assert.False(Patch.TryApply(Source, "@@\n-nowhere\n+x\n", ApplyMode.Update, null, out result, out error));
            Assert.Null(result);
            Assert.Equal(V4AStatus.ContextNotFound, error.Status);
            Assert.Equal("CONTEXT_NOT_FOUND", error.StatusName);
            Assert.StartsWith("hunk 1 (patch line 1)", error.Message);
            Assert.Equal(1, error.Hunk);

            byte[] bad = { (byte)'a', 0xFF, (byte)'\n' };
            Assert.False(Patch.TryApply(bad, Encoding.UTF8.GetBytes("@@\n-a\n+b\n"), ApplyMode.Update, out result, out error));
            Assert.Equal(V4AStatus.InvalidUtf8, error.Status);
            Assert.Equal(1L, error.ByteOffset);
        }

        [Fact]
        public void OptionsAreApplied()
        {
            string file = "  a\n  b  \n  c\n";
            string diff = "@@\n a\n-b\n+B\n";
            Assert.Equal(10, Patch.Apply(file, diff, ApplyMode.Update).Fuzz);
            var strict = Assert.Throws<V4AContextNotFoundException>(() => Patch.Apply(file, diff, ApplyMode.Update, ApplyOptions.Strict()));
            Assert.Equal(V4AStatus.ContextNotFound, strict.Status);
            Assert.Throws<V4AFuzzLimitException>(() => Patch.Apply(file, diff, ApplyMode.Update, new ApplyOptions { MaxFuzz = 5 }));
            Assert.Equal("x", Patch.Apply("x", "@@\n x\n+y\n", ApplyMode.Update).Text.Substring(0, 1));
            Assert.Equal("x\ny\n", Patch.Apply("x\n", "@@\n x\n+y\n", ApplyMode.Update).Text);
            Assert.Equal("a\nb\n", Patch.Apply("a\nb", "@@\n-a\n+a\n", ApplyMode.Update, new ApplyOptions { EnsureFinalNewline = true }).Text);
            Assert.Equal("a\nb", Patch.Apply("a\nb", "@@\n-a\n+a\n", ApplyMode.Update).Text);
            Assert.Throws<V4AAlreadyAppliedException>(() => Patch.Apply("b\n", "@@\n-a\n+b\n", ApplyMode.Update, new ApplyOptions { AlreadyAppliedIsError = true }));
            ApplyResult first = Patch.Apply("k\nv\nk\nv\n", "@@\n k\n-v\n+w\n", ApplyMode.Update, new ApplyOptions { FirstMatch = true });
            Assert.Equal("k\nw\nk\nv\n", first.Text);
        }

        [Fact]
        public void AlreadyAppliedHunkIsReportedNotRepeated()
        {
            ApplyResult r = Patch.Apply("b\n", "@@\n-a\n+b\n", ApplyMode.Update);
            Assert.Equal("b\n", r.Text);
            Assert.False(r.Changed);
            Assert.True(r.Hunks[0].AlreadyApplied);
            Assert.Equal(HunkFlags.AlreadyApplied, r.Hunks[0].Flags);
            Assert.Equal("", r.GetUnifiedDiff());
        }

        [Fact]
        public void ReindentedHunkIsFlagged()
        {
            ApplyResult r = Patch.Apply("func f() {\n\tx := 1\n\treturn x\n}\n", "@@\n     x := 1\n+    y := 2\n     return x\n", ApplyMode.Update);
            Assert.Equal("func f() {\n\tx := 1\n\ty := 2\n\treturn x\n}\n", r.Text);
            Assert.True(r.Hunks[0].Reindented);
            Assert.Equal(MatchLevel.Trim, r.Hunks[0].Level);
        }

        [Fact]
        public void OptionDefaultsMatchTheLibrary()
        {
            V4AOptionsNative mine;
            Assert.Null(new ApplyOptions().ToNative(out mine));
            var theirs = new V4AOptionsNative();
            unsafe { Assert.Equal(0u, Native.v4a_options_init(&theirs)); }
            Assert.Equal(theirs.StructSize, mine.StructSize);
            Assert.Equal(theirs.MaxLevel, mine.MaxLevel);
            Assert.Equal(theirs.MaxFuzz, mine.MaxFuzz);
            Assert.Equal(theirs.FirstMatch, mine.FirstMatch);
            Assert.Equal(theirs.AlreadyAppliedIsError, mine.AlreadyAppliedIsError);
            Assert.Equal(theirs.EnsureFinalNewline, mine.EnsureFinalNewline);
            Assert.Equal(theirs.AddFileLineEnding, mine.AddFileLineEnding);
            Assert.Equal(theirs.DiffStyle, mine.DiffStyle);
            Assert.Equal(theirs.DiffContext, mine.DiffContext);
            Assert.Equal(theirs.Refine, mine.Refine);
            Assert.Equal(theirs.SearchBudget, mine.SearchBudget);

            V4AGenerateOptionsNative g;
            Assert.Null(new GenerateOptions().ToNative(out g));
            var gt = new V4AGenerateOptionsNative();
            unsafe { Assert.Equal(0u, Native.v4a_generate_options_init(&gt)); }
            Assert.Equal(gt.StructSize, g.StructSize);
            Assert.Equal(gt.Context, g.Context);
            Assert.Equal(gt.MaxContext, g.MaxContext);
        }

        [Fact]
        public void VersionsAgree()
        {
            Assert.Equal(Patch.ExpectedAbiVersion, Patch.AbiVersion);
            Assert.Equal(2, Patch.AbiVersion);
            Assert.Equal("0.1.0", Patch.Version);
        }

        [Fact]
        public void NamesOfStatusesAndLevels()
        {
            Assert.Equal("OK", Patch.StatusName(V4AStatus.Ok));
            Assert.Equal("AMBIGUOUS", Patch.StatusName(V4AStatus.Ambiguous));
            Assert.Equal("ambiguous match", Patch.StatusCategory(V4AStatus.Ambiguous));
            Assert.Equal("UNKNOWN", Patch.StatusName((V4AStatus)999));
            Assert.Equal(new[] { "exact", "trim_end", "trim", "collapse", "fold" },
                Enum.GetValues(typeof(MatchLevel)).Cast<MatchLevel>().Select(Patch.LevelName).ToArray());
            // Every enum value names the status of the same number in the library.
            foreach (V4AStatus s in Enum.GetValues(typeof(V4AStatus)))
            {
                string expected = string.Concat(s.ToString().Select((ch, i) => i > 0 && char.IsUpper(ch) ? "_" + ch : ch.ToString())).ToUpperInvariant();
                Assert.Equal(expected, Patch.StatusName(s));
            }
        }
    }
}
