using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Runtime.InteropServices;
using Xunit;

namespace V4A.Tests
{
    /// <summary>
    /// Patch.ApplyToDirectory and Patch.RecoverDirectory on real directories: a multi-file apply,
    /// a dry run, base-aware apply, the errors and their kinds, and the escapes (a symbolic link
    /// out of the directory, <c>..</c>, an absolute path, <c>.git/</c>) refused with
    /// V4AUnsafePathException while every file inside and outside stays as it was.
    /// </summary>
    public class WorkspaceTests
    {
        [DllImport("libc", SetLastError = true)]
        private static extern int symlink(string target, string linkpath);

        private static bool Unix
        {
            get { return Environment.OSVersion.Platform == PlatformID.Unix || Environment.OSVersion.Platform == PlatformID.MacOSX; }
        }

        private static string TempDir()
        {
            string d = Path.Combine(Path.GetTempPath(), "v4a-cs-ws-" + Guid.NewGuid().ToString("N"));
            Directory.CreateDirectory(d);
            return d;
        }

        private static void Put(string path, string text)
        {
            Directory.CreateDirectory(Path.GetDirectoryName(path));
            File.WriteAllText(path, text);
        }

        /// <summary>Every file under dir (links followed), path to content.</summary>
        private static SortedDictionary<string, string> Tree(string dir)
        {
            var t = new SortedDictionary<string, string>(StringComparer.Ordinal);
            foreach (string f in Directory.GetFiles(dir, "*", SearchOption.AllDirectories))
                t[f.Substring(dir.Length)] = File.ReadAllText(f);
            foreach (string d in Directory.GetDirectories(dir, "*", SearchOption.AllDirectories))
                t[d.Substring(dir.Length) + "/"] = "";
            return t;
        }

        private static void SameTree(SortedDictionary<string, string> want, SortedDictionary<string, string> got)
        {
            Assert.Equal(want.Select(kv => kv.Key + "=" + kv.Value).ToArray(), got.Select(kv => kv.Key + "=" + kv.Value).ToArray());
        }

        private static void Remove(string dir)
        {
            // Links first, so that nothing outside is followed.
            if (Unix)
                foreach (string f in Directory.GetFileSystemEntries(dir, "*", SearchOption.TopDirectoryOnly))
                    if ((File.GetAttributes(f) & FileAttributes.ReparsePoint) != 0) File.Delete(f);
            Directory.Delete(dir, true);
        }

        [Fact]
        public void AppliesAMultiFilePatchToADirectory()
        {
            string dir = TempDir();
            try
            {
                Put(Path.Combine(dir, "src/app.py"), "x = 1\ny = 2\n");
                Put(Path.Combine(dir, "old.txt"), "bye\n");
                using (Patch p = Patch.Parse(
                    "*** Begin Patch\n*** Add File: docs/new.md\n+# Title\n" +
                    "*** Update File: src/app.py\n*** Move to: src/main.py\n@@\n-x = 1\n+x = 10\n" +
                    "*** Delete File: old.txt\n*** End Patch\n"))
                {
                    var before = Tree(dir);
                    DirectoryResult preview = p.ApplyToDirectory(dir, new DirectoryOptions { DryRun = true });
                    Assert.False(preview.Written);
                    Assert.Equal(FileChange.Moved, preview.Files[1].Change);
                    SameTree(before, Tree(dir));

                    DirectoryResult r = p.ApplyToDirectory(dir, new DirectoryOptions { Engine = new ApplyOptions { Diff = DiffStyle.Full } });
                    Assert.True(r.Written);
                    Assert.Equal("Success. Updated the following files:\nA docs/new.md\nM src/main.py\nD old.txt\n", r.Summary);
                    Assert.Equal(RecoveryAction.None, r.Recovery);
                    Assert.Empty(r.Recovered);
                    Assert.Empty(r.Notes);
                    Assert.Equal(3, r.Files.Count);
                    DirectoryFileResult f = r.Files[1];
                    Assert.Equal(OperationKind.Update, f.Kind);
                    Assert.Equal(FileChange.Moved, f.Change);
                    Assert.False(f.Binary);
                    Assert.Equal("src/app.py", f.Path);
                    Assert.Equal("src/main.py", f.MoveTo);
                    Assert.Equal("src/app.py", f.SourceKey);
                    Assert.Equal("src/main.py", f.TargetKey);
                    Assert.Equal("x = 10\ny = 2\n", f.Result.Text);
                    Assert.Equal("x = 1\ny = 2\n", f.Result.Source);
                    Assert.Equal(3, f.Result.Lines.Count);
                    Assert.Equal(FileChange.Added, r.Files[0].Change);
                    Assert.Null(r.Files[0].MoveTo);
                    Assert.Equal(FileChange.Deleted, r.Files[2].Change);
                    Assert.Null(r.Files[2].TargetKey);
                    Assert.Equal("# Title\n", File.ReadAllText(Path.Combine(dir, "docs/new.md")));
                    Assert.Equal("x = 10\ny = 2\n", File.ReadAllText(Path.Combine(dir, "src/main.py")));
                    Assert.False(File.Exists(Path.Combine(dir, "src/app.py")));
                    Assert.False(File.Exists(Path.Combine(dir, "old.txt")));
                    Assert.False(Directory.Exists(Path.Combine(dir, ".v4a")));

                    // Again: the source is gone now; nothing is written.
                    before = Tree(dir);
                    V4AException e = Assert.ThrowsAny<V4AException>(() => p.ApplyToDirectory(dir));
                    Assert.Equal(WorkspaceFailure.Patch, e.Error.Failure);
                    Assert.False(e.Error.NeedsRecovery);
                    SameTree(before, Tree(dir));
                }
            }
            finally
            {
                Remove(dir);
            }
        }

        [Fact]
        public void RefusesEveryEscapeAndTouchesNothing()
        {
            string top = TempDir();
            string dir = Path.Combine(top, "root");
            string outside = Path.Combine(top, "outside");
            try
            {
                Put(Path.Combine(dir, "a.txt"), "a\n");
                Put(Path.Combine(outside, "victim.txt"), "precious\n");
                Put(Path.Combine(dir, ".git/config"), "[core]\n");
                var attacks = new List<string>
                {
                    "*** Add File: ../outside/new.txt\n+owned\n",
                    "*** Update File: ../outside/victim.txt\n@@\n-precious\n+owned\n",
                    "*** Add File: " + outside + "/new.txt\n+owned\n",
                    "*** Delete File: " + outside + "/victim.txt\n",
                    "*** Update File: .git/config\n@@\n [core]\n+\tfsmonitor = evil\n",
                };
                if (Unix)
                {
                    Assert.Equal(0, symlink("../outside", Path.Combine(dir, "link")));
                    Assert.Equal(0, symlink(outside, Path.Combine(dir, "abs")));
                    attacks.Add("*** Add File: link/victim.txt\n+owned\n");
                    attacks.Add("*** Add File: nosuchdir/../link/victim.txt\n+owned\n");
                    attacks.Add("*** Add File: q/w/../../abs/new.sh\n+owned\n");
                    attacks.Add("*** Delete File: link/victim.txt\n");
                }
                foreach (string a in attacks)
                {
                    var before = Tree(top);
                    using (Patch p = Patch.Parse("*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+b\n" + a + "*** End Patch\n"))
                    {
                        var e = Assert.Throws<V4AUnsafePathException>(() => p.ApplyToDirectory(dir));
                        Assert.Equal(V4AStatus.UnsafePath, e.Error.Status);
                        Assert.NotEmpty(e.Error.Message);
                        DirectoryResult r;
                        V4AError error;
                        Assert.False(p.TryApplyToDirectory(dir, null, out r, out error));
                        Assert.Null(r);
                        Assert.Equal(V4AStatus.UnsafePath, error.Status);
                    }
                    SameTree(before, Tree(top));
                }
                Assert.Equal("precious\n", File.ReadAllText(Path.Combine(outside, "victim.txt")));
                Assert.False(Directory.Exists(Path.Combine(dir, ".v4a")));
            }
            finally
            {
                if (Unix)
                {
                    File.Delete(Path.Combine(dir, "link"));
                    File.Delete(Path.Combine(dir, "abs"));
                }
                Directory.Delete(top, true);
            }
        }

        [Fact]
        public void ErrorsOptionsBasesAndRecovery()
        {
            string dir = TempDir();
            try
            {
                Put(Path.Combine(dir, "a.txt"), "one\ntwo\n");
                Directory.CreateDirectory(Path.Combine(dir, "sub"));
                using (Patch add = Patch.Parse("*** Begin Patch\n*** Add File: a.txt\n+new\n*** End Patch\n"))
                {
                    Assert.Throws<V4AFileExistsException>(() => add.ApplyToDirectory(dir));
                    add.ApplyToDirectory(dir, new DirectoryOptions { AllowOverwrite = true });
                }
                Put(Path.Combine(dir, "a.txt"), "zero\none\ntwo\n");
                using (Patch upd = Patch.Parse("*** Begin Patch\n*** Update File: a.txt\n@@\n one\n-two\n+2\n*** End Patch\n"))
                {
                    // Base-aware: the model saw "one\ntwo\n"; a line was added since.
                    upd.ApplyToDirectory(dir, new DirectoryOptions { ReadBase = path => path == "a.txt" ? "one\ntwo\n" : null });
                    Assert.Equal("zero\none\n2\n", File.ReadAllText(Path.Combine(dir, "a.txt")));

                    string missing = Path.Combine(dir, "no-such-dir");
                    var io = Assert.Throws<V4AIoErrorException>(() => upd.ApplyToDirectory(missing));
                    Assert.Equal(V4AStatus.IoError, io.Error.Status);
                    Assert.Equal(WorkspaceFailure.Io, io.Error.Failure);
                    Assert.Contains("no-such-dir", io.Error.Message);
                    Assert.False(Directory.Exists(missing));
                    Assert.Equal("IO_ERROR", Patch.StatusName(V4AStatus.IoError));

                    Assert.Throws<V4AInvalidArgumentException>(() => upd.ApplyToDirectory(dir, new DirectoryOptions { LockWait = TimeSpan.FromSeconds(-1) }));
                    Assert.Throws<V4AInvalidArgumentException>(() => upd.ApplyToDirectory(""));
                    Assert.Throws<ArgumentNullException>(() => upd.ApplyToDirectory(null));
                }
                using (Patch conflict = Patch.Parse("*** Begin Patch\n*** Update File: sub\n@@\n-a\n+b\n*** End Patch\n"))
                {
                    var e = Assert.Throws<V4AIoErrorException>(() => conflict.ApplyToDirectory(dir));
                    Assert.Equal(WorkspaceFailure.PathConflict, e.Error.Failure);
                    Assert.Equal("sub", e.Error.Path);
                }

                DirectoryResult rec = Patch.RecoverDirectory(dir);
                Assert.Equal(RecoveryAction.None, rec.Recovery);
                Assert.Empty(rec.Files);
                Assert.Empty(rec.Recovered);
                // A torn journal was never in force: a dry run refuses to go past it; recovery removes it.
                Put(Path.Combine(dir, ".v4a/journal"), "torn");
                using (Patch upd = Patch.Parse("*** Begin Patch\n*** Update File: a.txt\n@@\n-zero\n+0\n*** End Patch\n"))
                {
                    Assert.Throws<V4ALockedException>(() => upd.ApplyToDirectory(dir, new DirectoryOptions { DryRun = true }));
                    Assert.Equal(RecoveryAction.None, Patch.RecoverDirectory(dir).Recovery);
                    Assert.False(File.Exists(Path.Combine(dir, ".v4a/journal")));
                    upd.ApplyToDirectory(dir);
                }
                Assert.Equal("0\none\n2\n", File.ReadAllText(Path.Combine(dir, "a.txt")));
                Assert.Throws<V4AIoErrorException>(() => Patch.RecoverDirectory(Path.Combine(dir, "missing")));
            }
            finally
            {
                Directory.Delete(dir, true);
            }
        }
    }
}
