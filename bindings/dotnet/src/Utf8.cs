using System;
using System.Text;
using System.Threading;

namespace V4A
{
    /// <summary>UTF-8 conversions between .NET strings and the native (pointer, length) views.</summary>
    internal static unsafe class Utf8
    {
        /// <summary>Throws on a lone surrogate instead of writing U+FFFD: a patch must never change text silently.</summary>
        private static readonly UTF8Encoding Strict = new UTF8Encoding(false, true);

        internal static readonly byte[] Empty = new byte[0];

        /// <summary>
        /// Encodes <paramref name="s"/> (null is empty); returns null, or the error for a string
        /// that holds a lone surrogate and so has no UTF-8 form.
        /// </summary>
        internal static V4AError Encode(string s, string what, out byte[] bytes)
        {
            if (string.IsNullOrEmpty(s))
            {
                bytes = Empty;
                return null;
            }
            try
            {
                bytes = Strict.GetBytes(s);
                return null;
            }
            catch (EncoderFallbackException e)
            {
                bytes = Empty;
                return LoneSurrogate(what, e);
            }
        }

        /// <summary>
        /// Encodes <paramref name="s"/> into a buffer reused across calls (two, process-wide, up to
        /// <see cref="KeepLimit"/> bytes each): no large array is allocated and zeroed per call. Give
        /// it back with <see cref="Return"/> after the native call. <paramref name="length"/> is the
        /// number of bytes written.
        /// </summary>
        internal static V4AError EncodeRented(string s, string what, out byte[] buffer, out int length)
        {
            buffer = null;
            length = 0;
            if (string.IsNullOrEmpty(s)) return null;
            // One UTF-16 unit is at most 3 UTF-8 bytes (a surrogate pair, 2 units, is 4).
            long need = (long)s.Length * 3;
            if (need > KeepLimit)
            {
                V4AError error = Encode(s, what, out buffer);
                length = buffer.Length;
                return error;
            }
            buffer = Interlocked.Exchange(ref cached, null) ?? Interlocked.Exchange(ref cachedSecond, null);
            if (buffer == null || buffer.Length < need) buffer = new byte[Math.Max(need, 4096)];
            try
            {
                length = Strict.GetBytes(s, 0, s.Length, buffer, 0);
                return null;
            }
            catch (EncoderFallbackException e)
            {
                return LoneSurrogate(what, e);
            }
        }

        /// <summary>Gives a buffer from <see cref="EncodeRented"/> back for the next call.</summary>
        internal static void Return(byte[] buffer)
        {
            if (buffer == null || buffer.Length > KeepLimit) return;
            if (Interlocked.CompareExchange(ref cached, buffer, null) != null) Volatile.Write(ref cachedSecond, buffer);
        }

        /// <summary>The largest encode buffer kept between calls.</summary>
        private const int KeepLimit = 16 << 20;

        /// <summary>The buffers kept: an apply rents one, <see cref="ApplyResult.GetUnifiedDiff(int)"/> two.</summary>
        private static byte[] cached, cachedSecond;

        private static V4AError LoneSurrogate(string what, EncoderFallbackException e)
        {
            return V4AError.Argument(
                what + " is not valid UTF-16: the lone surrogate at index " + e.Index
                + " has no UTF-8 form, so the text cannot be patched without changing it.");
        }

        /// <summary>A present view as a string ("" for an absent one).</summary>
        internal static string Decode(V4ABytes b)
        {
            if (b.Ptr == null) return string.Empty;
            int n = Length(b.Len);
            return n == 0 ? string.Empty : Encoding.UTF8.GetString(b.Ptr, n);
        }

        /// <summary>A view as a string, or null when it is absent (<c>{NULL, 0}</c>).</summary>
        internal static string DecodeOrNull(V4ABytes b)
        {
            return b.Ptr == null ? null : Decode(b);
        }

        /// <summary>A static NUL-terminated C string.</summary>
        internal static string FromCString(byte* p)
        {
            if (p == null) return null;
            int n = 0;
            while (p[n] != 0) n++;
            return Encoding.UTF8.GetString(p, n);
        }

        internal static int Length(UIntPtr len)
        {
            ulong n = len.ToUInt64();
            if (n > int.MaxValue) throw new OverflowException("a v4a result of " + n + " elements does not fit a .NET array or string");
            return (int)n;
        }

        /// <summary>
        /// The UTF-16 index in the decoded string of byte offset <paramref name="target"/> in the
        /// UTF-8 text at <paramref name="text"/>, counting on from a known pair
        /// (<paramref name="fromByte"/>, <paramref name="fromIndex"/>) at or before it: one
        /// UTF-16 unit per UTF-8 lead byte, two for the lead byte of a 4-byte sequence (a
        /// surrogate pair). Offsets fall on character boundaries (segments are on grapheme
        /// boundaries).
        /// </summary>
        internal static int Utf16Index(byte* text, int fromByte, int fromIndex, int target)
        {
            int index = fromIndex;
            for (int i = fromByte; i < target; i++)
            {
                byte b = text[i];
                if ((b & 0xC0) != 0x80) index += b >= 0xF0 ? 2 : 1;
            }
            return index;
        }
    }
}
