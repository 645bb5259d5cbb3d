using System.Linq;
using System.Text;
using Xunit;

namespace V4A.Tests
{
    /// <summary>
    /// Character-level segments come from the library as UTF-8 byte offsets and are exposed as
    /// .NET string (UTF-16) indices: checked on surrogate pairs, emoji sequences, combining
    /// marks and 2- and 3-byte characters.
    /// </summary>
    public class SegmentTests
    {
        private static readonly ApplyOptions Refine = new ApplyOptions { Diff = DiffStyle.Changes, DiffContext = 0, Refine = true };

        private static string[] Segments(DiffLine line)
        {
            return line.Segments.Select(s => s.Kind + ":" + s.Text).ToArray();
        }

        /// <summary>Each segment's indices agree with its byte offsets and its text; together they cover the line.</summary>
        private static void CheckConsistent(DiffLine line)
        {
            int at = 0;
            foreach (Segment s in line.Segments)
            {
                Assert.Equal(at, s.Start);
                Assert.Equal(line.Text.Substring(s.Start, s.Length), s.Text);
                Assert.Equal(Encoding.UTF8.GetByteCount(line.Text.Substring(0, s.Start)), s.Utf8Start);
                Assert.Equal(Encoding.UTF8.GetByteCount(line.Text.Substring(0, s.End)), s.Utf8End);
                Assert.False(s.Start > 0 && char.IsLowSurrogate(line.Text[s.Start]), "a segment starts inside a surrogate pair");
                at = s.End;
            }
            Assert.Equal(line.Text.Length, at);
        }

        [Fact]
        public void EmojiWithSkinToneIsOneSegment()
        {
            ApplyResult r = Patch.Apply("ok 👍🏽 fine\n", "@@\n-ok 👍🏽 fine\n+ok 👍🏿 fine\n", ApplyMode.Update, Refine);
            DiffLine del = r.Lines[0], add = r.Lines[1];
            Assert.Equal(new[] { "Equal:ok ", "Delete:👍🏽", "Equal: fine" }, Segments(del));
            Assert.Equal(new[] { "Equal:ok ", "Add:👍🏿", "Equal: fine" }, Segments(add));
            Segment changed = add.Segments[1];
            // Two surrogate pairs: 4 UTF-16 units, 8 UTF-8 bytes.
            Assert.Equal(3, changed.Start);
            Assert.Equal(7, changed.End);
            Assert.Equal(3, changed.Utf8Start);
            Assert.Equal(11, changed.Utf8End);
            Assert.Equal(7, add.Segments[2].Start);
            Assert.Equal(12, add.Segments[2].End);
            CheckConsistent(del);
            CheckConsistent(add);
        }

        [Fact]
        public void SurrogatePairsBeforeTheChangeShiftIndices()
        {
            // Each 𝄞 (U+1D11E) is 2 UTF-16 units and 4 UTF-8 bytes; é is 1 unit and 2 bytes; 中 1 unit, 3 bytes.
            string before = "𝄞𝄞 é 中 value = 1;";
            string after = "𝄞𝄞 é 中 value = 2;";
            ApplyResult r = Patch.Apply(before + "\n", "@@\n-" + before + "\n+" + after + "\n", ApplyMode.Update, Refine);
            DiffLine add = r.Lines.Single(l => l.Kind == DiffKind.Add);
            CheckConsistent(add);
            Segment changed = add.Segments.Single(s => s.Kind == DiffKind.Add);
            Assert.Equal("2", changed.Text);
            Assert.Equal(after.IndexOf('2'), changed.Start);
            Assert.Equal(Encoding.UTF8.GetByteCount(after.Substring(0, after.IndexOf('2'))), changed.Utf8Start);
            Assert.Equal(17, changed.Start);
            Assert.Equal(24, changed.Utf8Start);
        }

        [Fact]
        public void FlagsAndFamiliesAreNeverSplit()
        {
            string a = "flag 🇫🇷 and 👨‍👩‍👧 end";
            string b = "flag 🇩🇪 and 👨‍👩‍👦 end";
            ApplyResult r = Patch.Apply(a + "\n", "@@\n-" + a + "\n+" + b + "\n", ApplyMode.Update, Refine);
            DiffLine add = r.Lines.Single(l => l.Kind == DiffKind.Add);
            CheckConsistent(add);
            Assert.Equal(new[] { "🇩🇪", "👨‍👩‍👦" }, add.Segments.Where(s => s.Kind == DiffKind.Add).Select(s => s.Text).ToArray());
        }

        [Fact]
        public void CombiningAccentStaysWithItsLetter()
        {
            string a = "nai\u0308ve cafe\u0301";
            string b = "nai\u0308ve cafe";
            ApplyResult r = Patch.Apply(a + "\n", "@@\n-" + a + "\n+" + b + "\n", ApplyMode.Update, Refine);
            DiffLine del = r.Lines.Single(l => l.Kind == DiffKind.Delete);
            CheckConsistent(del);
            Segment removed = del.Segments.Single(s => s.Kind == DiffKind.Delete);
            Assert.Equal("e\u0301", removed.Text);
        }

        [Fact]
        public void EverySegmentOfAManyLineChangeIsConsistent()
        {
            var sb = new StringBuilder();
            var diff = new StringBuilder("@@\n");
            for (int i = 0; i < 40; i++)
            {
                string line = "行 " + i + " 😀 αβγ " + new string('x', i % 7) + " 𐍈 end";
                sb.Append(line).Append('\n');
                diff.Append('-').Append(line).Append('\n');
                diff.Append('+').Append(line.Replace("αβγ", "αδγ").Replace("😀", "😃")).Append('\n');
            }
            ApplyResult r = Patch.Apply(sb.ToString(), diff.ToString(), ApplyMode.Update, Refine);
            Assert.Equal(80, r.Lines.Count);
            Assert.All(r.Lines, l =>
            {
                Assert.NotEmpty(l.Segments);
                CheckConsistent(l);
            });
        }
    }
}
