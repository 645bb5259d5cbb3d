// A tiny stand-in for the part of the xUnit API the tests use, so the same test classes
// compile with Mono's mcs where the .NET SDK and NuGet are absent. Under `dotnet test` the
// real xunit package is used instead and this file is not compiled (tests/V4A.Tests.csproj
// does not include this folder). Only signatures that xUnit 2.x has with the same meaning
// are declared here, so a test that compiles against the shim compiles against xUnit.

using System;
using System.Collections;
using System.Collections.Generic;
using System.Linq;
using System.Reflection;

namespace Xunit.Sdk
{
    /// <summary>An assertion failed.</summary>
    public class XunitException : Exception
    {
        public XunitException(string message) : base(message) { }
    }

    /// <summary>A test data source.</summary>
    [AttributeUsage(AttributeTargets.Method, AllowMultiple = true)]
    public abstract class DataAttribute : Attribute
    {
        public abstract IEnumerable<object[]> GetData(MethodInfo testMethod);
    }
}

namespace Xunit
{
    using Xunit.Sdk;

    [AttributeUsage(AttributeTargets.Method, AllowMultiple = false)]
    public class FactAttribute : Attribute
    {
        public string DisplayName { get; set; }
        public string Skip { get; set; }
    }

    [AttributeUsage(AttributeTargets.Method, AllowMultiple = false)]
    public class TheoryAttribute : FactAttribute
    {
    }

    public sealed class InlineDataAttribute : DataAttribute
    {
        private readonly object[] data;

        public InlineDataAttribute(params object[] data)
        {
            this.data = data ?? new object[] { null };
        }

        public override IEnumerable<object[]> GetData(MethodInfo testMethod)
        {
            return new[] { data };
        }
    }

    public sealed class MemberDataAttribute : DataAttribute
    {
        public MemberDataAttribute(string memberName, params object[] parameters)
        {
            MemberName = memberName;
            Parameters = parameters;
        }

        public string MemberName { get; private set; }
        public object[] Parameters { get; private set; }
        public Type MemberType { get; set; }

        public override IEnumerable<object[]> GetData(MethodInfo testMethod)
        {
            Type type = MemberType ?? testMethod.DeclaringType;
            const BindingFlags flags = BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Static | BindingFlags.FlattenHierarchy;
            object value;
            PropertyInfo p = type.GetProperty(MemberName, flags);
            if (p != null) value = p.GetValue(null, null);
            else
            {
                FieldInfo f = type.GetField(MemberName, flags);
                if (f != null) value = f.GetValue(null);
                else
                {
                    MethodInfo m = type.GetMethod(MemberName, flags);
                    if (m == null) throw new ArgumentException("MemberData: no static member " + MemberName + " on " + type.FullName);
                    value = m.Invoke(null, Parameters);
                }
            }
            var rows = value as IEnumerable<object[]>;
            if (rows == null) throw new ArgumentException("MemberData: " + MemberName + " is not an IEnumerable<object[]>");
            return rows;
        }
    }

    public static class Assert
    {
        private static string Show(object o)
        {
            if (o == null) return "null";
            var s = o as string;
            if (s != null) return "\"" + Escape(s) + "\"";
            var e = o as IEnumerable;
            if (e != null) return "[" + string.Join(", ", e.Cast<object>().Select(Show)) + "]";
            return o.ToString();
        }

        private static string Escape(string s)
        {
            if (s.Length > 600) s = s.Substring(0, 600) + "...(" + s.Length + " chars)";
            return s.Replace("\\", "\\\\").Replace("\r", "\\r").Replace("\n", "\\n").Replace("\t", "\\t").Replace("\0", "\\0");
        }

        private static bool DeepEqual(object a, object b)
        {
            if (ReferenceEquals(a, b)) return true;
            if (a == null || b == null) return false;
            if (a is string || b is string) return string.Equals(a as string, b as string, StringComparison.Ordinal);
            var ea = a as IEnumerable;
            var eb = b as IEnumerable;
            if (ea != null && eb != null)
            {
                var la = ea.Cast<object>().ToList();
                var lb = eb.Cast<object>().ToList();
                if (la.Count != lb.Count) return false;
                for (int i = 0; i < la.Count; i++)
                    if (!DeepEqual(la[i], lb[i])) return false;
                return true;
            }
            return a.Equals(b);
        }

        public static void Equal<T>(T expected, T actual)
        {
            if (!DeepEqual(expected, actual))
                throw new XunitException("Assert.Equal() Failure\nExpected: " + Show(expected) + "\nActual:   " + Show(actual));
        }

        public static void Equal<T>(IEnumerable<T> expected, IEnumerable<T> actual)
        {
            if (!DeepEqual(expected, actual))
                throw new XunitException("Assert.Equal() Failure: collections differ\nExpected: " + Show(expected) + "\nActual:   " + Show(actual));
        }

        public static void Equal(string expected, string actual)
        {
            if (!string.Equals(expected, actual, StringComparison.Ordinal))
            {
                int i = 0;
                if (expected != null && actual != null)
                    while (i < expected.Length && i < actual.Length && expected[i] == actual[i]) i++;
                throw new XunitException("Assert.Equal() Failure: strings differ at index " + i + "\nExpected: " + Show(expected) + "\nActual:   " + Show(actual));
            }
        }

        public static void Equal(double expected, double actual, int precision)
        {
            if (Math.Round(expected, precision) != Math.Round(actual, precision))
                throw new XunitException("Assert.Equal() Failure\nExpected: " + expected + "\nActual:   " + actual);
        }

        public static void NotEqual<T>(T expected, T actual)
        {
            if (DeepEqual(expected, actual))
                throw new XunitException("Assert.NotEqual() Failure: both are " + Show(actual));
        }

        public static void True(bool condition)
        {
            True(condition, null);
        }

        public static void True(bool condition, string userMessage)
        {
            if (!condition) throw new XunitException(userMessage ?? "Assert.True() Failure");
        }

        public static void False(bool condition)
        {
            False(condition, null);
        }

        public static void False(bool condition, string userMessage)
        {
            if (condition) throw new XunitException(userMessage ?? "Assert.False() Failure");
        }

        public static void Null(object @object)
        {
            if (@object != null) throw new XunitException("Assert.Null() Failure: " + Show(@object));
        }

        public static void NotNull(object @object)
        {
            if (@object == null) throw new XunitException("Assert.NotNull() Failure");
        }

        public static void Same(object expected, object actual)
        {
            if (!ReferenceEquals(expected, actual)) throw new XunitException("Assert.Same() Failure");
        }

        public static void NotSame(object expected, object actual)
        {
            if (ReferenceEquals(expected, actual)) throw new XunitException("Assert.NotSame() Failure");
        }

        public static void Empty(IEnumerable collection)
        {
            if (collection == null) throw new ArgumentNullException("collection");
            if (collection.Cast<object>().Any()) throw new XunitException("Assert.Empty() Failure: " + Show(collection));
        }

        public static void NotEmpty(IEnumerable collection)
        {
            if (collection == null) throw new ArgumentNullException("collection");
            if (!collection.Cast<object>().Any()) throw new XunitException("Assert.NotEmpty() Failure");
        }

        public static T Single<T>(IEnumerable<T> collection)
        {
            var list = collection.ToList();
            if (list.Count != 1) throw new XunitException("Assert.Single() Failure: " + list.Count + " elements: " + Show(list));
            return list[0];
        }

        public static void Contains(string expectedSubstring, string actualString)
        {
            if (actualString == null || expectedSubstring == null || actualString.IndexOf(expectedSubstring, StringComparison.Ordinal) < 0)
                throw new XunitException("Assert.Contains() Failure\nNot found: " + Show(expectedSubstring) + "\nIn value:  " + Show(actualString));
        }

        public static void Contains<T>(T expected, IEnumerable<T> collection)
        {
            if (!collection.Any(x => DeepEqual(expected, x)))
                throw new XunitException("Assert.Contains() Failure\nNot found: " + Show(expected) + "\nIn value:  " + Show(collection));
        }

        public static void DoesNotContain(string expectedSubstring, string actualString)
        {
            if (actualString != null && actualString.IndexOf(expectedSubstring, StringComparison.Ordinal) >= 0)
                throw new XunitException("Assert.DoesNotContain() Failure\nFound: " + Show(expectedSubstring) + "\nIn value: " + Show(actualString));
        }

        public static void StartsWith(string expectedStartString, string actualString)
        {
            if (actualString == null || !actualString.StartsWith(expectedStartString, StringComparison.Ordinal))
                throw new XunitException("Assert.StartsWith() Failure\nExpected start: " + Show(expectedStartString) + "\nActual: " + Show(actualString));
        }

        public static void EndsWith(string expectedEndString, string actualString)
        {
            if (actualString == null || !actualString.EndsWith(expectedEndString, StringComparison.Ordinal))
                throw new XunitException("Assert.EndsWith() Failure\nExpected end: " + Show(expectedEndString) + "\nActual: " + Show(actualString));
        }

        public static void InRange<T>(T actual, T low, T high) where T : IComparable
        {
            if (actual.CompareTo(low) < 0 || actual.CompareTo(high) > 0)
                throw new XunitException("Assert.InRange() Failure: " + actual + " is not in [" + low + ", " + high + "]");
        }

        public static void All<T>(IEnumerable<T> collection, Action<T> action)
        {
            int i = 0;
            foreach (T item in collection)
            {
                try { action(item); }
                catch (Exception e) { throw new XunitException("Assert.All() Failure at index " + i + ": " + e.Message); }
                i++;
            }
        }

        public static void Fail(string message)
        {
            throw new XunitException("Assert.Fail(): " + message);
        }

        public static T IsType<T>(object @object)
        {
            if (@object == null || @object.GetType() != typeof(T))
                throw new XunitException("Assert.IsType() Failure: expected " + typeof(T).FullName + ", got " + (@object == null ? "null" : @object.GetType().FullName));
            return (T)@object;
        }

        public static T IsAssignableFrom<T>(object @object)
        {
            if (!(@object is T))
                throw new XunitException("Assert.IsAssignableFrom() Failure: expected " + typeof(T).FullName + ", got " + (@object == null ? "null" : @object.GetType().FullName));
            return (T)@object;
        }

        private static Exception Record(Action testCode)
        {
            try
            {
                testCode();
                return null;
            }
            catch (Exception e)
            {
                return e;
            }
        }

        public static T Throws<T>(Action testCode) where T : Exception
        {
            Exception e = Record(testCode);
            if (e == null) throw new XunitException("Assert.Throws() Failure: expected " + typeof(T).FullName + ", no exception was thrown");
            if (e.GetType() != typeof(T))
                throw new XunitException("Assert.Throws() Failure: expected " + typeof(T).FullName + ", got " + e.GetType().FullName + ": " + e.Message);
            return (T)e;
        }

        public static T Throws<T>(Func<object> testCode) where T : Exception
        {
            return Throws<T>(() => { testCode(); });
        }

        public static T ThrowsAny<T>(Action testCode) where T : Exception
        {
            Exception e = Record(testCode);
            if (e == null) throw new XunitException("Assert.ThrowsAny() Failure: expected " + typeof(T).FullName + ", no exception was thrown");
            if (!(e is T))
                throw new XunitException("Assert.ThrowsAny() Failure: expected " + typeof(T).FullName + ", got " + e.GetType().FullName + ": " + e.Message);
            return (T)e;
        }

        public static T ThrowsAny<T>(Func<object> testCode) where T : Exception
        {
            return ThrowsAny<T>(() => { testCode(); });
        }
    }
}
