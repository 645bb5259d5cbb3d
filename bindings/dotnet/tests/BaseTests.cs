using System;
using System.Collections.Generic;
using System.Linq;
using System.Text;
using Xunit;

namespace V4A.Tests
{
    /// <summary>Base-aware apply: the diff was written against the text the model saw, the file moved on since.</summary>
    public class BaseTests
    {
        private const string BaseX = "def f():\n    x = 1\n    return x\n";
        private const string CurrentX = "def f():\n    x = 10\n    return x\n";
        private const string DiffX = "@@ def f():\n-    x = 1\n+    x = 2\n";

        private const string ConflictMessage =
            "hunk 1 (patch line 1) conflicts with a change made to the file since the model read it: " +
            "the lines it changes were also changed in the current file.\n" +
            "What the model saw (line 2):\n  |    x = 1\n" +
            "What the file has now (line 2):\n  |    x = 10\n" +
            "What the patch wanted (line 2):\n  |    x = 2\n" +
            "Resend the hunk against the current lines shown above.";

        [Fact]
        public void LinesThatNowOccurTwiceLandWhereTheModelSawThem()
        {
            const string baseText = "// header\nfn a() {\n    run(1);\n}\n";
            const string current = "fn b() {\n    run(1);\n}\n// header\nfn a() {\n    run(1);\n}\n";
            const string diff = "-    run(1);\n+    run(2);\n";
            Assert.Throws<V4AAmbiguousException>(() => Patch.Apply(current, diff, ApplyMode.Update));
            ApplyResult r = Patch.ApplyWithBase(current, baseText, diff, ApplyMode.Update);
            Assert.Equal("fn b() {\n    run(1);\n}\n// header\nfn a() {\n    run(2);\n}\n", r.Text);
            Assert.Same(current, r.Source);
            Assert.Equal(1, r.Hunks.Count);
            Assert.Equal(HunkFlags.Merged, r.Hunks[0].Flags);
            Assert.True(r.Hunks[0].Merged);
            Assert.Equal(6, r.Hunks[0].OldStart);
            Assert.Equal(1, r.Hunks[0].OldLength);

            // Drift above the hunk: carried down, the ranges in the current text; bytes too.
            r = Patch.ApplyWithBase(Encoding.UTF8.GetBytes("import os\n" + BaseX), Encoding.UTF8.GetBytes(BaseX),
                Encoding.UTF8.GetBytes(DiffX), ApplyMode.Update);
            Assert.Equal("import os\ndef f():\n    x = 2\n    return x\n", r.Text);
            Assert.True(r.Hunks[0].Merged);
            Assert.Equal(3, r.Hunks[0].OldStart);
        }

        [Fact]
        public void ABaseEqualToTheSourceIsThePlainApply()
        {
            ApplyResult with = Patch.ApplyWithBase(BaseX, BaseX, DiffX, ApplyMode.Update);
            ApplyResult plain = Patch.Apply(BaseX, DiffX, ApplyMode.Update);
            Assert.Equal(plain.Text, with.Text);
            Assert.Equal(HunkFlags.None, with.Hunks[0].Flags);
            Assert.Equal(plain.Hunks[0].OldStart, with.Hunks[0].OldStart);
        }

        [Fact]
        public void AConflictShowsTheThreeVersions()
        {
            var e = Assert.Throws<V4AConflictException>(() => Patch.ApplyWithBase(CurrentX, BaseX, DiffX, ApplyMode.Update));
            Assert.Equal(V4AStatus.Conflict, e.Status);
            Assert.Equal(ConflictMessage, e.Message);
            Assert.Equal(new[] { 2 }, e.Candidates.ToArray());
            Assert.Equal("CONFLICT", e.Error.StatusName);

            ApplyResult result;
            V4AError error;
            Assert.False(Patch.TryApplyWithBase(CurrentX, BaseX, DiffX, ApplyMode.Update, null, out result, out error));
            Assert.Null(result);
            Assert.Equal(V4AStatus.Conflict, error.Status);

            // An empty base is a base (the model saw an empty file): the line the file gained
            // and the added line meet at one place, where the plain apply appends.
            Assert.Equal("top\nadded\n", Patch.Apply("top\n", "@@\n+added\n", ApplyMode.Update).Text);
            Assert.Throws<V4AConflictException>(() => Patch.ApplyWithBase("top\n", null, "@@\n+added\n", ApplyMode.Update));
        }

        [Fact]
        public void BadInputsAreRefused()
        {
            var e = Assert.Throws<V4AInvalidUtf8Exception>(() => Patch.ApplyWithBase(
                Encoding.UTF8.GetBytes("a\n"), new byte[] { (byte)'a', (byte)'\n', 0xC3, (byte)'\n' },
                Encoding.UTF8.GetBytes("@@\n-a\n+b\n"), ApplyMode.Update));
            Assert.Equal("base", e.Error.Input);
            Assert.Equal(2L, e.Error.ByteOffset);
            var s = Assert.Throws<V4AInvalidArgumentException>(() => Patch.ApplyWithBase("a\n", "a\uD800\n", "@@\n-a\n+b\n", ApplyMode.Update));
            Assert.Contains("base", s.Message);
            Assert.Throws<V4AUnsupportedModeException>(() => Patch.ApplyWithBase("a\n", "a\n", "@@\n-a\n+b\n", (ApplyMode)9));
            // Create mode reads neither text.
            Assert.Equal("new\n", Patch.ApplyWithBase(null, new byte[] { 0xFF }, Encoding.UTF8.GetBytes("+new\n"), ApplyMode.Create).Text);
        }

        private const string BasesPatch =
            "*** Begin Patch\n*** Update File: a.py\n" + DiffX +
            "*** Add File: new.txt\n+new\n*** Delete File: gone.txt\n" +
            "*** Update File: b.txt\n@@\n-old\n+new\n*** End Patch\n";

        [Fact]
        public void APatchMergesTheFilesWithABase()
        {
            var files = new Dictionary<string, string>
            {
                { "a.py", "import os\n" + BaseX }, { "gone.txt", "bye\n" }, { "b.txt", "old\n" },
            };
            var asked = new List<string>();
            Func<string, string> readBase = path => { asked.Add(path); return path == "a.py" ? BaseX : null; };
            using (var p = Patch.Parse(BasesPatch))
            {
                PatchResult r = p.ApplyWithBases(path => { string t; return files.TryGetValue(path, out t) ? t : null; }, readBase);
                Assert.Equal(new[] { "a.py", "b.txt" }, asked.ToArray()); // only the Updates' bases
                Assert.Equal(4, r.Files.Count);
                Assert.Equal("import os\ndef f():\n    x = 2\n    return x\n", r.Files[0].Text);
                Assert.True(r.Files[0].Result.Hunks[0].Merged);
                Assert.Equal(3, r.Files[0].Result.Hunks[0].OldStart);
                Assert.Equal("new\n", r.Files[3].Text);
                Assert.False(r.Files[3].Result.Hunks[0].Merged);
                Assert.Equal("Success. Updated the following files:\nM a.py\nA new.txt\nD gone.txt\nM b.txt\n", r.Summary);

                // No bases at all: the plain apply.
                PatchResult none = p.ApplyWithBases(files, new Dictionary<string, string>());
                PatchResult plain = p.Apply(files);
                Assert.Equal(plain.Summary, none.Summary);
                Assert.Equal(plain.Files.Select(f => f.Text).ToArray(), none.Files.Select(f => f.Text).ToArray());

                // A conflict in one file fails the whole patch.
                files["a.py"] = CurrentX;
                var bases = new Dictionary<string, string> { { "a.py", BaseX } };
                var e = Assert.Throws<V4AConflictException>(() => p.ApplyWithBases(files, bases));
                Assert.Equal("a.py", e.Path);
                PatchResult result;
                V4AError error;
                Assert.False(p.TryApplyWithBases(path => files[path], path => BaseX, null, out result, out error));
                Assert.Null(result);
                Assert.Equal(V4AStatus.Conflict, error.Status);

                // A base with a lone surrogate, null arguments, an exception of the reader.
                files["a.py"] = "import os\n" + BaseX;
                var bad = new Dictionary<string, string> { { "b.txt", "\uDC00" } };
                var s = Assert.Throws<V4AInvalidArgumentException>(() => p.ApplyWithBases(files, bad));
                Assert.Contains("the base of b.txt", s.Message);
                Assert.Throws<ArgumentNullException>(() => p.ApplyWithBases(files, null));
                Assert.Throws<ArgumentNullException>(() => p.ApplyWithBases(null, bases));
                Assert.Throws<InvalidOperationException>(() => p.ApplyWithBases(
                    path => files[path], path => { throw new InvalidOperationException("disk on fire"); }));
            }
        }
    }
}
