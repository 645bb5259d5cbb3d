using System.Runtime.CompilerServices;

// The tests check the native struct layouts (internal types) against the C header.
[assembly: InternalsVisibleTo("V4A.Tests")]
