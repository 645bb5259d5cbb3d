using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Reflection;
using System.Runtime.InteropServices;
using System.Text.RegularExpressions;
using Xunit;

namespace V4A.Tests
{
    /// <summary>
    /// The binding stays in step with include/v4a.h: read at test time, every constant has its
    /// enum value, every struct its fields in the same order, every function its [DllImport]
    /// with as many parameters.
    /// </summary>
    public class HeaderTests
    {
        private static string header;

        private static string Header
        {
            get
            {
                if (header != null) return header;
                string text = File.ReadAllText(Path.Combine(TestSupport.RepoRoot, "include", "v4a.h"));
                return header = Regex.Replace(text, @"/\*.*?\*/", "", RegexOptions.Singleline);
            }
        }

        private static string Squash(string name)
        {
            return name.Replace("_", "").ToUpperInvariant();
        }

        private static Dictionary<string, ulong> Constants(string prefix)
        {
            var found = new Dictionary<string, ulong>();
            foreach (Match m in Regex.Matches(Header, @"^#define " + prefix + @"(\w+) (\d+)\s*$", RegexOptions.Multiline))
                found[m.Groups[1].Value] = ulong.Parse(m.Groups[2].Value);
            return found;
        }

        /// <summary>The defaults the binding reads from the library are the header's constants.</summary>
        [Fact]
        public void DefaultsAreTheHeadersConstants()
        {
            Dictionary<string, ulong> d = Constants("V4A_DEFAULT_");
            Assert.Equal(d["DIFF_CONTEXT"], (ulong)ApplyOptions.DefaultDiffContext);
            Assert.Equal(d["DIFF_CONTEXT"], (ulong)new ApplyOptions().DiffContext);
            Assert.Equal(d["SEARCH_BUDGET"], (ulong)ApplyOptions.DefaultSearchBudget);
            var g = new GenerateOptions();
            Assert.Equal(d["GENERATE_CONTEXT"], (ulong)g.Context);
            Assert.Equal(d["GENERATE_MAX_CONTEXT"], (ulong)g.MaxContext);
        }

        [Theory]
        [InlineData("V4A_STATUS_", typeof(V4AStatus))]
        [InlineData("V4A_MODE_", typeof(ApplyMode))]
        [InlineData("V4A_LEVEL_", typeof(MatchLevel))]
        [InlineData("V4A_LINE_ENDING_", typeof(LineEnding))]
        [InlineData("V4A_DIFF_STYLE_", typeof(DiffStyle))]
        [InlineData("V4A_HUNK_", typeof(HunkFlags))]
        [InlineData("V4A_OP_", typeof(OperationKind))]
        [InlineData("V4A_PATH_", typeof(PathClass))]
        [InlineData("V4A_FLAVOR_", typeof(ToolFlavor))]
        [InlineData("V4A_SHAPE_", typeof(ToolShape))]
        [InlineData("V4A_CHANGE_", typeof(FileChange))]
        [InlineData("V4A_RECOVERY_", typeof(RecoveryAction))]
        [InlineData("V4A_FAILURE_", typeof(WorkspaceFailure))]
        public void EveryConstantHasItsEnumValue(string prefix, Type type)
        {
            Dictionary<string, ulong> constants = Constants(prefix);
            if (prefix == "V4A_DIFF_STYLE_") Assert.Equal(4, constants.Count);
            Assert.NotEmpty(constants);
            var values = Enum.GetValues(type).Cast<object>()
                .Where(v => !(type == typeof(HunkFlags) && (HunkFlags)v == HunkFlags.None))
                .ToDictionary(v => Squash(v.ToString()), v => Convert.ToUInt64(v));
            Assert.Equal(constants.Keys.Select(Squash).OrderBy(k => k, StringComparer.Ordinal).ToArray(),
                values.Keys.OrderBy(k => k, StringComparer.Ordinal).ToArray());
            foreach (var c in constants) Assert.Equal(c.Value, values[Squash(c.Key)]);
        }

        /// <summary>
        /// The native library's file names (as the loader looks for <see cref="Native.Library"/>)
        /// differ from the managed assembly's on a case-insensitive file system.
        /// </summary>
        [Fact]
        public void TheNativeLibraryNameDoesNotClashWithTheAssembly()
        {
            string managed = Path.GetFileName(typeof(Patch).Assembly.Location);
            Assert.Equal("V4A.dll", managed);
            foreach (string suffix in new[] { ".dll", ".so", ".dylib" })
            {
                string native = Native.Library + suffix;
                Assert.False(string.Equals(native, managed, StringComparison.OrdinalIgnoreCase), native);
            }
            Assert.Equal("libv4a", Native.Library);
        }

        /// <summary>
        /// V4A.csproj copies and packs the native library under the name the binding loads, for
        /// every platform, and packs buildTransitive/V4A.targets (for consumers without a runtime
        /// identifier), which copies what runtimes/&lt;rid&gt;/native holds.
        /// </summary>
        [Fact]
        public void TheProjectPacksTheNativeLibraryUnderTheLoadedName()
        {
            string src = Path.Combine(TestSupport.RepoRoot, "bindings", "dotnet", "src");
            string project = File.ReadAllText(Path.Combine(src, "V4A.csproj"));
            var names = new Dictionary<string, string>();
            foreach (Match m in Regex.Matches(project, @"<V4ANativeFileName Condition=""'\$\(V4AHostOs\)' == '(\w+)'"">([^<]+)</V4ANativeFileName>"))
                names[m.Groups[1].Value] = m.Groups[2].Value;
            Assert.Equal(Native.Library + ".dll", names["win"]);
            Assert.Equal(Native.Library + ".dylib", names["osx"]);
            Assert.Equal(Native.Library + ".so", names["linux"]);
            Assert.Contains(@"Link=""$(V4ANativeFileName)""", project);
            Assert.Contains(@"PackagePath=""runtimes/$(V4AHostRid)/native/$(V4ANativeFileName)""", project);
            Assert.Contains(@"<None Update=""buildTransitive/V4A.targets"" Pack=""true"" PackagePath=""buildTransitive/;build/"" />", project);
            Assert.DoesNotContain("OSArchitecture)", project);
            string targets = File.ReadAllText(Path.Combine(src, "buildTransitive", "V4A.targets"));
            Assert.Contains("runtimes/$(V4ANativeRid)/native/", targets);
            Assert.Contains("ProcessArchitecture", targets);
            Assert.DoesNotContain("OSArchitecture)", targets);
        }

        [Fact]
        public void DiffKindsMatch()
        {
            Dictionary<string, ulong> kinds = Constants("V4A_DIFF_");
            Assert.Equal(0UL, kinds["EQUAL"]);
            Assert.Equal((ulong)DiffKind.Delete, kinds["DELETE"]);
            Assert.Equal((ulong)DiffKind.Add, kinds["ADD"]);
            Assert.Equal((ulong)Native.AbiVersion, Constants("V4A_ABI_")["VERSION"]);
        }

        [Theory]
        [InlineData("v4a_bytes", typeof(V4ABytes))]
        [InlineData("v4a_u32s", typeof(V4AU32s))]
        [InlineData("v4a_options", typeof(V4AOptionsNative))]
        [InlineData("v4a_generate_options", typeof(V4AGenerateOptionsNative))]
        [InlineData("v4a_error", typeof(V4AErrorNative))]
        [InlineData("v4a_hunk_report", typeof(V4AHunkReportNative))]
        [InlineData("v4a_hunk_reports", typeof(V4AHunkReports))]
        [InlineData("v4a_diff_line", typeof(V4ADiffLineNative))]
        [InlineData("v4a_diff_lines", typeof(V4ADiffLines))]
        [InlineData("v4a_segment", typeof(V4ASegmentNative))]
        [InlineData("v4a_segments", typeof(V4ASegments))]
        [InlineData("v4a_change", typeof(V4AChangeNative))]
        [InlineData("v4a_changes", typeof(V4AChanges))]
        [InlineData("v4a_unified_diff_input", typeof(V4AUnifiedDiffInput))]
        [InlineData("v4a_op", typeof(V4AOpNative))]
        [InlineData("v4a_ops", typeof(V4AOps))]
        [InlineData("v4a_source", typeof(V4ASourceNative))]
        [InlineData("v4a_file_result", typeof(V4AFileResultNative))]
        [InlineData("v4a_file_results", typeof(V4AFileResults))]
        [InlineData("v4a_workspace_options", typeof(V4AWorkspaceOptionsNative))]
        [InlineData("v4a_workspace_file", typeof(V4AWorkspaceFileNative))]
        [InlineData("v4a_workspace_files", typeof(V4AWorkspaceFiles))]
        [InlineData("v4a_bytes_list", typeof(V4ABytesList))]
        public void EveryStructHasItsFieldsInOrder(string name, Type type)
        {
            Match m = Regex.Match(Header, @"typedef struct " + name + @" \{(.*?)\} " + name + ";", RegexOptions.Singleline);
            Assert.True(m.Success, name + " is not in the header");
            string[] cFields = m.Groups[1].Value.Split(';')
                .Select(f => f.Trim()).Where(f => f.Length > 0)
                .Select(f => Squash(Regex.Match(f, @"(\w+)$").Groups[1].Value))
                .ToArray();
            string[] csFields = type.GetFields(BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic)
                .OrderBy(f => (long)Marshal.OffsetOf(type, f.Name))
                .Select(f => Squash(f.Name))
                .ToArray();
            Assert.Equal(cFields, csFields);
        }

        [Fact]
        public void EveryFunctionHasItsImport()
        {
            var imports = typeof(Native).GetMethods(BindingFlags.Static | BindingFlags.NonPublic | BindingFlags.Public)
                .Where(mi => mi.GetCustomAttributes(typeof(DllImportAttribute), false).Length > 0)
                .ToDictionary(mi => mi.Name, mi => mi.GetParameters().Length);
            int count = 0;
            foreach (Match m in Regex.Matches(Header, @"\b(v4a_\w+)\(([^;{]*?)\);"))
            {
                string name = m.Groups[1].Value;
                if (name == "v4a_test_panic") continue; // test-only export of the test-panic feature
                string args = m.Groups[2].Value.Trim();
                int arity = args == "void" || args.Length == 0 ? 0 : args.Split(',').Length;
                Assert.True(imports.ContainsKey(name), name + " has no [DllImport] in Native.cs");
                Assert.Equal(arity, imports[name]);
                count++;
            }
            Assert.True(count >= 49, "only " + count + " functions found in the header");
            Assert.Equal(count, imports.Count);
        }
    }
}
