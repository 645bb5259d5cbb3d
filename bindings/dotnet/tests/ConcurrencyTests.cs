using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Xunit;

namespace V4A.Tests
{
    /// <summary>The library has no global state: applies from many threads at once, one patch shared by all.</summary>
    public class ConcurrencyTests
    {
        private static string FileOf(int i)
        {
            return string.Concat(Enumerable.Range(0, 300).Select(k => "line " + k + " of file " + i + "\n"));
        }

        [Fact]
        public void SixtyFourConcurrentApplies()
        {
            var failures = new ConcurrentQueue<string>();
            var options = new ApplyOptions { Diff = DiffStyle.Changes, Refine = true };
            using (var start = new ManualResetEventSlim(false))
            {
                var threads = Enumerable.Range(0, 64).Select(i => new Thread(() =>
                {
                    start.Wait();
                    try
                    {
                        for (int round = 0; round < 20; round++)
                        {
                            string source = FileOf(i);
                            int at = (i * 7 + round) % 290 + 5;
                            string diff = "@@\n line " + (at - 1) + " of file " + i + "\n-line " + at + " of file " + i + "\n+changed " + at + " by " + i + "\n";
                            ApplyResult r = Patch.Apply(source, diff, ApplyMode.Update, options);
                            string expected = source.Replace("line " + at + " of file " + i + "\n", "changed " + at + " by " + i + "\n");
                            if (r.Text != expected) failures.Enqueue("thread " + i + " round " + round + ": wrong text");
                            if (r.Hunks[0].OldStart != at) failures.Enqueue("thread " + i + ": hunk at " + r.Hunks[0].OldStart);
                            ApplyResult dummy;
                            V4AError error;
                            if (Patch.TryApply(source, "@@\n-nowhere " + i + "\n+x\n", ApplyMode.Update, out dummy, out error) || error.Status != V4AStatus.ContextNotFound)
                                failures.Enqueue("thread " + i + ": expected CONTEXT_NOT_FOUND");
                        }
                    }
                    catch (Exception e)
                    {
                        failures.Enqueue("thread " + i + ": " + e);
                    }
                })).ToList();
                threads.ForEach(t => t.Start());
                start.Set();
                threads.ForEach(t => t.Join());
            }
            Assert.Empty(failures);
        }

        [Fact]
        public void ParallelForWithSixtyFourApplies()
        {
            var results = new string[64];
            ParallelLoopResult loop = Parallel.For(0, 64, new ParallelOptions { MaxDegreeOfParallelism = 64 }, i =>
            {
                results[i] = Patch.Apply(FileOf(i), "@@\n-line 150 of file " + i + "\n+hello " + i + "\n", ApplyMode.Update).Text;
            });
            Assert.True(loop.IsCompleted);
            for (int i = 0; i < 64; i++)
                Assert.Equal(FileOf(i).Replace("line 150 of file " + i + "\n", "hello " + i + "\n"), results[i]);
        }

        [Fact]
        public void OnePatchAppliedFromManyThreads()
        {
            string text = "*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+b\n*** Update File: c.txt\n@@\n c\n+d\n*** End Patch\n";
            using (Patch patch = Patch.Parse(text))
            {
                var texts = new string[64];
                Parallel.For(0, 64, i =>
                {
                    var files = new Dictionary<string, string> { { "a.txt", "x" + i + "\na\n" }, { "c.txt", "c\n" } };
                    PatchResult r = patch.Apply(files);
                    texts[i] = r.Files[0].Text + r.Files[1].Text;
                });
                for (int i = 0; i < 64; i++) Assert.Equal("x" + i + "\nb\nc\nd\n", texts[i]);
            }
        }
    }
}
