using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Reflection;
using System.Runtime.InteropServices;
using Xunit;

namespace V4A.Tests
{
    /// <summary>
    /// Read-only refusals of Patch.ApplyToDirectory as a non-root user: as root, a tree owned by
    /// nobody (uid 65534) is made, with a 0444 file and a 0555 directory, and this test runner
    /// is run again as nobody (through setpriv) on <see cref="RefusalsInTheTreeOfV4ACsUserRoot"/>;
    /// each refusal throws V4AIoErrorException of the right kind and names the real cause, and
    /// the tree stays byte for byte what it was. Not root: skipped with a message.
    /// </summary>
    public class WorkspaceUserTests
    {
        private const int UserId = 65534, GroupId = 65534;
        private const string RootVariable = "V4A_CS_USER_ROOT";

        [DllImport("libc", SetLastError = true)]
        private static extern uint geteuid();

        [DllImport("libc", SetLastError = true)]
        private static extern int chown(string path, int owner, int group);

        [DllImport("libc", SetLastError = true)]
        private static extern int chmod(string path, uint mode);

        private static bool Linux
        {
            get { return Environment.OSVersion.Platform == PlatformID.Unix && Directory.Exists("/proc"); }
        }

        private static void Own(string path, uint mode)
        {
            Assert.Equal(0, chown(path, UserId, GroupId));
            Assert.Equal(0, chmod(path, mode));
        }

        private static SortedDictionary<string, string> Tree(string dir)
        {
            var m = new SortedDictionary<string, string>(StringComparer.Ordinal);
            foreach (string f in Directory.GetFiles(dir, "*", SearchOption.AllDirectories))
                m[f.Substring(dir.Length + 1)] = File.ReadAllText(f);
            return m;
        }

        /// <summary>The refused applies: patch, failure kind, what the message says; the
        /// read-only directory is no obstacle to root, so those cases need the user.</summary>
        private static IEnumerable<Tuple<string, WorkspaceFailure, string>> Cases(bool unprivileged)
        {
            yield return Tuple.Create("*** Begin Patch\n*** Update File: ro.txt\n@@\n-ro\n+RO\n*** End Patch\n",
                WorkspaceFailure.ReadOnly, "ro.txt (patch line 2) is read-only (mode 0444)");
            yield return Tuple.Create("*** Begin Patch\n*** Delete File: ro.txt\n*** End Patch\n",
                WorkspaceFailure.ReadOnly, "is read-only (mode 0444)");
            if (!unprivileged) yield break;
            yield return Tuple.Create("*** Begin Patch\n*** Update File: rodir/f.txt\n@@\n-f\n+F\n*** End Patch\n",
                WorkspaceFailure.Io, "cannot create a temporary file in the directory rodir for rodir/f.txt: Permission denied");
            yield return Tuple.Create("*** Begin Patch\n*** Update File: free.txt\n@@\n-w\n+W\n*** Add File: rodir/new.txt\n+new\n*** End Patch\n",
                WorkspaceFailure.Io, "rodir/new.txt");
        }

        /// <summary>Makes the tree under top/root; returns the root.</summary>
        private static string MakeTree(string top, bool owned)
        {
            string root = Path.Combine(top, "root");
            Directory.CreateDirectory(Path.Combine(root, "rodir"));
            File.WriteAllText(Path.Combine(root, "ro.txt"), "ro\n");
            File.WriteAllText(Path.Combine(root, "free.txt"), "w\n");
            File.WriteAllText(Path.Combine(root, "rodir", "f.txt"), "f\n");
            if (owned)
            {
                Assert.Equal(0, chmod(top, 0x1ed /* 0755 */));
                Own(root, 0x1ed);
                Own(Path.Combine(root, "free.txt"), 0x1a4 /* 0644 */);
                Own(Path.Combine(root, "rodir", "f.txt"), 0x1a4);
                Own(Path.Combine(root, "rodir"), 0x16d /* 0555 */);
            }
            Assert.Equal(0, chmod(Path.Combine(root, "ro.txt"), 0x124 /* 0444 */));
            if (owned) Assert.Equal(0, chown(Path.Combine(root, "ro.txt"), UserId, GroupId));
            return root;
        }

        private static void CheckRefusals(string root, bool unprivileged)
        {
            var before = Tree(root);
            foreach (var c in Cases(unprivileged))
            {
                using (Patch p = Patch.Parse(c.Item1))
                {
                    var e = Assert.Throws<V4AIoErrorException>(() => p.ApplyToDirectory(root));
                    Assert.Equal(V4AStatus.IoError, e.Error.Status);
                    Assert.Equal(c.Item2, e.Error.Failure);
                    Assert.False(e.Error.NeedsRecovery);
                    Assert.Contains(c.Item3, e.Error.Message);
                }
                Assert.Equal(before, Tree(root));
                Assert.False(Directory.Exists(Path.Combine(root, ".v4a")));
            }
        }

        /// <summary>Run as nobody by <see cref="RefusesReadOnlyFilesAndDirectoriesAsAnUnprivilegedUser"/>
        /// on the tree it names in V4A_CS_USER_ROOT; otherwise, the read-only file refusals on a
        /// tree of its own as the current user.</summary>
        [Fact]
        public void RefusalsInTheTreeOfV4ACsUserRoot()
        {
            string root = Environment.GetEnvironmentVariable(RootVariable);
            if (!string.IsNullOrEmpty(root))
            {
                Assert.Equal((uint)UserId, geteuid());
                CheckRefusals(root, true);
                return;
            }
            if (!Linux) return;
            string top = Path.Combine(Path.GetTempPath(), "v4a-cs-ro-" + Guid.NewGuid().ToString("N"));
            Directory.CreateDirectory(top);
            try
            {
                CheckRefusals(MakeTree(top, false), false);
            }
            finally
            {
                Directory.Delete(top, true);
            }
        }

        [Fact]
        public void RefusesReadOnlyFilesAndDirectoriesAsAnUnprivilegedUser()
        {
            if (!Linux || geteuid() != 0)
            {
                Console.WriteLine("skipped: RefusesReadOnlyFilesAndDirectoriesAsAnUnprivilegedUser needs root on Linux (to make files owned by uid 65534 and run as it)");
                return;
            }
            if (!string.IsNullOrEmpty(Environment.GetEnvironmentVariable(RootVariable))) return;
            string top = Path.Combine(Path.GetTempPath(), "v4a-cs-user-" + Guid.NewGuid().ToString("N"));
            Directory.CreateDirectory(top);
            try
            {
                string root = MakeTree(top, true);
                var before = Tree(root);
                string exe = Assembly.GetExecutingAssembly().Location;
                var psi = new ProcessStartInfo("setpriv",
                    "--reuid=" + UserId + " --regid=" + GroupId + " --clear-groups mono --debug \"" + exe +
                    "\" -v WorkspaceUserTests.RefusalsInTheTreeOfV4ACsUserRoot")
                {
                    UseShellExecute = false,
                    RedirectStandardOutput = true,
                    RedirectStandardError = true,
                    WorkingDirectory = top,
                };
                psi.EnvironmentVariables[RootVariable] = root;
                psi.EnvironmentVariables["HOME"] = top;
                using (Process child = Process.Start(psi))
                {
                    string output = child.StandardOutput.ReadToEnd() + child.StandardError.ReadToEnd();
                    Assert.True(child.WaitForExit(120000), "the child run as nobody did not end");
                    Assert.True(child.ExitCode == 0 && output.Contains("PASS WorkspaceUserTests.RefusalsInTheTreeOfV4ACsUserRoot"),
                        "as nobody (exit " + child.ExitCode + "):\n" + output);
                }
                Assert.Equal(before, Tree(root));
                Assert.False(Directory.Exists(Path.Combine(root, ".v4a")));
            }
            finally
            {
                chmod(Path.Combine(top, "root", "rodir"), 0x1ed);
                Directory.Delete(top, true);
            }
        }
    }
}
