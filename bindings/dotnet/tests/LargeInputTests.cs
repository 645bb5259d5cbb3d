using System.Linq;
using System.Text;
using Xunit;

namespace V4A.Tests
{
    /// <summary>Inputs far larger than a hunk: many lines, one huge line, a big file through the byte[] path.</summary>
    public class LargeInputTests
    {
        [Fact]
        public void TwoHundredThousandLines()
        {
            var sb = new StringBuilder();
            for (int i = 0; i < 200000; i++) sb.Append("line ").Append(i).Append(" é\r\n");
            string source = sb.ToString();
            string diff = "@@\n line 149998 é\n-line 149999 é\n+line 149999 changed ✓\n line 150000 é\n";
            ApplyResult r = Patch.Apply(source, diff, ApplyMode.Update, new ApplyOptions { Diff = DiffStyle.Changes, Refine = true });
            Assert.Equal(source.Replace("line 149999 é\r\n", "line 149999 changed ✓\r\n"), r.Text);
            Assert.Same(source, r.Source);
            Assert.Equal(149999, r.Hunks[0].OldStart); // "line 0" is line 1
            Assert.Equal(8, r.Lines.Count);
            Assert.Equal(new[] { "line 149999 ", "é", "changed ✓" }, r.Lines.Single(l => l.Kind == DiffKind.Delete).Segments.Select(s => s.Text).Concat(r.Lines.Single(l => l.Kind == DiffKind.Add).Segments.Where(s => s.Kind == DiffKind.Add).Select(s => s.Text)).ToArray());

            byte[] bytes = Encoding.UTF8.GetBytes(source);
            ApplyResult b = Patch.Apply(bytes, Encoding.UTF8.GetBytes(diff), ApplyMode.Update);
            Assert.Equal(r.Text, b.Text);
            Assert.Equal(source, b.Source);
        }

        [Fact]
        public void OneMegabyteLine()
        {
            string huge = new string('x', 1 << 20) + "😀";
            string source = "before\n" + huge + "\nafter\n";
            ApplyResult r = Patch.Apply(source, "@@\n before\n-" + huge + "\n+short\n", ApplyMode.Update);
            Assert.Equal("before\nshort\nafter\n", r.Text);
            r = Patch.Apply(source, "@@\n " + huge + "\n-after\n+end\n", ApplyMode.Update, new ApplyOptions { Diff = DiffStyle.Full });
            Assert.Equal(huge, r.Lines[1].Text);
        }
    }
}
