// A minimal xUnit-style test runner for Mono: finds every public class with [Fact] and
// [Theory] methods in this assembly (the test classes of bindings/dotnet/tests, compiled
// together with XunitShim.cs), runs each test on a new instance of its class (disposed
// afterwards, as xUnit does), expands theories with their [InlineData] and [MemberData]
// rows, and ends with the line "N passed, N failed". Exit status 1 when a test failed or
// none ran.
//
// Usage: mono V4A.Tests.exe [-v] [NAME_SUBSTRING...]

using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using System.Reflection;
using System.Threading.Tasks;
using Xunit;
using Xunit.Sdk;

namespace V4A.Tests.Runner
{
    public static class Program
    {
        public static int Main(string[] args)
        {
            bool verbose = args.Contains("-v");
            string[] filters = args.Where(a => a != "-v").ToArray();
            int passed = 0, failed = 0, skipped = 0;
            var failures = new List<string>();
            var clock = Stopwatch.StartNew();

            var classes = typeof(Program).Assembly.GetTypes()
                .Where(t => t.IsClass && t.IsPublic && !t.IsAbstract)
                .OrderBy(t => t.FullName, StringComparer.Ordinal);
            foreach (Type type in classes)
            {
                var methods = type.GetMethods(BindingFlags.Public | BindingFlags.Instance | BindingFlags.Static)
                    .Where(m => m.GetCustomAttributes(typeof(FactAttribute), true).Length > 0)
                    .OrderBy(m => m.MetadataToken);
                foreach (MethodInfo method in methods)
                {
                    var fact = (FactAttribute)method.GetCustomAttributes(typeof(FactAttribute), true)[0];
                    string baseName = type.Name + "." + method.Name;
                    IEnumerable<object[]> rows;
                    if (fact is TheoryAttribute)
                    {
                        try
                        {
                            rows = method.GetCustomAttributes(typeof(DataAttribute), true)
                                .Cast<DataAttribute>()
                                .SelectMany(d => d.GetData(method))
                                .ToList();
                        }
                        catch (Exception e)
                        {
                            failed++;
                            failures.Add(baseName + ": cannot enumerate its data: " + Describe(e));
                            continue;
                        }
                    }
                    else
                    {
                        rows = new[] { new object[0] };
                    }
                    foreach (object[] row in rows)
                    {
                        string name = row.Length == 0 ? baseName : baseName + "(" + string.Join(", ", row.Select(Show)) + ")";
                        if (filters.Length > 0 && !filters.Any(f => name.IndexOf(f, StringComparison.Ordinal) >= 0)) continue;
                        if (fact.Skip != null)
                        {
                            skipped++;
                            continue;
                        }
                        var watch = Stopwatch.StartNew();
                        string failure = Run(type, method, row);
                        if (failure == null)
                        {
                            passed++;
                            if (verbose) Console.WriteLine("PASS " + name + " (" + watch.ElapsedMilliseconds + " ms)");
                        }
                        else
                        {
                            failed++;
                            failures.Add(name + "\n" + Indent(failure));
                            Console.WriteLine("FAIL " + name);
                        }
                    }
                }
            }

            foreach (string f in failures) Console.WriteLine("\n--- " + f);
            Console.WriteLine();
            Console.WriteLine("C# tests ran in " + clock.Elapsed.TotalSeconds.ToString("0.0") + " s" + (skipped > 0 ? " (" + skipped + " skipped)" : ""));
            Console.WriteLine(passed + " passed, " + failed + " failed");
            return failed == 0 && passed > 0 ? 0 : 1;
        }

        private static string Run(Type type, MethodInfo method, object[] row)
        {
            object instance = null;
            try
            {
                ParameterInfo[] ps = method.GetParameters();
                if (ps.Length != row.Length)
                    return "the data row has " + row.Length + " values for " + ps.Length + " parameters";
                var args = new object[row.Length];
                for (int i = 0; i < row.Length; i++) args[i] = Convert(row[i], ps[i].ParameterType);
                if (!method.IsStatic) instance = Activator.CreateInstance(type);
                object returned = method.Invoke(instance, args);
                var task = returned as Task;
                if (task != null) task.GetAwaiter().GetResult();
                return null;
            }
            catch (TargetInvocationException e)
            {
                return Describe(e.InnerException ?? e);
            }
            catch (Exception e)
            {
                return Describe(e);
            }
            finally
            {
                var disposable = instance as IDisposable;
                if (disposable != null)
                {
                    try { disposable.Dispose(); }
                    catch (Exception e) { Console.WriteLine("dispose failed: " + e.Message); }
                }
            }
        }

        private static object Convert(object value, Type target)
        {
            if (value == null || target.IsInstanceOfType(value)) return value;
            Type t = Nullable.GetUnderlyingType(target) ?? target;
            if (t.IsEnum) return Enum.ToObject(t, value);
            if (value is IConvertible) return System.Convert.ChangeType(value, t);
            return value;
        }

        private static string Describe(Exception e)
        {
            while (e is TargetInvocationException && e.InnerException != null) e = e.InnerException;
            if (e is XunitException) return e.Message + "\n" + Trace(e);
            return e.GetType().FullName + ": " + e.Message + "\n" + Trace(e);
        }

        private static string Trace(Exception e)
        {
            return string.Join("\n", (e.StackTrace ?? "").Split('\n')
                .Where(l => l.IndexOf("Xunit.Assert", StringComparison.Ordinal) < 0 && l.IndexOf("System.Reflection", StringComparison.Ordinal) < 0)
                .Take(8));
        }

        private static string Indent(string s)
        {
            return "  " + s.Replace("\n", "\n  ");
        }

        private static string Show(object o)
        {
            if (o == null) return "null";
            var s = o as string;
            if (s != null) return "\"" + s.Replace("\\", "\\\\").Replace("\0", "\\0").Replace("\n", "\\n").Replace("\r", "\\r").Replace("\t", "\\t") + "\"";
            return o.ToString();
        }
    }
}
