using System;
using System.Collections.Generic;
using System.Linq;
using System.Text;
using Xunit;

namespace V4A.Tests
{
    /// <summary>Every status as its V4AException subclass, with the diagnostics fields filled.</summary>
    public class ErrorTests
    {
        private const string TwoMethods = "def save(self):\n    self.flush()\n\ndef load(self):\n    self.flush()\n";

        [Fact]
        public void AmbiguousListsEveryCandidateAndAFix()
        {
            string patch = "*** Begin Patch\n*** Update File: src/app.py\n@@\n-    self.flush()\n+    self.sync()\n*** End Patch\n";
            var e = Assert.Throws<V4AAmbiguousException>(() => Patch.Apply(TwoMethods, patch, ApplyMode.Update));
            Assert.Equal(V4AStatus.Ambiguous, e.Status);
            Assert.Equal(new[] { 2, 5 }, e.Candidates.ToArray());
            Assert.Equal(1, e.Hunk);
            Assert.Equal(3, e.Line); // the hunk's @@ line
            Assert.Equal("src/app.py", e.Path);
            Assert.StartsWith("hunk 1 (patch line 3) matches 2 places in src/app.py: lines 2 and 5.", e.Message);
            Assert.Contains("@@ def save(self):", e.Message);
            Assert.NotNull(e.Suggestion);
            Assert.Null(e.CorrectedHunk);
            Assert.Equal(e.Message, e.Error.Message);
            Assert.Equal("AMBIGUOUS", e.Error.StatusName);
            Assert.Equal("ambiguous match", e.Error.Category);
            Assert.Equal(9, e.Error.Code);
            Assert.IsAssignableFrom<V4AException>(e);
        }

        [Fact]
        public void ContextNotFoundHasTheClosestRegionAndACorrectedHunk()
        {
            string file = "def f():\n    a = 1\n    b = 2\n    return a + b\n";
            string diff = "@@\n     a = 1\n-    b = 3\n+    b = 4\n     return a + b\n";
            var e = Assert.Throws<V4AContextNotFoundException>(() => Patch.Apply(file, diff, ApplyMode.Update));
            Assert.Equal(V4AStatus.ContextNotFound, e.Status);
            Assert.Equal(1, e.Hunk);
            Assert.Equal(1, e.Line);
            Assert.Null(e.Path);
            Assert.Empty(e.Candidates);
            Assert.Contains("-    b = 2", e.CorrectedHunk);
            Assert.Contains("+    b = 4", e.CorrectedHunk);
            Assert.Equal(2, e.Error.ClosestStart);
            Assert.Equal(4, e.Error.ClosestEnd);
            Assert.InRange(e.Error.ClosestSimilarity, 0.5, 1.0);
            Assert.Null(e.Error.ByteOffset);
        }

        [Fact]
        public void AnchorNotFound()
        {
            var e = Assert.Throws<V4AAnchorNotFoundException>(() => Patch.Apply(TwoMethods, "@@ def missing(self):\n-    self.flush()\n+    x\n", ApplyMode.Update));
            Assert.Equal(V4AStatus.AnchorNotFound, e.Status);
            Assert.Contains("def missing(self):", e.Message);
            Assert.Equal(1, e.Line);
        }

        [Fact]
        public void PatchSyntaxNamesTheLine()
        {
            string patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n?b\n*** End Patch\n";
            var e = Assert.Throws<V4APatchSyntaxException>(() => Patch.Apply("a\n", patch, ApplyMode.Update));
            Assert.Equal(5, e.Line);
            var p = Assert.Throws<V4APatchSyntaxException>(() => Patch.Parse(patch));
            Assert.Equal(5, p.Line);
        }

        [Fact]
        public void TruncatedPatch()
        {
            var e = Assert.Throws<V4ATruncatedPatchException>(() => Patch.Parse("*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+b\n"));
            Assert.Equal(V4AStatus.TruncatedPatch, e.Status);
            Assert.Contains("*** End Patch", e.Message);
        }

        [Fact]
        public void UnsupportedModeByNumberAndByName()
        {
            var e = Assert.Throws<V4AUnsupportedModeException>(() => Patch.Apply("a\n", "@@\n-a\n+b\n", (ApplyMode)7));
            Assert.Equal(V4AStatus.UnsupportedMode, e.Status);
            var n = Assert.Throws<V4AUnsupportedModeException>(() => Patch.Apply("a\n", "@@\n-a\n+b\n", "patch"));
            Assert.Contains("update", n.Message);
            Assert.Throws<V4AUnsupportedModeException>(() => Patch.Apply("a\n", "@@\n-a\n+b\n", (string)null));
        }

        [Fact]
        public void InvalidUtf8HasTheOffsetAndTheInput()
        {
            byte[] source = { (byte)'o', (byte)'k', (byte)'\n', 0xC3, 0x28, (byte)'\n' };
            var e = Assert.Throws<V4AInvalidUtf8Exception>(() => Patch.Apply(source, Encoding.UTF8.GetBytes("@@\n-ok\n+no\n"), ApplyMode.Update));
            Assert.Equal(3L, e.Error.ByteOffset);
            Assert.Equal("source", e.Error.Input);
            var d = Assert.Throws<V4AInvalidUtf8Exception>(() => Patch.Apply(Encoding.UTF8.GetBytes("ok\n"), new byte[] { (byte)'@', (byte)'@', (byte)'\n', 0xFF }, ApplyMode.Update));
            Assert.Equal(3L, d.Error.ByteOffset);
            Assert.NotEqual("source", d.Error.Input);
            Assert.Throws<V4AInvalidUtf8Exception>(() => Patch.Parse(new byte[] { 0xFE }));
        }

        [Fact]
        public void OverlappingHunks()
        {
            var e = Assert.Throws<V4AOverlappingHunksException>(() => Patch.Apply("a\nb\nc\n", "@@\n a\n-b\n+B\n@@\n-b\n+X\n c\n", ApplyMode.Update));
            Assert.Equal(V4AStatus.OverlappingHunks, e.Status);
            Assert.Equal(2, e.Hunk);
        }

        [Fact]
        public void AlreadyAppliedAsAnError()
        {
            var e = Assert.Throws<V4AAlreadyAppliedException>(() => Patch.Apply("b\n", "@@\n-a\n+b\n", ApplyMode.Update, new ApplyOptions { AlreadyAppliedIsError = true }));
            Assert.Equal(V4AStatus.AlreadyApplied, e.Status);
            Assert.Equal(1, e.Hunk);
        }

        [Fact]
        public void FuzzLimit()
        {
            var e = Assert.Throws<V4AFuzzLimitException>(() => Patch.Apply("  a\n", "@@\n-a\n+b\n", ApplyMode.Update, new ApplyOptions { MaxFuzz = 0 }));
            Assert.Equal(V4AStatus.FuzzLimit, e.Status);
        }

        [Fact]
        public void SearchBudget()
        {
            string file = string.Concat(Enumerable.Repeat("x\n", 5000)) + "y\n";
            string diff = "@@\n" + string.Concat(Enumerable.Repeat(" x\n", 200)) + "-y\n+z\n";
            var e = Assert.Throws<V4ASearchBudgetException>(() => Patch.Apply(file, diff, ApplyMode.Update, new ApplyOptions { SearchBudget = 10 }));
            Assert.Equal(V4AStatus.SearchBudget, e.Status);
            Assert.Equal("x\n", Patch.Apply(file, diff, ApplyMode.Update).Text.Substring(0, 2));
        }

        [Fact]
        public void MissingSourceAndDuplicatePath()
        {
            using (var p = Patch.Parse("*** Begin Patch\n*** Update File: gone.txt\n@@\n-a\n+b\n*** End Patch\n"))
            {
                var e = Assert.Throws<V4AMissingSourceException>(() => p.Apply(new Dictionary<string, string>()));
                Assert.Equal("gone.txt", e.Path);
            }
            var d = Assert.Throws<V4ADuplicatePathException>(() => Patch.Parse(
                "*** Begin Patch\n*** Delete File: a.txt\n*** Delete File: a.txt\n*** End Patch\n"));
            Assert.Equal(V4AStatus.DuplicatePath, d.Status);
            Assert.Equal("a.txt", d.Path);
        }

        [Fact]
        public void InvalidArguments()
        {
            // Several files given to the single-file call.
            string two = "*** Begin Patch\n*** Delete File: a\n*** Delete File: b\n*** End Patch\n";
            Assert.Throws<V4AInvalidArgumentException>(() => Patch.Apply("x\n", two, ApplyMode.Update));
            // Values that name no constant, refused by the library.
            Assert.Throws<V4AInvalidArgumentException>(() => Patch.Apply("a\n", "@@\n-a\n+b\n", ApplyMode.Update, new ApplyOptions { MaxLevel = (MatchLevel)9 }));
            Assert.Throws<V4AInvalidArgumentException>(() => Patch.Apply("a\n", "@@\n-a\n+b\n", ApplyMode.Update, new ApplyOptions { Diff = (DiffStyle)4 }));
            Assert.Throws<V4AInvalidArgumentException>(() => Patch.Apply("a\n", "@@\n-a\n+b\n", ApplyMode.Update, new ApplyOptions { AddFileLineEnding = (LineEnding)2 }));
            Assert.Throws<V4AInvalidArgumentException>(() => Patch.Apply("a\n", "@@\n-a\n+b\n", ApplyMode.Update, new ApplyOptions { SearchBudget = 0 }));
            // Values refused before the call.
            var neg = Assert.Throws<V4AInvalidArgumentException>(() => Patch.Apply("a\n", "@@\n-a\n+b\n", ApplyMode.Update, new ApplyOptions { DiffContext = -1 }));
            Assert.Contains("DiffContext", neg.Message);
            Assert.Throws<V4AInvalidArgumentException>(() => Patch.Apply("a\n", "@@\n-a\n+b\n", ApplyMode.Update, new ApplyOptions { MaxFuzz = -1 }));
            Assert.Throws<V4AInvalidArgumentException>(() => Patch.MakePatch("a\n", "b\n", "p", new GenerateOptions { Context = -1 }));
            // Differences a V4A patch cannot express.
            Assert.Throws<V4AInvalidArgumentException>(() => Patch.MakePatch("\uFEFFa\n", "a\n", "p"));
            Assert.Throws<V4AInvalidArgumentException>(() => Patch.ToolSchema((ToolFlavor)42, ToolShape.Input));
            Assert.Throws<V4AInvalidArgumentException>(() => Patch.Normalize("x", (MatchLevel)5));
        }

        [Fact]
        public void LoneSurrogatesAreRefusedNotReplaced()
        {
            var e = Assert.Throws<V4AInvalidArgumentException>(() => Patch.Apply("a\uD800b\n", "@@\n-a\n+b\n", ApplyMode.Update));
            Assert.Contains("index 1", e.Message);
            Assert.Contains("source", e.Message);
            var d = Assert.Throws<V4AInvalidArgumentException>(() => Patch.Apply("a\n", "@@\n-a\n+\uDC00\n", ApplyMode.Update));
            Assert.Contains("diff", d.Message);
            ApplyResult result;
            V4AError error;
            Assert.False(Patch.TryApply("\uDFFF", "", ApplyMode.Update, out result, out error));
            Assert.Equal(V4AStatus.InvalidArgument, error.Status);
            using (var p = Patch.Parse("*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+b\n*** End Patch\n"))
            {
                var s = Assert.Throws<V4AInvalidArgumentException>(() => p.Apply(new Dictionary<string, string> { { "a.txt", "a\n\uD83D" } }));
                Assert.Contains("a.txt", s.Message);
            }
        }

        [Fact]
        public void EverySubclassMatchesItsStatus()
        {
            var seen = new HashSet<Type>();
            foreach (V4AStatus s in Enum.GetValues(typeof(V4AStatus)))
            {
                if (s == V4AStatus.Ok) continue;
                V4AException e = new V4AError(s, "m").ToException();
                Assert.Equal(s, e.Status);
                Assert.Equal("m", e.Message);
                Assert.Equal("V4A" + s + "Exception", e.GetType().Name);
                Assert.True(e.GetType().IsSubclassOf(typeof(V4AException)));
                Assert.True(seen.Add(e.GetType()));
            }
            Assert.Equal(Enum.GetValues(typeof(V4AStatus)).Length - 1, seen.Count); // every status but Ok
            Assert.Equal(typeof(V4AException), new V4AError((V4AStatus)99, "x").ToException().GetType());
        }

        [Fact]
        public void NullAndEmptyInputsAreEmptyText()
        {
            Assert.Equal("a\n", Patch.Apply(null, "@@\n+a\n", ApplyMode.Update).Text);
            Assert.Equal("a\n", Patch.Apply((byte[])null, Encoding.UTF8.GetBytes("+a\n"), ApplyMode.Create).Text);
            Assert.Equal("", Patch.Apply("", "", ApplyMode.Delete).Text);
            Assert.Equal("", Patch.Apply(new byte[0], new byte[0], ApplyMode.Delete).Text);
            // An empty diff in update mode is a patch error written for the model.
            V4AException e = Assert.ThrowsAny<V4AException>(() => Patch.Apply("a\n", null, ApplyMode.Update));
            Assert.NotEqual(V4AStatus.Internal, e.Status);
            Assert.NotEqual("", e.Message);
        }
    }
}
