using System.Collections.Generic;
using System.Linq;
using System.Text;
using Xunit;

namespace V4A.Tests
{
    /// <summary>Patch generation, normalisation, path classes and the tool-calling kit.</summary>
    public class GenerationTests
    {
        [Fact]
        public void MakePatchAppliesBackExactly()
        {
            var sb = new StringBuilder();
            for (int i = 0; i < 200; i++) sb.Append("    line ").Append(i % 10).Append("\r\n"); // repetitive, CRLF
            string oldText = sb.ToString();
            // One line inserted after the first "line 3": unique only with the line before it.
            string newText = "head\r\n" + oldText.Insert(oldText.IndexOf("    line 4", System.StringComparison.Ordinal), "    inserted\r\n");
            oldText = "head\r\n" + oldText;
            string patch = Patch.MakePatch(oldText, newText, "src/x.txt");
            Assert.StartsWith("*** Begin Patch\n*** Update File: src/x.txt\n", patch);
            PatchResult r = TestSupport.ApplyPatch(patch, new Dictionary<string, string> { { "src/x.txt", oldText } });
            Assert.Equal(newText, r.Files[0].Text);
        }

        [Fact]
        public void MakePatchContextOption()
        {
            string a = "1\n2\n3\n4\n5\n6\n7\n", b = "1\n2\n3\nfour\n5\n6\n7\n";
            Assert.Equal("*** Begin Patch\n*** Update File: n\n@@\n 3\n-4\n+four\n 5\n*** End Patch\n",
                Patch.MakePatch(a, b, "n", new GenerateOptions { Context = 1 }));
            Assert.Equal("*** Begin Patch\n*** End Patch\n", Patch.MakePatch(a, a, "n"));
        }

        [Fact]
        public void MoveAddAndDeletePatches()
        {
            string move = Patch.MakeMovePatch("a\n", "b\n", "old.txt", "new.txt");
            Assert.Contains("*** Move to: new.txt\n", move);
            ApplyResult r = Patch.Apply("a\n", move, ApplyMode.Move);
            Assert.Equal("b\n", r.Text);
            Assert.Equal("new.txt", r.Destination);

            Assert.Equal("*** Begin Patch\n*** Add File: n.txt\n+x\n+y\n*** End Patch\n", Patch.MakeAddPatch("n.txt", "x\ny\n"));
            Assert.Contains("\\ No newline at end of file", Patch.MakeAddPatch("n.txt", "x"));
            Assert.Equal("x", Patch.Apply(null, Patch.MakeAddPatch("n.txt", "x"), ApplyMode.Create).Text);
            Assert.Equal("*** Begin Patch\n*** Delete File: d.txt\n*** End Patch\n", Patch.MakeDeletePatch("d.txt"));
        }

        [Fact]
        public void NormalizeShowsWhatEachLevelCompares()
        {
            string line = "  x  =\t\u201Cy\u201D  ";
            Assert.Equal(line, Patch.Normalize(line, MatchLevel.Exact));
            Assert.Equal("  x  =\t\u201Cy\u201D", Patch.Normalize(line, MatchLevel.TrimEnd));
            Assert.Equal("x  =\t\u201Cy\u201D", Patch.Normalize(line, MatchLevel.Trim));
            Assert.Equal("x = \u201Cy\u201D", Patch.Normalize(line, MatchLevel.Collapse));
            Assert.Equal("x = \"y\"", Patch.Normalize(line, MatchLevel.Fold));
        }

        [Theory]
        [InlineData("src/a.rs", PathClass.Relative)]
        [InlineData("a/../b", PathClass.Relative)]
        [InlineData("/etc/passwd", PathClass.Absolute)]
        [InlineData("../x", PathClass.ParentEscape)]
        [InlineData("", PathClass.Empty)]
        [InlineData("   ", PathClass.Empty)]
        [InlineData("a\0b", PathClass.Nul)]
        [InlineData("C:x", PathClass.DrivePrefix)]
        public void ClassifyPath(string path, PathClass expected)
        {
            Assert.Equal(expected, Patch.ClassifyPath(path));
            Assert.Equal(expected == PathClass.Relative, Patch.IsSafePath(path));
        }

        [Theory]
        [InlineData(ToolFlavor.OpenAIChat, ToolShape.Input, "\"function\": {")]
        [InlineData(ToolFlavor.OpenAIChat, ToolShape.File, "\"patch_file\"")]
        [InlineData(ToolFlavor.OpenAIResponses, ToolShape.Input, "\"strict\": true")]
        [InlineData(ToolFlavor.OpenAIResponses, ToolShape.File, "\"patch_file\"")]
        [InlineData(ToolFlavor.OpenAIResponsesCustom, ToolShape.Input, "\"grammar\"")]
        [InlineData(ToolFlavor.OpenAIResponsesCustom, ToolShape.File, "\"patch_file\"")]
        [InlineData(ToolFlavor.Anthropic, ToolShape.Input, "\"input_schema\"")]
        [InlineData(ToolFlavor.Anthropic, ToolShape.File, "\"input_schema\"")]
        [InlineData(ToolFlavor.Mcp, ToolShape.Input, "\"inputSchema\"")]
        [InlineData(ToolFlavor.Mcp, ToolShape.File, "\"inputSchema\"")]
        public void ToolSchemas(ToolFlavor flavor, ToolShape shape, string expected)
        {
            string json = Patch.ToolSchema(flavor, shape);
            Assert.StartsWith("{", json.TrimStart());
            Assert.EndsWith("}", json.TrimEnd());
            Assert.Contains(expected, json);
            Assert.Equal(json.Count(c => c == '{'), json.Count(c => c == '}'));
        }

        [Fact]
        public void GrammarsAndInstructions()
        {
            Assert.Contains("Begin Patch", Patch.Grammar);
            Assert.Contains("start", Patch.Grammar);
            Assert.NotEqual(Patch.Grammar, Patch.FileGrammar);
            Assert.Contains("*** Begin Patch", Patch.Instructions);
            Assert.Same(Patch.Instructions, Patch.Instructions); // decoded once
        }
    }
}
