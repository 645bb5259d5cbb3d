using System;
using System.Collections.Generic;
using System.Linq;
using System.Text;
using Xunit;

namespace V4A.Tests
{
    /// <summary>Multi-file patches: parse, operations, atomic apply over a dictionary or a delegate, reverse.</summary>
    public class MultiFileTests
    {
        private const string PatchText =
            "*** Begin Patch\n" +
            "*** Add File: docs/new.md\n" +
            "+# Title\n" +
            "*** Update File: src/app.py\n" +
            "*** Move to: src/main.py\n" +
            "@@ def run():\n" +
            "-    return 1\n" +
            "+    return 2\n" +
            "*** Delete File: old.txt\n" +
            "*** Update File: a.txt\n" +
            "@@\n" +
            "-one\n" +
            "+two\n" +
            "*** End Patch\n";

        private static Dictionary<string, string> Files()
        {
            return new Dictionary<string, string>
            {
                { "src/app.py", "def run():\n    return 1\n" },
                { "old.txt", "bye\n" },
                { "a.txt", "one\n" },
            };
        }

        [Fact]
        public void ParseListsTheOperations()
        {
            using (Patch p = Patch.Parse(PatchText))
            {
                Assert.Equal(4, p.Operations.Count);
                PatchOperation add = p.Operations[0], move = p.Operations[1], del = p.Operations[2], upd = p.Operations[3];
                Assert.Equal(OperationKind.Add, add.Kind);
                Assert.Equal("docs/new.md", add.Path);
                Assert.Null(add.MoveTo);
                Assert.Equal(PathClass.Empty, add.MoveToClass);
                Assert.Equal(2, add.PatchLine);
                Assert.Equal(1, add.HunkCount);
                Assert.Equal(OperationKind.Update, move.Kind);
                Assert.Equal("src/main.py", move.MoveTo);
                Assert.Equal(PathClass.Relative, move.MoveToClass);
                Assert.Equal(4, move.PatchLine);
                Assert.Equal(1, move.HunkCount);
                Assert.Equal(OperationKind.Delete, del.Kind);
                Assert.Equal(0, del.HunkCount);
                Assert.Equal("a.txt", upd.Path);
                Assert.True(p.Operations.All(o => o.IsSafe));
            }
        }

        [Fact]
        public void ApplyWithADictionary()
        {
            using (Patch p = Patch.Parse(PatchText))
            {
                Dictionary<string, string> files = Files();
                PatchResult r = p.Apply(files);
                Assert.Equal("Success. Updated the following files:\nA docs/new.md\nM src/main.py\nD old.txt\nM a.txt\n", r.Summary);
                Assert.Equal(4, r.Files.Count);
                Assert.Equal(OperationKind.Add, r.Files[0].Kind);
                Assert.Equal("# Title\n", r.Files[0].Text);
                Assert.Equal("src/app.py", r.Files[1].Path);
                Assert.Equal("src/main.py", r.Files[1].MoveTo);
                Assert.Equal("src/main.py", r.Files[1].TargetPath);
                Assert.Equal("def run():\n    return 2\n", r.Files[1].Text);
                Assert.Same(files["src/app.py"], r.Files[1].Result.Source);
                Assert.Equal("", r.Files[2].Text);
                Assert.Equal("bye\n", r.Files[2].Result.Source);
                Assert.Equal("two\n", r.Files[3].Text);
                Assert.Equal("src/app.py", r.Files[1].Result.Path);
                Assert.Equal(1, r.Files[3].Result.Hunks.Count);
                Assert.Contains("-one", r.Files[3].Result.GetUnifiedDiff());

                r.ApplyTo(files);
                Assert.Equal(new[] { "a.txt", "docs/new.md", "src/main.py" }, files.Keys.OrderBy(k => k, StringComparer.Ordinal).ToArray());
                Assert.Equal("two\n", files["a.txt"]);
            }
        }

        [Fact]
        public void ApplyWithADelegateReadsOnlyWhatItNeeds()
        {
            var asked = new List<string>();
            Dictionary<string, string> files = Files();
            PatchResult r = TestSupport.ApplyPatch(PatchText, path =>
            {
                asked.Add(path);
                string text;
                return files.TryGetValue(path, out text) ? text : null;
            });
            Assert.Equal(new[] { "src/app.py", "old.txt", "a.txt" }, asked.ToArray()); // never the Add File
            Assert.Equal(4, r.Files.Count);
        }

        [Fact]
        public void ApplyWithBytes()
        {
            using (Patch p = Patch.Parse(Encoding.UTF8.GetBytes(PatchText)))
            {
                var files = Files().ToDictionary(kv => kv.Key, kv => Encoding.UTF8.GetBytes(kv.Value));
                files["a.txt"] = Encoding.UTF8.GetBytes("one\r\n");
                PatchResult r = p.Apply(files);
                r.ApplyTo(files);
                Assert.Equal(Encoding.UTF8.GetBytes("two\r\n"), files["a.txt"]);
                Assert.Equal("one\r\n", r.Files[3].Result.Source);
            }
        }

        [Fact]
        public void FailureIsAtomicAndNamesTheFile()
        {
            Dictionary<string, string> files = Files();
            files["a.txt"] = "something else\n";
            using (Patch p = Patch.Parse(PatchText))
            {
                var e = Assert.Throws<V4AContextNotFoundException>(() => p.Apply(files));
                Assert.Equal("a.txt", e.Path);
                Assert.Equal(1, e.Hunk);
                Assert.Equal(11, e.Line);
                PatchResult result;
                V4AError error;
                Assert.False(p.TryApply(files, null, out result, out error));
                Assert.Null(result);
                Assert.Equal(V4AStatus.ContextNotFound, error.Status);
                // The same patch still applies to the right sources.
                Assert.True(p.TryApply(Files(), null, out result, out error));
                Assert.Equal(4, result.Files.Count);
            }
        }

        [Fact]
        public void MissingFileFromTheDelegate()
        {
            var e = Assert.Throws<V4AMissingSourceException>(() => TestSupport.ApplyPatch(PatchText, path => path == "old.txt" ? null : Files()[path]));
            Assert.Equal("old.txt", e.Path);
        }

        [Fact]
        public void DelegateExceptionsPropagate()
        {
            using (Patch p = Patch.Parse(PatchText))
            {
                Assert.Throws<System.IO.FileNotFoundException>(() => p.Apply(path => { throw new System.IO.FileNotFoundException(path); }));
            }
        }

        [Fact]
        public void OptionsReachEveryFile()
        {
            string patch = "*** Begin Patch\n*** Update File: a\n@@\n-x\n+y\n*** Update File: b\n@@\n-x\n+y\n*** End Patch\n";
            var files = new Dictionary<string, string> { { "a", "x\n" }, { "b", "  x\n" } };
            Assert.Throws<V4AContextNotFoundException>(() => TestSupport.ApplyPatch(patch, files, ApplyOptions.Strict()));
            PatchResult r = TestSupport.ApplyPatch(patch, files, new ApplyOptions { Diff = DiffStyle.Full });
            Assert.Equal(0, r.Files[0].Result.Fuzz);
            Assert.Equal(10, r.Files[1].Result.Fuzz);
            Assert.Equal(2, r.Files[1].Result.Lines.Count);
        }

        [Fact]
        public void ReverseUndoesThePatch()
        {
            Dictionary<string, string> files = Files();
            string reverse = TestSupport.Reverse(PatchText, files);
            Assert.StartsWith("*** Begin Patch\n", reverse);
            PatchResult forward = TestSupport.ApplyPatch(PatchText, files);
            var after = new Dictionary<string, string>(files);
            forward.ApplyTo(after);
            PatchResult back = TestSupport.ApplyPatch(reverse, after);
            back.ApplyTo(after);
            Assert.Equal(files.OrderBy(kv => kv.Key, StringComparer.Ordinal).ToArray(), after.OrderBy(kv => kv.Key, StringComparer.Ordinal).ToArray());
        }

        [Fact]
        public void PathClassesOfOperations()
        {
            string patch = "*** Begin Patch\n*** Delete File: /etc/passwd\n*** Delete File: ../up.txt\n*** Delete File: C:/x.txt\n*** Update File: ok.txt\n*** Move to: ../../out.txt\n*** End Patch\n";
            using (Patch p = Patch.Parse(patch))
            {
                Assert.Equal(new[] { PathClass.Absolute, PathClass.ParentEscape, PathClass.DrivePrefix, PathClass.Relative },
                    p.Operations.Select(o => o.PathClass).ToArray());
                Assert.Equal(PathClass.ParentEscape, p.Operations[3].MoveToClass);
                Assert.False(p.Operations.Any(o => o.IsSafe));
            }
        }

        [Fact]
        public void StrictParsingRefusesWhatLenientParsingAccepts()
        {
            string crlf = PatchText.Replace("\n", "\r\n");
            using (Patch p = Patch.Parse(crlf)) Assert.Equal(4, p.Operations.Count);
            Assert.ThrowsAny<V4AException>(() => Patch.ParseStrict(crlf));
            using (Patch p = Patch.ParseStrict(PatchText)) Assert.Equal(4, p.Operations.Count);
            using (Patch p = Patch.ParseStrict(Encoding.UTF8.GetBytes(PatchText))) Assert.Equal(4, p.Operations.Count);
        }

        [Fact]
        public void TryParseReportsTheError()
        {
            Patch p;
            V4AError error;
            Assert.False(Patch.TryParse("*** Begin Patch\n*** Frobnicate File: x\n*** End Patch\n", out p, out error));
            Assert.Null(p);
            Assert.Equal(V4AStatus.PatchSyntax, error.Status);
            Assert.Equal(2, error.Line);
            Assert.True(Patch.TryParse(PatchText, out p, out error));
            Assert.Null(error);
            p.Dispose();
        }

        [Fact]
        public void DisposedPatchCannotBeApplied()
        {
            Patch p = Patch.Parse(PatchText);
            p.Dispose();
            p.Dispose(); // idempotent
            Assert.Throws<ObjectDisposedException>(() => p.Apply(Files()));
            Assert.Equal(4, p.Operations.Count); // the managed copy stays readable
        }

        [Fact]
        public void EmptyEnvelopeIsAPatchSyntaxError()
        {
            var e = Assert.Throws<V4APatchSyntaxException>(() => Patch.Parse("*** Begin Patch\n*** End Patch\n"));
            Assert.Contains("no file operations", e.Message);
        }
    }
}
