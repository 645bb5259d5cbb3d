// A tour of the v4a C# binding: apply a single-file diff and show the structured diff with its
// character-level changes, handle a patch that does not apply the way an agent would (send
// the message back to the model), then apply a multi-file patch atomically over files held
// in memory, refusing paths outside the workspace.
//
// Build and run:  dotnet run --project examples/dotnet
// or with Mono:   mcs -r:V4A.dll Program.cs && mono Program.exe   (libv4a.so next to V4A.dll)

using System;
using System.Collections.Generic;
using System.Linq;
using System.Text;
using V4A;

namespace V4A.Examples
{
    public static class Program
    {
        public static int Main()
        {
            SingleFile();
            Diagnostic();
            MultiFile();
            ToolKit();
            return 0;
        }

        /// <summary>A line of the structured diff with its changed characters in [-...-] and {+...+}.</summary>
        private static string Render(DiffLine line)
        {
            string mark = line.Kind == DiffKind.Delete ? "-" : line.Kind == DiffKind.Add ? "+" : " ";
            string numbers = string.Format("{0,3} {1,3}  ", line.OldLine, line.NewLine);
            if (line.Segments.Count == 0) return mark + " " + numbers + line.Text;
            var sb = new StringBuilder(mark + " " + numbers);
            foreach (Segment s in line.Segments)
            {
                // Start and End are .NET string indices: line.Text.Substring(s.Start, s.Length).
                if (s.Kind == DiffKind.Delete) sb.Append("[-").Append(s.Text).Append("-]");
                else if (s.Kind == DiffKind.Add) sb.Append("{+").Append(s.Text).Append("+}");
                else sb.Append(s.Text);
            }
            return sb.ToString();
        }

        private static void SingleFile()
        {
            string source =
                "def total(items):\n" +
                "    result = 0\n" +
                "    for item in items:\n" +
                "        result += item.price  # 💶\n" +
                "    return result\n";
            string diff =
                "@@ def total(items):\n" +
                "     for item in items:\n" +
                "-        result += item.price  # 💶\n" +
                "+        result += item.price * item.quantity  # 💶\n";
            var options = new ApplyOptions { Diff = DiffStyle.Changes, DiffContext = 1, Refine = true };
            ApplyResult result = Patch.Apply(source, diff, ApplyMode.Update, options);
            Console.WriteLine("== single file (fuzz " + result.Fuzz + ")");
            foreach (DiffLine line in result.Lines) Console.WriteLine(Render(line));
            HunkReport hunk = result.Hunks[0];
            Console.WriteLine("hunk 1: lines " + hunk.OldStart + "-" + (hunk.OldStart + hunk.OldLength - 1)
                + " -> " + hunk.NewStart + "-" + (hunk.NewStart + hunk.NewLength - 1) + ", " + Patch.LevelName(hunk.Level));
            Console.Write("== new text\n" + result.Text);
        }

        private static void Diagnostic()
        {
            string source = "def save(self):\n    self.flush()\n\ndef load(self):\n    self.flush()\n    self.reload(cache)\n";
            string diff = "@@\n-    self.flush()\n+    self.sync()\n";
            ApplyResult result;
            V4AError error;
            // TryApply: no exception for a patch that does not apply, which is routine for an agent.
            if (!Patch.TryApply(source, diff, ApplyMode.Update, out result, out error))
            {
                Console.WriteLine("== " + error.StatusName + " (candidates: " + string.Join(", ", error.Candidates) + ")");
                Console.WriteLine(error.Message); // the tool result to send back to the model
            }
            try
            {
                // A miscopied line: the message offers the hunk with the file's line, checked to land.
                Patch.Apply(source, "@@ def load(self):\n-    self.reload(cahce)\n+    self.sync()\n", ApplyMode.Update);
            }
            catch (V4AContextNotFoundException e)
            {
                Console.WriteLine("== " + e.Status + ", corrected hunk:");
                Console.Write(e.CorrectedHunk);
            }
        }

        private static void MultiFile()
        {
            string patchText =
                "*** Begin Patch\n" +
                "*** Update File: app/config.ini\n" +
                "@@ [cache]\n" +
                "-enabled = false\n" +
                "+enabled = true\n" +
                "*** Add File: app/NOTES.md\n" +
                "+Cache enabled.\n" +
                "*** Delete File: app/old.txt\n" +
                "*** End Patch\n";
            var files = new Dictionary<string, string>
            {
                { "app/config.ini", "[server]\r\nport = 8080\r\n\r\n[cache]\r\nenabled = false\r\n" },
                { "app/old.txt", "obsolete\n" },
            };
            using (Patch patch = Patch.Parse(patchText))
            {
                foreach (PatchOperation op in patch.Operations)
                {
                    if (!op.IsSafe) throw new InvalidOperationException("refusing to write " + op.Path);
                }
                PatchResult result = patch.Apply(files);
                result.ApplyTo(files); // in a real agent: write each file (atomically) instead
                Console.WriteLine("== multi-file");
                Console.Write(result.Summary);
                foreach (var kv in files.OrderBy(kv => kv.Key, StringComparer.Ordinal))
                    Console.WriteLine(kv.Key + ": " + kv.Value.Replace("\r", "\\r").Replace("\n", "\\n"));
            }
        }

        private static void ToolKit()
        {
            // Tool definitions and the system-prompt text, for an agent that offers the patch tool.
            string schema = Patch.ToolSchema(ToolFlavor.Anthropic, ToolShape.Input);
            Console.WriteLine("== tool kit: Anthropic definition has input_schema: " + schema.Contains("\"input_schema\"")
                + "; the instructions show the envelope: " + Patch.Instructions.Contains("*** Begin Patch"));
        }
    }
}
