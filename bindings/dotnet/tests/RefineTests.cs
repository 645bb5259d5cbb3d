using System.Collections.Generic;
using System.Linq;
using Xunit;

namespace V4A.Tests
{
    /// <summary>
    /// <see cref="Patch.RefineLines"/> (refinement of any block of lines) and
    /// <see cref="ApplyOptions.RefineLimits"/>: checked against apply's own refined diff.
    /// </summary>
    public class RefineTests
    {
        private static string[] Pieces(IReadOnlyList<Segment> segs)
        {
            return segs.Select(s => s.Kind + ":" + s.Text).ToArray();
        }

        [Fact]
        public void PairsSimilarLines()
        {
            var pairs = Patch.RefineLines(new[] { "let x = 1;", "fn main() {}" }, new[] { "unrelated();", "let x = 22;" });
            Assert.Equal(1, pairs.Count);
            Assert.Equal(0, pairs[0].Deleted);
            Assert.Equal(1, pairs[0].Added);
            Assert.Equal(new[] { "Equal:let x = ", "Add:22", "Equal:;" }, Pieces(pairs[0].AddedSegments));
            Assert.Equal(new[] { "Equal:let x = ", "Delete:1", "Equal:;" }, Pieces(pairs[0].DeletedSegments));
        }

        [Fact]
        public void Utf16IndicesPastSurrogatePairs()
        {
            var pairs = Patch.RefineLines(new[] { "é 😀 a" }, new[] { "é 😀 b" });
            Assert.Equal(1, pairs.Count);
            Segment last = pairs[0].AddedSegments.Last();
            Assert.Equal("b", last.Text);
            Assert.Equal(5, last.Start);
            Assert.Equal(8, last.Utf8Start);
        }

        [Fact]
        public void AgreesWithApply()
        {
            var options = new ApplyOptions { Diff = DiffStyle.Full, Refine = true };
            ApplyResult r = Patch.Apply("alpha beta\ngamma delta\nkeep\n",
                "@@\n-alpha beta\n-gamma delta\n+alpha BETA\n+new line\n+gamma delta!\n keep\n", ApplyMode.Update, options);
            var del = r.Lines.Where(l => l.Kind == DiffKind.Delete).ToList();
            var add = r.Lines.Where(l => l.Kind == DiffKind.Add).ToList();
            var pairs = Patch.RefineLines(del.Select(l => l.Text).ToList(), add.Select(l => l.Text).ToList());
            Assert.Equal(2, pairs.Count);
            foreach (LinePair p in pairs)
            {
                Assert.Equal(Pieces(del[p.Deleted].Segments), Pieces(p.DeletedSegments));
                Assert.Equal(Pieces(add[p.Added].Segments), Pieces(p.AddedSegments));
            }
        }

        [Fact]
        public void LimitsReachApply()
        {
            Assert.Equal(200000, new RefineLimits().MaxGraphemes);
            Assert.Equal(8000000, new ApplyOptions().RefineLimits.MaxCost);
            string old = "x = " + new string('a', 300) + ";", neu = "x = " + new string('a', 299) + "b;";
            var options = new ApplyOptions { Diff = DiffStyle.Full, Refine = true };
            ApplyResult r = Patch.Apply(old + "\n", "@@\n-" + old + "\n+" + neu + "\n", ApplyMode.Update, options);
            Assert.True(r.Lines.All(l => l.Segments.Count > 1));
            options.RefineLimits = new RefineLimits { MaxGraphemes = 100 };
            r = Patch.Apply(old + "\n", "@@\n-" + old + "\n+" + neu + "\n", ApplyMode.Update, options);
            Assert.True(r.Lines.All(l => l.Segments.Count == 0));
            Assert.Equal(0, Patch.RefineLines(new[] { "let x = 1;" }, new[] { "let x = 2;" }, new RefineLimits { MaxCost = 0 }).Count);
        }

        [Fact]
        public void Refusals()
        {
            Assert.Equal(0, Patch.RefineLines(new string[0], new string[0]).Count);
            // null is the empty line: two empty lines are identical, a pair without segments.
            var empty = Patch.RefineLines(new string[] { null }, new[] { "" });
            Assert.Equal(1, empty.Count);
            Assert.Equal(0, empty[0].AddedSegments.Count + empty[0].DeletedSegments.Count);
            Assert.Throws<System.ArgumentNullException>(() => Patch.RefineLines(null, new string[0]));
            Assert.ThrowsAny<V4AException>(() => Patch.RefineLines(new[] { "\ud800" }, new[] { "a" }));
            Assert.ThrowsAny<V4AException>(() => Patch.RefineLines(new[] { "a" }, new[] { "a" }, new RefineLimits { MaxCost = -1 }));
        }
    }
}
